"""Two libraries on one real ``chroma run`` server: neither can erase or see the other.

Before libraries were part of the collection name, indexing one library deleted every
entry that was not in it, and ``cache clear --chroma-url`` dropped every oic-ai
collection on the server without asking.
"""

from __future__ import annotations

import json
import os
import pty
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import OUR_TEMPLATES, PROJECT
from tests.support.cli import cli_env, oic, one_line_error
from tests.support.processes import stop
from tests.support.servers import CHROMA_QUIET, Server, chroma_run, langgraph_dev

pytestmark = pytest.mark.integration

OURS = (
    "ubuntu24-x86_64-minimal-raw.yml",
    "debian13-x86_64-web-server-raw.yml",
)
THEIRS = (
    "el10-x86_64-monitoring-web-raw.yml",
    "emt3-x86_64-ai-inference-raw.yml",
    "azl3-x86_64-installer-iso.yml",
)
CLIENT_ENV = {**cli_env(), **CHROMA_QUIET}


@dataclass
class Library:
    templates: Path
    data: Path
    server: Server

    def args(self, *args: str) -> list[str]:
        return [
            *args,
            *("--chroma-url", self.server.url, "--data-dir", str(self.data)),
            *("--templates-dir", str(self.templates), "--embedding-provider", "local"),
        ]

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return oic(*self.args(*args), cwd=self.data.parent, env=CLIENT_ENV, timeout=120)

    def run_json(self, *args: str) -> Any:
        result = self.run(*args, "--json")
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)

    def on_a_terminal(self, answer: str, *args: str) -> tuple[int, str, str]:
        """Run with stdin on a pseudo-terminal, typing ``answer``; (code, stdout, stderr)."""
        primary, secondary = pty.openpty()
        process = subprocess.Popen(
            [sys.executable, "-m", "oic_ai", *self.args(*args)],
            stdin=secondary,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=PROJECT,
            env=CLIENT_ENV,
            text=True,
            start_new_session=True,
        )
        os.close(secondary)
        try:
            os.write(primary, answer.encode() + b"\n")
            out, err = process.communicate(timeout=120)
        finally:
            stop(process)
            os.close(primary)
        return process.returncode, out, err


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with chroma_run(tmp_path_factory.mktemp("shared-chroma")) as running:
        yield running


def _library(root: Path, names: tuple[str, ...], server: Server) -> Library:
    templates = root / "templates"
    templates.mkdir(parents=True)
    for name in names:
        shutil.copy(OUR_TEMPLATES / name, templates / name)
    return Library(templates, root / "data", server)


@pytest.fixture(scope="module")
def ours(server: Server, tmp_path_factory: pytest.TempPathFactory) -> Library:
    return _library(tmp_path_factory.mktemp("ours"), OURS, server)


@pytest.fixture(scope="module")
def theirs(server: Server, tmp_path_factory: pytest.TempPathFactory) -> Library:
    return _library(tmp_path_factory.mktemp("theirs"), THEIRS, server)


@pytest.fixture(scope="module")
def both_indexed(ours: Library, theirs: Library) -> None:
    assert ours.run_json("index")["created"] == len(OURS)
    assert theirs.run_json("index")["created"] == len(THEIRS)


def _entries(library: Library) -> int:
    stats = library.run_json("cache", "stats")
    return int(stats["entries"])


def test_indexing_one_library_keeps_the_others_entries(
    ours: Library, theirs: Library, both_indexed: None
) -> None:
    again = ours.run_json("index")
    assert (again["unchanged"], again["deleted"]) == (len(OURS), 0)
    assert (_entries(ours), _entries(theirs)) == (len(OURS), len(THEIRS))
    ours_stats, theirs_stats = ours.run_json("cache", "stats"), theirs.run_json("cache", "stats")
    (mine,), (other,) = ours_stats["collections"], theirs_stats["collections"]
    assert mine["name"] != other["name"]
    assert mine["name"].startswith("oic_") and mine["name"].endswith("_384d")
    assert mine["library"] == ours_stats["library"] != theirs_stats["library"]


