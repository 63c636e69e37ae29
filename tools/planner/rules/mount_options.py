"""Rule: a partition's mount options ("mount /tmp with nodev,nosuid,noexec").

Mount options are a partition field (``mountOptions``). A clause that names a mount point
the disk has (or this request adds) with options the ``mount`` command knows sets them,
after the options the partition already has: "mount /tmp with nodev,nosuid,noexec",
"/home with nodev", "nodev and nosuid on /var/tmp", "add noatime to /data's mount
options". A word that is no mount option is never read as one (nor as a package).
"""

from __future__ import annotations

import re

from oic_ai.tools.edit_plan import AddPartition, SetValue
from oic_ai.tools.planner.rules.partitions import find_partition
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.words import MOUNT

# the options of mount(8) and its file systems that people set on a partition
_KNOWN = (
    r"(?:no)?(?:dev|suid|exec|atime|diratime|relatime|strictatime|lazytime|auto|user|users"
    r"|owner|group|iversion|mand|acl|user_xattr|barrier|discard|quota)"
    r"|ro|rw|sync|async|defaults|dirsync|usrquota|grpquota|prjquota|_netdev|nofail"
    r"|errors=(?:remount-ro|continue|panic)|commit=\d+|umask=\d{3,4}|noauto"
    # btrfs's own
    r"|compress(?:-force)?=(?:zstd|lzo|zlib)(?::\d{1,2})?|space_cache(?:=v[12])?|ssd|autodefrag"
)
_OPTION = rf"(?:{_KNOWN})(?![\w=-])"
_OPTIONS = rf"(?P<opts>{_OPTION}(?:\s*,\s*(?:and\s+)?{_OPTION}|\s+and\s+{_OPTION}|\s+{_OPTION})*)"
MOUNT_IN = re.compile(r"(?<![\w./~-])/[a-z0-9._/-]*")
_LEAD = r"(?:\b(?:mount|mounted|set|use|give|have)\s+)?"
_WORDS = r"(?:(?:the\s+)?(?:mount\s+)?(?:options?|flags?)\s+)?"
# a partition named by a word: "root", "the root partition", "the data partition", "the esp"
_NAMED = (
    r"(?:the\s+)?(?:(?:root(?:fs)?|esp|efi)(?:\s+(?:partition|file\s*system|fs|volume))?"
    # (not a word of what kind: "its own partition", "a separate partition")
    r"|(?!(?:own|separate|new|extra|dedicated|another|other|same|second|single|additional"
    r"|its|one|this|that|each)\s)[a-z][a-z0-9_-]*\s+(?:partition|file\s*system|volume))(?![\w/-])"
)
_PLACE = rf"(?<![\w./~-])(?:{MOUNT})|(?<![\w./~-]){_NAMED}"
_MOUNT_OPTIONS = re.compile(
    # "mount /tmp with nodev,nosuid", "/home with nodev", "/tmp: noexec"
    rf"{_LEAD}(?P<mount>{_PLACE})(?:\s+partition)?\s*(?:(?:with|as|using)\s+|:\s*|=\s*)"
    rf"{_WORDS}{_OPTIONS}"
    # "nodev and nosuid on /var/tmp", "add noatime to /data"
    rf"|\b(?:(?:add|set|use|put)\s+)?{_WORDS}(?P<opts2>{_OPTION}(?:\s*,\s*(?:and\s+)?{_OPTION}"
    rf"|\s+and\s+{_OPTION})*)\s+(?:on|for|to)\s+(?:the\s+)?(?P<mount2>{_PLACE})"
    r"(?:'s\s+mount\s+options|\s+partition)?(?![\w./-])"
)


# "a /tmp partition of 1GiB with noexec,nosuid", "... formatted btrfs, mounted with noatime":
# options that end a clause the partition rules read (the clause before is blanked)
_TRAILING = re.compile(
    r"(?P<gap>[\x1f]+[\s,]*)(?:(?:and\s+)?(?:mounted\s+)?(?:with|using)\s+|mounted\s+)"
    rf"{_WORDS}{_OPTIONS}(?![\w=-])"
)


def rule_mount_options(state: PlanState) -> None:
    """Set the mount options a clause names for a partition of the disk."""
    text = state.text
    for match in text.matches(_TRAILING):
        blank_end = match.start() + len(match.group("gap").rstrip(" ,"))
        claim = next((c for c in text.claims if c[1] == blank_end and c[2] == "partition"), None)
        if claim is None:
            continue
        points = MOUNT_IN.findall(text.original[claim[0] : claim[1]].lower())
        adding = [
            op
            for op in state.partition_ops
            if isinstance(op, AddPartition) and op.mount_point in points
        ]
        if len(adding) != 1:
            continue
        opts = re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+|\s+", match.group("opts"))
        text.consume(*match.span("opts"))
        text.consume(match.end("gap"), match.start("opts"))
        state.values.append(
            SetValue(
                path=f"disk.partitions[id={adding[0].id}].mountOptions",
                value=",".join(dict.fromkeys(o for o in opts if o)),
            )
        )
    for match in text.matches(_MOUNT_OPTIONS):
        mount = _mount_point(state, match.group("mount") or match.group("mount2"))
        said = re.split(
            r"\s*,\s*(?:and\s+)?|\s+and\s+|\s+", match.group("opts") or match.group("opts2")
        )
        part = find_partition(state, mount)
        planned = next(
            (
                op
                for op in state.partition_ops
                if isinstance(op, AddPartition) and op.mount_point == mount
            ),
            None,
        )
        if planned is not None:
            ident, had = planned.id, ""
        elif part is not None and part.mount_point == mount:
            ident, had = part.id, part.mount_options
        else:
            # no partition there: said, and the options are never read as anything else
            named = _word(match.group("mount") or match.group("mount2")) or mount
            state.reject(
                *match.span(),
                f"the disk has no {named} partition, so its mount options cannot be set; "
                f"ask for 'a {mount} partition of 4GiB' first",
            )
            continue
        options = [o for o in had.split(",") if o]
        for option in (o for o in said if o and o not in options):
            # a keyed option ("umask=0022") takes the place of the one with its key
            key = option.split("=", 1)[0] + "=" if "=" in option else None
            options = [o for o in options if key is None or not o.startswith(key)] + [option]
        text.consume(*match.span())
        if options == [o for o in had.split(",") if o]:
            state.notes.append(f"{mount} is already mounted with {had}")
            continue
        state.values.append(
            SetValue(path=f"disk.partitions[id={ident}].mountOptions", value=",".join(options))
        )


def _mount_point(state: PlanState, said: str) -> str:
    """The mount point ``said`` names.

    A path as said, a word ("the root partition") by the partition of the disk it names, or
    the word itself when no partition answers to it.
    """
    word = _word(said)
    if not word:
        return said.rstrip("/") or "/"
    part = find_partition(state, word)
    return part.mount_point if part is not None else f"/{word}"


def _word(said: str) -> str:
    """The word that names a partition ("the swap partition": swap), none for a path."""
    if said.startswith("/"):
        return ""
    words = said.lower().split()
    return words[1] if words[0] == "the" and len(words) > 1 else words[0]
