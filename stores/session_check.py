"""Damage detection for the sessions database: every open checks the file first.

``check_database`` runs ``PRAGMA quick_check`` on a read-only connection; a damaged
file raises ``DamagedDatabaseError`` (exit 2) and is never written. Only ``sqlite3`` is
imported: ``oic-ai sessions list`` passes through here and must start fast. The repair
itself (``oic-ai sessions repair``) is ``stores.session_repair``.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from oic_ai.stores.errors import UserInputError

BUSY_TIMEOUT_MS = 15_000
REPAIR_HINT = "run `oic-ai sessions repair` (it keeps what can still be read)"
SIDE_FILES = ("-wal", "-shm", "-journal")
_checked: dict[tuple[str, int], None] = {}  # files that passed, by path and inode
_checked_lock = threading.Lock()


class DamagedDatabaseError(UserInputError):
    """The sessions database failed its check: nothing may write into it."""

    def __init__(self, path: Path, detail: str) -> None:
        """Name the file and what is wrong with it."""
        self.path = path
        self.detail = detail
        super().__init__(f"the sessions database {path} is damaged ({detail})", fix=REPAIR_HINT)


def read_only_uri(path: Path) -> str:
    """A ``file:`` URI that opens ``path`` read-only (``%``, ``?`` and ``#`` escaped)."""
    text = str(path.resolve()).replace("%", "%25").replace("?", "%3f").replace("#", "%23")
    return f"file:{text}?mode=ro"


def _identity(path: Path) -> tuple[str, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return (str(path.resolve()), info.st_ino)


_ATTEMPTS = 3


def _transient(error: sqlite3.OperationalError) -> bool:
    """An I/O error a concurrent writer can cause (a short read while the file grows)."""
    return getattr(error, "sqlite_errorname", "").startswith("SQLITE_IOERR")


def _quick_check(path: Path) -> list[Any] | sqlite3.Error:
    """``PRAGMA quick_check``'s rows on a read-only connection, or the error it raised."""
    try:
        conn = sqlite3.connect(read_only_uri(path), uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
    except sqlite3.Error as exc:
        return exc
    try:
        return conn.execute("PRAGMA quick_check").fetchall()
    except sqlite3.Error as exc:
        return exc
    finally:
        conn.close()


def database_problem(path: Path | str) -> str | None:
    """What is wrong with an SQLite file, or None when it is sound (or absent or empty).

    Runs ``PRAGMA quick_check`` on a read-only connection (retried on a transient I/O error): it
    walks every page once (about a millisecond per megabyte) without comparing indexes
    to their tables, and it never writes, not even a WAL checkpoint.
    """
    path = Path(path)
    # Only SQLite may open the file: closing any other descriptor on it would drop the
    # POSIX locks this process's own connections hold (a server's saver, for one).
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot read it: {exc.strerror or exc}"
    if size == 0:
        return None  # an empty file is a new database
    for attempt in range(_ATTEMPTS):
        rows = _quick_check(path)
        if not (isinstance(rows, sqlite3.OperationalError) and _transient(rows)):
            break
        time.sleep(0.05 * (attempt + 1))  # a writer in another connection moved the file
    if isinstance(rows, sqlite3.Error):
        if isinstance(rows, sqlite3.OperationalError) and is_busy(rows):
            return None  # a writer holds it; the writes themselves will tell
        return str(rows)
    if rows == [("ok",)]:
        return None
    first = str(rows[0][0]) if rows else "no answer"
    more = f", and {len(rows) - 1} more problem(s)" if len(rows) > 1 else ""
    return f"quick_check: {' '.join(first.split())}{more}"


def check_database(path: Path | str) -> None:
    """Refuse a damaged sessions database before anything reads or writes it.

    The check runs once per process for each file (its path and inode), so a command or a
    server that opens the file many times pays once; damage that appears later is caught
    where SQLite reports it (``is_damage``).

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


def is_busy(error: sqlite3.OperationalError) -> bool:
    """Whether an SQLite error means another connection holds the database."""
    message = str(error).lower()
    return "locked" in message or "busy" in message


def is_damage(error: sqlite3.DatabaseError) -> bool:
    """Whether an SQLite error means the file itself is damaged."""
    message = str(error).lower()
    return "malformed" in message or "not a database" in message or "corrupt" in message
