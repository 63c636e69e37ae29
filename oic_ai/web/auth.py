"""Per-user access to the served API: LangGraph custom auth (``langgraph.json`` ``auth``).

``langgraph.json`` points ``auth.path`` at :data:`auth` and switches on
``http.enable_custom_route_auth``, so :func:`authenticate` runs before every LangGraph
route *and* every custom route (``/api/v1/...``) of ``oic-ai serve`` and ``langgraph dev``.
``auth.disable_studio_auth`` is on as well: otherwise ``langgraph dev`` would let any request
carrying ``x-auth-scheme: langsmith`` past this check.

- **No user** in the token file (:mod:`oic_ai.stores.users`): every request is allowed, as
  an anonymous user, and nothing is filtered (the single-user default).
- **Any user**: every request needs ``Authorization: Bearer TOKEN`` naming a current user,
  else 401. The token file is re-read whenever it changes, so ``oic-ai users remove``
  takes effect on the next request, without a restart. A token file that cannot be read
  refuses every request (401) rather than falling open.
- **Ownership**: a thread created by a user (``POST /threads``, or a run that creates its
  thread) gets ``metadata.owner``; reads, searches, state, history, runs, updates, deletes
  and copies are filtered on it, so another user's thread answers 404 and never appears in
  ``threads.search``. Threads made while there were no users have no owner and are seen by
  no user once users exist. Assistants are the server's graphs: users may read and search
  them but not create, change or delete them; crons are refused; the store is scoped to a
  namespace under the user's name. Anything else is refused (default deny).

Custom routes read the caller with :func:`request_owner` and scope the session index with
it (:func:`require_own_session`): another user's session answers 404 there too.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import TYPE_CHECKING, Any

from langgraph_sdk import Auth

from oic_ai.stores.errors import UserInputError
from oic_ai.stores.user_access import token_verifier

if TYPE_CHECKING:
    from oic_ai.stores.settings import Settings
    from oic_ai.stores.users import TokenVerifier
    from oic_ai.stores.users_pg import PgTokenVerifier

logger = logging.getLogger(__name__)

auth = Auth()

ANONYMOUS = ""
"""The identity of every request while no user exists (no user may have an empty name)."""
OWNER_KEY = "owner"
ASK_ADMIN = "ask the server's administrator for one ('oic-ai users add NAME' on the server)"

_verifier: TokenVerifier | PgTokenVerifier | None = None
_verifier_lock = threading.Lock()


def verifier() -> TokenVerifier | PgTokenVerifier:
    """The server's token verifier: the sessions' PostgreSQL, else the token file.

    The token file is ``$OIC_AI_TOKENS_FILE`` or ``<data dir>/users.json``. The place is
    resolved once, from the server's environment and ``config.yaml``.
    """
    global _verifier
    with _verifier_lock:
        if _verifier is None:
            from oic_ai.stores.settings import load_settings

            _verifier = token_verifier(load_settings())
            logger.info("oic-ai: tokens are checked against %s", _verifier.path)
        return _verifier


def _unauthorized(detail: str) -> Auth.exceptions.HTTPException:
    return Auth.exceptions.HTTPException(
        status_code=401, detail=detail, headers={"WWW-Authenticate": "Bearer"}
    )


def _bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, or None."""
    if not authorization:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def user_for_header(authorization: str | None) -> dict[str, Any]:
    """The user an ``Authorization`` header stands for (anonymous while there are no users).

    Raises:
        Auth.exceptions.HTTPException: 401 without a token, with an unknown one, or when the
            token file cannot be read.
    """
    check = verifier()
    try:
        if not check.has_users():
            return {"identity": ANONYMOUS, "is_authenticated": False, "display_name": "anonymous"}
        token = _bearer(authorization)
        name = check.user_for(token) if token else None
    except UserInputError as exc:
        logger.error("oic-ai: refusing every request: %s", exc)
        raise _unauthorized(
            "the server's token file cannot be read; tell its administrator"
        ) from None
    if token is None:
        raise _unauthorized(f"this server needs 'Authorization: Bearer TOKEN'; {ASK_ADMIN}")
    if name is None:
        raise _unauthorized(f"unknown or revoked token; {ASK_ADMIN}")
    return {"identity": name, "is_authenticated": True, "display_name": name}


