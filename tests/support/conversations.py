"""Labelled conversations, run turn by turn through the agent and checked against their labels.

The format is ``tests/data/conversations/FORMAT.md``. The development part
(``tests/data/conversations/dev.yaml``) runs in ``make test``; the held-out part
(``bench/heldout/conversations.yaml``) is read only by ``bench/conversations.py``, which
reports both. Nothing here knows how the planner works: the checks read the template a turn
produced, the turn's reported status, "not applied" items and answer, and nothing else.

A turn is *fully right* when every expectation of its label holds and the global rules
hold: no invented package, no duplicated kernel option, and (checked in a batch by
:func:`composer_verdicts`) the composer's own loader accepts the template with OS defaults.
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Container, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

PROJECT = Path(__file__).resolve().parents[2]
DEV = PROJECT / "tests" / "data" / "conversations" / "dev.yaml"
DEV2 = PROJECT / "tests" / "data" / "conversations" / "dev2.yaml"
DEV3 = PROJECT / "tests" / "data" / "conversations" / "dev3.yaml"
DEV4 = PROJECT / "tests" / "data" / "conversations" / "dev4.yaml"
DEV5 = PROJECT / "tests" / "data" / "conversations" / "dev5.yaml"
DEV6 = PROJECT / "tests" / "data" / "conversations" / "dev6.yaml"
DEV7 = PROJECT / "tests" / "data" / "conversations" / "dev7.yaml"
DEV8 = PROJECT / "tests" / "data" / "conversations" / "dev8.yaml"
DEV9 = PROJECT / "tests" / "data" / "conversations" / "dev9.yaml"
DEV10 = PROJECT / "tests" / "data" / "conversations" / "dev10.yaml"
HELDOUT = PROJECT / "bench" / "heldout" / "conversations.yaml"
# Every development part by name, in the order they were written (the held-out part is not one).
DEV_PARTS = {
    name: PROJECT / "tests" / "data" / "conversations" / f"{name}.yaml"
    for name in ("dev", *(f"dev{n}" for n in range(2, 23)))
}
OUR_TEMPLATES = PROJECT / "image-templates"
# the composer's reference templates, in the "shared" folder beside the project; a git
# worktree (/work/wt/NAME) is one folder deeper, and without them a name only they know
# (bash) counted as invented there and not in the main checkout
_REFERENCE = Path("shared") / "reference" / "os-image-composer" / "image-templates"
REFERENCE_TEMPLATES = next(
    (p / _REFERENCE for p in PROJECT.parents[:3] if (p / _REFERENCE).is_dir()),
    PROJECT.parent / _REFERENCE,
)
OK_STATUSES = ("valid", "valid_with_warnings")

_UNITS = {
    "b": 1,
    "kb": 1000,
    "mb": 1000**2,
    "gb": 1000**3,
    "tb": 1000**4,
    "kib": 1024,
    "mib": 1024**2,
    "gib": 1024**3,
    "tib": 1024**4,
    "k": 1024,
    "m": 1024**2,
    "g": 1024**3,
    "t": 1024**4,
}
_SIZE = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*([a-z]*)\s*$", re.IGNORECASE)


def size_bytes(value: object) -> int | None:
    """A size as the composer writes it (``8GiB``, ``500MB``, ``"0"``, bytes) in bytes."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    match = _SIZE.match(str(value))
    if not match:
        return None
    factor = _UNITS.get(match.group(2).lower() or "b")
    return None if factor is None else round(float(match.group(1)) * factor)


# libyaml's loader when PyYAML has it: a part parses every turn's template several times,
# and the pure-Python loader was a quarter of a part's time
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_conversations(path: Path) -> list[dict[str, Any]]:
    """The conversations of one labelled file."""
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER) or {}  # noqa: S506
    return list(data.get("conversations") or [])


def _doc(text: str | None) -> dict[str, Any]:
    try:
        data = yaml.load(text or "", Loader=_LOADER)  # noqa: S506 (a safe loader)
    except yaml.YAMLError:
        return {}
    return data if isinstance(data, dict) else {}


