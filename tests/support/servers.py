"""Real servers for integration tests: ``langgraph dev`` and ``chroma run``.

Each starts on a free loopback port (another one when it lost the race for it), is
polled until its health URL answers, and is stopped by its process-group id when the
``with`` block ends, also when a test fails. Without the server's command, the test
is skipped.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import PROJECT
from tests.support.cli import cli_env
from tests.support.env import clean_env
from tests.support.processes import free_port, http_ok, log_tail, started

BIN = Path(sys.executable).parent
LANGGRAPH = BIN / "langgraph"
CHROMA = BIN / "chroma"
STARTUP_SECONDS = 60.0
GRAPH_ID = "oic-ai"
# chroma run: no product telemetry from the client or the server, no OpenTelemetry export.
CHROMA_QUIET = {"CHROMA_ANONYMIZED_TELEMETRY": "False", "OTEL_SDK_DISABLED": "true"}


@dataclass
class Server:
    """A running server: its base URL, process, log, and the environment it was given."""

    url: str
    process: subprocess.Popen[Any]
    log: Path
    env: dict[str, str]
    data_dir: Path

    def log_tail(self) -> str:
        """The end of its log."""
        return log_tail(self.log)


@contextmanager
def loopback_server(
    command: Path,
    args: Callable[[int], Sequence[str]],
    *,
    health: str,
    expect: str = "",
    env: Mapping[str, str],
    root: Path,
    data_dir: Path,
    cwd: Path | None = None,
    attempts: int = 3,
) -> Iterator[Server]:
    """Run ``command *args(port)`` until ``GET url+health`` answers; stop its group after."""
    name = command.name
    if not command.exists():
        pytest.skip(f"no {name} command at {command}")
    for attempt in range(attempts):
        port = free_port()
        log = root / f"{name}-server-{attempt}.log"
        with started([str(command), *args(port)], env=env, log=log, cwd=cwd) as process:
            server = Server(f"http://127.0.0.1:{port}", process, log, dict(env), data_dir)
            if _ready(server, name, health, expect):
                yield server
                return
    pytest.fail(f"could not find a free port for {name}")


def _ready(server: Server, name: str, health: str, expect: str) -> bool:
    """Wait for the health URL; False when the port was taken before the server bound it."""
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if http_ok(server.url + health, expect):
            return True
        if server.process.poll() is not None:
            if "in use" in server.log_tail().lower():
                return False
            pytest.fail(f"{name} exited with {server.process.returncode}:\n{server.log_tail()}")
        time.sleep(0.2)
    pytest.fail(f"{name} did not answer within {STARTUP_SECONDS:.0f}s:\n{server.log_tail()}")


def langgraph_dev(root: Path, *extra: str, **env_extra: str) -> AbstractContextManager[Server]:
    """``langgraph dev`` on this checkout's graph, with its data folder and log under ``root``.

    The data folder (and so ``sessions.sqlite``) lies outside the project, so writes there
    never reload the server; the builtin planner answers.
    """
    data_dir = root / "data"
    env = cli_env(
        data_dir,
        OIC_AI_PROVIDER="builtin",
        LANGGRAPH_CLI_NO_ANALYTICS="1",
        LANGGRAPH_NO_VERSION_CHECK="1",
        **env_extra,
    )

    config = dev_config(root)

    def args(port: int) -> list[str]:
        return [
            "dev",
            "--config",
            str(config),
            "--no-browser",
            "--no-reload",
            "--host",
            "127.0.0.1",
            f"--port={port}",
            *extra,
        ]

    # its own working folder: the in-memory runtime keeps its threads and runs in
    # ./.langgraph_api, which two servers in one folder (parallel tests) would share
    return loopback_server(
        LANGGRAPH, args, health="/ok", env=env, root=root, data_dir=data_dir, cwd=root
    )


def oic_serve(root: Path, *extra: str, **env_extra: str) -> AbstractContextManager[Server]:
    """``oic-ai serve --no-browser`` with its data folder, working folder and log in ``root``."""
    data_dir = root / "data"
    quiet = {"LANGGRAPH_CLI_NO_ANALYTICS": "1", "LANGGRAPH_NO_VERSION_CHECK": "1"}
    env = cli_env(data_dir, **{"OIC_AI_PROVIDER": "builtin", **quiet, **env_extra})

    def args(port: int) -> list[str]:
        host = ["--host", "127.0.0.1", f"--port={port}"]
        return ["-m", "oic_ai", "serve", "--no-browser", *host, *extra]

    work = root / "work"
    work.mkdir(exist_ok=True)
    return loopback_server(
        Path(sys.executable), args, health="/ok", env=env, root=root, data_dir=data_dir, cwd=work
    )


def dev_config(root: Path) -> Path:
    """This checkout's ``langgraph.json``, written under ``root`` to run from there.

    Its graph, checkpointer, auth and app are module paths, which resolve from any folder;
    only the dependency becomes this checkout's absolute path.
    """
    import json

    config = json.loads((PROJECT / "langgraph.json").read_text())
    config["dependencies"] = [str(PROJECT)]
    path = root / "langgraph.json"
    path.write_text(json.dumps(config, indent=2))
    return path


def chroma_run(root: Path) -> AbstractContextManager[Server]:
    """``chroma run`` with its database (``server.data_dir``) and log under ``root``."""
    data_dir = root / "server-db"
    env = {**clean_env(), **CHROMA_QUIET}

    def args(port: int) -> list[str]:
        return ["run", "--path", str(data_dir), "--host", "127.0.0.1", "--port", str(port)]

    health, expect = "/api/v2/heartbeat", "heartbeat"
    return loopback_server(
        CHROMA, args, health=health, expect=expect, env=env, root=root, data_dir=data_dir, cwd=root
    )


def message(text: str) -> dict[str, Any]:
    """A LangGraph API input with one user message."""
    return {"messages": [{"role": "user", "content": text}]}
