"""Shipped vectors rank exactly like vectors the local model computes on the spot."""

from __future__ import annotations

from pathlib import Path

from oic_ai.stores.embeddings.minilm import MiniLMEmbedder
from oic_ai.stores.settings import Settings
from oic_ai.stores.template_index import TemplateIndex, library_key
from oic_ai.tools.retrieval.evaluation import evaluate, load_queries
from oic_ai.tools.retrieval.hybrid_search import TemplateSearch
from tests.conftest import OUR_TEMPLATES, PROJECT


class ModelOnly(MiniLMEmbedder):
    """The same model under another id, so no shipped vector matches: all embedded here."""

    model_id = "all-MiniLM-L6-v2-computed"


def test_labelled_queries_rank_the_same_with_shipped_and_computed_vectors(
    library_search: TemplateSearch, tmp_path: Path
) -> None:
    computed = TemplateSearch(
        TemplateIndex(ModelOnly(), tmp_path, library=library_key(OUR_TEMPLATES)),
        OUR_TEMPLATES,
        Settings(data_dir=tmp_path),
    )
    report = computed.refresh()
    assert report.shipped == 0 and report.embedded == report.created > 0
    queries = load_queries(PROJECT / "tests" / "eval" / "retrieval.yaml")
    ranked_shipped, ranked_computed = [], []
    for query in queries:
        shipped = [r.template for r in library_search.search(query.q).results]
        fresh = [r.template for r in computed.search(query.q).results]
        assert shipped == fresh, query.q
        ranked_shipped.append((query, shipped))
        ranked_computed.append((query, fresh))
    assert evaluate(ranked_shipped) == evaluate(ranked_computed)
