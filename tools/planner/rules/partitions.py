"""Rule: partitions to add, resize or remove ("a separate /data partition of 2GiB")."""

from __future__ import annotations

import re

from oic_ai.stores.disk_units import format_size, parse_size
from oic_ai.stores.template_model import Partition
from oic_ai.tools.edit_plan import AddPartition, RemovePartition, ResizePartition, SetValue
from oic_ai.tools.planner.rules.disk import request_size
from oic_ai.tools.planner.sizes import Size
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.words import (
    CLAUSE_END,
    FIXED,
    FS,
    MOUNT,
    NOT_NEEDED,
    NOT_WANTED,
    SIZE,
    SIZE_JUDGED,
)

_PARTITION_ADD = re.compile(
    r"\b(?:(?:add|create|with|want|need|include|carve(?:\s+out)?|plus|make|give\s+me)\s+)?"
    r"(?:(?:a|an|one)\s+)?(?:(?:separate|new|dedicated|extra|additional|own|second)\s+)*"
    rf"(?:(?P<size1>{SIZE})\s+)?(?:(?:separate|new|dedicated|extra|additional|own|second)\s+)*"
    rf"(?:(?P<fs1>{FS})\s+)?"
    rf"(?:(?<![\w./~-])(?P<mount1>{MOUNT})\s+(?:(?P<fs2>{FS})\s+)?partition\b"
    # "a 20GB data partition mounted at /data", "a data partition (/data)": a word names it
    rf"|(?:(?!partition\b)[a-z][a-z0-9_-]*\s+)?partition\s+(?:for|at|on|mounted\s+(?:at|on))\s+"
    rf"(?P<mount2>{MOUNT}){CLAUSE_END}"
    rf"|(?:(?!partition\b)[a-z][a-z0-9_-]*\s+)?partition\s*\(\s*(?P<mount3>{MOUNT})\s*\))"
)
_PARTITION_TAIL: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "size",
        re.compile(
            # what it is for may come first: "a /srv partition for the shares, 1 TB"
            r"(?:\s+(?:for|to\s+hold|to\s+store)\s+(?:the\s+|our\s+|my\s+|all\s+)?"
            r"[a-z][\w-]*(?:\s+[a-z][\w-]*)?(?=\s*,))?"
            rf"\s*,?\s*(?:(?:of|with|sized?|at|size|that\s+is|which\s+is)\s+(?:size\s+)?)?"
            rf"(?:(?:a|an)\s+)?(?P<size>{SIZE})(?:\s+(?:in\s+)?size)?(?!\s+(?:total\s+)?disk)"
        ),
    ),
    (
        "fs",
        re.compile(
            r"\s*,?\s*(?:(?:as|formatted(?:\s+as)?|with|using|in|of\s+type|type|fs)\s+)?"
            rf"(?:(?:a|an)\s+)?(?P<fs>{FS})(?:\s+(?:filesystem|file\s+system|fs))?{CLAUSE_END}"
        ),
    ),
)
_PARTITION_REF = rf"(?:(?P<mount>{MOUNT})|(?P<word>[a-z][a-z0-9_-]*))"
_PARTITION_RESIZE = re.compile(
    r"\b(?P<verb>grow|resize|shrink|increase|extend|expand|enlarge|reduce|make|set|change|bump)\s+"
    r"(?:the\s+)?(?:size\s+of\s+(?:the\s+)?)?"
    + _PARTITION_REF
    + r"(?P<keyword>\s+partition)?(?:'s\s+size|\s+size)?\s+(?:to\s+|=\s*"
    # "bigger by 1GB", "smaller by 500MB": the change said before its size
    + r"|(?:(?:bigger|larger)\s+|(?P<less>smaller)\s+)?(?P<by>by)\s+)?"
    rf"(?P<size>{SIZE})"
)
# "efi partition, make it 256 megs": the partition named first, then its new size
_PARTITION_IT = re.compile(
    rf"(?:\bthe\s+)?{_PARTITION_REF}\s+partition\s*[,:;]?\s*(?:-+\s*)?"
    r"(?:(?:please|just|should)\s+)?(?:make|set|resize|change|grow|shrink)\s+it\s+(?:to\s+)?"
    rf"(?P<size>{SIZE})"
)
# "containers part -> 25GiB", "/srv partition: 40GiB", "the data volume becomes 8GiB": a
# partition named (by a word of its mount point or the mount point), then its new size
_PARTITION_SET = re.compile(
    rf"(?:\bthe\s+)?{_PARTITION_REF}\s+(?:partition|part|volume)\s*"
    r"(?:->|=>|\u2192|=|:|becomes?\b|is\s+now\b|now\b)\s*"
    # a clause that goes on with more of the partition ("..., fat32, mounted at") is the
    # storage reader's
    rf"(?P<size>{SIZE})(?!\s*,?\s*(?:{FS}|mounted|at\s+/|on\s+/))"
)
_PARTITION_RESIZE_BARE = re.compile(
    rf"(?<![a-z0-9_.-])(?P<mount>{MOUNT})(?:\s+partition)?\s+(?:to|=|at|should\s+be)\s+"
    rf"(?P<size>{SIZE})"
)
_PARTITION_REMOVE = re.compile(
    r"\b(?:remove|drop|delete|get\s+rid\s+of|without|no|lose|skip)\s+(?:the\s+|a\s+|any\s+)?"
    r"(?:separate\s+|extra\s+)?(?:"
    + _PARTITION_REF
    + r"\s+partition\b|partition\s+(?:for\s+|at\s+|mounted\s+at\s+)?(?P<mount2>"
    + MOUNT
    + r"|[a-z][a-z0-9_-]*)"
    + CLAUSE_END
    + r"|(?P<mount3>"
    + MOUNT
    + r")(?P<one>\s+one)?"
    + CLAUSE_END
    + r")"
)
# "a /data partition that takes the rest of the disk"
_REST_AFTER = re.compile(
    r"\s*,?\s*(?:(?:that|which)\s+)?(?:takes?|taking|uses?|using|fills?|filling|gets?|with|on|in"
    r"|into|over)\s+"
    r"(?:up\s+)?(?:all\s+(?:of\s+)?)?the\s+(?:rest|remainder)(?:\s+of\s+the\s+(?:disk|drive|space))?"
)
# "drop the esp", "remove swap", "get rid of rootfs": a partition named by its kind alone,
# without the word "partition" (any other word is the package rules')
_PARTITION_REMOVE_BARE = re.compile(
    r"\b(?:remove|drop|delete|get\s+rid\s+of|lose|ditch)\s+(?:the\s+)?"
    r"(?P<word>[a-z][a-z0-9_-]*)(?=\s*(?:$|[,;.!?)]|\s(?:and|then|but|too|as\s+well)\b))"
)
_BARE_KINDS = frozenset(("esp", "swap", "rootfs"))
_FS_NAMES = {"vfat": "fat32", "fat": "fat32"}
_ESSENTIAL_MOUNTS = frozenset({"/", "/boot", "/boot/efi", "/efi"})


