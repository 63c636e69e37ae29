"""Per-user access on a real server: tokens, 401s, and threads no other user can reach.

1. Start ``oic-ai serve --no-browser`` on a free loopback port with an empty data folder;
   with no users, requests need no token (checked before anyone is added).
2. Add alice, bob and carol with ``oic-ai users add --json`` while the server runs.
3. Drive the server with ``langgraph_sdk`` and ``httpx``, each user with its own
   ``Authorization: Bearer TOKEN``: no token or a wrong one gets 401 on the LangGraph
   routes and on ``/api/v1``; bob gets 404 for alice's thread, its state, its history,
   a run on it and a run from one of its checkpoints, and never sees it in a search or
   in ``/api/v1/sessions``.
4. Remove carol while the server runs: her next request gets 401.
5. ``langgraph dev`` reads the same settings from ``langgraph.json``.
Every server is stopped by its process group id, also when a test fails.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

from oic_ai.cli.commands.serve import AUTH, HTTP
from tests.conftest import PROJECT
from tests.support.cli import oic, oic_json
from tests.support.servers import GRAPH_ID, Server, langgraph_dev, message, oic_serve

pytestmark = pytest.mark.integration

T = TypeVar("T")
REQUEST = "a minimal ubuntu 24.04 edge image for arm64"
SECOND = "make the disk 24GiB"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass
class World:
    """The running server, each user's token, and what happened before any user existed."""

    server: Server
    tokens: dict[str, str]
    before_users: dict[str, Any] = field(default_factory=dict)

    def call(self, user: str | None, action: Callable[[Any], Awaitable[T]]) -> T:
        """``action(client)`` with a fresh ``langgraph_sdk`` client carrying ``user``'s token."""
        from langgraph_sdk import get_client

        headers = bearer(self.tokens[user]) if user else {}

        async def run() -> T:
            return await action(get_client(url=self.server.url, headers=headers))

        return asyncio.run(run())

    def status(self, user: str | None, action: Callable[[Any], Awaitable[Any]]) -> int:
        """The HTTP status ``action(client)`` ended with (200 when it succeeded)."""

        async def checked(client: Any) -> int:
            try:
                await action(client)
            except httpx.HTTPStatusError as exc:
                return exc.response.status_code
            return 200

        return self.call(user, checked)

    def get(self, path: str, token: str | None = None, **kwargs: Any) -> httpx.Response:
        headers = bearer(token) if token is not None else {}
        return httpx.get(self.server.url + path, headers=headers, timeout=60, **kwargs)

    def post(self, path: str, body: Any, token: str | None = None) -> httpx.Response:
        headers = bearer(token) if token is not None else {}
        return httpx.post(self.server.url + path, json=body, headers=headers, timeout=300)


async def _without_users(url: str) -> dict[str, Any]:
    """What an anonymous caller can do while the token file is empty."""
    from langgraph_sdk import get_client

    client = get_client(url=url)
    thread = await client.threads.create(graph_id=GRAPH_ID)
    result = await client.runs.wait(thread["thread_id"], GRAPH_ID, input=message(REQUEST))
    found = await client.threads.search(limit=100)
    async with httpx.AsyncClient() as http:
        sessions = await http.get(url + "/api/v1/sessions", timeout=60)
    return {
        "thread": thread,
        "result": result,
        "found": [t["thread_id"] for t in found],
        "sessions": (sessions.status_code, sessions.json()),
    }


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    with oic_serve(tmp_path_factory.mktemp("auth-serve")) as server:
        before = asyncio.run(_without_users(server.url))
        tokens = {
            name: oic_json("users", "add", name, env=server.env)["token"]
            for name in ("alice", "bob", "carol")
        }
        yield World(server, tokens, before)


@pytest.fixture(scope="module")
def alices_thread(world: World) -> dict[str, Any]:
    """A thread of alice's with two turns, and the checkpoint that ends the first."""

    async def talk(alice: Any) -> dict[str, Any]:
        thread = await alice.threads.create(graph_id=GRAPH_ID)
        tid = thread["thread_id"]
        await alice.runs.wait(tid, GRAPH_ID, input=message(REQUEST))
        await alice.runs.wait(tid, GRAPH_ID, input=message(SECOND))
        history = await alice.threads.get_history(tid, limit=200)
        first = [h for h in history if not h["next"] and h["values"].get("turn") == 1]
        return {"thread": thread, "tid": tid, "checkpoint": first[0]["checkpoint"]}

    return world.call("alice", talk)


