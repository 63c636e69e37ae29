"""``generate --templates-dir lib`` with a relative folder (issue 12, item 11).

A search result's path already starts with the library folder; joining the folder to it
again read ``lib/lib/<name>.yml`` and every relative ``--templates-dir`` failed.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from oic_ai.nodes.generate import _source_texts
from tests.conftest import OUR_TEMPLATES
from tests.support.cli import cli_env, oic

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
