"""Words that point at an item of the current template by its place or its history.

"The second user should get zsh", "get rid of the second account", "the last user needs
sudo", "the partition we added — make it xfs": the item is named by where it stands in the
template (its users in order) or by the session's history (the partition a turn added),
not by its name. :func:`resolve_pointers` puts the name in their place ("the user bob",
"the /srv/cap partition"), so every rule that reads a named item reads these too. A
pointer with nothing to point at (a third user in a template with two) stays as written.
"""

from __future__ import annotations

import re
from typing import Any

from oic_ai.tools.rebase import parse

_ORDINALS = {
    "first": 1,
    "1st": 1,
    "second": 2,
    "2nd": 2,
    "third": 3,
    "3rd": 3,
    "fourth": 4,
    "4th": 4,
    "fifth": 5,
    "5th": 5,
    "last": -1,
}
# not after "a", "an", "another", "one more": "add a second user carol" adds one
_USER = re.compile(
    r"(?<![\w-])(?<!\ba\s)(?<!\ban\s)(?<!another\s)(?<!more\s)"
    r"(?:the\s+|that\s+)?(?P<place>" + "|".join(_ORDINALS) + r")\s+"
    r"(?:user|account|login)(?:\s+account)?(?![\w-])",
    re.IGNORECASE,
)
# "the partition we added", "the new partition", "the partition you just made"
_ADDED_PARTITION = re.compile(
    r"(?<![\w-])(?:the|that)\s+(?:(?:new|added|extra|newly\s+added)\s+partition"
    r"|partition\s+(?:that\s+)?(?:we|you|i)\s+(?:just\s+)?(?:added|made|created))(?![\w-])",
    re.IGNORECASE,
)
# "swap that to ext4", "make it xfs": a file system for the one partition the session added
_IT_TO_FS = re.compile(
    r"(?<![\w-])(?:make|swap|change|switch|turn|set|convert|format)\s+(?:it|that|this)\s+"
    r"(?:(?:over\s+)?(?:to|into|as)\s+)?(?=(?:ext[234]|xfs|btrfs|vfat|fat32)\b)",
    re.IGNORECASE,
)


# "actually make that 3 gig", "make it 4GiB", "that should be 1.5G": a size for the thing the
# last turn sized
_IT_TO_SIZE = re.compile(
    r"(?<![\w-])(?:(?:make|set|change|bump|grow|shrink|resize|up|increase|reduce)\s+(?:it|that|this)"
    r"(?:\s+(?:to|at|up\s+to|down\s+to))?|(?:it|that|this)\s+(?:should|must)\s+be)\s+"
    r"(?=\d+(?:\.\d+)?\s*(?:[kmgt]i?b|gigs?|megs?|gigabytes?|megabytes?|terabytes?|[kmgt])(?![\w-]))",
    re.IGNORECASE,
)
# the same place words for the other lists of a template: "the last package", "the
# second partition", "the first repo" (each stays as written when nothing is at that place)
_PLACE = (
    r"(?<![\w-])(?<!\ba\s)(?<!\ban\s)(?<!another\s)(?<!more\s)"
    r"(?:the\s+|that\s+)?(?P<place>" + "|".join(_ORDINALS) + r")\s+"
)
_PACKAGE = re.compile(
    _PLACE + r"(?:package|pkg)(?![\w-])(?!\s+(?:repo|repository|list|set|index|source|mirror|"
    r"selection|change|edit)s?\b)",
    re.IGNORECASE,
)
_PARTITION = re.compile(_PLACE + r"(?:partition|volume)(?![\w-])", re.IGNORECASE)
_REPOSITORY = re.compile(
    _PLACE + r"(?:repo|repository|package\s+repository|apt\s+repo|mirror)(?![\w-])",
    re.IGNORECASE,
)


def _packages(doc: dict[str, Any]) -> list[str]:
    system = doc.get("systemConfig") or {}
    packages = system.get("packages") if isinstance(system, dict) else None
    return [str(p) for p in packages or [] if isinstance(p, str | int | float) and str(p)]


def _repositories(doc: dict[str, Any]) -> list[str]:
    repos = doc.get("packageRepositories")
    return [str(r["url"]) for r in repos or [] if isinstance(r, dict) and r.get("url")]


def _at_place(pattern: re.Pattern[str], items: list[str], said: str, text: str) -> str:
    """``text`` with each place pointer of ``pattern`` replaced by ``said`` of its item."""

    def name(match: re.Match[str]) -> str:
        place = _ORDINALS[match.group("place").lower()]
        if not items or place > len(items):
            return match.group()
        return said.format(items[place - 1 if place > 0 else -1])

    return pattern.sub(name, text)


def _users(doc: dict[str, Any]) -> list[str]:
    system = doc.get("systemConfig") or {}
    users = system.get("users") if isinstance(system, dict) else None
    return [str(u["name"]) for u in users or [] if isinstance(u, dict) and u.get("name")]


