"""Retrieval fixtures: a real index over our library with the real offline embedder."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

import numpy as np
import pytest

from oic_ai.stores.hybrid_search import TemplateSearch
from oic_ai.stores.settings import Settings
from oic_ai.stores.template_index import TemplateIndex
from tests.conftest import OUR_TEMPLATES


class HashEmbedder:
    """A fast deterministic embedder for index bookkeeping tests (not for ranking)."""

    def __init__(self, dimensions: int = 16, name: str = "hash") -> None:
        self._dimensions = dimensions
        self._name = name
        self.calls: list[int] = []

    @property
    def model_id(self) -> str:
        return f"{self._name}-{self._dimensions}"

    @property
    def dimensions(self) -> int:
        return self._dimensions

    def _vector(self, text: str) -> list[float]:
        seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
        v = np.random.default_rng(seed).standard_normal(self._dimensions)
        return list((v / np.linalg.norm(v)).astype(float))

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls.append(len(texts))
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)


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
