"""``explain``: answer a question about the current template without changing it."""

from __future__ import annotations

from typing import Any

from oic_ai.graph.state import State


def explain(state: State, runtime: Any = None) -> dict[str, Any]:
    """Describe the session's template in answer to the request; the draft stays as it is."""
    from oic_ai.tools.explain_template import describe_template
    from oic_ai.tools.validate_template import validate_text

    template = state.get("template") or ""
    report = validate_text(template, source="template.yml")
    return {
        "answer": describe_template(template, state.get("request", "")),
        "draft": template,
        "start_text": template,
        "validation": {
            "valid": report.valid,
            "errors": [f.to_json() for f in report.errors],
            "warnings": [f.to_json() for f in report.warnings],
        },
    }
