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

Two more guards live here because every front door passes through them:

- ``session_lock``: one turn at a time per session, across threads and processes (a
  ``flock`` per session under ``<data dir>/session-locks/``); a waiter gives up after
  ``$OIC_AI_SESSION_WAIT`` seconds with ``SessionBusyError`` (exit 3).
- ``check_database``: every open first checks the file (header, ``PRAGMA
  quick_check``, read-only); a damaged file raises ``DamagedDatabaseError`` (exit 2)
  and is never written. ``repair_database`` (``oic-ai sessions repair``) moves it
  aside and rebuilds it from what can still be read.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
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

SESSIONS_FILE = "sessions.sqlite"
TABLE = "oic_sessions"
TITLE_LENGTH = 60
LIST_HINT = "see the ids with `oic-ai sessions list`"
CHECKPOINT_TABLES = ("checkpoints", "writes")  # langgraph-checkpoint-sqlite's tables

LOCKS_FOLDER = "session-locks"
SESSION_WAIT_ENV = "OIC_AI_SESSION_WAIT"
DEFAULT_SESSION_WAIT = 60.0
"""Seconds a turn waits for another turn on the same session before giving up."""

_BUSY_TIMEOUT_MS = 15_000
_RETRY_FOR_SECONDS = 60.0
_T = TypeVar("_T")