def _mounts(doc: dict[str, Any]) -> list[str]:
    return list(_partitions(doc))


def _partitions(doc: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """The partitions by mount point, with their start and end."""
    disk = doc.get("disk") or {}
    parts = disk.get("partitions") if isinstance(disk, dict) else None
    return {
        str(p["mountPoint"]): (str(p.get("start")), str(p.get("end")))
        for p in parts or []
        if isinstance(p, dict) and p.get("mountPoint")
    }


def _disk_size(doc: dict[str, Any]) -> str:
    disk = doc.get("disk") or {}
    return str(disk.get("size")) if isinstance(disk, dict) else ""


def _sized_last(doc: dict[str, Any], before: dict[str, Any]) -> str | None:
    """The one partition the last turn added or resized, when it left the disk size alone.

    "add a 2GiB /opt/mes partition" then "actually make that 3 gig": "that" is the
    partition. When the last turn set the disk's size, or sized several partitions, "that"
    stays as written (the disk rule reads "make it 3 gig" as the disk's size).
    """
    if _disk_size(doc) != _disk_size(before):
        return None
    now, then = _partitions(doc), _partitions(before)
    sized = [m for m, span in now.items() if then.get(m) != span and m != "/"]
    grown = [m for m in sized if m not in then or now[m][1] != then[m][1]]
    return grown[0] if len(grown) == 1 else None


def resolve_pointers(
    request: str, current: str | None, first: str | None = None, last: str | None = None
) -> str:
    """``request`` with its pointers to template items replaced by the items' names.

    Args:
        request: The words left for the planner.
        current: The template the turn changes.
        first: The session's first template: a partition the current one has and this one
            lacks was added in the session ("the partition we added").
        last: The template before the last turn that changed it: a partition that turn
            added or resized is what "make that 3 gig" sizes.
    """
    doc = parse(current)
    users = _users(doc)

    def user(match: re.Match[str]) -> str:
        place = _ORDINALS[match.group("place").lower()]
        if not users or place > len(users):
            return match.group()
        return f"the user {users[place - 1 if place > 0 else -1]}"

    text = _USER.sub(user, request)
    text = _at_place(_PACKAGE, _packages(doc), "{}", text)
    text = _at_place(_PARTITION, _mounts(doc), "the {} partition", text)
    text = _at_place(_REPOSITORY, _repositories(doc), "the repo {}", text)
    if first is not None:
        before = set(_mounts(parse(first)))
        added = [m for m in _mounts(doc) if m not in before]
        if added:
            text = _ADDED_PARTITION.sub(f"the {added[-1]} partition", text)
            if len(added) == 1:
                text = _IT_TO_FS.sub(f"make the {added[0]} partition ", text)
    if last is not None and (mount := _sized_last(doc, parse(last))):
        text = _IT_TO_SIZE.sub(f"make the {mount} partition ", text)
    return text


# "hostname kiosk-01. no wait, make it lobby-kiosk", "add htop, actually no, make that
# btop", "disk 16GB - sorry, I mean 24GB", "add nginx no wait caddy": the value after the
# change of mind takes the place of the last value of the clause before it
_CORRECTED = re.compile(
    r"(?P<taken>[^.;,!?\n]*[\w./:])\s*(?:[.;,!]|\s[-–—])*\s+"
    r"(?:no\s*,?\s*wait|wait\s*,?\s*no|actually\s*,?\s*no|no\s*,?\s*actually|sorry|oops|"
    r"or\s+rather|rather)\s*[,:-]?\s*"
    r"(?:(?:(?:make|call|change)\s+(?:it|that)(?:\s+to)?|i\s+mean(?:t)?|use|it\s+should\s+be)\s+)?"
    r"(?P<value>[\w][\w./:-]*)(?=\s*(?:[.;,!?]|$|\s(?:and|then|please|pls|instead)\b))",
    re.IGNORECASE,
)


# words that end a clause without being its value ("a user ops with sudo")
_NOT_VALUES = frozenset(
    "sudo root raw iso img qcow2 vhdx too please pls it that this x86_64 aarch64 arm64".split()
)


def resolve_corrections(request: str) -> str:
    """``request`` with each change of mind folded into the clause it corrects.

    "hostname kiosk-01. no wait, make it lobby-kiosk" reads as "hostname lobby-kiosk": the
    corrected clause's last word (its value) is replaced by the one said after "no wait",
    "actually no", "sorry, I mean". A correction with nothing before it is left as it is
    (it refers to the earlier turn).
    """

    def fold(match: re.Match[str]) -> str:
        taken = match.group("taken")
        last = re.search(r"[\w./:-]+$", taken)
        value = match.group("value")
        if (
            last is None
            or len(taken.split()) > 5
            or last.group().lower() in _NOT_VALUES
            or last.group()[0].isdigit() != value[0].isdigit()
        ):
            return match.group()  # not the same kind of value: left to the take-back rule
        return taken[: last.start()] + value

    return _CORRECTED.sub(fold, request)
