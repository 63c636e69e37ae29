"""Does a clause only tell, or ask? A linear reading of its MiniLM vector.

The operation bank (:mod:`.bank`) names the nearest example; where no example is near
enough, the clause used to be reported as "no rule for this", remarks included ("Blame
the network team for that one."). This model is one logistic regression over the same
vectors, trained on every bank example (context and use are remarks; the rest ask) and on
an independent writer's first set of remarks and requests (``tests/data/clauses/``; the
writer's second set is held out and never trained on). It generalises where the nearest
example does not: the direction in the vector space that separates telling from asking.

The planner only asks it about a clause no rule read, that names no value, field or
package, and would otherwise be reported; at :data:`REMARK_FLOOR` or above the clause is
context. ``scripts/build_operation_bank.py`` trains and ships the weights (``make
vectors``); they carry the digest of the bank they were trained with, and a test retrains
them from scratch and compares. Without fresh weights (or without the embedding model) no
clause is read as a remark by this model: the planner reports, as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from oic_ai.stores.operation_bank import DATA_DIR, BankData, load_bank_data
from oic_ai.stores.shipped_vectors import load_shipped, texts_digest
from oic_ai.tools.planner.bank import load_bank, stand_ins

# the writer's set a: read when training (a checkout), never at run time
CLAUSES = Path(__file__).resolve().parents[2] / "tests" / "data" / "clauses"
WEIGHTS_FILE = DATA_DIR / "remark-model.npz"
# a remark only at this probability or above. Chosen with the L2 weight by five-fold
# cross-validation on the writer's set a (the bank always trained on): the pair that reads
# the most remarks (104 of 150) while no request that names nothing reaches the floor
REMARK_FLOOR = 0.6
# the training: the L2 weight and the most Newton steps
_L2, _STEPS = 3.0, 50


def training_texts(bank: BankData, clauses: Path = CLAUSES) -> list[tuple[str, int]]:
    """``(text, 1 for a remark / 0 for a request)``: the bank's examples and set a."""
    import yaml

    found = [
        (text, int(bank.labels[label].outcome in ("context", "use")))
        for label, text in bank.examples
    ]
    remarks = yaml.safe_load((clauses / "remarks_a.yaml").read_text(encoding="utf-8"))
    requests = yaml.safe_load((clauses / "requests_a.yaml").read_text(encoding="utf-8"))
    found += [(str(text), 1) for text in remarks]
    found += [(str(entry["say"]), 0) for entry in requests]
    return found


def digest(model_id: str, bank: BankData) -> str:
    """What shipped weights must have been trained with: the model, bank and settings."""
    return texts_digest(model_id, [_L2, _STEPS, bank.digest(model_id)])


def train(vectors: Any, labels: Sequence[int], l2: float = _L2) -> Any:
    """Weights (the last one is the bias) of an L2 logistic regression, by Newton's method.

    Deterministic, and exact to the last digits in a few steps: the bias is not penalised.
    """
    import numpy as np

    x = np.hstack([np.asarray(vectors, dtype=np.float64), np.ones((len(labels), 1))])
    y = np.asarray(labels, dtype=np.float64)
    penalty = np.eye(x.shape[1]) * l2
    penalty[-1, -1] = 0.0
    weights = np.zeros(x.shape[1])
    for _ in range(_STEPS):
        p = 1.0 / (1.0 + np.exp(-(x @ weights)))
        gradient = x.T @ (p - y) + penalty @ weights
        hessian = (x.T * (p * (1.0 - p))) @ x + penalty
        step = np.linalg.solve(hessian, gradient)
        weights -= step
        if float(np.abs(step).max()) < 1e-10:
            break
    return weights.astype(np.float32)


class RemarkModel:
    """The trained weights and the embedder the bank uses."""

    def __init__(self, weights: Any, embed: Any) -> None:
        self._weights = weights
        self._embed = embed

    def probabilities(self, texts: Sequence[str]) -> list[float]:
        """The probability that each text is a remark (its values stood in for first)."""
        import numpy as np

        if not texts:
            return []
        vectors = np.asarray(self._embed([stand_ins(t) or t for t in texts]), dtype=np.float32)
        logits = vectors @ self._weights[:-1] + self._weights[-1]
        return [float(p) for p in 1.0 / (1.0 + np.exp(-logits))]


@lru_cache(maxsize=1)
def load_remark_model() -> RemarkModel | None:
    """The shipped model (once per process); None without the embedding model or fresh weights."""
    bank = load_bank()
    if bank is None:
        return None
    weights = load_shipped(WEIGHTS_FILE, digest(bank.model_id, load_bank_data()))
    return None if weights is None else RemarkModel(weights, bank.embed)
