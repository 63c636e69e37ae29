"""The per-session turn lock on PostgreSQL: a transaction-level advisory lock.

Imported only when the sessions live in PostgreSQL. Each holder opens its own connection
and transaction and takes ``pg_try_advisory_xact_lock(LOCK_CLASS, key(session))``; the
lock lasts until the transaction ends (the turn is over) or the connection drops (the
holder died), and it holds across processes and hosts that share the database.
"""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import psycopg

from oic_ai.stores.backoff import Backoff
from oic_ai.stores.session_database import check_database_url
from oic_ai.stores.session_lock import busy_error
from oic_ai.stores.session_store_pg import CONNECT_TIMEOUT, connect, connection_error

LOCK_CLASS = 0x6F6963  # "oic": the first key of every session's lock (two int4 keys)
_TRY = "SELECT pg_try_advisory_xact_lock(%s, %s)"


def lock_key(session_id: str) -> int:
    """The session's second lock key: a signed 32-bit hash of its id."""
    digest = hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest[:4], "big", signed=True)


@contextmanager
def pg_session_lock(url: str, session_id: str, wait: float) -> Iterator[None]:
    """Hold ``session_id`` for a turn, waiting up to ``wait`` seconds.

    Raises:
        SessionBusyError: another holder kept it past the wait.
        UserInputError: the database cannot be reached or refused us.
    """
    conn = connect(url, application_name="oic-ai-lock")
    try:
        with conn.transaction():
            backoff = Backoff(wait, first=0.02, most=0.25)
            while not _held(conn.execute(_TRY, (LOCK_CLASS, lock_key(session_id))).fetchone()):
                backoff.sleep(lambda: busy_error(session_id, wait))
            yield
    finally:
        conn.close()


@asynccontextmanager
async def apg_session_lock(url: str, session_id: str, wait: float) -> AsyncIterator[None]:
    """:func:`pg_session_lock` for the server's event loop."""
    check_database_url(url)
    try:
        conn = await psycopg.AsyncConnection.connect(
            url, autocommit=True, connect_timeout=CONNECT_TIMEOUT, application_name="oic-ai-lock"
        )
    except psycopg.OperationalError as exc:
        raise connection_error(exc, url) from None
    try:
        async with conn.transaction():
            backoff = Backoff(wait, first=0.02, most=0.25)
            while True:
                cursor = await conn.execute(_TRY, (LOCK_CLASS, lock_key(session_id)))
                if _held(await cursor.fetchone()):
                    break
                await backoff.asleep(lambda: busy_error(session_id, wait))
            yield
    finally:
        await conn.close()


def _held(row: Any) -> bool:
    if row is None:
        return False
    return bool(row["pg_try_advisory_xact_lock"] if isinstance(row, dict) else row[0])
