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

Custom routes read the caller with :func:`request_owner`.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from langgraph_sdk import Auth

from oic_ai.stores.errors import UserInputError
from oic_ai.stores.users import TokenVerifier, tokens_file

logger = logging.getLogger(__name__)

auth = Auth()

ANONYMOUS = ""
"""The identity of every request while no user exists (no user may have an empty name)."""
OWNER_KEY = "owner"
ASK_ADMIN = "ask the server's administrator for one ('oic-ai users add NAME' on the server)"

_verifier: TokenVerifier | None = None
_verifier_lock = threading.Lock()


def verifier() -> TokenVerifier:
    """The server's token verifier, on ``$OIC_AI_TOKENS_FILE`` or ``<data dir>/users.json``.

    The path is resolved once, from the server's environment and ``config.yaml``.
    """
    global _verifier
    with _verifier_lock:
        if _verifier is None:
            from oic_ai.stores.settings import load_settings

            _verifier = TokenVerifier(tokens_file(load_settings().data_dir))
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
        raise _unauthorized("the server's token file cannot be read; tell its administrator")
    if token is None:
        raise _unauthorized(f"this server needs 'Authorization: Bearer TOKEN'; {ASK_ADMIN}")
    if name is None:
        raise _unauthorized(f"unknown or revoked token; {ASK_ADMIN}")
    return {"identity": name, "is_authenticated": True, "display_name": name}


@auth.authenticate
async def authenticate(authorization: str | None) -> dict[str, Any]:
    """Every request: who is calling (see the module doc). Never logs the header."""
    return user_for_header(authorization)


def owner_of(user: Any) -> str | None:
    """The owner name for a request's user, or None for the anonymous (no-users) caller."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    identity = getattr(user, "identity", None)
    return str(identity) if identity else None


def request_owner(request: Any) -> str | None:
    """The owner a custom route (``/api/v1/...``) acts for: None when no user exists.

    Reads ``request.scope["user"]``, which LangGraph's authentication sets on custom routes
    when ``http.enable_custom_route_auth`` is on; without it (an app served on its own)
    there is no user, so None.
    """
    scope = getattr(request, "scope", None) or {}
    return owner_of(scope.get("user"))


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


@auth.on.threads.create
async def on_thread_create(ctx: Auth.types.AuthContext, value: Any) -> Any:
    """A new thread (or a copy) belongs to its creator; an existing id must be theirs."""
    return _own(ctx, value)


@auth.on.threads.create_run
async def on_run_create(ctx: Auth.types.AuthContext, value: Any) -> Any:
    """A run only on the caller's own thread; a thread the run creates becomes theirs."""
    return _own(ctx, value)


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
