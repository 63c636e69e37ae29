"""The REST API under ``/api/v1/``: the CLI's services, over JSON.

Every route calls the same service function as the matching command, in a worker
thread (the services read files, SQLite and Chroma; the server's event loop must not
block), and answers with the command's ``--json`` shape. Errors are one line and a fix,
``{"error": "...", "fix": "..."}``, with 400 for bad input, 404 for an unknown name or
session, 409 when a template exists, 422 for an invalid template (with its findings under
``validation``) and 503 for a backend that is down or busy (retry).

Routes (see ``docs/architecture.md`` and the web contract):

- ``POST /api/v1/validate`` ``{"template"}``: the per-file object of ``validate --json``;
- ``GET /api/v1/search?q=&top_k=``: ``search --json``;
- ``GET /api/v1/templates``, ``GET /api/v1/templates/{name}``, ``POST /api/v1/templates``;
- ``POST /api/v1/packages/check`` ``{"template"}``: one entry of ``packages check --json``;
- ``POST /api/v1/summary`` ``{"template"}``: the page's structured view of a template
  (target, disk, packages, users, repositories, and the ``packages sync`` command with
  the composer's providerconfig for the target where the composer's config is found);
- ``GET /api/v1/sessions``, ``GET|PATCH|DELETE /api/v1/sessions/{id}``,
  ``POST /api/v1/sessions/{id}/fork``;
- ``GET /api/v1/build``: ``{"enabled", "running"}``; ``POST /api/v1/build``
  ``{"template", "boot"?}``: one build (``oic-ai build``) as server-sent events, ``stage``
  lines then one ``report`` (``build --json``) or ``error``. Off unless the server's
  settings name a composer (``ai.composer.path``); only users may build (403 on a server
  without users), one build at a time per server (409).
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from oic_ai.stores.errors import UserInputError
from oic_ai.web.auth import NOBODY, request_owner, require_own_session

if TYPE_CHECKING:
    from oic_ai.stores.settings import Settings

SettingsFactory = Callable[[], "Settings"]
Handler = Callable[[Request], Awaitable[Response]]

PREFIX = "/api/v1"
MAX_BODY_BYTES = 2 * 1024 * 1024  # a template is at most 1 MiB; JSON escaping adds some
MAX_TOP_K = 50
_log = logging.getLogger(__name__)


class BadRequest(UserInputError):
    """The request itself is wrong: not JSON, a field missing or of the wrong type."""


def error(status: int, problem: str, fix: str | None = None, **extra: Any) -> JSONResponse:
    """The API's error answer: ``{"error": one line, "fix": how}`` plus any extra fields."""
    body: dict[str, Any] = {"error": problem, "fix": fix or ""}
    body.update(extra)
    return JSONResponse(body, status_code=status)


def status_for(exc: UserInputError) -> int:
    """The HTTP status for a service's error."""
    from oic_ai.services.library import (
        InvalidTemplateError,
        TemplateExistsError,
    )
    from oic_ai.stores.session_lock import SessionBusyError
    from oic_ai.stores.template_library import TemplateNotFoundError
    from oic_ai.stores.template_output import LibraryNameError
    from oic_ai.web.rest import SessionNotFoundError

    if isinstance(exc, TemplateNotFoundError | SessionNotFoundError):
        return 404
    if isinstance(exc, TemplateExistsError | SessionBusyError):
        return 409
    if isinstance(exc, InvalidTemplateError | LibraryNameError):
        return 422
    if int(getattr(exc, "exit_code", 2)) == 3:  # busy or unreachable: retry
        return 503
    return 400


def error_for(exc: UserInputError) -> JSONResponse:
    """The error answer for a service's error (422 carries the validation report)."""
    from oic_ai.services.library import InvalidTemplateError

    extra: dict[str, Any] = {}
    if isinstance(exc, InvalidTemplateError):
        extra["validation"] = exc.report.to_json()
    problem = getattr(exc, "problem", None) or str(exc)
    return error(status_for(exc), problem, getattr(exc, "fix", None), **extra)


def _guarded(handler: Handler) -> Handler:
    """Turn a service's error into its JSON answer, and anything else into a one-line 500."""

    @functools.wraps(handler)
    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except UserInputError as exc:
            return error_for(exc)
        except Exception as exc:  # a bug or an unexpected failure: one line, logged in full
            _log.exception("%s %s failed", request.method, request.url.path)
            return error(500, f"the server failed ({type(exc).__name__})", "see the server's log")

    return run


