"""Write the operation bank's vectors into stores/data/ (``make vectors``).

Embeds every example of ``stores/data/operation_bank.yaml`` (after the planner's
stand-ins, exactly as :mod:`oic_ai.tools.planner.bank` would) with the bundled MiniLM and
writes ``stores/data/operation-bank.npz``: the float32 vectors and the digest of the
examples they were made from. ``--check`` exits 1 when the file is stale.

Usage: python scripts/build_operation_bank.py [--check]
"""

from __future__ import annotations

import io
import sys

from vector_script import check_only, write_atomically

from oic_ai.stores.operation_bank import (  # after vector_script: it sets the path
    VECTORS_FILE,
    load_bank_data,
    load_vectors,
)


def main() -> int:
    """Rebuild or check the bank's vectors; the exit status."""
    check = check_only(__doc__, "the file is stale")
    from oic_ai.stores.embeddings.minilm import MiniLMEmbedder
    from oic_ai.tools.planner.bank import stand_ins

    embedder = MiniLMEmbedder()
    data = load_bank_data()
    digest = data.digest(embedder.model_id)
    if check:
        if load_vectors(digest) is None:
            print("operation bank vectors are stale; run: make vectors", file=sys.stderr)
            return 1
        print("operation bank vectors are up to date")
        return 0
    import numpy as np

    vectors = embedder.embed_array([stand_ins(text) for _, text in data.examples])
    buffer = io.BytesIO()
    np.savez_compressed(buffer, vectors=vectors.astype(np.float32), digest=np.array(digest))
    write_atomically(VECTORS_FILE, buffer.getvalue())
    print(f"wrote {len(vectors)} example vectors ({embedder.model_id}) to {VECTORS_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
