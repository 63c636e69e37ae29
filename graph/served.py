"""The graph the LangGraph API serves (``langgraph.json``, ``oic-ai serve``): one turn per lock.

langgraph-api calls a graph factory for every use of the graph and keeps what it yields
open for as long as that use lasts. For a run (``__is_for_execution__``) that is the whole
turn: the runtime enters the factory before the graph reads the thread's checkpoint and
leaves it only after the stream has ended and the last checkpoint is written. So the
factory is where a served turn takes its session's lock (:func:`stores.session_lock.aturn_lock`),
the same one the CLI and ``TemplateAgent`` take, and no door can slip a turn between
another turn's read and its write. Reads (state, history, schemas for Studio) take no lock.

A node at the start and at the end would not do: the checkpoint is read before the first
node and written after the last, and a failed run would never reach the releasing node.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph_sdk.runtime import ServerRuntime

from oic_ai.graph.builder import graph as compiled
from oic_ai.stores.settings import load_settings
from oic_ai.stores.turn_lock import aturn_lock

FOR_EXECUTION = "__is_for_execution__"
"""The key langgraph-api sets in a factory's ``configurable`` when the graph will run."""
_RUNNING: set[str] = set()
"""Sessions a run of this server holds now (LangGraph queues a second run on them)."""


def running_here(session_id: str) -> bool:
    """Whether a run of this server process holds ``session_id`` right now."""
    return session_id in _RUNNING


async def wait_for_session(session_id: str) -> None:
    """Wait (up to ``$OIC_AI_SESSION_WAIT``) until no other door holds ``session_id``.

    Raises:
        SessionBusyError: it was still held when the wait ran out.
    """
    settings = await asyncio.to_thread(load_settings)
    async with aturn_lock(settings, session_id):
        pass


def for_execution(config: RunnableConfig, runtime: ServerRuntime[Any] | None) -> bool:
    """Whether the server will run the graph (not read its state or schemas).

    langgraph-api marks it in ``configurable``; Aegra (the replicas' engine) only through
    the runtime's access context (``threads.create_run``), as both servers document.
    """
    configurable = config.get("configurable") or {}
    if configurable.get(FOR_EXECUTION):
        return True
    return runtime is not None and runtime.execution_runtime is not None


@asynccontextmanager
async def graph(config: RunnableConfig, runtime: ServerRuntime[Any]) -> AsyncIterator[Any]:
    """Yield the compiled graph; for a run, hold the session's turn lock until it ends.

    Raises:
        SessionBusyError: another door kept the session past ``$OIC_AI_SESSION_WAIT``.
    """
    configurable = config.get("configurable") or {}
    thread_id = configurable.get("thread_id")
    if not for_execution(config, runtime) or not thread_id:
        yield compiled
        return
    settings = await asyncio.to_thread(load_settings)
    async with aturn_lock(settings, str(thread_id)):
        _RUNNING.add(str(thread_id))
        try:
            yield compiled
        finally:
            _RUNNING.discard(str(thread_id))
