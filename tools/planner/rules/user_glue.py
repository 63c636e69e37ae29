"""The words that join a user's name to its attributes, read with them.

Split from :mod:`oic_ai.tools.planner.rules.users`: "jdoe gets sudo rights and goes in the
adm group" reads "gets" and "and goes in" with the user; any other word stays for the
other rules (or is reported).
"""

from __future__ import annotations

import re

from oic_ai.tools.planner.state import PlanState

# words that only join a user's name to its attributes ("jdoe gets sudo rights and goes in
# the adm group", "he must not have sudo", "give it an ops user ... who is in ...")
GLUE = frozenset(
    (
        "and also too then plus please give it its create make add set up need needs want "
        "wants we i you who which that is are be being gets get goes go has have having "
        "should must will shall does do only as well at all his her their he she they them "
        "yes with to into for also both either new one one's own just so exist exists the a an "
        "there put place move"
    ).split()
)
_GLUE_WORD = re.compile(r"[a-z][a-z']*")
_CLAUSE_START = re.compile(r"[,;:.!?(]\s|\n")


def eat_glue(state: PlanState, at: int, read: list[tuple[int, int]], sentence_start: int) -> None:
    """Mark the joining words around a user's mention and attributes as read.

    Only words in ``GLUE`` go: the run of them just before the mention (back to the
    clause's start), and the runs between two read parts that hold nothing else.
    Anything else stays for the other rules (or is reported).
    """
    if not read:
        return
    work = state.text.work
    starts = [m.end() for m in _CLAUSE_START.finditer(work, sentence_start, at)]
    start = starts[-1] if starts else sentence_start
    end = max(e for _, e in read)
    words = [w for w in _GLUE_WORD.finditer(work, start, end) if _whole(work, w)]
    before = [w for w in words if w.end() <= at]
    for word in reversed(before):
        if word.group() not in GLUE:
            break
        state.text.consume(*word.span())
    for segment in re.finditer(r"[^\x1f]+", work[at:end]):
        inside = [w for w in words if at + segment.start() <= w.start() < at + segment.end()]
        if inside and all(w.group() in GLUE for w in inside):
            for glue in inside:
                state.text.consume(*glue.span())


def _whole(work: str, word: re.Match[str]) -> bool:
    before = work[word.start() - 1] if word.start() > 0 else " "
    after = work[word.end()] if word.end() < len(work) else " "
    return not (before.isalnum() or after.isalnum() or after in "-_/." or before in "-_/.")
