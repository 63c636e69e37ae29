"""Build the state graph: classify → retrieve → generate → validate ⇄ fix → verify → respond.

``undo`` and ``retarget`` (references to the conversation) put a draft in place of
``retrieve``; the rest of their request, if any, is planned on it by ``generate``.

``graph`` at module level has no checkpointer, for ``langgraph dev`` (which rejects one);
scripts, the CLI and tests call :func:`build_graph` with a SQLite saver.
"""

from __future__ import annotations

import functools
from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from oic_ai.graph.routers import (
    route_after_classify,
    route_after_packages,
    route_after_recall,
    route_after_review,
    route_after_validate,
)
from oic_ai.nodes.apply_edit import apply_edit
from oic_ai.nodes.classify import classify
from oic_ai.nodes.context import Context
from oic_ai.nodes.explain import explain
from oic_ai.nodes.fix import make_fix
from oic_ai.nodes.generate import make_generate
from oic_ai.nodes.respond import respond
from oic_ai.nodes.retarget import retarget
from oic_ai.nodes.retrieve import retrieve
from oic_ai.nodes.review import review
from oic_ai.nodes.state import InputState, OutputState, State
from oic_ai.nodes.undo import undo
from oic_ai.nodes.validate import validate
from oic_ai.nodes.verify_packages import verify_packages
from oic_ai.stores.secrets import mask_secrets
from oic_ai.tools.chat_backend import ChatBackend

GRAPH_NAME = "oic-ai"


def masking_notices(node: Any) -> Any:
    """``node`` whose ``notices`` are masked before LangGraph sees them.

    A notice may quote a backend's URL (``Ollama is not answering at URL``). Masking the
    node's own update, rather than the state, keeps a password inside such a URL out of
    the checkpoint's pending writes as well as out of its values and every answer.
    """

    @functools.wraps(node)
    def run(state: State, runtime: Runtime[Context]) -> Any:
        update = node(state, runtime)
        if isinstance(update, dict) and update.get("notices"):
            return {**update, "notices": [mask_secrets(str(n)) for n in update["notices"]]}
        return update

    return run


def build_graph(checkpointer: Any = None, *, chat_model: Any = None) -> Any:
    """Compile the agent graph.

    Args:
        checkpointer: A LangGraph checkpointer (e.g. ``SqliteSaver``) for sessions, or None.
        chat_model: A chat model to plan with instead of the configured provider.

    Returns:
        The compiled graph, named ``oic-ai``.
    """
    backend = ChatBackend(chat_model)
    builder = StateGraph(
        State, context_schema=Context, input_schema=InputState, output_schema=OutputState
    )
    builder.add_node("classify", masking_notices(classify))
    builder.add_node("retrieve", masking_notices(retrieve))
    builder.add_node("generate", masking_notices(make_generate(backend)))
    builder.add_node("validate", masking_notices(validate))
    builder.add_node("fix", masking_notices(make_fix(backend)))
    builder.add_node("verify_packages", masking_notices(verify_packages))
    builder.add_node("explain", masking_notices(explain))
    builder.add_node("apply_edit", masking_notices(apply_edit))
    builder.add_node("undo", masking_notices(undo))
    builder.add_node("retarget", masking_notices(retarget))
    builder.add_node("review", masking_notices(review))
    builder.add_node("respond", masking_notices(respond))

    builder.add_edge(START, "classify")
    builder.add_conditional_edges("classify", route_after_classify)
    builder.add_edge("retrieve", "generate")
    builder.add_edge("generate", "validate")
    builder.add_edge("apply_edit", "validate")
    builder.add_conditional_edges("undo", route_after_recall)
    builder.add_conditional_edges("retarget", route_after_recall)
    builder.add_conditional_edges("validate", route_after_validate)
    builder.add_edge("fix", "validate")
    builder.add_conditional_edges("verify_packages", route_after_packages)
    builder.add_conditional_edges("review", route_after_review)
    builder.add_edge("explain", "respond")
    builder.add_edge("respond", END)
    return builder.compile(checkpointer=checkpointer, name=GRAPH_NAME)


graph = build_graph()
