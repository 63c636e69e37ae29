"""The served front door on real servers: only our routes, no cross-site access, capped bodies.

1. The route table: every route langgraph-api mounts (read from the server's own table,
   :mod:`tests.support.route_table`) is on one of :mod:`oic_ai.web.routes`' lists, and on
   a running ``oic-ai serve`` with users each one answers 401 without a token, or is open
   (the health check, the page), or is refused (404).
2. A default ``oic-ai serve`` (no users): ``/internal/truncate``, ``/internal/debug`` and
   ``/deploy`` answer 404 and wipe nothing; no CORS header ever; another site's ``Origin``
   and a foreign ``Host`` are refused; bodies over 8 MiB get 413; deeply nested JSON on
   ``/api/v1`` gets 400 with no traceback in the log.
3. ``--allow-origin`` and ``ai.serve.max_body_mb`` opt in.
4. ``langgraph dev`` with our ``langgraph.json`` mounts the same table and refuses the same.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from oic_ai.cli.commands.serve import server_config
from oic_ai.web.api import api_routes
from oic_ai.web.routes import BEHIND_TOKEN, OPEN, REFUSED, SERVED, Rule
from tests.conftest import PROJECT
from tests.support.cli import oic_json
from tests.support.route_table import closed_as_listed, mounted_routes, route_status, rule_pairs
from tests.support.servers import GRAPH_ID, Server, langgraph_dev, oic_serve

pytestmark = pytest.mark.integration

EVIL = "http://evil.example"
ALLOWED = "https://app.example.com"
TEST_ROUTES = [
    ("POST", "/internal/truncate"),
    ("GET", "/internal/debug/thread/{tid}"),
    ("POST", "/deploy"),
    ("GET", "/deploy"),
]


def _own_rules() -> list[Rule]:
    return [(" ".join(sorted(set(r.methods or ()) - {"HEAD"})), r.path) for r in api_routes()]


OPEN_PAIRS = rule_pairs(OPEN)
REFUSED_PAIRS = rule_pairs(REFUSED)
GUARDED_PAIRS = rule_pairs(BEHIND_TOKEN) | rule_pairs(SERVED) | rule_pairs(_own_rules())


@pytest.fixture(scope="module")
def open_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A default ``oic-ai serve``: no users, no flags."""
    with oic_serve(tmp_path_factory.mktemp("door-open")) as server:
        yield server


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str]]:
    """``oic-ai serve --allow-origin ALLOWED`` with ``ai.serve.max_body_mb: 1`` and a user."""
    root = tmp_path_factory.mktemp("door-users")
    config = root / "config.yaml"
    config.write_text("ai:\n  serve:\n    max_body_mb: 1\n")
    with oic_serve(root, "--allow-origin", ALLOWED, "--config", str(config)) as server:
        token = oic_json("users", "add", "alice", env=server.env)["token"]
        yield server, token


def _thread(server: Server, **headers: str) -> str:
    answer = httpx.post(server.url + "/threads", json={}, headers=headers, timeout=60)
    assert answer.status_code == 200, answer.text
    return str(answer.json()["thread_id"])


def _no_cors(answer: httpx.Response) -> None:
    assert not [h for h in answer.headers if h.lower().startswith("access-control-")], dict(
        answer.headers
    )


def test_every_mounted_route_is_on_one_of_our_lists() -> None:
    mounted = set(mounted_routes(server_config()))
    unknown = mounted - OPEN_PAIRS - REFUSED_PAIRS - GUARDED_PAIRS
    assert not unknown, f"langgraph-api mounts routes nobody decided on: {sorted(unknown)}"
    assert ("POST", "/internal/truncate") in mounted  # the table is the real one
    assert ("WEBSOCKET", "/threads/{thread_id}/stream/events") in mounted


def test_langgraph_json_mounts_the_same_routes_as_serve() -> None:
    config = json.loads((PROJECT / "langgraph.json").read_text())
    assert config["http"]["app"] == server_config()["http"]["app"]
    dev = {"graphs": config["graphs"], "http": config["http"], "auth": config["auth"]}
    assert mounted_routes(dev) == mounted_routes(server_config())


def test_with_users_every_route_needs_a_token_or_is_open_or_refused(
    guarded: tuple[Server, str],
) -> None:
    server, _ = guarded
    wrong: list[tuple[str, str, int]] = []
    for method, template in mounted_routes(server_config()):
        status = route_status(server.url, method, template)
        if not closed_as_listed((method, template), status, OPEN_PAIRS, REFUSED_PAIRS):
            wrong.append((method, template, status))
    assert not wrong


def test_meta_routes_need_a_token_once_users_exist(guarded: tuple[Server, str]) -> None:
    server, token = guarded
    for path in ("/info", "/metrics", "/docs", "/openapi.json"):
        assert httpx.get(server.url + path, timeout=60).status_code == 401, path
        with_token = httpx.get(server.url + path, headers={"Authorization": f"Bearer {token}"})
        assert with_token.status_code == 200, path
    assert httpx.get(server.url + "/ok", timeout=60).status_code == 200


def test_the_test_routes_answer_404_and_wipe_nothing(open_server: Server) -> None:
    tid = _thread(open_server)
    for method, path in TEST_ROUTES:
        answer = httpx.request(method, open_server.url + path.format(tid=tid), timeout=60)
        assert answer.status_code == 404, (method, path, answer.text)
        assert tid not in answer.text
    assert httpx.get(f"{open_server.url}/threads/{tid}", timeout=60).status_code == 200


