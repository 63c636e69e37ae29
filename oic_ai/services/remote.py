"""The command line as a client of an oic-ai server (``OIC_AI_SERVER_URL``).

Turns go through the LangGraph API with ``langgraph-sdk``: the session's thread is
created with ``if_exists="do_nothing"``, the run is streamed (``updates``, so progress
names each node as it finishes, and ``values``: the result is the run's own last state,
not the thread's, which another client's queued run may already have moved on).
Replays read ``threads.get_history``. The session index (list, show, fork, delete) is
the server's REST API (``/api/v1/sessions...``), which calls the same services as a
local run. Every result is the same typed object a local run returns
(:class:`~oic_ai.graph.agent.TurnResult`, :class:`SessionSummary`,
:class:`~oic_ai.services.session_history.SessionView`, ...), so the renderers and
``--json`` are shared.

The token travels only in the ``Authorization`` header. It is registered as a secret
(by :class:`~oic_ai.stores.settings.Settings`), so no error text can carry it.

Errors are one line naming the server and the fix: :class:`ServerUnreachableError`
(exit 3) when it cannot be reached or its 5xx answers keep coming, :class:`TokenRefusedError`
(exit 2) on 401/403, and :class:`UserInputError` (exit 2) for what the server calls bad
input or unknown.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from oic_ai.stores.errors import UserInputError
from oic_ai.stores.session_store import LIST_HINT, SessionSummary

if TYPE_CHECKING:
    from oic_ai.graph.agent import TurnResult
    from oic_ai.services.session_history import ForkOutcome, SessionReplay, SessionView
    from oic_ai.stores.settings import Settings

GRAPH_ID = "oic-ai"
API = "/api/v1"
TOKEN_FIX = "set OIC_AI_TOKEN to a token from `oic-ai users add` on the server"
READ_ATTEMPTS = 3
"""How many times a read is sent while the server answers 5xx (0.5 s, 1 s apart)."""
HISTORY_PAGE = 500
OnStep = Callable[[str, dict[str, Any]], None]


class ServerUnreachableError(UserInputError):
    """The server cannot be reached, or keeps failing (5xx): retry later (exit 3)."""

    exit_code = 3


class TokenRefusedError(UserInputError):
    """The server refused the token, or there was none (exit 2)."""


class NotFoundOnServerError(UserInputError):
    """The server has no such session (for this user)."""


def summary_from_json(data: dict[str, Any]) -> SessionSummary:
    """A session summary back from its ``sessions list --json`` shape."""

    def epoch(value: Any) -> float:
        if isinstance(value, int | float):
            return float(value)
        return datetime.fromisoformat(str(value).replace("Z", "+00:00")).timestamp()

    return SessionSummary(
        id=str(data["id"]),
        title=str(data.get("title") or ""),
        created=epoch(data["created"]),
        updated=epoch(data["updated"]),
        turns=int(data.get("turns") or 0),
        template=data.get("template"),
        status=data.get("status"),
        provider=data.get("provider"),
        request=data.get("request"),
    )


@dataclass
class RemoteServer:
    """One oic-ai server, addressed with a URL and (when it has users) a bearer token.

    Attributes:
        url: The server's base URL, e.g. ``http://team-host:8123``.
        token: The bearer token; never printed, logged or put in JSON.
        timeout: Seconds to wait to connect; a turn may run for minutes.
    """

    url: str
    token: str | None = field(default=None, repr=False)
    timeout: float = 10.0
    _http: Any = field(default=None, repr=False)
    _client: Any = field(default=None, repr=False)

    @classmethod
    def from_settings(cls, settings: Settings) -> RemoteServer:
        """The server ``settings.server_url`` names, with ``settings.token``.

        Raises:
            UserInputError: the URL is not an http(s) URL.
        """
        raw = (settings.server_url or "").strip().rstrip("/")
        url = raw if "://" in raw else f"http://{raw}"
        if not raw or not url.startswith(("http://", "https://")):
            raise UserInputError(
                f"{raw!r} is not a server URL", fix="set OIC_AI_SERVER_URL to http://HOST:PORT"
            )
        return cls(url, settings.token or None)

    # --- transport ---------------------------------------------------------------------

    @property
    def http(self) -> Any:
        """The ``httpx`` client every request goes through (created on first use).

        ``get_sync_client`` would retry a refused connection five times (about 10 s); one
        retry is enough to ride out a restart, and a dead host answers fast.
        """
        if self._http is None:
            import httpx

            headers = {"User-Agent": "oic-ai"}
            if self.token:
                headers["Authorization"] = f"Bearer {self.token}"
            self._http = httpx.Client(
                base_url=self.url,
                transport=httpx.HTTPTransport(retries=1),
                # a turn may take minutes; connecting to a dead host must not
                timeout=httpx.Timeout(connect=self.timeout, read=600, write=60, pool=self.timeout),
                headers=headers,
            )
        return self._http

    @property
    def client(self) -> Any:
        """The ``langgraph-sdk`` sync client over :attr:`http`, for threads and runs.

        Imported only by what needs it: the SDK costs about 0.4 s to import, which the
        REST-only commands (``sessions list|show|fork|delete``) do not pay.
        """
        if self._client is None:
            from langgraph_sdk.client import SyncLangGraphClient

            self._client = SyncLangGraphClient(self.http)
        return self._client

    def close(self) -> None:
        """Close the HTTP connections."""
        if self._http is not None:
            self._http.close()
        self._http = None
        self._client = None

    def __enter__(self) -> RemoteServer:
        """Use the server as a context manager that closes its connections."""
        return self

    def __exit__(self, *exc: object) -> None:
        """Close the connections."""
        self.close()

    def call(self, action: Callable[[], Any], *, what: str, read: bool = False) -> Any:
        """Run one SDK or HTTP call, turning every failure into a one-line error.

        Args:
            action: The call.
            what: What it is about, for a 404 (``session 'abc'``).
            read: The call changes nothing, so a 5xx answer is tried again.

        Raises:
            ServerUnreachableError: no connection, a timeout, or 5xx answers that persist.
            TokenRefusedError: 401 or 403.
            NotFoundOnServerError: 404.
            UserInputError: any other refusal (400, 409, 422).
        """
        import httpx

        attempts = READ_ATTEMPTS if read else 1
        for attempt in range(1, attempts + 1):
            try:
                return action()
            except httpx.TransportError as exc:
                raise ServerUnreachableError(
                    f"cannot reach the oic-ai server at {self.url} ({_transport_reason(exc)})",
                    fix="start it with `oic-ai serve` there, or correct OIC_AI_SERVER_URL "
                    "(--server); unset it to work locally",
                ) from None
            except httpx.HTTPStatusError as exc:  # the SDK's APIStatusError is one too
                status = exc.response.status_code
                if status >= 500 and attempt < attempts:
                    time.sleep(0.5 * attempt)
                    continue
                raise self._refusal(status, _detail(_body(exc)), what) from None
        raise AssertionError("unreachable")  # pragma: no cover

    def _refusal(self, status: int, detail: str, what: str) -> UserInputError:
        where = f"the oic-ai server at {self.url}"
        if status == 401:
            state = "refused the token" if self.token else "needs a token"
            return TokenRefusedError(f"{where} {state} (401)", fix=TOKEN_FIX)
        if status == 403:
            return TokenRefusedError(
                f"{where} does not allow this for your token (403: {detail})", fix=TOKEN_FIX
            )
        if status == 404:
            return NotFoundOnServerError(f"no {what} on {where}", fix=LIST_HINT)
        if status >= 500:
            return ServerUnreachableError(
                f"{where} keeps failing ({status}: {detail})",
                fix="try again later; the server's log says why",
            )
        if status == 409:
            return ServerUnreachableError(
                f"{where} is busy with {what} (409: {detail})", fix="try again when it finishes"
            )
        return UserInputError(f"{where} refused the request ({status}: {detail})")

    def rest(self, method: str, path: str, *, what: str, body: Any = None) -> Any:
        """Call the REST API (``/api/v1`` + ``path``); its JSON answer, or None for 204."""

        def send() -> Any:
            response = self.http.request(method, API + path, json=body)
            response.raise_for_status()
            return response.json() if response.content else None

        return self.call(send, what=what, read=method == "GET")

    # --- the session index -------------------------------------------------------------

    def list_sessions(self, limit: int | None = None) -> list[SessionSummary]:
        """Sessions, newest first (``GET /api/v1/sessions``)."""
        path = "/sessions" + (f"?limit={max(int(limit), 0)}" if limit else "")
        if limit is not None and limit <= 0:
            return []
        answer = self.rest("GET", path, what="session list")
        return [summary_from_json(row) for row in answer.get("sessions") or []]

    def find_session(self, id_or_prefix: str) -> SessionSummary:
        """The session with this id, or the one whose id starts so (as locally).

        Raises:
            UserInputError: no session, or several, match.
        """
        key = id_or_prefix.strip()
        if not key:
            raise UserInputError("a session id is required", fix=LIST_HINT)
        rows = self.list_sessions()
        exact = [row for row in rows if row.id == key]
        found = exact or [row for row in rows if row.id.startswith(key)]
        if not found:
            raise NotFoundOnServerError(
                f"no session {key!r} on the oic-ai server at {self.url}", fix=LIST_HINT
            )
        if len(found) > 1:
            shown = ", ".join(row.id[: len(key) + 4] for row in found[:5])
            raise UserInputError(
                f"{key!r} matches several sessions ({shown}{', …' if len(found) > 5 else ''})",
                fix=f"give more of the id; {LIST_HINT}",
            )
        return found[0]

    def show_session(self, session_id: str) -> SessionView:
        """A session's current template and conversation (``GET /api/v1/sessions/ID``)."""
        from oic_ai.services.session_history import SessionView

        summary = self.find_session(session_id)
        answer = self.rest("GET", f"/sessions/{quote(summary.id)}", what=f"session {summary.id}")
        return SessionView(summary_from_json(answer), dict(answer.get("state") or {}))

    def fork_session(self, session_id: str, turn: int) -> ForkOutcome:
        """A new session from a session's turn (``POST /api/v1/sessions/ID/fork``)."""
        from oic_ai.services.session_history import ForkOutcome

        source = self.find_session(session_id)
        answer = self.rest(
            "POST",
            f"/sessions/{quote(source.id)}/fork",
            what=f"session {source.id}",
            body={"turn": turn},
        )
        created = summary_from_json({**answer, "id": answer.get("session", answer.get("id"))})
        return ForkOutcome(source, created, turn)

    def delete_session(self, session_id: str) -> SessionSummary:
        """Delete a session and its checkpoints (``DELETE /api/v1/sessions/ID``)."""
        summary = self.find_session(session_id)
        self.rest("DELETE", f"/sessions/{quote(summary.id)}", what=f"session {summary.id}")
        return summary

    def replay_session(self, session_id: str) -> SessionReplay:
        """Every turn of a session, from the thread's checkpoint history on the server."""
        from oic_ai.services.session_history import SessionReplay, replay

        summary = self.find_session(session_id)
        return SessionReplay(summary, replay(_HistoryGraph(self), summary.id))

    def history(self, thread_id: str) -> Iterator[Any]:
        """The thread's snapshots, newest first, shaped like LangGraph's ``StateSnapshot``."""
        threads = self.client.threads
        before: Any = None
        while True:
            cursor = before

            def read_page() -> Any:
                return threads.get_history(thread_id, limit=HISTORY_PAGE, before=cursor)

            page = self.call(read_page, what=f"session {thread_id}", read=True)
            for state in page:
                yield _snapshot(state)
            if len(page) < HISTORY_PAGE:
                return
            before = page[-1]["checkpoint"]

    # --- turns -------------------------------------------------------------------------

    def run_turn(
        self,
        request: str,
        session: str | None = None,
        *,
        on_step: OnStep | None = None,
        context: dict[str, Any] | None = None,
    ) -> TurnResult:
        """Run one turn on the server and read its result back, as ``TemplateAgent`` does.

        Args:
            request: What the user wants, in words.
            session: The session to continue; a new one (a fresh UUID) when None.
            on_step: Called with ``(node, partial update)`` as each node finishes.
            context: Run context (``provider``, ``generation_mode``) from the flags.
        """
        from oic_ai.graph.agent import TurnResult

        if not request.strip():
            raise UserInputError("the request is empty", fix="say what the image should be")
        session = session or str(uuid.uuid4())
        what = f"session {session}"
        threads, runs = self.client.threads, self.client.runs
        self.call(
            lambda: threads.create(thread_id=session, if_exists="do_nothing", graph_id=GRAPH_ID),
            what=what,
        )
        payload = {"messages": [{"role": "user", "content": request}]}
        # This run's own state (its output keys, all a result reads), as it streams:
        # reading the thread after the run could return a later turn's, since another
        # client's run may start the moment ours ends.
        ours: dict[str, Any] = {}
        paused: list[Any] = []

        def stream() -> None:
            for part in runs.stream(
                session,
                GRAPH_ID,
                input=payload,
                stream_mode=["updates", "values"],
                context=context or None,
            ):
                if part.event == "error":
                    data = part.data if isinstance(part.data, dict) else {"message": part.data}
                    message = data.get("message") or data.get("error") or "unknown error"
                    raise ServerUnreachableError(
                        f"the oic-ai server at {self.url} failed the turn ({message})",
                        fix="see the server's log; try again",
                    )
                data = part.data if isinstance(part.data, dict) else {}
                if "__interrupt__" in data:
                    paused[:] = list(data["__interrupt__"] or ())
                if part.event == "values" and set(data) - {"__interrupt__"}:
                    ours.clear()
                    ours.update(data)
                if on_step is not None and part.event.startswith("updates"):
                    for node, update in data.items():
                        if not str(node).startswith("__"):
                            on_step(str(node), update if isinstance(update, dict) else {})

        self.call(stream, what=what)
        if ours:
            values, pending = ours, paused
        else:  # a run that streamed no state (it did nothing): the thread's
            state = self.call(lambda: threads.get_state(session), what=what, read=True)
            values, pending = dict(state.get("values") or {}), list(state.get("interrupts") or ())
        values = {**values, "messages": [_message(m) for m in values.get("messages") or []]}
        interrupts = tuple(
            SimpleNamespace(value=item.get("value") if isinstance(item, dict) else item)
            for item in pending
        )
        return TurnResult.from_state(session, values, interrupts)

    def state(self, session: str) -> dict[str, Any]:
        """The session's current state values (empty for a thread without state)."""
        try:
            state = self.call(
                lambda: self.client.threads.get_state(session), what=f"session {session}", read=True
            )
        except NotFoundOnServerError:
            return {}
        return dict(state.get("values") or {})

    def current_template(self, session: str) -> str | None:
        """The session's current template text."""
        value = self.state(session).get("template")
        return str(value) if value else None

    def undo(self, session: str, *, context: dict[str, Any] | None = None) -> str | None:
        """Take back the last change as a new turn (as ``TemplateAgent.undo``)."""
        from oic_ai.graph.agent import undone_template

        return undone_template(self.run_turn("undo", session, context=context))


