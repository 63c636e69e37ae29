"""``generate`` as a user runs it: bad requests and outputs, and a relative library.

Issue 12: items 2 and 16b (``--output`` onto a FIFO or a folder is refused before the turn
runs, naming what it is), 13 (an empty request or ``--session ""`` is a usage error) and
11 (a relative ``--templates-dir`` works: a search result's path already starts with the
library folder, and joining the folder to it again read ``lib/lib/<name>.yml``).
"""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest

from oic_ai.nodes.generate import _source_texts
from oic_ai.stores.session_store import sessions_db_path
from tests.conftest import OUR_TEMPLATES
from tests.support.cli import cli_env, oic, one_line_error


def _generate(tmp_path: Path, *args: str) -> str:
    env = cli_env(tmp_path / "data", OIC_AI_PROVIDER="builtin")
    return one_line_error(oic("generate", *args, env=env, cwd=tmp_path))


# --- item 2: a FIFO is not replaced, and the turn does not even run ------------------------


def test_generate_refuses_a_fifo_output_before_the_turn(tmp_path: Path) -> None:
    fifo = tmp_path / "out.yml"
    os.mkfifo(fifo)
    line = _generate(tmp_path, "add htop", "--output", str(fifo), "--force")
    assert "FIFO" in line and "not a regular file" in line
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


# --- item 16b: a folder is called a folder at once -------------------------------------------


@pytest.mark.parametrize("force", [False, True])
def test_output_onto_a_folder_says_folder_at_once(tmp_path: Path, force: bool) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    line = _generate(tmp_path, "add htop", "--output", str(folder), *(["--force"] * force))
    assert "is a folder" in line and "already exists" not in line


# --- item 13: an empty request or session id is a usage error -------------------------------


@pytest.mark.parametrize("request_text", ["", "   ", "\t\n"])
def test_an_empty_request_is_a_usage_error(tmp_path: Path, request_text: str) -> None:
    line = _generate(tmp_path, request_text)
    assert "request is empty" in line
    assert not sessions_db_path(tmp_path / "data").exists()


@pytest.mark.parametrize("session", ["", "  "])
def test_an_empty_session_id_is_a_usage_error(tmp_path: Path, session: str) -> None:
    line = _generate(tmp_path, "add htop", "--session", session)
    assert "--session is empty" in line


def test_chat_refuses_an_empty_session_id(tmp_path: Path) -> None:
    env = cli_env(tmp_path / "data", OIC_AI_PROVIDER="builtin")
    line = one_line_error(oic("chat", "--session", "", env=env, cwd=tmp_path, stdin=""))
    assert "--session is empty" in line


# --- item 11: a relative --templates-dir ----------------------------------------------------

BASE = "ubuntu24-x86_64-minimal-raw.yml"


@pytest.fixture
def library(tmp_path: Path) -> Path:
    """``tmp_path/lib`` holding two templates; the tests run with ``tmp_path`` as cwd."""
    lib = tmp_path / "lib"
    lib.mkdir()
    for name in (BASE, "debian13-x86_64-minimal-raw.yml"):
        shutil.copy(OUR_TEMPLATES / name, lib / name)
    return lib


def test_generate_with_a_relative_templates_dir(tmp_path: Path, library: Path) -> None:
    env = cli_env(tmp_path / "data", OIC_AI_PROVIDER="builtin")
    done = oic(
        "generate",
        "a minimal ubuntu 24.04 image with htop",
        "--templates-dir",
        library.name,
        "--json",
        env=env,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    assert payload["status"] in ("valid", "valid_with_warnings")
    assert "htop" in payload["template"]
    assert payload["sources"][0]["template"] == BASE


def test_yaml_mode_reads_the_sources_of_a_relative_library(
    tmp_path: Path, library: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    source = {"template": BASE, "path": f"{library.name}/{BASE}"}
    texts = _source_texts({"sources": [source]})  # type: ignore[typeddict-item]
    assert texts == [(BASE, (library / BASE).read_text(encoding="utf-8"))]
