"""``validate``: schema, semantic rules and security lint on the draft."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from oic_ai.nodes.context import Context
from oic_ai.nodes.state import State, validation_of


def validate(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Validate the turn's draft and record errors and warnings."""
    from oic_ai.tools.validate_template import validate_text

    report = validate_text(state.get("draft") or "", source="template.yml")
    return {"validation": validation_of(report)}