class _HistoryGraph:
    """What :func:`~oic_ai.services.session_history.replay` reads, over the server."""

    def __init__(self, server: RemoteServer) -> None:
        self.server = server

    def get_state_history(self, config: dict[str, Any]) -> Iterator[Any]:
        return self.server.history(str(config["configurable"]["thread_id"]))


def _snapshot(state: dict[str, Any]) -> SimpleNamespace:
    def config(checkpoint: Any) -> dict[str, Any] | None:
        if not checkpoint or not checkpoint.get("checkpoint_id"):
            return None
        return {"configurable": {"checkpoint_id": checkpoint["checkpoint_id"]}}

    return SimpleNamespace(
        values=state.get("values") or {},
        next=tuple(state.get("next") or ()),
        config=config(state.get("checkpoint")),
        metadata=state.get("metadata") or {},
        created_at=state.get("created_at"),
        parent_config=config(state.get("parent_checkpoint")),
    )


def _message(message: Any) -> Any:
    """A served message (a dict) with the ``type`` and ``content`` attributes results read."""
    if not isinstance(message, dict):
        return message
    kind = message.get("type") or {"user": "human", "assistant": "ai"}.get(
        str(message.get("role")), str(message.get("role"))
    )
    return SimpleNamespace(type=kind, content=message.get("content", ""))


