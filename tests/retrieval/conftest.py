"""Retrieval fixtures: a real index over our library with the real offline embedder."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from oic_ai.stores.hybrid_search import TemplateSearch
from oic_ai.stores.settings import Settings
from oic_ai.stores.template_index import TemplateIndex
from tests.conftest import OUR_TEMPLATES


@pytest.fixture(scope="session")
def library_search(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TemplateSearch]:
    """Our whole library indexed once with the local MiniLM embedder."""
    from oic_ai.stores.embeddings.minilm import MiniLMEmbedder

    data = tmp_path_factory.mktemp("retrieval-data")
    settings = Settings(data_dir=data)
    search = TemplateSearch(TemplateIndex(MiniLMEmbedder(), data), OUR_TEMPLATES, settings)
    report = search.refresh()
    assert report.created == len(list(OUR_TEMPLATES.glob("*.yml")))
    yield search
