"""Rule: a value said again differently in the same breath ("8 gigs, actually 6 gigs").

People change their mind about a value while still saying it: "make the disk 8 gigs, the
boxes have tiny SSDs, actually 6 gigs, 6 is enough", "the disk 10 gigs, no 16, let's say
16", "1 gig, xfs? no ext4, keep it ext4". The last value said wins and the first one leaves
no trace: the rule that reads the first value's place (the disk size after "make it", the
file system of "/var/log on its own partition") reads the revised value there instead, and
the correction itself ("actually 6 gigs, 6 is enough") is context.

A revision is a value of one kind (a size, a file system), a correction word ("actually",
"no", "I mean", "make that", "let's say", "or rather") and a second value of the same kind;
a bare number revises a size in the first one's unit ("10 gigs, no 16"). At most one short
clause with no number, path or other sized thing may stand between them ("8 gigs, the
boxes have tiny SSDs, actually 6"), and the second value must end its clause: "20 gigs,
actually 2 gigs for /data" names another thing's size and is no revision. Restatements of
the final value after it ("6 is enough", "keep it ext4") are context too.
"""

from __future__ import annotations

import re
from fractions import Fraction

from oic_ai.tools.planner.sizes import Size, parse_token, write_size
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.words import CLAUSE_END, FS, SIZE, SIZE_VERDICT

_END = r"(?=\s*(?:$|[,;.!?)\n\x1f]))"
_APOSTROPHE = "['\u2019]?"
_FILLER = r"(?:(?:hmm+|um+|uh+|er+m?|well|oh|ok(?:ay)?|so|hm)\s*,?\s*)"
_MARKER = (
    rf"(?:actually|no|nope|nah|sorry|wait|or\s+rather|rather|i\s+mean|make\s+(?:that|it)"
    rf"|let{_APOSTROPHE}s\s+(?:say|do|go\s+with|make\s+it)|on\s+second\s+thought|correction"
    r"|better)"
)
_NEGATION = re.compile(r"(?:no|nope|nah)\s*")
_MARKERS = rf"{_FILLER}*{_MARKER}(?:\s*[,:]?\s*{_FILLER}*{_MARKER})*\s*[,:]?\s*"
# between the first value and the correction: punctuation, or one short clause of context
_GAP = (
    r"(?P<gap>\s*(?:[,;?!.]|\.{2,3}|\u2026)?\s*|\s*[,;]\s*(?P<clause>[^,;.!?\n\x1f\d/]{1,60}?)\s*[,;]\s*"
    # what is wrong with the first value, said right after it: "4 gig too small, make it 12"
    rf"|{SIZE_VERDICT}\s*[,;.]*\s*)"
)
# what a clause standing between the two values may not name: something else with a size
_OTHER_SLOT = re.compile(
    r"\b(?:partition|partitions|swap|ram|memory|vcpus?|cpus?|cores?|hugepages?|root|boot|efi"
    r"|tmp|tmpfs|quota|user|users|var|home|data|log|logs|volume|mount|fs|filesystem)\b"
)
_PRAISE = r"(?:enough|fine|plenty|ok(?:ay)?|good|sufficient|ample|right|better|it)"
_RESTATE_LEAD = (
    rf"(?:(?:so|yes|yeah|ok(?:ay)?|just|let{_APOSTROPHE}s\s+(?:say|do|go\s+with|make\s+it)"
    r"|make\s+it|say|keep\s+it(?:\s+at)?|go\s+with|stick\s+with|use)\s+)*"
)
_IS_FINE = rf"(?:\s+(?:(?:is|should\s+be|will\s+be|would\s+be)\s+{_PRAISE}|will\s+do|should\s+do))"

# a size, or a bare number that revises one ("8 gigs, actually 6")
_SIZE_OR_NUMBER = rf"{SIZE}|\d{{1,7}}(?:\.\d{{1,3}})?(?!\w|\.\d)"
_FS_NOUN = r"(?:\s+(?:filesystem|file\s+system|fs))?"
_AGAIN_LEAD = rf"\s*[,;.]?\s*{_RESTATE_LEAD}"

