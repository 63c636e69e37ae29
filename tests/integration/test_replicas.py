"""Several ``oic-ai serve`` replicas on Aegra behind HAProxy, over PostgreSQL and Redis.

Real parts on free loopback ports, stopped by PID: PostgreSQL (``postgresql``), Redis
(``redis-server``), HAProxy (``haproxy``), one ``chroma run``, and two ``oic-ai serve``
replicas with ``OIC_AI_DATABASE_URL`` and ``OIC_AI_REDIS_URL`` set. The builtin planner
answers (no model). Guarantees, as the replicas issue numbers them:

1. a thread made through one replica is read, continued and streamed through the other;
2. no lost or doubled turn: sessions × turns through the balancer plus CLI turns on the
   same sessions keep every reported turn; two runs sent at once to one thread through
   two replicas give a linear history;
3. a replica killed (SIGKILL) in the middle of a run: the run ends elsewhere or failed,
   a retry succeeds, no turn is half-written;
4. 401 without a token and 404 for another user's thread, through every replica.

And the route table: every route Aegra mounts (read from its own table,
:func:`tests.support.route_table.aegra_routes`) is on one of :mod:`oic_ai.web.routes`'
lists, and on a replica with users each answers 401 without a token, or is open, or 404.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from oic_ai.web.api import api_routes
from oic_ai.web.routes import BEHIND_TOKEN, OPEN, REFUSED, REFUSED_ON_REPLICAS, SERVED
from tests.support.cli import cli_env, oic
from tests.support.cluster import (  # noqa: F401 (fixture)
    ClusterDatabase,
    cluster_database,
    two_replicas,
)
from tests.support.postgres import postgres_cluster  # noqa: F401 (fixture)
from tests.support.route_table import aegra_routes, closed_as_listed, route_status, rule_pairs
from tests.support.servers import GRAPH_ID, Server, message

pytestmark = pytest.mark.integration

FIRST = "a minimal ubuntu 24.04 edge image for arm64 with docker"
SESSIONS = 8
TURNS = 20


@dataclass
class Cluster2:
    """Two replicas, the balancer in front, and what they share."""

    replicas: list[Server]
    balancer: str
    database_url: str
    redis_url: str
    chroma_url: str
    tokens: dict[str, str]

    def env(self, data_dir: Path, **extra: str) -> dict[str, str]:
        """A CLI's environment on the same database (users and sessions)."""
        return cli_env(
            data_dir,
            OIC_AI_PROVIDER="builtin",
            OIC_AI_DATABASE_URL=self.database_url,
            OIC_AI_CHROMA_URL=self.chroma_url,
            **extra,
        )

    def headers(self, user: str | None) -> dict[str, str]:
        """The bearer header of ``user`` (none for None)."""
        return {} if user is None else {"Authorization": f"Bearer {self.tokens[user]}"}


@pytest.fixture(scope="module")
def cluster(
    cluster_database: ClusterDatabase,  # noqa: F811 (fixture)
) -> Iterator[Cluster2]:
    """PostgreSQL, Redis, Chroma, two replicas and HAProxy; users alice and bob."""
    tokens = {user: cluster_database.add_user(user) for user in ("alice", "bob")}
    with two_replicas(cluster_database.root, cluster_database.url) as started:
        yield Cluster2(
            started.replicas,
            started.balancer,
            started.database_url,
            started.redis_url,
            started.chroma_url,
            tokens,
        )


def _client(url: str, headers: dict[str, str]) -> Any:
    from langgraph_sdk import get_client

    return get_client(url=url, headers=headers, timeout=120)


def _new_thread(cluster: Cluster2, url: str, user: str) -> str:
    async def go() -> str:
        client = _client(url, cluster.headers(user))
        thread = await client.threads.create(graph_id=GRAPH_ID)
        await client.runs.wait(thread["thread_id"], GRAPH_ID, input=message(FIRST))
        return str(thread["thread_id"])

    return asyncio.run(go())