def find_partition(state: PlanState, ref: str) -> Partition | None:
    """The base template's partition that ``ref`` (an id, mount point or word) names."""
    return _find_partition(state, ref)


def _find_partition(state: PlanState, ref: str) -> Partition | None:
    parts = state.facts.partitions
    for part in parts:
        if ref in (part.id, part.mount_point):
            return part
    aliases = {
        "root": "/",
        "rootfs": "/",
        "efi": "/boot/efi",
        "esp": "/boot/efi",
        "boot": "/boot/efi",
    }
    wanted = aliases.get(ref, f"/{ref}")
    for part in parts:
        if part.mount_point == wanted or (part.mount_point.rsplit("/", 1)[-1] == ref and ref):
            return part
    if ref in _DATA_WORDS:
        # "the data partition": the one partition that holds no system directory
        data = [p for p in parts if p.mount_point.startswith("/") and p.mount_point not in _SYSTEM]
        if len(data) == 1:
            return data[0]
    return None


_DATA_WORDS = frozenset(("data", "storage", "extra", "separate", "dedicated", "application"))
_SYSTEM = frozenset("/ /boot /boot/efi /efi /tmp /var /var/log /var/tmp /usr /home /opt".split())


# where a new partition should sit: "between / and /var", "after /boot", "right before /var"
_PLACEMENT = re.compile(
    rf"\b(?:(?:right|just|directly)\s+)?(?:between\s+(?:the\s+)?(?P<first>{MOUNT})(?:\s+partition)?"
    rf"\s+and\s+(?:the\s+)?(?P<second>{MOUNT})|(?:after|before)\s+(?:the\s+)?(?P<one>{MOUNT}))"
    r"(?:\s+(?:partition|one|ones|partitions))?(?=$|[\s,;.!?)\x1f])"
)
_PARTITION_WORD = re.compile(r"\bpartition\b|\bswap\b")