_SIZE_VALUE = re.compile(rf"(?<![\w.]){SIZE}")
_SIZE_REVISION = re.compile(
    rf"{_GAP}(?P<marker>{_MARKERS})(?P<value>{_SIZE_OR_NUMBER})(?:{_IS_FINE})?{_END}"
)
_SIZE_AGAIN = re.compile(rf"{_AGAIN_LEAD}(?P<value>{_SIZE_OR_NUMBER})(?:{_IS_FINE})?{_END}")
_FS_VALUE = re.compile(rf"\b(?:{FS}){CLAUSE_END}")
_FS_REVISION = re.compile(
    rf"{_GAP}(?P<marker>{_MARKERS})(?P<value>{FS}){_FS_NOUN}(?:{_IS_FINE})?{_END}"
)
_FS_AGAIN = re.compile(
    rf"{_AGAIN_LEAD}(?:it\s+)?(?:as\s+)?(?P<value>{FS}){_FS_NOUN}(?:{_IS_FINE})?{_END}"
)


def _size_value(said: str, unit_of: Size) -> Size | None:
    """``said`` as a size; a bare number is in the unit ``unit_of`` was said in."""
    size = parse_token(said)
    if size is not None:
        return size
    unit = re.sub(r"^[\d.]+", "", unit_of.text)
    if not unit or unit == "B":
        return None
    return write_size(Fraction(said), unit)


def rule_revisions(state: PlanState) -> None:
    """Read a value revised in the same breath as its last value; the rest is context."""
    _revise(state, _SIZE_VALUE, _SIZE_REVISION, _SIZE_AGAIN, size=True)
    _revise(state, _FS_VALUE, _FS_REVISION, _FS_AGAIN, size=False)


def _revise(
    state: PlanState,
    first: re.Pattern[str],
    revision: re.Pattern[str],
    again: re.Pattern[str],
    *,
    size: bool,
) -> None:
    text = state.text
    for value in text.matches(first):
        said: Size | str | None = parse_token(value.group()) if size else value.group()
        if said is None:
            continue
        end = value.end()
        start: int | None = None
        final = said
        while (match := revision.match(text.work, end)) is not None:
            clause = match.group("clause")
            if clause and _OTHER_SLOT.search(clause):
                break
            if not size and _NEGATION.fullmatch(match.group("marker")) and "?" not in match["gap"]:
                break  # "ext4, no xfs": a file system not wanted, unless it answers a question
            if size:
                assert isinstance(final, Size)
                revised = _size_value(match.group("value"), final)
                if revised is None:
                    break
                final = revised
            else:
                final = match.group("value")
            start = match.start("marker") if start is None else start
            end = match.end()
        if start is None:
            continue
        while (match := again.match(text.work, end)) is not None:
            if size:
                assert isinstance(final, Size)
                restated = _size_value(match.group("value"), final)
                if restated is None or restated.bytes != final.bytes:
                    break
            elif match.group("value") != final:
                break
            end = match.end()
        state.revised[value.start()] = final.text if isinstance(final, Size) else final
        text.consume(start, end, "context")


_BETWEEN = re.compile(rf"{_GAP}(?P<marker>{_MARKERS})(?:(?:a|an|the)\s+)?")


def revision_between(work: str, start: int, end: int) -> bool:
    """True when ``work[start:end]``, between two values of one kind, revises the first.

    "qcow2, actually vhdx", "an iso, no, raw image", "arm64? no x86_64": the second value
    replaces the first. A bare "no" without a question before it declines what follows
    ("raw, no qcow2"), so it is no revision.
    """
    match = _BETWEEN.fullmatch(work, start, end)
    if match is None:
        return False
    clause = match.group("clause")
    if clause and _OTHER_SLOT.search(clause):
        return False
    return not (_NEGATION.fullmatch(match.group("marker")) and "?" not in match.group("gap"))
