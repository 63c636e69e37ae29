"""``explain``: answer a question about the current template without changing it."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from oic_ai.nodes.context import Context
from oic_ai.nodes.state import State, validation_of


def explain(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Describe the session's template in answer to the request; the draft stays as it is."""
    from oic_ai.tools.explain_template import describe_template
    from oic_ai.tools.validate_template import validate_text

    template = state.get("template") or ""
    report = validate_text(template, source="template.yml")
    return {
        "answer": describe_template(template, state.get("request", "")),
        "draft": template,
        "start_text": template,
        "validation": validation_of(report),
    }