def _body(exc: Any) -> Any:
    """A refusal's body: the SDK's parsed one, else the response's JSON or text."""
    body = getattr(exc, "body", None)
    if body is not None:
        return body
    try:
        exc.response.read()
        return exc.response.json()
    except Exception:  # noqa: BLE001 - not JSON, or a stream already closed
        try:
            return exc.response.text
        except Exception:  # noqa: BLE001
            return ""


def _detail(body: Any) -> str:
    """The one-line reason in a refusal's body (``error`` of /api/v1, ``detail`` of LangGraph)."""
    if isinstance(body, dict):
        text = body.get("error") or body.get("detail") or body.get("message") or ""
        fix = body.get("fix")
        text = f"{text}; {fix}" if fix and text else str(text)
    else:
        text = str(body or "")
    line = " ".join(str(text).split())
    return line[:300] or "no reason given"


def _transport_reason(exc: Exception) -> str:
    import httpx

    if isinstance(exc, httpx.TimeoutException):
        return "timed out"
    if isinstance(exc, httpx.ConnectError):
        return "connection refused"
    return type(exc).__name__


class RemoteSessionIndex:
    """The ``get``/``latest`` of the session index, over a server (for ``pick_session``)."""

    def __init__(self, server: RemoteServer) -> None:
        """Read the index of ``server``."""
        self.server = server

    def get(self, id_or_prefix: str) -> SessionSummary:
        """The session with this id or unique prefix."""
        return self.server.find_session(id_or_prefix)

    def latest(self, within_seconds: float | None = None) -> SessionSummary | None:
        """The most recently updated session, if updated within ``within_seconds``."""
        newest = self.server.list_sessions(limit=1)
        if not newest:
            return None
        if within_seconds is not None and time.time() - newest[0].updated > within_seconds:
            return None
        return newest[0]


