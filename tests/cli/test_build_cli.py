"""``oic-ai verify`` and ``oic-ai build`` as a user runs them: exit codes, one-line errors, JSON.

Each case is a fresh ``python -m oic_ai`` process on a small real image the test makes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import cli_env, oic, one_line_error
from tests.support.disk_images import TEMPLATE, built_image


@pytest.fixture(scope="module")
def image(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("cli-image")
    template = folder / "fixture.yml"
    template.write_text(TEMPLATE)
    return built_image(folder / "fixture-image-1.0.raw"), template


def test_verify_prints_one_row_per_check_and_exits_0_when_all_is_explained(
    image: tuple[Path, Path],
) -> None:
    raw, template = image
    done = oic("verify", str(raw), "--template", str(template), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["matches"] is False and out["explained"] is True
    assert {"what", "expected", "found", "ok"} <= set(out["checks"][0])
    assert all(isinstance(c["ok"], bool) for c in out["checks"])
    text = oic("verify", str(raw), "--template", str(template))
    assert text.returncode == 0
    assert "known composer behaviour" in text.stdout and "user-password-deleted" in text.stdout


def test_verify_exits_1_when_the_image_differs(image: tuple[Path, Path], tmp_path: Path) -> None:
    raw, template = image
    other = tmp_path / "other.yml"
    other.write_text(template.read_text().replace("hostname: fixture-host", "hostname: gw-9"))
    done = oic("verify", str(raw), "--template", str(other))
    assert done.returncode == 1
    assert "differs from the template" in done.stdout and "gw-9" in done.stdout


def test_verify_refuses_what_is_not_an_image_in_one_line(
    image: tuple[Path, Path], tmp_path: Path
) -> None:
    _, template = image
    junk = tmp_path / "junk.raw"
    junk.write_bytes(b"not a disk" * 100)
    assert "no partition table" in one_line_error(
        oic("verify", str(junk), "--template", str(template))
    )
    assert "does not exist" in one_line_error(
        oic("verify", str(tmp_path / "none.raw"), "--template", str(template))
    )


def test_build_without_a_composer_is_exit_3_in_one_line(image: tuple[Path, Path]) -> None:
    _, template = image
    env = cli_env(PATH="/usr/bin:/bin")
    message = one_line_error(oic("build", str(template), env=env), code=3)
    assert "image-composer-tool is not installed" in message and "--composer" in message
    named = one_line_error(
        oic("build", str(template), "--composer", "/nowhere/ict", env=env), code=3
    )
    assert "/nowhere/ict" in named


def test_build_needs_something_to_build(image: tuple[Path, Path]) -> None:
    _, template = image
    assert "nothing to build" in one_line_error(oic("build"))
    assert "not both" in one_line_error(oic("build", str(template), "--continue"))
