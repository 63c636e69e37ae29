"""Rule: a change of mind inside the request ("add virt-manager... no wait, no GUI tools").

"no wait", "scratch that", "actually no", "strike that" take back the clause just before
them: no rule reads it, and the summary says it was taken back. Said first in a request,
they refer to the earlier turn instead, which the accounting leaves to the conversation.
"""

from __future__ import annotations

import re

from oic_ai.tools.planner.clauses import split_clauses
from oic_ai.tools.planner.state import PlanState

_TAKE_BACK = re.compile(
    r"\b(?:no\s*,?\s*wait|wait\s*,?\s*no|scratch\s+that|strike\s+that|actually\s*,?\s*no|"
    r"no\s*,?\s*actually|never\s*mind(?:\s+that)?|forget\s+(?:that|it)|i\s+take\s+that\s+back)\b"
)


def rule_take_back(state: PlanState) -> None:
    """Drop the clause a later "no wait" takes back."""
    text = state.text
    clauses = split_clauses(text.original)
    for match in text.matches(_TAKE_BACK):
        before = [
            c for c in clauses if c.end <= match.start() and text.work[c.start : c.end].strip()
        ]
        if not before:
            continue  # "scratch that, ..." first: it refers to the earlier turn
        taken = before[-1]
        text.consume(taken.start, taken.end, "context")
        text.consume(*match.span(), "context")
        state.notes.append(f"'{taken.text}' was taken back ('{text.raw(*match.span())}')")
