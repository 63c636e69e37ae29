"""The operation bank's data: labels, example phrasings and their shipped vectors.

The examples live in ``stores/data/operation_bank.yaml`` (what each label means is
described there); their all-MiniLM-L6-v2 vectors ship in ``operation-bank.npz`` with the
digest of the examples they were made from, so a process never embeds the bank itself
unless the file is stale. ``scripts/build_operation_bank.py`` rebuilds the vectors; a test
checks they match the examples. The builtin planner matches clauses against it
(:mod:`oic_ai.tools.planner.bank`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from oic_ai.stores.data_files import load_mapping
from oic_ai.stores.shipped_vectors import load_shipped, texts_digest

DATA_DIR = Path(__file__).resolve().parent / "data"
BANK_FILE = DATA_DIR / "operation_bank.yaml"
VECTORS_FILE = DATA_DIR / "operation-bank.npz"

Outcome = Literal["context", "use", "reference", "not_applied", "operation"]
_OUTCOMES = ("context", "use", "reference", "not_applied", "operation")


@dataclass(frozen=True)
class BankLabel:
    """One label of the bank.

    Attributes:
        name: The label (``context``, ``hostname``, ``timezone`` ...).
        outcome: What a clause with this label becomes (see the data file).
        reason: Why it is not applied (``not_applied``), or what was missing when an
            ``operation`` could not be read.
        suggestion: A form the planner reads (``operation`` labels).
        words: For a ``not_applied`` label: words that decide a clause on their own (an
            SSID, a login banner, a BIOS setting), read before every other rule so no rule
            turns such a clause into a change; None when only the examples decide.
        part: The words decide only the part of the clause they cover ("with uid 1001"
            in "add a user svc-agent with uid 1001"), not the whole clause.
    """

    name: str
    outcome: Outcome
    reason: str = ""
    suggestion: str = ""
    words: re.Pattern[str] | None = None
    part: bool = False


@dataclass(frozen=True)
class BankData:
    """The parsed bank: labels, examples as ``(label, text)``, and the decision limits."""

    labels: Mapping[str, BankLabel]
    examples: tuple[tuple[str, str], ...]
    threshold: float
    margin: float

    def digest(self, model_id: str) -> str:
        """SHA-256 of the examples and the model: what the shipped vectors were made from."""
        return texts_digest(model_id, self.examples)


def parse_bank(data: Mapping[str, Any]) -> BankData:
    """Build the bank from its parsed YAML document.

    Raises:
        ValueError: the document is malformed (a bug in the shipped data).
    """
    labels: dict[str, BankLabel] = {}
    examples: list[tuple[str, str]] = []
    raw_labels = data.get("labels")
    if not isinstance(raw_labels, Mapping) or not raw_labels:
        raise ValueError("the operation bank needs labels")
    for name, entry in raw_labels.items():
        if not isinstance(entry, Mapping):
            raise ValueError(f"label {name!r} must be a mapping")
        outcome = entry.get("outcome")
        if outcome not in _OUTCOMES:
            raise ValueError(f"label {name!r}: outcome must be one of {', '.join(_OUTCOMES)}")
        if outcome in ("not_applied", "operation") and not entry.get("reason"):
            raise ValueError(f"label {name!r} needs a reason")
        texts = entry.get("examples")
        if not isinstance(texts, list) or not texts:
            raise ValueError(f"label {name!r} needs examples")
        words = entry.get("words")
        if words is not None and (outcome != "not_applied" or not isinstance(words, str)):
            raise ValueError(f"label {name!r}: words are a pattern of a not_applied label")
        labels[str(name)] = BankLabel(
            str(name),
            outcome,
            str(entry.get("reason") or ""),
            str(entry.get("try") or ""),
            re.compile(words, re.IGNORECASE) if words else None,
            bool(entry.get("part")),
        )
        examples += [(str(name), str(text)) for text in texts]
    threshold, margin = data.get("threshold"), data.get("margin")
    if not isinstance(threshold, float) or not isinstance(margin, float):
        raise ValueError("threshold and margin must be numbers such as 0.5")
    return BankData(labels, tuple(examples), threshold, margin)


@lru_cache(maxsize=2)
def load_bank_data(path: Path = BANK_FILE) -> BankData:
    """Load (once) the shipped bank."""
    return parse_bank(load_mapping(path))


def load_vectors(digest: str, path: Path = VECTORS_FILE) -> Any | None:
    """The shipped vectors (a float32 array, one row per example) if made from ``digest``."""
    return load_shipped(path, digest)
