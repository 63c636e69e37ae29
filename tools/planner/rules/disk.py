"""Rule: the disk size ("make the disk 16GiB"), and reading sizes in the request."""

from __future__ import annotations

import re
from fractions import Fraction

from oic_ai.stores.disk_units import format_size
from oic_ai.tools.planner.sizes import Size, parse_token
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.words import SIZE, SIZE_JUDGED

MIB = 1024**2


def request_size(state: PlanState, span: tuple[int, int], *, record: bool = True) -> Size:
    """The size at ``span`` of the request, exactly as said: GB stays GB, GiB stays GiB.

    The request's sizes were already rewritten as canonical tokens (:mod:`..sizes`).

    Args:
        state: The planning state.
        span: Where the size is.
        record: Remember it as used (a size said again later is then a restatement).
    """
    raw = state.revised.get(span[0]) or state.text.raw(*span)  # "8 gigs, actually 6"
    size = parse_token(raw)
    assert size is not None  # only called on text that matched SIZE
    if record:
        state.sizes.append((span[0], size.bytes))
    return size


_DISK_SIZE = re.compile(
    r"\b(?:(?P<verb>make|set|change|resize|grow|increase|expand|extend|shrink|reduce|bump)\s+)?"
    r"(?:the\s+)?(?:total\s+|whole\s+)?(?:(?:root|system|boot|main|os)\s+)?"
    r"(?:disk(?:\s+image)?|image|drive)(?:\s+itself)?(?:\s+size|'s\s+size)?\s*"
    # the verb after its object, as in other word orders: "whole disk make 60GiB"
    r"(?:(?:make|set|change|resize|grow|put)\s+(?:it\s+)?(?:to\s+)?"
    rf"|to\s+(?:be\s+)?|=\s*|:\s*|of\s+|at\s+|is\s+|should\s+be\s+"
    # "bigger by 2GB", "smaller by a gig": the change said before its size
    r"|(?:(?:should\s+be|is)\s+)?(?:(?:bigger|larger)\s+|(?P<less2>smaller)\s+)?(?P<by>by)\s+)?"
    # "image just 8GiB", "disk only 6 gigs", "the image about 4GB"
    rf"(?:(?:just|only|about|around|roughly|approximately|approx\.?)\s+)?(?P<size>{SIZE})"
    r"(?:\s+(?:(?P<more>bigger|larger|more)|(?P<less>smaller|less)))?"
    rf"|\b(?:(?:a|an|with)\s+)?(?P<size2>{SIZE})\s+(?:of\s+)?(?:total\s+)?(?:disk|drive"
    # a cloud's "root volume" is the whole disk when the root partition fills it
    r"|(?P<vol>(?:root|boot|os|ebs)\s+volume))"
    r"(?:\s+(?:size|image))?\b"
    rf"|\b(?:the\s+)?(?P<vol2>(?:root|boot|os|ebs)\s+volume)(?:\s+size)?\s*(?:(?:of|at|is|to|=|:)\s*)?"
    rf"(?P<size4>{SIZE})"
    rf"|\b(?:make|set|bump|grow|resize|increase|raise|change|shrink|reduce|enlarge|expand|extend)"
    rf"\s+it\s+(?:(?:up|down)\s+)?(?:to\s+)?(?P<size3>{SIZE})"
)
# a mount point judged in the clause right before "make it N": "/boot/efi is overkill, "
_MOUNT_JUDGED = re.compile(
    r"(?<![\w.~-])/[\w./-]*[^\n.;!?]*?"
    + SIZE_JUDGED
    + r"[\s\x1f]*[,;:-]+[\s\x1f]*(?:(?:so|just|then|please|pls)\s+)?$"
)
_PARTITION_BEFORE = re.compile(r"\bpartition\s*[,:;]?\s*(?:-+\s*)?(?:please\s+|just\s+)?$")
# what may follow a disk size and belongs to it: "in total", "(not 35)", "not 1.5",
# "instead of 1.5TB": the value it corrects
_SIZE_TAIL = re.compile(
    r"\s*(?:in\s+total|total|overall|altogether)\b"
    rf"|\s*,?\s*\(?\s*(?:not|instead\s+of|rather\s+than)\s+(?:\d+(?:\.\d+)?(?![\w.])|{SIZE})\s*\)?"
)
# a size relative to the current one: "half again as large", "double the disk"
_FACTORS = {
    "half again": Fraction(3, 2),
    "twice": Fraction(2),
    "double": Fraction(2),
    "triple": Fraction(3),
    "three times": Fraction(3),
    "half": Fraction(1, 2),
}
_RELATIVE = re.compile(
    r"\b(?:make|set|grow|resize|change)?\s*(?:the\s+)?(?:disk|drive)(?:\s+size)?\s+"
    r"(?P<factor>half\s+again|twice|three\s+times|half)\s+(?:as\s+)?(?:large|big)"
    r"(?:\s+as\s+(?:it\s+is|now|before))?"
    r"|\b(?P<verb>double|triple|halve)\s+(?:the\s+)?(?:disk|drive)(?:\s+size)?\b"
    # "bigger. double it": a pronoun, read only beside a word of size or after a turn about
    # the disk (see _PRONOUN_SIZE)
    r"|\b(?P<verb2>double|triple|halve)\s+(?:it|that|this)(?=\s*(?:$|[,.;!?]|again\b|then\b|"
    r"please\b|pls\b))"
    r"|\b(?P<change>grow|increase|enlarge|expand|extend|shrink|reduce|cut|bump|raise)\s+(?:the\s+)?"
    r"(?:disk|drive)(?:\s+size)?\s+(?:(?P<down>down)\s+|up\s+)?by\s+"
    r"(?:(?P<by_half>(?:a\s+|one\s+)?half)|(?P<percent>\d{1,3})\s*%)"
    # "a 50% bigger disk", "make the disk 25% smaller"
    r"|\b(?P<percent2>\d{1,3})\s*%\s+(?:(?P<larger>bigger|larger)|smaller)\s+(?:disk|drive)\b"
    r"|\b(?:disk|drive)(?:\s+size)?\s+(?P<percent3>\d{1,3})\s*%\s+"
    r"(?:(?P<larger3>bigger|larger)|smaller)\b"
)
# a size added to the disk: "add 4 GiB to the disk", "4 more gigs of disk", "the disk needs
# another 2 GiB"
_ADDED = re.compile(
    rf"\b(?:add|put)\s+(?:another\s+|an\s+extra\s+)?(?P<size>{SIZE})\s+(?:more\s+|extra\s+)?"
    r"(?:to|on|onto)\s+(?:the\s+)?(?:disk|drive|image)\b"
    # "give it another 5 GiB of disk": "another" makes it more than there is
    rf"|\b(?:add|give\s+(?:it|the\s+(?:disk|drive|image)))\s+(?:another|an\s+extra)\s+"
    rf"(?P<size4>{SIZE})"
    rf"|\b(?P<size2>{SIZE})\s+(?:more|extra)\s+(?:of\s+)?(?:disk|drive|storage|space)\b"
    rf"|\b(?:disk|drive|image)\s+(?:needs|could\s+use|gets|should\s+get|wants)\s+"
    rf"(?:another|an\s+extra|(?P<extra>{SIZE})\s+more)(?:\s+(?P<size3>{SIZE}))?"
)


