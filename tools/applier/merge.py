"""A three-way line merge: carry ruamel's edits over to the original text."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

import yaml

from oic_ai.tools.applier.yaml_io import SafeLoader


def _hunks(base: list[str], other: list[str]) -> list[tuple[int, int, list[str]]]:
    matcher = difflib.SequenceMatcher(None, base, other, autojunk=False)
    return [
        (i1, i2, other[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"
    ]


def merge(original: str, base: str, edited: str) -> str:
    """Carry the edits from ``base`` to ``edited`` over to ``original``.

    ``original`` differs from ``base`` only where ruamel normalised the formatting.
    Changes on one side apply as they are; where both sides changed the same or
    adjacent lines, the edited side wins for that region.
    """
    if edited == base:
        return original
    if original == base:
        return edited
    base_lines = base.splitlines(keepends=True)
    edited_lines = edited.splitlines(keepends=True)
    hunks = [
        (lo, hi, "o", lines) for lo, hi, lines in _hunks(base_lines, original.splitlines(True))
    ]
    hunks += [(lo, hi, "e", lines) for lo, hi, lines in _hunks(base_lines, edited_lines)]
    hunks.sort(key=lambda h: (h[0], h[1]))
    out: list[str] = []
    position = 0
    index = 0
    while index < len(hunks):
        group = [hunks[index]]
        high = hunks[index][1]
        index += 1
        while index < len(hunks) and hunks[index][0] <= high:
            group.append(hunks[index])
            high = max(high, hunks[index][1])
            index += 1
        low = group[0][0]
        out.extend(base_lines[position:low])
        sides = {side for _, _, side, _ in group}
        if len(sides) == 1:
            out.extend(group[0][3])
        else:
            out.extend(_combine(group, base_lines, low, high))
        position = high
    out.extend(base_lines[position:])
    merged = "".join(out)
    try:
        same = yaml.load(merged, Loader=SafeLoader) == yaml.load(edited, Loader=SafeLoader)
    except yaml.YAMLError:
        same = False
    return merged if same else edited


def _combine(
    group: Sequence[tuple[int, int, str, list[str]]], base: list[str], low: int, high: int
) -> list[str]:
    """Merge a region both sides changed: the edits win, the original's layout stays.

    When the original side only re-spaced lines one for one (a list written level with
    its key where ruamel indents it, two spaces before a comment, a trailing space), the
    lines the edit kept come from the original and the lines it wrote get the original's
    indentation, so a list keeps its style when an item is added. Otherwise the edited
    lines win as ruamel wrote them.
    """
    edited: list[tuple[int, str]] = []  # (base index or -1 for a new line, text)
    cursor = low
    for lo, hi, side, lines in group:
        if side != "e":
            continue
        edited.extend((i, base[i]) for i in range(cursor, lo))
        edited.extend((-1, line) for line in lines)
        cursor = hi
    edited.extend((i, base[i]) for i in range(cursor, high))
    kept: dict[int, str] = {}
    shift: int | None = None
    depth = 1 << 30  # lines indented less than the re-spaced block are not part of it
    for lo, hi, side, lines in group:
        if side != "o":
            continue
        if hi - lo != len(lines):
            return [line for _, line in edited]
        for index, (before, after) in enumerate(zip(base[lo:hi], lines, strict=True)):
            if before.split() != after.split():
                return [line for _, line in edited]
            kept[lo + index] = after
            if before.strip():
                depth = min(depth, _indent(before))
                delta = _indent(after) - _indent(before)
                if shift not in (None, delta):
                    return [line for _, line in edited]
                shift = delta
    out: list[str] = []
    for index, line in edited:
        if index >= 0:
            out.append(kept.get(index, line))
        elif not shift or not line.strip() or _indent(line) < depth:
            out.append(line)
        elif shift > 0:
            out.append(" " * shift + line)
        elif _indent(line) >= -shift:
            out.append(line[-shift:])
        else:
            return [line for _, line in edited]
    return out


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))
