"""The server's front door: one ASGI middleware in front of every route, closed by default.

``oic_ai.web.app:app`` carries it, and langgraph-api puts a custom app's middleware
outside its own (before its CORS, logging and authentication), so it sees every request
of ``oic-ai serve`` and of ``langgraph dev`` with our ``langgraph.json``. In order:

1. ``Host`` must name this server: ``localhost``, the address the request came in on, or
   one of ``ai.serve.allowed_hosts``; anything else (a DNS-rebinding name) gets 421.
2. Only the routes of :mod:`oic_ai.web.routes` and the app's own are answered; 404 for the
   rest (the in-memory runtime's ``/internal/...`` and ``/deploy`` among them), and every
   WebSocket is closed.
3. A request whose ``Origin`` is another site is refused (403), preflights included,
   unless the origin is allowed (``--allow-origin``, ``ai.serve.allowed_origins``). Only
   then does an answer carry CORS headers (LangGraph's ``*`` is taken off every answer),
   and only then is a private-network preflight granted.
4. With no users, a request from another machine is refused (403) unless the server runs
   with ``--no-auth``; with users, LangGraph's meta routes (``/info``, ``/metrics``,
   ``/docs``, ``/openapi.json``) need a user's token like every other route.
5. A request body over ``ai.serve.max_body_mb`` (8 MiB) gets 413 before any route reads it.

In-process calls of langgraph-api's own loopback client (``root_path`` ``/noauth``, which no
network request can set) pass untouched.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from oic_ai.web.routes import BEHIND_TOKEN, OPEN, SERVED, RouteTable, Rule

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

    from oic_ai.stores.settings import Settings

NO_AUTH_ENV = "OIC_AI_SERVE_NO_AUTH"
"""Set by ``oic-ai serve --no-auth``: serve other machines with no users, on purpose."""
LOOPBACK_BYPASS = "/noauth"
EXPOSED = "x-pagination-total, x-pagination-next, content-location"
ADD_USER = "add a user on the server: oic-ai users add NAME"


@dataclass(frozen=True)
class DoorPolicy:
    """What the front door lets in beyond the defaults."""

    allowed_origins: frozenset[str] = frozenset()
    allowed_hosts: frozenset[str] = frozenset()
    max_body_bytes: int = 8 * 1024 * 1024
    no_auth: bool = False

    @classmethod
    def from_settings(
        cls, settings: Settings, environ: Mapping[str, str] | None = None
    ) -> DoorPolicy:
        """The policy of ``settings``' ``serve_*`` fields (and ``$OIC_AI_SERVE_NO_AUTH``)."""
        env = os.environ if environ is None else environ
        return cls(
            allowed_origins=frozenset(normal_origin(o) for o in settings.serve_allowed_origins),
            allowed_hosts=frozenset(host_name(h) for h in settings.serve_allowed_hosts),
            max_body_bytes=int(settings.serve_max_body_mb) * 1024 * 1024,
            no_auth=env.get(NO_AUTH_ENV, "") == "1",
        )


def normal_origin(origin: str) -> str:
    """An origin as browsers send it: ``scheme://host[:port]``, lower case, no slash."""
    return origin.strip().rstrip("/").lower()


def host_name(host_header: str) -> str:
    """The name part of a ``Host`` header: no port, no brackets, no trailing dot."""
    text = host_header.strip().lower()
    if text.startswith("["):
        return text[1 : text.find("]")] if "]" in text else text[1:]
    if text.count(":") == 1:
        text = text.partition(":")[0]
    return text.rstrip(".")


def is_loopback(address: str | None) -> bool:
    """Whether ``address`` is a loopback IP address (or ``localhost``)."""
    if not address:
        return False
    if address == "localhost":
        return True
    try:
        return ipaddress.ip_address(address.strip("[]")).is_loopback
    except ValueError:
        return False


def is_remote(address: str) -> bool:
    """Whether a client's address is another machine's IP (a Unix socket's is not)."""
    try:
        return not ipaddress.ip_address(address.strip("[]")).is_loopback
    except ValueError:
        return False


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or ():
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