def _system(doc: dict[str, Any]) -> dict[str, Any]:
    value = doc.get("systemConfig")
    return value if isinstance(value, dict) else {}


def packages_of(doc: dict[str, Any]) -> list[str]:
    """``systemConfig.packages`` as strings."""
    return [str(p) for p in _system(doc).get("packages") or [] if p is not None]


def _kernel(doc: dict[str, Any]) -> dict[str, Any]:
    value = _system(doc).get("kernel")
    return value if isinstance(value, dict) else {}


def cmdline_of(doc: dict[str, Any]) -> str:
    """``systemConfig.kernel.cmdline``."""
    return str(_kernel(doc).get("cmdline") or "")


def _option_key(token: str) -> str:
    # console= may repeat for different devices; any other option is keyed by its name
    if token.startswith("console="):
        return token.split(",", 1)[0]
    return token.split("=", 1)[0]


def duplicated_options(cmdline: str) -> list[str]:
    """Kernel options whose key appears more than once (``console=ttyS0`` or ``quiet`` twice)."""
    seen: dict[str, int] = {}
    for token in cmdline.split():
        seen[_option_key(token)] = seen.get(_option_key(token), 0) + 1
    return sorted(key for key, count in seen.items() if count > 1)


def _users(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    users = _system(doc).get("users") or []
    return {str(u.get("name")): u for u in users if isinstance(u, dict) and u.get("name")}


def _partitions(doc: dict[str, Any]) -> list[dict[str, Any]]:
    disk = doc.get("disk") if isinstance(doc.get("disk"), dict) else {}
    return [p for p in (disk or {}).get("partitions") or [] if isinstance(p, dict)]


def _partition_size(part: dict[str, Any]) -> int | None:
    start, end = size_bytes(part.get("start")), size_bytes(part.get("end"))
    if start is None or end is None or end == 0:
        return None
    return end - start


def _has(fragments: Iterable[str], texts: Iterable[str]) -> list[str]:
    lowered = [t.lower() for t in texts]
    return [f for f in fragments if not any(f.lower() in t for t in lowered)]


def _lacks(have: Container[Any], wanted: Iterable[Any] | None) -> list[Any]:
    """The wanted items ``have`` does not hold (nothing wanted: none)."""
    return [w for w in wanted or [] if w not in have]


def _holds(have: Container[Any], unwanted: Iterable[Any] | None) -> list[Any]:
    """The unwanted items ``have`` holds (nothing unwanted: none)."""
    return [u for u in unwanted or [] if u in have]


def _same(a: str | None, b: str | None) -> bool:
    return _doc(a) == _doc(b) and bool(a) == bool(b)


# The label keys whose facts a later "keeps: true" turn must still show.
_KEPT = ("hostname", "users", "disk_size", "partitions", "cmdline_has", "repositories", "present")


@dataclass
class TurnOutcome:
    """One checked turn."""

    conversation: str
    turn: int
    say: str
    status: str | None
    failures: list[str] = field(default_factory=list)
    invented: list[str] = field(default_factory=list)
    seconds: float = 0.0
    template: str | None = None
    expects_template: bool = True

    @property
    def right(self) -> bool:
        """Every expectation and global rule held (the composer's verdict included)."""
        return not self.failures and not self.invented


@dataclass
class _Conversation:
    templates: list[str | None] = field(default_factory=list)
    expects: list[dict[str, Any]] = field(default_factory=list)
    base: str | None = None
    family: str | None = None


def _family(doc: dict[str, Any]) -> str | None:
    from oic_ai.stores.targets import load_targets

    dist = (doc.get("target") or {}).get("dist") if isinstance(doc.get("target"), dict) else None
    return load_targets().family_of(str(dist)) if dist else None


def check_turn(
    expect: dict[str, Any],
    result: Any,
    before: str | None,
    seen: _Conversation,
    after: str | None = None,
) -> list[str]:
    """What does not hold of ``expect`` for ``result`` (a ``TurnResult``).

    ``after`` is the session's template once the turn is done: a refused turn returns no
    template (``unsupported``: nothing was made), so "unchanged" is checked on the session.
    """
    failures: list[str] = []
    statuses = expect.get("status") or list(OK_STATUSES)
    if isinstance(statuses, str):
        statuses = [statuses]
    if result.status not in statuses:
        failures.append(f"status {result.status} not in {statuses}: {result.reasons[:3]}")
    doc = _doc(result.template)
    if result.status == "unsupported" and not doc:
        # a refusal makes no template: its target is the one the refusal names
        refused = (result.route.get("unsupported") or {}).get("target")
        doc = {"target": dict(refused)} if isinstance(refused, dict) else {}
    failures += template_failures(expect, doc, seen)
    shown = result.template if result.status != "unsupported" else after
    if expect.get("unchanged") and (
        (shown or None) != (before or None) or (after or before or None) != (before or None)
    ):
        failures.append("the template changed")
    if "same_as_turn" in expect:
        index = int(expect["same_as_turn"]) - 1
        if not 0 <= index < len(seen.templates) or not _same(
            result.template, seen.templates[index]
        ):
            failures.append(f"not the template of turn {expect['same_as_turn']}")
    reported = list(result.not_applied)
    wanted = expect.get("not_applied")
    if wanted is None and reported:
        failures.append(f"not applied: {reported}")
    elif wanted is True and not reported:
        failures.append("nothing reported as not applied")
    elif isinstance(wanted, list):
        failures += [f"not reported as not applied: {f}" for f in _has(wanted, reported)]
    failures += [
        f"answer lacks {f!r}" for f in _has(expect.get("answer_has") or [], [result.message])
    ]
    if expect.get("keeps"):
        failures += _kept(expect, doc, seen)
    duplicated = duplicated_options(cmdline_of(doc))
    if duplicated:
        failures.append(f"duplicated kernel options {duplicated}")
    return failures


def template_failures(
    expect: dict[str, Any], doc: dict[str, Any], seen: _Conversation
) -> list[str]:
    """The template facts of ``expect`` that ``doc`` does not have."""
    failures: list[str] = []
    target = doc.get("target") if isinstance(doc.get("target"), dict) else {}
    for key, value in (expect.get("target") or {}).items():
        if (target or {}).get(key) != value:
            failures.append(f"target.{key} is {(target or {}).get(key)!r}, not {value!r}")
    packages = set(packages_of(doc))
    failures += [f"package {name} missing" for name in _lacks(packages, expect.get("present"))]
    for group in expect.get("present_any") or []:
        if not packages & set(group):
            failures.append(f"none of {group} present")
    failures += [f"package {name} present" for name in _holds(packages, expect.get("absent"))]
    kernel_packages = {str(p) for p in _kernel(doc).get("packages") or []}
    failures += [
        f"kernel package {name} missing"
        for name in _lacks(kernel_packages, expect.get("kernel_packages"))
    ]
    if "hostname" in expect and _system(doc).get("hostname") != expect["hostname"]:
        failures.append(f"hostname {_system(doc).get('hostname')!r}, not {expect['hostname']!r}")
    users = _users(doc)
    for want in expect.get("users") or []:
        user = users.get(str(want["name"]))
        if user is None:
            failures.append(f"user {want['name']} missing")
            continue
        if "sudo" in want and bool(user.get("sudo")) != bool(want["sudo"]):
            failures.append(f"user {want['name']} sudo={user.get('sudo')}, not {want['sudo']}")
        groups = {str(g) for g in user.get("groups") or []}
        failures += [
            f"user {want['name']} not in group {g}"
            for g in _lacks(groups, want.get("groups_include"))
        ]
        failures += [
            f"user {want['name']} in group {g}" for g in _holds(groups, want.get("groups_exclude"))
        ]
        if "shell" in want and user.get("shell") != want["shell"]:
            failures.append(f"user {want['name']} shell {user.get('shell')!r}")
    for name in expect.get("users_absent") or []:
        if str(name) in users:
            failures.append(f"user {name} present")
    disk = doc.get("disk") if isinstance(doc.get("disk"), dict) else {}
    if "disk_size" in expect:
        have, want_size = size_bytes((disk or {}).get("size")), size_bytes(expect["disk_size"])
        if have != want_size:
            failures.append(f"disk size {(disk or {}).get('size')!r}, not {expect['disk_size']}")
    parts = _partitions(doc)
    for want in expect.get("partitions") or []:
        found = [p for p in parts if p.get("mountPoint") == want["mountPoint"]]
        if want.get("absent"):
            if found:
                failures.append(f"partition {want['mountPoint']} present")
            continue
        if not found:
            failures.append(f"partition {want['mountPoint']} missing")
            continue
        part = found[0]
        if "size" in want and _partition_size(part) != size_bytes(want["size"]):
            failures.append(
                f"partition {want['mountPoint']} is {part.get('start')}..{part.get('end')},"
                f" not {want['size']}"
            )
        if "fsType" in want and part.get("fsType") != want["fsType"]:
            failures.append(f"partition {want['mountPoint']} fsType {part.get('fsType')!r}")
    if "partition_count" in expect and len(parts) != expect["partition_count"]:
        failures.append(f"{len(parts)} partitions, not {expect['partition_count']}")
    repos = [r for r in doc.get("packageRepositories") or [] if isinstance(r, dict)]
    for want in expect.get("repositories") or []:
        if not any(all(str(r.get(k)) == str(v) for k, v in want.items()) for r in repos):
            failures.append(f"no repository with {want}")
    cmdline = cmdline_of(doc)
    tokens = cmdline.split()
    failures += [
        f"cmdline lacks {option!r}: {cmdline!r}"
        for option in _lacks(cmdline, expect.get("cmdline_has"))
    ]
    failures += [
        f"cmdline has {option!r}: {cmdline!r}"
        for option in _holds(cmdline, expect.get("cmdline_lacks"))
    ]
    for key in expect.get("cmdline_once") or []:
        count = sum(
            1 for t in tokens if t == key or t.startswith(key + ",") or t.startswith(key + "=")
        )
        if count != 1:
            failures.append(f"{key} appears {count} times: {cmdline!r}")
    immutability = _system(doc).get("immutability") or {}
    if "immutability" in expect and bool(immutability.get("enabled")) != expect["immutability"]:
        failures.append(f"immutability {immutability.get('enabled')}, not {expect['immutability']}")
    if "secure_boot" in expect:
        keys = ("secureBootDBKey", "secureBootDBCrt", "secureBootDBCer")
        has = any(immutability.get(k) for k in keys)
        if has != bool(expect["secure_boot"]):
            failures.append(f"secure boot {'set' if has else 'not set'}")
    bootloader = _system(doc).get("bootloader") or {}
    for key, value in (expect.get("bootloader") or {}).items():
        if bootloader.get(key) != value:
            failures.append(f"bootloader.{key} {bootloader.get(key)!r}, not {value!r}")
    if "image_name" in expect:
        name = (doc.get("image") or {}).get("name") if isinstance(doc.get("image"), dict) else None
        if name != expect["image_name"]:
            failures.append(f"image name {name!r}, not {expect['image_name']!r}")
    artifacts = {
        str(a.get("type")) for a in (disk or {}).get("artifacts") or [] if isinstance(a, dict)
    }
    failures += [
        f"artifact {kind} missing ({sorted(artifacts)})"
        for kind in _lacks(artifacts, expect.get("artifacts"))
    ]
    base = (seen.base or "").lower()
    for fragment in expect.get("base_not") or []:
        if fragment.lower() in base:
            failures.append(f"started from {seen.base}")
    for fragment in expect.get("base_has") or []:
        if fragment.lower() not in base:
            failures.append(f"started from {seen.base}, not a {fragment} base")
    return failures


# a label's key that takes away what another key asked for earlier
_UNDOING = {"absent": "present", "cmdline_lacks": "cmdline_has"}


def _drop_undone(latest: dict[str, Any], expect: dict[str, Any]) -> None:
    """Drop from ``latest`` what ``expect`` takes away: a package removed, an option dropped.

    "quiet" asked for in turn 2 and removed in turn 4 is no customisation to keep, and a
    bare key taken away ("isolcpus") takes every value of it.
    """
    for key, undone in _UNDOING.items():
        gone = {str(v) for v in expect.get(key) or []}
        if gone and undone in latest:
            latest[undone] = [
                v for v in latest[undone] if str(v) not in gone and str(v).split("=")[0] not in gone
            ]


def _kept(expect: dict[str, Any], doc: dict[str, Any], seen: _Conversation) -> list[str]:
    """Earlier turns' customisations that this turn (which says it keeps them) lost."""
    latest: dict[str, Any] = {}
    after: list[dict[str, Any]] = []  # the customisations in force after each turn
    for earlier in seen.expects:
        if "same_as_turn" in earlier:
            # an undo / revert turn brings back what was in force after the turn it names
            index = int(earlier["same_as_turn"]) - 1
            latest = dict(after[index]) if 0 <= index < len(after) else {}
        for key in _KEPT:
            if key in earlier:
                latest[key] = earlier[key]
        # a user or package a later turn took away is no customisation to keep
        gone_users = set(earlier.get("users_absent") or [])
        if gone_users and "users" in latest:
            latest["users"] = [u for u in latest["users"] if str(u.get("name")) not in gone_users]
        _drop_undone(latest, earlier)
        after.append(dict(latest))
    for key in expect:
        latest.pop(key, None)
    # what this turn takes away is no customisation to keep either
    _drop_undone(latest, expect)
    gone_users = set(expect.get("users_absent") or [])
    if gone_users and "users" in latest:
        latest["users"] = [u for u in latest["users"] if str(u.get("name")) not in gone_users]
    if _family(doc) != seen.family:
        # package names and repositories differ between families: the label of the new
        # turn says which ones it expects
        latest.pop("present", None)
        latest.pop("repositories", None)
    return [f"lost: {f}" for f in template_failures(latest, doc, seen)]


class KnownPackages:
    """Every package name a turn may add without inventing it.

    The library, the composer's reference templates, the capability catalog, the
    dependency table, the labels themselves, and (for deb targets) the Debian archive
    indexes apt keeps on this machine when they are uncompressed (apt here keeps them
    lz4-compressed, so none are read and the check is the stricter one).
    """

    def __init__(self, conversations: Iterable[dict[str, Any]], templates: Iterable[Path]) -> None:
        """Collect the names."""
        names: set[str] = set()
        for path in templates:
            for file in sorted(path.glob("*.yml")):
                doc = _doc(file.read_text(encoding="utf-8", errors="replace"))
                names.update(packages_of(doc))
                names.update(str(p) for p in _kernel(doc).get("packages") or [])
        names.update(_catalog_names())
        for conversation in conversations:
            for turn in conversation.get("turns") or []:
                expect = turn.get("expect") or {}
                names.update(expect.get("present") or [])
                names.update(n for group in expect.get("present_any") or [] for n in group)
        self.names = names
        self.debian = _apt_package_names()

    def invented(self, added: Iterable[str], family: str | None) -> list[str]:
        """The names of ``added`` that nothing knows."""
        return sorted(
            n for n in added if n not in self.names and not (family == "deb" and n in self.debian)
        )


@functools.cache
def known_packages() -> KnownPackages:
    """The names a labelled turn may add: every part's labels, the library and the reference.

    Read once per process: every part asks for the same names, and reading them all took
    seconds per part.
    """
    parts = (*DEV_PARTS.values(), HELDOUT)
    labelled = [c for path in parts if path.is_file() for c in load_conversations(path)]
    return KnownPackages(labelled, [OUR_TEMPLATES, REFERENCE_TEMPLATES])


def _catalog_names() -> set[str]:
    """The package names of the capability catalog and the dependency table.

    Only names in package positions count: a capability's lists per family or dist, an
    alias group's names and lists, and the table's packages. Every word of the files used
    to count, so a synonym made a package ("dns + dhcp" adding ``dhcp``) was not invented.
    rpm names keep their capitals ("ModemManager", "NetworkManager").
    """
    data = PROJECT / "stores" / "data"
    catalog = yaml.load((data / "capabilities.yaml").read_text(encoding="utf-8"), Loader=_LOADER)
    names: set[str] = set()

    def lists(mapping: Any) -> None:
        for key, value in (mapping or {}).items():
            if isinstance(value, list) and key not in ("synonyms", "capabilities"):
                names.update(str(v) for v in value)

    for capability in (catalog.get("capabilities") or {}).values():
        lists(capability.get("packages"))
        lists(capability.get("unverified"))
    for group in catalog.get("aliases") or []:
        lists(group)
    needs = yaml.load((data / "package_needs.yaml").read_text(encoding="utf-8"), Loader=_LOADER)
    for table in (needs.get("needs") or {}).values():
        for name, needed in (table or {}).items():
            names.add(str(name))
            names.update(str(n) for n in needed if "*" not in str(n))
    return names


def _apt_package_names() -> set[str]:
    names: set[str] = set()
    lists = Path("/var/lib/apt/lists")
    for file in lists.glob("*_Packages") if lists.is_dir() else []:
        with file.open(encoding="utf-8", errors="replace") as handle:
            names.update(line[9:].strip() for line in handle if line.startswith("Package: "))
    return names


def run_conversation(
    agent: Any, conversation: dict[str, Any], known: KnownPackages
) -> list[TurnOutcome]:
    """Run one conversation in a new session and check each turn."""
    seen = _Conversation()
    session: str | None = None
    before: str | None = None
    outcomes = []
    for number, turn in enumerate(conversation.get("turns") or [], start=1):
        expect = turn.get("expect") or {}
        started = time.perf_counter()
        result = agent.generate(str(turn["say"]), session=session)
        seconds = time.perf_counter() - started
        session = result.session
        if result.base_template:
            seen.base = result.base_template
        doc = _doc(result.template)
        added = set(packages_of(doc)) - set(packages_of(_doc(before)))
        family = _family(doc)
        after = agent.current_template(session)
        outcome = TurnOutcome(
            conversation=str(conversation.get("id")),
            turn=number,
            say=str(turn["say"]),
            status=result.status,
            failures=check_turn(expect, result, before, seen, after),
            invented=known.invented(added, family) if result.template != before else [],
            seconds=seconds,
            template=result.template,
            expects_template="unsupported" not in (expect.get("status") or []),
        )
        outcomes.append(outcome)
        seen.templates.append(result.template)
        seen.expects.append(expect)
        if result.status in OK_STATUSES:
            seen.family = family or seen.family
        before = after or before
    return outcomes


def composer_verdicts(outcomes: list[TurnOutcome], upval: Path, work: Path) -> None:
    """Add the composer loader's verdict on every template a turn returned as usable."""
    from tests.support.upval import judge

    work.mkdir(parents=True, exist_ok=True)
    files: dict[Path, TurnOutcome] = {}
    for index, outcome in enumerate(outcomes):
        if outcome.template and outcome.status in OK_STATUSES:
            path = (work / f"turn-{index:04d}.yml").resolve()
            path.write_text(outcome.template, encoding="utf-8")
            files[path] = outcome
    for path, verdict in judge(upval, list(files)).items():
        if not verdict.buildable:
            files[path].failures.append(f"the composer cannot build it: {verdict.error}")