def has_users() -> bool:
    """Whether the server has users (an unreadable token file counts as yes: stay closed)."""
    try:
        return verifier().has_users()
    except UserInputError:
        return True


def authorization_of(headers: Any) -> str | None:
    """The ``Authorization`` header of a request's headers (bytes or text keys and values)."""
    if not isinstance(headers, dict):
        return None
    for key, value in headers.items():
        name = key.decode("latin-1") if isinstance(key, bytes) else str(key)
        if name.lower() == "authorization":
            return value.decode("latin-1") if isinstance(value, bytes) else str(value)
    return None


@auth.authenticate
async def authenticate(headers: dict[Any, Any]) -> dict[str, Any]:
    """Every request: who is calling (see the module doc). Never logs the header.

    It takes the request's headers: langgraph-api passes them by name, Aegra (several
    replicas) as the only argument.
    """
    return user_for_header(authorization_of(headers))


def owner_of(user: Any) -> str | None:
    """The owner name for a request's user, or None for the anonymous (no-users) caller."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    identity = getattr(user, "identity", None)
    return str(identity) if identity else None


NOBODY = "no user (custom route auth is off)"
"""The owner of a custom route's request that was never authenticated while users exist:
no session has it (a user name has no spaces), so such a request sees no session."""


def request_owner(request: Any) -> str | None:
    """The owner a custom route (``/api/v1/...``) acts for: None when no user exists.

    Reads ``request.scope["user"]``, which LangGraph's authentication sets on custom routes
    when ``http.enable_custom_route_auth`` is on. Without it (the app served on its own, or
    a configuration that left the switch off) and with users in the token file, the request
    acts for :data:`NOBODY`, so it sees no one's sessions rather than everyone's.
    """
    scope = getattr(request, "scope", None) or {}
    if "user" in scope:
        return owner_of(scope["user"])
    from oic_ai.stores.settings import load_settings

    try:  # resolved afresh: this path is for odd set-ups, not the served one
        unauthenticated = token_verifier(load_settings()).has_users()
    except UserInputError:
        unauthenticated = True
    if unauthenticated:
        logger.warning("oic-ai: %s reached without authentication", scope.get("path"))
        return NOBODY
    return None


def require_own_session(settings: Settings, session_id: str, owner: str | None) -> None:
    """Refuse a session of the session index that is not ``owner``'s, as if it did not exist.

    ``owner`` None (no users on the server) allows every session.

    Raises:
        SessionNotFoundError: the session is another user's, has no owner, or does not exist.
    """
    if owner is None:
        return
    from oic_ai.services.sessions import open_store
    from oic_ai.web.rest import SessionNotFoundError

    with open_store(settings) as store:
        found = store.find(session_id.strip(), owner=owner) if session_id.strip() else None
    if found is None:
        raise SessionNotFoundError(
            f"no session {session_id!r}", fix="list them with GET /api/v1/sessions"
        )


def _own(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str] | None:
    """Stamp ``value["metadata"]["owner"]`` and return the owner filter (None: no users)."""
    owner = owner_of(ctx.user)
    if owner is None:
        return None
    if isinstance(value, dict):
        metadata = value.get("metadata")
        if not isinstance(metadata, dict):
            metadata = value["metadata"] = {}
        metadata[OWNER_KEY] = owner  # a client's own "owner" never wins
    return {OWNER_KEY: owner}


def _filter(ctx: Auth.types.AuthContext) -> dict[str, str] | None:
    owner = owner_of(ctx.user)
    return None if owner is None else {OWNER_KEY: owner}


def _session_owner(thread_id: str) -> tuple[bool, str | None]:
    """Whether the session index has a session with this id, and its owner."""
    from oic_ai.services.sessions import open_store
    from oic_ai.stores.settings import load_settings

    with open_store(load_settings()) as store:
        found = store.find(thread_id)
    return (found is not None, found.owner if found else None)


async def _refuse_anothers_session(ctx: Auth.types.AuthContext, value: Any, status: int) -> None:
    """Refuse to make a thread of a session recorded for someone else (or for nobody).

    LangGraph's own thread records decide ownership of the threads it knows; a session
    written beside them (a fork through ``/api/v1``, a turn from before users existed)
    has a LangGraph thread only once someone creates it, and that must be its owner.
    """
    owner = owner_of(ctx.user)
    thread_id = value.get("thread_id") if isinstance(value, dict) else None
    if owner is None or not thread_id:
        return
    exists, recorded = await asyncio.to_thread(_session_owner, str(thread_id))
    if exists and recorded != owner:
        detail = "already exists" if status == 409 else "not found"
        raise Auth.exceptions.HTTPException(status_code=status, detail=f"Thread {detail}")


@auth.on.threads.create
async def on_thread_create(ctx: Auth.types.AuthContext, value: Any) -> Any:
    """A new thread (or a copy) belongs to its creator; an existing id must be theirs."""
    await _refuse_anothers_session(ctx, value, 409)
    return _own(ctx, value)


@auth.on.threads.create_run
async def on_run_create(ctx: Auth.types.AuthContext, value: Any) -> Any:
    """A run only on the caller's own thread; a thread the run creates becomes theirs.

    A session another door (the CLI, another server) holds is waited for, up to
    ``$OIC_AI_SESSION_WAIT``, then refused with 409 "session is busy". A run of this
    server on it is left to LangGraph, which queues the new run behind it.
    """
    await _refuse_anothers_session(ctx, value, 404)
    await _wait_for_session(value)
    return _own(ctx, value)


async def _wait_for_session(value: Any) -> None:
    thread_id = value.get("thread_id") if isinstance(value, dict) else None
    if not thread_id:
        return
    from oic_ai.graph.served import running_here, wait_for_session
    from oic_ai.stores.session_lock import SessionBusyError

    if running_here(str(thread_id)):
        return
    try:
        await wait_for_session(str(thread_id))
    except SessionBusyError as exc:
        raise Auth.exceptions.HTTPException(status_code=409, detail=exc.problem) from None


@auth.on.threads.update
async def on_thread_update(ctx: Auth.types.AuthContext, value: Any) -> Any:
    """Updates (metadata, state) only on the caller's threads, and never hand one over."""
    return _own(ctx, value)


