"""Entries pointed at by their place in a list: "remove the first user", "the second user".

A user of the template named by an ordinal ("the first user", "2nd account", "the last
login") is the entry at that place in ``systemConfig.users`` (root aside), in the order
the template lists them, which is the order they were added in. :func:`resolve_ordinals`
writes the name in the ordinal's place ("remove the user alice"), so every reader (the
rule planner, a model) reads the request as if the name were said. An ordinal past the
end of the list, or a template without users, leaves the words as they are.
"""

from __future__ import annotations

import re

_PLACES = {
    "first": 0,
    "1st": 0,
    "second": 1,
    "2nd": 1,
    "third": 2,
    "3rd": 2,
    "fourth": 3,
    "4th": 3,
    "fifth": 4,
    "5th": 4,
    "last": -1,
}
_ORDINAL = re.compile(
    r"(?<![\w-])(?:(?P<the>the|that|my)\s+)?(?P<place>first|1st|second|2nd|third|3rd|fourth|"
    r"4th|fifth|5th|last)\s+(?:(?:one|new)\s+)?(?P<noun>user|account|acct|login)(?![\w-])",
    re.IGNORECASE,
)


def resolve_ordinals(request: str, template: str) -> str:
    """``request`` with "the second user" naming the template's second user, or as is."""
    if not _ORDINAL.search(request):
        return request
    from oic_ai.stores.template_model import template_from_text

    try:
        names = [u.name for u in template_from_text(template).users if u.name != "root"]
    except ValueError:
        return request
    if not names:
        return request

    def named(match: re.Match[str]) -> str:
        place = _PLACES[match.group("place").lower()]
        if place >= len(names):
            return match.group()
        return f"the {match.group('noun')} {names[place]}"

    return _ORDINAL.sub(named, request)
