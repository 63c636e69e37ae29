"""A double submit to the LangGraph server (issue 12 item 1, the browser's side).

The installed langgraph-api (``langgraph_api/models/run.py``, ``assign_defaults``) uses
``multitask_strategy = payload.get("multitask_strategy") or "enqueue"``, and the SDK
leaves the field out unless it is given. So a second run posted while the first is still
running on the same thread is queued: it starts when the first has finished, from the
first's final checkpoint, and both turns are kept in order. A client that asks for
``reject`` gets 409 "Thread is already running a task" instead; ``interrupt`` and
``rollback`` cancel the first run.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.servers import GRAPH_ID, Server, langgraph_dev, message

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with langgraph_dev(tmp_path_factory.mktemp("double-submit")) as running:
        yield running


async def _double_submit(url: str, strategy: str | None) -> dict[str, Any]:
    from langgraph_sdk import get_client
    from langgraph_sdk.errors import ConflictError

    client = get_client(url=url)
    thread = await client.threads.create(graph_id=GRAPH_ID)
    tid = thread["thread_id"]
    await client.runs.wait(tid, GRAPH_ID, input=message("a minimal ubuntu 24.04 image"))
    extra: dict[str, Any] = {} if strategy is None else {"multitask_strategy": strategy}
    first = await client.runs.create(tid, GRAPH_ID, input=message("add htop"))
    try:
        second: Any = await client.runs.create(tid, GRAPH_ID, input=message("add tmux"), **extra)
    except ConflictError as exc:
        second = exc
    await client.runs.join(tid, first["run_id"])
    if isinstance(second, dict):
        await client.runs.join(tid, second["run_id"])
    state = await client.threads.get_state(tid)
    runs = await client.runs.list(tid, limit=10)
    return {"state": state, "second": second, "runs": runs}


def test_a_double_submit_is_queued_and_both_turns_are_kept(server: Server) -> None:
    outcome = asyncio.run(_double_submit(server.url, None))
    values = outcome["state"]["values"]
    assert values["turn"] == 3  # create, then both refinements, one after the other
    assert {"htop", "tmux"} <= set(values["template"].split())
    assert {run["status"] for run in outcome["runs"]} == {"success"}
    assert {run["multitask_strategy"] for run in outcome["runs"]} == {"enqueue"}


def test_reject_answers_409_and_keeps_one_turn(server: Server) -> None:
    outcome = asyncio.run(_double_submit(server.url, "reject"))
    if isinstance(outcome["second"], dict):  # not a double submit after all
        pytest.skip("the first run had finished before the second was posted")
    assert "already running" in str(outcome["second"])
    assert outcome["state"]["values"]["turn"] == 2
