"""The graph's state schemas, defined in :mod:`oic_ai.nodes.state` so nodes can use them."""

from __future__ import annotations

from oic_ai.nodes.state import (
    FindingRecord,
    InputState,
    Intent,
    OutputState,
    Packages,
    Route,
    Source,
    State,
    Status,
    Validation,
)

__all__ = [
    "FindingRecord",
    "InputState",
    "Intent",
    "OutputState",
    "Packages",
    "Route",
    "Source",
    "State",
    "Status",
    "Validation",
]
