"""A real ``langgraph dev`` server whose sessions live in a real PostgreSQL.

1. The reliability suite's load (``test_api_concurrency``) with as many conversations at
   once (8) but 10 turns each instead of 25: the same race between conversations and the
   CLI, fewer rounds of it. The CLI lists sessions and takes turns of its own on the same
   database meanwhile. No turn is lost: every thread ends at turn 10 with 10 finished
   turns, the CLI lists them all with the right counts, every thread's history replays
   turn by turn (one thread through ``oic-ai sessions replay``, the others through the same
   service in this process), and no ``sessions.sqlite`` is created anywhere.
2. The server is killed (SIGKILL to its process group) in the middle of a turn, while
   the run waits for a (fake, slow) chat model. A new server on the same database
   continues the thread, the CLI sees the last finished turn, and the next turn
   continues the numbering with nothing of the killed turn leaked in.

``OIC_AI_API_SESSIONS`` and ``OIC_AI_API_TURNS`` scale the load down on a slow machine.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
import yaml

from oic_ai.services.session_history import replay_session
from oic_ai.stores.settings import load_settings
from tests.integration.test_api_concurrency import SESSIONS, TURNS, parallel_conversations
from tests.support.cli import cli_env, oic, oic_json
from tests.support.fake_chat_server import FakeChatServer
from tests.support.processes import wait_for
from tests.support.servers import (
    GRAPH_ID,
    LANGGRAPH,
    Server,
    dev_config,
    loopback_server,
    message,
)

pytestmark = pytest.mark.integration

ONE = "a minimal ubuntu 24.04 edge image for arm64 with docker"
KILLED = "add htop and vim"
NEXT = "make the disk 16GiB"
# the load's concurrency (SESSIONS conversations at once) is kept; fewer turns each
PG_TURNS = min(TURNS, 10)


def pg_langgraph_dev(
    root: Path, url: str, data_dir: Path | None = None, **extra: str
) -> AbstractContextManager[Server]:
    """``langgraph dev`` on this checkout with ``OIC_AI_DATABASE_URL=url``, builtin planner."""
    root.mkdir(parents=True, exist_ok=True)
    data = data_dir or root / "data"
    env = cli_env(
        data,
        OIC_AI_PROVIDER="builtin",
        OIC_AI_DATABASE_URL=url,
        LANGGRAPH_CLI_NO_ANALYTICS="1",
        LANGGRAPH_NO_VERSION_CHECK="1",
        **extra,
    )

    config = dev_config(root)

    def args(port: int) -> list[str]:
        return [
            *("dev", "--config", str(config), "--no-browser", "--no-reload"),
            *("--host", "127.0.0.1", f"--port={port}"),
        ]

    # its own working folder, so parallel tests never share ./.langgraph_api
    return loopback_server(
        LANGGRAPH, args, health="/ok", env=env, root=root, data_dir=data, cwd=root
    )


@pytest.fixture
def pg_server(tmp_path: Path, postgres_url: str) -> Iterator[Server]:
    with pg_langgraph_dev(tmp_path, postgres_url) as running:
        yield running


def test_parallel_conversations_on_postgres_lose_no_turn(pg_server: Server) -> None:
    server = pg_server
    first, *others = parallel_conversations(server, SESSIONS, PG_TURNS)
    replay = oic_json("sessions", "replay", first["tid"], env=server.env)["turns"]
    assert [t["turn"] for t in replay] == list(range(1, PG_TURNS + 1))
    # the others through the service `sessions replay` calls, without a process each
    settings = load_settings(data_dir=server.data_dir, provider="builtin", env=server.env)
    for talk in others:
        turns = replay_session(settings, talk["tid"]).to_json()["turns"]
        assert [t["turn"] for t in turns] == list(range(1, PG_TURNS + 1))
    assert not list(server.data_dir.rglob("sessions.sqlite*"))


async def _first_turn(url: str) -> str:
    from langgraph_sdk import get_client

    client = get_client(url=url)
    thread = await client.threads.create(graph_id=GRAPH_ID)
    answer = await client.runs.wait(thread["thread_id"], GRAPH_ID, input=message(ONE))
    assert isinstance(answer, dict) and answer["turn"] == 1, answer
    return str(thread["thread_id"])


async def _start_turn_on_openai(url: str, tid: str) -> None:
    from langgraph_sdk import get_client

    client = get_client(url=url)
    await client.runs.create(tid, GRAPH_ID, input=message(KILLED), context={"provider": "openai"})


async def _continue(url: str, tid: str) -> tuple[dict[str, Any], dict[str, Any]]:
    from langgraph_sdk import get_client

    client = get_client(url=url)
    await client.threads.create(thread_id=tid, graph_id=GRAPH_ID, if_exists="do_nothing")
    answer = await client.runs.wait(tid, GRAPH_ID, input=message(NEXT))
    state = await client.threads.get_state(tid)
    return dict(answer), dict(state)


def test_a_server_killed_mid_turn_resumes_from_postgres(
    tmp_path: Path,
    postgres_url: str,
) -> None:
    data = tmp_path / "data"
    with FakeChatServer(['{"summary": "never sent", "operations": []}']) as chat:
        chat.fail("slow", delay=120)
        fake = {"OPENAI_API_KEY": "sk-test-kill", "OPENAI_BASE_URL": chat.openai_url}
        with pg_langgraph_dev(tmp_path / "first", postgres_url, data, **fake) as first:
            tid = asyncio.run(_first_turn(first.url))
            template = oic_json("sessions", "show", tid, env=first.env)["state"]["template"]
            asyncio.run(_start_turn_on_openai(first.url, tid))
            # the run now waits inside `generate` for the model: kill the server there
            wait_for(lambda: bool(chat.requests), first.process, "the chat request", limit=120)
            os.killpg(first.process.pid, signal.SIGKILL)
            assert first.process.wait(30) == -signal.SIGKILL

    env = cli_env(data, OIC_AI_PROVIDER="builtin", OIC_AI_DATABASE_URL=postgres_url)
    (row,) = oic_json("sessions", "list", env=env)["sessions"]
    assert (row["id"], row["turns"], row["request"]) == (tid, 1, ONE)  # the killed turn: no row
    replay = oic_json("sessions", "replay", tid, env=env)["turns"]
    assert [(t["turn"], t["kind"]) for t in replay] == [(1, "run"), (2, "pending")]
    assert replay[-1]["request"] == KILLED and replay[-1]["next"] == ["generate"]

    with pg_langgraph_dev(tmp_path / "second", postgres_url, data) as second:
        answer, state = asyncio.run(_continue(second.url, tid))
    # the edge base's admin has no password: the composer's behaviour makes that a warning
    assert answer["turn"] == 2 and answer["status"] in ("valid", "valid_with_warnings"), answer
    before, now = yaml.safe_load(template), yaml.safe_load(state["values"]["template"])
    assert now["disk"]["size"] == "16GiB"
    assert now["systemConfig"]["packages"] == before["systemConfig"]["packages"]  # no htop
    now["disk"]["size"] = before["disk"]["size"]
    assert now == before  # nothing else of the killed turn leaked in

    replayed = oic_json("sessions", "replay", tid, env=env)["turns"]
    assert [(t["turn"], t["request"]) for t in replayed] == [(1, ONE), (2, NEXT)]
    third = oic_json("generate", "add curl", "--session", tid, env=env)
    assert (third["session"], third["turn"]) == (tid, 3)
    (row,) = oic_json("sessions", "list", env=env)["sessions"]
    assert (row["turns"], row["request"]) == (3, "add curl")
    assert not list(data.rglob("sessions.sqlite*"))
    done = oic("sessions", "list", env=env)
    assert done.returncode == 0 and tid[:8] in done.stdout