def _state(cluster: Cluster2, url: str, user: str, thread: str) -> dict[str, Any]:
    answer = httpx.get(f"{url}/threads/{thread}/state", headers=cluster.headers(user), timeout=60)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_a_thread_from_one_replica_is_read_continued_and_streamed_through_another(
    cluster: Cluster2,
) -> None:
    r0, r1 = cluster.replicas
    thread = _new_thread(cluster, r0.url, "alice")
    first = _state(cluster, r1.url, "alice", thread)["values"]
    assert first["turn"] == 1 and "docker" in first["template"]

    async def continue_on_r1() -> list[str]:
        client = _client(r1.url, cluster.headers("alice"))
        events = []
        async for part in client.runs.stream(
            thread, GRAPH_ID, input=message("add htop"), stream_mode="updates"
        ):
            events.append(part.event)
        return events

    events = asyncio.run(continue_on_r1())
    assert "updates" in events, events
    after = _state(cluster, r0.url, "alice", thread)["values"]
    assert after["turn"] == 2 and "htop" in after["template"]


def test_without_a_token_401_and_another_users_thread_404_through_every_replica(
    cluster: Cluster2,
) -> None:
    thread = _new_thread(cluster, cluster.balancer, "alice")
    for url in [server.url for server in cluster.replicas] + [cluster.balancer]:
        assert httpx.get(f"{url}/threads/{thread}", timeout=30).status_code == 401
        assert httpx.get(f"{url}/api/v1/sessions", timeout=30).status_code == 401
        bob = cluster.headers("bob")
        assert httpx.get(f"{url}/threads/{thread}", headers=bob, timeout=30).status_code == 404
        state = httpx.get(f"{url}/threads/{thread}/state", headers=bob, timeout=30)
        assert state.status_code == 404
        session = httpx.get(f"{url}/api/v1/sessions/{thread}", headers=bob, timeout=30)
        assert session.status_code == 404
        mine = httpx.get(f"{url}/api/v1/sessions/{thread}", headers=cluster.headers("alice"))
        assert mine.status_code == 200, mine.text
        found = httpx.post(f"{url}/threads/search", json={}, headers=bob, timeout=30).json()
        assert thread not in {t["thread_id"] for t in found}


def test_two_runs_at_once_on_one_thread_through_two_replicas_keep_a_linear_history(
    cluster: Cluster2,
) -> None:
    r0, r1 = cluster.replicas
    thread = _new_thread(cluster, r0.url, "alice")
    outcomes: dict[str, int] = {}

    def run(url: str, text: str) -> None:
        answer = httpx.post(
            f"{url}/threads/{thread}/runs/wait",
            json={"assistant_id": GRAPH_ID, "input": message(text)},
            headers=cluster.headers("alice"),
            timeout=120,
        )
        outcomes[text] = answer.status_code

    racers = [
        threading.Thread(target=run, args=(r0.url, "add htop")),
        threading.Thread(target=run, args=(r1.url, "add vim")),
    ]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(150)
    assert set(outcomes.values()) <= {200, 409}, outcomes
    ran = [text for text, status in outcomes.items() if status == 200]
    assert ran, outcomes
    values = _state(cluster, cluster.balancer, "alice", thread)["values"]
    assert values["turn"] == 1 + len(ran), (values["turn"], outcomes)
    for text in ran:  # each turn that answered 200 is in the template: none overwrote another
        assert text.split()[-1] in values["template"], (text, outcomes)
    history = httpx.post(
        f"{cluster.balancer}/threads/{thread}/history",
        json={"limit": 100},
        headers=cluster.headers("alice"),
        timeout=60,
    ).json()
    ids = {h["checkpoint"]["checkpoint_id"] for h in history}
    parents = [h["parent_checkpoint"]["checkpoint_id"] for h in history if h["parent_checkpoint"]]
    assert len(parents) == len(set(parents)), "two checkpoints share a parent: a fork"
    assert set(parents) <= ids


