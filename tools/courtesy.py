"""Greetings and thanks at the edges of a request: "hi! undo", "ok so revert that thanks!".

They ask for nothing, and a reader that looks at where a request starts or ends (a
question, "yes do it", "undo", a list's last item) must not see them. :func:`plain_request`
drops them before the turn is routed; a request that is nothing but courtesy ("thanks!")
is kept as it is, so it is still answered as small talk.
"""

from __future__ import annotations

import re

_GREETING = re.compile(
    r"^\s*(?:hi|hello|hey|hiya|howdy|yo|good\s+(?:morning|afternoon|evening)|greetings)"
    r"(?:\s+(?:there|again|team|all|folks|everyone))?\s*[!,.:;-]*\s+",
    re.IGNORECASE,
)
# words that open a turn and only hold the floor ("ok so", "alright, well")
_OPENING = re.compile(
    r"^\s*(?:(?:ok(?:ay)?|kk|okie|mkay|alright|all\s+right|so|well|um+|uh+|hm+|oh|ah)\b"
    r"\s*[,.!:;]*\s*)+",
    re.IGNORECASE,
)
# an acknowledgement of what the agent said: "Got it.", "fair enough", "makes sense". The one
# list of these words: a clause made only of them asks nothing (is_acknowledgement), those
# opening a request are dropped from it (plain_request), and they may open a reply about a
# setting (tools/proposals.py). "yes" and "sure" also acknowledge, but they answer a
# question too, so a request keeps them
ACK_WORDS = (
    r"(?:got\s+(?:it|that|you)|gotcha|understood|noted|roger(?:\s+that)?|copy(?:\s+that)?|"
    r"fair(?:\s+(?:enough|point))?|(?:that\s+)?makes\s+(?:total\s+|perfect\s+)?sense|i\s+see|"
    r"i\s+understand|sounds\s+(?:good|great|fine|right)|good\s+(?:point|to\s+know)|all\s+good|"
    r"fine\s+by\s+me|ok(?:ay)?|alright|all\s+right|right|cool|great|perfect|nice|clear|"
    # chat's spellings of "ok" ("kk", "okie", "mkay")
    r"kk|k|okie|oki|okey|okok|mkay|kay|"
    r"thanks|thank\s+you|thx)"
)
_ANSWERS = r"(?:yes|yeah|yep|sure)"
_ACKNOWLEDGEMENT = re.compile(
    rf"\W*(?:(?:ah|oh|{_ANSWERS})\W+)*(?:{ACK_WORDS}|sure)(?:\W+(?:{ACK_WORDS}|sure))*\W*",
    re.IGNORECASE,
)
# the words opening a request, as its own sentence or clause ("Got it. Now give /var ...",
# "Understood, then add htop", "ok got it, thanks. hostname gw")
_ACKNOWLEDGED = re.compile(
    rf"^\s*(?:(?:ah|oh)\s*[,.!]*\s*)?{ACK_WORDS}(?:\s*[,.!]*\s*{ACK_WORDS})*\s*[!,.:;-]+\s+",
    re.IGNORECASE,
)
_THANKS = re.compile(
    r"[\s,.;:!-]+(?:(?:thanks|thank\s+you|thank\s+u|thx|ty|tia|cheers|many\s+thanks|much"
    r"\s+appreciated|appreciated)(?:\s+(?:a\s+lot|so\s+much|very\s+much|in\s+advance|again|"
    r"mate|all))?)\s*[!.:)]*\s*$",
    re.IGNORECASE,
)


def plain_request(request: str) -> str:
    """``request`` without a greeting, "ok so" or "got it." before it and thanks after it."""
    text = request
    greeting = _GREETING.match(text)
    if greeting and text[greeting.end() :].strip():
        text = text[greeting.end() :]
    opening = _OPENING.match(text)
    if opening and text[opening.end() :].strip():
        text = text[opening.end() :]
    acknowledged = _ACKNOWLEDGED.match(text)
    if acknowledged and text[acknowledged.end() :].strip():
        text = text[acknowledged.end() :]
    thanks = _THANKS.search(text)
    if thanks and text[: thanks.start()].strip(" ,.;:!-"):
        text = text[: thanks.start()]
    return text.strip() if text.strip() else request


def is_acknowledgement(text: str) -> bool:
    """True for a clause that only acknowledges ("Got it", "ok, fair enough"): it asks nothing."""
    return _ACKNOWLEDGEMENT.fullmatch(text) is not None
