"""Rule: the hostname ("hostname edge-01", "call the host gw1")."""

from __future__ import annotations

import re

from oic_ai.stores.targets import load_targets
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.words import CLAUSE_END, QUOTED_NAME

_HOSTNAME = re.compile(
    r"\b(?:(?:host\s*name|host-name)(?:\s+(?:to|is|as|should\s+be|of))?\s*[:=]?"
    r"|(?:call|name)\s+(?:the\s+)?(?:host|machine|system|device|box|server|node)(?:\s+(?:to|as))?)"
    r"(?:\s*[:=]\s*|\s+)" + QUOTED_NAME + CLAUSE_END
)


def rule_hostname(state: PlanState) -> None:
    """Set the hostname; a name that is not a valid hostname is reported."""
    for name in state.valid_values(
        _HOSTNAME, load_targets().pattern("hostname"), _invalid, keep_case=False
    ):
        if name == state.facts.hostname:
            state.notes.append(f"the hostname is already {name}")
        else:
            state.hostname = name


def _invalid(name: str) -> str:
    return f"{name!r} is not a valid hostname (letters, digits and '-' in dot-separated labels)"
