"""The composer's own loader (``upval``) on our library: every template it ships is buildable."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import OUR_TEMPLATES
from tests.support.upval import judge, require_upval


@pytest.fixture(scope="module")
def upval() -> Path:
    return require_upval()


def test_every_library_template_passes_the_composers_loader_with_defaults(upval: Path) -> None:
    files = sorted(OUR_TEMPLATES.glob("*.yml"))
    assert len(files) >= 40
    verdicts = judge(upval, files)
    refused = {v.file: v.error for v in verdicts.values() if not v.buildable}
    assert refused == {}


def test_the_loader_refuses_what_the_composer_cannot_build(upval: Path, tmp_path: Path) -> None:
    # the judge itself must be able to say no: an arm64 installer has no OS defaults
    text = (OUR_TEMPLATES / "ubuntu24-x86_64-installer-iso.yml").read_text(encoding="utf-8")
    iso = tmp_path / "arm-iso.yml"
    iso.write_text(text.replace("arch: x86_64", "arch: aarch64"), encoding="utf-8")
    broken = tmp_path / "broken.yml"
    broken.write_text(text.replace("imageType: iso", "imageType: vmdk"), encoding="utf-8")
    verdicts = judge(upval, [iso, broken])
    assert verdicts[iso.resolve()].user_ok and not verdicts[iso.resolve()].defaults_loaded
    assert not verdicts[broken.resolve()].user_ok
