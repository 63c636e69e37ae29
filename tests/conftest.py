"""Shared test fixtures: where the reference data and our library live."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
REFERENCE = PROJECT.parent / "shared" / "reference" / "os-image-composer"
REFERENCE_TEMPLATES = REFERENCE / "image-templates"
REFERENCE_SCHEMA = REFERENCE / "internal" / "config" / "schema" / "os-image-template.schema.json"
OUR_TEMPLATES = PROJECT / "image-templates"

# Tests never reach a model server or a hub by accident.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")


@pytest.fixture
def reference_templates() -> Path:
    """The upstream templates, or a skip when shared/ is not beside the checkout."""
    if not REFERENCE_TEMPLATES.is_dir():
        pytest.skip(f"reference templates not found at {REFERENCE_TEMPLATES}")
    return REFERENCE_TEMPLATES


@pytest.fixture
def reference_schema() -> Path:
    """The upstream JSON schema, or a skip when it is absent."""
    if not REFERENCE_SCHEMA.is_file():
        pytest.skip(f"reference schema not found at {REFERENCE_SCHEMA}")
    return REFERENCE_SCHEMA


@pytest.fixture
def small_library(tmp_path: Path) -> Path:
    """Five of our templates in a folder the test may change."""
    folder = tmp_path / "templates"
    folder.mkdir()
    for name in sorted(p.name for p in OUR_TEMPLATES.glob("*.yml"))[:5]:
        shutil.copy(OUR_TEMPLATES / name, folder / name)
    return folder


@pytest.fixture(scope="session")
def indexed_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder whose Chroma index holds the bundled library (embedded once per run)."""
    from oic_ai.stores.hybrid_search import TemplateSearch
    from oic_ai.stores.settings import load_settings

    data = tmp_path_factory.mktemp("indexed") / "data"
    TemplateSearch.open(load_settings(data_dir=data, env={})).refresh()
    return data


@pytest.fixture
def agent_data_dir(indexed_data: Path, tmp_path: Path) -> Path:
    """A fresh data folder with the library already indexed (sessions start empty)."""
    data = tmp_path / "data"
    shutil.copytree(indexed_data / "chroma", data / "chroma")
    for name in ("index-stats.json",):
        if (indexed_data / name).exists():
            shutil.copy(indexed_data / name, data / name)
    return data
