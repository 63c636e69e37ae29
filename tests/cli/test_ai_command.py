"""``oic-ai ai``: the composer's own command and flags, mapped onto ours."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import OUR_TEMPLATES
from tests.support.cli import cli_env, oic, one_line_error

QUERIES = [
    "cloud elxr raw image",
    "image with nginx and docker-ce",
    "edge IoT minimal raw",
    "minimal without docker",
]


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("ai-data")


@pytest.mark.parametrize("query", QUERIES)
def test_search_only_answers_as_search_does(query: str, data: Path) -> None:
    env = cli_env(data)
    ours = oic("ai", query, "--search-only", "--json", env=env)
    theirs = oic("search", query, "--json", env=env)
    assert ours.returncode == theirs.returncode == 0, ours.stderr + theirs.stderr
    ours_json, theirs_json = json.loads(ours.stdout), json.loads(theirs.stdout)
    ours_json.pop("seconds", None), theirs_json.pop("seconds", None)  # timings differ
    assert ours_json == theirs_json
    assert ours_json["results"]


def test_output_file_name_goes_to_the_working_folder_and_a_name_to_the_library(
    tmp_path: Path,
) -> None:
    library = tmp_path / "library"
    shutil.copytree(OUR_TEMPLATES, library)
    work = tmp_path / "work"
    work.mkdir()
    env = cli_env(tmp_path / "data", OIC_AI_PROVIDER="builtin")
    request = "a minimal ubuntu 24.04 image for x86_64"
    done = oic("ai", request, "--output", "x.yml", "--templates-dir", str(library), env=env,
               cwd=work)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "\nimage:" in (work / "x.yml").read_text()
    named = oic("ai", "add htop", "--continue", "-o", "edge-gw", "--templates-dir",
                str(library), env=env, cwd=work)  # fmt: skip
    assert named.returncode == 0, named.stderr
    assert "htop" in (library / "edge-gw.yml").read_text()
    assert not (work / "edge-gw.yml").exists()
    again = oic("ai", request, "--output", "x.yml", "--templates-dir", str(library), env=env,
                cwd=work)  # fmt: skip
    assert "--force" in one_line_error(again)  # never clobbered without --force


def test_cache_stats_and_one_mode_at_a_time(data: Path) -> None:
    env = cli_env(data)
    stats = oic("ai", "--cache-stats", "--json", env=env)
    assert stats.returncode == 0, stats.stderr
    assert json.loads(stats.stdout) == json.loads(oic("cache", "stats", "--json", env=env).stdout)
    both = oic("ai", "x", "--search-only", "--interactive", env=env)
    assert "--search-only and --interactive" in one_line_error(both)
    assert "no query given" in one_line_error(oic("ai", env=env))


def test_interactive_is_a_chat(tmp_path: Path) -> None:
    env = cli_env(tmp_path / "data", OIC_AI_PROVIDER="builtin")
    done = oic("ai", "--interactive", env=env, stdin="a minimal ubuntu image\n/quit\n")
    assert done.returncode == 0, done.stderr
    assert "oic-ai>" in done.stdout and "saved; continue with" in done.stdout