def test_sessions_and_turns_through_the_balancer_with_cli_turns_keep_every_reported_turn(
    cluster: Cluster2, tmp_path: Path
) -> None:
    sessions = [_new_thread(cluster, cluster.balancer, "alice") for _ in range(SESSIONS)]
    reported = dict.fromkeys(sessions, 1)
    lock = threading.Lock()

    def server_turns(session: str) -> None:
        async def go() -> None:
            client = _client(cluster.balancer, cluster.headers("alice"))
            for turn in range(TURNS):
                await client.runs.wait(
                    session, GRAPH_ID, input=message(f"make the disk {20 + turn}GiB")
                )
                with lock:
                    reported[session] += 1

        asyncio.run(go())

    def cli_turns(session: str) -> None:
        env = cluster.env(
            tmp_path / "cli",
            OIC_AI_SERVER_URL=cluster.balancer,
            OIC_AI_TOKEN=cluster.tokens["alice"],
        )
        for _ in range(2):
            done = oic("generate", "--session", session, "add curl", env=env)
            assert done.returncode == 0, done.stderr[-2000:]
            with lock:
                reported[session] += 1

    workers = [threading.Thread(target=server_turns, args=(s,)) for s in sessions]
    workers += [threading.Thread(target=cli_turns, args=(s,)) for s in sessions[:2]]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(600)
    for session in sessions:
        kept = _state(cluster, cluster.balancer, "alice", session)["values"]["turn"]
        assert kept == reported[session], (session, kept, reported[session])


def _route_lists() -> tuple[set[tuple[str, str]], set[tuple[str, str]], set[tuple[str, str]]]:
    """(open, refused, behind a token) pairs: our lists and our own app's routes."""
    own = [(" ".join(sorted(set(r.methods or ()) - {"HEAD"})), r.path) for r in api_routes()]
    guarded = rule_pairs(BEHIND_TOKEN) | rule_pairs(SERVED) | rule_pairs(own)
    return rule_pairs(OPEN), rule_pairs(REFUSED) | rule_pairs(REFUSED_ON_REPLICAS), guarded


@pytest.fixture(scope="module")
def aegra_table(cluster: Cluster2) -> list[tuple[str, str]]:
    """Every ``(METHOD, PATH)`` a replica's Aegra app mounts (read once per module)."""
    return aegra_routes(cluster.database_url, cluster.redis_url)


def test_every_route_aegra_mounts_is_on_one_of_our_lists(
    aegra_table: list[tuple[str, str]],
) -> None:
    mounted = set(aegra_table)
    opened, refused, guarded = _route_lists()
    unknown = mounted - opened - refused - guarded
    assert not unknown, f"Aegra mounts routes nobody decided on: {sorted(unknown)}"
    assert ("GET", "/health") in mounted  # the table is Aegra's real one
    assert ("POST", "/api/v1/validate") in mounted  # with our routes in it


def test_with_users_every_route_a_replica_mounts_needs_a_token_or_is_open_or_404(
    cluster: Cluster2, aegra_table: list[tuple[str, str]]
) -> None:
    opened, refused, _ = _route_lists()
    wrong: list[tuple[str, str, str, int]] = []
    for index, (method, template) in enumerate(aegra_table):
        url = cluster.replicas[index % len(cluster.replicas)].url
        status = route_status(url, method, template)
        if not closed_as_listed((method, template), status, opened, refused):
            wrong.append((url, method, template, status))
    assert not wrong
    root = httpx.get(cluster.balancer + "/", timeout=30)
    assert root.status_code == 200 and "version" not in root.text  # ours, not Aegra's


def test_serve_check_on_a_replica_finds_every_part(cluster: Cluster2, tmp_path: Path) -> None:
    done = oic("serve", "--check", env=cluster.env(tmp_path, OIC_AI_REDIS_URL=cluster.redis_url))
    assert done.returncode == 0, (done.stdout, done.stderr)
    lines = dict(line.split(":", 1) for line in done.stdout.splitlines())
    assert lines["engine"].strip().startswith("aegra")
    for part in ("engine", "database", "redis", "chroma"):
        assert lines[part].rstrip().endswith("ok"), (part, done.stdout)
