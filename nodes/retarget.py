"""``retarget``: the current image for another dist, arch or image type, customisations kept.

"The same for Debian", "same thing for x86", "and Ubuntu 26.04 too", "make it an installer
ISO instead": :func:`oic_ai.tools.retarget.retarget_template` changes the target in place
(same dist) or re-bases the template on the new dist's platform and replays its
customisations. What could not be carried over is reported as not applied.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from oic_ai.nodes.context import Context, run_settings
from oic_ai.nodes.messages import earlier_requests
from oic_ai.nodes.state import UNDO_DEPTH, State, record

RETARGET_PROVIDER = "builtin (retarget)"
"""The provider a re-target turn reports when nothing is left for a planner."""


def retarget(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Re-target the session's template to the route's new target."""
    from oic_ai.stores.template_library import bundled_templates_dir
    from oic_ai.tools.retarget import retarget_template

    settings = run_settings(runtime)
    current = state.get("template") or ""
    route = record(state, "route")
    target = dict(dict(route.get("reference") or {}).get("target") or {})
    library = settings.templates_dir or bundled_templates_dir()
    asked = earlier_requests(state.get("messages", []), UNDO_DEPTH)
    result = retarget_template(
        current, target, library, session_base=state.get("base_text"), asked=asked
    )
    update: dict[str, Any] = {
        "draft": result.text,
        "start_text": current,
        "changes": list(result.changes),
        "not_applied": [f"not carried over: {item}" for item in result.not_carried],
        "warnings": list(result.warnings),
        "provider": RETARGET_PROVIDER,
        "plan": None,
    }
    if dict(route.get("reference") or {}).get("own_packages") and result.base_text:
        # "now one for the other client, ..., packages: ...": its own list, not the earlier's
        from oic_ai.tools.earlier_images import without_carried_packages

        update["draft"], dropped = without_carried_packages(result.text, result.base_text)
        if dropped:
            update["changes"].append(
                "left the earlier image's packages out (this image has a package list of its "
                f"own): {', '.join(dropped)}"
            )
    if result.base_template:
        update["base_template"] = result.base_template
        update["base_text"] = result.base_text
    return update