def test_with_no_users_no_token_is_needed(world: World) -> None:
    before = world.before_users
    assert before["result"]["status"] in {"valid", "valid_with_warnings"}
    assert before["thread"]["thread_id"] in before["found"]
    assert "owner" not in before["thread"]["metadata"]
    status, body = before["sessions"]
    assert status == 200 and "sessions" in body


def test_no_token_or_a_wrong_one_gets_401_everywhere(world: World) -> None:
    wrong = "oic_" + "A" * 43
    probes = [
        ("POST", "/threads/search", {}),
        ("POST", "/threads", {}),
        ("POST", "/runs/wait", {"assistant_id": GRAPH_ID, "input": message(REQUEST)}),
        ("POST", "/assistants/search", {}),
        ("GET", f"/threads/{uuid.uuid4()}/state", None),
        ("GET", "/api/v1/sessions", None),
        ("GET", "/api/v1/templates", None),
        ("POST", "/api/v1/validate", {"template": "image:\n  name: x\n"}),
    ]
    for method, path, body in probes:
        for headers in (
            {},
            bearer(wrong),
            {"Authorization": "Bearer"},
            {"Authorization": f"Basic {world.tokens['alice']}"},
            {"Authorization": world.tokens["alice"]},  # no scheme
            bearer(world.tokens["alice"][:-1]),
            {"x-auth-scheme": "langsmith"},  # Studio's scheme is no way around the check
        ):
            answer = httpx.request(
                method, world.server.url + path, json=body, headers=headers, timeout=60
            )
            assert answer.status_code == 401, (method, path, headers, answer.text)
            assert "token" in answer.json()["detail"].lower()
    assert world.get("/api/v1/sessions", world.tokens["alice"]).status_code == 200
    assert world.post("/threads/search", {}, world.tokens["alice"]).status_code == 200


def test_the_page_and_the_health_check_need_no_token(world: World) -> None:
    assert world.get("/ok").status_code == 200
    assert world.get("/ui/").status_code == 200  # the page asks for a token itself


def test_a_new_thread_belongs_to_its_creator(world: World, alices_thread: dict[str, Any]) -> None:
    assert alices_thread["thread"]["metadata"]["owner"] == "alice"

    async def spoof(bob: Any) -> dict[str, Any]:
        made = await bob.threads.create(graph_id=GRAPH_ID, metadata={"owner": "alice"})
        return dict(made)

    assert world.call("bob", spoof)["metadata"]["owner"] == "bob"  # a client's never wins


def test_another_user_gets_404_for_the_thread_its_state_and_history(
    world: World, alices_thread: dict[str, Any]
) -> None:
    tid = alices_thread["tid"]
    checkpoint_id = alices_thread["checkpoint"]["checkpoint_id"]
    reads: list[Callable[[Any], Awaitable[Any]]] = [
        lambda c: c.threads.get(tid),
        lambda c: c.threads.get_state(tid),
        lambda c: c.threads.get_state(tid, checkpoint_id=checkpoint_id),
        lambda c: c.threads.get_history(tid),
        lambda c: c.runs.list(tid),
    ]
    assert [world.status("bob", read) for read in reads] == [404] * len(reads)
    assert [world.status("alice", read) for read in reads] == [200] * len(reads)


