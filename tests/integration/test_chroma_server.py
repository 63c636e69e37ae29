"""``oic-ai index/search/cache --chroma-url`` against a real ``chroma run`` server.

The server runs on a free loopback port with its own data folder; oic-ai's embedded
store under ``--data-dir`` must stay unused.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import OUR_TEMPLATES
from tests.integration.fake_servers import down_url

pytestmark = pytest.mark.integration

CHROMA = Path(sys.executable).parent / "chroma"
STARTUP_SECONDS = 60.0
UBUNTU = "ubuntu24-x86_64-minimal-raw"
# One Ubuntu template among four other distributions, so the query's best match is
# unambiguous.
TEMPLATE_NAMES = (
    f"{UBUNTU}.yml",
    "debian13-x86_64-web-server-raw.yml",
    "el10-x86_64-monitoring-web-raw.yml",
    "emt3-x86_64-ai-inference-raw.yml",
    "azl3-x86_64-installer-iso.yml",
)
QUIET_ENV = {
    "ANONYMIZED_TELEMETRY": "False",  # the Python client's product telemetry
    "CHROMA_ANONYMIZED_TELEMETRY": "False",  # the same, for the server's CHROMA_* config
    "OTEL_SDK_DISABLED": "true",  # no OpenTelemetry export from the Rust server
    "HF_HUB_OFFLINE": "1",
    # MiniLM runs on NumPy; OpenBLAS threads spinning against other busy processes made
    # embedding these 5 templates take 12 s instead of 0.5 s on a 2-CPU machine.
    "OPENBLAS_NUM_THREADS": "1",
}


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def heartbeat(url: str) -> bool:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(f"{url}/api/v2/heartbeat", timeout=2) as answer:
            return answer.status == 200 and "heartbeat" in answer.read().decode()
    except (OSError, urllib.error.URLError):
        return False


def clean_env() -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("OIC_AI_", "OLLAMA_", "OPENAI_", "CHROMA_"))
    }
    env.update(QUIET_ENV)
    return env


def _log_tail(log: Path) -> str:
    return log.read_text(errors="replace")[-2000:] if log.exists() else "(no log)"


@dataclass
class ChromaServer:
    url: str
    path: Path
    process: subprocess.Popen[bytes]
    log: Path


def _start(root: Path, attempt: int) -> ChromaServer | None:
    """Start ``chroma run``; None when the port was taken before it could bind."""
    port = free_port()
    log = root / f"chroma-server-{attempt}.log"
    url = f"http://127.0.0.1:{port}"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [
                str(CHROMA),
                "run",
                "--path",
                str(root / "server-db"),
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
            ],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=root,
            env=clean_env(),
        )
    server = ChromaServer(url, root / "server-db", process, log)
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if heartbeat(url):
            return server
        if process.poll() is not None:
            if "in use" in _log_tail(log).lower():
                return None  # lost the race for the port; try another
            pytest.fail(f"chroma run exited with {process.returncode}:\n{_log_tail(log)}")
        time.sleep(0.2)
    _stop(server)
    pytest.fail(f"chroma run did not answer within {STARTUP_SECONDS:.0f}s:\n{_log_tail(log)}")


def _stop(server: ChromaServer) -> None:
    if server.process.poll() is None:
        server.process.terminate()
        try:
            server.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait(timeout=10)


@pytest.fixture(scope="module")
def chroma_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ChromaServer]:
    if not CHROMA.is_file():
        pytest.skip(f"no chroma command at {CHROMA}")
    root = tmp_path_factory.mktemp("chroma-server")
    server = None
    for attempt in range(3):
        server = _start(root, attempt)
        if server is not None:
            break
    if server is None:
        pytest.fail("could not find a free port for chroma run")
    try:
        yield server
    finally:
        _stop(server)
    assert server.process.returncode is not None


@dataclass
class Workspace:
    templates: Path
    data: Path
    server: ChromaServer

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "oic_ai", *args]
        command += ["--chroma-url", self.server.url, "--data-dir", str(self.data)]
        command += ["--templates-dir", str(self.templates), "--embedding-provider", "local"]
        return subprocess.run(
            command,
            capture_output=True,
            text=True,
            cwd=self.data.parent,
            env=clean_env(),
            timeout=120,
        )

    def run_json(self, *args: str) -> Any:
        result = self.run(*args, "--json")
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
        return json.loads(result.stdout)

    def assert_embedded_store_unused(self) -> None:
        embedded = self.data / "chroma"
        assert not embedded.exists() or not any(embedded.iterdir()), sorted(embedded.rglob("*"))


@pytest.fixture(scope="module")
def workspace(chroma_server: ChromaServer, tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    root = tmp_path_factory.mktemp("oic-ai")
    templates = root / "templates"
    templates.mkdir()
    for name in TEMPLATE_NAMES:
        shutil.copy(OUR_TEMPLATES / name, templates / name)
    return Workspace(templates, root / "data", chroma_server)


@pytest.fixture(scope="module")
def first_index(workspace: Workspace) -> dict[str, Any]:
    report: dict[str, Any] = workspace.run_json("index")
    return report


def test_index_writes_every_template_to_the_server(
    workspace: Workspace, first_index: dict[str, Any]
) -> None:
    assert first_index["created"] == 5
    assert first_index["embedded"] == 5
    assert first_index["skipped"] == []
    assert (workspace.server.path / "chroma.sqlite3").is_file(), "the server persisted it"
    workspace.assert_embedded_store_unused()


def test_indexing_again_embeds_nothing(workspace: Workspace, first_index: dict[str, Any]) -> None:
    again = workspace.run_json("index")

    assert again["unchanged"] == 5
    assert (again["created"], again["updated"], again["embedded"]) == (0, 0, 0)
    workspace.assert_embedded_store_unused()


def test_search_through_the_server(workspace: Workspace, first_index: dict[str, Any]) -> None:
    answer = workspace.run_json("search", "minimal ubuntu raw image")

    results = answer["results"]
    assert results, answer
    best = results[0]
    assert UBUNTU in f"{best['template']} {best['path']}", results
    assert best["os"] == "ubuntu" and best["image_type"] == "raw"
    assert all(r["os"] != "ubuntu" for r in results[1:])
    assert best["score"] >= max(r["score"] for r in results)
    workspace.assert_embedded_store_unused()


def test_cache_stats_read_the_server(workspace: Workspace, first_index: dict[str, Any]) -> None:
    stats = workspace.run_json("cache", "stats")

    assert stats["entries"] == 5
    assert stats["store"] == workspace.server.url
    assert stats["size_bytes"] is None, "the size of a remote store is unknown"
    (collection,) = stats["collections"]
    assert collection["entries"] == 5
    assert collection["name"].startswith("templates-")
    workspace.assert_embedded_store_unused()


def test_an_unreachable_chroma_url_exits_2_with_one_line(tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    templates.mkdir()
    shutil.copy(OUR_TEMPLATES / TEMPLATE_NAMES[0], templates)
    with down_url() as url:
        started = time.monotonic()
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "oic_ai",
                "index",
                "--chroma-url",
                url,
                "--data-dir",
                str(tmp_path / "data"),
                "--templates-dir",
                str(templates),
            ],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=clean_env(),
            timeout=120,
        )
        elapsed = time.monotonic() - started
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert result.stderr.startswith("oic-ai: ") and result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert url in result.stderr
    assert elapsed < 30
    assert not (tmp_path / "data" / "chroma").exists()