def _placements(state: PlanState) -> None:
    """Read where a new partition should sit, so its mount points are not read as others.

    The plan cannot order partitions: a new one is carved from the end of the disk
    (before a partition that takes the rest), and a warning says so.
    """
    text = state.text
    for match in text.matches(_PLACEMENT):
        before = text.work[max(0, match.start() - 60) : match.start()]
        if not _PARTITION_WORD.search(before):
            continue
        text.consume(*match.span())
        state.warn(
            f"'{text.raw(*match.span())}': a plan cannot choose where a partition sits; a "
            "new one is carved from the end of the disk (before a partition that takes the "
            "rest of it)"
        )


# "Partitions: /boot/efi 512MiB, / 20GiB, /var 40GiB xfs, rest for /home": a layout listed
# under a header of its own is the whole layout
_LAYOUT_HEADER = re.compile(
    r"\b(?:partitions?|partitioning|(?:partition|disk)\s+layout|layout)\s*:"
)
# where such a list ends: a sentence's end or a blank line
_LIST_END = re.compile(r"\.(?=\s|$)(?<!\d\.)|\n\s*\n")
_LISTED_MOUNT = re.compile(rf"(?<![\w./~-])(?P<mount>{MOUNT}){CLAUSE_END}")
# "/home we don't need", "/scratch is not needed any more": a partition said to be unneeded
_NOT_NEEDED = re.compile(
    rf"(?<![\w./~-])(?P<mount>{MOUNT})(?:\s+partition)?\s+(?:{NOT_WANTED}|{NOT_NEEDED}|can\s+go)\b"
)


def _listed_layout(state: PlanState) -> None:
    """A layout listed under its own header replaces the template's partitions.

    The partitions of the template the list does not name go, but never the ones the
    system needs to boot (/, /boot, the ESP): "Partitions: / 20GiB, /var 40GiB, rest for
    /home" on a template whose /var/lib/containers took the rest of the disk leaves no
    /var/lib/containers. A list that does not name / is a list of partitions to add.
    """
    work = state.text.work
    header = _LAYOUT_HEADER.search(work)
    if header is None:
        return
    end_match = _LIST_END.search(work, header.end())
    end = end_match.start() if end_match else len(work)
    listed = {
        m.group("mount").rstrip(".") or "/" for m in _LISTED_MOUNT.finditer(work, header.end(), end)
    }
    if "/" not in listed or len(listed) < 2:
        return
    for part in state.facts.partitions:
        point = part.mount_point
        if not point.startswith("/") or point in listed or point in _ESSENTIAL_MOUNTS:
            continue
        state.partition_ops.append(RemovePartition(partition=part.ref))
        state.warn(f"the layout listed replaces the template's: partition {point} removed")


def _inherits_rest(state: PlanState, part: Partition) -> bool:
    """True when this plan removes the partition right after ``part``, which took the rest.

    The removal hands the rest of the disk to ``part``; a size the request gives it, even
    its present one, keeps it at that size.
    """
    after = [p for p in state.facts.partitions if (p.start_bytes or 0) > (part.start_bytes or 0)]
    following = min(after, key=lambda p: p.start_bytes or 0, default=None)
    return following is not None and not following.end_bytes and removed_in_plan(state, following)


