"""PostgreSQL checkpointers over the sessions database (``OIC_AI_DATABASE_URL``).

Imported only when the settings name a ``postgresql://`` URL, so SQLite users never need
psycopg. The savers are langgraph-checkpoint-postgres's, with two additions:

- deleting a thread (``DELETE /threads/{id}``, ``sessions delete``) also deletes its row
  in the session index, which lives in the same database (``oic_sessions``);
- ``setup()`` (LangGraph's migrations) and the index table are created under an advisory
  lock, because several processes (CLI, server) may start on an empty database at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import psycopg
from langgraph.checkpoint.postgres import PostgresSaver
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool

from oic_ai.stores.secrets import mask_url
from oic_ai.stores.session_store import (
    TABLE,
)
from oic_ai.stores.session_store_pg import SCHEMA, SCHEMA_LOCK, connect, connection_error

_DELETE_ROW = f"DELETE FROM {TABLE} WHERE id = %s"
POOL_MAX = 8
POOL_OPEN_SECONDS = 30.0
_SAVER_OPTIONS: dict[str, Any] = {"prepare_threshold": 0, "row_factory": dict_row}


class SessionPostgresSaver(PostgresSaver):
    """``PostgresSaver`` whose thread deletion also removes the session's index row."""

    def delete_thread(self, thread_id: str) -> None:
        """Delete the thread's checkpoints, blobs and writes, and its session row."""
        super().delete_thread(thread_id)
        with self._cursor() as cur:
            cur.execute(_DELETE_ROW, (str(thread_id),))


class AsyncSessionPostgresSaver(AsyncPostgresSaver):
    """``AsyncPostgresSaver`` whose thread deletion also removes the session's index row."""

    async def adelete_thread(self, thread_id: str) -> None:
        """Delete the thread's checkpoints, blobs and writes, and its session row."""
        await super().adelete_thread(thread_id)
        async with self._cursor() as cur:
            await cur.execute(_DELETE_ROW, (str(thread_id),))


def setup_database(conn: psycopg.Connection[Any]) -> None:
    """LangGraph's tables (``setup()``) and the session index, once, under a lock."""
    conn.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK,))
    try:
        PostgresSaver(conn).setup()
        with conn.transaction():
            for statement in SCHEMA:
                conn.execute(statement)
    finally:
        conn.execute("SELECT pg_advisory_unlock(%s)", (SCHEMA_LOCK,))


@contextmanager
def open_postgres_saver(url: str) -> Iterator[SessionPostgresSaver]:
    """The synchronous saver on ``url`` (set up first); its connection closes on exit.

    Raises:
        UserInputError: the URL is malformed or the server refused us (exit 2).
        SessionsUnreachableError: the server cannot be reached (exit 3).
    """
    conn = connect(url, **_SAVER_OPTIONS)
    try:
        try:
            setup_database(conn)
        except psycopg.OperationalError as exc:
            raise connection_error(exc, url) from None
        yield SessionPostgresSaver(conn)
    finally:
        conn.close()


async def _asetup(pool: AsyncConnectionPool[Any]) -> None:
    async with pool.connection() as conn:
        await conn.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK,))
        try:
            await AsyncPostgresSaver(conn).setup()
            async with conn.transaction():
                for statement in SCHEMA:
                    await conn.execute(statement)
        finally:
            await conn.execute("SELECT pg_advisory_unlock(%s)", (SCHEMA_LOCK,))


@asynccontextmanager
async def async_postgres_saver(url: str) -> AsyncIterator[AsyncSessionPostgresSaver]:
    """The async saver the server uses: a small pool whose lost connections are replaced."""
    pool: AsyncConnectionPool[Any] = AsyncConnectionPool(
        url,
        min_size=1,
        max_size=POOL_MAX,
        open=False,
        check=AsyncConnectionPool.check_connection,
        kwargs={"autocommit": True, "application_name": "oic-ai-server", **_SAVER_OPTIONS},
    )
    try:
        await pool.open(wait=True, timeout=POOL_OPEN_SECONDS)
    except Exception as exc:  # psycopg_pool.PoolTimeout carries no reason of its own
        raise RuntimeError(
            f"cannot reach the sessions database {mask_url(url)} "
            f"within {POOL_OPEN_SECONDS:.0f} s ({type(exc).__name__})"
        ) from None
    try:
        await _asetup(pool)
        yield AsyncSessionPostgresSaver(pool)
    finally:
        await asyncio.shield(pool.close())
