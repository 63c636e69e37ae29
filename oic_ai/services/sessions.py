"""The sessions service: list, find, continue, delete and prune sessions.

These touch only the session index (``stores.session_store``: SQLite, or PostgreSQL when
``OIC_AI_DATABASE_URL`` says so), never LangGraph or Chroma, so ``oic-ai sessions list``
starts fast. What reads checkpoint history (show,
replay, fork, rerun) is :mod:`oic_ai.services.session_history`.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from oic_ai.stores.errors import UserInputError
from oic_ai.stores.session_factory import open_session_store
from oic_ai.stores.session_store import (
    SessionIndex,
    SessionSummary,
    parse_duration,
    sessions_db_path,
)
from oic_ai.stores.turn_lock import turn_lock

if TYPE_CHECKING:
    from oic_ai.stores.session_repair import RepairReport
    from oic_ai.stores.settings import Settings


def open_store(settings: Settings) -> SessionIndex:
    """The session index the settings choose (SQLite or PostgreSQL; opened on first use)."""
    return open_session_store(settings)


def pick_session(
    store: SessionIndex, settings: Settings, session_id: str | None, latest: bool
) -> str | None:
    """The session a turn continues: ``session_id``, else the latest if asked, else new.

    Args:
        store: The session index.
        settings: Where ``session_timeout`` comes from.
        session_id: A session id or unique prefix to continue, if any.
        latest: Continue the session updated last, if within ``session_timeout``.

    Returns:
        The full session id, or None to start a new session.

    Raises:
        UserInputError: ``session_id`` matches no session, or several.
    """
    if session_id:
        return str(store.get(session_id).id)
    if latest:
        found = store.latest(parse_duration(settings.session_timeout))
        if found is not None:
            return str(found.id)
    return None


def list_sessions(
    settings: Settings, limit: int | None = None, *, owner: str | None = None
) -> list[SessionSummary]:
    """Sessions, newest first (only ``owner``'s if given); reading never creates the store."""
    with open_store(settings) as store:
        return store.list(limit=limit, owner=owner)


def find_session(
    settings: Settings, session_id: str, *, owner: str | None = None
) -> SessionSummary:
    """The session with this id or unique id prefix (among ``owner``'s if given).

    Raises:
        UserInputError: no session, or several, match.
    """
    with open_store(settings) as store:
        return store.get(session_id, owner=owner)


def delete_session(
    settings: Settings, session_id: str, *, owner: str | None = None
) -> SessionSummary:
    """Delete a session and its checkpoints; return what was deleted.

    Raises:
        UserInputError: no session, or several, match.
        SessionBusyError: a turn kept the session past the wait (``OIC_AI_SESSION_WAIT``).
    """
    with open_store(settings) as store:
        summary = store.get(session_id, owner=owner)
        with turn_lock(settings, summary.id):  # not under a running turn
            store.delete(summary.id)
        return summary


@dataclass(frozen=True)
class PruneOutcome:
    """The sessions a prune deleted (or would delete) and the database size around it.

    The size is the SQLite file, or the PostgreSQL tables (index, checkpoints, blobs,
    writes, with their indexes): PostgreSQL reuses freed space rather than shrinking.
    """

    deleted: int
    sessions: list[SessionSummary]
    dry_run: bool
    bytes_before: int
    bytes_after: int

    def to_json(self) -> dict[str, Any]:
        """The ``sessions prune --json`` shape."""
        return {**asdict(self), "sessions": [s.id for s in self.sessions]}


def prune_sessions(settings: Settings, older_than: str, *, dry_run: bool = False) -> PruneOutcome:
    """Delete sessions not updated for ``older_than`` (e.g. ``7d``), then compact.

    Raises:
        UserInputError: ``older_than`` is not a duration.
    """
    seconds = parse_duration(older_than)
    with open_store(settings) as store:
        cutoff = time.time() - seconds
        doomed = [s for s in store.list() if s.updated < cutoff]
        exists = store.exists()
        size_before = store.size_bytes() if exists else 0
        deleted = 0 if dry_run else store.prune(seconds)
        size_after = store.size_bytes() if exists else 0
    return PruneOutcome(deleted, doomed, dry_run, size_before, size_after)


def repair_sessions(settings: Settings) -> RepairReport:
    """Move a damaged sessions database aside and rebuild it from what can be read.

    A sound database is left as it is (``report.damaged`` is None). Only the sessions
    database is touched; package indexes and Chroma stay as they are.
    """
    from oic_ai.stores.session_repair import repair_database  # only repair needs it

    if settings.database_url:
        raise UserInputError(
            "sessions repair salvages a damaged SQLite file; these sessions are in PostgreSQL",
            fix="restore a pg_dump backup instead (see docs/deploy.md)",
        )
    return repair_database(sessions_db_path(settings.data_dir), keep=_readable_row)


def _readable_row(table: str, row: dict[str, Any]) -> bool:
    """Whether a salvaged checkpoint or write still deserialises as LangGraph reads it.

    A row can come back from a damaged file with bytes from a wrong or missing page;
    such a checkpoint would break every later read of its session.
    """
    if table not in ("checkpoints", "writes"):
        return True
    import json

    from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

    serde = JsonPlusSerializer()
    if table == "checkpoints":
        serde.loads_typed((row["type"], row["checkpoint"]))
        if row.get("metadata") is not None:
            json.loads(row["metadata"])
    else:
        serde.loads_typed((row["type"], row["value"]))
    return True
