"""Which known composer behaviours a template runs into, and the alternatives the agent uses.

The behaviours are data (:mod:`oic_ai.stores.composer_behaviour`); each names a ``when``
predicate defined here. :func:`behaviour_hits` lists where a template runs into one, for
the validator's warnings (``tools/template_checks.py``), the answer's notes (``respond``)
and ``oic-ai verify``'s explanations. :func:`alternatives_plan` is what the agent does
about the behaviours that have a composer-supported alternative: today, it names the host
after the image when the template leaves the hostname to the build host.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from oic_ai.stores.composer_behaviour import ComposerBehaviour, load_behaviours
from oic_ai.stores.yaml_document import PathPart

_Where = tuple[tuple[PathPart, ...], str]  # a document path and the subject (a user name)


@dataclass(frozen=True)
class BehaviourHit:
    """One place where a template runs into a known composer behaviour."""

    behaviour: ComposerBehaviour
    path: tuple[PathPart, ...]
    subject: str = ""

    def message(self) -> str:
        """The behaviour's one-line warning, for this place (a user's name filled in)."""
        return self.behaviour.warning.replace("{user}", self.subject or "?")


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _system(data: Mapping[str, Any]) -> Mapping[str, Any]:
    return _mapping(data.get("systemConfig"))


def _kernel(data: Mapping[str, Any]) -> Mapping[str, Any]:
    return _mapping(_system(data).get("kernel"))


def _hostname_unset(data: Mapping[str, Any]) -> list[_Where]:
    hostname = _system(data).get("hostname")
    unset = not (isinstance(hostname, str) and hostname.strip())
    return [(("systemConfig",), "")] if unset and "systemConfig" in data else []


def _users_without_password(data: Mapping[str, Any]) -> list[_Where]:
    users = _system(data).get("users")
    found: list[_Where] = []
    for index, user in enumerate(users if isinstance(users, list) else []):
        if isinstance(user, Mapping) and isinstance(user.get("name"), str):
            password = user.get("password")
            if not (isinstance(password, str) and password):
                found.append((("systemConfig", "users", index), str(user["name"])))
    return found


def _users_setting(
    key: str, composer_value: Callable[[str], object] = lambda name: None
) -> Callable[[Mapping[str, Any]], list[_Where]]:
    """A predicate: users that set ``key`` to something other than what the composer uses.

    Args:
        key: ``shell``, ``home`` or ``passwordMaxAge``.
        composer_value: What the composer gives a user of this name anyway (``/bin/bash``).
    """

    def users_setting(data: Mapping[str, Any]) -> list[_Where]:
        users = _system(data).get("users")
        return [
            (("systemConfig", "users", index, key), str(user["name"]))
            for index, user in enumerate(users if isinstance(users, list) else [])
            if isinstance(user, Mapping)
            and isinstance(user.get("name"), str)
            and user.get(key) not in (None, "", 0, composer_value(str(user["name"])))
        ]

    return users_setting


def _users_hash_without_algo(data: Mapping[str, Any]) -> list[_Where]:
    """Users whose password is a crypt hash (or the hash placeholder) with no hash_algo."""
    from oic_ai.tools.template_keys import PASSWORD_PLACEHOLDER

    users = _system(data).get("users")
    found: list[_Where] = []
    for index, user in enumerate(users if isinstance(users, list) else []):
        if not (isinstance(user, Mapping) and isinstance(user.get("name"), str)):
            continue
        password = user.get("password")
        hashed = isinstance(password, str) and (
            password.startswith("$") or password.strip() == PASSWORD_PLACEHOLDER
        )
        if hashed and not user.get("hash_algo"):
            found.append((("systemConfig", "users", index, "password"), str(user["name"])))
    return found


# crypt(3) prefixes and the hash_algo names the composer knows for them
_HASH_ALGOS = (("$6$", "sha512"), ("$5$", "sha256"), ("$1$", "md5"), ("$2", "bcrypt"))


def hash_algo_for(password: str) -> str:
    """The ``hash_algo`` for a crypt hash (``sha512`` for ``$6$``; sha512 when unknown).

    With a hash (``$...``) the composer only needs hash_algo to be set; a placeholder
    gets sha512, what ``openssl passwd -6`` makes.
    """
    return next((algo for prefix, algo in _HASH_ALGOS if password.startswith(prefix)), "sha512")


def _grub_bootloader(data: Mapping[str, Any]) -> list[_Where]:
    provider = _mapping(_system(data).get("bootloader")).get("provider")
    return [(("systemConfig", "bootloader"), "")] if provider in ("grub", "grub2") else []


def _kernel_version_set(data: Mapping[str, Any]) -> list[_Where]:
    version = _kernel(data).get("version")
    if isinstance(version, str | int | float) and str(version).strip():
        return [(("systemConfig", "kernel", "version"), "")]
    return []


PREDICATES: dict[str, Callable[[Mapping[str, Any]], list[_Where]]] = {
    "hostname-unset": _hostname_unset,
    "user-without-password": _users_without_password,
    "grub-bootloader": _grub_bootloader,
    "kernel-version-set": _kernel_version_set,
    "user-hash-without-hash-algo": _users_hash_without_algo,
    "user-sets-shell": _users_setting("shell", lambda name: "/bin/bash"),
    "user-sets-home": _users_setting("home", lambda name: f"/home/{name}"),
    "user-sets-password-max-age": _users_setting("passwordMaxAge"),
}


def behaviour_hits(data: Mapping[str, Any], *, agent: tuple[str, ...] = ()) -> list[BehaviourHit]:
    """Every known behaviour the template runs into (only those with ``agent`` if given).

    Raises:
        KeyError: a behaviour names a predicate that does not exist (a data bug; a test
            checks the shipped file).
    """
    hits: list[BehaviourHit] = []
    for behaviour in load_behaviours().behaviours:
        if agent and behaviour.agent not in agent:
            continue
        for path, subject in PREDICATES[behaviour.when](data):
            hits.append(BehaviourHit(behaviour, path, subject))
    return hits


def composer_notes(text: str) -> list[str]:
    """``Composer: ...`` lines for the ``note`` behaviours a template runs into (no status)."""
    from oic_ai.stores.yaml_document import YamlSyntaxError, load_data

    try:
        data = load_data(text)
    except YamlSyntaxError:
        return []
    if not isinstance(data, Mapping):
        return []
    lines = [f"Composer: {hit.message()}." for hit in behaviour_hits(data, agent=("note",))]
    return list(dict.fromkeys(lines))


def hostname_for(data: Mapping[str, Any]) -> str | None:
    """A hostname from the template's own image name (else its system name), or None.

    Lower case, ``-`` for anything but letters and digits, at most 63 characters: a valid
    single-label hostname, taken from the template, never made up.
    """
    from oic_ai.stores.targets import load_targets

    pattern = load_targets().pattern("hostname")
    for source in (_mapping(data.get("image")).get("name"), _system(data).get("name")):
        if not isinstance(source, str):
            continue
        label = re.sub(r"[^a-z0-9]+", "-", source.lower()).strip("-")[:63].strip("-")
        if label and pattern.match(label):
            return label
    return None


def alternatives_plan(text: str) -> Any:
    """The agent's composer-supported alternatives for ``text``, as an edit plan, or None.

    A template that leaves the hostname to the build host gets one named after its image;
    a user whose password is a crypt hash (or its placeholder) gets the ``hash_algo`` that
    makes the composer use it as it is. None when nothing applies or the text is not a
    readable template.
    """
    from oic_ai.stores.yaml_document import YamlSyntaxError, load_data
    from oic_ai.tools.edit_plan import EditPlan, Operation, SetHostname, SetValue

    try:
        data = load_data(text)
    except YamlSyntaxError:
        return None
    if not isinstance(data, Mapping):
        return None
    operations: list[Operation] = []
    for hit in behaviour_hits(data, agent=("alternative",)):
        if hit.behaviour.id == "hostname-from-build-host":
            hostname = hostname_for(data)
            if hostname is not None:
                operations.append(SetHostname(hostname=hostname))
        elif hit.behaviour.id == "password-hash-without-hash-algo":
            user = _system(data)["users"][hit.path[2]]
            operations.append(
                SetValue(
                    path=f"systemConfig.users[name={hit.subject}].hash_algo",
                    value=hash_algo_for(str(user.get("password"))),
                )
            )
    if not operations:
        return None
    return EditPlan(summary="use what the composer supports", operations=operations)