def test_searching_one_library_never_returns_the_others(
    ours: Library, theirs: Library, both_indexed: None
) -> None:
    for query in ("monitoring web server on el10", "ai inference image", "installer iso"):
        answer = ours.run_json("search", query, "--top-k", "10")
        assert answer["results"], answer
        assert {Path(r["path"]).name for r in answer["results"]} <= set(OURS), answer
    answer = theirs.run_json("search", "minimal ubuntu raw image", "--top-k", "10")
    assert answer["results"], answer
    assert {Path(r["path"]).name for r in answer["results"]} <= set(THEIRS), answer


def test_an_explicit_library_name_shares_one_collection_across_folders(
    server: Server, tmp_path: Path, both_indexed: None
) -> None:
    """Two hosts, the library at different paths, one name: the second host embeds nothing."""
    config = tmp_path / "config.yaml"
    config.write_text("ai:\n  library:\n    name: team-library\n")
    first = _library(tmp_path / "host-a", OURS, server)
    second = _library(tmp_path / "host-b", OURS, server)
    assert first.run_json("index", "--config", str(config))["created"] == len(OURS)
    report = second.run_json("index", "--config", str(config))
    assert (report["unchanged"], report["embedded"]) == (len(OURS), 0)
    stats = second.run_json("cache", "stats", "--config", str(config))
    assert stats["library"] == "team-library"
    assert [c["name"] for c in stats["collections"]] == ["oic_team-library_all-minilm-l6-v2_384d"]


def test_cache_clear_without_a_terminal_needs_yes(ours: Library, both_indexed: None) -> None:
    line = one_line_error(ours.run("cache", "clear"), 2)
    assert ours.server.url in line and "--yes" in line
    assert _entries(ours) == len(OURS), "nothing was deleted"


def test_cache_clear_asks_on_a_terminal_and_clears_only_this_library(
    ours: Library, theirs: Library, both_indexed: None
) -> None:
    code, out, err = ours.on_a_terminal("n", "cache", "clear")
    assert code == 0, err
    assert f"Delete {len(OURS)} entries of library" in err and ours.server.url in err
    assert "Nothing cleared." in out
    assert _entries(ours) == len(OURS)

    code, out, err = ours.on_a_terminal("y", "cache", "clear")
    assert code == 0, err
    assert f"Cleared the embedding cache ({len(OURS)} entries)." in out
    assert (_entries(ours), _entries(theirs)) == (0, len(THEIRS))
    answer = theirs.run_json("search", "installer iso")
    assert answer["results"], "their library still answers"

    assert theirs.run_json("cache", "clear", "--yes") == {"cleared": len(THEIRS)}
    assert ours.run_json("index")["created"] == len(OURS), "ours rebuilds from its folder"


def test_a_team_server_and_its_members_share_the_librarys_collection(
    server: Server, tmp_path: Path
) -> None:
    """``langgraph dev`` retrieves from the shared Chroma; a member with the same library
    name (the library at another path) finds it indexed already."""
    names = OURS + THEIRS
    hosted = _library(tmp_path / "host", names, server)
    team = {"OIC_AI_LIBRARY_NAME": "team-lib", "OIC_AI_CHROMA_URL": server.url, **CHROMA_QUIET}
    (tmp_path / "api").mkdir()
    with langgraph_dev(tmp_path / "api", OIC_AI_TEMPLATES_DIR=str(hosted.templates), **team) as api:
        client = cli_env(tmp_path / "client", OIC_AI_SERVER_URL=api.url)
        done = oic("generate", "a minimal ubuntu 24.04 raw image", "--json", env=client)
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout)
        assert result["base_template"] == OURS[0], result["sources"]
        assert {Path(s["path"]).name for s in result["sources"]} <= set(names)
        embedded = api.data_dir / "chroma"
        assert not embedded.exists() or not any(embedded.iterdir()), "the server used Chroma"

    config = tmp_path / "config.yaml"
    config.write_text("ai:\n  library:\n    name: team-lib\n")
    member = _library(tmp_path / "member", names, server)
    report = member.run_json("index", "--config", str(config))
    assert (report["unchanged"], report["embedded"]) == (len(names), 0)
