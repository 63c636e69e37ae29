"""The session index in PostgreSQL, in the same database as LangGraph's checkpoints.

``OIC_AI_DATABASE_URL=postgresql://...`` (config ``ai.sessions.url``) puts sessions in
PostgreSQL: ``PostgresSaver`` / ``AsyncPostgresSaver`` keep the checkpoints
(``checkpoints``, ``checkpoint_blobs``, ``checkpoint_writes``) and this store keeps the
index (``oic_sessions``) beside them. The queries are
:class:`~oic_ai.stores.session_store.SessionIndex`'s; this module supplies psycopg 3
connections, transactions, retries and the one-line errors:

- a server that cannot be reached (refused, timed out, shut down) is exit 3 (retryable);
- a wrong password, an unknown user or database is exit 2 (fix the URL);
- the password never appears in a message: the URL is shown masked.

Only psycopg is imported (no LangGraph), so ``oic-ai sessions list`` stays quick.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import psycopg
from psycopg import errors as pg_errors

from oic_ai.stores.backoff import Backoff
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.secrets import mask_url
from oic_ai.stores.session_database import SessionsUnreachableError, check_database_url, mask_in
from oic_ai.stores.session_store import (
    TABLE,
    SessionIndex,
    Transaction,
    create_table,
)

_T = TypeVar("_T")

CHECKPOINT_TABLES = ("checkpoints", "checkpoint_blobs", "checkpoint_writes")
"""langgraph-checkpoint-postgres's tables, all keyed by ``thread_id``."""
SCHEMA_LOCK = 0x6F69635F73657373  # "oic_sess": serialises CREATE TABLE between processes
CONNECT_TIMEOUT = 10
_RETRY_FOR_SECONDS = 30.0

SCHEMA = (
    create_table("DOUBLE PRECISION"),
    f"CREATE INDEX IF NOT EXISTS {TABLE}_updated ON {TABLE} (updated DESC)",
    f"CREATE INDEX IF NOT EXISTS {TABLE}_owner ON {TABLE} (owner, updated DESC)",
)


def _reason(exc: BaseException, url: str) -> str:
    """The psycopg message on one line, with the password masked."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return mask_in(text, url)


def connection_error(exc: psycopg.Error, url: str) -> UserInputError:
    """The one-line error for a failed connection: exit 3 unreachable, exit 2 refused."""
    shown = mask_url(url)
    reason = _reason(exc, url)
    lowered = reason.lower()
    if "authentication failed" in lowered or "does not exist" in lowered:
        return UserInputError(
            f"the sessions database {shown} refused the connection ({reason})",
            fix="check the user, password and database name in OIC_AI_DATABASE_URL",
        )
    return SessionsUnreachableError(
        f"cannot reach the sessions database {shown} ({reason})",
        fix="check that PostgreSQL runs there and that OIC_AI_DATABASE_URL is right, "
        "then try again",
    )


def connect(url: str, **options: Any) -> psycopg.Connection[Any]:
    """Open an autocommit connection to ``url``, raising the one-line errors.

    Raises:
        UserInputError: the URL is malformed, or the server refused us (exit 2).
        SessionsUnreachableError: the server cannot be reached (exit 3).
    """
    check_database_url(url)
    options.setdefault("connect_timeout", CONNECT_TIMEOUT)
    options.setdefault("application_name", "oic-ai")
    try:
        return psycopg.connect(url, autocommit=True, **options)
    except psycopg.ProgrammingError as exc:  # a conninfo libpq cannot parse
        raise UserInputError(
            f"the sessions database URL {mask_url(url)} is malformed ({_reason(exc, url)})",
            fix="write it as postgresql://USER@HOST:PORT/DATABASE",
        ) from None
    except psycopg.OperationalError as exc:
        raise connection_error(exc, url) from None


def ensure_schema(conn: psycopg.Connection[Any]) -> None:
    """Create the index table if missing (under an advisory lock: processes race here)."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
        for statement in SCHEMA:
            conn.execute(statement)


def _sql(text: str) -> str:
    """The shared queries' ``?`` placeholders as psycopg's ``%s``."""
    return text.replace("?", "%s")


