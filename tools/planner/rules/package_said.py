"""Packages named first, then what is said of them ("nginx isn't needed anymore").

Split from :mod:`packages` to keep both short; the item reader is passed in.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Literal

from oic_ai.tools.planner.lexicon import is_english
from oic_ai.tools.planner.rules.capability_words import find_capabilities as _find_capabilities
from oic_ai.tools.planner.rules.package_apply import remove_packages
from oic_ai.tools.planner.rules.package_names import known as _known
from oic_ai.tools.planner.rules.package_sentences import (
    ALL_IT_NEEDS,
    ENSURING,
    MUST_HAVE,
    MUST_NOT_HAVE,
    NONE_THERE,
    PACKAGE_IS,
    PACKAGES_FROM,
    PHRASE_NOT_NEEDED,
    SAID_OF,
    SENTENCE_READINGS,
)
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.text import Item, split_items, tokenize
from oic_ai.tools.planner.words import (
    ADD_VERBS,
    FILLER,
    GOES_AWAY,
    NOT_NEEDED,
    PACKAGE_TOKEN,
    REMOVE_VERBS,
    TAKE_OUT,
)

Resolve = Callable[[PlanState, Item], None]


# a turn that only names more of what the turn before did: "and tmux too", "jq as well",
# "same for git", "ditto for curl"
_NAMES = r"(?:the\s+)?[a-z0-9][\w.+-]*(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+)[a-z0-9][\w.+-]*){0,5}"
_MORE_OF_THE_SAME = re.compile(
    r"^[\s\x1f]*(?:(?:and|also|plus|oh|ok|okay|then|ah|right)[\s,]+)*"
    rf"(?:(?:(?:the\s+)?same|ditto|likewise)\s+(?:for|with)\s+(?P<same>{_NAMES})"
    rf"|(?P<names>{_NAMES})\s*,?\s+(?:too|as\s+well|also))"
    r"(?:\s+(?:please|pls|thanks))?[\s.!\x1f]*$"
)
_LEAD = r"^\W*(?:(?:and|also|now|ok|okay|please|pls|then|so|oh|actually|hmm)[\s,]+)*"
_REMOVED_BEFORE = re.compile(
    rf"{_LEAD}(?:{TAKE_OUT}|uninstall|purge)\b|\b(?:{NOT_NEEDED}|{GOES_AWAY})\b"
)
_ADDED_BEFORE = re.compile(rf"{_LEAD}(?:add|install|include|put\s+in|throw\s+in)\b")


def more_of_the_same(state: PlanState, _resolve_item: Resolve) -> None:
    """A turn that only names more packages for what the turn before did with its own.

    "remove htop", then "and tmux too": tmux goes as well (it used to be read as asking
    for tmux, which was there, so nothing was done or said). "add curl", then "same for
    git": git is added. A turn before that neither added nor removed leaves the words to
    the other readings.
    """
    match = _MORE_OF_THE_SAME.match(state.text.work)
    last = state.earlier.strip().splitlines()[-1:] if state.earlier.strip() else []
    if match is None or not last:
        return
    before = last[0].lower()
    removed = bool(_REMOVED_BEFORE.search(before))
    if not removed and (match.group("names") or not _ADDED_BEFORE.search(before)):
        return  # "X too" after an addition is read as an addition already
    start, end = match.span("same" if match.group("same") else "names")
    tokens = [t for t in tokenize(state.text.work) if t.kind in ("word", "sep")]
    part = [t for t in tokens if start <= t.start < end]
    took = len(state.text.claims)
    for item in split_items(part):
        if any(w not in FILLER for w in item.words):
            _resolve_item(state, Item("remove" if removed else "add", item.tokens, "said"))
    if len(state.text.claims) > took:
        state.text.consume(*match.span())


# "add rt-tests so we can run cyclictest": what the package is for, by a command it has
_RUN_IT = re.compile(
    r"\bso\s+(?:that\s+)?(?:we|i|you|they|he|she|people|users|the\s+\w+)\s+(?:can|could|may)\s+"
    r"(?:run|use|call|execute|try|launch|start)\s+(?P<name>[a-z0-9][\w.+-]*[a-z0-9])(?![\w.+-])"
)
_ASKED_BEFORE = re.compile(rf"\b(?:{'|'.join(sorted(ADD_VERBS))})\b")


def commands_it_runs(state: PlanState) -> None:
    """A command run with a package just asked for is no package of its own.

    "add rt-tests so we can run cyclictest": cyclictest is rt-tests' program; it was read
    as one more name after "add" and added, unverified. A name something knows still is
    one ("add htop so we can run tmux too" is left to the other readings).
    """
    for match in state.text.matches(_RUN_IT):
        sentence = state.text.original[: match.start()].lower()
        sentence = re.split(r"[.!?\n]", sentence)[-1]
        if _ASKED_BEFORE.search(sentence) and not _known(state, match.group("name")):
            state.text.consume(*match.span(), "context")


def said_of(state: PlanState, _resolve_item: Resolve) -> None:
    """Packages named first, then what is said of them ("nginx isn't needed anymore")."""
    commands_it_runs(state)
    more_of_the_same(state, _resolve_item)
    tokens = tokenize(state.text.work)
    for match in state.text.matches(ALL_IT_NEEDS):
        start, end = match.span("names")
        part = [t for t in tokens if t.kind == "word" and start <= t.start < end]
        text = " ".join(t.text for t in part)
        before = len(state.text.claims)
        if part and (_find_capabilities(state.catalog, text) or _known(state, text)):
            _resolve_item(state, Item("add", part, "said"))
        if len(state.text.claims) > before:
            state.text.consume(*match.span())
    for match in [*state.text.matches(PACKAGE_IS), *state.text.matches(PACKAGES_FROM)]:
        start, end = match.span("names")
        part = [t for t in tokens if t.kind in ("word", "sep") and start <= t.start < end]
        before = len(state.text.claims)
        for item in split_items(part):
            if any(w not in FILLER for w in item.words):
                _resolve_item(state, Item("add", item.tokens, "package"))
        if len(state.text.claims) > before:
            state.text.consume(*match.span())
    for match in state.text.matches(PHRASE_NOT_NEEDED):
        start, end = match.span("names")
        part = [t for t in tokens if t.kind == "word" and start <= t.start < end]
        before = len(state.text.claims)
        if part and _find_capabilities(state.catalog, " ".join(t.text for t in part)):
            _resolve_item(state, Item("remove", part, "said"))
        if len(state.text.claims) > before:
            state.text.consume(*match.span())
    for match in state.text.matches(SAID_OF):
        start, end = match.span("names")
        if (match.group("fronted") or match.group("gone")) and not _clause_starts(
            state.text.work[:start]
        ):
            continue  # "check nginx out", "try htop out": a verb's object, no removal
        if match.group("absent") and not ENSURING.search(state.text.original[:start].lower()):
            continue  # "gcc isn't installed" states; "make sure gcc isn't installed" asks
        on = match.group("on") or match.group("bare")
        mode: Literal["remove", "add"] = "add" if on else "remove"
        # the verb right before the names, or their first word ("drop a, b is enough")
        first = state.text.work[start:end].split(maxsplit=1)[0]
        governed = first if first in _VERBS else None
        if governed is None and (said := _VERB_BEFORE.search(state.text.work[:start])):
            governed = said.group()
        comma = state.text.work.rfind(",", start, end)
        if governed and comma >= 0 and (governed in ADD_VERBS) != (mode == "add"):
            # "drop ffmpeg, gst is enough": ffmpeg is the object of a verb of the other way
            start = comma + 1
        part = [t for t in tokens if t.kind in ("word", "sep") and start <= t.start < end]
        # "iotop installed", "nload must be installed" mark a name as strongly as "install
        # iotop" does, and "telnet must not be" as "remove telnet"; an English word does not
        # ("nothing else installed")
        marked = (
            match.group("bare")
            or match.group("banned")
            or match.group("absent")
            or match.group("gone")
            or re.search(r"install|add|includ", match.group("on") or "")
        )
        bare = marked and not is_english(match.group("names").split()[-1])
        verb = "installed" if bare else "said"
        before = len(state.text.claims)
        for item in split_items(part):
            if not any(w not in FILLER for w in item.words):
                continue
            took = len(state.text.claims)
            _resolve_item(state, Item(mode, item.tokens, verb))
            if match.group("fronted") and len(state.text.claims) == took:
                _not_there(state, item)  # "nano out": nothing by that name to remove
        if len(state.text.claims) > before:
            state.text.consume(max(start, match.start()), match.end())
    for pattern, mode, verb in SENTENCE_READINGS:
        for match in state.text.matches(pattern):
            lead = state.text.original[: match.start()].lower()
            if pattern is NONE_THERE and not ENSURING.search(lead):
                continue  # "since there is no docker anymore": a reason, no request
            start, end = match.span("names")
            part = [  # "weston's kiosk shell" names weston
                replace(t, text=t.text.removesuffix("'s"))
                for t in tokens
                if t.kind in ("word", "sep") and start <= t.start < end
            ]
            before = len(state.text.claims)
            if pattern in (MUST_HAVE, MUST_NOT_HAVE):  # "must include X": the verb said
                verb = match.group("verb").split()[0]
                verb = "have" if verb == "install" else verb  # "install a system with X"
            listed = mode == "add" or pattern is MUST_NOT_HAVE  # "there is no ssh server"
            items = list(split_items(part)) if listed else [Item(mode, part, verb)]
            for item in items:
                if any(w not in FILLER for w in item.words):
                    _resolve_item(state, Item(mode, item.tokens, verb))
            if len(state.text.claims) > before:
                state.text.consume(*match.span())


# an add or remove verb right before a name list said of ("drop ffmpeg, gst is enough")
_VERBS = ADD_VERBS | REMOVE_VERBS
_VERB_BEFORE = re.compile(rf"\b(?:{'|'.join(sorted(_VERBS))})(?=\s*$)")


# words after which a clause may start with its object ("ok, nano out", "and vim remove")
_OPENERS = frozenset("and then also but so ok okay sorry oh ah now pls please plus".split())


def _clause_starts(before: str) -> bool:
    """Whether a clause starts right after ``before`` (the text up to a name)."""
    stripped = before.rstrip()
    if not stripped or stripped[-1] in ".,;:!?(\n\x1f":
        return True
    return stripped.split()[-1] in _OPENERS


def _not_there(state: PlanState, item: Item) -> None:
    """Note a package-shaped name said to go that the template does not have."""
    content = [t for t in item.tokens if t.text not in FILLER]
    if len(content) != 1:
        return
    written = state.text.raw(content[0].start, content[0].end)
    if PACKAGE_TOKEN.match(written) and (_known(state, written) or not is_english(written)):
        remove_packages(state, item, [], written)


# what the request described, pointed at as a whole: "set up the equivalent", "build me
# something like that", "replicate it", "a copy of that setup"
_POINTING = frozenset("equivalent counterpart replica lookalike similar".split())
_COPYING = frozenset(
    "replicate recreate reproduce duplicate rebuild copy clone mirror something setup thing "
    "config configuration".split()
)
_BACK = frozenset("it that this those these same".split())


def points_back(item: Item) -> bool:
    """Whether ``item`` asks for what the request described, and names nothing else.

    "Could you set up the equivalent?" after the description of a Packer build, "can you
    replicate it?": the described changes are read, and these words add none of their own.
    "build me something" (no pointing word) and "the equivalent of htop" (a name) are not.
    """
    said = [w for w in item.words if w not in FILLER or w in _BACK]
    content = [w for w in said if w not in _BACK]
    if not content or not all(w in _POINTING or w in _COPYING for w in content):
        return False
    return any(w in _POINTING for w in content) or any(w in _BACK for w in item.words)
