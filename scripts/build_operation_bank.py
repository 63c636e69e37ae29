"""Write the planner's vectors into stores/data/ (``make vectors``).

Embeds with the bundled MiniLM, exactly as the planner compares them:

* every example of ``stores/data/operation_bank.yaml`` (after the planner's stand-ins, as
  :mod:`oic_ai.tools.planner.bank` does) into ``operation-bank.npz``;
* every capability of ``stores/data/capabilities.yaml`` in words (name, synonyms, note:
  :func:`oic_ai.stores.capability_vectors.capability_text`) into ``capability-vectors.npz``;

and trains the remark model (:mod:`oic_ai.tools.planner.remark_model`) on the bank's
examples and the writer's set a into ``remark-model.npz``.

Each file holds the float32 vectors (the model: its weights) and the digest of what they
were made from.
``--check`` exits 1 when a file is stale.

Usage: python scripts/build_operation_bank.py [--check]
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from vector_script import check_only, write_atomically

from oic_ai.stores import capability_vectors  # after vector_script: it sets the path
from oic_ai.stores.capability_catalog import load_catalog
from oic_ai.stores.embeddings.minilm import MiniLMEmbedder
from oic_ai.stores.operation_bank import VECTORS_FILE, BankData, load_bank_data
from oic_ai.stores.shipped_vectors import load_shipped, shipped_bytes, texts_digest
from oic_ai.tools.planner import remark_model
from oic_ai.tools.planner.bank import stand_ins


def main() -> int:
    """Rebuild or check every shipped file; the exit status."""
    check = check_only(__doc__, "a file is stale")
    embedder = MiniLMEmbedder()
    bank = load_bank_data()
    _, capabilities = capability_vectors.capability_texts(load_catalog())
    files: list[tuple[Path, str, list[str]]] = [
        (VECTORS_FILE, bank.digest(embedder.model_id), [stand_ins(t) for _, t in bank.examples]),
        (
            capability_vectors.VECTORS_FILE,
            texts_digest(embedder.model_id, capabilities),
            list(capabilities),
        ),
    ]
    stale = _remark_model(embedder, bank, check)
    for path, digest, texts in files:
        if load_shipped(path, digest) is not None:
            print(f"{path.name} is up to date")
            continue
        if check:
            print(f"{path.name} is stale; run: make vectors", file=sys.stderr)
            stale += 1
            continue
        vectors = embedder.embed_array(texts)
        write_atomically(path, shipped_bytes(vectors, digest))
        print(f"wrote {len(vectors)} vectors ({embedder.model_id}) to {path}")
    return 1 if stale else 0


def _remark_model(embedder: MiniLMEmbedder, bank: BankData, check: bool) -> int:
    """Train and write the remark model when its digest is stale; 1 when stale and checking."""
    path, digest = remark_model.WEIGHTS_FILE, remark_model.digest(embedder.model_id, bank)
    examples = remark_model.training_texts(bank)
    fresh = load_shipped(path, digest)
    vectors = embedder.embed_array([stand_ins(text) or text for text, _ in examples])
    weights = remark_model.train(vectors, [label for _, label in examples])
    if fresh is not None and np.allclose(fresh, weights, atol=1e-4):
        print(f"{path.name} is up to date")
        return 0
    if check:
        print(f"{path.name} is stale; run: make vectors", file=sys.stderr)
        return 1
    write_atomically(path, shipped_bytes(weights, digest))
    print(f"wrote the remark model ({len(examples)} examples, {embedder.model_id}) to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