async def json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object.

    Raises:
        BadRequest: the body is too large, not JSON, or not an object.
    """
    raw = await request.body()
    if len(raw) > MAX_BODY_BYTES:
        raise BadRequest("the request body is over 2 MiB", fix="send a smaller template")
    if not raw.strip():
        raise BadRequest("the request body is empty", fix="send a JSON object")
    try:
        value = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise BadRequest("the request body is not JSON", fix="send a JSON object") from None
    except RecursionError:  # the parser recurses once per level: [[[[...]]]] ends here
        raise BadRequest(
            "the request body is nested too deeply", fix="send a flat JSON object"
        ) from None
    if not isinstance(value, dict):
        raise BadRequest("the request body is not a JSON object", fix="send a JSON object")
    return value


def text_field(body: dict[str, Any], name: str, *, required: bool = True) -> str | None:
    """A string field of the body.

    Raises:
        BadRequest: it is missing (when required) or not a string.
    """
    value = body.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        what = "missing" if value is None else "not a string"
        raise BadRequest(f'"{name}" is {what}', fix=f'send {{"{name}": "..."}}')
    return value


def _int_param(raw: str | None, name: str, default: int, low: int, high: int) -> int:
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise BadRequest(f"{name}={raw!r} is not a number", fix=f"pass {name}={default}") from None
    if not low <= value <= high:
        raise BadRequest(f"{name}={value} is out of range", fix=f"use {low} to {high}")
    return value


def api_routes(settings: SettingsFactory | None = None) -> list[Route]:
    """The ``/api/v1`` routes, resolving settings with ``settings`` on each request.

    Args:
        settings: Returns the settings a request runs with; by default ``load_settings()``
            (``config.yaml`` and the environment, like the served graph).
    """

    def current() -> Settings:
        if settings is not None:
            return settings()
        from oic_ai.stores.settings import load_settings

        return load_settings()

    from oic_ai.web.rest import SearchPool

    searches = SearchPool()  # warm between requests; one per app

    async def call(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run ``function(settings, *args)`` in a worker thread."""

        def work() -> Any:
            return function(current(), *args, **kwargs)

        return await run_in_threadpool(work)

    async def validate(request: Request) -> Response:
        body = await json_body(request)
        text = text_field(body, "template") or ""
        source = text_field(body, "name", required=False) or "template.yml"
        from oic_ai.services.library import validate_template_text

        report = await run_in_threadpool(validate_template_text, text, source=source)
        return JSONResponse(report.to_json())

    async def search(request: Request) -> Response:
        params = request.query_params
        query = (params.get("q") or "").strip()
        if not query:
            raise BadRequest("q is empty", fix="pass q=what you are looking for")
        top_k = _int_param(params.get("top_k"), "top_k", 5, 1, MAX_TOP_K)
        filters = {key: params.get(key) for key in ("os", "dist", "arch", "image_type")}
        response = await call(searches.search, query, top_k=top_k, filters=filters)
        return JSONResponse(response.to_json())

    async def templates(request: Request) -> Response:
        from oic_ai.web.rest import catalog

        return JSONResponse({"templates": await call(catalog)})

    async def template(request: Request) -> Response:
        name = str(request.path_params["name"])
        from oic_ai.services.library import library_template, list_templates

        def read(settings: Settings) -> dict[str, Any]:
            text = library_template(settings, name)
            entry = next(e for e in list_templates(settings) if name in (e.name, e.path))
            return {"name": entry.name, "path": entry.path, "template": text}

        return JSONResponse(await call(read))

    async def save(request: Request) -> Response:
        body = await json_body(request)
        name = text_field(body, "name") or ""
        text = text_field(body, "template") or ""
        overwrite = body.get("overwrite", False)
        if not isinstance(overwrite, bool):
            raise BadRequest('"overwrite" is not true or false', fix='send "overwrite": true')
        from oic_ai.web.rest import save_named_template

        saved = await call(save_named_template, name, text, overwrite=overwrite)
        return JSONResponse(saved.to_json(), status_code=201)

    async def packages_check(request: Request) -> Response:
        body = await json_body(request)
        text = text_field(body, "template") or ""
        path = text_field(body, "name", required=False)
        from oic_ai.services.packages import check_template_text

        report = await call(check_template_text, text, path=path)
        return JSONResponse(report.to_json())

    async def summary(request: Request) -> Response:
        body = await json_body(request)
        text = text_field(body, "template") or ""
        from oic_ai.web.page import template_summary

        return JSONResponse(await run_in_threadpool(template_summary, text))

    async def sessions(request: Request) -> Response:
        limit = _int_param(request.query_params.get("limit"), "limit", 0, 0, 100_000)
        from oic_ai.services.sessions import list_sessions

        rows = await call(list_sessions, limit or None, owner=request_owner(request))
        return JSONResponse({"sessions": [row.to_json() for row in rows]})

    async def session(request: Request) -> Response:
        session_id = str(request.path_params["session"])
        from oic_ai.web import rest

        await call(require_own_session, session_id, request_owner(request))
        if request.method == "GET":
            return JSONResponse(await call(rest.session_detail, session_id))
        if request.method == "DELETE":
            await call(rest.remove_session, session_id)
            return Response(status_code=204)
        body = await json_body(request)
        title = text_field(body, "title") or ""
        summary = await call(rest.rename_session, session_id, title)
        return JSONResponse(summary.to_json())

    async def fork(request: Request) -> Response:
        session_id = str(request.path_params["session"])
        await call(require_own_session, session_id, request_owner(request))
        body = await json_body(request)
        turn = body.get("turn")
        if not isinstance(turn, int) or isinstance(turn, bool) or turn < 1:
            raise BadRequest('"turn" is not a turn number', fix='send {"turn": 1} or later')
        from oic_ai.web.rest import fork_at

        outcome = await call(fork_at, session_id, turn)
        return JSONResponse(outcome.to_json(), status_code=201)

    build_info, build = build_routes(current)

    table: list[tuple[str, Handler, list[str]]] = [
        ("/build", build_info, ["GET"]),
        ("/build", build, ["POST"]),
        ("/validate", validate, ["POST"]),
        ("/search", search, ["GET"]),
        ("/templates", templates, ["GET"]),
        ("/templates", save, ["POST"]),
        ("/templates/{name:path}", template, ["GET"]),
        ("/packages/check", packages_check, ["POST"]),
        ("/summary", summary, ["POST"]),
        ("/sessions", sessions, ["GET"]),
        ("/sessions/{session}", session, ["GET", "PATCH", "DELETE"]),
        ("/sessions/{session}/fork", fork, ["POST"]),
    ]
    return [
        Route(PREFIX + path, _guarded(handler), methods=methods) for path, handler, methods in table
    ]


