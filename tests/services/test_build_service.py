"""The build service: template in, composer run, image verified, report out.

The composer is a recorded real run replayed (tests/support/replay_composer.py) that
"builds" a small real image made by the test; ``make e2e-build`` runs the real composer.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from oic_ai.graph.agent import TemplateAgent
from oic_ai.services import build as service
from oic_ai.services.build import BuildRequest, InvalidTemplateError, build_image
from oic_ai.stores.errors import BackendUnavailableError
from oic_ai.stores.settings import load_settings
from tests.conftest import FIXTURES
from tests.stores.test_composer_run import replay_composer
from tests.support.disk_images import TEMPLATE, built_image

# the recorded run names its image minimal-os-image-debian-13.0.raw.gz
RECORDED_TEMPLATE = TEMPLATE.replace(
    'name: fixture-image\n  version: "1.0"', 'name: minimal-os-image-debian\n  version: "13.0"'
)


@pytest.fixture
def replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The recorded successful build, its artifacts in tmp_path/artifacts; builds folder in tmp."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("OIC_REPLAY_LOG", str(FIXTURES / "composer" / "build-ok.log"))
    monkeypatch.setenv("OIC_REPLAY_ARTIFACTS", str(tmp_path / "artifacts"))
    monkeypatch.setenv("OIC_REPLAY_ARGS", str(tmp_path / "args.json"))
    monkeypatch.setattr(service, "check_host", lambda: None)  # the replay needs no root
    return replay_composer(tmp_path)


def test_a_build_reports_artifacts_stages_and_the_verify_table(
    replay: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OIC_REPLAY_IMAGE", str(built_image(tmp_path / "made.raw")))
    template = tmp_path / "t.yml"
    template.write_text(RECORDED_TEMPLATE)
    lines: list[str] = []
    report = build_image(
        load_settings(data_dir=tmp_path / "data", env={}),
        BuildRequest(template=template, composer=str(replay)),
        lines.append,
    )
    assert report.exit_code == 0
    assert [s.name for s in report.stages] == ["compose", "verify"]
    assert any("install packages: Image package installation" in line for line in lines)
    assert report.verify is not None and report.verify.explained
    out = report.to_json()
    assert out["ok"] and out["error"] is None
    assert out["image"].endswith("minimal-os-image-debian-13.0.raw.gz")
    assert len(out["artifacts"]) == 3 and out["artifacts"][0]["bytes"] > 0
    assert {t["name"] for t in out["composer_timings"]} >= {"Image Build", "Image Conversion"}
    assert out["verify"]["explained"] and out["boot"] is None
    # the build's own folder: the log and the report stay, the unpacked image does not
    assert report.folder.is_relative_to(tmp_path / "cache" / "oic-ai" / "builds")
    assert sorted(p.name for p in report.folder.iterdir()) == ["composer.log", "report.json"]
    assert json.loads((report.folder / "report.json").read_text())["verify"]["explained"]


def test_a_failed_composer_is_exit_3_with_its_last_error(
    replay: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OIC_REPLAY_LOG", str(FIXTURES / "composer" / "build-failed.log"))
    monkeypatch.setenv("OIC_REPLAY_EXIT", "1")
    template = tmp_path / "t.yml"
    template.write_text(RECORDED_TEMPLATE)
    report = build_image(
        load_settings(data_dir=tmp_path / "data", env={}),
        BuildRequest(template=template, composer=str(replay)),
    )
    assert report.exit_code == 3 and report.verify is None
    assert report.to_json()["error"].startswith("Error: loading and merging template")


def test_a_placeholder_is_refused_before_the_composer_runs(replay: Path, tmp_path: Path) -> None:
    template = tmp_path / "t.yml"
    template.write_text(
        RECORDED_TEMPLATE.replace(
            "- name: ops\n", '- name: ops\n      password: "<PASSWORD_HASH>"\n'
        )
    )
    with pytest.raises(InvalidTemplateError) as refused:
        build_image(
            load_settings(data_dir=tmp_path / "data", env={}),
            BuildRequest(template=template, composer=str(replay)),
        )
    assert refused.value.exit_code == 1
    assert "$.systemConfig.users[0].password" in str(refused.value)
    assert not (tmp_path / "args.json").exists()  # the composer never ran


def test_without_root_the_build_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    with pytest.raises(BackendUnavailableError, match="needs root") as refused:
        service.check_host()
    assert refused.value.exit_code == 3 and "sudo -E oic-ai build" in str(refused.value)


def test_the_latest_session_is_built_from_its_current_template(
    replay: Path, tmp_path: Path, agent_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = load_settings(data_dir=agent_data_dir, env={}, provider="builtin")
    with TemplateAgent(settings) as agent:
        turn = agent.generate("a minimal debian 13 raw image with hostname probe-01")
        current = agent.current_template(turn.session)
    monkeypatch.setenv("OIC_REPLAY_EXIT", "1")  # stop after the composer: the template is the point
    build_image(settings, BuildRequest(latest=True, composer=str(replay)))
    called = json.loads((tmp_path / "args.json").read_text())["args"]
    assert Path(called[-1]).read_text() == current