class _PgTransaction:
    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.conn = conn

    def run(self, sql: str, params: Iterable[Any] = ()) -> int:
        return int(self.conn.execute(_sql(sql), tuple(params)).rowcount)

    def rows(self, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        cursor = self.conn.execute(_sql(sql), tuple(params))
        return [tuple(row) for row in cursor.fetchall()]


class PostgresSessionStore(SessionIndex):
    """The session index in a PostgreSQL database; one lazy connection, reopened if lost."""

    backend = "postgres"
    checkpoint_tables = CHECKPOINT_TABLES
    duplicate_errors = (pg_errors.UniqueViolation,)

    def __init__(self, url: str) -> None:
        """Point the store at a database; nothing is opened until first use."""
        super().__init__()
        self.url = check_database_url(url)
        self._conn: psycopg.Connection[Any] | None = None
        self._schema_ready = False
        self._lock = threading.RLock()

    @property
    def location(self) -> str:
        """The database URL, its password masked."""
        return mask_url(self.url)

    def _connect(self) -> psycopg.Connection[Any]:
        if self._conn is None or self._conn.closed:
            self._conn = connect(self.url)
        return self._conn

    def _drop_connection(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except psycopg.Error:
                pass
        self._conn = None

    def _retry(self, action: Callable[[psycopg.Connection[Any]], _T]) -> _T:
        """Run ``action`` on the connection; reconnect once if it was lost, retry conflicts."""
        backoff = Backoff(_RETRY_FOR_SECONDS, first=0.01, most=0.5)
        reconnected = False
        with self._lock:
            while True:
                conn = self._connect()
                try:
                    return action(conn)
                except (pg_errors.SerializationFailure, pg_errors.DeadlockDetected):
                    backoff.sleep(self._kept_refusing)
                except psycopg.OperationalError as exc:
                    if not conn.closed and not isinstance(exc, pg_errors.AdminShutdown):
                        raise
                    self._drop_connection()  # the server went away (restart, failover)
                    if reconnected:
                        raise connection_error(exc, self.url) from None
                    reconnected = True

    def _kept_refusing(self) -> SessionsUnreachableError:
        return SessionsUnreachableError(
            f"the sessions database {self.location} kept refusing a write "
            f"for {_RETRY_FOR_SECONDS:.0f} s",
            fix="try again",
        )

    def _write(self, work: Callable[[Transaction], _T]) -> _T:
        def attempt(conn: psycopg.Connection[Any]) -> _T:
            if not self._schema_ready:
                self._schema_ready = self._table_exists(conn)
                if not self._schema_ready:  # the first write ever (the savers make it too)
                    ensure_schema(conn)
                    self._schema_ready = True
            with conn.transaction():
                return work(_PgTransaction(conn))

        return self._retry(attempt)

    def _read(
        self, sql: str, params: Iterable[Any] = (), *, on_missing_table: bool = False
    ) -> list[tuple[Any, ...]]:
        args = tuple(params)

        def attempt(conn: psycopg.Connection[Any]) -> list[tuple[Any, ...]]:
            try:
                return _PgTransaction(conn).rows(sql, args)
            except pg_errors.UndefinedTable:
                return []  # reading never creates the index

        del on_missing_table  # a missing table always reads as empty here
        return self._retry(attempt)

    def _tables(self, tx: Transaction) -> set[str]:
        names = [TABLE, *CHECKPOINT_TABLES]
        return {
            str(r[0])
            for r in tx.rows(
                "SELECT t FROM unnest(CAST(? AS TEXT[])) AS t WHERE to_regclass(t) IS NOT NULL",
                [names],
            )
        }

    @staticmethod
    def _table_exists(conn: psycopg.Connection[Any]) -> bool:
        rows = conn.execute("SELECT to_regclass(%s) IS NOT NULL", (TABLE,)).fetchall()
        return bool(rows and rows[0][0])

    def exists(self) -> bool:
        """Whether the index table exists (reading never creates it)."""
        return self._retry(self._table_exists)

    def size_bytes(self) -> int:
        """The index's and the checkpointer's tables, with their indexes and TOAST."""
        names = [TABLE, *CHECKPOINT_TABLES]
        rows = self._read(
            "SELECT coalesce(sum(pg_total_relation_size(to_regclass(t))), 0) "
            "FROM unnest(CAST(? AS TEXT[])) AS t WHERE to_regclass(t) IS NOT NULL",
            [names],
        )
        return int(rows[0][0]) if rows else 0

    def vacuum(self) -> None:
        """``VACUUM (ANALYZE)`` the tables: their free space is reused, the server stays up.

        Unlike SQLite's VACUUM this does not shrink the files (``VACUUM FULL`` would, but
        it locks the tables against a running server); see docs/deploy.md.
        """

        def run(conn: psycopg.Connection[Any]) -> None:
            present = self._tables(_PgTransaction(conn))
            tables = [t for t in (TABLE, *CHECKPOINT_TABLES) if t in present]
            if tables:
                conn.execute("VACUUM (ANALYZE) " + ", ".join(tables))

        self._retry(run)

    def close(self) -> None:
        """Close the connection; the store reconnects if used again."""
        with self._lock:
            self._drop_connection()
