"""A turn that goes back to the first template the session made of the current image.

"revert to exactly what you gave me first", "go back to the very first version", "back to
the original template", "restore the initial state", "back to what we started with": the
template the image's first turn kept comes back whole, every later change of it taken
back (an undo of many turns at once). A clause beside it that only says why ("I need the
customer's broken state again") is part of it.

A question about the first version ("what's different from the very first version?")
asks and changes nothing: the words count only after a verb of going back. A part named
("restore the original hostname") is a change of that part, read elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Span = tuple[int, int]

_FIRST = r"(?:very\s+)?(?:first|original|initial|starting|1st)"
_WHAT = (
    r"(?:image|template|version|state|build|config(?:uration)?|draft|setup"
    r"|one\s+you\s+(?:made|gave\s+(?:me|us)|built))"
)
# what the first turn made, said as a thing or as what was given
_THE_FIRST = (
    rf"(?:the\s+|your\s+|my\s+)?{_FIRST}\s+{_WHAT}"
    r"(?:\s+(?:you|we)\s+(?:made|built|had|gave\s+(?:me|us)))?"
    r"|what\s+(?:you|we)\s+(?:gave\s+(?:me|us)|made|built|had|produced)\s+"
    r"(?:at\s+)?(?:first|initially|originally|in\s+the\s+(?:beginning|first\s+place)|at\s+the\s+start)"
    r"|what\s+(?:we|i|you)\s+started\s+(?:with|from)|the\s+(?:very\s+)?(?:start|beginning)"
)
_MARKER = re.compile(
    r"\b(?:(?:roll|put|set|take|bring)\s+(?:it|this|everything)\s+back|revert|roll\s*back|go\s+back|get\s+back|switch\s+back|come\s+back|jump\s+back|"
    r"back|return|reset|restore|bring\s+back)"
    r"(?:\s+(?:it|this|everything|the\s+(?:image|template)))?(?:\s+(?:all\s+the\s+way\s+)?to)?"
    r"\s+(?:exactly\s+|precisely\s+|just\s+)?"
    rf"(?:{_THE_FIRST})\b(?!\s+of\b)",  # "back to the beginning of the disk" names no template
    re.IGNORECASE,
)
# a clause that only says why: "I need the customer's broken state again"
_WHY = re.compile(
    r"\s*[,;:.-]?\s*(?:(?:as|since|because|cause|so)\s+)?(?:i|we)\s+"
    r"(?:need|want|have\s+to\s+have)\s+"
    r"(?:the|that|this|their|its|our|my|[\w-]+['’]s)\s+(?:[\w'’-]+\s+){0,3}?"
    r"(?:state|version|setup|image|template|config(?:uration)?|one|build)\s+(?:again|back)\b"
    r"[.!]*",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class FirstTemplate:
    """The first template of the current image a request goes back to.

    Attributes:
        marker: The words as written ("revert to exactly what you gave me first").
        spans: Offsets those words (and a clause that only says why) take.
        image: The image's number.
        turn: The turn that kept its first template.
    """

    marker: str
    spans: tuple[Span, ...]
    image: int
    turn: int


def first_template(request: str, entries: Sequence[Mapping[str, Any]]) -> FirstTemplate | None:
    """The current image's first kept template when ``request`` goes back to it, else None."""
    found = _MARKER.search(request)
    if found is None or not entries:
        return None
    number = int(entries[-1].get("image") or 1)
    own = [e for e in entries if int(e.get("image") or 1) == number and e.get("template")]
    if not own:
        return None
    spans = [found.span()]
    why = _WHY.match(request, found.end())
    if why is not None:
        spans.append(why.span())
    return FirstTemplate(
        marker=found.group(), spans=tuple(spans), image=number, turn=int(own[0].get("turn") or 0)
    )
