"""The graph's context schema, defined in :mod:`oic_ai.nodes.context` so nodes can use it."""

from __future__ import annotations

from oic_ai.nodes.context import Context

__all__ = ["Context"]
