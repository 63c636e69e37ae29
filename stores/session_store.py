"""The session index: one row per conversation, beside LangGraph's checkpoints.

A session is a LangGraph thread. Reading a title or a turn count from its checkpoints
means decoding them, so the graph's ``respond`` node also records each turn in a small
table of ours, ``oic_sessions``, that lives WITH the checkpoints, never in another store:

- SQLite (the default): ``<data dir>/sessions.sqlite``, beside the ``checkpoints`` and
  ``writes`` tables of ``SqliteSaver`` / ``AsyncSqliteSaver``
  (:class:`SqliteSessionStore`, this module);
- PostgreSQL (``OIC_AI_DATABASE_URL`` / ``ai.sessions.url`` = ``postgresql://...``): a
  table in the same database as the ``checkpoints``, ``checkpoint_blobs`` and
  ``checkpoint_writes`` tables of ``PostgresSaver`` / ``AsyncPostgresSaver``
  (``stores.session_store_pg.PostgresSessionStore``, which imports psycopg).

Both implement :class:`SessionIndex`, whose queries are written once here;
:func:`oic_ai.stores.session_factory.open_session_store` picks the backend from the
settings. ``oic-ai sessions list``
reads only the index.

Only ``sqlite3`` is imported here: listing sessions must start fast.
The SQLite database runs
in WAL mode with a busy timeout, writes take the lock up front (``BEGIN IMMEDIATE``),
and a write that still meets a busy database is retried, so several processes (the
CLI, ``langgraph dev``, scripts) can share the file and "database is locked" never
reaches the user.

Two more guards sit beside it because every front door passes through them:
``stores.session_lock`` (one turn at a time per session) and ``stores.session_check``
(every open first checks the file; a damaged one is never written). The salvage,
``oic-ai sessions repair``, is ``stores.session_repair``.
"""

from __future__ import annotations

import builtins
import re
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol, TypeVar

from oic_ai.stores.backoff import Backoff
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.session_check import (
    BUSY_TIMEOUT_MS,
    DamagedDatabaseError,
    check_database,
    is_busy,
    is_damage,
)

SESSIONS_FILE = "sessions.sqlite"
TABLE = "oic_sessions"
TITLE_LENGTH = 60
LIST_HINT = "see the ids with `oic-ai sessions list`"
CHECKPOINT_TABLES = ("checkpoints", "writes")  # langgraph-checkpoint-sqlite's tables

_RETRY_FOR_SECONDS = 60.0
_T = TypeVar("_T")


def create_table(timestamp: str) -> str:
    """The index table, in either backend: ``timestamp`` is the SQL type of the times."""
    return f"""CREATE TABLE IF NOT EXISTS {TABLE} (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    created {timestamp} NOT NULL,
    updated {timestamp} NOT NULL,
    turns INTEGER NOT NULL DEFAULT 0,
    template TEXT,
    status TEXT,
    provider TEXT,
    request TEXT,
    owner TEXT
)"""


SCHEMA = f"""
{create_table("REAL")};
CREATE INDEX IF NOT EXISTS {TABLE}_updated ON {TABLE} (updated DESC);
"""
COLUMNS = (
    *("id", "title", "created", "updated", "turns", "template", "status", "provider"),
    *("request", "owner"),
)
_COLUMNS = ", ".join(COLUMNS)


def sessions_db_path(data_dir: Path) -> Path:
    """Return the sessions database under ``data_dir``.

    It is the same file the checkpointer (``SqliteSaver`` / ``AsyncSqliteSaver``) uses.
    """
    return Path(data_dir) / SESSIONS_FILE


