"""The vectorised BM25 gives Okapi BM25's scores (rank-bm25's, bit for bit) over our library."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from oic_ai.stores.template_library import iter_template_files, parse_template_bytes
from oic_ai.tools.retrieval.bm25 import BM25Index, best_documents, bm25_for
from oic_ai.tools.retrieval.hybrid_search import _bm25_tokens
from tests.conftest import OUR_TEMPLATES


def library_tokens() -> tuple[list[str], list[list[str]]]:
    ids, corpus = [], []
    for path in iter_template_files(OUR_TEMPLATES, []):
        parsed = parse_template_bytes(path.read_bytes(), path.name)
        assert not isinstance(parsed, str)
        ids.append(path.name)
        corpus.append(_bm25_tokens(parsed.searchable_text()))
    return ids, corpus


def okapi(corpus: list[list[str]], query: list[str]) -> list[float]:
    """Okapi BM25 written out document by document (k1 1.5, b 0.75, IDF floor 0.25 * mean)."""
    k1, b, n = 1.5, 0.75, len(corpus)
    avgdl = sum(len(d) for d in corpus) / n
    df: dict[str, int] = {}
    for doc in corpus:
        for term in dict.fromkeys(doc):
            df[term] = df.get(term, 0) + 1
    idf = {t: math.log(n - f + 0.5) - math.log(f + 0.5) for t, f in df.items()}
    floor = 0.25 * sum(idf.values()) / len(idf)
    idf = {t: (v if v >= 0 else floor) for t, v in idf.items()}
    scores = []
    for doc in corpus:
        score = 0.0
        for term in query:
            tf = doc.count(term)
            denominator = tf + k1 * (1 - b + b * len(doc) / avgdl)
            score += idf.get(term, 0.0) * tf * (k1 + 1) / denominator
        scores.append(score)
    return scores


QUERIES = [
    "minimal ubuntu edge image with docker",
    "azure linux pxe network boot",
    "nginx nginx web server",  # a repeated token counts twice
    "kiosk desktop chromium",
    "zzz-not-a-word",
    "",
]


@pytest.mark.parametrize("query", QUERIES)
def test_scores_are_okapi_bm25_over_our_library(query: str) -> None:
    ids, corpus = library_tokens()
    tokens = _bm25_tokens(query)
    got = BM25Index(corpus).get_scores(tokens)
    assert got.shape == (len(corpus),)
    assert np.allclose(got, okapi(corpus, tokens), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("query", QUERIES)
def test_scores_are_rank_bm25s_bit_for_bit(query: str) -> None:
    import rank_bm25  # the library this replaces: a dev dependency, the reference

    _, corpus = library_tokens()
    tokens = _bm25_tokens(query)
    expected = rank_bm25.BM25Okapi(corpus).get_scores(tokens)
    assert np.array_equal(BM25Index(corpus).get_scores(tokens), expected)


def test_random_corpora_agree_with_the_written_out_formula() -> None:
    rng = random.Random(7)
    words = [f"w{i}" for i in range(40)]
    for _ in range(20):
        corpus = [rng.choices(words, k=rng.randint(1, 30)) for _ in range(rng.randint(1, 60))]
        query = rng.choices(words + ["unknown"], k=rng.randint(0, 6))
        assert np.allclose(BM25Index(corpus).get_scores(query), okapi(corpus, query), atol=1e-12)


def test_one_build_per_index_version() -> None:
    ids, corpus = library_tokens()
    first = bm25_for(ids, corpus)
    assert bm25_for(list(ids), [list(t) for t in corpus]) is first  # same content, same build
    changed = [*corpus[:-1], [*corpus[-1], "extra"]]
    assert bm25_for(ids, changed) is not first  # one document changed: a new build
    renamed = [*ids[:-1], "other.yml"]
    assert bm25_for(renamed, corpus) is not first


def test_best_documents_is_the_stable_sort_it_replaces() -> None:
    rng = random.Random(3)
    for _ in range(50):
        size = rng.randint(1, 300)
        scores = np.array([rng.choice([0.0, 0.5, 1.0, rng.random()]) for _ in range(size)])
        allowed = sorted(rng.sample(range(size), rng.randint(1, size)))
        n = rng.randint(1, 60)
        expected = sorted(allowed, key=lambda i: -scores[i])[:n]
        assert best_documents(scores, allowed, n) == expected
        assert best_documents(None, allowed, n) == allowed[:n]
