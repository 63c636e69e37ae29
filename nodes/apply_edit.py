"""``apply_edit``: take the template the turn brought (``template_edit``) as its draft.

The editor's "Apply" and the library's "use as starting point" send a whole template
instead of a request to plan; this node puts it where ``generate`` would have put a
planned one, so validate, fix, verify_packages and respond treat it like any result.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from oic_ai.nodes.context import Context
from oic_ai.nodes.state import State

EDIT_PROVIDER = "builtin (edit)"
"""The provider an edit turn reports: no planner ran, and fixes stay deterministic."""
MAX_ORIGIN = 200


def _counted(change: str, diff: str) -> str:
    """``change`` with the diff's added and removed line counts."""
    lines = diff.splitlines()
    added = sum(1 for line in lines if line.startswith("+") and not line.startswith("+++"))
    removed = sum(1 for line in lines if line.startswith("-") and not line.startswith("---"))
    return f"{change} (+{added} -{removed} lines)"


def apply_edit(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Make the given template the draft; consume ``template_edit`` and ``template_origin``.

    With ``template_origin`` the session starts over from that library template (it
    becomes ``base_template``); without it the text replaces the current template, and the
    diff is taken against it.
    """
    from oic_ai.tools.applier import unified_diff

    text = str(state.get("template_edit") or "")
    origin = str(state.get("template_origin") or "").strip()[:MAX_ORIGIN] or None
    start = "" if origin else str(state.get("template") or "")
    diff = unified_diff(start, text, "template.yml")
    update: dict[str, Any] = {
        "draft": text,
        "start_text": start,
        "diff": diff,
        "changes": [_counted(f"started from {origin}" if origin else "applied your edit", diff)],
        "provider": EDIT_PROVIDER,
        "plan": None,
        "template_edit": None,  # inputs persist on a thread: the next turn must not re-apply
        "template_origin": None,
    }
    if origin:
        update.update(base_template=origin, base_text=text, sources=[])
    return update
