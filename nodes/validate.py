"""``validate``: schema, semantic rules and security lint on the draft."""

from __future__ import annotations

from typing import Any

from oic_ai.graph.state import State, Validation


def validate(state: State, runtime: Any = None) -> dict[str, Any]:
    """Validate the turn's draft and record errors and warnings."""
    from oic_ai.tools.validate_template import validate_text

    report = validate_text(state.get("draft") or "", source="template.yml")
    return {
        "validation": Validation(
            valid=report.valid,
            errors=[f.to_json() for f in report.errors],
            warnings=[f.to_json() for f in report.warnings],
        )
    }
