"""Why an undo is asked, said beside it: "undo the last two changes, we don't need them".

A clause that says what the undo takes back is not needed ("we don't need them", "they're
not needed after all", "we won't use those") points back with a pronoun at the undone
changes: it asks for nothing more, so the planner does not get it. A clause that names
what is not needed ("we don't need nginx") is a request of its own and stays.
"""

from __future__ import annotations

import re

Span = tuple[int, int]

_PRONOUN = r"(?:them|it|those|these|that|either(?:\s+of\s+them)?|any\s+of\s+(?:it|them|that))"
_LATER = r"(?:\s+(?:anymore|any\s+more|after\s+all|now|for\s+now|yet|at\s+all))*"
_WHO = r"(?:(?:we|i|they|the\s+team|you)\s+)?"
# the clause's tail: "(and) we don't need them", "since they're not needed after all"
_NOT_NEEDED = re.compile(
    r"(?:^\s*|\b(?:and|so|because|since|as|but)\s+|[,;:]\s*)"
    rf"(?:{_WHO}(?:don'?t|do\s+not|won'?t|will\s+not|no\s+longer|didn'?t|did\s+not|never)\s+"
    rf"(?:need|want|use|require)\s+{_PRONOUN}{_LATER}"
    rf"|{_PRONOUN}\s*(?:'re|'s|\s+are|\s+is|\s+were|\s+was)\s+(?:not|no\s+longer)\s+"
    rf"(?:needed|wanted|necessary|required|used){_LATER}"
    r"|(?:they(?:'re|\s+are)|it(?:'s|\s+is))\s+(?:not|no\s+longer)\s+(?:needed|wanted|necessary)"
    rf"{_LATER}|not\s+needed{_LATER})"
    r"[\s.!?]*$",
    re.IGNORECASE,
)
_CLAUSE = re.compile(r"[^.;!?\n]+")


def undo_reasons(request: str) -> list[Span]:
    """The spans of clause tails that say the undone changes are not needed (see above)."""
    found: list[Span] = []
    for clause in _CLAUSE.finditer(request):
        tail = _NOT_NEEDED.search(clause.group())
        if tail is not None:
            found.append((clause.start() + tail.start(), clause.end()))
    return found


# a removal that names only parts, no value: "scrap the hostname and user" beside an undo
# says what the undo takes back
_BARE_REMOVAL = re.compile(
    r"^\s*(?:(?:hmm+|ok(?:ay)?|so|and|actually|yeah)\s*,?\s*)*"
    r"(?:scrap|drop|remove|lose|ditch|kill|nuke|undo|revert|forget|get\s+rid\s+of)\s+"
    r"(?P<parts>(?:(?:the|that|those|these|its|my)\s+)?(?:new\s+)?(?:{parts})"
    r"(?:\s*(?:,|and|&|\+)\s*(?:(?:the|that|those|these)\s+)?(?:new\s+)?(?:{parts}))*)"
    r"\s*[.,;!?]*\s*$".format(
        parts=r"host\s*name|hostname|users?|accounts?|partitions?|disk(?:\s+size)?|repos?"
        r"|repositor(?:y|ies)|kernel\s+(?:options?|params?|parameters?)|image\s+name"
    ),
    re.IGNORECASE,
)


_SENTENCE_OR_COMMA = re.compile(r"[.;!?]+(?:\s|$)|,|\s[-\u2013\u2014]\s")


def bare_removals(request: str) -> list[Span]:
    """Clauses that only remove parts by name ("scrap the hostname and user"), no value.

    Beside an undo they say what it takes back, or why (:func:`undo_reasons`): the undo answers.
    """
    found, start = [], 0
    for cut in [*_SENTENCE_OR_COMMA.finditer(request), None]:
        end = cut.start() if cut else len(request)
        if end > start and _BARE_REMOVAL.match(request[start:end]):
            found.append((start, end))
        start = cut.end() if cut else end
    return found + undo_reasons(request)
