"""``verify_packages``: check every package of the draft against the target's indexes."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from oic_ai.nodes.context import Context, run_settings
from oic_ai.nodes.state import Packages, State


def verify_packages(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Classify each package as found or missing, with suggestions for the missing."""
    from oic_ai.stores.yaml_document import YamlSyntaxError, load_data
    from oic_ai.tools.verify_packages import verify_template_packages

    try:
        data = load_data(state.get("draft") or "")
    except YamlSyntaxError:
        return {"packages": Packages(checked=False, reason="the draft is not valid YAML")}
    if not isinstance(data, dict):
        return {"packages": Packages(checked=False, reason="the draft is not a mapping")}
    report = verify_template_packages(data, run_settings(runtime))
    result = report.to_json()
    return {
        "packages": Packages(
            checked=bool(result.get("checked")),
            reason=result.get("reason"),
            fix=result.get("fix"),
            found=list(result.get("found", [])),
            missing=list(result.get("missing", [])),
            suggestions={k: list(v) for k, v in dict(result.get("suggestions", {})).items()},
        )
    }
