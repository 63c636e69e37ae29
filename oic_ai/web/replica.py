"""One replica of a cluster: the same routes on Aegra, over PostgreSQL and Redis.

``oic-ai serve`` with ``OIC_AI_DATABASE_URL`` (PostgreSQL) and ``OIC_AI_REDIS_URL`` set runs
this instead of langgraph-api's in-memory runtime. Aegra (``aegra-api``, the ``[replicas]``
extra) keeps threads, runs and the store in that PostgreSQL, queues runs in Redis (any
replica's workers take them, with leases and a reaper for a replica that died) and relays
every run's events over Redis pub/sub, so any replica streams any run.

What we hand Aegra (:func:`aegra_config`, written to a file ``AEGRA_CONFIG`` names):

- the graph: :mod:`oic_ai.web.replica_graph` (Aegra loads graphs by file), which is
  ``graph/served.py``'s factory: a run holds the session's PostgreSQL advisory lock;
- ``auth``: :mod:`oic_ai.web.auth`, the same ``@auth.on`` handlers as on one server;
- ``http.app``: :data:`routes_app`, a FastAPI app (Aegra takes no other kind) carrying our
  Starlette routes (``/api/v1/...``, ``/ui/``) and ``/ok`` (``/`` too). Aegra's own auth dependency
  covers FastAPI routes only, so :class:`RouteAuth` authenticates ours the way
  langgraph-api does (``scope["user"]``, 401 otherwise).

:data:`app` is the ASGI app uvicorn serves: the front door (:mod:`oic_ai.web.front_door`)
outside Aegra's app, so its route list, Host, Origin and body checks come first, exactly
as on one server. It is built on first use (Aegra builds its app at import, from the
environment :func:`aegra_environment` sets).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.types import Receive, Scope, Send

REDIS_URL_ENV = "OIC_AI_REDIS_URL"
DATABASE_URL_ENV = "OIC_AI_DATABASE_URL"
ENGINE = "aegra"
GRAPH_ID = "oic-ai"
GRAPH_FILE = Path(__file__).resolve().parent / "replica_graph.py"
AUTH = {"path": "oic_ai.web.auth:auth", "disable_studio_auth": True}
HTTP = {"app": "oic_ai.web.replica:routes_app", "enable_custom_route_auth": True}
INSTALL_FIX = "install the replicas' engine: pip install 'oic-ai[replicas]' (Python 3.12+)"


def replica_urls(environ: Mapping[str, str] | None = None) -> tuple[str, str] | None:
    """``(database URL, Redis URL)`` when both are set (a replica), else None (one server)."""
    env = os.environ if environ is None else environ
    database = env.get(DATABASE_URL_ENV, "").strip()
    redis = env.get(REDIS_URL_ENV, "").strip()
    if database and redis:
        return database, redis
    return None


def aegra_config() -> dict[str, Any]:
    """The ``aegra.json`` of a replica: our graph, auth and routes."""
    return {
        "graphs": {GRAPH_ID: f"{GRAPH_FILE}:graph"},
        "auth": dict(AUTH),
        "http": dict(HTTP),
    }


def aegra_environment(
    database_url: str, redis_url: str, config_file: Path, host: str, port: int
) -> dict[str, str]:
    """The variables Aegra reads at import, for one replica."""
    return {
        "AEGRA_CONFIG": str(config_file),
        "DATABASE_URL": database_url,
        "REDIS_BROKER_ENABLED": "true",
        "REDIS_URL": redis_url,
        "HOST": host,
        "PORT": str(port),
        # scheduled runs are not part of oic-ai (the front door refuses their routes)
        "CRON_ENABLED": "false",
        "LOG_LEVEL": os.environ.get("LOG_LEVEL", "WARNING"),
        "LOG_VERBOSITY": os.environ.get("LOG_VERBOSITY", "standard"),
        "ENV_MODE": os.environ.get("ENV_MODE", "PRODUCTION"),
        "OTEL_TARGETS": "",
    }


def write_config(folder: Path) -> Path:
    """Write :func:`aegra_config` as ``aegra.json`` in ``folder``; its path."""
    path = folder / "aegra.json"
    path.write_text(json.dumps(aegra_config(), indent=2) + "\n", encoding="utf-8")
    return path


class RouteAuth:
    """Authenticate a custom route as langgraph-api does: ``scope["user"]``, or 401."""

    def __init__(self, app: Any) -> None:
        """Wrap one route's ASGI app."""
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Set ``scope["user"]`` from the bearer token (anonymous while no user exists)."""
        if scope["type"] == "http":
            import asyncio

            from langgraph_sdk import Auth
            from starlette.authentication import SimpleUser, UnauthenticatedUser

            from oic_ai.web.auth import user_for_header

            header = None
            for key, value in scope.get("headers") or ():
                if bytes(key).lower() == b"authorization":
                    header = bytes(value).decode("latin-1")
            try:
                user = await asyncio.to_thread(user_for_header, header)
            except Auth.exceptions.HTTPException as exc:
                body = json.dumps({"detail": str(exc.detail)}).encode()
                await send(
                    {
                        "type": "http.response.start",
                        "status": exc.status_code,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"www-authenticate", b"Bearer"),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
            identity = str(user.get("identity") or "")
            scope["user"] = SimpleUser(identity) if identity else UnauthenticatedUser()
        await self.app(scope, receive, send)


def _routes_app() -> Any:
    """The FastAPI app Aegra mounts as ``http.app``: our routes, ``/ok`` and ``/``."""
    from fastapi import FastAPI
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from oic_ai.web.app import create_app

    ours = create_app()
    fast = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)

    async def ok(_request: Any) -> JSONResponse:
        return JSONResponse({"ok": True})

    fast.router.routes.append(Route("/ok", ok, methods=["GET"]))
    # as on one server, "/" is a health check too (else Aegra answers it with its version)
    fast.router.routes.append(Route("/", ok, methods=["GET"]))
    for route in ours.routes:
        if isinstance(route, Route) and str(route.path).startswith("/api/"):
            route.app = RouteAuth(route.app)
        fast.router.routes.append(route)
    return fast


def own_routes() -> list[tuple[str, str]]:
    """Our Starlette app's routes as the front door lists them."""
    from oic_ai.web.api import api_routes

    return [(" ".join(sorted(set(r.methods or ()) - {"HEAD"})), r.path) for r in api_routes(None)]


def __getattr__(name: str) -> Any:
    """``routes_app`` (for Aegra) and ``app`` (for uvicorn), built on first use."""
    if name == "routes_app":
        value = _routes_app()
    elif name == "app":
        from aegra_api.main import app as aegra_app

        from oic_ai.web.front_door import FrontDoor

        value = FrontDoor(aegra_app, own_routes=own_routes())
    else:
        raise AttributeError(name)
    globals()[name] = value
    return value
