"""Every route the LangGraph API server (or a replica's Aegra) mounts, from its own table.

``langgraph_api.server`` builds its app at import time from environment variables, the
way ``run_server`` sets them; :func:`mounted_routes` imports it in a fresh interpreter with
``oic-ai serve``'s configuration (or ``langgraph.json``'s) and walks ``app.routes``,
mounts included, so a route a later langgraph-api adds shows up here by itself.
:func:`aegra_routes` does the same for ``aegra_api.main``, built from the ``aegra.json``
and environment a replica gives it (FastAPI's included routers walked too).
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import uuid
from collections.abc import Iterable
from typing import Any

import httpx

from tests.support.cli import cli_env

_WALKER = r"""
import json
from starlette.routing import Mount, WebSocketRoute
found = []
def walk(routes, prefix):
    for route in routes:
        included = getattr(route, "original_router", None)  # FastAPI's include_router
        if included is not None:
            inner = list(included.routes) + list(getattr(included, "_low_priority_routes", []))
            walk(inner, prefix + route.include_context.prefix)
        elif isinstance(route, Mount):
            inner = getattr(route, "routes", None) or []
            if inner:
                walk(inner, prefix + route.path)
            else:  # a mounted app (static files): everything under it, read-only
                found.append([["GET"], prefix + route.path + "/{path:path}"])
        elif isinstance(route, WebSocketRoute) or type(route).__name__.endswith("WebSocketRoute"):
            found.append([["WEBSOCKET"], prefix + route.path])
        else:
            methods = sorted(set(getattr(route, "methods", None) or ["GET"]) - {"HEAD"})
            found.append([methods, prefix + route.path])
walk(app.routes, "")
print("ROUTES " + json.dumps(found))
"""

_WALK = r"""
import json, os, sys
config = json.loads(sys.argv[1])
os.environ.update(
    MIGRATIONS_PATH="__inmem", DATABASE_URI=":memory:", REDIS_URI="fake",
    LANGSERVE_GRAPHS=json.dumps(config["graphs"]), LANGGRAPH_HTTP=json.dumps(config["http"]),
    LANGGRAPH_AUTH=json.dumps(config["auth"]), LANGGRAPH_RUNTIME_EDITION="inmem",
    ALLOW_PRIVATE_NETWORK="true", LANGSMITH_LANGGRAPH_API_VARIANT="local_dev",
)
from langgraph_api.server import app
"""

_WALK_AEGRA = r"""
import json, os, sys, tempfile
from pathlib import Path
from oic_ai.web.replica import aegra_environment, write_config
database, redis = sys.argv[1], sys.argv[2]
config = write_config(Path(tempfile.mkdtemp(prefix="oic-ai-routes-")))
os.environ.update(aegra_environment(database, redis, config, "127.0.0.1", 1))
from aegra_api.main import app  # builds the app; connects to nothing until its lifespan
"""


def mounted_routes(config: dict[str, Any]) -> list[tuple[str, str]]:
    """``(METHOD, PATH)`` for every route the server mounts with ``config``.

    Args:
        config: ``graphs``, ``http`` and ``auth`` as ``run_server`` takes them.
    """
    return _table(_WALK + _WALKER, json.dumps(config))


def aegra_routes(database_url: str, redis_url: str) -> list[tuple[str, str]]:
    """``(METHOD, PATH)`` for every route a replica's Aegra app mounts (ours included)."""
    return _table(_WALK_AEGRA + _WALKER, database_url, redis_url)


def _table(script: str, *args: str) -> list[tuple[str, str]]:
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        env=cli_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("ROUTES ")]
    assert done.returncode == 0 and lines, done.stderr[-3000:]
    table = json.loads(lines[-1].removeprefix("ROUTES "))
    return sorted({(method, path) for methods, path in table for method in methods})


def rule_pairs(rules: Iterable[tuple[str, str]]) -> set[tuple[str, str]]:
    """``(METHOD, PATH)`` for each method of each ``(METHODS, PATH)`` rule (HEAD left out)."""
    return {(method, path) for methods, path in rules for method in set(methods.split()) - {"HEAD"}}


def concrete(template: str) -> str:
    """A path matching ``template``: a new UUID for each parameter, a file name for ``:path``."""

    def fill(match: re.Match[str]) -> str:
        return "index.html" if ":path" in match.group() else str(uuid.uuid4())

    return re.sub(r"\{[^}]+\}", fill, template)


def route_status(url: str, method: str, template: str) -> int:
    """What ``url`` answers ``method`` on a concrete path of ``template``, without a token.

    A WebSocket route is tried with a raw handshake; POST, PUT and PATCH send ``{}``.
    """
    path = concrete(template)
    if method == "WEBSOCKET":
        return websocket_status(url, path)
    body = {} if method in ("POST", "PUT", "PATCH") else None
    return httpx.request(method, url + path, json=body, timeout=60).status_code


def closed_as_listed(
    route: tuple[str, str],
    status: int,
    opened: set[tuple[str, str]],
    refused: set[tuple[str, str]],
) -> bool:
    """Whether ``status`` is right for ``route`` on a server with users, asked without a token.

    An open route answers (200, or 307 to its slash), a refused one is 404, any other
    needs the token (401); a WebSocket handshake must never be accepted (101).
    """
    if route[0] == "WEBSOCKET":
        return status != 101
    if route in opened:
        return status in (200, 307)
    if route in refused:
        return status == 404
    return status == 401


def websocket_status(url: str, path: str) -> int:
    """The status code of a raw WebSocket handshake on ``path`` of ``url`` (``http://H:P``)."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = sock.recv(1024).decode("latin-1")
    return int(head.split()[1])