@auth.on.threads.read
async def on_thread_read(ctx: Auth.types.AuthContext, value: Any) -> Any:
    """Read a thread, its state, history, runs or stream: only the caller's own."""
    return _filter(ctx)


@auth.on.threads.search
async def on_thread_search(ctx: Auth.types.AuthContext, value: Any) -> Any:
    """Search and count only the caller's threads."""
    return _filter(ctx)


@auth.on.threads.delete
async def on_thread_delete(ctx: Auth.types.AuthContext, value: Any) -> Any:
    """Delete (threads, runs) only the caller's own."""
    return _filter(ctx)


@auth.on.assistants.read
async def on_assistant_read(ctx: Auth.types.AuthContext, value: Any) -> Any:
    """Everyone may read the server's assistants (the graphs of ``langgraph.json``)."""
    return None


@auth.on.assistants.search
async def on_assistant_search(ctx: Auth.types.AuthContext, value: Any) -> Any:
    """Everyone may list the server's assistants."""
    return None


@auth.on.store
async def on_store(ctx: Auth.types.AuthContext, value: Any) -> Any:
    """The store: each user sees only the namespaces under its own name."""
    owner = owner_of(ctx.user)
    if owner is None or not isinstance(value, dict):
        return None
    namespace = tuple(value.get("namespace") or ())
    if not namespace or namespace[0] != owner:
        value["namespace"] = (owner, *namespace)
    return None


@auth.on
async def deny_the_rest(ctx: Auth.types.AuthContext, value: Any) -> Any:
    """Default deny once users exist: changing assistants, crons, anything newer."""
    if owner_of(ctx.user) is None:
        return None
    raise Auth.exceptions.HTTPException(
        status_code=403, detail=f"{ctx.resource} {ctx.action} is not allowed on this server"
    )
