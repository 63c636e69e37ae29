"""Damage detection for the sessions database: every open checks the file first.

``check_database`` reads the header and runs ``PRAGMA quick_check`` read-only; a damaged
file raises ``DamagedDatabaseError`` (exit 2) and is never written. Only ``sqlite3`` is
imported: ``oic-ai sessions list`` passes through here and must start fast. The repair
itself (``oic-ai sessions repair``) is ``stores.session_repair``.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from oic_ai.stores.errors import UserInputError

BUSY_TIMEOUT_MS = 15_000
REPAIR_HINT = "run `oic-ai sessions repair` (it keeps what can still be read)"
_SQLITE_HEADER = b"SQLite format 3\x00"
SIDE_FILES = ("-wal", "-shm", "-journal")
_checked: dict[tuple[str, int, int, int], None] = {}  # files that passed, by identity
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
        conn = sqlite3.connect(read_only_uri(path), uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
    except sqlite3.Error as exc:
        return str(exc)
    try:
        rows = conn.execute("PRAGMA quick_check").fetchall()
    except sqlite3.OperationalError as exc:
        if is_busy(exc):
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


def is_busy(error: sqlite3.OperationalError) -> bool:
    """Whether an SQLite error means another connection holds the database."""
    message = str(error).lower()
    return "locked" in message or "busy" in message


def is_damage(error: sqlite3.DatabaseError) -> bool:
    """Whether an SQLite error means the file itself is damaged."""
    message = str(error).lower()
    return "malformed" in message or "not a database" in message or "corrupt" in message
