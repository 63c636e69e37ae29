"""The LangGraph state graph, its state and context schemas, and the Python API.

Attributes load lazily so that importing a submodule (``graph.checkpointer`` for
``oic-ai sessions show``) does not pay for building the graph. The graph never imports
a service: the services (:mod:`oic_ai.services`) sit above it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["TemplateAgent", "TurnResult", "build_graph", "graph"]


def __getattr__(name: str) -> Any:
    if name in ("build_graph", "graph"):
        from oic_ai.graph import builder

        return getattr(builder, name)
    if name in ("TemplateAgent", "TurnResult"):
        from oic_ai.graph import agent

        return getattr(agent, name)
    raise AttributeError(f"module 'graph' has no attribute {name!r}")
