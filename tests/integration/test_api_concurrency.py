"""Eight conversations of 25 turns at once through one ``langgraph dev`` server.

Meanwhile the CLI keeps listing sessions and taking turns of its own on the same SQLite
file. Every run succeeds, every thread ends at turn 25 with 25 finished turns in its
history, the CLI lists the same eight sessions with 25 turns each, and "database is
locked" appears nowhere (answers, server log, CLI).

``OIC_AI_API_SESSIONS`` and ``OIC_AI_API_TURNS`` scale it down for a slow CI machine.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.cli import oic, oic_json
from tests.support.servers import GRAPH_ID, Server, langgraph_dev, message

pytestmark = pytest.mark.integration

SESSIONS = int(os.environ.get("OIC_AI_API_SESSIONS", "8"))
TURNS = int(os.environ.get("OIC_AI_API_TURNS", "25"))
FIRST = "a minimal ubuntu 24.04 image for x86_64, session {n}"
REFINEMENTS = [
    "add htop",
    "make the disk 16GiB",
    "remove htop",
    "add curl",
    "make the disk 12GiB",
    "remove curl",
]
STATUSES = {"valid", "valid_with_warnings", "invalid"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with langgraph_dev(tmp_path_factory.mktemp("langgraph-api-load")) as running:
        yield running


def _request(n: int, turn: int) -> str:
    return FIRST.format(n=n) if turn == 1 else REFINEMENTS[(turn - 2) % len(REFINEMENTS)]


async def _conversation(url: str, n: int, turns: int) -> dict[str, Any]:
    from langgraph_sdk import get_client

    client = get_client(url=url)
    thread = await client.threads.create(graph_id=GRAPH_ID)
    tid = thread["thread_id"]
    answers = []
    for turn in range(1, turns + 1):
        answer = await client.runs.wait(tid, GRAPH_ID, input=message(_request(n, turn)))
        answers.append(answer)
    state = await client.threads.get_state(tid)
    history = await client.threads.get_history(tid, limit=1000)  # the API caps it
    runs = await client.runs.list(tid, limit=2 * turns)
    return {"tid": tid, "answers": answers, "state": state, "history": history, "runs": runs}


async def _all(url: str, sessions: int, turns: int) -> list[dict[str, Any]]:
    return list(await asyncio.gather(*(_conversation(url, n, turns) for n in range(sessions))))


class CliTraffic(threading.Thread):
    """Alternates ``sessions list`` and a CLI turn on its own session until stopped."""

    def __init__(self, server: Server, session: str) -> None:
        super().__init__(daemon=True)
        self.server, self.session = server, session
        self.finished = threading.Event()
        self.failures: list[str] = []
        self.listings = self.turns = 0

    def run(self) -> None:
        while not self.finished.is_set():
            done = oic("sessions", "list", "--json", env=self.server.env, timeout=120)
            self.listings += 1
            if done.returncode != 0 or "locked" in done.stderr.lower():
                self.failures.append(done.stderr)
            request = REFINEMENTS[self.turns % len(REFINEMENTS)]
            done = oic(
                "generate",
                request,
                "--session",
                self.session,
                "--json",
                env=self.server.env,
                timeout=120,
            )
            if done.returncode != 0 or "locked" in done.stderr.lower():
                self.failures.append(done.stderr)
            else:
                self.turns += 1


def parallel_conversations(
    server: Server, sessions: int = SESSIONS, turns: int = TURNS
) -> list[dict[str, Any]]:
    """``sessions`` conversations of ``turns`` turns through the API while the CLI runs turns
    and lists sessions on the same store; every answer, run, checkpoint and index row checked.
    """
    own = oic_json("generate", "a minimal debian 13 image for x86_64", env=server.env)["session"]
    traffic = CliTraffic(server, own)
    traffic.start()
    try:
        talks = asyncio.run(_all(server.url, sessions, turns))
    finally:
        traffic.finished.set()
        traffic.join()
    assert traffic.failures == [] and traffic.listings >= 1 and traffic.turns >= 1

    for n, talk in enumerate(talks):
        for turn, answer in enumerate(talk["answers"], start=1):
            assert isinstance(answer, dict) and "__error__" not in answer, answer
            assert answer["turn"] == turn and answer["status"] in STATUSES, answer
        assert talk["state"]["values"]["turn"] == turns
        ends = sorted(h["values"]["turn"] for h in talk["history"] if not h["next"] and h["values"])
        assert ends == list(range(1, turns + 1)), ends  # one finished checkpoint per turn
        assert [r["status"] for r in talk["runs"]] == ["success"] * turns
        humans = [m for m in talk["state"]["values"]["messages"] if m["type"] == "human"]
        assert [m["content"] for m in humans] == [_request(n, t) for t in range(1, turns + 1)]

    listed = {s["id"]: s for s in oic_json("sessions", "list", env=server.env)["sessions"]}
    for n, talk in enumerate(talks):
        row = listed[talk["tid"]]
        assert (row["title"], row["turns"]) == (FIRST.format(n=n), turns)
    assert len(listed) == sessions + 1
    assert listed[own]["turns"] == 1 + traffic.turns  # no CLI turn was lost either
    return talks


def test_parallel_conversations_through_the_api_lose_no_turn(server: Server) -> None:
    talks = parallel_conversations(server)
    assert all(len(talk["history"]) < 1000 for talk in talks)  # the whole history was read
    listing = oic("sessions", "list", env=server.env, timeout=120)
    assert listing.returncode == 0 and "locked" not in listing.stderr.lower()
    assert "database is locked" not in server.log_tail().lower()
    assert "database is locked" not in server.log.read_text(errors="replace").lower()
