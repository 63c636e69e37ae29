"""``apply_edit``: take the template the turn brought (``template_edit``) as its draft.

The editor's "Apply" and the library's "use as starting point" send a whole template
instead of a request to plan; this node puts it where ``generate`` would have put a
planned one, so validate, verify_packages and respond treat it like any result.

A user's own edit (no ``template_origin``) is not fixed without asking: the fix loop
would undo a deliberate change (move a partition back, drop a package) and call the
result valid. Its errors and missing packages are reported (``own_edit``); a follow-up
turn with ``fix_edit`` (the page's "Fix it") asks for the fix. A library template taken
as a starting point is not the user's text, so it is fixed as a planned draft would be.
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
    diff is taken against it, and unless ``fix_edit`` asks for fixes the turn is an
    ``own_edit``: reported, not fixed.
    """
    from oic_ai.tools.applier import unified_diff

    text = str(state.get("template_edit") or "")
    origin = str(state.get("template_origin") or "").strip()[:MAX_ORIGIN] or None
    start = "" if origin else str(state.get("template") or "")
    diff = unified_diff(start, text, "template.yml")
    fixing = bool(state.get("fix_edit"))
    change = "fixed your edit" if fixing and not origin else "applied your edit"
    update: dict[str, Any] = {
        "draft": text,
        "start_text": start,
        "diff": diff,
        "changes": [_counted(f"started from {origin}" if origin else change, diff)],
        "provider": EDIT_PROVIDER,
        "plan": None,
        "template_edit": None,  # inputs persist on a thread: the next turn must not re-apply
        "template_origin": None,
        "fix_edit": None,
        "own_edit": not origin and not fixing,
    }
    if origin:
        update.update(base_template=origin, base_text=text, sources=[])
    return update
