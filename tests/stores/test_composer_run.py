"""Following the composer's build: stages, its timing table, artifacts, the last error.

The composer's output is a recorded real run (tests/fixtures/composer/), replayed by
tests/support/replay_composer.py; the real composer runs in ``make e2e-build``.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

from oic_ai.stores.composer_run import (
    STAGES,
    StageEvent,
    find_composer,
    parse_duration,
    run_composer,
)
from oic_ai.stores.errors import BackendUnavailableError
from tests.conftest import FIXTURES, PROJECT

RECORDED = FIXTURES / "composer"


def replay_composer(folder: Path) -> Path:
    """An executable that replays a recorded composer log (see its module)."""
    script = folder / "image-composer-tool"
    replay = PROJECT / "tests" / "support" / "replay_composer.py"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{replay}" "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def test_a_build_is_followed_stage_by_stage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    artifacts = tmp_path / "imagebuild" / "minimal"
    monkeypatch.setenv("OIC_REPLAY_LOG", str(RECORDED / "build-ok.log"))
    monkeypatch.setenv("OIC_REPLAY_ARTIFACTS", str(artifacts))
    monkeypatch.setenv("OIC_REPLAY_ARGS", str(tmp_path / "args.json"))
    config = tmp_path / "run" / "image-composer-tool.yml"
    config.parent.mkdir()
    config.write_text("workers: 1\n")
    events: list[StageEvent] = []
    run = run_composer(
        replay_composer(tmp_path),
        tmp_path / "t.yml",
        log=tmp_path / "logs" / "composer.log",
        config=config,
        on_stage=events.append,
    )
    assert run.ok and run.returncode == 0
    seen = [e.stage for e in events]
    assert seen == [name for name, _ in STAGES]  # every stage, in the composer's order
    assert [s.name for s in run.stages] == seen[:-1]  # "done" has no length
    assert {t.name: t.seconds for t in run.composer_timings}["Image Build"] == pytest.approx(
        143.031
    )
    assert len(run.composer_timings) == 7
    assert [p.name for p in run.artifacts] == [
        "minimal-os-image-debian-13.0.raw.gz",
        "minimal-os-image-debian-13.0.vhdx",
        "spdx_manifest_deb_minimal-os-image-debian_20261125_185608.json",
    ]
    assert all(p.parent == artifacts for p in run.artifacts)
    called = json.loads((tmp_path / "args.json").read_text())
    assert called["args"] == ["--config", str(config), "build", str(tmp_path / "t.yml")]
    assert called["cwd"] == str(config.parent)  # the composer's relative paths hold
    logged = run.log.read_text()
    assert "\x1b[" not in logged and "Image package installation..." in logged


def test_a_failed_build_keeps_its_last_error_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OIC_REPLAY_LOG", str(RECORDED / "build-failed.log"))
    monkeypatch.setenv("OIC_REPLAY_EXIT", "1")
    run = run_composer(replay_composer(tmp_path), tmp_path / "t.yml", log=tmp_path / "c.log")
    assert not run.ok and run.returncode == 1
    assert run.last_error is not None
    assert run.last_error.startswith("Error: loading and merging template")
    assert run.artifacts == []


def test_the_composer_is_found_by_flag_then_setting_then_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tool = replay_composer(tmp_path)
    assert find_composer(str(tool), None) == tool
    assert find_composer(None, str(tool)) == tool
    monkeypatch.setenv("PATH", str(tmp_path))
    assert find_composer(None, None) == tool
    with pytest.raises(BackendUnavailableError, match=r"--composer \(/nowhere/ict\)"):
        find_composer("/nowhere/ict", str(tool))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(BackendUnavailableError) as missing:
        find_composer(None, None)
    assert "ai.composer.path" in str(missing.value) and missing.value.exit_code == 3
    os.chmod(tool, 0o644)
    with pytest.raises(BackendUnavailableError, match="not an executable"):
        find_composer(None, str(tool))


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("4.677s", 4.677), ("2m23.031s", 143.031), ("1h2m3s", 3723.0), ("512ms", 0.512)],
)
def test_go_durations_are_read(text: str, seconds: float) -> None:
    assert parse_duration(text) == pytest.approx(seconds)
    assert parse_duration(text + "x") is None
