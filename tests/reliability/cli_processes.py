"""Run ``python -m oic_ai`` as a real process on an isolated data folder, and stop it by PID.

Shared by the crash-safety, concurrency and security tests: every process gets a clean
environment (no provider, key or tracing variables of the caller), runs offline, and is
killed by its own process group id, also when a test fails.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.conftest import PROJECT

CLI_TIMEOUT = 300.0
WAIT_LIMIT = 180.0  # a hung child fails the test instead of hanging it


def cli_env(data_dir: Path, **extra: str) -> dict[str, str]:
    """The caller's environment without oic-ai, model or tracing settings, plus ``extra``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("OIC_AI_", "OLLAMA_", "OPENAI_", "LANGSMITH_", "LANGCHAIN_"))
    }
    env.update(
        OIC_AI_DATA_DIR=str(data_dir),
        HF_HUB_OFFLINE="1",
        ANONYMIZED_TELEMETRY="False",
        OPENBLAS_NUM_THREADS="1",
        NO_PROXY="127.0.0.1,localhost",
        PYTHONPATH=str(PROJECT),
    )
    env.update(extra)
    return env


def oic(
    env: Mapping[str, str], *args: str, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run one ``oic-ai`` command to the end."""
    return subprocess.run(
        [sys.executable, "-m", "oic_ai", *args],
        cwd=cwd or PROJECT,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=CLI_TIMEOUT,
    )


def oic_json(env: Mapping[str, str], *args: str, cwd: Path | None = None) -> Any:
    """Run a command with ``--json``; it must exit 0 and print one JSON document."""
    done = oic(env, *args, "--json", cwd=cwd)
    assert done.returncode == 0, (args, done.returncode, done.stderr[-3000:])
    return json.loads(done.stdout)


@contextmanager
def started(
    env: Mapping[str, str], argv: list[str], *, cwd: Path | None = None, log: Path
) -> Iterator[subprocess.Popen[bytes]]:
    """Start ``argv`` (after ``python``) in its own process group; kill the group on exit."""
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [sys.executable, *argv],
            cwd=cwd or PROJECT,
            env=dict(env),
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(30)


def wait_for(condition: Callable[[], bool], process: subprocess.Popen[bytes], what: str) -> None:
    """Poll until ``condition`` holds; fail if the process ends first or takes minutes."""
    deadline = time.monotonic() + WAIT_LIMIT
    while not condition():
        if process.poll() is not None:
            raise AssertionError(f"the process ended (code {process.returncode}) before {what}")
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.01)


def sigkill(process: subprocess.Popen[bytes]) -> None:
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