def rule_disk_size(state: PlanState) -> None:
    """Set the disk size, absolutely ("16GiB") or relatively ("grow by 4GiB")."""
    for match in state.text.matches(_ADDED):
        group = next(
            (g for g in ("size", "size2", "size4", "extra", "size3") if match.group(g)), None
        )
        if group is None:
            continue  # "the disk needs another": no size said
        current = _current_size(state, match.span())
        if current is None:
            continue
        size = current + request_size(state, match.span(group)).bytes
        state.text.consume(*match.span())
        set_disk_size(state, match.span(), size, format_size(size), absolute=False)
    for match in state.text.matches(_DISK_SIZE):
        group = next(g for g in ("size", "size2", "size3", "size4") if match.group(g))
        if (match.group("vol") or match.group("vol2")) and not _root_fills_disk(state):
            continue  # a root partition of its own size: the partition rules read it
        if group == "size3" and (
            _PARTITION_BEFORE.search(state.text.work, max(0, match.start() - 30), match.start())
            or _MOUNT_JUDGED.search(state.text.work, max(0, match.start() - 80), match.start())
        ):
            # "the efi partition, make it 256 megs", "half a gig for /boot/efi is overkill,
            # make it 256 megs": the partition's size
            continue
        asked = request_size(state, match.span(group))
        size, text = asked.bytes, asked.text
        relative = bool(match.group("by") or match.group("more") or match.group("less"))
        if relative:
            current = _current_size(state, match.span())
            if current is None:
                continue
            shrink = match.group("verb") in ("shrink", "reduce") or bool(match.group("less"))
            shrink = shrink or bool(match.group("less2"))
            size = current + (-size if shrink else size)
            text = format_size(size)
        end = match.end()
        while tail := _SIZE_TAIL.match(state.text.work, end):
            end = tail.end()
        state.text.consume(match.start(), end)
        set_disk_size(state, (match.start(), end), size, text, absolute=not relative)
    for match in state.text.matches(_RELATIVE):
        if percent := match.group("percent2") or match.group("percent3"):
            part = Fraction(int(percent), 100)
            larger = match.group("larger") or match.group("larger3")
            factor = 1 + part if larger else 1 - part
        elif match.group("change"):
            part = (
                Fraction(1, 2)
                if match.group("by_half")
                else Fraction(int(match.group("percent")), 100)
            )
            shrink = match.group("change") in ("shrink", "reduce", "cut") or bool(
                match.group("down")
            )
            factor = 1 - part if shrink else 1 + part
        else:
            if match.group("verb2") and not _about_the_disk(state):
                continue  # "double it" of something else: the disk only when it was the topic
            word = " ".join(
                (match.group("factor") or match.group("verb") or match.group("verb2")).split()
            )
            factor = Fraction(1, 2) if word == "halve" else _FACTORS[word]
        current = _current_size(state, match.span(), "to start from")
        if current is None:
            continue
        size = int(current * factor)
        state.text.consume(*match.span())
        set_disk_size(state, match.span(), size, format_size(size), absolute=False)
    _size_said_before(state)


