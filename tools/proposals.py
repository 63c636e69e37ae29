"""A question that offers a change, and the answer that accepts it.

"would chrony make sense here?", "should we add fail2ban?", "is it worth adding htop?"
ask for advice about a package the template lacks: the turn changes nothing, the answer
says what the package is for and that "yes" adds it. The next turn's "yes do it" (or
"sure", "go ahead", "ok add it") then asks for exactly that change, as if the user had
written "add chrony". Any other next turn drops the offer.

Only a name something knows (the catalog, the library, a synced index) is offered: a
question about a word nobody knows offers nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from oic_ai.tools.planner.asking import words_of

# a question that asks whether something is worth having
ADVICE = re.compile(
    r"\b(?:makes?\s+sense|worth\s+(?:it|adding|having|installing|including)|worth\s+it|"
    r"(?:a\s+)?good\s+idea|recommend(?:ed)?|would\s+(?:it|that)\s+help)\b",
    re.IGNORECASE,
)
# a question that offers to add something: "should we add X?", "what about adding X?"
_OFFER = re.compile(
    r"^\W*(?:(?:so|and|ok|hmm|also)\W+)*(?:should\s+(?:we|i)\s+(?:also\s+)?"
    r"(?:add|install|include|put\s+in)|(?:what|how)\s+about(?:\s+(?:adding|installing))?)\b",
    re.IGNORECASE,
)
# words a reply that accepts an offer is made of, and those of them that accept
_ACCEPTING = frozenset(
    "yes yeah yep yup ya sure ok okay k alright absolutely definitely please pls plz "
    "do go add install include it that ahead sounds good great perfect fine let's lets "
    "then thanks thank you thx ty why not course of".split()
)
_ACCEPTS = frozenset(
    "yes yeah yep yup ya sure ok okay alright absolutely definitely do go add install "
    "include".split()
)


def offered_packages(question: str, is_known: Callable[[str], bool]) -> list[str]:
    """The known package names a question offers to add, in the order written, or ``[]``."""
    if not (ADVICE.search(question) or _OFFER.search(question)):
        return []
    # the words that ask ("make sense", "add") are no names, even where a package is
    # called so ("make")
    rest = _OFFER.sub(" ", ADVICE.sub(" ", question))
    return list(dict.fromkeys(w for w in words_of(rest) if is_known(w)))


def accepts(reply: str) -> bool:
    """True when ``reply`` only accepts what was offered ("yes do it", "sure, go ahead")."""
    words = words_of(reply)
    if not words or len(words) > 8:
        return False
    return all(w in _ACCEPTING for w in words) and any(w in _ACCEPTS for w in words)


def proposal(names: list[str]) -> str:
    """The change an accepted offer asks for ("add chrony")."""
    return "add " + " and ".join(names)
