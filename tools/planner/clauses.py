"""A request as clauses, each with its span.

Clauses end at sentence ends, line ends, ``;``, ``:``, ``,``, dashes and parentheses, and before the
joining words (and, then, plus, but, so, since, because). The rules read the whole
request; clauses are how the planner accounts for it afterwards (:mod:`.accounting`). A
URL is never split.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

_URL = re.compile(
    r"(?:https?|file)://[^\s,;()\[\]'\"]*[^\s,;()\[\]'\".!?:]"
    r"|\b[\w-]+(?:\.[\w-]+)+/[^\s,;()]*[^\s,;().!?:]"
)
# what ends a clause; the joining words start the next one
_BREAK = re.compile(
    r"[.!?]+(?=\s|$|['\"])|\.{3}|…|;|:(?=\s)|,(?=\s|$)|\s[-–—]+\s|[()\[\]]|\n"
    r"|(?<=\s)(?=(?:and|then|plus|but|so|since|because|whereas|although|though)\s)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Clause:
    """One clause of a request.

    Attributes:
        start: Where it starts in the request as read (``RequestText.original``).
        end: Where it ends.
        text: Its words as written.
        sentence: Which sentence it belongs to (0-based).
        parenthetical: True inside parentheses or brackets.
        ends_with_colon: True when a colon ends it ("lock it down: ...").
    """

    start: int
    end: int
    text: str
    sentence: int
    parenthetical: bool = False
    ends_with_colon: bool = False


def split_clauses(text: str) -> list[Clause]:
    """Split ``text`` into clauses (empty ones dropped), in order."""
    protected = [m.span() for m in _URL.finditer(text)]

    def inside_url(position: int) -> bool:
        return any(start <= position < end for start, end in protected)

    clauses: list[Clause] = []
    sentence = 0
    depth = 0
    start = 0
    for match in _BREAK.finditer(text):
        if inside_url(match.start()):
            continue
        mark = match.group()
        _add(clauses, text, start, match.start(), sentence, depth > 0, mark.startswith(":"))
        if mark in ("(", "["):
            depth += 1
        elif mark in (")", "]"):
            depth = max(0, depth - 1)
        elif mark and mark[0] in ".!?…" and depth == 0:
            sentence += 1
        start = match.end()
    _add(clauses, text, start, len(text), sentence, depth > 0, False)
    return clauses


def sentence_spans(clauses: Sequence[Clause]) -> list[tuple[int, int]]:
    """``(start, end)`` of each sentence of ``clauses``, in order (its clauses' outer bounds)."""
    bounds: dict[int, tuple[int, int]] = {}
    for clause in clauses:
        start, end = bounds.get(clause.sentence, (clause.start, clause.end))
        bounds[clause.sentence] = (min(start, clause.start), max(end, clause.end))
    return list(bounds.values())


def sentence_at(clauses: Sequence[Clause], at: int) -> tuple[int, int] | None:
    """``(start, end)`` of the sentence whose clause holds position ``at``; None outside."""
    sentence = next((c.sentence for c in clauses if c.start <= at < c.end), None)
    if sentence is None:
        return None
    return sentence_spans([c for c in clauses if c.sentence == sentence])[0]


def _add(
    clauses: list[Clause],
    text: str,
    start: int,
    end: int,
    sentence: int,
    parenthetical: bool,
    colon: bool,
) -> None:
    piece = text[start:end]
    stripped = piece.strip(" \t\n'\"`")
    if not re.search(r"[A-Za-z0-9]", stripped):
        return
    offset = start + piece.index(stripped)
    clauses.append(Clause(offset, offset + len(stripped), stripped, sentence, parenthetical, colon))
