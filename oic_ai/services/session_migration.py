"""``oic-ai sessions migrate --to URL``: copy every session to another sessions database.

Every thread's checkpoints (all of them, in every namespace, with their pending writes)
and every index row go from the current store (what the settings choose: SQLite in the
data folder, or PostgreSQL) to a PostgreSQL database, through the checkpointers' public
``list`` / ``put`` / ``put_writes``, so replaying or forking an old turn works there
exactly as here.

- Nothing is lost: checkpoint ids, parents, timestamps, metadata and writes are kept.
- It is idempotent: ``put`` and ``put_writes`` upsert, so a second run (or a run after an
  interrupted one) copies the same rows again and changes nothing; an index row is only
  replaced by a newer one.
- It refuses, before writing anything, when the target already holds a *different*
  session with the same id (another title or creation time, or checkpoints none of
  which the source has).

Run it with the server stopped (or idle): turns taken during the copy may be missed, and
a second run picks them up.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from oic_ai.stores.errors import UserInputError
from oic_ai.stores.secrets import mask_url
from oic_ai.stores.session_database import check_database_url
from oic_ai.stores.session_factory import open_session_store, store_for_url
from oic_ai.stores.session_store import (
    SessionIndex,
    SessionSummary,
)

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig

    from oic_ai.stores.settings import Settings


@dataclass(frozen=True)
class MigrationReport:
    """What a migration copied.

    Attributes:
        source: Where the sessions came from (a file, or a masked URL).
        target: Where they went (the URL, its password masked).
        sessions: Index rows (sessions as ``sessions list`` shows them) now in the target.
        threads: Threads whose checkpoints were copied.
        checkpoints: Checkpoints copied.
        writes: Pending writes copied.
        new_sessions: Sessions the target did not hold before.
        existing_sessions: Sessions it held already (an earlier run): copied again, same rows.
    """

    source: str
    target: str
    sessions: int
    threads: int
    checkpoints: int
    writes: int
    new_sessions: int
    existing_sessions: int

    def to_json(self) -> dict[str, Any]:
        """The ``sessions migrate --json`` shape."""
        return asdict(self)


def _thread(thread_id: str) -> RunnableConfig:
    return {"configurable": {"thread_id": thread_id}}


def _key(item: Any) -> tuple[str, str]:
    conf = item.config["configurable"]
    return str(conf.get("checkpoint_ns", "")), str(conf["checkpoint_id"])


def _same(source: SessionSummary, target: SessionSummary) -> bool:
    return (source.title, source.created) == (target.title, target.created)


def _conflict(
    thread_id: str,
    src_row: SessionSummary | None,
    dst_row: SessionSummary | None,
    src_keys: set[tuple[str, str]],
    dst_keys: set[tuple[str, str]],
) -> bool:
    if src_row is not None and dst_row is not None:
        return not _same(src_row, dst_row)
    return bool(dst_keys) and bool(src_keys) and not (src_keys & dst_keys)


def copy_thread(source: Any, target: Any, thread_id: str) -> tuple[int, int]:
    """Copy every checkpoint of a thread (parents first) and its writes; return counts."""
    items = sorted(source.list(_thread(thread_id)), key=_key)
    writes = 0
    for item in items:
        namespace, _ = _key(item)
        configurable: dict[str, Any] = {"thread_id": thread_id, "checkpoint_ns": namespace}
        parent = (item.parent_config or {}).get("configurable", {}).get("checkpoint_id")
        if parent:
            configurable["checkpoint_id"] = parent
        writes += put_checkpoint(target, {"configurable": configurable}, item, item.metadata)
    return len(items), writes


def put_checkpoint(saver: Any, config: Any, item: Any, metadata: Any) -> int:
    """Put the checkpoint tuple ``item`` into ``saver`` at ``config``, then its writes.

    Uses only the checkpointer's public ``put``/``put_writes``, so it works for any saver.
    The pending writes go in grouped by task; returns how many there were.
    """
    stored = saver.put(
        config,
        item.checkpoint,
        dict(metadata or {}),
        dict(item.checkpoint.get("channel_versions", {})),
    )
    by_task: dict[str, list[tuple[str, Any]]] = {}
    for task_id, channel, value in item.pending_writes or []:
        by_task.setdefault(task_id, []).append((channel, value))
    for task_id, task_writes in by_task.items():
        saver.put_writes(stored, task_writes, task_id)
    return len(item.pending_writes or [])


def migrate_sessions(settings: Settings, target_url: str) -> MigrationReport:
    """Copy every session from the current store to the PostgreSQL database at ``target_url``.

    Raises:
        UserInputError: a malformed URL, the target is the current store, or it already
            holds a different session with one of the same ids (exit 2; nothing written).
        SessionsUnreachableError: a database cannot be reached (exit 3).
    """
    from oic_ai.graph.checkpointer import open_session_saver, open_url_saver

    target_url = check_database_url(target_url)
    shown = mask_url(target_url)
    if settings.database_url and settings.database_url.strip() == target_url:
        raise UserInputError(
            f"the sessions are already in {shown}",
            fix="give --to another database, or point OIC_AI_DATABASE_URL elsewhere first",
        )
    source_store: SessionIndex = open_session_store(settings)
    target_store = store_for_url(target_url)
    with source_store, target_store:
        if not source_store.exists():
            threads: list[str] = []
        else:
            threads = source_store.thread_ids()
        with open_session_saver(settings) as source, open_url_saver(target_url) as target:
            rows = {t: source_store.find(t) for t in threads}
            existing = 0
            for thread_id in threads:  # check everything before writing anything
                dst_row = target_store.find(thread_id)
                src_keys = {_key(i) for i in source.list(_thread(thread_id))}
                dst_keys = {_key(i) for i in target.list(_thread(thread_id))}
                if _conflict(thread_id, rows[thread_id], dst_row, src_keys, dst_keys):
                    raise UserInputError(
                        f"{shown} already holds a different session {thread_id}; "
                        "nothing was copied",
                        fix="migrate into an empty database, or delete that session there",
                    )
                existing += bool(dst_row or dst_keys)
            checkpoints = writes = sessions = 0
            for thread_id in threads:
                copied, copied_writes = copy_thread(source, target, thread_id)
                checkpoints += copied
                writes += copied_writes
                row = rows[thread_id]
                if row is not None:
                    there = target_store.find(thread_id)
                    if there is None or there.updated <= row.updated:
                        target_store.upsert(row)
                    sessions += 1
    return MigrationReport(
        source=source_store.location,
        target=shown,
        sessions=sessions,
        threads=len(threads),
        checkpoints=checkpoints,
        writes=writes,
        new_sessions=len(threads) - existing,
        existing_sessions=existing,
    )