def _iso(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class SessionSummary:
    """One session as ``sessions list`` shows it.

    Attributes:
        id: The session id, which is also the LangGraph thread id.
        title: The first request, trimmed to about 60 characters.
        created: When the first turn was recorded (seconds since the epoch).
        updated: When the last turn was recorded.
        turns: How many turns the session has had.
        template: The name of the current template, or None before there is one.
        status: The last turn's status (valid, valid_with_warnings, invalid).
        provider: The planner the last turn used.
        request: The last turn's request.
        owner: The user the session belongs to on a server with users; None for a
            local session (not part of ``sessions list --json``).
    """

    id: str
    title: str
    created: float
    updated: float
    turns: int
    template: str | None
    status: str | None = None
    provider: str | None = None
    request: str | None = None
    owner: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the ``sessions list --json`` shape, times as ISO-8601 UTC strings."""
        out = asdict(self)
        del out["owner"]
        out["created"] = _iso(self.created)
        out["updated"] = _iso(self.updated)
        return out


def make_title(request: str, limit: int = TITLE_LENGTH) -> str:
    """Trim a request to a one-line title of at most ``limit`` characters.

    Cuts on a word boundary when there is one in the second half, and marks the cut
    with an ellipsis.
    """
    text = " ".join(request.split())
    if len(text) <= limit:
        return text or "(empty request)"
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space >= limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:.-") + "…"


_NAME_LINE = re.compile(r"""^[ \t]+name:[ \t]*["']?([^"'#\s]+)""", re.MULTILINE)
_IMAGE_LINE = re.compile(r"^image:[ \t]*$", re.MULTILINE)


def template_name(template: str | None) -> str | None:
    """Return a template's name: the value itself, or ``image.name`` of YAML text.

    Callers may pass either the current template's name or its whole YAML text; the
    list shows the name. Text without an ``image:`` block yields None.
    """
    if template is None:
        return None
    text = template.strip()
    if not text:
        return None
    if "\n" not in text and ":" not in text:
        return text
    image = _IMAGE_LINE.search(template)
    if image is None:
        return None
    match = _NAME_LINE.search(template, image.end())
    return match.group(1) if match else None


_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)\s*([smhdw])")
_UNIT_SECONDS = {"s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0, "w": 604800.0}


def parse_duration(text: str) -> float:
    """Turn ``7d``, ``12h``, ``30m``, ``45s``, ``2w`` or ``1h30m`` into seconds.

    Raises:
        UserInputError: the text is not a duration with units.
    """
    compact = "".join(str(text).lower().split())
    parts = _DURATION_PART.findall(compact)
    if not compact or "".join(n + u for n, u in parts) != compact:
        raise UserInputError(
            f"{text!r} is not a duration",
            fix="write a number and a unit, e.g. 45s, 30m, 12h, 7d or 2w",
        )
    return sum(float(number) * _UNIT_SECONDS[unit] for number, unit in parts)


# --- the interface ----------------------------------------------------------------------


class Transaction(Protocol):
    """What a write transaction offers the shared queries (``?`` placeholders)."""

    def run(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Execute a statement; return its row count."""
        ...

    def rows(self, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        """Execute a query; return its rows."""
        ...


class SessionIndex(ABC):
    """The session rows beside the checkpoints; cheap to create, connects lazily.

    The queries are written once, here, in SQL both backends accept (``?`` placeholders;
    PostgreSQL's backend turns them into ``%s``). A backend supplies the connection,
    transactions, retries, the checkpointer's table names, size and compaction.

    One store may be shared by several threads; several stores (in several processes)
    may share one database.
    """

    backend: str = ""
    """``sqlite`` or ``postgres``."""
    checkpoint_tables: tuple[str, ...] = ()
    """The checkpointer's tables, all keyed by ``thread_id``."""
    duplicate_errors: tuple[type[BaseException], ...] = ()
    """What a write raises for a second row with the same id."""

    def __init__(self) -> None:
        """Set up the lock that serialises this store's use across threads."""
        self._lock = threading.RLock()

    @property
    @abstractmethod
    def location(self) -> str:
        """Where the sessions live, safe to print (a file path, or a masked URL)."""

    @abstractmethod
    def _read(
        self, sql: str, params: Iterable[Any] = (), *, on_missing_table: bool = False
    ) -> list[tuple[Any, ...]]:
        """Rows of a query; empty (creating nothing) when the index does not exist yet.

        ``on_missing_table``: also empty when the query's (checkpointer's) table is missing.
        """

    @abstractmethod
    def _write(self, work: Callable[[Transaction], _T]) -> _T:
        """Run ``work`` in one write transaction (schema ensured, busy retried)."""

    @abstractmethod
    def exists(self) -> bool:
        """Whether the index has been created (reading never creates it)."""

    @abstractmethod
    def size_bytes(self) -> int:
        """How much space the sessions take (file, or tables with indexes and TOAST)."""

    @abstractmethod
    def vacuum(self) -> None:
        """Give the space of deleted rows back (SQLite) or mark it reusable (PostgreSQL)."""

    @abstractmethod
    def _tables(self, tx: Transaction) -> set[str]:
        """The names of the tables that exist now."""

    @abstractmethod
    def close(self) -> None:
        """Close the connection; the store reconnects if used again."""

    def __enter__(self) -> SessionIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # writes ---------------------------------------------------------------------

    def record_turn(
        self,
        session_id: str,
        *,
        request: str,
        template: str | None,
        status: str | None,
        provider: str | None,
        now: float | None = None,
        turn: int | None = None,
        owner: str | None = None,
    ) -> None:
        """Record one finished turn: a new session, or one more turn of an old one.

        Args:
            session_id: The thread id.
            request: The user's request this turn; the first one becomes the title.
            template: The current template's name (or its YAML text, whose
                ``image.name`` is kept). None keeps the previous one.
            status: The turn's status.
            provider: The planner used.
            now: The time to record (seconds since the epoch); defaults to now.
            turn: The turn's number in the thread (state ``turn``). Given, it becomes
                the turn count, which stays right after a run from an older checkpoint
                (a fork inside the thread); None counts one more turn.
            owner: The user the session belongs to (a server with users). A session
                keeps the owner it was created with.
        """
        when = time.time() if now is None else now
        row = (
            session_id,
            make_title(request),
            when,
            when,
            turn or 1,
            template_name(template),
            status,
            provider,
            request,
            owner,
            turn,
        )
        marks = ", ".join("?" * len(COLUMNS))
        sql = (
            f"INSERT INTO {TABLE} ({_COLUMNS}) VALUES ({marks}) "
            "ON CONFLICT(id) DO UPDATE SET updated = excluded.updated, "
            f"turns = coalesce(CAST(? AS INTEGER), {TABLE}.turns + 1), "
            f"template = coalesce(excluded.template, {TABLE}.template), "
            "status = excluded.status, provider = excluded.provider, "
            f"request = excluded.request, owner = coalesce({TABLE}.owner, excluded.owner)"
        )
        self._write(lambda tx: tx.run(sql, row))

    def create(
        self,
        session_id: str,
        *,
        title: str,
        turns: int,
        template: str | None = None,
        status: str | None = None,
        provider: str | None = None,
        request: str | None = None,
        now: float | None = None,
        owner: str | None = None,
    ) -> SessionSummary:
        """Add a session that starts with ``turns`` turns already done (a fork).

        Raises:
            UserInputError: a session with this id exists already.
        """
        when = time.time() if now is None else now
        summary = SessionSummary(
            id=session_id,
            title=make_title(title, limit=TITLE_LENGTH + 20),
            created=when,
            updated=when,
            turns=turns,
            template=template_name(template),
            status=status,
            provider=provider,
            request=request,
            owner=owner,
        )
        self.insert(summary)
        return summary

    def insert(self, summary: SessionSummary) -> None:
        """Add one row exactly as given (a fork, a migration).

        Raises:
            UserInputError: a session with this id exists already.
        """
        marks = ", ".join("?" * len(COLUMNS))
        sql = f"INSERT INTO {TABLE} ({_COLUMNS}) VALUES ({marks})"
        try:
            self._write(lambda tx: tx.run(sql, _row(summary)))
        except self.duplicate_errors:
            raise UserInputError(
                f"session {summary.id} exists already", fix="choose another id"
            ) from None

    def upsert(self, summary: SessionSummary) -> None:
        """Write one row exactly as given, replacing a row with the same id (migration)."""
        marks = ", ".join("?" * len(COLUMNS))
        updates = ", ".join(f"{c} = excluded.{c}" for c in COLUMNS if c != "id")
        sql = (
            f"INSERT INTO {TABLE} ({_COLUMNS}) VALUES ({marks}) "
            f"ON CONFLICT(id) DO UPDATE SET {updates}"
        )
        self._write(lambda tx: tx.run(sql, _row(summary)))

    def retitle(self, session_id: str, title: str) -> None:
        """Give a session a new title (e.g. "rerun of … with ollama").

        Raises:
            UserInputError: there is no such session.
        """
        new_title = make_title(title, limit=TITLE_LENGTH + 20)
        sql = f"UPDATE {TABLE} SET title = ? WHERE id = ?"
        if self._write(lambda tx: tx.run(sql, (new_title, session_id))) == 0:
            raise UserInputError(f"no session {session_id!r}", fix=LIST_HINT)

    def delete(self, session_id: str) -> None:
        """Delete a session: its row and its thread's checkpoints and writes.

        Raises:
            UserInputError: there is no such session.
        """
        if self._delete_many([session_id]) == 0:
            raise UserInputError(f"no session {session_id!r}", fix=LIST_HINT)

    def prune(self, older_than_seconds: float, *, now: float | None = None) -> int:
        """Delete sessions not updated within ``older_than_seconds``, then compact.

        Their checkpoints go too. Returns how many sessions were deleted.
        """
        if older_than_seconds < 0:
            raise UserInputError("the age to prune must not be negative", fix="use e.g. 7d")
        cutoff = (time.time() if now is None else now) - older_than_seconds
        ids = [row[0] for row in self._read(f"SELECT id FROM {TABLE} WHERE updated < ?", [cutoff])]
        deleted = self._delete_many(ids) if ids else 0
        if self.exists():
            self.vacuum()
        return deleted

    def _delete_many(self, ids: list[str]) -> int:
        if not self.exists():
            return 0

        def run(tx: Transaction) -> int:
            tables = self._tables(tx)
            count = 0
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                marks = ",".join("?" * len(chunk))
                count += tx.run(f"DELETE FROM {TABLE} WHERE id IN ({marks})", chunk)
                for table in self.checkpoint_tables:
                    if table in tables:
                        tx.run(f"DELETE FROM {table} WHERE thread_id IN ({marks})", chunk)
            return count

        return self._write(run)

    # reads ----------------------------------------------------------------------

    def list(self, limit: int | None = None, *, owner: str | None = None) -> list[SessionSummary]:
        """Return sessions, the most recently updated first (only ``owner``'s if given)."""
        sql = f"SELECT {_COLUMNS} FROM {TABLE}"
        params: list[Any] = []
        if owner is not None:
            sql += " WHERE owner = ?"
            params.append(owner)
        sql += " ORDER BY updated DESC, id"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(max(limit, 0))
        return [SessionSummary(*row) for row in self._read(sql, params)]

    def get(self, id_or_prefix: str, *, owner: str | None = None) -> SessionSummary:
        """Return the session with this id, or the one session whose id starts so.

        Args:
            id_or_prefix: A session id, or a unique start of one.
            owner: Only this user's sessions count; another's is "no session".

        Raises:
            UserInputError: no session matches, or the prefix matches several.
        """
        key = id_or_prefix.strip()
        if not key:
            raise UserInputError("a session id is required", fix=LIST_HINT)
        scope, scoped = ("", []) if owner is None else (" AND owner = ?", [owner])
        rows = self._read(f"SELECT {_COLUMNS} FROM {TABLE} WHERE id = ?{scope}", [key, *scoped])
        if not rows:
            rows = self._read(
                f"SELECT {_COLUMNS} FROM {TABLE} WHERE substr(id, 1, CAST(? AS INTEGER)) = ?"
                f"{scope} ORDER BY id LIMIT 6",
                [len(key), key, *scoped],
            )
        if not rows:
            raise UserInputError(f"no session {key!r}", fix=LIST_HINT)
        if len(rows) > 1:
            shown = ", ".join(str(r[0])[: len(key) + 4] for r in rows[:5])
            raise UserInputError(
                f"{key!r} matches several sessions ({shown}{', …' if len(rows) > 5 else ''})",
                fix=f"give more of the id; {LIST_HINT}",
            )
        return SessionSummary(*rows[0])

    def find(self, session_id: str, *, owner: str | None = None) -> SessionSummary | None:
        """Return the session with exactly this id (``owner``'s, if given), or None."""
        scope, scoped = ("", []) if owner is None else (" AND owner = ?", [owner])
        sql = f"SELECT {_COLUMNS} FROM {TABLE} WHERE id = ?{scope}"
        rows = self._read(sql, [session_id, *scoped])
        return SessionSummary(*rows[0]) if rows else None

    def latest(
        self,
        within_seconds: float | None = None,
        *,
        now: float | None = None,
        owner: str | None = None,
    ) -> SessionSummary | None:
        """Return the most recently updated session, for ``--continue``.

        Args:
            within_seconds: Only a session updated this recently counts (the
                ``session_timeout``); older ones are left alone, never deleted.
            now: The time to measure from; defaults to now.
            owner: Only this user's sessions count.
        """
        newest = self.list(limit=1, owner=owner)
        if not newest:
            return None
        if within_seconds is not None:
            age = (time.time() if now is None else now) - newest[0].updated
            if age > within_seconds:
                return None
        return newest[0]

    def count(self) -> int:
        """Return how many sessions there are."""
        rows = self._read(f"SELECT count(*) FROM {TABLE}")
        return int(rows[0][0]) if rows else 0

    def thread_ids(self) -> builtins.list[str]:
        """Every thread with checkpoints or an index row (what a migration copies)."""
        if not self.exists():
            return []
        found = {str(r[0]) for r in self._read(f"SELECT id FROM {TABLE}")}
        table = self.checkpoint_tables[0]
        found |= {
            str(r[0])
            for r in self._read(f"SELECT DISTINCT thread_id FROM {table}", on_missing_table=True)
        }
        return sorted(found)


def _row(summary: SessionSummary) -> tuple[Any, ...]:
    return tuple(getattr(summary, f.name) for f in fields(SessionSummary))


# --- SQLite -----------------------------------------------------------------------------


class _SqliteTransaction:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def run(self, sql: str, params: Iterable[Any] = ()) -> int:
        return int(self.conn.execute(sql, tuple(params)).rowcount)

    def rows(self, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        return list(self.conn.execute(sql, tuple(params)).fetchall())


class SqliteSessionStore(SessionIndex):
    """The session index in ``<data dir>/sessions.sqlite``, beside ``SqliteSaver``'s tables."""

    backend = "sqlite"
    checkpoint_tables = CHECKPOINT_TABLES
    duplicate_errors = (sqlite3.IntegrityError,)

    def __init__(self, path: Path | str) -> None:
        """Point the store at a database file; nothing is opened until first use."""
        super().__init__()
        self.path = Path(path)
        self._conn: sqlite3.Connection | None = None

    @property
    def location(self) -> str:
        """The database file."""
        return str(self.path)

    # connection -----------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        if self._conn is None:
            check_database(self.path)  # before anything, even a PRAGMA, writes to it
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise UserInputError(
                    f"cannot create the data folder {self.path.parent} ({exc.strerror or exc})",
                    fix="choose another with --data-dir or OIC_AI_DATA_DIR",
                ) from None
            try:
                conn = sqlite3.connect(
                    self.path,
                    timeout=BUSY_TIMEOUT_MS / 1000,
                    isolation_level=None,  # autocommit; writes open their own transaction
                    check_same_thread=False,
                )
            except sqlite3.OperationalError as exc:
                raise UserInputError(
                    f"cannot open the sessions database {self.path} ({exc})",
                    fix="check the folder's permissions or choose another with --data-dir",
                ) from None
            try:
                self._retry(lambda: self._prepare(conn))
            except BaseException:
                conn.close()
                raise
            self._conn = conn
        return self._conn

    @staticmethod
    def _prepare(conn: sqlite3.Connection) -> None:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.executescript(SCHEMA)
        columns = {row[1] for row in conn.execute(f"PRAGMA table_info({TABLE})")}
        if "owner" not in columns:  # an index from before issue 14
            conn.execute(f"ALTER TABLE {TABLE} ADD COLUMN owner TEXT")

    def _retry(self, action: Callable[[], _T]) -> _T:
        """Run ``action``, retrying while another writer holds the database."""
        backoff = Backoff(_RETRY_FOR_SECONDS, first=0.01, most=0.5)
        while True:
            try:
                return action()
            except sqlite3.OperationalError as exc:
                if not is_busy(exc):
                    if is_damage(exc):
                        raise DamagedDatabaseError(self.path, str(exc)) from None
                    raise
                backoff.sleep(self._stayed_busy)
            except sqlite3.DatabaseError as exc:
                if is_damage(exc):  # damaged since it was opened
                    raise DamagedDatabaseError(self.path, str(exc)) from None
                raise

    def _stayed_busy(self) -> UserInputError:
        return UserInputError(
            f"the sessions database {self.path} stayed busy for {_RETRY_FOR_SECONDS:.0f} s",
            fix="another oic-ai or langgraph dev process is holding it; try again",
        )

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction that takes the write lock up front."""
        conn = self._connect()
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def _write(self, work: Callable[[Transaction], _T]) -> _T:
        def attempt() -> _T:
            with self._transaction() as conn:
                return work(_SqliteTransaction(conn))

        with self._lock:
            return self._retry(attempt)

    def _read(
        self, sql: str, params: Iterable[Any] = (), *, on_missing_table: bool = False
    ) -> list[tuple[Any, ...]]:
        if self._conn is None and not self.path.exists():
            return []  # reading never creates the database
        args = tuple(params)
        with self._lock:
            conn = self._connect()
            try:
                return self._retry(lambda: conn.execute(sql, args).fetchall())
            except sqlite3.OperationalError as exc:
                if on_missing_table and "no such table" in str(exc):
                    return []
                raise

    def _tables(self, tx: Transaction) -> set[str]:
        return {r[0] for r in tx.rows("SELECT name FROM sqlite_master WHERE type = 'table'")}

    def exists(self) -> bool:
        """Whether the database file exists."""
        return self._conn is not None or self.path.exists()

    def size_bytes(self) -> int:
        """The database file's size (the WAL is folded in by :meth:`vacuum`)."""
        return self.path.stat().st_size if self.path.exists() else 0

    def close(self) -> None:
        """Close the connection; the store reconnects if used again."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def vacuum(self) -> None:
        """Rebuild the file to give freed pages back, and fold the WAL into it."""

        def run() -> None:
            conn = self._connect()
            conn.execute("VACUUM")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

        with self._lock:
            self._retry(run)


SessionStore = SqliteSessionStore
"""The SQLite index under its earlier name (tests, benches and scripts build it by path)."""
