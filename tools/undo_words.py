"""How many turns an undo names, and aspects of two words (split from ``references``).

"revert the last two", "undo both of those console/loglevel changes": a count of turns.
"put secure boot back like it was": "secure boot" is one aspect of the image, said in two
words (``undo.aspects`` in ``stores/data/conversation.yaml``).
"""

from __future__ import annotations

import re

from oic_ai.stores.conversation_vocabulary import load_conversation

_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "couple": 2, "both": 2}
_LAST_N = re.compile(
    r"\b(?:last|previous|past|those|these)\s+(?:(?P<n>[2-9])|(?P<word>two|three|four|five)|"
    r"couple(?:\s+of)?)(?:\s+(?:changes|edits|steps|turns|requests|ones|things))?\b"
    # "both changes", "both of those console/loglevel changes", "both of the last edits"
    r"|\b(?P<both>both)\s+(?:of\s+)?(?:(?:the|those|these|my)\s+)?(?:last\s+)?"
    r"(?:[\w/.-]+\s+){0,3}?(?:changes|edits|steps|turns|tweaks)\b"
)


def undo_count(marker: str) -> int:
    """How many turns an undo marker takes back: "revert the last two" gives 2, else 0.

    "undo the last three changes", "roll back the previous couple of edits", "undo both
    changes", "undo both of those loglevel changes": the count says how far back; what
    they changed is not named.
    """
    match = _LAST_N.search(marker.lower())
    if match is None:
        return 0
    if match.group("n"):
        return int(match.group("n"))
    return _COUNTS[match.group("word") or ("both" if match.group("both") else "couple")]


def joined_aspects(lowered: str) -> str:
    """``lowered`` with every aspect word of two words said with a space joined by a hyphen.

    "put secure boot back like it was": "secure-boot" is one word, an aspect, not a name.
    """
    for phrase in load_conversation().aspects:
        if " " in phrase:
            words = r"[\s-]+".join(re.escape(word) for word in phrase.split())
            lowered = re.sub(rf"\b{words}\b", phrase.replace(" ", "-"), lowered)
    return lowered
