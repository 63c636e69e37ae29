"""The Starlette app mounted beside the LangGraph API: the page at ``/ui/``, REST at ``/api/v1/``.

``langgraph.json`` names it under ``"http": {"app": "oic_ai.web.app:app"}``, and
``oic-ai serve`` passes the same module path, so ``langgraph dev`` and ``oic-ai serve``
serve the same routes in one process with the threads and runs API.

The page's files come from ``static/`` beside this module (they ship in the wheel).
Every answer under ``/ui/`` says ``Cache-Control: no-cache``, so a browser revalidates
(ETag, 304) and never runs a stale script against a newer page.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.responses import RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from oic_ai.web.api import api_routes
from oic_ai.web.front_door import DoorPolicy, FrontDoor

if TYPE_CHECKING:
    from os import PathLike, stat_result

    from starlette.requests import Request
    from starlette.types import Scope

    from oic_ai.stores.settings import Settings

STATIC_DIR = Path(__file__).resolve().parent / "static"
"""The page's files: index.html, app.js, app.css, ... (owned by the UI)."""

# Explicit types, so a machine without /etc/mime.types (or with odd entries) serves the
# page the same way; browsers refuse a module script served as text/plain.
_TYPES = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".css": "text/css",
    ".json": "application/json",
    ".map": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
    ".txt": "text/plain",
}
for _suffix, _type in _TYPES.items():
    mimetypes.add_type(_type, _suffix)


class UiFiles(StaticFiles):
    """Static files that a browser always revalidates (``Cache-Control: no-cache``)."""

    def file_response(
        self,
        full_path: PathLike[str] | str,
        stat_result: stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        """The file (or 304), marked ``no-cache`` and ``nosniff``."""
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response


async def _to_ui(request: Request) -> Response:
    return RedirectResponse(url="ui/", status_code=307)  # relative: works under a prefix


def create_app(
    settings: Callable[[], Settings] | None = None, *, static_dir: Path | None = None
) -> Starlette:
    """Build the app.

    Args:
        settings: Returns the settings each request runs with; by default they are
            resolved per request from ``config.yaml`` and the environment (as the served
            graph does), so the REST API and the graph agree.
        static_dir: The page's folder; ``static/`` beside this module by default.
    """
    folder = static_dir or STATIC_DIR
    api = api_routes(settings)
    routes: list[Any] = [
        *api,
        Route("/ui", _to_ui, methods=["GET", "HEAD"]),
        Mount("/ui", app=UiFiles(directory=folder, html=True, check_dir=False), name="ui"),
    ]
    own = [(" ".join(sorted(set(r.methods or ()) - {"HEAD"})), r.path) for r in api]
    policy = None if settings is None else (lambda: DoorPolicy.from_settings(settings()))
    door = Middleware(FrontDoor, own_routes=own, policy=policy)
    return Starlette(routes=routes, middleware=[door])


app = create_app()
"""The app ``langgraph.json`` mounts (``oic_ai.web.app:app``)."""