def _remove_bare(state: PlanState) -> None:
    """Remove a partition named by its id or kind alone ("drop the esp", "remove swap")."""
    packages = set(state.facts.packages)
    for match in state.text.matches(_PARTITION_REMOVE_BARE):
        word = match.group("word").lower()
        if word in packages or word not in _BARE_KINDS:
            continue  # "remove docker": a package, even where a partition has that id
        part = _find_partition(state, word)
        if part is None and word == "swap":
            part = next((p for p in state.facts.partitions if p.mount_point == "none"), None)
        if part is None:
            state.text.consume(*match.span())
            state.notes.append(f"The template has no {word} partition, nothing to remove")
            continue
        if part.mount_point in _ESSENTIAL_MOUNTS:
            state.reject(*match.span(), f"the {part.mount_point} partition is needed to boot")
            continue
        state.text.consume(*match.span())
        if not removed_in_plan(state, part):
            state.partition_ops.append(RemovePartition(partition=part.ref))


def removed_in_plan(state: PlanState, part: Partition) -> bool:
    """True when this plan removes ``part``."""
    names = {part.ref, part.id, part.mount_point} - {None, ""}
    return any(
        isinstance(op, RemovePartition) and op.partition in names for op in state.partition_ops
    )


def rule_partitions(state: PlanState) -> None:
    """Remove, resize and add partitions, in that order."""
    text = state.text
    _placements(state)
    _listed_layout(state)
    for match in text.matches(_NOT_NEEDED):
        part = _find_partition(state, match.group("mount"))
        if part is None or part.mount_point != (match.group("mount").rstrip("/") or "/"):
            continue  # a path said to be unneeded, no partition of the template
        if part.mount_point in _ESSENTIAL_MOUNTS:
            state.reject(*match.span(), f"the {part.mount_point} partition is needed to boot")
            continue
        text.consume(*match.span())
        if not removed_in_plan(state, part):
            state.partition_ops.append(RemovePartition(partition=part.ref))
    for match in text.matches(_PARTITION_REMOVE):
        ref = (
            match.group("mount")
            or match.group("word")
            or match.group("mount2")
            or match.group("mount3")
        )
        assert ref is not None
        part = _find_partition(state, ref)
        if part is None:
            if match.group("mount3") and not match.group("one"):
                continue  # "without /data" might be something else; leave it to later rules
            state.reject(*match.span(), f"the template has no {ref} partition")
            continue
        if part.mount_point in _ESSENTIAL_MOUNTS:
            state.reject(*match.span(), f"the {part.mount_point} partition is needed to boot")
            continue
        text.consume(*match.span())
        state.partition_ops.append(RemovePartition(partition=part.ref))
    _remove_bare(state)
    for match in text.matches(_PARTITION_RESIZE):
        ref = match.group("mount") or match.group("word")
        assert ref is not None
        part = _find_partition(state, ref)
        neutral = match.group("verb") in ("make", "set", "change")
        if part is None and match.group("mount") and not match.group("by") and neutral:
            # "make /var/lib/containers 40GiB": a mount point the disk has no partition for
            # (and its file system after the size: "make /scratch partition 300GB with xfs")
            span, fs = match.span(), None
            tail = _PARTITION_TAIL[1][1].match(text.work, match.end())
            if tail is not None:
                span, fs = (
                    (match.start(), tail.end()),
                    state.revised.get(tail.start("fs"), tail.group("fs")),
                )
            state.text.consume(*span)
            add_partition(state, span, ref, request_size(state, match.span("size")), fs)
            continue
        if part is None:
            if match.group("mount") or match.group("keyword"):
                state.reject(*match.span(), f"the template has no {ref} partition to resize")
            continue
        _resize(state, match, part)
    for match in text.matches(_PARTITION_IT):
        part = _find_partition(state, match.group("mount") or match.group("word"))
        if part is not None:
            _resize(state, match, part)
    for match in text.matches(_PARTITION_SET):
        part = _find_partition(state, match.group("mount") or match.group("word"))
        if part is not None:
            _resize(state, match, part)
    for match in text.matches(_PARTITION_RESIZE_BARE):
        part = _find_partition(state, match.group("mount"))
        if part is not None:
            _resize(state, match, part)
    for match in text.matches(_PARTITION_ADD):
        _add_partition(state, match)
    for match in text.matches(_GROW_INTO_FREED):
        _grow_into_freed(state, match)


