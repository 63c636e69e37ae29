"""A replica killed with SIGKILL in the middle of a run (guarantee 3 of the replicas issue).

Real parts as in :mod:`tests.integration.test_replicas`: PostgreSQL, Redis, one ``chroma
run``, two ``oic-ai serve`` replicas behind HAProxy. Every turn is planned by a fake
OpenAI-style chat server that can be made slow, so a run can be caught in the middle of
its model call. Aegra's run leases are shortened (a 5 s lease, a heartbeat every 2 s, the
reaper every second) so a dead replica's run is taken up within seconds, not a minute.

The test finds the replica that holds the run (Aegra's ``runs.claimed_by`` names the
worker's host and PID), kills its process group with SIGKILL while the model is answering,
and then checks, through the balancer:

- the run ends: finished by the other replica (``success``) or reported failed (``error``);
- no turn is half-written: the session's turn is the first turn plus one if the run
  succeeded, the last checkpoint has nothing left to run, and the history is linear;
- a retry succeeds and is kept;
- the page's API (``/api/v1/sessions/{id}``) lists exactly the turns that were kept.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from tests.support.cluster import (  # noqa: F401 (fixture)
    ClusterDatabase,
    cluster_database,
    two_replicas,
)
from tests.support.fake_chat_server import FakeChatServer
from tests.support.postgres import postgres_cluster  # noqa: F401 (fixture)
from tests.support.servers import GRAPH_ID, Server, message

pytestmark = pytest.mark.integration

FIRST = "a minimal ubuntu 24.04 edge image for arm64 with docker"
PLAN = {"summary": "add htop", "operations": [{"op": "add_packages", "packages": ["htop"]}]}
SLOW_MODEL = 6.0  # seconds a model answer takes while the test kills a replica
LEASES = {
    "LEASE_DURATION_SECONDS": "5",
    "HEARTBEAT_INTERVAL_SECONDS": "2",
    "REAPER_INTERVAL_SECONDS": "1",
}
RUN_END_LIMIT = 120.0


@dataclass
class Failover:
    """Two replicas behind HAProxy, the slow-able model, and alice's token."""

    replicas: list[Server]
    balancer: str
    database_url: str
    chat: FakeChatServer
    token: str

    @property
    def headers(self) -> dict[str, str]:
        """Alice's bearer header."""
        return {"Authorization": f"Bearer {self.token}"}


@pytest.fixture(scope="module")
def failover(
    cluster_database: ClusterDatabase,  # noqa: F811 (fixture)
) -> Iterator[Failover]:
    """The cluster, its model answering every turn with :data:`PLAN`."""
    root, database_url = cluster_database.root, cluster_database.url
    with FakeChatServer([PLAN]) as chat:
        model = {
            "OIC_AI_PROVIDER": "openai",
            "OPENAI_API_KEY": "sk-test-failover",
            "OPENAI_BASE_URL": chat.openai_url,
            "OIC_AI_SESSION_WAIT": "60",
        }
        token = cluster_database.add_user("alice")
        with two_replicas(root, database_url, env={**model, **LEASES}) as started:
            yield Failover(started.replicas, started.balancer, database_url, chat, token)


def _claimed_by(database_url: str, run_id: str) -> str | None:
    import psycopg

    with psycopg.connect(database_url) as conn:
        row = conn.execute("SELECT claimed_by FROM runs WHERE run_id = %s", (run_id,)).fetchone()
    return None if row is None or row[0] is None else str(row[0])


def _holder(failover: Failover, run_id: str) -> Server:
    """The replica whose worker holds ``run_id`` (``HOST-PID-worker-N``), once one does."""
    prefixes = {f"{socket.gethostname()}-{r.process.pid}-": r for r in failover.replicas}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        owner = _claimed_by(failover.database_url, run_id)
        for prefix, server in prefixes.items():
            if owner is not None and owner.startswith(prefix):
                return server
        time.sleep(0.1)
    pytest.fail(f"no replica claimed run {run_id}")


def _api(failover: Failover, method: str, path: str, **kwargs: Any) -> Any:
    """A request through the balancer as alice; its JSON (a 2xx answer is asserted)."""
    answer = httpx.request(
        method, failover.balancer + path, headers=failover.headers, timeout=60, **kwargs
    )
    assert answer.is_success, (method, path, answer.status_code, answer.text)
    return answer.json()


def _run_to_end(failover: Failover, thread: str, run_id: str) -> str:
    deadline = time.monotonic() + RUN_END_LIMIT
    while time.monotonic() < deadline:
        answer = httpx.get(
            f"{failover.balancer}/threads/{thread}/runs/{run_id}",
            headers=failover.headers,
            timeout=30,
        )
        if answer.status_code == 200 and answer.json()["status"] not in ("pending", "running"):
            return str(answer.json()["status"])
        time.sleep(0.5)
    pytest.fail(f"run {run_id} neither finished nor failed within {RUN_END_LIMIT:.0f} s")


def _linear(history: list[dict[str, Any]]) -> None:
    ids = {h["checkpoint"]["checkpoint_id"] for h in history}
    parents = [h["parent_checkpoint"]["checkpoint_id"] for h in history if h["parent_checkpoint"]]
    assert len(parents) == len(set(parents)), "two checkpoints share a parent: a fork"
    assert set(parents) <= ids


def test_a_replica_killed_mid_run_the_run_ends_elsewhere_or_failed_and_a_retry_is_kept(
    failover: Failover,
) -> None:
    async def first_turn() -> str:
        from langgraph_sdk import get_client

        client = get_client(url=failover.balancer, headers=failover.headers, timeout=120)
        thread = await client.threads.create(graph_id=GRAPH_ID)
        await client.runs.wait(thread["thread_id"], GRAPH_ID, input=message(FIRST))
        return str(thread["thread_id"])

    thread = asyncio.run(first_turn())
    assert _api(failover, "GET", f"/threads/{thread}/state")["values"]["turn"] == 1

    failover.chat.fail("slow", delay=SLOW_MODEL)
    asked = len(failover.chat.requests)
    run = _api(
        failover,
        "POST",
        f"/threads/{thread}/runs",
        json={"assistant_id": GRAPH_ID, "input": message("add htop")},
    )
    victim = _holder(failover, run["run_id"])
    deadline = time.monotonic() + 60
    while len(failover.chat.requests) == asked:  # the run is in its model call now
        assert time.monotonic() < deadline, "the run never asked the model"
        time.sleep(0.05)
    os.killpg(victim.process.pid, signal.SIGKILL)
    victim.process.wait(30)
    failover.chat.fail(None)

    status = _run_to_end(failover, thread, run["run_id"])
    assert status in ("success", "error"), status
    print(f"the killed replica's run ended: {status}")  # shown with -s
    kept = 1 + (status == "success")
    state = _api(failover, "GET", f"/threads/{thread}/state")
    assert state["values"]["turn"] == kept, (status, state["values"]["turn"])
    assert not state["next"], f"a half-run turn is left in the session: {state['next']}"
    _linear(_api(failover, "POST", f"/threads/{thread}/history", json={"limit": 100}))

    retry = _api(
        failover,
        "POST",
        f"/threads/{thread}/runs/wait",
        json={"assistant_id": GRAPH_ID, "input": message("add htop")},
    )
    assert retry["turn"] == kept + 1, retry.get("turn")
    _linear(_api(failover, "POST", f"/threads/{thread}/history", json={"limit": 100}))
    page = _api(failover, "GET", f"/api/v1/sessions/{thread}")
    assert page["turns"] == kept + 1, page
    assert "htop" in _api(failover, "GET", f"/threads/{thread}/state")["values"]["template"]