async def _answer(
    send: Send, status: int, body: dict[str, Any], headers: Iterable[tuple[bytes, bytes]] = ()
) -> None:
    payload = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})


async def _not_found(send: Send) -> None:
    await _answer(send, 404, {"detail": "Not Found"})


class BodyTooLarge(Exception):
    """The request's body went past the cap."""


class FrontDoor:
    """The ASGI middleware described in the module doc."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        own_routes: Iterable[Rule] = (),
        policy: Callable[[], DoorPolicy] | None = None,
    ) -> None:
        """Wrap ``app``; ``own_routes`` are the app's routes, served beside :data:`SERVED`."""
        self.app = app
        self.open = RouteTable.of(OPEN)
        self.behind_token = RouteTable.of(BEHIND_TOKEN)
        self.served = RouteTable.of((*SERVED, *own_routes))
        self._policy_factory = policy
        self._policy: DoorPolicy | None = None

    async def policy(self) -> DoorPolicy:
        """The policy, read once (settings touch the disk: off the event loop)."""
        if self._policy is None:
            factory = self._policy_factory or _policy_from_settings
            self._policy = await asyncio.to_thread(factory)
        return self._policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the request, then pass it on (or answer it here)."""
        if scope["type"] == "lifespan" or scope.get("root_path") == LOOPBACK_BYPASS:
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] != "http":
            return
        policy = await self.policy()
        host = _header(scope, b"host")
        if host is None or not self._host_allowed(host_name(host), scope, policy):
            await _answer(
                send,
                421,
                {
                    "error": f"this server does not answer for host {host!r}",
                    "fix": "use the address it listens on, or list the name under "
                    "ai.serve.allowed_hosts",
                },
            )
            return
        method = str(scope.get("method", "GET")).upper()
        path = str(scope.get("path", ""))
        origin = _header(scope, b"origin")
        foreign = origin is not None and not _same_origin(origin, host)
        allowed_origin = foreign and normal_origin(origin or "") in policy.allowed_origins
        request_method = _header(scope, b"access-control-request-method")
        if method == "OPTIONS" and origin is not None and request_method is not None:
            await self._preflight(send, scope, origin, request_method.upper(), path, policy)
            return
        kind = self._kind(method, path)
        if kind is None:
            await _not_found(send)
            return
        if foreign and not allowed_origin:
            await _answer(
                send,
                403,
                {
                    "error": f"requests from {origin} are not allowed on this server",
                    "fix": "serve with --allow-origin ORIGIN (or ai.serve.allowed_origins) "
                    "to let that site in",
                },
            )
            return
        refusal = await self._who(scope, kind, policy)
        if refusal is not None:
            status, body, headers = refusal
            await _answer(send, status, body, headers)
            return
        try:
            receive = await self._capped(scope, receive, policy.max_body_bytes)
        except BodyTooLarge:
            mib = policy.max_body_bytes / (1024 * 1024)
            await _answer(
                send,
                413,
                {
                    "error": f"the request body is over {mib:g} MiB",
                    "fix": "send less, or raise ai.serve.max_body_mb on the server",
                },
            )
            return
        cors = origin if allowed_origin else None
        await self.app(scope, receive, _cors_send(send, cors))

    def _kind(self, method: str, path: str) -> str | None:
        """``open``, ``token`` or ``served`` for a request on our lists; None otherwise."""
        if self.open.match(method, path):
            return "open"
        if self.behind_token.match(method, path):
            return "token"
        if self.served.match(method, path):
            return "served"
        return None

    @staticmethod
    def _host_allowed(name: str, scope: Scope, policy: DoorPolicy) -> bool:
        server = scope.get("server")
        bound = host_name(str(server[0])) if server else None
        return name in ("localhost", bound) or name in policy.allowed_hosts

    async def _preflight(
        self, send: Send, scope: Scope, origin: str, method: str, path: str, policy: DoorPolicy
    ) -> None:
        """Answer a CORS preflight: granted only for an allowed origin and a served route."""
        if self._kind(method, path) is None:
            await _not_found(send)
            return
        if normal_origin(origin) not in policy.allowed_origins:
            await _answer(
                send,
                403,
                {
                    "error": f"requests from {origin} are not allowed on this server",
                    "fix": "serve with --allow-origin ORIGIN (or ai.serve.allowed_origins)",
                },
            )
            return
        headers = [
            (b"access-control-allow-origin", origin.encode("latin-1")),
            (b"access-control-allow-methods", method.encode("latin-1")),
            (b"access-control-max-age", b"600"),
            (b"vary", b"Origin"),
        ]
        asked = _header(scope, b"access-control-request-headers")
        if asked:
            headers.append((b"access-control-allow-headers", asked.encode("latin-1")))
        if _header(scope, b"access-control-request-private-network") == "true":
            headers.append((b"access-control-allow-private-network", b"true"))
        await send({"type": "http.response.start", "status": 204, "headers": headers})
        await send({"type": "http.response.body", "body": b""})

    async def _who(
        self, scope: Scope, kind: str, policy: DoorPolicy
    ) -> tuple[int, dict[str, Any], list[tuple[bytes, bytes]]] | None:
        """Refuse another machine on a server with no users, and meta routes without a token."""
        client = scope.get("client")
        remote = client is not None and is_remote(str(client[0]))
        if kind == "open" or not (remote or kind == "token"):
            return None
        from oic_ai.web.auth import has_users, user_for_header

        users = await asyncio.to_thread(has_users)
        if not users:
            if remote and not policy.no_auth:
                return (
                    403,
                    {
                        "error": "this server has no users, so it answers only its own machine",
                        "fix": ADD_USER,
                    },
                    [],
                )
            return None
        if kind != "token":
            return None  # LangGraph's authentication checks the token of the rest
        from langgraph_sdk import Auth

        try:
            await asyncio.to_thread(user_for_header, _header(scope, b"authorization"))
        except Auth.exceptions.HTTPException as exc:
            return (
                exc.status_code,
                {"error": str(exc.detail), "fix": ADD_USER},
                [(b"www-authenticate", b"Bearer")],
            )
        return None

    @staticmethod
    async def _capped(scope: Scope, receive: Receive, limit: int) -> Receive:
        """Read the whole body up to ``limit`` bytes and replay it; over it, BodyTooLarge."""
        length = _header(scope, b"content-length")
        if length is not None and length.strip().isdigit() and int(length) > limit:
            raise BodyTooLarge
        if scope.get("method") in ("GET", "HEAD") and length is None:
            return receive
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away: let the app see it
                queued: list[Message] = [message]
                break
            chunk = bytes(message.get("body", b""))
            size += len(chunk)
            if size > limit:
                raise BodyTooLarge
            chunks.append(chunk)
            if not message.get("more_body", False):
                queued = [{"type": "http.request", "body": b"".join(chunks), "more_body": False}]
                break

        async def replay() -> Message:
            if queued:
                return queued.pop(0)
            return await receive()

        return replay


def _same_origin(origin: str, host: str) -> bool:
    """Whether ``Origin`` names the host the request was sent to (any scheme)."""
    netloc = urlsplit(origin.strip()).netloc.lower()
    return bool(netloc) and netloc == host.strip().lower()


def _cors_send(send: Send, origin: str | None) -> Send:
    """``send`` that takes every CORS header off an answer, then adds ours for ``origin``."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = [
                (key, value)
                for key, value in message.get("headers", ())
                if not bytes(key).lower().startswith(b"access-control-")
            ]
            if origin is not None:
                headers += [
                    (b"access-control-allow-origin", origin.encode("latin-1")),
                    (b"access-control-expose-headers", EXPOSED.encode()),
                    (b"vary", b"Origin"),
                ]
            message = {**message, "headers": headers}
        await send(message)

    return sending


def _policy_from_settings() -> DoorPolicy:
    from oic_ai.stores.settings import load_settings

    return DoorPolicy.from_settings(load_settings())