_SCHEMA = f"""
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


class SessionBusyError(UserInputError):
    """Another turn holds the session; retryable, so the command line exits 3."""

    exit_code = 3


def session_wait(env: dict[str, str] | None = None) -> float:
    """How long a turn waits for a busy session: ``$OIC_AI_SESSION_WAIT`` or 60 s."""
    text = (os.environ if env is None else env).get(SESSION_WAIT_ENV, "").strip()
    if not text:
        return DEFAULT_SESSION_WAIT
    try:
        seconds = float(text)
    except ValueError:
        raise UserInputError(
            f"{SESSION_WAIT_ENV}={text!r} is not a number of seconds", fix="e.g. 60"
        ) from None
    if seconds != seconds or seconds < 0:  # NaN or negative
        raise UserInputError(f"{SESSION_WAIT_ENV} must be 0 or more seconds", fix="e.g. 60")
    return seconds


def session_lock_path(data_dir: Path | str, session_id: str) -> Path:
    """The lock file of one session (named by a hash, so any id is a safe name)."""
    digest = hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return Path(data_dir) / LOCKS_FOLDER / f"{digest}.lock"


@contextmanager
def session_lock(
    data_dir: Path | str, session_id: str, *, timeout: float | None = None
) -> Iterator[None]:
    """Hold one session for a turn, across threads and processes.

    A turn reads the session's head checkpoint, runs, and writes new checkpoints on top
    of it; two turns at once would both start from the same head and one of them would
    be lost. The lock is an exclusive ``flock`` on a per-session file in the data
    folder: each holder opens the file itself, so threads of one process exclude each
    other too, and the kernel releases it when a holder dies.

    Args:
        data_dir: The data folder (``Settings.data_dir``).
        session_id: The session (thread) id.
        timeout: Seconds to wait for another holder; None reads :func:`session_wait`.

    Raises:
        SessionBusyError: another turn still held the session when the wait ran out.
        UserInputError: the lock folder cannot be created.
    """
    wait = session_wait() if timeout is None else timeout
    path = session_lock_path(data_dir, session_id)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        raise UserInputError(
            f"cannot create the session lock {path} ({exc.strerror or exc})",
            fix="check the data folder's permissions or choose another with --data-dir",
        ) from None
    try:
        deadline = time.monotonic() + wait
        pause = 0.02
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise SessionBusyError(
                        f"session is busy, try again: another turn on {session_id} "
                        f"held it for more than {wait:g} s",
                        fix=f"or set {SESSION_WAIT_ENV} to wait longer",
                    ) from None
                time.sleep(pause)
                pause = min(pause * 2, 0.25)
        yield
    finally:
        os.close(fd)  # closing the only descriptor releases the lock


# --- damage: detect at open, repair on request -----------------------------------------

REPAIR_HINT = "run `oic-ai sessions repair` (it keeps what can still be read)"
_SQLITE_HEADER = b"SQLite format 3\x00"
_SIDE_FILES = ("-wal", "-shm", "-journal")
_checked: dict[tuple[str, int, int, int], None] = {}  # files that passed, by identity
_checked_lock = threading.Lock()


class DamagedDatabaseError(UserInputError):
    """The sessions database failed its check: nothing may write into it."""

    def __init__(self, path: Path, detail: str) -> None:
        """Name the file and what is wrong with it."""
        self.path = path
        self.detail = detail
        super().__init__(f"the sessions database {path} is damaged ({detail})", fix=REPAIR_HINT)


def _read_only_uri(path: Path) -> str:
    """A ``file:`` URI that opens ``path`` read-only (``%``, ``?`` and ``#`` escaped)."""
    text = str(path.resolve()).replace("%", "%25").replace("?", "%3f").replace("#", "%23")
    return f"file:{text}?mode=ro"


def _identity(path: Path) -> tuple[str, int, int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return (str(path.resolve()), info.st_ino, info.st_size, info.st_mtime_ns)


def database_problem(path: Path | str) -> str | None:
    """What is wrong with an SQLite file, or None when it is sound (or absent or empty).

    Reads the header, then runs ``PRAGMA quick_check`` on a read-only connection: it
    walks every page once (about a millisecond per megabyte) without comparing indexes
    to their tables, and it never writes, not even a WAL checkpoint.
    """
    path = Path(path)
    try:
        with path.open("rb") as handle:
            header = handle.read(len(_SQLITE_HEADER))
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot read it: {exc.strerror or exc}"
    if not header:
        return None  # an empty file is a new database
    if header != _SQLITE_HEADER:
        return "it does not start with an SQLite header"
    try:
        conn = sqlite3.connect(_read_only_uri(path), uri=True, timeout=_BUSY_TIMEOUT_MS / 1000)
    except sqlite3.Error as exc:
        return str(exc)
    try:
        rows = conn.execute("PRAGMA quick_check").fetchall()
    except sqlite3.OperationalError as exc:
        if _is_busy(exc):
            return None  # a writer holds it; the writes themselves will tell
        return str(exc)
    except sqlite3.DatabaseError as exc:
        return str(exc)
    finally:
        conn.close()
    if rows == [("ok",)]:
        return None
    first = str(rows[0][0]) if rows else "no answer"
    more = f", and {len(rows) - 1} more problem(s)" if len(rows) > 1 else ""
    return f"quick_check: {' '.join(first.split())}{more}"


def check_database(path: Path | str) -> None:
    """Refuse a damaged sessions database before anything reads or writes it.

    The check runs once per process for each version of the file (its inode, size and
    modification time), so a command that opens the file several times pays once.

    Raises:
        DamagedDatabaseError: the file is not a sound SQLite database.
    """
    path = Path(path)
    key = _identity(path)
    if key is None:
        return
    with _checked_lock:
        if key in _checked:
            return
    problem = database_problem(path)
    if problem is not None:
        raise DamagedDatabaseError(path, problem)
    with _checked_lock:
        _checked[key] = None


@dataclass(frozen=True)
class RepairReport:
    """What ``sessions repair`` did.

    Attributes:
        path: The sessions database (now a working one).
        damaged: Why it failed its check; None when it was sound (nothing was done).
        moved_to: Where the damaged file went, beside the new one.
        method: ``recover`` (the ``sqlite3`` program's ``.recover``) or ``copy`` (row by
            row, table by table).
        tables: Rows kept per table.
        sessions: Sessions in the repaired index.
        lost_tables: Tables that could not be read at all.
        dropped: Rows per table that SQLite returned but whose contents did not decode
            (e.g. a checkpoint whose bytes ran into a damaged page).
    """

    path: str
    damaged: str | None
    moved_to: str | None = None
    method: str | None = None
    tables: dict[str, int] | None = None
    sessions: int = 0
    lost_tables: tuple[str, ...] = ()
    dropped: dict[str, int] | None = None

    def to_json(self) -> dict[str, Any]:
        """The ``sessions repair --json`` shape."""
        out = asdict(self)
        out["repaired"] = self.damaged is not None
        out["tables"] = dict(self.tables or {})
        out["lost_tables"] = list(self.lost_tables)
        out["dropped"] = dict(self.dropped or {})
        return out


RowCheck = Callable[[str, dict[str, Any]], bool]
"""``keep(table, row)``: whether a salvaged row's contents still make sense."""


def _drop_unreadable(target: Path, keep: RowCheck) -> dict[str, int]:
    """Delete the salvaged rows that ``keep`` rejects or that do not decode; count them."""
    dropped: dict[str, int] = {}
    conn = sqlite3.connect(target, isolation_level=None)
    try:
        names = [
            str(row[0])
            for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        conn.execute("BEGIN")
        for name in names:
            quoted = '"' + name.replace('"', '""') + '"'
            cursor = conn.execute(f"SELECT * FROM {quoted} LIMIT 0")
            columns = [d[0] for d in cursor.description]
            rowids = [int(r[0]) for r in conn.execute(f"SELECT rowid FROM {quoted}")]
            doomed = []
            for rowid in rowids:
                try:  # text that is not UTF-8 fails right here
                    values = conn.execute(
                        f"SELECT * FROM {quoted} WHERE rowid = ?", (rowid,)
                    ).fetchone()
                    good = keep(name, dict(zip(columns, values, strict=True)))
                except Exception:  # noqa: BLE001 - any failure to read it means drop it
                    good = False
                if not good:
                    doomed.append((rowid,))
            conn.executemany(f"DELETE FROM {quoted} WHERE rowid = ?", doomed)
            if doomed:
                dropped[name] = len(doomed)
        conn.execute("COMMIT")
    finally:
        conn.close()
    return dropped


def _salvage_with_recover(source: Path, target: Path) -> bool:
    """Rebuild ``target`` from ``sqlite3 source .recover``; False when that is impossible.

    Some builds of the ``sqlite3`` program lack the ``sqlite_dbpage`` table ``.recover``
    needs and fail with "SQL logic error"; the row-by-row copy takes over then.
    """
    import shutil  # only repair needs these; listing sessions must start fast
    import subprocess

    program = shutil.which("sqlite3")
    if program is None:
        return False
    try:
        done = subprocess.run(
            [program, "-readonly", str(source.resolve()), ".recover"],
            capture_output=True,
            timeout=600,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    if done.returncode != 0 or b"INSERT" not in done.stdout:
        return False
    script = done.stdout.decode("utf-8", "surrogateescape")
    conn = sqlite3.connect(target, isolation_level=None)
    try:
        conn.executescript(script)
    except sqlite3.Error:
        return False
    finally:
        conn.close()
    return True


def _copy_rows(source: Path, target: Path) -> list[str]:
    """Copy every table that can still be read, row by row; return the unreadable ones."""
    lost: list[str] = []
    src = sqlite3.connect(_read_only_uri(source), uri=True)
    dst = sqlite3.connect(target, isolation_level=None)
    try:
        # past a truncation the header promises more pages than the file has; SQLite
        # reads such a file only with writable_schema on (``.recover`` does the same)
        src.execute("PRAGMA writable_schema = ON")
        try:
            tables = src.execute(
                "SELECT name, sql FROM sqlite_master WHERE type = 'table' "
                "AND name NOT LIKE 'sqlite_%' AND sql IS NOT NULL"
            ).fetchall()
        except sqlite3.DatabaseError:
            return ["sqlite_master"]
        for name, sql in tables:
            try:
                dst.execute(sql)
            except sqlite3.Error:
                lost.append(str(name))
                continue
            if not _copy_table(src, dst, str(name)):
                lost.append(str(name))
    finally:
        src.close()
        dst.close()
    return lost


def _rowids(src: sqlite3.Connection, quoted: str) -> list[int]:
    """The rowids that can be read, from both ends when a damaged page stops a scan."""
    found: set[int] = set()
    for order in ("ASC", "DESC"):
        try:
            for (rowid,) in src.execute(f"SELECT rowid FROM {quoted} ORDER BY rowid {order}"):
                found.add(int(rowid))
        except sqlite3.DatabaseError:
            continue
        break  # a whole scan succeeded
    return sorted(found)


def _copy_table(src: sqlite3.Connection, dst: sqlite3.Connection, name: str) -> bool:
    """Copy the readable rows of one table, one row at a time past damaged pages."""
    quoted = '"' + name.replace('"', '""') + '"'
    try:
        columns = len(src.execute(f"SELECT * FROM {quoted} LIMIT 0").description or ())
    except sqlite3.DatabaseError:
        return False
    insert = f"INSERT OR IGNORE INTO {quoted} VALUES ({','.join('?' * columns)})"
    select = f"SELECT * FROM {quoted} WHERE rowid = ?"
    rowids = _rowids(src, quoted)
    dst.execute("BEGIN")
    try:
        for rowid in rowids:
            try:
                row = src.execute(select, (rowid,)).fetchone()
            except sqlite3.DatabaseError:
                continue  # this row sits on (or overflows into) a damaged page
            if row is not None:
                dst.execute(insert, row)
    except sqlite3.Error:
        dst.execute("ROLLBACK")
        return False
    dst.execute("COMMIT")
    return True


def _count_rows(path: Path) -> tuple[dict[str, int], int]:
    conn = sqlite3.connect(path)
    try:
        names = [
            str(row[0])
            for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        counts = {
            name: int(conn.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0])
            for name in names
        }
    finally:
        conn.close()
    return counts, counts.get(TABLE, 0)


def repair_database(
    path: Path | str, *, use_recover: bool = True, keep: RowCheck | None = None
) -> RepairReport:
    """Move a damaged sessions database aside and rebuild it from what can be read.

    The damaged file (and its ``-wal`` / ``-shm`` files) is renamed to
    ``sessions.sqlite.damaged-<UTC time>`` and never written. What SQLite can still read
    goes into a new file: the ``sqlite3`` program's ``.recover`` when it is installed
    (and ``use_recover``), else a row-by-row copy of each table that survives. The new
    file gets the session table and passes its check before it takes the old name. A
    sound database is left alone. Package indexes and Chroma are not touched.

    Args:
        path: The sessions database.
        use_recover: Try ``sqlite3 .recover`` first.
        keep: Judges each salvaged row; rows it rejects (or that do not decode as
            UTF-8 text) are dropped and counted. Without it only undecodable text is.

    Raises:
        UserInputError: the folder cannot be written.
    """
    path = Path(path)
    problem = database_problem(path)
    if problem is None:
        return RepairReport(path=str(path), damaged=None)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    number = 1
    while aside.exists():
        number += 1
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{number}")
    fresh = path.with_name(f"{path.name}.repair-{stamp}.tmp")
    try:
        # salvage from the damaged file where it is, read-only: if anything below
        # fails, it is still there, unchanged
        fresh.unlink(missing_ok=True)
        method = "recover"
        lost: list[str] = []
        if not (use_recover and _salvage_with_recover(path, fresh)):
            method = "copy"
            fresh.unlink(missing_ok=True)
            lost = _copy_rows(path, fresh)
        conn = sqlite3.connect(fresh, isolation_level=None)
        try:
            conn.executescript(_SCHEMA)
        finally:
            conn.close()
        dropped = _drop_unreadable(fresh, keep or (lambda _table, _row: True))
        if database_problem(fresh) is not None:  # a salvage that is unsound: start empty
            fresh.unlink()
            method, lost, dropped = "none", ["(everything)"], {}
            conn = sqlite3.connect(fresh, isolation_level=None)
            try:
                conn.executescript(_SCHEMA)
            finally:
                conn.close()
        tables, sessions = _count_rows(fresh)
        for suffix in _SIDE_FILES:  # read-only checks may leave empty ones behind
            Path(f"{fresh}{suffix}").unlink(missing_ok=True)
        for suffix in _SIDE_FILES:  # the WAL travels with its database
            side = Path(f"{path}{suffix}")
            if side.exists():
                side.rename(f"{aside}{suffix}")
        path.rename(aside)
        os.replace(fresh, path)
    except OSError as exc:
        raise UserInputError(
            f"cannot repair {path} ({exc.strerror or exc})",
            fix="check the data folder's permissions and free space",
        ) from None
    finally:
        for leftover in [fresh, *(Path(f"{fresh}{x}") for x in _SIDE_FILES)]:
            if leftover.exists() and leftover != path:
                leftover.unlink(missing_ok=True)
    return RepairReport(
        path=str(path),
        damaged=problem,
        moved_to=str(aside),
        method=method,
        tables=tables,
        sessions=sessions,
        lost_tables=tuple(lost),
        dropped=dropped,
    )


def _is_busy(error: sqlite3.OperationalError) -> bool:
    message = str(error).lower()
    return "locked" in message or "busy" in message


def _is_damage(error: sqlite3.DatabaseError) -> bool:
    message = str(error).lower()
    return "malformed" in message or "not a database" in message or "corrupt" in message


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
                    timeout=_BUSY_TIMEOUT_MS / 1000,
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
        conn.execute(f"PRAGMA busy_timeout = {_BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.executescript(_SCHEMA)

    def _retry(self, action: Callable[[], _T]) -> _T:
        """Run ``action``, retrying while another writer holds the database."""
        deadline = time.monotonic() + _RETRY_FOR_SECONDS
        pause = 0.01
        while True:
            try:
                return action()
            except sqlite3.OperationalError as exc:
                if not _is_busy(exc):
                    if _is_damage(exc):
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
                if _is_damage(exc):  # damaged since it was opened
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
