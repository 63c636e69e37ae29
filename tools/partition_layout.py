"""Partition geometry: where each partition starts and ends, and how edits move them.

Pure arithmetic on byte offsets, shared by the plan applier (add, resize, remove a
partition, change the disk size) and the deterministic fixer (overlaps, a disk too
small for its partitions). Nothing here touches YAML: callers read spans from plain
data and write the returned boundaries back.

Conventions match the composer: ``end: "0"`` means "to the end of the disk" and only
the last partition may use it. New boundaries are whole MiB, except for a partition asked
for in decimal units (``25GB``): it starts on a whole MB, so its size stays exact.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from oic_ai.stores.disk_units import format_size, parse_size

MIB = 1024**2
GIB = 1024**3
MB = 1000**2
# A rest-of-disk partition must keep at least this much; the root filesystem more.
MIN_REST = MIB
MIN_ROOT = GIB
ESP_GUID = "c12a7328-f81f-11d2-ba4b-00a0c93ec93b"
_FIXED_SIZE_MOUNTS = frozenset({"none", "swap", "/boot/efi", "/boot"})


class LayoutError(ValueError):
    """An edit the layout cannot take; the message says why and what to do instead."""


@dataclass(frozen=True)
class Span:
    """One partition's place on the disk.

    Attributes:
        index: position in ``disk.partitions``.
        label: the partition's id (or name, or ``#index``) for messages.
        start: first byte.
        end: end byte (exclusive), or None for "the rest of the disk".
        mount: the mount point, if any.
        kind: the partition ``type``, if any.
        esp: whether this is the EFI system partition.
    """

    index: int
    label: str
    start: int
    end: int | None
    mount: str | None = None
    kind: str | None = None
    esp: bool = False

    @property
    def is_root(self) -> bool:
        """Whether the partition holds the root filesystem."""
        return self.mount is not None and self.mount.rstrip("/") == ""

    @property
    def fixed_size(self) -> bool:
        """Whether the partition has a size by nature (ESP, verity hash, swap, /boot)."""
        return self.esp or (self.mount or "").strip().lower() in _FIXED_SIZE_MOUNTS


def partition_label(part: Mapping[str, Any], index: int) -> str:
    """Name a partition the way messages should: its id, else its name, else ``#index``."""
    return str(part.get("id") or part.get("name") or f"#{index}")


def is_esp(part: Mapping[str, Any]) -> bool:
    """Whether ``part`` is the EFI system partition."""
    flags = part.get("flags")
    guid = part.get("typeUUID")
    return (
        part.get("type") == "esp"
        or (isinstance(flags, list) and "esp" in flags)
        or (isinstance(guid, str) and guid.lower() == ESP_GUID)
        or part.get("mountPoint") == "/boot/efi"
    )


def read_spans(partitions: Sequence[Any]) -> list[Span]:
    """Read every partition's span, sorted by start.

    Raises:
        LayoutError: a partition is not a mapping or has no readable start or end.
    """
    spans: list[Span] = []
    for index, part in enumerate(partitions):
        if not isinstance(part, Mapping):
            raise LayoutError(f"partitions[{index}] is not a mapping")
        label = partition_label(part, index)
        start = parse_size(part.get("start"))
        end = parse_size(part.get("end"))
        if start is None or end is None:
            raise LayoutError(f"partition {label} has no readable start and end")
        mount = part.get("mountPoint")
        kind = part.get("type")
        spans.append(
            Span(
                index=index,
                label=label,
                start=start,
                end=None if end == 0 else end,
                mount=mount if isinstance(mount, str) else None,
                kind=kind if isinstance(kind, str) else None,
                esp=is_esp(part),
            )
        )
    spans.sort(key=lambda s: (s.start, s.index))
    return spans


def mib(size_bytes: int) -> str:
    """Write a boundary in MiB (the unit new boundaries use), else MB, else exactly."""
    if size_bytes % MIB == 0:
        return f"{size_bytes // MIB}MiB"
    if size_bytes % MB == 0:
        return f"{size_bytes // MB}MB"
    return format_size(size_bytes)