# "no /data after all, just grow root": a partition grown with no size, into the space a
# partition removed by the same request leaves
_GROW_INTO_FREED = re.compile(
    r"\b(?:grow|extend|expand|enlarge|increase|widen)\s+(?:the\s+)?"
    + _PARTITION_REF
    + r"(?:\s+partition)?(?:\s+(?:instead|into\s+(?:the|that|its)\s+(?:space|room|gap)"
    r"|to\s+(?:fill|use|take)\s+(?:it|that|the\s+(?:space|room|gap|rest)))){0,2}" + CLAUSE_END
)


def _grow_into_freed(state: PlanState, match: re.Match[str]) -> None:
    """Grow a partition by what the partitions this plan removes held (after the removal)."""
    part = _find_partition(state, match.group("mount") or match.group("word"))
    if part is None or removed_in_plan(state, part):
        return
    disk = state.facts.disk_size_bytes
    freed = sum(
        p.size_bytes(disk) or 0
        for p in state.facts.partitions
        if removed_in_plan(state, p) and p.end_bytes  # one taking the rest frees no fixed size
    )
    current = part.size_bytes(disk)
    name = part.mount_point or part.ref
    if not part.end_bytes:
        state.text.consume(*match.span())  # it takes the rest already: it grows by itself
        state.notes.append(f"{name} already takes the rest of the disk")
        return
    if not freed or current is None:
        state.reject(*match.span(), f"say how large {name} should be (for example '{name} 20GiB')")
        return
    state.text.consume(*match.span())
    resize_partition(state, match.span(), part, current + freed, format_size(current + freed))


# what names a partition in a sentence: "a big separate part of the disk", "its own volume"
_PARTITION_NOUN = re.compile(
    r"\b(?:partition|(?:(?:separate|own|dedicated|big|large|extra)\s+)*part\s+of\s+the\s+"
    r"(?:disk|drive|ssd|storage)|(?:separate|own|dedicated)\s+(?:volume|area))\b"
)
_SENTENCE = re.compile(r"[^.!?\n]+(?:\.(?=\d)[^.!?\n]*)*")
_SIZE_ANYWHERE = re.compile(rf"(?<![\w.]){SIZE}")
_FS_ANYWHERE = re.compile(rf"\b(?:{FS}){CLAUSE_END}")


def partition_sentences(state: PlanState) -> None:
    """A sentence that names a partition, one new mount point and at most one size adds it.

    "can we have a big separate part of the disk for them, like 200 GB, at /srv/share?":
    the words between the noun, the size and the mount point are the user's own; the
    sentence says which partition, where and how large (and its file system, if named).
    Read after the other partition rules, on what they left.
    """
    text = state.text
    for sentence in _SENTENCE.finditer(text.work):
        start, end = sentence.span()
        noun = _PARTITION_NOUN.search(text.work, start, end)
        if noun is None:
            continue
        mounts = [
            m
            for m in _LISTED_MOUNT.finditer(text.work, start, end)
            if not any(
                p.mount_point == m.group("mount").rstrip(".") for p in state.facts.partitions
            )
        ]
        sizes = list(_SIZE_ANYWHERE.finditer(text.work, start, end))
        systems = list(_FS_ANYWHERE.finditer(text.work, start, end))
        if len(mounts) != 1 or len(sizes) > 1 or len(systems) > 1:
            continue
        mount = mounts[0].group("mount").rstrip(".")
        if mount == "/" or not mount.startswith("/"):
            continue
        size = request_size(state, sizes[0].span()) if sizes else None
        spans = [noun.span(), mounts[0].span(), *(m.span() for m in (*sizes, *systems))]
        span = (min(s for s, _ in spans), max(e for _, e in spans))
        for begin, stop in spans:
            text.consume(begin, stop)
        fs = state.revised.get(systems[0].start(), systems[0].group()) if systems else None
        add_partition(state, span, mount, size, fs)


