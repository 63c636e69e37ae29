"""Every route the LangGraph API server mounts, read from its own route table.

``langgraph_api.server`` builds its app at import time from environment variables, the
way ``run_server`` sets them; :func:`mounted_routes` imports it in a fresh interpreter with
``oic-ai serve``'s configuration (or ``langgraph.json``'s) and walks ``app.routes``,
mounts included, so a route a later langgraph-api adds shows up here by itself.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from tests.support.cli import cli_env

_WALK = r"""
import json, os, sys
config = json.loads(sys.argv[1])
os.environ.update(
    MIGRATIONS_PATH="__inmem", DATABASE_URI=":memory:", REDIS_URI="fake",
    LANGSERVE_GRAPHS=json.dumps(config["graphs"]), LANGGRAPH_HTTP=json.dumps(config["http"]),
    LANGGRAPH_AUTH=json.dumps(config["auth"]), LANGGRAPH_RUNTIME_EDITION="inmem",
    ALLOW_PRIVATE_NETWORK="true", LANGSMITH_LANGGRAPH_API_VARIANT="local_dev",
)
from starlette.routing import Mount, WebSocketRoute
from langgraph_api.server import app
found = []
def walk(routes, prefix):
    for route in routes:
        if isinstance(route, Mount):
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


def mounted_routes(config: dict[str, Any]) -> list[tuple[str, str]]:
    """``(METHOD, PATH)`` for every route the server mounts with ``config``.

    Args:
        config: ``graphs``, ``http`` and ``auth`` as ``run_server`` takes them.
    """
    done = subprocess.run(
        [sys.executable, "-c", _WALK, json.dumps(config)],
        env=cli_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("ROUTES ")]
    assert done.returncode == 0 and lines, done.stderr[-3000:]
    table = json.loads(lines[-1].removeprefix("ROUTES "))
    return sorted({(method, path) for methods, path in table for method in methods})