def whole_size(size_bytes: int) -> int:
    """A partition size as boundaries can write it: whole MB and whole MiB stay exact."""
    if size_bytes % MB == 0:
        return size_bytes
    return round_up(size_bytes, MIB)


def aligned_start(start: int, size: int | None) -> int:
    """Where a partition of ``size`` bytes starting at ``start`` or later begins.

    A size in decimal units (a whole number of MB but not of MiB) starts on a whole MB,
    so both of its boundaries can be written exactly (``538MB``, ``25538MB``).
    """
    if size is not None and size % MIB and size % MB == 0:
        return round_up(start, MB)
    return start


def round_up(size_bytes: int, unit: int) -> int:
    """Round ``size_bytes`` up to a whole multiple of ``unit``."""
    return math.ceil(size_bytes / unit) * unit


def _min_keep(span: Span) -> int:
    return MIN_ROOT if span.is_root else MIN_REST


def _check_consistent(spans: Sequence[Span]) -> None:
    for span in spans[:-1]:
        if span.end is None:
            raise LayoutError(
                f'partition {span.label} uses end "0" but is not the last partition; '
                "fix the layout first"
            )


def required_disk_size(spans: Sequence[Span]) -> int:
    """Return the smallest disk size that holds every partition."""
    need = 0
    for span in spans:
        if span.end is None:
            need = max(need, span.start + _min_keep(span))
        else:
            need = max(need, span.end)
    return need


def check_disk_size(spans: Sequence[Span], disk_size: int) -> None:
    """Check that a disk of ``disk_size`` bytes holds every partition.

    Raises:
        LayoutError: a fixed partition would end past the disk, or the rest-of-disk
            partition would be left too small.
    """
    for span in spans:
        if span.end is not None and span.end > disk_size:
            raise LayoutError(
                f"partition {span.label} ends at {mib(span.end)}, past {mib(disk_size)}; "
                "shrink or remove it first"
            )
        if span.end is None and span.start + _min_keep(span) > disk_size:
            raise LayoutError(
                f"partition {span.label} starts at {mib(span.start)} and needs at least "
                f"{format_size(_min_keep(span))}, so the disk must be at least "
                f"{format_size(round_up(span.start + _min_keep(span), MIB))}"
            )


def _flexible(span: Span, last: Span) -> bool:
    """Whether a smaller disk may shrink ``span`` (root, or the last rest-of-disk one).

    An ESP, /boot or swap never shrinks.
    """
    if span.fixed_size:
        return False
    return span.is_root or (span is last and span.end is None)


def shrink_to_fit(
    spans: Sequence[Span], old_disk_size: int | None, disk_size: int
) -> dict[int, tuple[int, int | None]]:
    """Fit the layout on a smaller disk by shrinking its flexible partitions.

    The flexible partitions are the root filesystem and the partition that takes the
    rest of the disk. They shrink in proportion to their current sizes (each keeps at
    least its minimum: 1GiB for the root); every other partition keeps its size and
    moves down behind them, gaps are kept. The last partition, when flexible, ends
    with the disk (``end: "0"``).

    Returns:
        New ``(start, end)`` per list index for the partitions that change; empty when
        the layout already fits.

    Raises:
        LayoutError: no partition may shrink, or the others do not fit even with the
            flexible ones at their minimum (the message names the smallest disk size).
    """
    _check_consistent(spans)
    try:
        check_disk_size(spans, disk_size)
        return {}
    except LayoutError as exc:
        refusal = exc
    if not spans:
        return {}
    last = spans[-1]
    flexible = [s for s in spans if _flexible(s, last)]
    if not flexible:
        raise refusal
    sizes: dict[int, int] = {}
    for span in spans:
        old_end = span.end if span.end is not None else old_disk_size
        sizes[span.index] = (
            max(old_end - span.start, _min_keep(span)) if old_end is not None else _min_keep(span)
        )
    # what does not shrink: the space before the first partition, gaps and other partitions
    rigid = spans[0].start
    for before, after in zip(spans, spans[1:], strict=False):
        rigid += max(after.start - (before.end or after.start), 0)
    rigid += sum(sizes[s.index] for s in spans if s not in flexible)
    room = disk_size - rigid
    minimum = sum(_min_keep(s) for s in flexible)
    if room < minimum:
        need = round_up(rigid + minimum, GIB)
        names = ", ".join(s.label for s in flexible)
        raise LayoutError(
            f"the other partitions need {format_size(rigid)} and {names} at least "
            f"{format_size(minimum)}, so the disk must be at least {format_size(need)}; "
            "shrink or remove a partition first, or choose a larger disk"
        ) from None
    new = _share(flexible, sizes, room)
    changes: dict[int, tuple[int, int | None]] = {}
    cursor: int | None = None
    for span in spans:
        start = span.start if cursor is None else cursor + _gap_before(spans, span)
        size = new.get(span.index, sizes[span.index])
        end: int | None = start + size
        if span is last and (span in flexible or disk_size - start - size < MIB):
            end = None
        if (start, end) != (span.start, span.end):
            changes[span.index] = (start, end)
        cursor = start + size
    return changes