# a size pointed back at: "the SD cards are 8 gigabytes, so make the image that size"
_THAT_SIZE = re.compile(
    r"\b(?:make|set|build|size|cut|fit)\s+(?:the\s+)?(?:image|disk|drive|it)\s+(?:to\s+)?"
    r"(?:(?:that|this|the\s+same)\s+size|(?:that|as)\s+(?:big|large))\b"
)

_OF_A_PART = re.compile(r"(?:(?<![\w.~-])/[\w./-]*|\bpartition|\bswap)[^.;!?\n]*$")


def _size_said_before(state: PlanState) -> None:
    """Set the disk to the size said before "make the image that size", in its request."""
    for match in state.text.matches(_THAT_SIZE):
        said = list(re.finditer(SIZE, state.text.work[: match.start()]))
        if not said or _OF_A_PART.search(state.text.work, 0, said[-1].start()):
            # "make it that size" of a size said in another turn, or of a partition's
            continue
        asked = request_size(state, said[-1].span())
        state.text.consume(*said[-1].span(), "context")
        state.text.consume(*match.span())
        set_disk_size(state, match.span(), asked.bytes, asked.text)


# the size's number said again without its unit: "around 8 gigs should be plenty, make it
# 8", "16 GB, so 16 then"
_NUMBER_AGAIN = re.compile(
    r"\b(?:make\s+(?:it|that)|go\s+with|let'?s\s+(?:say|do)|say|so|just)\s+(?P<n>\d+(?:\.\d+)?)"
    r"(?:\s+(?:then|it\s+is|please|pls))?(?![\w%-]|\.\d)"
)


def _same_number_again(state: PlanState, said: str) -> None:
    """Read "make it 8" after "8 gigs" in the same request as the same size."""
    number = re.search(r"(?<![\w.])(\d+(?:\.\d+)?)", said)
    if number is None:
        return
    for match in state.text.matches(_NUMBER_AGAIN):
        if match.group("n") == number.group(1):
            state.text.consume(*match.span(), "context")


# words that make "double it" a size: "bigger. double it", "more space, double it"
_PRONOUN_SIZE = re.compile(
    r"\b(?:bigger|larger|smaller|more\s+(?:space|room|storage)|disk|drive|size|storage|gigs?|gb|gib)\b"
)


def _about_the_disk(state: PlanState) -> bool:
    """True when the request or the turn before it speaks of the disk's size."""
    before = state.earlier.strip().splitlines()[-1:]
    return any(_PRONOUN_SIZE.search(t.lower()) for t in [state.text.original, *before])


def _current_size(
    state: PlanState, span: tuple[int, int], from_: str = "to grow from"
) -> int | None:
    """The template's disk size in bytes; without one, the change at ``span`` is reported."""
    if state.facts.disk_size_bytes is None:
        state.reject(*span, f"the template has no disk size {from_}")
    return state.facts.disk_size_bytes


def _root_fills_disk(state: PlanState) -> bool:
    """True when the root partition takes the rest of the disk (or there is no layout)."""
    parts = state.facts.partitions
    root = next((p for p in parts if p.mount_point == "/"), None)
    return not parts or (root is not None and root.end_bytes == 0)


def set_disk_size(
    state: PlanState, span: tuple[int, int], size: int, text: str, *, absolute: bool = True
) -> None:
    """Plan the disk size ``text`` (``size`` bytes); an implausible size is rejected.

    An ``absolute`` size said at ``span`` (not a change by some amount) may be said again
    by its number alone: "8 gigs should be plenty, make it 8".
    """
    if absolute:
        _same_number_again(state, state.text.raw(*span))
    if size > 64 * 1024**4 or size < 64 * MIB:
        state.reject(*span, f"{text} is not a plausible disk size")
        return
    if size == state.facts.disk_size_bytes:
        state.notes.append(f"the disk is already {text}")
        return
    # a disk smaller than the layout: the applier shrinks the root and the rest-of-disk
    # partition to fit (and says so), or refuses naming the smallest disk that would do
    state.disk_size = text
