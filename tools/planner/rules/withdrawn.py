"""A pointer removal that takes back what the same request asked to add.

"add the zebra label printer stuff too - nah, that's on the backoffice pc, skip it",
"install cowsay for the demo... on second thought, leave it out", "throw in nginx. hmm no,
drop it": the "it" of the removal is the thing the request itself was adding, not a
package the template had (the printer stuff's capability, cups, stays). The adding clause
and the pointer are both read as the user's change of mind: nothing is added or removed,
and the summary says the addition was taken back.

The adding clause must be the nearest thing named before the pointer, and a change of
mind ("nah", "no", "actually", "on second thought", "hmm", "never mind") must stand
between them, or nothing but punctuation: "add nginx and the default site is useless,
remove it" is no withdrawal of nginx.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from oic_ai.tools.planner.clauses import split_clauses
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.text import Item, tokenize

# an imperative that asks for something to be put in the image
_ADDING = re.compile(
    r"(?:^|(?<=[\s,;:(\-\u2013\u2014]))(?:and\s+|also\s+|oh\s+|pls\s+|please\s+)?"
    r"(?:add|install|include|(?:throw|toss|put|pop|bring|stick)\s+in)\b"
)
_MIND = re.compile(
    r"\b(?:nah|no|nope|actually|hmm+|wait|second\s+thoughts?|never\s*mind|nvm"
    r"|changed\s+my\s+mind|rather\s+not|not\s+needed|don'?t\s+need)\b"
)


def withdraws_addition(
    state: PlanState,
    item: Item,
    said: str,
    at: int,
    names_in: Callable[[PlanState, str], list[str]],
) -> bool:
    """Take back the request's own addition that ``item`` (a pointer removal) points at.

    ``said`` is the piece of the request (lower case, at offset ``at``) nearest before the
    pointer that may name its thing; ``names_in`` says which packages a text names (an
    adding clause naming none is still taken back: "the zebra label printer stuff").
    Returns True when the pointer was read as that change of mind.
    """
    verbs = list(_ADDING.finditer(said))
    if not verbs:
        return False
    begin = at + verbs[-1].start()
    text = state.text
    clause = next(
        (c for c in split_clauses(text.original) if c.start <= begin < c.end),
        None,
    )
    if clause is None or clause.end > item.span[0]:
        return False
    between = text.original[clause.end : item.span[0]]
    if between.strip(" \t,;:.\u2026-\u2013\u2014!") and (
        not _MIND.search(between.lower()) or names_in(state, between.lower())
    ):
        return False  # another thing named, or no change of mind: the usual reading
    words = {t.text for t in tokenize(clause.text.lower())}
    added = [n for n in state.add if n in words]
    read = [o for s, e, o in text.claims if clause.start <= s < clause.end and o != "context"]
    if read and not added:
        return False  # what the clause added is not spelt in it: left as it was read
    state.add = [n for n in state.add if n not in added]
    state.features = [(s, f) for s, f in state.features if not clause.start <= s < clause.end]
    text.claims = [
        (s, e, "context" if clause.start <= s < clause.end else o) for s, e, o in text.claims
    ]
    for start, end in ((clause.start, clause.end), (clause.end, item.span[1])):
        for token in tokenize(text.original[start:end]):
            if text.work[start + token.start : start + token.end].strip(text.BLANK):
                text.consume(start + token.start, start + token.end, "context")
    state.notes.append(f"'{clause.text.strip()}' was taken back ('{text.raw(*item.span)}')")
    return True
