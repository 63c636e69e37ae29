"""``oic-ai index/search/cache --chroma-url`` against a real ``chroma run`` server.

The server runs on a free loopback port with its own data folder; oic-ai's embedded
store under ``--data-dir`` must stay unused.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import OUR_TEMPLATES
from tests.support.cli import cli_env, oic
from tests.support.loopback import down_url
from tests.support.servers import CHROMA_QUIET, Server, chroma_run

pytestmark = pytest.mark.integration

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
# The client's Chroma settings are quiet too. MiniLM runs on NumPy with one OpenBLAS
# thread (cli_env): threads spinning against other busy processes made embedding these
# 5 templates take 12 s instead of 0.5 s on a 2-CPU machine.
CLIENT_ENV = {**cli_env(), **CHROMA_QUIET}


@pytest.fixture(scope="module")
def chroma_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with chroma_run(tmp_path_factory.mktemp("chroma-server")) as server:
        yield server
    assert server.process.returncode is not None


@dataclass
class Workspace:
    templates: Path
    data: Path
    server: Server

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return oic(
            *args,
            *("--chroma-url", self.server.url, "--data-dir", str(self.data)),
            *("--templates-dir", str(self.templates), "--embedding-provider", "local"),
            cwd=self.data.parent,
            env=CLIENT_ENV,
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
def workspace(chroma_server: Server, tmp_path_factory: pytest.TempPathFactory) -> Workspace:
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
    assert (workspace.server.data_dir / "chroma.sqlite3").is_file(), "the server persisted it"
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
    assert collection["name"].startswith("oic_")
    workspace.assert_embedded_store_unused()


def test_an_unreachable_chroma_url_exits_3_with_one_line(tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    templates.mkdir()
    shutil.copy(OUR_TEMPLATES / TEMPLATE_NAMES[0], templates)
    with down_url() as url:
        started = time.monotonic()
        result = oic(
            *("index", "--chroma-url", url, "--data-dir", str(tmp_path / "data")),
            *("--templates-dir", str(templates)),
            cwd=tmp_path,
            env=CLIENT_ENV,
            timeout=120,
        )
        elapsed = time.monotonic() - started
    assert result.returncode == 3, (result.stdout, result.stderr)  # retryable: unreachable
    assert result.stderr.startswith("oic-ai: ") and result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert url in result.stderr
    assert elapsed < 30
    assert not (tmp_path / "data" / "chroma").exists()
