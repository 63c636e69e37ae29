"""Rule: a change of mind inside the request ("add virt-manager... no wait, no GUI tools").

"no wait", "scratch that", "actually no", "strike that" take back the clause just before
them: no rule reads it, and the summary says it was taken back. Said first in a request,
they refer to the earlier turn instead, which the accounting leaves to the conversation.
"""

from __future__ import annotations

import re

from oic_ai.tools.planner.clauses import Clause, split_clauses
from oic_ai.tools.planner.state import PlanState

_TAKE_BACK = re.compile(
    r"\b(?:no\s*,?\s*wait|wait\s*,?\s*no|scratch\s+that|strike\s+that|actually\s*,?\s*no|"
    r"no\s*,?\s*actually|never\s*mind(?:\s+that)?|forget\s+(?:that|it)|i\s+take\s+that\s+back)\b"
)


def rule_take_back(state: PlanState) -> None:
    """Drop the clause a later "no wait" takes back, and an option the user declines."""
    text = state.text
    clauses = split_clauses(text.original)
    for match in text.matches(_TAKE_BACK):
        before = [
            c for c in clauses if c.end <= match.start() and text.work[c.start : c.end].strip()
        ]
        if not before:
            continue  # "scratch that, ..." first: it refers to the earlier turn
        taken = before[-1]
        inside = any(c.parenthetical and c.start <= match.start() < c.end + 1 for c in clauses)
        outer = [c for c in before if not c.parenthetical]
        if inside and taken.parenthetical and outer:
            # "the Fluke tool (a windows thing, forget it)": the remark withdraws what it
            # is about, the clause before the parenthesis
            for remark in before:
                if remark.parenthetical and remark.start > outer[-1].start:
                    text.consume(remark.start, remark.end, "context")
            taken = outer[-1]
        text.consume(taken.start, taken.end, "context")
        text.consume(*match.span(), "context")
        state.notes.append(f"'{taken.text}' was taken back ('{text.raw(*match.span())}')")
    _declined(state, clauses)


# a bare answer a user gives to their own question ("swap? no.", "gui? nope, not needed")
_DECLINING = frozenset("no nope nah not none needed necessary required thanks skip it".split())
_NEGATIVE = frozenset("no nope nah not none skip".split())


def _declined(state: PlanState, clauses: list[Clause]) -> None:
    """Drop "swap?" answered "no." by the clause after it: an option the user declines."""
    text = state.text
    for asked, answer in zip(clauses, clauses[1:], strict=False):
        if not text.original[asked.end : answer.start].lstrip().startswith("?"):
            continue
        words = set(re.findall(r"[a-z']+", answer.text.lower()))
        if words and words <= _DECLINING and words & _NEGATIVE:
            text.consume(asked.start, answer.end, "context")
            state.notes.append(f"'{asked.text}' was declined ('{answer.text}')")


# How people wrap a request: "I was wondering if you could add htop", "would it be possible
# to", "please make sure", "for compliance reasons", "by the way". The wrapper asks for
# nothing itself; what it wraps is read as if said plainly.
_FRAMING = re.compile(
    r"\b(?:i\s+was\s+wondering\s+(?:if|whether)\s+(?:you|we)\s+(?:could|can|might)"
    r"|(?:would|could|will)\s+it\s+be\s+possible\s+to|is\s+it\s+possible\s+to"
    r"|it\s+would\s+be\s+(?:great|nice|good|helpful|ideal|awesome|perfect)\s+(?:if|to)"
    r"|(?:could|can|would|will)\s+you\s+(?:please\s+|kindly\s+)*"
    r"|(?:please\s+)?(?:make\s+sure|ensure|see\s+to\s+it)(?:\s+that)?"
    r"|(?:i|we)(?:'d|\s+would)\s+(?:like|love|appreciate\s+it\s+if)\s+(?:you\s+to|if\s+you\s+(?:could|can))?"
    r"|do\s+you\s+mind|if\s+(?:possible|you\s+can)|ideally|preferably|if\s+it\s+helps"
    r"|(?:i'?m\s+|we'?re\s+|i\s+am\s+|we\s+are\s+)?(?:looking|searching|asking)\s+for"
    r"|(?:hey|hi|hello)(?:\s+there)?"
    r"|(?:for|due\s+to)\s+(?:compliance|security|licensing|legal|historical|performance|"
    r"practical|policy|audit)\s+reasons|as\s+discussed(?:\s+(?:with|in)\s+[\w\s]{1,30}?(?=,))?"
    r"|as\s+agreed|per\s+(?:our|the)\s+[\w\s]{1,20}?policy|by\s+the\s+way|btw|fyi"
    r"|just\s+to\s+confirm|note\s+that|keep\s+in\s+mind(?:\s+that)?|don'?t\s+forget\s+to"
    r"|one\s+more\s+thing|last\s+thing)\b",
    re.IGNORECASE,
)


def rule_framing(state: PlanState) -> None:
    """Read a request's politeness and hedges as context, so what they wrap reads plainly."""
    for match in state.text.matches(_FRAMING):
        state.text.consume(*match.span(), "context")
