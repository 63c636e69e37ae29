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


def _named_part(marker: str, last: Revision, current: str) -> str:
    """Why "undo the X" cannot take back the last turn ("" when it can).

    An undo takes back a whole turn. When it names a part ("undo the quiet", "revert the
    hostname"), the last turn must have changed that part and nothing else; otherwise the
    template stays and the answer says what to ask instead (a partial undo would guess).
    """
    from oic_ai.tools.references import changed_words, undo_names

    names = undo_names(marker)
    if not names or last["template"] == current:
        return ""
    words = [w.lower() for w in changed_words(last["template"], current)]
    named = [w for w in words if any(n in w for n in names)]
    wanted = " ".join(names)
    if not named:
        return (
            f"'{marker}' — the last change (turn {last['turn']}) did not touch {wanted}; "
            f"ask for the change itself (for example 'remove {wanted}')"
        )
    if len(named) < len(words):
        return (
            f"'{marker}' — the last change (turn {last['turn']}) did more than {wanted}, and "
            f"an undo takes back a whole turn; say 'undo' to take back all of it, or ask for "
            f"the change itself (for example 'remove {wanted}')"
        )
    return ""


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
    last = stack[-depth]
    # "go back to debian" names where to, not a part of the last change
    words = "" if reference.get("back_to") else str(reference.get("words") or "")
    partial = _named_part(words, last, current)
    if partial:
        return {**update, "draft": current, "not_applied": [partial]}
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