def _gap_before(spans: Sequence[Span], span: Span) -> int:
    position = list(spans).index(span)
    if position == 0:
        return 0
    before = spans[position - 1]
    return max(span.start - (before.end or span.start), 0)


def _share(flexible: Sequence[Span], sizes: Mapping[int, int], room: int) -> dict[int, int]:
    """Split ``room`` among the flexible partitions in proportion, each at its minimum."""
    new: dict[int, int] = {}
    left = list(flexible)
    while left:
        total = sum(sizes[s.index] for s in left)
        space = room - sum(new.values())
        small = [s for s in left if space * sizes[s.index] // total < _min_keep(s)]
        if not small:
            break
        for span in small:
            new[span.index] = _min_keep(span)
            left.remove(span)
    total = sum(sizes[s.index] for s in left)
    space = room - sum(new.values())
    for span in left:
        new[span.index] = space * sizes[span.index] // total // MIB * MIB
    return new


@dataclass(frozen=True)
class Carve:
    """Where a new partition goes, and what moves to make room.

    Attributes:
        start: the new partition's first byte.
        end: its end byte, or None for "the rest of the disk".
        changes: new ``(start, end)`` of existing partitions, by list index.
        insert_at: list index for the new partition (keeps the list sorted by start).
    """

    start: int
    end: int | None
    changes: dict[int, tuple[int, int | None]]
    insert_at: int


def carve_from_end(spans: Sequence[Span], disk_size: int | None, size: int | None) -> Carve:
    """Find room for a new partition of ``size`` bytes (None: the rest of the disk).

    The space always comes from the end of the disk, and the new partition keeps exactly
    the size asked for:

    * The last partition takes the rest of the disk (``end: "0"``): the new partition
      goes where that one starts, with a fixed size, and the rest-of-disk partition
      moves up behind it and keeps ``end: "0"``. So the disk size does not change, the
      partition the template chose to absorb the rest of the disk still does (if the
      disk grows later, it grows, not the new one), and the order of a disk-size change
      and this edit in a plan does not matter.
    * The last partition has a fixed end: the new partition starts there and must fit in
      the free space before ``disk.size``. If it would end within 1 MiB of the end of
      the disk it uses ``end: "0"`` instead (the last sectors hold the backup GPT).

    Raises:
        LayoutError: there is no room (the message names the disk size that would do),
            or the layout is inconsistent already.
    """
    if not spans:
        raise LayoutError("the disk has no partitions to carve from")
    _check_consistent(spans)
    last = spans[-1]
    if last.end is None:
        if size is None:
            raise LayoutError(
                f"partition {last.label} already takes the rest of the disk; "
                "give the new partition a size"
            )
        if disk_size is None:
            raise LayoutError("disk.size is not set, so the end of the disk is unknown")
        start = aligned_start(last.start, size)
        end = start + size
        if disk_size - end < _min_keep(last):
            need = round_up(end + _min_keep(last), GIB)
            raise LayoutError(
                f"not enough room: partition {last.label} would keep "
                f"{format_size(max(disk_size - end, 0))}; grow the disk to at least "
                f"{format_size(need)} first"
            )
        return Carve(start, end, {last.index: (end, None)}, last.index)
    insert_at = max(s.index for s in spans) + 1
    start = aligned_start(last.end, size)
    if disk_size is None:
        if size is None:
            raise LayoutError("disk.size is not set, so the rest of the disk is unknown")
        return Carve(start, start + size, {}, insert_at)
    free = disk_size - start
    if size is None:
        if free < MIN_REST:
            raise LayoutError(f"no free space after partition {last.label}")
        return Carve(start, None, {}, insert_at)
    if size > free:
        need = round_up(start + size, GIB)
        raise LayoutError(
            f"only {format_size(max(free, 0))} free after partition {last.label}; grow the "
            f"disk to at least {format_size(need)} first"
        )
    fixed_end: int | None = start + size
    if fixed_end is not None and disk_size - fixed_end < MIB:
        fixed_end = None
    return Carve(start, fixed_end, {}, insert_at)


# a root the user's disk size makes room by shrinking keeps this much at least (a minimal
# el10 or Debian root fits in less; a template's own root is usually 4-8 GiB)
ROOT_FLOOR = 3 * GIB


def carve_shrinking_root(
    spans: Sequence[Span], disk_size: int, size: int
) -> tuple[dict[int, tuple[int, int | None]], Carve] | None:
    """Room for a new partition of ``size`` bytes on a disk whose size must stay.

    When the disk size is the user's, the space a new partition lacks comes from a root
    partition with a fixed size (a template's specialised layout: a fixed root, then a
    partition that takes the rest): the root shrinks by what is missing, and the
    rest-of-disk partition after it keeps at least 1 GiB. None when there is no such root,
    or it would keep less than :data:`ROOT_FLOOR`.

    Returns:
        The root's shrink (changes by list index, the partitions after it moved down), and
        the carve on the layout after it.
    """
    root = next((s for s in spans if s.is_root and s.end is not None), None)
    if root is None or root.end is None or not spans:
        return None
    shortfall = 0
    for _ in range(3):  # alignment can cost a few more bytes: try again with them
        new_size = (root.end - root.start - shortfall) // MIB * MIB
        if new_size < ROOT_FLOOR or new_size > root.end - root.start:
            return None
        try:
            shrink = resize(spans, disk_size, root.index, new_size) if shortfall else {}
        except LayoutError:
            return None
        moved = [
            replace(s, start=shrink[s.index][0], end=shrink[s.index][1])
            if s.index in shrink
            else s
            for s in spans
        ]
        last = moved[-1]
        if last.end is None:
            end = aligned_start(last.start, size) + size
            missing = end + max(_min_keep(last), GIB) - disk_size
        else:
            missing = aligned_start(last.end, size) + size - disk_size
        if missing <= 0:
            try:
                return shrink, carve_from_end(moved, disk_size, size)
            except LayoutError:
                return None
        shortfall += round_up(missing, MIB)
    return None


def disk_size_for_new(spans: Sequence[Span], size: int | None) -> int | None:
    """The smallest whole-GiB disk size on which a new partition of ``size`` fits.

    It is carved as :func:`carve_from_end` carves it. None when no disk size would do
    (the layout is inconsistent, or a rest-of-disk partition already ends the disk and
    the new one has no size).
    """
    if not spans:
        return None
    try:
        _check_consistent(spans)
    except LayoutError:
        return None
    last = spans[-1]
    if last.end is None:
        if size is None:
            return None
        end = aligned_start(last.start, size) + size
        return round_up(end + _min_keep(last), GIB)
    start = aligned_start(last.end, size)
    return round_up(start + (MIN_REST if size is None else size), GIB)


def resize(
    spans: Sequence[Span], disk_size: int | None, index: int, size: int
) -> dict[int, tuple[int, int | None]]:
    """Give partition ``index`` a new size; every partition after it moves by the change.

    A rest-of-disk partition gets a fixed end (``end: "0"`` is kept when the new end
    falls within 1 MiB of the end of the disk).

    Returns:
        New ``(start, end)`` per list index, for the partitions that change.

    Raises:
        LayoutError: the result would not fit on the disk.
    """
    _check_consistent(spans)
    if size < MIB:
        raise LayoutError("a partition needs at least 1MiB")
    target = next(s for s in spans if s.index == index)
    new_start = aligned_start(target.start, size)
    new_end = new_start + size
    changes: dict[int, tuple[int, int | None]] = {}
    if target.end is None:
        if disk_size is not None:
            if new_end > disk_size:
                raise LayoutError(
                    f"partition {target.label} would end at {mib(new_end)}, past disk.size "
                    f"{format_size(disk_size)}; grow the disk to at least "
                    f"{format_size(round_up(new_end, GIB))} first"
                )
            if disk_size - new_end < MIB and new_start == target.start:
                return {}
        changes[index] = (new_start, new_end)
        return changes
    delta = new_end - target.end
    if delta == 0 and new_start == target.start:
        return {}
    changes[index] = (new_start, new_end)
    moved: list[Span] = []
    for span in spans:
        if span.index != index and span.start >= target.end:
            moved_span = replace(
                span,
                start=span.start + delta,
                end=None if span.end is None else span.end + delta,
            )
            changes[span.index] = (moved_span.start, moved_span.end)
            moved.append(moved_span)
    if disk_size is not None:
        check_disk_size(
            [replace(target, end=new_end), *moved],
            disk_size,
        )
    return changes


def remove(
    spans: Sequence[Span], disk_size: int | None, index: int
) -> tuple[dict[int, tuple[int, int | None]], str]:
    """Take partition ``index`` out; later partitions move down to close the gap.

    When the removed partition took the rest of the disk, the partition before it takes
    the rest instead, unless that one has a size by nature (ESP, verity hash, swap,
    /boot); then the space stays free.

    Returns:
        New ``(start, end)`` per list index, and a note on where the space went.

    Raises:
        LayoutError: the partition is the root filesystem or the ESP.
    """
    target = next(s for s in spans if s.index == index)
    if target.is_root:
        raise LayoutError("it holds the root filesystem")
    if target.esp:
        raise LayoutError("it is the EFI system partition the image boots from")
    _check_consistent(spans)
    changes: dict[int, tuple[int, int | None]] = {}
    before = [s for s in spans if s.index != index and s.start < target.start]
    after = [s for s in spans if s.index != index and s.start >= target.start]
    if target.end is None:
        previous = before[-1] if before else None
        if previous is not None and previous.end is not None and not previous.fixed_size:
            changes[previous.index] = (previous.start, None)
            return changes, f"partition {previous.label} now takes the rest of the disk"
        return changes, "the space at the end of the disk is left free"
    gap = (after[0].start if after else target.end) - target.start
    for span in after:
        changes[span.index] = (
            span.start - gap,
            None if span.end is None else span.end - gap,
        )
    if not after:
        return changes, f"{format_size(target.end - target.start)} at the end stay free"
    if after[-1].end is None:
        return changes, f"partition {after[-1].label} grows into the space"
    return changes, f"later partitions moved down by {format_size(gap)}"


def relayout_contiguous(
    spans: Sequence[Span],
) -> dict[int, tuple[int, int | None]] | None:
    """Lay partitions end to start in their current order, keeping each one's size.

    Fixes overlaps (a partition starting inside the one before moves to that one's end,
    and everything after it moves along) and a rest-of-disk partition that is not the
    last (it ends where the next one starts). Gaps are kept.

    Returns:
        New ``(start, end)`` per list index for the partitions that change, or None when
        a size is unknowable without guessing.
    """
    changes: dict[int, tuple[int, int | None]] = {}
    cursor: int | None = None
    for position, span in enumerate(spans):
        is_last = position == len(spans) - 1
        if span.end is None and not is_last:
            following = spans[position + 1].start
            if following <= span.start:
                return None
            size: int | None = following - span.start
        elif span.end is None:
            size = None
        else:
            if span.end <= span.start:
                return None
            size = span.end - span.start
        start = span.start if cursor is None else max(span.start, cursor)
        end = None if size is None else start + size
        if (start, end) != (span.start, span.end):
            changes[span.index] = (start, end)
        cursor = end
    return changes