def test_no_cors_headers_and_no_other_site_by_default(open_server: Server) -> None:
    url = open_server.url
    tid = _thread(open_server)
    plain = httpx.post(url + "/threads/search", json={}, timeout=60)
    assert plain.status_code == 200 and tid in plain.text
    _no_cors(plain)
    for method, path in (
        ("POST", "/threads/search"),
        ("GET", f"/threads/{tid}/state"),
        ("DELETE", f"/threads/{tid}"),
        ("PATCH", f"/threads/{tid}"),
        ("GET", "/api/v1/sessions"),
        ("POST", "/api/v1/templates"),
    ):
        body = {} if method in ("POST", "PATCH") else None
        answer = httpx.request(method, url + path, json=body, headers={"Origin": EVIL})
        assert answer.status_code == 403, (method, path, answer.text)
        assert "--allow-origin" in answer.json()["fix"]
        _no_cors(answer)
        preflight = httpx.options(
            url + path,
            headers={
                "Origin": EVIL,
                "Access-Control-Request-Method": method,
                "Access-Control-Request-Private-Network": "true",
            },
        )
        assert preflight.status_code == 403, (method, path)
        _no_cors(preflight)
    assert httpx.get(f"{url}/threads/{tid}", timeout=60).status_code == 200  # not deleted
    same = httpx.delete(f"{url}/threads/{tid}", headers={"Origin": url}, timeout=60)
    assert same.status_code == 204  # the page's own origin is not foreign


def test_only_our_own_host_names_are_answered(open_server: Server) -> None:
    port = open_server.url.rsplit(":", 1)[1]
    for host in ("evil.example", f"evil.example:{port}", "127.0.0.2", "localhost.evil.example"):
        for path in ("/ok", "/threads/search", "/ui/"):
            answer = httpx.get(open_server.url + path, headers={"Host": host}, timeout=60)
            assert answer.status_code == 421, (host, path)
    for host in (f"localhost:{port}", f"127.0.0.1:{port}", "localhost"):
        assert httpx.get(open_server.url + "/ok", headers={"Host": host}).status_code == 200


def test_bodies_over_eight_mib_get_413(open_server: Server) -> None:
    big = {"template": "x" * (8 * 1024 * 1024 + 10)}
    for path in ("/threads/search", "/api/v1/validate", "/threads"):
        answer = httpx.post(open_server.url + path, json=big, timeout=120)
        assert answer.status_code == 413, path
        assert answer.json()["fix"]
    assert httpx.post(open_server.url + "/threads/search", json={}).status_code == 200


def test_deeply_nested_json_is_400_with_no_traceback(open_server: Server) -> None:
    nested = "[" * 100_000 + "]" * 100_000
    for path in ("/api/v1/validate", "/api/v1/templates", "/api/v1/packages/check"):
        answer = httpx.post(
            open_server.url + path,
            content=nested,
            headers={"Content-Type": "application/json"},
            timeout=60,
        )
        assert answer.status_code == 400, (path, answer.text)
        assert set(answer.json()) == {"error", "fix"} and "nested" in answer.json()["error"]
    log = open_server.log.read_text(errors="replace")
    assert "Traceback" not in log and "RecursionError" not in log


def test_an_allowed_origin_gets_cors_and_a_configured_cap(guarded: tuple[Server, str]) -> None:
    server, token = guarded
    url = server.url
    preflight = httpx.options(
        url + "/threads/search",
        headers={
            "Origin": ALLOWED,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization,content-type",
        },
    )
    assert preflight.status_code == 204
    assert preflight.headers["access-control-allow-origin"] == ALLOWED
    answer = httpx.post(
        url + "/threads/search",
        json={},
        headers={"Origin": ALLOWED, "Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 200
    assert answer.headers["access-control-allow-origin"] == ALLOWED
    other = httpx.post(url + "/threads/search", json={}, headers={"Origin": EVIL})
    assert other.status_code == 403
    _no_cors(other)
    over = {"template": "x" * (1024 * 1024 + 10)}
    assert httpx.post(url + "/threads/search", json=over).status_code == 413

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        for _ in range(20):
            yield b"x" * 100_000

    chunked = httpx.post(url + "/api/v1/validate", content=chunks(), timeout=60)
    assert chunked.status_code == 413


def test_langgraph_dev_refuses_the_test_routes(tmp_path: Path) -> None:
    with langgraph_dev(tmp_path) as server:
        created = httpx.post(server.url + "/threads", json={"graph_id": GRAPH_ID}, timeout=60)
        tid = created.json()["thread_id"]
        for method, path in [*TEST_ROUTES, ("GET", "/mcp"), ("POST", "/threads/prune")]:
            body: Any = {} if method == "POST" else None
            answer = httpx.request(method, server.url + path.format(tid=tid), json=body)
            assert answer.status_code == 404, (method, path)
        assert httpx.get(f"{server.url}/threads/{tid}", timeout=60).status_code == 200
        evil = httpx.post(server.url + "/threads/search", json={}, headers={"Origin": EVIL})
        assert evil.status_code == 403
        _no_cors(evil)
