"""Checkpointers over the sessions database, for the CLI and for ``langgraph dev``.

The settings pick the backend at start: SQLite in ``<data dir>/sessions.sqlite`` (see
``stores.session_store.sessions_db_path``) by default, or PostgreSQL when
``OIC_AI_DATABASE_URL`` / ``ai.sessions.url`` is a ``postgresql://`` URL
(:mod:`oic_ai.graph.checkpointer_pg`, imported only then). The CLI, the Python API and
the server all use the same database, so a conversation started in one place can be
continued and replayed in the other:

- ``open_checkpointer(settings)`` / ``open_session_saver(settings)``: the synchronous
  saver the CLI and ``TemplateAgent`` compile into the graph.
- ``session_checkpointer()``: the async context manager ``langgraph.json`` names under
  ``"checkpointer": {"path": ...}`` (still as ``sqlite_checkpointer``, an alias).
  ``langgraph dev`` enters it once per event loop and uses the async saver it yields
  for every thread; the served graph itself is compiled without a checkpointer, because
  the server refuses one.

SQLite details:

Both check the file first (``stores.session_check.check_database``: a damaged one is
refused, never written), both connections use WAL and a long busy timeout, and
deleting a thread through either saver (e.g. ``DELETE /threads/{id}`` from Studio) also
deletes its row in the session index, so ``oic-ai sessions list`` never shows a
conversation that is gone.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import ExitStack, asynccontextmanager, closing, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiosqlite
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from oic_ai.stores.session_check import check_database
from oic_ai.stores.session_database import (
    check_database_url,
    missing_postgres_extra,
)
from oic_ai.stores.session_store import (
    TABLE,
    sessions_db_path,
)
from oic_ai.stores.settings import load_settings
from oic_ai.stores.sqlite_wal import use_wal

if TYPE_CHECKING:
    from oic_ai.stores.settings import Settings

BUSY_TIMEOUT_SECONDS = 30.0
_DELETE_ROW = f"DELETE FROM {TABLE} WHERE id = ?"
_HAS_TABLE = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"


class SessionSqliteSaver(SqliteSaver):
    """``SqliteSaver`` whose thread deletion also removes the session's index row."""

    def delete_thread(self, thread_id: str) -> None:
        """Delete the thread's checkpoints and writes, and its session row."""
        super().delete_thread(thread_id)
        with self.cursor() as cur:
            if cur.execute(_HAS_TABLE, (TABLE,)).fetchone():
                cur.execute(_DELETE_ROW, (str(thread_id),))


class AsyncSessionSqliteSaver(AsyncSqliteSaver):
    """``AsyncSqliteSaver`` whose thread deletion also removes the session's index row."""

    async def adelete_thread(self, thread_id: str) -> None:
        """Delete the thread's checkpoints and writes, and its session row."""
        await super().adelete_thread(thread_id)
        async with self.lock:
            async with self.conn.execute(_HAS_TABLE, (TABLE,)) as cur:
                present = await cur.fetchone()
            if present:
                await self.conn.execute(_DELETE_ROW, (str(thread_id),))
                await self.conn.commit()


def prepare_connection(conn: sqlite3.Connection) -> None:
    """Set WAL, a long busy timeout and ``synchronous=NORMAL`` on a sessions connection."""
    conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")
    use_wal(conn, BUSY_TIMEOUT_SECONDS)
    # In WAL mode NORMAL stays consistent and survives a crash of the process; only an
    # OS crash or power cut can lose the newest commits. FULL fsyncs each of the ~15
    # commits of a turn, which tripled the checkpoint overhead per turn.
    conn.execute("PRAGMA synchronous = NORMAL")


def connect_sessions_db(path: Path) -> sqlite3.Connection:
    """Check the sessions database, then open and prepare it for a synchronous saver.

    Raises:
        DamagedDatabaseError: the file failed its check (nothing was written to it).
    """
    check_database(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_SECONDS, check_same_thread=False)
    try:
        prepare_connection(conn)
    except BaseException:
        conn.close()
        raise
    return conn


