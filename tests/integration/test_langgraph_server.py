"""``langgraph dev`` on the sessions database: the API and the CLI see the same threads.

1. Start ``langgraph dev --no-browser --no-reload`` on a free loopback port, with the
   data folder (and so ``sessions.sqlite``) outside the project.
2. Drive two turns with ``langgraph_sdk``: ``runs.wait``, then ``runs.stream``.
3. Read the thread's history and fork from the end of the first turn.
4. List and replay the same thread from the CLI.
5. The other way round: continue a CLI session through the API.
The server is stopped by its process group id, also when a test fails.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.cli import oic_json
from tests.support.servers import GRAPH_ID, Server, langgraph_dev, message

pytestmark = pytest.mark.integration

FIRST = "a minimal ubuntu 24.04 edge image for arm64 with docker"
SECOND = "make the disk 24GiB"
FORKED = "make the disk 12GiB"
STATUSES = {"valid", "valid_with_warnings", "invalid"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with langgraph_dev(tmp_path_factory.mktemp("langgraph-dev")) as running:
        yield running


async def _api_conversation(url: str) -> dict[str, Any]:
    from langgraph_sdk import get_client

    client = get_client(url=url)
    thread = await client.threads.create(graph_id=GRAPH_ID)
    tid = thread["thread_id"]

    first = await client.runs.wait(tid, GRAPH_ID, input=message(FIRST))
    nodes: list[str] = []
    async for part in client.runs.stream(
        tid, GRAPH_ID, input=message(SECOND), stream_mode="updates"
    ):
        if part.event == "updates" and isinstance(part.data, dict):
            nodes.extend(part.data)
    state = await client.threads.get_state(tid)
    history = await client.threads.get_history(tid, limit=200)
    return {"tid": tid, "first": first, "nodes": nodes, "state": state, "history": history}


async def _api_fork(url: str, tid: str, checkpoint_id: str) -> dict[str, Any]:
    from langgraph_sdk import get_client

    client = get_client(url=url)
    forked = await client.runs.wait(
        tid, GRAPH_ID, input=message(FORKED), checkpoint_id=checkpoint_id
    )
    return dict(forked)


def _end_of_turn(history: list[dict[str, Any]], turn: int) -> dict[str, Any]:
    ends = [h for h in history if not h["next"] and h["values"].get("turn") == turn]
    assert len(ends) == 1, [(h["next"], h["values"].get("turn")) for h in history]
    return ends[0]


def test_a_conversation_through_the_api_is_a_cli_session(server: Server) -> None:
    # 2. Two turns through the API.
    talk = asyncio.run(_api_conversation(server.url))
    tid = talk["tid"]
    assert talk["first"]["status"] in STATUSES and "image:" in talk["first"]["template"]
    assert {"classify", "generate", "validate", "respond"} <= set(talk["nodes"])
    assert talk["state"]["values"]["turn"] == 2
    assert "24GiB" in talk["state"]["values"]["template"]

    # 4. The CLI lists and replays the thread from the same SQLite file.
    listed = oic_json("sessions", "list", env=server.env)
    (row,) = [s for s in listed["sessions"] if s["id"] == tid]
    assert (row["title"], row["turns"]) == (FIRST, 2)
    assert row["template"]
    replayed = oic_json("sessions", "replay", tid, env=server.env)
    assert [(t["turn"], t["request"]) for t in replayed["turns"]] == [(1, FIRST), (2, SECOND)]
    assert [t["route"]["intent"] for t in replayed["turns"]] == ["create", "refine"]
    assert "24GiB" in replayed["turns"][1]["diff"]

    # 3. Fork from the end of the first turn, through the API.
    first_end = _end_of_turn(talk["history"], 1)
    checkpoint_id = first_end["checkpoint"]["checkpoint_id"]
    assert checkpoint_id == replayed["turns"][0]["checkpoint_id"]
    forked = asyncio.run(_api_fork(server.url, tid, checkpoint_id))
    assert forked["turn"] == 2 and "12GiB" in forked["template"]

    # The CLI's replay follows the thread's new line; `show` sees the forked state.
    replayed = oic_json("sessions", "replay", tid[:13], env=server.env)
    assert [t["request"] for t in replayed["turns"]] == [FIRST, FORKED]
    shown = oic_json("sessions", "show", tid, env=server.env)
    assert "12GiB" in shown["state"]["template"]
    assert shown["turns"] == 2  # the fork replaced turn 2; it did not add a third


async def _api_continue(url: str, sid: str) -> dict[str, Any]:
    from langgraph_sdk import get_client

    client = get_client(url=url)
    # The in-memory server keeps its own list of threads: register the CLI's thread id
    # there (the state itself comes from the shared checkpoints).
    await client.threads.create(thread_id=sid, graph_id=GRAPH_ID, if_exists="do_nothing")
    before = await client.threads.get_state(sid)
    after = await client.runs.wait(sid, GRAPH_ID, input=message(SECOND))
    history = await client.threads.get_history(sid, limit=200)
    return {"before": before, "after": dict(after), "history": history}


def test_a_cli_session_continues_through_the_api(server: Server) -> None:
    made = oic_json("generate", FIRST, env=server.env)
    sid = made["session"]
    uuid.UUID(sid)  # the API addresses threads by UUID

    api = asyncio.run(_api_continue(server.url, sid))

    assert api["before"]["values"]["turn"] == 1
    assert api["before"]["values"]["template"] == made["template"]
    assert api["after"]["turn"] == 2 and "24GiB" in api["after"]["template"]
    replayed = oic_json("sessions", "replay", sid, env=server.env)
    assert [t["request"] for t in replayed["turns"]] == [FIRST, SECOND]
    (row,) = [s for s in oic_json("sessions", "list", env=server.env)["sessions"] if s["id"] == sid]
    assert row["turns"] == 2
