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
from itertools import chain

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
    """Okapi BM25 statistics of a tokenised corpus as a sparse term-by-document matrix.

    The matrix is stored by term (compressed rows): for term ``t``, ``rows[offsets[t]:
    offsets[t + 1]]`` are the documents that contain it, in order, and ``weights`` the same
    slice of their precomputed BM25 contributions.
    """

    def __init__(self, corpus: Sequence[Sequence[str]]) -> None:
        """Count terms and precompute every (term, document) weight.

        Args:
            corpus: One token list per document, in the order scores are returned.
        """
        self.size = len(corpus)
        # term -> id, in first-seen order (rank-bm25's order, which its mean IDF sums in)
        first_seen = dict.fromkeys(chain.from_iterable(corpus))
        vocabulary = {term: i for i, term in enumerate(first_seen)}
        lookup = vocabulary.__getitem__
        term_ids: list[int] = []
        distinct: list[int] = []  # distinct terms per document
        counts: list[int] = []
        lengths: list[int] = []
        for tokens in corpus:
            counted = Counter(tokens)
            lengths.append(len(tokens))
            distinct.append(len(counted))
            term_ids.extend(map(lookup, counted))
            counts.extend(counted.values())
        self.avgdl = sum(lengths) / self.size if self.size else 0.0
        terms = np.array(term_ids, dtype=np.int64)
        doc_rows = np.repeat(np.arange(self.size, dtype=np.int64), distinct)
        freq = np.bincount(terms, minlength=len(vocabulary)) if term_ids else np.zeros(0, int)
        # IDF exactly as BM25Okapi computes it (math.log, summed in first-seen order).
        # Added one by one as rank-bm25 does: Python 3.12's sum() of floats compensates
        # rounding, which would differ from it in the last bit.
        idf: list[float] = []
        idf_sum = 0.0
        for df in freq.tolist():
            idf.append(math.log(self.size - df + 0.5) - math.log(df + 0.5))
            idf_sum += idf[-1]
        floor = EPSILON * (idf_sum / len(idf)) if idf else 0.0
        idf = [value if value >= 0 else floor for value in idf]
        self.vocabulary = vocabulary
        self.idf = dict(zip(vocabulary, idf, strict=True))
        order = np.argsort(terms, kind="stable")  # by term, each term's documents in order
        rows = doc_rows[order]
        tf = np.array(counts, dtype=np.int64)[order]
        doc_len = np.array(lengths, dtype=np.int64)[rows]
        term_idf = np.array(idf, dtype=np.float64)[terms[order]]
        # the same float64 expression, element by element, as BM25Okapi.get_scores
        self._weights: F64 = term_idf * (
            tf * (K1 + 1) / (tf + K1 * (1 - B + B * doc_len / self.avgdl))
        )
        self._rows: I64 = rows
        self._offsets: I64 = np.concatenate(([0], np.cumsum(freq))).astype(np.int64)

    def get_scores(self, query: Sequence[str]) -> F64:
        """Return one BM25 score per document for the query tokens (repeats count again)."""
        scores: F64 = np.zeros(self.size)
        for token in query:
            term = self.vocabulary.get(token)
            if term is not None:
                start, end = int(self._offsets[term]), int(self._offsets[term + 1])
                scores[self._rows[start:end]] += self._weights[start:end]
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


def best_documents(scores: F64 | None, allowed: Sequence[int], n: int) -> list[int]:
    """The ``n`` allowed documents with the highest scores, best first.

    The same list as ``sorted(allowed, key=lambda i: -scores[i])[:n]`` (ties keep the
    order of ``allowed``), without a Python call per document.
    """
    if scores is None:
        return list(allowed[:n])
    candidates = np.asarray(allowed, dtype=np.int64)
    order = np.argsort(-scores[candidates], kind="stable")[:n]
    picked: list[int] = candidates[order].tolist()
    return picked
