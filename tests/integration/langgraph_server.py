"""Start ``langgraph dev`` on a free loopback port for a test module, and stop it by PID.

The data folder (and so ``sessions.sqlite``) lives outside the project, so writes there
never reload the server. The server runs in its own process group, which is stopped as
one, also when a test fails.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import PROJECT

LANGGRAPH = Path(sys.executable).parent / "langgraph"
STARTUP_SECONDS = 60.0
GRAPH_ID = "oic-ai"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def server_env(data_dir: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("OIC_AI_", "OLLAMA_", "OPENAI_", "LANGSMITH_", "LANGCHAIN_"))
    }
    env.update(
        OIC_AI_DATA_DIR=str(data_dir),
        OIC_AI_PROVIDER="builtin",
        LANGGRAPH_CLI_NO_ANALYTICS="1",
        LANGGRAPH_NO_VERSION_CHECK="1",
        HF_HUB_OFFLINE="1",
        ANONYMIZED_TELEMETRY="False",
        OPENBLAS_NUM_THREADS="1",
        NO_PROXY="127.0.0.1,localhost",
    )
    return env


def is_up(url: str) -> bool:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(f"{url}/ok", timeout=2) as answer:
            return bool(answer.status == 200)
    except (OSError, urllib.error.URLError):
        return False


@dataclass
class Server:
    url: str
    data_dir: Path
    env: dict[str, str]
    process: subprocess.Popen[bytes]
    log: Path

    def log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""


@contextmanager
def langgraph_dev(root: Path, *extra: str) -> Iterator[Server]:
    """Run ``langgraph dev`` with its data folder and log under ``root``; skip without it."""
    if not LANGGRAPH.exists():
        pytest.skip("langgraph-cli is not installed")
    data_dir = root / "data"  # outside the project: writes there never reload the server
    log = root / "server.log"
    port = free_port()
    env = server_env(data_dir)
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [
                str(LANGGRAPH),
                "dev",
                "--no-browser",
                "--no-reload",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                *extra,
            ],
            cwd=PROJECT,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, stopped as one below
        )
    running = Server(f"http://127.0.0.1:{port}", data_dir, env, process, log)
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while not is_up(running.url):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"langgraph dev did not start:\n{running.log_tail()}")
            time.sleep(0.3)
        yield running
    finally:
        stop(process)


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(15)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(5)


def cli(server: Server, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "oic_ai", *args],
        cwd=PROJECT,
        env=server.env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def cli_json(server: Server, *args: str) -> Any:
    done = cli(server, *args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def message(text: str) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": text}]}
