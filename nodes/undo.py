"""``undo``: make the template from before the last change the current one, as a new turn.

The session keeps the templates it had before each turn that changed it (``undo_stack``,
written by ``respond``). An undo turn takes the last one as its draft, so it is validated
and package-checked like any result and recorded as a turn of its own: the history keeps
both the change and its undoing. Questions and refused turns asked for no change, so
they are never what an undo takes back; a turn that asked for one and changed nothing is
("undo that" means that turn, and the template stays as it is).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from langgraph.runtime import Runtime

from oic_ai.nodes.context import Context
from oic_ai.nodes.messages import last_request
from oic_ai.nodes.state import Revision, State, record
from oic_ai.tools.partial_undo import Part, TakenBack

UNDO_PROVIDER = "builtin (undo)"
"""The provider an undo turn reports when nothing is left for a planner."""


def _quoted(request: str, limit: int = 60) -> str:
    text = " ".join(request.split())
    return f"'{text[: limit - 1]}…'" if len(text) > limit else f"'{text}'"


def _after(stack: list[Revision], depth: int, current: str) -> str:
    """The template turn ``stack[-depth]`` left (the next one's start, or the current one)."""
    return current if depth == 1 else stack[-depth + 1]["template"]


@dataclass
class _Choice:
    """What "undo the X" takes back: whole turns (``depth``), or a part of one (``taken``)."""

    depth: int = 1
    refusal: str = ""
    taken: TakenBack | None = None
    counted: bool = False


def _split_names(names: list[str]) -> list[str]:
    """Names split at "/" ("disk/exporter"), and at "-" around an aspect word ("ci-user")."""
    from oic_ai.tools.references import undo_aspects

    found: list[str] = []
    for name in names:
        for piece in (p for p in name.split("/") if p):
            parts = [p for p in piece.split("-") if p]
            if len(parts) > 1 and any(undo_aspects(p) for p in parts):
                found += parts
            else:
                found.append(piece)
    return found


# words that name everything a turn did for what they qualify ("the grafana stuff")
_COLLECTIVE = re.compile(r"\b(?:stuff|things|bits|business)\b", re.IGNORECASE)


def _named_part(
    marker: str, stack: list[Revision], current: str, topic: str = "", request: str = ""
) -> _Choice:
    """What "undo the X" takes back, or why it cannot (whole last turn when nothing is named).

    When the undo names a part ("undo the quiet", "revert the hostname", "undo the repo",
    "undo the hugepages bit", "go back to before the partition change"), the latest turn
    that changed that part is found, reaching over later turns (a question, a wish no
    template holds, a change of something else). When that turn changed nothing but the
    part and nothing changed after it, the whole turn is taken back (the template from
    before it comes back exactly); otherwise only the part is taken back, on the current
    template (:mod:`oic_ai.tools.partial_undo`), and everything else stays. When no turn
    changed the part, the template stays and the answer says what to ask instead.
    """
    from oic_ai.tools.partial_undo import kept_values, only_part, take_back
    from oic_ai.tools.references import (
        describes_a_change,
        undo_aspects,
        undo_names,
    )
    from oic_ai.tools.undo_words import undo_count

    if count := undo_count(marker):
        # "revert the last two": that many turns, each one that asked for a change
        if count > len(stack):
            return _Choice(
                depth=0,
                refusal=f"'{marker}' — only {len(stack)} turn(s) of this session asked for a "
                "change; say 'undo' to take back the last one",
            )
        return _Choice(depth=count, counted=True)
    said = f"undo the {topic}" if topic else marker  # "and the loglevel, put it back"
    aspects = undo_aspects(said)
    # "the disk/exporter/ci-user change": aspects (disk, user) and names (exporter, ci)
    names = [n for n in _split_names(undo_names(said)) if not undo_aspects(n)]
    if not aspects and not names:
        return _Choice()
    marker = f"{topic}, {marker}" if topic else marker
    part = Part(names=tuple(names), aspects=tuple(aspects), kept=kept_values(request))
    wanted = " ".join(names) or marker
    latest = True  # no later turn changed anything
    for depth in range(1, len(stack) + 1):
        before = stack[-depth]["template"]
        after = _after(stack, depth, current)
        if before == after:
            continue  # this turn changed nothing: look further back
        taken = take_back(before, after, current, part)
        if not taken.operations:
            latest = False
            continue
        if _EVERY_CHANGE.search(marker):
            # "the version from before the disk/partition changes": every turn of the run
            # that changed the part goes, back to the template from before the first
            return _Choice(depth=_first_of_run(stack, depth, current, part))
        if latest and (only_part(before, after, part) or _COLLECTIVE.search(marker)):
            # "drop the grafana stuff again": all the turn brought in for it
            return _Choice(depth=depth)
        return _Choice(depth=depth, taken=taken)
    if latest or (names and describes_a_change(marker)):
        # nothing in the session changed anything ("it had changed nothing"), or the
        # words describe the last change in words of their own ("that storage change")
        return _Choice()
    if not names:
        # "undo the user thing" with no user ever added: name the part, not the words
        words = [w for w in re.findall(r"[\w=-]+", said.lower()) if undo_aspects(w)]
        return _Choice(
            depth=0,
            refusal=(
                f"'{marker}' — no change of this session touched the {' or '.join(words)}; "
                "ask for the change itself"
            ),
        )
    return _Choice(
        depth=0,
        refusal=(
            f"'{marker}' — no change of this session touched {wanted}; ask for the change "
            f"itself (for example 'remove {wanted}')"
        ),
    )


# "before the disk changes": every change of the part, said in the plural after "before"
_EVERY_CHANGE = re.compile(r"\bbefore\b.*\b(?:changes|edits|tweaks)\b", re.IGNORECASE)


def _first_of_run(stack: list[Revision], depth: int, current: str, part: Part) -> int:
    """The depth of the earliest turn, from ``depth`` back, in a run that changed ``part``.

    Turns that changed nothing are passed over; the run ends at a turn that touched none
    of the part's aspects.
    """
    from oic_ai.tools.references import changed_words, touches

    first = depth
    for earlier in range(depth + 1, len(stack) + 1):
        before = stack[-earlier]["template"]
        after = _after(stack, earlier, current)
        if before == after:
            continue
        words = changed_words(before, after)
        if not any(touches(words, keys) for keys in part.aspects):
            break
        first = earlier
    return first


def _depth(stack: list[Revision], back_to: dict[str, str], packages: list[str]) -> int:
    """How many turns to take back: 1, or down to the latest template with ``back_to``.

    ``packages`` ("go back to docker"): down to the latest template that has them all.
    """
    if not back_to and not packages:
        return 1
    from oic_ai.stores.template_model import template_from_text
    from oic_ai.tools.target_support import target_matches, target_of

    for depth, revision in enumerate(reversed(stack), start=1):
        if packages:
            if set(packages) <= set(template_from_text(revision["template"]).packages):
                return depth
        elif target_matches(target_of(revision["template"]), back_to):
            return depth
    return 1


def _before_target(marker: str, stack: list[Revision], current: str) -> int | None:
    """How many turns "back to before the arm thing" takes back, or None when it names no target.

    The latest template without the target named after "before" is the one wanted: the
    turns since the move to that target go. 0 when the current template is not on that
    target (the move was refused, or already taken back): nothing to take back.
    """
    from oic_ai.tools.references import before_target
    from oic_ai.tools.target_support import target_matches, target_of

    named = before_target(marker)
    if not named:
        return None
    if not target_matches(target_of(current), named):
        return 0
    for depth, revision in enumerate(reversed(stack), start=1):
        if not target_matches(target_of(revision["template"]), named):
            return depth
    return None


def _never_moved(marker: str) -> str:
    """The answer to "back to before the arm thing" when the template never moved there."""
    from oic_ai.tools.references import before_target

    what = ", ".join(before_target(marker).values())
    return (
        f"Nothing taken back: the template is not on {what} (the request for it changed "
        f"nothing), so it is already what you had before it ({_quoted(marker)})."
    )


def undo(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Put the last earlier template in the draft, and say which turn it takes back."""
    current = state.get("template") or ""
    stack = list(state.get("undo_stack") or [])
    route = record(state, "route")
    update: dict[str, Any] = {"start_text": current, "provider": UNDO_PROVIDER, "plan": None}
    if _REDO.match(str(dict(route.get("reference") or {}).get("words") or "")):
        return _redo(state, update, route, dict(route.get("reference") or {}))
    refused = dict(route.get("reference") or {}).get("after_refusal")
    if refused is not None:
        # "make it arm64" was refused, then "undo": that request is what is taken back
        reference = dict(route.get("reference") or {})
        what = f" (for {refused})" if refused else ""
        reference["already"] = (
            f"Nothing taken back: the last request{what} was refused and changed nothing, so "
            "the template stays as it is. Say 'undo' again to take back the last change."
        )
        return {**update, "draft": current, "route": {**route, "reference": reference}}
    if not stack and not dict(route.get("reference") or {}).get("image"):
        return {
            **update,
            "draft": current,
            "not_applied": [
                "undo — nothing to take back: no earlier turn of this session changed the template"
            ],
        }
    reference = dict(route.get("reference") or {})
    if reference.get("image"):
        return _switch(state, update, route, reference)
    back_to = reference.get("back_to") or reference.get("back_to_packages")
    depth = _depth(
        stack, dict(reference.get("back_to") or {}), list(reference.get("back_to_packages") or [])
    )
    counted = False  # "revert the last two": the turns are named by their count
    words = str(reference.get("words") or "")
    over = _before_target(words, stack, current) if not back_to else None
    if over is not None:
        # "go back to what we had before the arm thing": back over the move to that target
        if not over:
            reference["already"] = _never_moved(words)
            return {**update, "draft": current, "route": {**route, "reference": reference}}
        depth = over
    elif not back_to:
        # "go back to debian" names where to, not a part of the last change
        topic = str(reference.get("topic") or "")
        request = last_request(state.get("messages") or [])
        choice = _named_part(words, stack, current, topic, request)
        if choice.refusal:
            return {**update, "draft": current, "not_applied": [choice.refusal]}
        depth = choice.depth
        counted = choice.counted
        if choice.taken is not None:
            return _partial(update, route, reference, stack[-depth], current, choice.taken)
    last = stack[-depth]
    unchanged = last["template"] == current
    reference["undone"] = {
        "turn": last["turn"],
        "request": last["request"],
        "unchanged": unchanged,
        "depth": depth,
    }
    what = "it had changed nothing" if unchanged else "the template is the one from before it"
    line = f"undo: took back turn {last['turn']} ({_quoted(last['request'])}); {what}"
    if counted and depth > 1:
        turns = ", ".join(str(revision["turn"]) for revision in stack[-depth:])
        line = f"undo: took back turns {turns}; the template is the one from before them"
    return {
        **update,
        "draft": last["template"],
        "changes": [line],
        "route": {**route, "reference": reference},
    }


# "redo", "reapply that": what the last undo took back is put back
_REDO = re.compile(r"\W*re-?(?:do|apply)\b")


def _redo(
    state: State, update: dict[str, Any], route: dict[str, Any], reference: dict[str, Any]
) -> dict[str, Any]:
    """Make the template the last undo took back current again, or say there is none."""
    redo = list(state.get("redo_stack") or [])
    current = state.get("template") or ""
    if not redo:
        reference["already"] = "Nothing to redo: no undo of this session is left to put back."
        return {**update, "draft": current, "route": {**route, "reference": reference}}
    last = redo[-1]
    reference["redone"] = {"turn": last["turn"], "request": last["request"]}
    return {
        **update,
        "draft": last["template"],
        "changes": [f"redo: put back turn {last['turn']} ({_quoted(last['request'])})"],
        "route": {**route, "reference": reference},
    }


def _partial(
    update: dict[str, Any],
    route: dict[str, Any],
    reference: dict[str, Any],
    turn: Revision,
    current: str,
    taken: TakenBack,
) -> dict[str, Any]:
    """The current template with one part of an earlier turn taken back (a change of its own)."""
    from oic_ai.tools.partial_undo import apply_taken_back

    what = "; ".join(taken.lines)
    reference["undone"] = {
        "turn": turn["turn"],
        "request": turn["request"],
        "unchanged": False,
        "depth": 0,
        "partial": what,
    }
    return {
        **update,
        "draft": apply_taken_back(current, taken),
        "changes": [
            f"undo: took back part of turn {turn['turn']} ({_quoted(turn['request'])}): {what}"
        ],
        "route": {**route, "reference": reference},
    }


def _switch(
    state: State, update: dict[str, Any], route: dict[str, Any], reference: dict[str, Any]
) -> dict[str, Any]:
    """Make another image of the session current ("back to the clinic one"), or say why not.

    Its latest template becomes the draft (the rest of the request is planned on it); the
    template it leaves stays in the session as the other image's latest one, and "undo"
    comes back to it.
    """
    current = update["start_text"]
    image = dict(reference["image"])
    if image.get("refusal"):
        return {**update, "draft": current, "not_applied": [str(image["refusal"])]}
    kept = [
        entry
        for entry in state.get("images") or []
        if entry["image"] == image["number"] and entry["turn"] == image["turn"]
    ]
    if not kept:
        refusal = f"'{reference.get('words')}' — that image is no longer kept by this session"
        return {**update, "draft": current, "not_applied": [refusal]}
    line = (
        f"back to image {image['number']} of this session: its template from turn "
        f"{image['turn']} ({_quoted(kept[-1]['request'])}) is the current one again"
    )
    return {**update, "draft": kept[-1]["template"], "changes": [line]}
