"""The library and package services as the web app calls them: text in, typed results out."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from oic_ai.services import library, packages
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.settings import Settings, load_settings
from oic_ai.stores.template_library import TemplateNotFoundError
from tests.conftest import FIXTURES, OUR_TEMPLATES

MINIMAL = OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    templates = tmp_path / "templates"
    templates.mkdir()
    shutil.copy(MINIMAL, templates / MINIMAL.name)
    return load_settings(data_dir=tmp_path / "data", templates_dir=templates, env={})


def test_list_and_read_templates(settings: Settings) -> None:
    entries = library.list_templates(settings)
    assert [e.to_json() for e in entries] == [{"name": MINIMAL.stem, "path": MINIMAL.name}]
    assert library.library_template(settings, MINIMAL.stem) == MINIMAL.read_text()
    assert library.library_template(settings, MINIMAL.name) == MINIMAL.read_text()
    with pytest.raises(TemplateNotFoundError):
        library.library_template(settings, "../" + MINIMAL.stem)


def test_save_template_validates_and_refuses_to_replace(settings: Settings) -> None:
    text = MINIMAL.read_text()
    path, report = library.save_template(settings, "edge-gw", text)
    assert path.name == "edge-gw.yml" and path.read_text() == text and report.valid
    assert "edge-gw" in {e.name for e in library.list_templates(settings)}
    with pytest.raises(library.TemplateExistsError):
        library.save_template(settings, "edge-gw", text)
    library.save_template(settings, "edge-gw", text, overwrite=True)
    broken = (FIXTURES / "invalid" / "duplicate-packages.yml").read_text()
    with pytest.raises(library.InvalidTemplateError) as caught:
        library.save_template(settings, "broken", broken)
    assert caught.value.report.errors and isinstance(caught.value, UserInputError)
    assert not (path.parent / "broken.yml").exists()


def test_validate_template_text_is_the_validate_json_entry() -> None:
    report = library.validate_template_text(MINIMAL.read_text())
    assert report.to_json() == {"path": "<template>", "valid": True, "errors": [], "warnings": []}


def test_check_template_text_without_an_index_says_why(settings: Settings) -> None:
    report = packages.check_template_text(settings, MINIMAL.read_text())
    assert report.checked is False and report.fix
    with pytest.raises(UserInputError, match="not valid YAML"):
        packages.check_template_text(settings, "image: [unclosed")


def test_a_bad_sync_request_fails_before_any_work() -> None:
    with pytest.raises(UserInputError, match="--retries must be >= 0"):
        packages.SyncRequest(retries=-1)
