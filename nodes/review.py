"""``review``: an optional pause before responding, so a person can accept or edit."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import interrupt

from oic_ai.nodes.context import Context
from oic_ai.nodes.state import State


def review(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Interrupt with the draft; resume with ``"accept"`` or ``{"template": "<yaml>"}``.

    An edited template replaces the draft and goes back through validation.
    """
    answer = interrupt(
        {
            "question": "accept this template, or resume with an edited one",
            "draft": state.get("draft"),
            "diff": state.get("diff", ""),
            "validation": state.get("validation"),
            "packages": state.get("packages"),
        }
    )
    edited = None
    if isinstance(answer, dict):
        if answer.get("action", "edit" if answer.get("template") else "accept") == "edit":
            edited = answer.get("template")
    elif isinstance(answer, str) and answer.strip().lower() not in ("", "accept", "ok", "yes"):
        edited = answer
    if isinstance(edited, str) and edited.strip() and edited != state.get("draft"):
        return {
            "draft": edited,
            "review_edit": True,
            "changes": [*state.get("changes", []), "review: the reviewer edited the template"],
        }
    return {"review_edit": False}
