"""The session index: one row per conversation, beside LangGraph's checkpoints.

A session is a LangGraph thread. Its checkpoints live in the ``checkpoints`` and
``writes`` tables that ``SqliteSaver`` / ``AsyncSqliteSaver`` keep in
``<data dir>/sessions.sqlite``. Reading a title or a turn count from there means
unpickling checkpoints, so the graph's ``respond`` node also records each turn in a
small table of ours in the same file, and ``oic-ai sessions list`` reads only that.

Only ``sqlite3`` is imported here: listing sessions must start fast. The database runs
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

import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

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

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS {TABLE} (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    turns INTEGER NOT NULL DEFAULT 0,
    template TEXT,
    status TEXT,
    provider TEXT,
    request TEXT
);
CREATE INDEX IF NOT EXISTS {TABLE}_updated ON {TABLE} (updated DESC);
"""
_COLUMNS = "id, title, created, updated, turns, template, status, provider, request"


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

    def to_json(self) -> dict[str, Any]:
        """Return the ``sessions list --json`` shape, times as ISO-8601 UTC strings."""
        out = asdict(self)
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


class SessionStore:
    """The session rows in the sessions database; cheap to create, connects lazily.

    One store may be shared by several threads; several stores (in several processes)
    may share one file.
    """

    def __init__(self, path: Path | str) -> None:
        """Point the store at a database file; nothing is opened until first use."""
        self.path = Path(path)
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.RLock()

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

    def _retry(self, action: Callable[[], _T]) -> _T:
        """Run ``action``, retrying while another writer holds the database."""
        deadline = time.monotonic() + _RETRY_FOR_SECONDS
        pause = 0.01
        while True:
            try:
                return action()
            except sqlite3.OperationalError as exc:
                if not is_busy(exc):
                    if is_damage(exc):
                        raise DamagedDatabaseError(self.path, str(exc)) from None
                    raise
                if time.monotonic() >= deadline:
                    raise UserInputError(
                        f"the sessions database {self.path} stayed busy for "
                        f"{_RETRY_FOR_SECONDS:.0f} s",
                        fix="another oic-ai or langgraph dev process is holding it; try again",
                    ) from None
                time.sleep(pause)
                pause = min(pause * 2, 0.5)
            except sqlite3.DatabaseError as exc:
                if is_damage(exc):  # damaged since it was opened
                    raise DamagedDatabaseError(self.path, str(exc)) from None
                raise

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction that takes the write lock up front."""
        conn = self._connect()
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def _read(self, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        if self._conn is None and not self.path.exists():
            return []  # reading never creates the database
        args = tuple(params)
        with self._lock:
            conn = self._connect()
            return self._retry(lambda: conn.execute(sql, args).fetchall())

    def close(self) -> None:
        """Close the connection; the store reconnects if used again."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> SessionStore:
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
        """
        when = time.time() if now is None else now
        name = template_name(template)
        title = make_title(request)
        row = (session_id, title, when, when, turn or 1, name, status, provider, request, turn)

        def upsert() -> None:
            with self._write() as conn:
                conn.execute(
                    f"INSERT INTO {TABLE} ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT(id) DO UPDATE SET updated = excluded.updated, "
                    "turns = coalesce(?, turns + 1), "
                    "template = coalesce(excluded.template, template), "
                    "status = excluded.status, provider = excluded.provider, "
                    "request = excluded.request",
                    row,
                )

        with self._lock:
            self._retry(upsert)

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
        )

        def insert() -> None:
            with self._write() as conn:
                conn.execute(
                    f"INSERT INTO {TABLE} ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    tuple(asdict(summary).values()),
                )

        with self._lock:
            try:
                self._retry(insert)
            except sqlite3.IntegrityError:
                raise UserInputError(
                    f"session {session_id} exists already", fix="choose another id"
                ) from None
        return summary

    def retitle(self, session_id: str, title: str) -> None:
        """Give a session a new title (e.g. "rerun of … with ollama").

        Raises:
            UserInputError: there is no such session.
        """
        new_title = make_title(title, limit=TITLE_LENGTH + 20)

        def update() -> int:
            with self._write() as conn:
                sql = f"UPDATE {TABLE} SET title = ? WHERE id = ?"
                return conn.execute(sql, (new_title, session_id)).rowcount

        with self._lock:
            if self._retry(update) == 0:
                raise UserInputError(f"no session {session_id!r}", fix=LIST_HINT)

    def delete(self, session_id: str) -> None:
        """Delete a session: its row and its thread's checkpoints and writes.

        Raises:
            UserInputError: there is no such session.
        """
        if self._delete_many([session_id]) == 0:
            raise UserInputError(f"no session {session_id!r}", fix=LIST_HINT)

    def prune(self, older_than_seconds: float, *, now: float | None = None) -> int:
        """Delete sessions not updated within ``older_than_seconds``, then VACUUM.

        Their checkpoints go too. Returns how many sessions were deleted.
        """
        if older_than_seconds < 0:
            raise UserInputError("the age to prune must not be negative", fix="use e.g. 7d")
        cutoff = (time.time() if now is None else now) - older_than_seconds
        ids = [row[0] for row in self._read(f"SELECT id FROM {TABLE} WHERE updated < ?", [cutoff])]
        deleted = self._delete_many(ids) if ids else 0
        if self.path.exists():
            self.vacuum()
        return deleted

    def vacuum(self) -> None:
        """Rebuild the file to give freed pages back, and fold the WAL into it."""

        def run() -> None:
            conn = self._connect()
            conn.execute("VACUUM")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

        with self._lock:
            self._retry(run)

    def _delete_many(self, ids: list[str]) -> int:
        def run() -> int:
            with self._write() as conn:
                tables = {
                    row[0]
                    for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                }
                count = 0
                for start in range(0, len(ids), 500):
                    chunk = ids[start : start + 500]
                    marks = ",".join("?" * len(chunk))
                    count += conn.execute(
                        f"DELETE FROM {TABLE} WHERE id IN ({marks})", chunk
                    ).rowcount
                    for table in CHECKPOINT_TABLES:
                        if table in tables:
                            conn.execute(f"DELETE FROM {table} WHERE thread_id IN ({marks})", chunk)
                return count

        with self._lock:
            return self._retry(run)

    # reads ----------------------------------------------------------------------

    def list(self, limit: int | None = None) -> list[SessionSummary]:
        """Return sessions, the most recently updated first."""
        sql = f"SELECT {_COLUMNS} FROM {TABLE} ORDER BY updated DESC, id"
        params: list[Any] = []
        if limit is not None:
            sql += " LIMIT ?"
            params.append(max(limit, 0))
        return [SessionSummary(*row) for row in self._read(sql, params)]

    def get(self, id_or_prefix: str) -> SessionSummary:
        """Return the session with this id, or the one session whose id starts so.

        Raises:
            UserInputError: no session matches, or the prefix matches several.
        """
        key = id_or_prefix.strip()
        if not key:
            raise UserInputError("a session id is required", fix=LIST_HINT)
        rows = self._read(f"SELECT {_COLUMNS} FROM {TABLE} WHERE id = ?", [key])
        if not rows:
            rows = self._read(
                f"SELECT {_COLUMNS} FROM {TABLE} WHERE substr(id, 1, ?) = ? LIMIT 6",
                [len(key), key],
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

    def find(self, session_id: str) -> SessionSummary | None:
        """Return the session with exactly this id, or None."""
        rows = self._read(f"SELECT {_COLUMNS} FROM {TABLE} WHERE id = ?", [session_id])
        return SessionSummary(*rows[0]) if rows else None

    def latest(
        self, within_seconds: float | None = None, *, now: float | None = None
    ) -> SessionSummary | None:
        """Return the most recently updated session, for ``--continue``.

        Args:
            within_seconds: Only a session updated this recently counts (the
                ``session_timeout``); older ones are left alone, never deleted.
            now: The time to measure from; defaults to now.
        """
        newest = self.list(limit=1)
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
