"""``validate``: schema, semantic rules and security lint on the draft, and buildability.

Beyond the validator's own checks, a draft whose os/dist/arch/imageType the composer has
no OS defaults for (an arm64 ISO, say, from an edit made by hand) is an error: nothing
the composer cannot build is ever returned as valid.
"""

from __future__ import annotations

import re
from typing import Any

from langgraph.runtime import Runtime

from oic_ai.nodes.context import Context
from oic_ai.nodes.state import State, validation_of

NOT_BUILDABLE = "target-not-buildable"
"""The finding code of a target the composer has no OS defaults for."""


def validate(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Validate the turn's draft and record errors and warnings."""
    from oic_ai.tools.findings import Finding
    from oic_ai.tools.target_support import unbuildable_message, unbuildable_target_of
    from oic_ai.tools.validate_template import validate_text

    draft = state.get("draft") or ""
    report = validate_text(draft, source="template.yml")
    found = unbuildable_target_of(draft)
    if found is not None and not any(e.code == NOT_BUILDABLE for e in report.errors):
        match = re.search(r"^target:", draft, re.MULTILINE)
        line = draft.count("\n", 0, match.start()) + 1 if match else None
        message = " ".join(unbuildable_message(found)).removeprefix("No template: ")
        report.errors.append(Finding("$.target", line, message, NOT_BUILDABLE))
    return {"validation": validation_of(report)}