_JUDGED_AFTER = re.compile(r"[\s\x1f]*" + SIZE_JUDGED)


def _resize(state: PlanState, match: re.Match[str], part: Partition) -> None:
    if _JUDGED_AFTER.match(state.text.work, match.end()):
        return  # "/boot/efi at 512 MiB is overkill": the size it has; storage reads the rest
    asked = request_size(state, match.span("size"))
    size, text = asked.bytes, asked.text
    by = "by" in match.groupdict() and match.group("by") is not None
    current = part.size_bytes(state.facts.disk_size_bytes)
    if by:
        if current is None:
            state.reject(*match.span(), f"the current size of {part.ref} is not known")
            return
        verb = match.groupdict().get("verb") or ""
        less = "less" in match.groupdict() and match.group("less") is not None
        size = current - size if verb in ("shrink", "reduce") or less else current + size
        text = format_size(size) if size > 0 else ""
    state.text.consume(*match.span())
    resize_partition(state, match.span(), part, size, text)


def resize_partition(
    state: PlanState, span: tuple[int, int], part: Partition, size: int, text: str
) -> None:
    """Plan ``part`` at ``text`` (``size`` bytes), unless it already is that size."""
    if size <= 0:
        state.reject(*span, "that would leave the partition with no space")
        return
    if part.size_bytes(state.facts.disk_size_bytes) == size and not _inherits_rest(state, part):
        state.notes.append(f"{part.ref} is already {text}")
        return
    state.partition_ops.append(ResizePartition(partition=part.ref, size=text))


def _add_partition(state: PlanState, match: re.Match[str]) -> None:
    mount = match.group("mount1") or match.group("mount2") or match.group("mount3")
    assert mount is not None
    mount = mount.rstrip(".") or "/"  # "a partition for /var/lib/appdata."
    size_span = match.span("size1") if match.group("size1") else None
    fs_group = "fs1" if match.group("fs1") else "fs2"
    fs = state.revised.get(match.start(fs_group), match.group(fs_group))
    end = match.end()
    # the size and file system may follow, in either order: "a /data partition, xfs, 2GiB"
    for kind, pattern in (*_PARTITION_TAIL, _PARTITION_TAIL[0]):
        tail = pattern.match(state.text.work, end)
        if tail is None:
            continue
        if kind == "size" and size_span is None:
            size_span, end = tail.span("size"), tail.end()
        elif kind == "fs" and fs is None:
            fs, end = state.revised.get(tail.start("fs"), tail.group("fs")), tail.end()
    rest = _REST_AFTER.match(state.text.work, end) if size_span is None else None
    if rest is not None:
        end = rest.end()
        fs_tail = dict(_PARTITION_TAIL)["fs"].match(state.text.work, end) if fs is None else None
        if fs_tail is not None:  # "a /data partition on the rest, xfs as well"
            fs, end = state.revised.get(fs_tail.start("fs"), fs_tail.group("fs")), fs_tail.end()
    span = (match.start(), end)
    if mount == "/" and size_span is None and fs is None and rest is None:
        state.reject(*span, "the root partition already exists; resize it instead")
        return
    # "a / partition of 20GiB, xfs" (a pasted layout's root line) sizes the root there is
    size = request_size(state, size_span) if size_span else None
    state.text.consume(*span)
    add_partition(state, span, mount, size, fs, rest=rest is not None)


def _no_size_given(mount: str) -> str:
    return f"no size was given for {mount};"