@contextmanager
def open_sqlite_saver(data_dir: Path) -> Iterator[SessionSqliteSaver]:
    """Open the synchronous checkpointer on ``data_dir``'s sessions database.

    Args:
        data_dir: The state folder (``Settings.data_dir``); created if missing.

    Yields:
        A saver to pass to ``build_graph(checkpointer=...)``; closed on exit.
    """
    with closing(connect_sessions_db(sessions_db_path(data_dir))) as conn:
        yield SessionSqliteSaver(conn)


@contextmanager
def open_url_saver(url: str) -> Iterator[BaseCheckpointSaver[Any]]:
    """The synchronous PostgreSQL saver on ``url`` (a migration's target, a bench).

    Raises:
        UserInputError: a malformed URL, a refused login, or no ``[postgres]`` extra.
        SessionsUnreachableError: the server cannot be reached (exit 3).
    """
    check_database_url(url)
    try:
        from oic_ai.graph.checkpointer_pg import open_postgres_saver
    except ImportError as exc:
        raise missing_postgres_extra(exc) from None
    with open_postgres_saver(url) as saver:
        yield saver


@contextmanager
def open_session_saver(settings: Settings) -> Iterator[BaseCheckpointSaver[Any]]:
    """The synchronous saver the settings choose: PostgreSQL if ``database_url``, else SQLite.

    With PostgreSQL no ``sessions.sqlite`` is created.
    """
    if settings.database_url:
        with open_url_saver(settings.database_url) as saver:
            yield saver
    else:
        with open_sqlite_saver(settings.data_dir) as sqlite_saver:
            yield sqlite_saver


def open_checkpointer(settings: Settings) -> tuple[BaseCheckpointSaver[Any], Callable[[], None]]:
    """:func:`open_session_saver` for an owner that closes later: ``(saver, close)``."""
    stack = ExitStack()
    try:
        saver = stack.enter_context(open_session_saver(settings))
    except BaseException:
        stack.close()
        raise
    return saver, stack.close


def _server_db_path() -> Path:
    path = sessions_db_path(load_settings().data_dir).resolve()
    check_database(path)  # a damaged file is never written, not even by the server
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


@asynccontextmanager
async def session_checkpointer() -> AsyncIterator[BaseCheckpointSaver[Any]]:
    """Yield the async saver ``langgraph dev`` uses (named in ``langgraph.json``).

    The database is the one ``oic-ai`` uses: PostgreSQL when ``OIC_AI_DATABASE_URL`` (or
    ``ai.sessions.url``) names one, else ``sessions.sqlite`` under the data folder that
    ``config.yaml`` and ``OIC_AI_DATA_DIR`` choose, resolved against the folder the
    server was started in.
    """
    # Settings touch the disk; the server forbids blocking its event loop.
    settings = await asyncio.to_thread(load_settings)
    if settings.database_url:
        try:
            from oic_ai.graph.checkpointer_pg import async_postgres_saver
        except ImportError as exc:
            raise missing_postgres_extra(exc) from None
        async with async_postgres_saver(settings.database_url) as pg_saver:
            yield pg_saver
        return
    async with _sqlite_server_saver() as saver:
        yield saver


sqlite_checkpointer = session_checkpointer
"""The name ``langgraph.json`` uses; it picks PostgreSQL too when the settings say so."""


@asynccontextmanager
async def _sqlite_server_saver() -> AsyncIterator[AsyncSessionSqliteSaver]:
    path = await asyncio.to_thread(_server_db_path)
    async with aiosqlite.connect(path, timeout=BUSY_TIMEOUT_SECONDS) as conn:
        await conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")
        await conn.execute("PRAGMA synchronous = NORMAL")
        saver = AsyncSessionSqliteSaver(conn)
        await saver.setup()
        yield saver
