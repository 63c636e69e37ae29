"""``verify_packages``: check every package of the draft against the target's indexes."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from oic_ai.nodes.context import Context, run_settings
from oic_ai.nodes.state import Packages, State


def verify_packages(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Classify each package as found or missing, with suggestions for the missing.

    With no index for the target, the names the turn added that neither the base
    template, the capability catalog nor the template library knows are ``unverified``.
    """
    from oic_ai.stores.yaml_document import YamlSyntaxError, load_data
    from oic_ai.tools.verify_packages import (
        known_package_names,
        template_packages,
        unverified_names,
        verify_template_packages,
    )

    try:
        data = load_data(state.get("draft") or "")
    except YamlSyntaxError:
        return {"packages": Packages(checked=False, reason="the draft is not valid YAML")}
    if not isinstance(data, dict):
        return {"packages": Packages(checked=False, reason="the draft is not a mapping")}
    settings = run_settings(runtime)
    report = verify_template_packages(data, settings)
    result = report.to_json()
    unverified = list(result.get("unverified", []))
    if not report.checked:
        try:
            start = load_data(state.get("start_text") or "")
        except YamlSyntaxError:
            start = None
        base = template_packages(start) if isinstance(start, dict) else []
        unverified = unverified_names(
            template_packages(data), base=base, known=known_package_names(settings)
        )
    return {
        "packages": Packages(
            checked=bool(result.get("checked")),
            reason=result.get("reason"),
            fix=result.get("fix"),
            found=list(result.get("found", [])),
            missing=list(result.get("missing", [])),
            unverified=unverified,
            suggestions={k: list(v) for k, v in dict(result.get("suggestions", {})).items()},
        )
    }
