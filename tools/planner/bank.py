"""What a clause asks, by its nearest example phrasings (:mod:`oic_ai.stores.operation_bank`).

A clause's values are first replaced by stand-ins (a URL, ``/data``, ``8GiB``,
``option=value``, ``ttyS0``, ``NAME``), so "give /var/lib/docker its own 25GB partition"
is compared as "give /data its own 8GiB partition". Its MiniLM vector is compared with
every example's; the nearest label wins when its cosine reaches the bank's threshold and
beats the best label of another outcome by the margin. Otherwise the match is unsure and
the planner reports the clause rather than guess.

NumPy and the model load on first use only: importing the planner stays light.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from oic_ai.stores.operation_bank import BankData, BankLabel, load_bank_data, load_vectors

_STAND_INS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?:https?|file)://\S+", re.IGNORECASE), "a URL"),
    (re.compile(r"`[^`]+`|'[^'\s][^']*'|\"[^\"]+\""), "NAME"),
    (re.compile(r"\b[\w.-]+=[^\s,;]+"), "option=value"),
    (re.compile(r"(?<![\w/])/[\w./-]+"), "/data"),
    (re.compile(r"\b\d+(?:\.\d+)?(?:[KMGT]i?B)\b", re.IGNORECASE), "8GiB"),
    (re.compile(r"\btty[A-Za-z]*\d+\b"), "ttyS0"),
    # a host name with a number at the end ("kiosk-7", "plc-01", "edge-gw-2")
    (re.compile(r"(?<![\w.-])[A-Za-z][A-Za-z0-9-]*-\d+(?![\w.-])"), "NAME"),
)


def stand_ins(text: str) -> str:
    """``text`` with its values replaced by stand-ins the bank's examples use."""
    for pattern, stand_in in _STAND_INS:
        text = pattern.sub(stand_in, text)
    return " ".join(text.split())


@dataclass(frozen=True)
class BankMatch:
    """The bank's reading of one clause.

    Attributes:
        label: The label, or None when the nearest one is not sure enough.
        nearest: The nearest label, sure or not.
        score: The cosine similarity of the nearest example.
        margin: How far it beats the best label with another outcome.
        example: The nearest example.
    """

    label: BankLabel | None
    nearest: BankLabel
    score: float
    margin: float
    example: str
    by_outcome: dict[str, float] = field(default_factory=dict)  # best score per outcome


class OperationBank:
    """The bank with its vectors, ready to match clauses.

    Args:
        data: The labels, examples and limits.
        vectors: One unit vector per example (float32, in example order).
        embed: Embeds texts into unit vectors (the bundled MiniLM).
        model_id: The embedding model's name (what shipped vectors and weights are made for).
    """

    def __init__(self, data: BankData, vectors: Any, embed: Any, model_id: str) -> None:
        self.data = data
        self.model_id = model_id
        self.embed = embed  # texts (values stood in for) to unit vectors, remembered
        self._vectors = vectors
        self._outcomes = [data.labels[label].outcome for label, _ in data.examples]

    def match(self, texts: Sequence[str]) -> list[BankMatch]:
        """The bank's reading of each text (its values are replaced by stand-ins first)."""
        if not texts:
            return []
        import numpy as np

        queries = self.embed([stand_ins(t) or t for t in texts])
        scores = np.asarray(queries, dtype=np.float32) @ self._vectors.T
        found: list[BankMatch] = []
        for row in scores:
            best: dict[str, float] = {}
            nearest_example: dict[str, str] = {}
            for index, score in enumerate(row.tolist()):
                label, example = self.data.examples[index]
                if score > best.get(label, -2.0):
                    best[label] = score
                    nearest_example[label] = example
            ranked = sorted(best, key=lambda name: -best[name])
            top = self.data.labels[ranked[0]]
            other = max(
                (best[n] for n in ranked if self.data.labels[n].outcome != top.outcome),
                default=-1.0,
            )
            score = best[top.name]
            margin = score - other
            sure = score >= self.data.threshold and margin >= self.data.margin
            by_outcome: dict[str, float] = {}
            for name, value in best.items():
                outcome = self.data.labels[name].outcome
                by_outcome[outcome] = max(by_outcome.get(outcome, -1.0), value)
            found.append(
                BankMatch(
                    top if sure else None, top, score, margin, nearest_example[top.name], by_outcome
                )
            )
        return found


_LOCK = threading.Lock()
_BANK: list[OperationBank | None] = []


def load_bank() -> OperationBank | None:
    """The shipped bank with its vectors (once per process); None without the model.

    Stale shipped vectors (examples edited, ``scripts/build_operation_bank.py`` not run)
    are replaced by embedding the examples once in this process.
    """
    with _LOCK:
        if not _BANK:
            _BANK.append(_build())
        return _BANK[0]


def _build() -> OperationBank | None:
    from oic_ai.stores.embeddings.minilm import shared_embedder
    from oic_ai.stores.embeddings.weights import verification_cache
    from oic_ai.stores.errors import UserInputError

    data = load_bank_data()
    embedder = shared_embedder(verification_cache())
    vectors = load_vectors(data.digest(embedder.model_id))
    try:
        if vectors is None:
            vectors = embedder.embed_array([stand_ins(text) for _, text in data.examples])
        embedder.embed_array(["warm"])  # loads the weights now, not in the first turn's match
    except UserInputError:
        return None  # the model is not installed: every unread clause is reported
    return OperationBank(data, vectors, _Embed(embedder), embedder.model_id)


class _Embed:
    """Embeds texts, remembering the vectors of the last few thousand (a lock guards it)."""

    _LIMIT = 4096

    def __init__(self, embedder: Any) -> None:
        self._embedder = embedder
        self._seen: dict[str, Any] = {}
        self._lock = threading.Lock()

    def __call__(self, texts: Sequence[str]) -> list[Any]:
        with self._lock:
            fresh = [t for t in dict.fromkeys(texts) if t not in self._seen]
            if fresh:
                if len(self._seen) + len(fresh) > self._LIMIT:
                    self._seen.clear()
                for text, vector in zip(fresh, self._embedder.embed_array(fresh), strict=True):
                    self._seen[text] = vector
            return [self._seen[t] for t in texts]