def test_another_user_cannot_run_on_fork_change_or_delete_the_thread(
    world: World, alices_thread: dict[str, Any]
) -> None:
    tid = alices_thread["tid"]
    checkpoint_id = alices_thread["checkpoint"]["checkpoint_id"]
    again = message(SECOND)
    writes: list[Callable[[Any], Awaitable[Any]]] = [
        lambda c: c.runs.wait(tid, GRAPH_ID, input=again),
        lambda c: c.runs.create(tid, GRAPH_ID, input=again),
        # forking: a run from one of its checkpoints
        lambda c: c.runs.wait(tid, GRAPH_ID, input=again, checkpoint_id=checkpoint_id),
        lambda c: c.threads.update(tid, metadata={"owner": "bob"}),
        lambda c: c.threads.update_state(tid, {"turn": 99}),
        lambda c: c.threads.delete(tid),
    ]
    assert [world.status("bob", write) for write in writes] == [404] * len(writes)
    # a copy answers exactly as for a thread that does not exist (langgraph-api says 409)
    copy_status = world.status("bob", lambda c: c.threads.copy(tid))
    assert copy_status == world.status("bob", lambda c: c.threads.copy(str(uuid.uuid4())))
    assert copy_status in (404, 409)

    # nothing changed for alice: still hers, still two turns, nothing copied for bob
    async def look(alice: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        return dict(await alice.threads.get(tid)), dict(await alice.threads.get_state(tid))

    thread, state = world.call("alice", look)
    assert thread["metadata"]["owner"] == "alice"
    assert state["values"]["turn"] == 2


def test_another_user_never_sees_the_thread_in_a_search(
    world: World, alices_thread: dict[str, Any]
) -> None:
    tid = alices_thread["tid"]

    async def ids(client: Any, **query: Any) -> list[str]:
        return [t["thread_id"] for t in await client.threads.search(limit=1000, **query)]

    mine = world.call("alice", ids)
    theirs = world.call("bob", ids)
    assert tid in mine and tid not in theirs
    assert world.call("bob", lambda c: ids(c, metadata={"owner": "alice"})) == []
    assert world.call("bob", lambda c: ids(c, ids=[tid])) == []
    assert world.call("bob", lambda c: c.threads.count(metadata={"owner": "alice"})) == 0
    # the thread made before any user existed belongs to nobody: no user sees it
    anonymous = world.before_users["thread"]["thread_id"]
    assert anonymous not in mine and anonymous not in theirs


def test_a_copy_and_a_fork_by_the_owner_stay_the_owners(
    world: World, alices_thread: dict[str, Any]
) -> None:
    async def copy_and_fork(alice: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        copied = await alice.threads.copy(alices_thread["tid"])
        forked = await alice.runs.wait(
            copied["thread_id"],
            GRAPH_ID,
            input=message("make the disk 12GiB"),
            checkpoint_id=alices_thread["checkpoint"]["checkpoint_id"],
        )
        return dict(copied), dict(forked)

    copied, forked = world.call("alice", copy_and_fork)
    assert copied["metadata"]["owner"] == "alice"
    assert "12GiB" in forked["template"]
    assert world.status("bob", lambda c: c.threads.get(copied["thread_id"])) == 404


def test_the_session_index_is_scoped_to_its_user(
    world: World, alices_thread: dict[str, Any]
) -> None:
    alice, bob, tid = world.tokens["alice"], world.tokens["bob"], alices_thread["tid"]
    mine = world.get("/api/v1/sessions", alice).json()["sessions"]
    assert [s["turns"] for s in mine if s["id"] == tid] == [2]
    theirs = world.get("/api/v1/sessions", bob).json()["sessions"]
    assert tid not in {s["id"] for s in theirs}
    # the session made before any user existed is nobody's
    anonymous = world.before_users["thread"]["thread_id"]
    assert anonymous not in {s["id"] for s in mine + theirs}
    for method, path, body in [
        ("GET", f"/api/v1/sessions/{tid}", None),
        ("PATCH", f"/api/v1/sessions/{tid}", {"title": "mine now"}),
        ("DELETE", f"/api/v1/sessions/{tid}", None),
        ("POST", f"/api/v1/sessions/{tid}/fork", {"turn": 1}),
        ("GET", f"/api/v1/sessions/{anonymous}", None),
    ]:
        answer = httpx.request(
            method, world.server.url + path, json=body, headers=bearer(bob), timeout=60
        )
        assert answer.status_code == 404, (method, path, answer.text)
        assert answer.json()["error"].startswith("no session")
    shown = world.get(f"/api/v1/sessions/{tid}", alice)
    assert shown.status_code == 200 and shown.json()["title"] != "mine now"


def test_a_fork_through_the_api_is_its_users_alone(
    world: World, alices_thread: dict[str, Any]
) -> None:
    alice, bob = world.tokens["alice"], world.tokens["bob"]
    made = world.post(f"/api/v1/sessions/{alices_thread['tid']}/fork", {"turn": 1}, alice)
    assert made.status_code == 201, made.text
    fork = made.json()["session"]
    assert fork in {s["id"] for s in world.get("/api/v1/sessions", alice).json()["sessions"]}
    assert fork not in {s["id"] for s in world.get("/api/v1/sessions", bob).json()["sessions"]}
    # the fork has no LangGraph thread yet: bob cannot claim its id, nor run on it
    claim = {"thread_id": fork, "if_exists": "do_nothing"}
    assert world.post("/threads", claim, bob).status_code == 409
    run = {"assistant_id": GRAPH_ID, "input": message(SECOND), "if_not_exists": "create"}
    assert world.post(f"/threads/{fork}/runs/wait", run, bob).status_code == 404
    # alice continues it as the page does
    assert world.post("/threads", claim, alice).status_code == 200
    answer = world.post(f"/threads/{fork}/runs/wait", run, alice)
    assert answer.status_code == 200, answer.text
    assert "24GiB" in answer.json()["template"]
    assert world.get(f"/api/v1/sessions/{fork}", alice).json()["turns"] == 2
    assert world.status("bob", lambda c: c.threads.get_state(fork)) == 404


def test_a_user_removed_while_the_server_runs_is_refused_at_once(world: World) -> None:
    token = world.tokens["carol"]
    assert world.post("/threads/search", {}, token).status_code == 200
    assert world.get("/api/v1/sessions", token).status_code == 200
    done = oic("users", "remove", "carol", env=world.server.env)
    assert done.returncode == 0, done.stderr
    assert world.post("/threads/search", {}, token).status_code == 401
    assert world.get("/api/v1/sessions", token).status_code == 401
    # the others are unaffected
    assert world.post("/threads/search", {}, world.tokens["bob"]).status_code == 200


def test_tokens_reach_no_log_and_no_database(world: World, alices_thread: dict[str, Any]) -> None:
    for path in [world.server.log, *world.server.data_dir.rglob("*")]:
        if path.is_file():
            data = path.read_bytes()
            for token in world.tokens.values():
                assert token.encode() not in data, path


def test_the_api_served_without_langgraph_auth_fails_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The web app on its own (no custom-route auth) shows no one's sessions once users exist."""
    from starlette.testclient import TestClient

    from oic_ai.stores.session_factory import open_session_store
    from oic_ai.stores.settings import load_settings
    from oic_ai.stores.users import UserStore
    from oic_ai.web.app import create_app

    settings = load_settings(data_dir=tmp_path, env={})
    store = open_session_store(settings)
    try:
        store.create("session-of-alice", title="alice's", turns=1, owner="alice")
    finally:
        store.close()
    tokens = tmp_path / "users.json"
    monkeypatch.setenv("OIC_AI_TOKENS_FILE", str(tokens))
    with TestClient(create_app(lambda: settings)) as client:
        listed = client.get("/api/v1/sessions").json()["sessions"]
        assert [s["id"] for s in listed] == ["session-of-alice"]  # no users: open, as before
        UserStore(tokens).add("alice")
        assert client.get("/api/v1/sessions").json()["sessions"] == []
        assert client.get("/api/v1/sessions/session-of-alice").status_code == 404


def test_langgraph_json_and_serve_agree_on_auth() -> None:
    config = json.loads((PROJECT / "langgraph.json").read_text(encoding="utf-8"))
    assert config["auth"] == AUTH
    assert config["http"]["enable_custom_route_auth"] is HTTP["enable_custom_route_auth"] is True


def test_langgraph_dev_enforces_the_same_tokens(tmp_path: Path) -> None:
    with langgraph_dev(tmp_path) as server:
        token = oic_json("users", "add", "dora", env=server.env)["token"]
        url = server.url
        assert httpx.post(url + "/threads/search", json={}, timeout=60).status_code == 401
        studio = {"x-auth-scheme": "langsmith"}
        answer = httpx.post(url + "/threads/search", json={}, headers=studio, timeout=60)
        assert answer.status_code == 401  # disable_studio_auth: no bypass in dev mode
        assert httpx.get(url + "/api/v1/sessions", timeout=60).status_code == 401
        made = httpx.post(url + "/threads", json={}, headers=bearer(token), timeout=60)
        assert made.status_code == 200 and made.json()["metadata"]["owner"] == "dora"
        sessions = httpx.get(url + "/api/v1/sessions", headers=bearer(token), timeout=60)
        assert sessions.status_code == 200
