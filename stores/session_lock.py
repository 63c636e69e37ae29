"""One turn at a time per session, across threads and processes.

A turn reads the session's head checkpoint, runs, and writes new checkpoints on top of
it. ``session_lock`` holds a ``flock`` per session under ``<data dir>/session-locks/``;
a waiter gives up after ``$OIC_AI_SESSION_WAIT`` seconds with ``SessionBusyError``
(exit 3).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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
