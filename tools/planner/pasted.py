"""Template fragments pasted into a request, read as what they say.

People paste a piece of a template ("target:" with its keys, "kernel:" with a
"cmdline:", a "users:" list) and expect it applied. :func:`read_pasted` finds each run of
YAML-shaped lines whose top key is a template field, parses it, and writes it as the plain
request the rules read ("kernel cmdline: console=ttyS0,115200", "add user deploy with
sudo in groups adm"). A run that does not parse, or names no field this module knows, is
left as written (the leftovers report it).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import yaml

# a line of a YAML mapping or list: "key: value", "key:", "- name: x", "  - htop"
_LINE = re.compile(r"^[ \t]*(?:-[ \t]+)?(?:[A-Za-z_][\w.-]*[ \t]*:(?:[ \t].*)?|-[ \t]*\S.*)$")
_TOP = re.compile(r"^(?P<key>[A-Za-z_][\w-]*)[ \t]*:")


def _words(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(v) for v in value if isinstance(v, (str, int, float)) and str(v).strip()]
    if isinstance(value, str):
        return [w for w in re.split(r"[\s,]+", value) if w]
    return []


def _target(value: Any) -> list[str]:
    if not isinstance(value, dict):
        return []
    said = [str(value[k]) for k in ("dist", "arch", "imageType") if value.get(k)]
    if not value.get("dist") and value.get("os"):
        said.insert(0, str(value["os"]))
    return [" ".join(said)] if said else []


def _kernel(value: Any) -> list[str]:
    if not isinstance(value, dict):
        return []
    said = []
    if value.get("version"):
        said.append(f"kernel {value['version']}")
    if isinstance(value.get("cmdline"), str) and value["cmdline"].strip():
        said.append(f"kernel cmdline: {' '.join(value['cmdline'].split())}")
    return said


def _users(value: Any) -> list[str]:
    said = []
    for user in value if isinstance(value, list) else []:
        if not isinstance(user, dict) or not isinstance(user.get("name"), str):
            continue  # cloud-init's "- default" is its stock user, no name of ours
        words = [f"add a user {user['name']}"]
        sudo = user.get("sudo")
        if sudo is True or (isinstance(sudo, str) and "ALL" in sudo):  # "ALL=(ALL) NOPASSWD:ALL"
            words.append("with sudo")
        elif sudo is False:
            words.append("without sudo")
        groups = _words(user.get("groups"))
        if groups:
            words.append(f"in the groups {', '.join(groups)}")
        if isinstance(user.get("shell"), str):
            words.append(f"with shell {user['shell']}")
        said.append(" ".join(words))
    return said


def _packages(value: Any) -> list[str]:
    names = _words(value)
    return [f"add the packages {', '.join(names)}"] if names else []


def _hostname(value: Any) -> list[str]:
    return [f"hostname {value}"] if isinstance(value, str) and value.strip() else []


def _disk(value: Any) -> list[str]:
    if isinstance(value, dict) and isinstance(value.get("size"), (str, int)):
        return [f"disk size {value['size']}"]
    return []


_FIELDS: dict[str, Callable[[Any], list[str]]] = {
    "target": _target,
    "kernel": _kernel,
    "users": _users,
    "packages": _packages,
    "hostname": _hostname,
    "disk": _disk,
}


# cloud-init user-data and Ubuntu autoinstall keys no template field holds: reported once
_NO_FIELD = frozenset(
    "timezone locale keyboard ntp runcmd bootcmd write_files package_update package_upgrade "
    "package_reboot_if_required ssh_authorized_keys ssh_pwauth chpasswd apt snap mounts "
    "disk_setup fs_setup growpart network storage late-commands early-commands ssh "
    "ca_certs power_state final_message manage_etc_hosts fqdn".split()
)


# cloud-init keys that ask, at first boot, for what the image build does anyway (kept in
# the skipped keys with this mark, and noted instead of reported)
_BUILT = "built:"
_AT_BUILD = frozenset({"package_update", "package_upgrade"})


def _identity(value: Any) -> list[str]:
    if not isinstance(value, dict):
        return []
    said = _hostname(value.get("hostname"))
    if isinstance(value.get("username"), str):
        said.append(f"add a user {value['username']}")
    return said


def _render(data: dict[str, Any], skipped: list[str]) -> list[str] | None:
    """The plain request for a parsed fragment, or None when a key is not understood.

    Keys of cloud-init or autoinstall that no template field holds go to ``skipped``.
    """
    for wrapper in ("systemConfig", "autoinstall"):
        inner = data.get(wrapper)
        if isinstance(inner, dict):
            data = {**{k: v for k, v in data.items() if k != wrapper}, **inner}
    said: list[str] = []
    for key, value in data.items():
        if str(key) in _AT_BUILD and value is True:
            # the build installs the repositories' current packages already
            skipped.append(f"{_BUILT}{key}")
            continue
        if str(key) in _NO_FIELD:
            skipped.append(str(key))
            continue
        reader = _FIELDS.get(str(key)) or (_identity if key == "identity" else None)
        if reader is None:
            return None
        found = reader(value)
        if not found:
            return None
        said += found
    return said if said or skipped else None


_WRAPPERS = ("systemConfig", "autoinstall", "identity")
_BACKTICKED = re.compile(r"`(?P<yaml>[A-Za-z_][\w-]*:\s[^`\n]+)`")


def _runs(lines: list[str]) -> list[tuple[int, int]]:
    """``(first, end)`` line ranges that look like a YAML mapping with a template key."""
    runs: list[tuple[int, int]] = []
    index = 0
    while index < len(lines):
        top = _TOP.match(lines[index])
        if top is None or top.group("key") not in (*_FIELDS, *_NO_FIELD, *_WRAPPERS):
            index += 1
            continue
        end = index + 1
        while end < len(lines) and lines[end][:1] in (" ", "\t", "-") and _LINE.match(lines[end]):
            end += 1
        if end > index + 1 or lines[index].split(":", 1)[1].strip():
            runs.append((index, end))
        index = end
    return runs


def read_pasted(text: str) -> tuple[str, list[str]]:
    """Rewrite each pasted template fragment in ``text`` as a plain request.

    Returns:
        The rewritten text, and one notice per fragment ("read the pasted 'users:' as
        'add a user deploy with sudo in the groups adm'").
    """
    rewritten, notices, _ = read_pasted_all(text)
    return rewritten, notices


def _inline(text: str, skipped: list[str]) -> str:
    """```runcmd: [a, b]``` or ```hostname: x``` said inside a sentence."""

    def one(match: re.Match[str]) -> str:
        try:
            data = yaml.safe_load(match.group("yaml"))
        except yaml.YAMLError:
            return match.group(0)
        if not isinstance(data, dict):
            return match.group(0)
        mine: list[str] = []
        said = _render(data, mine)
        if said is None:
            return match.group(0)
        skipped.extend(mine)
        return "; ".join(said) if said else "that"

    return _BACKTICKED.sub(one, text)


def read_pasted_all(text: str) -> tuple[str, list[str], list[str]]:
    """:func:`read_pasted`, and the pasted keys no template field holds, as one report."""
    skipped: list[str] = []
    if ":" not in text:
        return text, [], []
    text = _inline(text, skipped)
    lines = text.split("\n")
    notices: list[str] = []
    for first, end in reversed(_runs(lines) if len(lines) > 1 else []):
        try:
            data = yaml.safe_load("\n".join(lines[first:end]))
        except yaml.YAMLError:
            continue
        if not isinstance(data, dict):
            continue
        mine: list[str] = []
        said = _render(data, mine)
        if said is None:
            continue
        skipped[:0] = mine
        sentence = "; ".join(said) + ";" if said else ""
        key = _TOP.match(lines[first])
        if said:
            notices.append(f"read the pasted '{key.group('key') if key else ''}:' as '{sentence}'")
        lines[first:end] = [sentence] if said else []
    if skipped:
        lines = [line for line in lines if line.strip() != "#cloud-config"]
    built = [key[len(_BUILT) :] for key in skipped if key.startswith(_BUILT)]
    skipped = [key for key in skipped if not key.startswith(_BUILT)]
    if built:
        notices.append(
            f"the pasted {', '.join(dict.fromkeys(built))}: the image is built from the "
            "repositories' current packages"
        )
    unmapped = (
        [
            f"from the pasted configuration: {', '.join(dict.fromkeys(skipped))} — no template "
            "field holds this; set it up after install (a first-boot script or your "
            "configuration management)"
        ]
        if skipped
        else []
    )
    return "\n".join(lines), list(reversed(notices)), unmapped
