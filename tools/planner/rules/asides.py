"""Rule: asides that say nothing of the image are context.

Three kinds: a pasted ticket's own fields, the user saying who they are ("linux noob",
"total beginner here"), and the hedge "-ish" left alone when the word it was glued to was
read as another ("a raspberry-pi-ish board": the board's words read as its arch), or
"ish" after a value ("8 gigs ish"). A word with its hedge still glued ("the rt-ish
tweaks") is left to the rules, which read the whole as a description.

A story or change ticket pasted whole carries the tracker's fields beside what it asks:
"Reviewer: @dpatel   Sprint 41   Labels: edge, gateway", "(owner: M. Okafor, due
2025-03-14)", "Target date Q3", "Story points: 3". They say who, when and how the work is
tracked, never what the image holds: their labels and values are read as context, so no
rule takes "edge" or "gateway" for a package or a use case, and nothing is reported.
Only the tracker's own field names count; "Notes:" or "Requirements:" may hold requests
and are left to the rules.
"""

from __future__ import annotations

import re

from oic_ai.tools.planner.state import PlanState

# fields whose value is a list, where a comma continues it ("Labels: edge, gateway")
_LISTS = r"labels|tags|watchers|cc|reviewers|approvers"
# the tracker's fields (a person, a date, a number, a state)
_FIELDS = (
    r"reviewers?|assignees?|reporter|owner|approvers?|approved\s+by|requested\s+by|requester"
    r"|raised\s+by|sprint|story\s+points|points|estimate|status|resolution"
    # a ticket's priority by its own words ("priority 700" is a repository's)
    r"|(?:priority|severity)(?=\s*:?\s*(?:high|highest|low|lowest|medium|normal|critical"
    r"|urgent|major|minor|blocker|trivial|p[0-4])\b)"
    r"|epic(?:\s+link)?|fix\s+versions?|affects\s+versions?|due(?:\s+date)?|target\s+date"
    r"|deadline|created|updated|last\s+updated|resolved|milestone|iteration|" + _LISTS
)
# where a field may start: a line's start, after a run of spaces, a bracket or a comma
_START = r"(?:^|(?<=\n)|(?<=[(,;])|(?<=\s\s)|(?<=[(,;.!?]\s))[ \t]*"
# "Sprint 41", "due 2025-03-14", "Target date Q3", "Reviewer @dpatel": a value without a
# colon is one word with a digit or an "@" ("the owner is happy" says no field)
_BARE_VALUE = r"[ \t]+(?=[\w@.-]*[\d@])[\w@.-]+(?=$|[\s,;.)])"


def _value_end(work: str, start: int, listed: bool) -> int:
    """Where a field's value said after its colon ends.

    At the line's end, a closing bracket, a ";", the next field of the tracker, a run of
    spaces, a sentence's stop after a word longer than an initial ("M. Okafor" goes on),
    or for a field that is no list, a comma.
    """
    end = start
    stop = re.compile(r"\n|\)|;|[ \t]{2,}" + ("" if listed else r"|,"))
    found = stop.search(work, start)
    end = found.start() if found else len(work)
    sentence = re.compile(r"(?<=\w\w)\.(?=\s|$)").search(work, start, end)
    if sentence is not None:
        end = sentence.start()
    return end


_WITH_COLON = re.compile(rf"{_START}\b(?P<label>{_FIELDS})[ \t]*:[ \t]*(?=\S)", re.IGNORECASE)
_WITHOUT_COLON = re.compile(rf"{_START}\b(?:{_FIELDS}){_BARE_VALUE}", re.IGNORECASE)


# who the user is, said in passing: "linux noob", "total newbie here", "a complete beginner"
_WHO_I_AM = re.compile(
    r"\b(?:(?:i'?m|i\s+am)\s+)?(?:(?:a|an)\s+)?(?:(?:total|complete|absolute|bit\s+of\s+a|"
    r"real)\s+)?(?:linux\s+|unix\s+)?(?:noob|n00b|newb|newbie|beginner|novice|rookie|newcomer)"
    r"(?:\s+here)?\b(?!\s+(?:friendly|mode|guide|image|setup|user|account|version)\b)"
)
# the hedge "-ish" whose word was read as another, or "ish" after a value: "8 gigs ish"
_ISH = re.compile(r"(?<=\s)-?ish\b")
# a first-person hedge after what is asked, at its clause's end: "it needs java 21 i
# think", "screen too i guess", "postgres 16, iirc" (never "i think we need java": there
# the hedge opens the clause, and the rules read past it)
_TRAILING_HEDGE = re.compile(
    r"(?<=[\w)])[ \t]*,?[ \t]*\b(?:i\s+(?:think|guess|believe|suppose|reckon)|iirc|afaik"
    r"|if\s+i\s+(?:remember|recall)\s+(?:right|correctly))\b(?=[ \t]*(?:[.!?;,)\n]|$))"
)


def rule_asides(state: PlanState) -> None:
    """Read a ticket's own fields, who the user is and a hedge "-ish" as context."""
    text = state.text
    for pattern in (_WHO_I_AM, _ISH, _TRAILING_HEDGE):
        for match in text.matches(pattern):
            text.consume(*match.span(), "context")
    for match in text.matches(_WITH_COLON):
        listed = re.fullmatch(_LISTS, match.group("label").lower()) is not None
        end = _value_end(text.work, match.end(), listed)
        if end > match.end() and text.BLANK not in text.work[match.start() : end]:
            text.consume(match.start(), end, "context")
    for match in text.matches(_WITHOUT_COLON):
        if text.BLANK not in text.work[match.start() : match.end()]:
            text.consume(*match.span(), "context")
