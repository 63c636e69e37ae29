"""Rule: the disk size ("make the disk 16GiB"), and reading sizes in the request."""

from __future__ import annotations

import re

from oic_ai.stores.disk_units import format_size
from oic_ai.tools.planner.sizes import Size, parse_token
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.words import SIZE

MIB = 1024**2


def request_size(state: PlanState, span: tuple[int, int], *, record: bool = True) -> Size:
    """The size at ``span`` of the request, exactly as said: GB stays GB, GiB stays GiB.

    The request's sizes were already rewritten as canonical tokens (:mod:`..sizes`).

    Args:
        state: The planning state.
        span: Where the size is.
        record: Remember it as used (a size said again later is then a restatement).
    """
    raw = state.text.raw(*span)
    size = parse_token(raw)
    assert size is not None  # only called on text that matched SIZE
    if record:
        state.sizes.append((span[0], size.bytes))
    return size


_DISK_SIZE = re.compile(
    r"\b(?:(?P<verb>make|set|change|resize|grow|increase|expand|extend|shrink|reduce|bump)\s+)?"
    r"(?:the\s+)?(?:total\s+|whole\s+)?(?:(?:root|system|boot|main|os)\s+)?"
    r"(?:disk(?:\s+image)?|image|drive)(?:\s+size|'s\s+size)?\s*"
    rf"(?:to\s+|=\s*|:\s*|of\s+|at\s+|is\s+|should\s+be\s+|(?P<by>by)\s+)?(?P<size>{SIZE})"
    r"(?:\s+(?:(?P<more>bigger|larger|more)|(?P<less>smaller|less)))?"
    rf"|\b(?:(?:a|an|with)\s+)?(?P<size2>{SIZE})\s+(?:of\s+)?(?:total\s+)?(?:disk|drive)"
    r"(?:\s+(?:size|image))?\b"
    rf"|\b(?:make|set)\s+it\s+(?P<size3>{SIZE})"
)


def rule_disk_size(state: PlanState) -> None:
    """Set the disk size, absolutely ("16GiB") or relatively ("grow by 4GiB")."""
    for match in state.text.matches(_DISK_SIZE):
        group = next(g for g in ("size", "size2", "size3") if match.group(g))
        asked = request_size(state, match.span(group))
        size, text = asked.bytes, asked.text
        if match.group("by") or match.group("more") or match.group("less"):
            if state.facts.disk_size_bytes is None:
                state.reject(*match.span(), "the template has no disk size to grow from")
                continue
            shrink = match.group("verb") in ("shrink", "reduce") or bool(match.group("less"))
            size = state.facts.disk_size_bytes + (-size if shrink else size)
            text = format_size(size)
        state.text.consume(*match.span())
        set_disk_size(state, match.span(), size, text)


def set_disk_size(state: PlanState, span: tuple[int, int], size: int, text: str) -> None:
    """Plan the disk size ``text`` (``size`` bytes); an implausible size is rejected."""
    if size > 64 * 1024**4 or size < 64 * MIB:
        state.reject(*span, f"{text} is not a plausible disk size")
        return
    if size == state.facts.disk_size_bytes:
        state.notes.append(f"the disk is already {text}")
        return
    state.disk_size = text
    fixed_end = max((p.end_bytes for p in state.facts.partitions if p.end_bytes), default=0)
    if fixed_end and size < fixed_end:
        state.warn(
            f"the new disk size {text} is smaller than the fixed partitions "
            f"(they end at {format_size(fixed_end)}); shrink or remove partitions too"
        )