class RemoteAgent:
    """The parts of ``TemplateAgent`` that ``generate`` and ``chat`` use, run on a server.

    Args:
        settings: Resolved settings naming the server (``server_url``, ``token``).
        context: Run context sent with each turn (the ``--provider``/``--mode`` flags).
    """

    def __init__(self, settings: Settings, context: dict[str, Any] | None = None) -> None:
        """Address the server; nothing is sent until the first call."""
        self.settings = settings
        self.server = RemoteServer.from_settings(settings)
        self.sessions = RemoteSessionIndex(self.server)
        self.context = dict(context or {})

    def __enter__(self) -> RemoteAgent:
        """Use the agent as a context manager that closes its connections."""
        return self

    def __exit__(self, *exc: object) -> None:
        """Close the connections."""
        self.server.close()

    def generate(
        self,
        request: str,
        session: str | None = None,
        *,
        on_step: OnStep | None = None,
        callbacks: list[Any] | None = None,
    ) -> TurnResult:
        """Run one turn on the server (see :meth:`RemoteServer.run_turn`).

        ``callbacks`` is accepted for the local agent's signature; the model calls happen
        on the server, so ``--verbose`` shows the steps and their times, not the calls.
        """
        del callbacks
        return self.server.run_turn(request, session, on_step=on_step, context=self.context)

    def state(self, session: str) -> dict[str, Any]:
        """The session's current state values."""
        return self.server.state(session)

    def current_template(self, session: str) -> str | None:
        """The session's current template text."""
        return self.server.current_template(session)

    def undo(self, session: str) -> str | None:
        """Take back the last change as a new turn."""
        return self.server.undo(session, context=self.context)
