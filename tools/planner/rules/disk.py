"""Rule: the disk size ("make the disk 16GiB"), and reading sizes in the request."""

from __future__ import annotations

import re

from oic_ai.stores.disk_units import format_size
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.words import SIZE

_UNIT_FACTORS = {
    "k": 1024,
    "kib": 1024,
    "kb": 1024,
    "m": 1024**2,
    "mib": 1024**2,
    "mb": 1024**2,
    "g": 1024**3,
    "gib": 1024**3,
    "gb": 1024**3,
    "t": 1024**4,
    "tib": 1024**4,
    "tb": 1024**4,
}
_SIZE_PARTS = re.compile(r"(\d+(?:\.\d+)?)\s*([a-z]+)")
MIB = 1024**2


def request_size(state: PlanState, span: tuple[int, int]) -> int:
    """Bytes for a size in the request; decimal units are read as binary, with a warning."""
    raw = state.text.raw(*span)
    size_match = _SIZE_PARTS.match(raw.strip().lower())
    assert size_match is not None  # only called on text that matched SIZE
    number, unit = size_match.groups()
    size = int(float(number) * _UNIT_FACTORS[unit])
    size = max(MIB, round(size / MIB) * MIB)
    if unit in ("kb", "mb", "gb", "tb"):
        state.warn(
            f"read {raw.strip()} as {format_size(size)}: template sizes use binary units "
            "(the composer counts GB in 1000s)"
        )
    return size


_DISK_SIZE = re.compile(
    r"\b(?:(?P<verb>make|set|change|resize|grow|increase|expand|extend|shrink|reduce|bump)\s+)?"
    r"(?:the\s+)?(?:total\s+|whole\s+)?(?:disk(?:\s+image)?|image|drive)(?:\s+size|'s\s+size)?\s*"
    rf"(?:to\s+|=\s*|:\s*|of\s+|at\s+|is\s+|should\s+be\s+|(?P<by>by)\s+)?(?P<size>{SIZE})"
    rf"|\b(?:(?:a|an|with)\s+)?(?P<size2>{SIZE})\s+(?:of\s+)?(?:total\s+)?(?:disk|drive)"
    r"(?:\s+(?:size|image))?\b"
    rf"|\b(?:make|set)\s+it\s+(?P<size3>{SIZE})"
)


def rule_disk_size(state: PlanState) -> None:
    """Set the disk size, absolutely ("16GiB") or relatively ("grow by 4GiB")."""
    for match in state.text.matches(_DISK_SIZE):
        group = next(g for g in ("size", "size2", "size3") if match.group(g))
        size = request_size(state, match.span(group))
        if match.group("by"):
            if state.facts.disk_size_bytes is None:
                state.reject(*match.span(), "the template has no disk size to grow from")
                continue
            shrink = match.group("verb") in ("shrink", "reduce")
            size = state.facts.disk_size_bytes + (-size if shrink else size)
        state.text.consume(*match.span())
        if size > 64 * 1024**4 or size < 64 * MIB:
            state.reject(*match.span(), f"{format_size(size)} is not a plausible disk size")
            continue
        if size == state.facts.disk_size_bytes:
            state.notes.append(f"the disk is already {format_size(size)}")
            continue
        state.disk_size = format_size(size)
        fixed_end = max(
            (p.end_bytes for p in state.facts.partitions if p.end_bytes),
            default=0,
        )
        if fixed_end and size < fixed_end:
            state.warn(
                f"the new disk size {format_size(size)} is smaller than the fixed partitions "
                f"(they end at {format_size(fixed_end)}); shrink or remove partitions too"
            )