def size_defaulted(state: PlanState, mount: str) -> bool:
    """True when the partition planned for ``mount`` got the planner's default size."""
    return any(w.startswith(_no_size_given(mount)) for w in state.warnings)


def forget_default_size(state: PlanState, mount: str) -> None:
    """Drop the warning that ``mount`` got the default size (it is planned again)."""
    state.warnings[:] = [w for w in state.warnings if not w.startswith(_no_size_given(mount))]


def add_partition(
    state: PlanState,
    span: tuple[int, int],
    mount: str,
    size: Size | None,
    fs: str | None,
    *,
    rest: bool = False,
) -> None:
    """Plan a new partition at ``mount`` (or resize the one already mounted there).

    ``rest``: it was asked to take the rest of the disk. When another partition already
    does, that is reported: a size for either one would be made up.
    """
    taker = next(
        (
            p
            for p in state.facts.partitions
            if p.start_bytes and not p.end_bytes and not removed_in_plan(state, p)
        ),
        None,
    )
    if taker is not None and _sized_too(state, taker):
        taker = None  # "/ 20GiB, /var the rest": the layout gives the old taker a size
    if rest and size is None and taker is not None and taker.mount_point == "/":
        taker = _root_keeps_its_size(state, taker)
    if rest and size is None and taker is None and not state.facts.partitions:
        _created_root_keeps_its_size(state)
    if rest and size is None and taker is not None and taker.mount_point != mount:
        name = taker.mount_point or taker.ref
        reason = (
            f"{name} already takes the rest of the disk; give {mount} a size "
            f"(or give {name} one first)"
        )
        if any(reason in item for item in state.not_applied):
            state.text.consume(*span, "rejected")
        else:
            state.reject(*span, reason)
        return
    planned = next(
        (
            op
            for op in state.partition_ops
            if isinstance(op, AddPartition) and op.mount_point == mount
        ),
        None,
    )
    if planned is not None:
        # said twice, as a pasted line and in words ("logvol /home --size=5120" and "a /home
        # partition of 5 GiB"), or listed first and sized later ("partitions for /var and
        # /tmp, 10 GiB for /var"): one partition, with the size said last
        if size is not None:
            planned.size = size.text
        elif rest:
            planned.size = None
        if fs:
            planned.fs_type = _FS_NAMES.get(fs, fs)
        return
    existing = _find_partition(state, mount)
    if existing is not None and existing.mount_point == mount:
        if size is not None and (
            existing.size_bytes(state.facts.disk_size_bytes) != size.bytes
            or _inherits_rest(state, existing)
        ):
            state.partition_ops.append(ResizePartition(partition=existing.ref, size=size.text))
            state.notes.append(f"{mount} already has a partition, so it is resized")
        else:
            state.notes.append(f"{mount} already has a partition")
        fs_type = _FS_NAMES.get(fs or "", fs)
        if fs_type and existing.fs_type != fs_type:
            path = f"disk.partitions[id={existing.id}].fsType"
            state.values.append(SetValue(path=path, value=fs_type))
        return
    size_text = size.text if size is not None else None
    if size is None and not _has_free_tail(state) and not rest:
        size_text = format_size(_DEFAULT_PARTITION_SIZE)
        state.warn(f"{_no_size_given(mount)} planned {size_text}, carved from the end of the disk")
    part_id = _partition_id(state, mount)
    fs_type = _FS_NAMES.get(fs or "ext4", fs or "ext4")
    state.partition_ops.append(
        AddPartition(id=part_id, mount_point=mount, size=size_text, fs_type=fs_type)
    )
    state.features.append((span[0], f"{part_id} partition"))


_DEFAULT_PARTITION_SIZE = 2 * 1024**3


