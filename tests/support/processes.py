"""Child processes: start on a free loopback port, wait until ready, stop by PID.

Every process runs in its own process group, which is stopped as one (also when a test
fails), so a server's workers never outlive the test.
"""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

WAIT_LIMIT = 180.0  # a hung child fails the test instead of hanging it


def free_port() -> int:
    """A loopback port that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def http_ok(url: str, expect: str = "") -> bool:
    """Whether ``GET url`` answers 200 (with ``expect`` in the body), bypassing proxies."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(url, timeout=2) as answer:
            return bool(answer.status == 200) and expect in answer.read().decode()
    except (OSError, urllib.error.URLError):
        return False


def log_tail(log: Path, chars: int = 3000) -> str:
    """The end of a process's log file."""
    return log.read_text(errors="replace")[-chars:] if log.exists() else "(no log)"


@contextmanager
def started(
    argv: Sequence[str],
    *,
    env: Mapping[str, str],
    log: Path,
    cwd: Path | None = None,
    grace: float = 15.0,
) -> Iterator[subprocess.Popen[Any]]:
    """Start ``argv`` in its own process group, output to ``log``; stop the group on exit."""
    with log.open("wb") as sink:
        process = subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield process
    finally:
        stop(process, grace)


def stop(process: subprocess.Popen[Any], grace: float = 15.0) -> None:
    """SIGTERM the process group, then SIGKILL it after ``grace`` seconds (0: at once)."""
    if process.poll() is not None:
        return
    if grace > 0:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(grace)
            return
        except subprocess.TimeoutExpired:
            pass
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(30)


def wait_for(
    condition: Callable[[], bool],
    process: subprocess.Popen[Any],
    what: str,
    limit: float = WAIT_LIMIT,
    interval: float = 0.01,
) -> None:
    """Poll until ``condition`` holds; fail if the process ends first or takes too long."""
    deadline = time.monotonic() + limit
    while not condition():
        if process.poll() is not None:
            raise AssertionError(f"the process ended (code {process.returncode}) before {what}")
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(interval)


def sigkill(process: subprocess.Popen[Any]) -> None:
    """SIGKILL the process (by its PID) and reap it; it must really have been killed."""
    os.kill(process.pid, signal.SIGKILL)
    assert process.wait(30) == -signal.SIGKILL


def integrity(db: Path) -> str:
    """``PRAGMA integrity_check`` of an SQLite file (``ok`` when sound)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        conn.close()
