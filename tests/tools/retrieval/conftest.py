"""Retrieval fixtures: a real index over our library with the real offline embedder."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from oic_ai.stores.settings import Settings
from oic_ai.stores.template_index import TemplateIndex, library_key
from oic_ai.tools.retrieval.hybrid_search import TemplateSearch
from tests.conftest import OUR_TEMPLATES


@pytest.fixture(scope="session")
def library_search(
    tmp_path_factory: pytest.TempPathFactory, indexed_data: Path
) -> Iterator[TemplateSearch]:
    """Our whole library indexed with the local MiniLM embedder (the session's index, copied)."""
    from oic_ai.stores.embeddings.minilm import MiniLMEmbedder

    data = tmp_path_factory.mktemp("retrieval-data")
    shutil.copytree(indexed_data / "chroma", data / "chroma")
    settings = Settings(data_dir=data)
    search = TemplateSearch(
        TemplateIndex(MiniLMEmbedder(), data, library=library_key(OUR_TEMPLATES)),
        OUR_TEMPLATES,
        settings,
    )
    report = search.refresh()
    assert report.created + report.unchanged == len(list(OUR_TEMPLATES.glob("*.yml")))
    assert (report.updated, report.deleted, report.skipped) == (0, 0, [])
    yield search
