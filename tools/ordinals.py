"""Entries pointed at by their place in a list: "remove the first user", "the second user".

A user of the template named by an ordinal ("the first user", "2nd account", "the last
login") is the entry at that place in ``systemConfig.users`` (root aside), in the order
the template lists them, which is the order they were added in. :func:`resolve_ordinals`
writes the name in the ordinal's place ("remove the user alice"), so every reader (the
rule planner, a model) reads the request as if the name were said. An ordinal past the
end of the list, or a template without users, leaves the words as they are.

The session's turns are such a list too (:func:`resolve_turn_values`). People point back
at what an earlier turn said instead of saying it again: "the hostname
should really be the original one from the first message", "disk size back to what it
was in turn 2", "put nginx back like it was in turn 3". The session keeps every template
a turn kept (``images`` in the graph's state, :mod:`oic_ai.tools.earlier_images`), so the
value is read from the template as it stood after the turn pointed at, and written in the
pointer's place: "hostname scanhub", "disk size 8GiB". A package said with the pointer
("nginx ... like it was in turn 3") is checked against that turn's template: when the
template had it, the pointer only says so and is taken out; otherwise the words stay (and
are reported). A turn the session has no template for, or a field the template had no
value for, leaves the request as written: nothing is guessed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

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


_TURNS = {
    "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3,
    "fourth": 4, "4th": 4, "fifth": 5, "5th": 5, "sixth": 6, "6th": 6,
    "original": 1, "initial": 1, "opening": 1, "very first": 1,
}  # fmt: skip
_MESSAGE = r"(?:message|msg|turn|request|prompt|post|ask|step)"
# "from the first message", "in turn 3", "of my original request", "at message #2"
_POINTER = re.compile(
    r"\b(?:(?:in|from|at|of|on|since)\s+)?(?:(?:my|the|your|our|her|his)\s+)?"
    rf"(?:(?P<ord>very\s+first|first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|sixth|6th|"
    rf"original|initial|opening)\s+{_MESSAGE}"
    rf"|{_MESSAGE}\s*(?:#|no\.?\s*|number\s+)?(?P<n>\d{{1,2}}))\b",
    re.IGNORECASE,
)
# the words that tie a value to the pointer: "like it was", "the original one", "as in"
_TIE = (
    r"(?:\s*,?\s*(?:(?:exactly\s+)?(?:like|as)\s+(?:it\s+was|they\s+were|it\s+is|before|in)"
    r"|the\s+way\s+it\s+was|what\s+it\s+was|the\s+(?:original|initial|old|first)(?:\s+one)?"
    r"|the\s+one|the\s+value|the\s+name))*"
)
# a field whose value a template holds, said before the pointer in its clause
_FIELDS = {
    "hostname": re.compile(r"\b(?:the\s+|its\s+)?(?:hostname|host\s+name)\b", re.IGNORECASE),
    "disk size": re.compile(r"\b(?:the\s+)?disk(?:\s+size)?\b", re.IGNORECASE),
}
_CLAUSE = re.compile(r"[^.;!?\n]+")
# before the pointer, words that set the field to that value (a question
# about it, "what was the hostname in turn 2?", sets nothing)
_SETTING = re.compile(
    r"\b(?:be|back|to|use|restore|revert|same|original|initial|old|like|as|set|put|make|"
    r"change|return|keep)\b",
    re.IGNORECASE,
)
_NAME = re.compile(r"[a-z0-9][a-z0-9+_.-]*[a-z0-9+]|[a-z0-9]")


def _template_after(turn: int, entries: Sequence[Mapping[str, Any]]) -> str | None:
    """The template as it stood after ``turn``: the last one kept at or before it."""
    kept = [e for e in entries if 0 < int(e.get("turn") or 0) <= turn and e.get("template")]
    return str(kept[-1]["template"]) if kept else None


def _value(field: str, template: str) -> str:
    from oic_ai.stores.template_model import template_from_text

    try:
        parsed = template_from_text(template)
    except ValueError:
        return ""
    if field == "hostname":
        return parsed.hostname
    return parsed.disk.size if parsed.disk else ""


def _packages(template: str) -> set[str]:
    from oic_ai.stores.template_model import template_from_text

    try:
        return set(template_from_text(template).packages)
    except ValueError:
        return set()


def _turn_of(pointer: re.Match[str]) -> int:
    if pointer.group("n"):
        return int(pointer.group("n"))
    return _TURNS[" ".join(pointer.group("ord").lower().split())]


def resolve_turn_values(request: str, current: str, entries: Sequence[Mapping[str, Any]]) -> str:
    """``request`` with each value pointed at by an earlier turn written out (see above).

    Args:
        request: The turn's request.
        current: The session's template now.
        entries: The templates the session kept, with their turns (``images``).
    """
    if not entries or not _POINTER.search(request):
        return request
    for clause in _CLAUSE.finditer(request):
        if request[clause.end() : clause.end() + 1] == "?":
            continue  # "what was the hostname in the first message?": a question
        for pointer in _POINTER.finditer(request, clause.start(), clause.end()):
            template = _template_after(_turn_of(pointer), entries)
            if template is None:
                continue
            rewritten = _field_value(request, clause.start(), pointer, template)
            if rewritten is None:
                rewritten = _package_back(request, clause.start(), pointer, template, current)
            if rewritten is not None:
                return resolve_turn_values(rewritten, current, entries)
    return request


def _field_value(request: str, start: int, pointer: re.Match[str], template: str) -> str | None:
    """The field pointed at, with the turn's value ("the hostname ... from turn 1")."""
    for field, pattern in _FIELDS.items():
        named = [m for m in pattern.finditer(request, start, pointer.start())]
        if not named or not _SETTING.search(request, start, pointer.start()):
            continue
        value = _value(field, template)
        if not value:
            return None
        return f"{request[: named[-1].start()]}{field} {value}{request[pointer.end() :]}"
    return None


def _package_back(
    request: str, start: int, pointer: re.Match[str], template: str, current: str
) -> str | None:
    """A package put back "like it was in turn 3": the pointer out, when turn 3 had it."""
    had = _packages(template)
    now = _packages(current)
    said = {m.group() for m in _NAME.finditer(request.lower(), start, pointer.start())}
    if not said & (had - now):
        return None  # nothing the turn had and the image lacks now: nothing put back
    tie = re.search(_TIE + r"\s*$", request[start : pointer.start()])
    cut = start + tie.start() if tie else pointer.start()
    return f"{request[:cut].rstrip()}{request[pointer.end() :]}"
