"""Okapi BM25 over a sparse term-document matrix, in NumPy.

Scores are exactly those of ``rank_bm25.BM25Okapi`` (k1 1.5, b 0.75, negative IDFs floored
at 0.25 times the average IDF, a repeated query token counted again, an unknown one
scoring nothing), computed term by term with the same float64 expression, so rankings and
the normalised keyword score of hybrid search do not move. Only the work differs: each
term keeps the documents that contain it and their precomputed weights, so a query costs
one vector add per query token instead of a Python loop over every document.

A built model is cached per process, keyed by a digest of the documents' ids and token
lists, so every search object over the same index version shares one build.
"""

from __future__ import annotations

import hashlib
import math
import threading
from collections import Counter
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["BM25Index", "bm25_for"]

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]

K1 = 1.5
B = 0.75
EPSILON = 0.25
_CACHE_SIZE = 4


class BM25Index:
    """Okapi BM25 statistics of a tokenised corpus, stored per term (a sparse matrix)."""

    def __init__(self, corpus: Sequence[Sequence[str]]) -> None:
        """Count terms and precompute every (term, document) weight.

        Args:
            corpus: One token list per document, in the order scores are returned.
        """
        self.size = len(corpus)
        doc_len = np.array([len(tokens) for tokens in corpus], dtype=np.int64)
        self.avgdl = float(doc_len.sum()) / self.size if self.size else 0.0
        postings: dict[str, tuple[list[int], list[int]]] = {}
        for row, tokens in enumerate(corpus):
            for term, count in Counter(tokens).items():
                docs, freqs = postings.setdefault(term, ([], []))
                docs.append(row)
                freqs.append(count)
        # IDF as BM25Okapi computes it, in the same (first-seen) term order for the average.
        idf: dict[str, float] = {}
        negative: list[str] = []
        total = 0.0
        for term, (docs, _) in postings.items():
            freq = len(docs)
            value = math.log(self.size - freq + 0.5) - math.log(freq + 0.5)
            idf[term] = value
            total += value
            if value < 0:
                negative.append(term)
        floor = EPSILON * (total / len(idf)) if idf else 0.0
        for term in negative:
            idf[term] = floor
        self.idf = idf
        self._postings: dict[str, tuple[I64, F64]] = {}
        for term, (docs, freqs) in postings.items():
            rows = np.array(docs, dtype=np.int64)
            tf = np.array(freqs, dtype=np.int64)
            lengths = doc_len[rows]
            weights = idf[term] * (tf * (K1 + 1) / (tf + K1 * (1 - B + B * lengths / self.avgdl)))
            self._postings[term] = (rows, weights)

    def get_scores(self, query: Sequence[str]) -> F64:
        """Return one BM25 score per document for the query tokens (repeats count again)."""
        scores: F64 = np.zeros(self.size)
        for token in query:
            posting = self._postings.get(token)
            if posting is not None:
                rows, weights = posting
                scores[rows] += weights
        return scores


_cache: dict[str, BM25Index] = {}
_cache_lock = threading.Lock()


def corpus_key(ids: Sequence[str], corpus: Sequence[Sequence[str]]) -> str:
    """A digest of the documents' ids and tokens: equal for the same index version."""
    digest = hashlib.sha256()
    for id_, tokens in zip(ids, corpus, strict=True):
        digest.update(id_.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
        digest.update("\x1f".join(tokens).encode("utf-8", "surrogatepass"))
        digest.update(b"\x1e")
    return digest.hexdigest()


def bm25_for(ids: Sequence[str], corpus: Sequence[Sequence[str]]) -> BM25Index:
    """Return the BM25 model of this corpus, built once per process and index version.

    Args:
        ids: The documents' ids, parallel to ``corpus``.
        corpus: One token list per document.
    """
    key = corpus_key(ids, corpus)
    with _cache_lock:
        cached = _cache.get(key)
        if cached is not None:
            return cached
    built = BM25Index(corpus)
    with _cache_lock:
        while len(_cache) >= _CACHE_SIZE:
            _cache.pop(next(iter(_cache)))
        _cache[key] = built
    return built