def _root_keeps_its_size(state: PlanState, root: Partition) -> Partition | None:
    """The root partition, taking the rest of the disk, keeps the size it has now.

    "/home gets whatever is left. Total disk 64 GiB" with a root that fills the disk and no
    size said for it: when the request grows the disk, the root is fixed at its current
    size (said in a warning) so the new partition takes what the disk grows by. None when
    it was fixed; the root itself when the disk does not grow (the new one is reported).
    """
    current = root.size_bytes(state.facts.disk_size_bytes)
    disk = parse_size(state.disk_size) if state.disk_size else None
    old = state.facts.disk_size_bytes
    if current is None or current <= 0 or disk is None or old is None or disk - old < 1024**3:
        return root  # the disk does not grow: no room to give the new partition
    if not any(
        isinstance(op, ResizePartition) and op.partition == root.ref for op in state.partition_ops
    ):
        text = format_size(current)
        state.partition_ops.append(ResizePartition(partition=root.ref, size=text))
        state.warn(
            f"/ took the rest of the disk; it keeps its current size ({text}) so that another "
            "partition can take the rest — give / a size to change it"
        )
    return None


def _created_root_keeps_its_size(state: PlanState) -> None:
    """The root of the layout a raw image gets made from scratch keeps its size.

    An ISO or initrd base made raw gets a disk of the applier's default size with an ESP
    and a root that takes the rest; when the request grows that disk and asks another
    partition to take the rest, the root keeps the size it is created with (a warning
    says so), as a root that filled the disk of a template does.
    """
    from oic_ai.tools.applier.ops_disk import DEFAULT_RAW_SIZE, ESP_END

    if not state.disk_size:
        return  # (an image left ISO or initrd has its partitions reported, this with them)
    created, disk = parse_size(DEFAULT_RAW_SIZE), parse_size(state.disk_size)
    esp = parse_size(ESP_END)
    if created is None or disk is None or esp is None or disk - created < 1024**3:
        return
    if any(
        isinstance(op, ResizePartition) and op.partition == "rootfs" for op in state.partition_ops
    ):
        return
    text = format_size(created - esp)
    state.partition_ops.append(ResizePartition(partition="rootfs", size=text))
    state.warn(
        f"the new disk's root partition keeps the size it is created with ({text}) so that "
        "another partition can take the rest — give / a size to change it"
    )


def _sized_too(state: PlanState, part: Partition) -> bool:
    """True when this plan gives ``part`` a size: resized already, or sized in the request.

    A layout said as a list ("/ 20GiB ext4, /var xfs taking the rest") sizes the partition
    that took the rest of the disk, so another one may take it now.
    """
    names = {part.ref, part.id, part.mount_point} - {None, ""}
    if any(isinstance(op, ResizePartition) and op.partition in names for op in state.partition_ops):
        return True
    if not part.mount_point:
        return False
    said = re.escape(part.mount_point)
    if part.mount_point == "/":
        said = r"(?:/|root|rootfs)"  # "root 6 gigs", "make root a fixed 12 GiB"
    sized = re.compile(
        rf"(?<![\w./-]){said}(?![\w./-])\s*(?:partition\s+|fs\s+|filesystem\s+|volume\s+)?"
        rf"(?:(?:is|at|of|gets|to|=|:)\s*)?{FIXED}(?:{FS}\s+)?{SIZE}"
    )
    return sized.search(state.text.work) is not None


def _has_free_tail(state: PlanState) -> bool:
    """True when the last partition ends before the disk does, leaving at least 1GiB."""
    parts = [
        p
        for p in state.facts.partitions
        if p.start_bytes is not None and not removed_in_plan(state, p)
    ]
    disk = parse_size(state.disk_size) if state.disk_size else state.facts.disk_size_bytes
    if not parts or disk is None:
        return False
    last = max(parts, key=lambda p: p.start_bytes or 0)
    return bool(last.end_bytes) and disk - (last.end_bytes or 0) >= 1024**3


def _partition_id(state: PlanState, mount: str) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", mount.strip("/")).strip("-") or "part"
    taken = {p.id for p in state.facts.partitions} | {
        op.id for op in state.partition_ops if isinstance(op, AddPartition)
    }
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}{n}", n + 1
    return candidate
