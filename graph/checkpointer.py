"""SQLite checkpointers over the sessions database, for the CLI and for ``langgraph dev``.

Both savers write the same file, ``<data dir>/sessions.sqlite`` (see
``stores.session_store.sessions_db_path``), so a conversation started in one place can
be continued and replayed in the other:

- ``open_sqlite_saver(data_dir)``: the synchronous ``SqliteSaver`` the CLI compiles
  into the graph.
- ``sqlite_checkpointer()``: the async context manager ``langgraph.json`` names under
  ``"checkpointer": {"path": ...}``. ``langgraph dev`` enters it once per event loop and
  uses the ``AsyncSqliteSaver`` it yields for every thread; the served graph itself is
  compiled without a checkpointer, because the server refuses one.

Both check the file first (``stores.session_check.check_database``: a damaged one is
refused, never written), both connections use WAL and a long busy timeout, and
deleting a thread through either saver (e.g. ``DELETE /threads/{id}`` from Studio) also
deletes its row in the session index, so ``oic-ai sessions list`` never shows a
conversation that is gone.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, closing, contextmanager
from pathlib import Path

import aiosqlite
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from oic_ai.stores.session_check import check_database
from oic_ai.stores.session_store import TABLE, sessions_db_path
from oic_ai.stores.settings import load_settings

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
    conn.execute("PRAGMA journal_mode = WAL")
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


def _server_db_path() -> Path:
    path = sessions_db_path(load_settings().data_dir).resolve()
    check_database(path)  # a damaged file is never written, not even by the server
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


@asynccontextmanager
async def sqlite_checkpointer() -> AsyncIterator[AsyncSessionSqliteSaver]:
    """Yield the async saver ``langgraph dev`` uses (named in ``langgraph.json``).

    The database is the one ``oic-ai`` uses: ``sessions.sqlite`` under the data folder
    that ``config.yaml`` and ``OIC_AI_DATA_DIR`` choose, resolved against the folder
    the server was started in.
    """
    # Settings and mkdir touch the disk; the server forbids blocking its event loop.
    path = await asyncio.to_thread(_server_db_path)
    async with aiosqlite.connect(path, timeout=BUSY_TIMEOUT_SECONDS) as conn:
        await conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")
        await conn.execute("PRAGMA synchronous = NORMAL")
        saver = AsyncSessionSqliteSaver(conn)
        await saver.setup()
        yield saver