def build_routes(current: Callable[[], Settings]) -> tuple[Handler, Handler]:
    """``GET`` and ``POST /api/v1/build``: one build at a time for this app (this server)."""
    import asyncio
    import threading

    from starlette.responses import StreamingResponse

    running = threading.Lock()

    async def info(request: Request) -> Response:
        settings = await run_in_threadpool(current)
        return JSONResponse({"enabled": bool(settings.composer_path), "running": running.locked()})

    async def start(request: Request) -> Response:
        settings = await run_in_threadpool(current)
        if not settings.composer_path:
            return error(404, "builds are off on this server", "set ai.composer.path in its config")
        if request_owner(request) in (None, NOBODY):
            return error(
                403,
                "only users may start builds",
                "add a user (oic-ai users add NAME) and send its token",
            )
        body = await json_body(request)
        text = text_field(body, "template") or ""
        boot = body.get("boot", False)
        if not isinstance(boot, bool):
            raise BadRequest('"boot" is not true or false', fix='send "boot": true')
        if not running.acquire(blocking=False):
            return error(409, "a build is running on this server", "wait for it to finish")
        loop = asyncio.get_running_loop()
        events: asyncio.Queue[tuple[str, dict[str, Any]] | None] = asyncio.Queue()

        def put(item: tuple[str, dict[str, Any]] | None) -> None:
            loop.call_soon_threadsafe(events.put_nowait, item)

        def work() -> None:
            from oic_ai.services.build import BuildRequest, build_image

            try:
                report = build_image(
                    settings,
                    BuildRequest(text=text, boot=boot),
                    lambda line: put(("stage", {"line": line})),
                )
                put(("report", report.to_json()))
            except UserInputError as exc:
                problem = getattr(exc, "problem", None) or str(exc)
                put(("error", {"error": problem, "fix": exc.fix or "", "status": status_for(exc)}))
            except Exception as exc:  # a bug: one line, logged in full
                _log.exception("build failed")
                put(("error", {"error": f"the build failed ({type(exc).__name__})", "fix": ""}))
            finally:
                running.release()
                put(None)

        threading.Thread(target=work, name="oic-ai-build", daemon=True).start()

        async def stream() -> Any:
            while (item := await events.get()) is not None:
                kind, data = item
                yield f"event: {kind}\ndata: {json.dumps(data)}\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream")

    return info, start
