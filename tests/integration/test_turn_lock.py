"""One lock per session for every door, on a real server, on SQLite and on PostgreSQL.

For each backend an ``oic-ai serve`` runs on the sessions database, with every turn
planned by a (fake, slow: 0.4 s an answer) OpenAI-style chat server, so each turn spends
that long between reading its session and writing it back, and:

1. A race: server runs (``langgraph_sdk``, one after another) and CLI turns
   (``oic-ai generate --session``, two processes) on the same session at once. Every turn
   that said it finished is kept: the session's final turn number equals the turns reported.
2. Busy: while this test holds the session's lock (the file lock, or PostgreSQL's advisory
   lock from another connection), the CLI exits 3, a new run gets HTTP 409 and
   ``DELETE /api/v1/sessions/{id}`` gets 409, each saying "session is busy".
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from oic_ai.stores.settings import load_settings
from oic_ai.stores.turn_lock import turn_lock
from tests.support.cli import oic
from tests.support.fake_chat_server import FakeChatServer
from tests.support.postgres import Cluster, postgres_cluster  # noqa: F401 (fixture)
from tests.support.servers import GRAPH_ID, Server, message, oic_serve

pytestmark = pytest.mark.integration

FIRST = "a minimal ubuntu 24.04 edge image for arm64 with docker"
REFINEMENTS = (
    "make the disk 24GiB",
    "add htop",
    "set the hostname to edge-07",
    "add vim",
    "make the disk 28GiB",
    "add curl",
)
SERVER_RUNS = 8
CLI_TURNS = 3  # per CLI process; two processes
SERVER_WAIT = "4"
PLAN = {"summary": "add htop", "operations": [{"op": "add_packages", "packages": ["htop"]}]}


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def served(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Server, dict[str, str]]]:
    """``oic-ai serve`` on SQLite or PostgreSQL, its runs waiting at most 4 s for a session."""
    with FakeChatServer([PLAN]) as chat:
        chat.fail("slow", delay=0.4)
        extra: dict[str, str] = {
            "OIC_AI_SESSION_WAIT": SERVER_WAIT,
            "OIC_AI_PROVIDER": "openai",
            "OPENAI_API_KEY": "sk-test-turn-lock",
            "OPENAI_BASE_URL": chat.openai_url,
        }
        if request.param == "postgres":
            cluster: Cluster = request.getfixturevalue("postgres_cluster")
            extra["OIC_AI_DATABASE_URL"] = cluster.create_database()
        with oic_serve(tmp_path_factory.mktemp(f"lock-{request.param}"), **extra) as server:
            yield server, extra


def _settings(server: Server, extra: dict[str, str]) -> Any:
    return load_settings(data_dir=server.data_dir, provider="builtin", env=extra)


def _first_turn(server: Server) -> str:
    async def start() -> str:
        from langgraph_sdk import get_client

        client = get_client(url=server.url)
        thread = await client.threads.create(graph_id=GRAPH_ID)
        await client.runs.wait(thread["thread_id"], GRAPH_ID, input=message(FIRST))
        return str(thread["thread_id"])

    return asyncio.run(start())


def _turn_now(server: Server, session: str) -> int:
    state = httpx.get(f"{server.url}/threads/{session}/state", timeout=60).json()
    return int(state["values"]["turn"])


def test_cli_turns_and_server_runs_at_once_keep_every_reported_turn(
    served: tuple[Server, dict[str, str]],
) -> None:
    server, _ = served
    session = _first_turn(server)
    reported = {"server": 0, "cli": 0}
    failures: list[str] = []
    lock = threading.Lock()

    def server_runs() -> None:
        async def go() -> None:
            from langgraph_sdk import get_client

            client = get_client(url=server.url, timeout=300)
            for index in range(SERVER_RUNS):
                request = REFINEMENTS[index % len(REFINEMENTS)]
                try:
                    run = await client.runs.create(session, GRAPH_ID, input=message(request))
                    await client.runs.join(session, run["run_id"])
                    done = await client.runs.get(session, run["run_id"])
                except httpx.HTTPStatusError as exc:  # 409: busy, reported as not kept
                    failures.append(f"server: {exc.response.status_code} {exc.response.text}")
                    continue
                if done["status"] == "success":
                    with lock:
                        reported["server"] += 1
                else:
                    failures.append(f"server run {done['status']}")

        asyncio.run(go())

    def cli_turns(offset: int) -> None:
        for index in range(CLI_TURNS):
            request = REFINEMENTS[(index + offset) % len(REFINEMENTS)]
            env = {**server.env, "OIC_AI_SESSION_WAIT": "120"}
            done = oic("generate", request, "--session", session, "--json", env=env)
            if done.returncode == 0:
                with lock:
                    reported["cli"] += 1
            else:
                failures.append(f"cli exit {done.returncode}: {done.stderr[-300:]}")

    workers = [
        threading.Thread(target=server_runs),
        threading.Thread(target=cli_turns, args=(1,)),
        threading.Thread(target=cli_turns, args=(3,)),
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=900)
    assert reported["server"] >= 1 and reported["cli"] >= 1, (reported, failures)
    kept = _turn_now(server, session)
    assert kept == 1 + reported["server"] + reported["cli"], (reported, failures)


def test_a_busy_session_is_exit_3_and_409_at_every_door(
    served: tuple[Server, dict[str, str]],
) -> None:
    server, extra = served
    session = _first_turn(server)
    env = {**server.env, "OIC_AI_SESSION_WAIT": "1"}
    with turn_lock(_settings(server, extra), session, timeout=5):
        cli = oic("generate", "add htop", "--session", session, env=env)
        assert cli.returncode == 3, cli.stderr
        assert "session is busy" in cli.stderr and "Traceback" not in cli.stderr
        run = httpx.post(
            f"{server.url}/threads/{session}/runs/wait",
            json={"assistant_id": GRAPH_ID, "input": message("add vim")},
            timeout=60,
        )
        assert run.status_code == 409 and "session is busy" in run.text
        gone = httpx.delete(f"{server.url}/api/v1/sessions/{session}", timeout=60)
        assert gone.status_code == 409 and "session is busy" in gone.json()["error"]
    assert _turn_now(server, session) == 1  # nothing ran while it was held
    after = httpx.post(
        f"{server.url}/threads/{session}/runs/wait",
        json={"assistant_id": GRAPH_ID, "input": message("add vim")},
        timeout=120,
    )
    assert after.status_code == 200 and _turn_now(server, session) == 2
