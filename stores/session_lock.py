"""One turn at a time per session, across threads, processes and every door.

A turn reads the session's head checkpoint, runs, and writes new checkpoints on top of
it. ``stores.turn_lock.turn_lock`` (``aturn_lock`` for the server) is the one lock every
door takes for a whole turn: the CLI and the Python API (``TemplateAgent``), the served graph
of ``oic-ai serve`` and ``langgraph dev`` (``graph/served.py``) and the REST routes that
change a session. With SQLite it is :func:`session_lock`, a ``flock`` per session under
``<data dir>/session-locks/``; with PostgreSQL a transaction-level advisory lock keyed by
the session (``stores/session_lock_pg.py``), which holds across hosts too. A waiter gives
up after ``$OIC_AI_SESSION_WAIT`` seconds with ``SessionBusyError`` (exit 3, HTTP 409).
"""

from __future__ import annotations

import asyncio
import fcntl
import hashlib
import os
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

from oic_ai.stores.backoff import Backoff
from oic_ai.stores.errors import UserInputError

LOCKS_FOLDER = "session-locks"
SESSION_WAIT_ENV = "OIC_AI_SESSION_WAIT"
DEFAULT_SESSION_WAIT = 60.0
"""Seconds a turn waits for another turn on the same session before giving up."""


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
    fd = _open_lock_file(data_dir, session_id)
    try:
        backoff = Backoff(wait, first=0.02, most=0.25)
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                backoff.sleep(lambda: busy_error(session_id, wait))
        yield
    finally:
        os.close(fd)  # closing the only descriptor releases the lock


def busy_error(session_id: str, wait: float) -> SessionBusyError:
    """The one line for a session another turn kept past the wait."""
    return SessionBusyError(
        f"session is busy, try again: another turn on {session_id} held it for more than "
        f"{wait:g} s",
        fix=f"or set {SESSION_WAIT_ENV} to wait longer",
    )


def _open_lock_file(data_dir: Path | str, session_id: str) -> int:
    path = session_lock_path(data_dir, session_id)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        raise UserInputError(
            f"cannot create the session lock {path} ({exc.strerror or exc})",
            fix="check the data folder's permissions or choose another with --data-dir",
        ) from None


def _try_flock(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


@asynccontextmanager
async def asession_lock(
    data_dir: Path | str, session_id: str, *, timeout: float | None = None
) -> AsyncIterator[None]:
    """:func:`session_lock` for an event loop: the file work runs in worker threads."""
    wait = session_wait() if timeout is None else timeout
    fd = await asyncio.to_thread(_open_lock_file, data_dir, session_id)
    try:
        backoff = Backoff(wait, first=0.02, most=0.25)
        while not await asyncio.to_thread(_try_flock, fd):
            await backoff.asleep(lambda: busy_error(session_id, wait))
        yield
    finally:
        os.close(fd)
