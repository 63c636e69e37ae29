"""``undo``: make the template from before the last change the current one, as a new turn.

The session keeps the templates it had before each turn that changed it (``undo_stack``,
written by ``respond``). An undo turn takes the last one as its draft, so it is validated
and package-checked like any result and recorded as a turn of its own: the history keeps
both the change and its undoing. Questions and refused turns asked for no change, so
they are never what an undo takes back; a turn that asked for one and changed nothing is
("undo that" means that turn, and the template stays as it is).
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from oic_ai.nodes.context import Context
from oic_ai.nodes.state import Revision, State, record

UNDO_PROVIDER = "builtin (undo)"
"""The provider an undo turn reports when nothing is left for a planner."""


def _quoted(request: str, limit: int = 60) -> str:
    text = " ".join(request.split())
    return f"'{text[: limit - 1]}…'" if len(text) > limit else f"'{text}'"


def _after(stack: list[Revision], depth: int, current: str) -> str:
    """The template turn ``stack[-depth]`` left (the next one's start, or the current one)."""
    return current if depth == 1 else stack[-depth + 1]["template"]


def _named_part(marker: str, stack: list[Revision], current: str) -> tuple[int, str]:
    """How many turns "undo the X" takes back, or why it cannot (``(1, "")`` when unnamed).

    An undo takes back whole turns. When it names a part ("undo the quiet", "revert the
    hostname", "undo the repo", "go back to before the partition change"), it takes back
    the latest turn that changed that part, reaching over later turns that changed
    nothing (a question, a wish no template holds); a later turn that changed something
    else stops it (taking that back too would lose it). Words naming an aspect ("the
    repo") need the turn to have touched it; other words ("the quiet") need every word
    the turn changed to be theirs (a partial undo would guess). Otherwise the template
    stays and the answer says what to ask instead.
    """
    from oic_ai.tools.references import changed_words, touches, undo_aspects, undo_names

    aspects = undo_aspects(marker)
    names = [] if aspects else undo_names(marker)
    if not aspects and not names:
        return 1, ""
    wanted = " ".join(names) or marker
    last = stack[-1]
    for depth in range(1, len(stack) + 1):
        before = stack[-depth]["template"]
        words = [w.lower() for w in changed_words(before, _after(stack, depth, current))]
        if not words:
            continue  # this turn changed nothing: look further back
        if aspects:
            if any(touches(words, keys) for keys in aspects):
                return depth, ""
            break
        named = [w for w in words if any(n in w for n in names)]
        if not named:
            break
        if len(named) < len(words):
            turn = stack[-depth]["turn"]
            return 0, (
                f"'{marker}' — that change (turn {turn}) did more than {wanted}, and "
                f"an undo takes back a whole turn; say 'undo' to take back all of it, or ask "
                f"for the change itself (for example 'remove {wanted}')"
            )
        return depth, ""
    if last["template"] == current and not any(
        changed_words(r["template"], _after(stack, i, current))
        for i, r in enumerate(reversed(stack), start=1)
    ):
        return 1, ""  # nothing in the session changed anything: "it had changed nothing"
    return 0, (
        f"'{marker}' — the last change (turn {last['turn']}) did not touch {wanted}; "
        f"ask for the change itself (for example 'remove {wanted}')"
    )


def _depth(stack: list[Revision], back_to: dict[str, str]) -> int:
    """How many turns to take back: 1, or down to the latest template with ``back_to``."""
    if not back_to:
        return 1
    from oic_ai.tools.target_support import target_matches, target_of

    for depth, revision in enumerate(reversed(stack), start=1):
        if target_matches(target_of(revision["template"]), back_to):
            return depth
    return 1


def undo(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Put the last earlier template in the draft, and say which turn it takes back."""
    current = state.get("template") or ""
    stack = list(state.get("undo_stack") or [])
    route = record(state, "route")
    update: dict[str, Any] = {"start_text": current, "provider": UNDO_PROVIDER, "plan": None}
    if not stack:
        return {
            **update,
            "draft": current,
            "not_applied": [
                "undo — nothing to take back: no earlier turn of this session changed the template"
            ],
        }
    reference = dict(route.get("reference") or {})
    depth = _depth(stack, dict(reference.get("back_to") or {}))
    if not reference.get("back_to"):
        # "go back to debian" names where to, not a part of the last change
        depth, partial = _named_part(str(reference.get("words") or ""), stack, current)
        if partial:
            return {**update, "draft": current, "not_applied": [partial]}
    last = stack[-depth]
    unchanged = last["template"] == current
    reference["undone"] = {
        "turn": last["turn"],
        "request": last["request"],
        "unchanged": unchanged,
        "depth": depth,
    }
    what = "it had changed nothing" if unchanged else "the template is the one from before it"
    return {
        **update,
        "draft": last["template"],
        "changes": [f"undo: took back turn {last['turn']} ({_quoted(last['request'])}); {what}"],
        "route": {**route, "reference": reference},
    }
