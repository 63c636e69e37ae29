"""Rule: the hostname ("hostname edge-01", "call the host gw1")."""

from __future__ import annotations

import re

from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.words import CLAUSE_END, QUOTED_NAME

_HOSTNAME = re.compile(
    r"\b(?:(?:host\s*name|host-name)(?:\s+(?:to|is|as|should\s+be|of))?\s*[:=]?"
    r"|(?:call|name)\s+(?:the\s+)?(?:host|machine|system|device|box|server|node)(?:\s+(?:to|as))?)"
    r"(?:\s*[:=]\s*|\s+)" + QUOTED_NAME + CLAUSE_END
)


def rule_hostname(state: PlanState) -> None:
    """Set the hostname; a name that is not a valid hostname is reported."""
    name = state.new_value(
        _HOSTNAME,
        "hostname",
        _invalid,
        current=state.facts.hostname,
        already="the hostname is already",
        keep_case=False,
    )
    if name is not None:
        state.hostname = name


def _invalid(name: str) -> str:
    return f"{name!r} is not a valid hostname (letters, digits and '-' in dot-separated labels)"
