"""Write the capability catalog's vectors into stores/data/ (``make vectors``).

Embeds each capability's name, synonyms and note (:func:`capability_text`) with the
bundled MiniLM and writes ``stores/data/capability-vectors.npz``: the float32 vectors and
the digest of the texts they were made from. ``--check`` exits 1 when the file is stale.

Usage: python scripts/build_capability_vectors.py [--check]
"""

from __future__ import annotations

import io
import sys

from vector_script import check_only, write_atomically

from oic_ai.stores.capability_catalog import load_catalog  # after vector_script: the path
from oic_ai.stores.capability_vectors import (
    VECTORS_FILE,
    capability_texts,
    digest,
    load_vectors,
)


def main() -> int:
    """Rebuild or check the capability vectors; the exit status."""
    check = check_only(__doc__, "the file is stale")
    from oic_ai.stores.embeddings.minilm import MiniLMEmbedder

    embedder = MiniLMEmbedder()
    _, texts = capability_texts(load_catalog())
    wanted = digest(embedder.model_id, texts)
    if check:
        if load_vectors(wanted) is None:
            print("capability vectors are stale; run: make vectors", file=sys.stderr)
            return 1
        print("capability vectors are up to date")
        return 0
    import numpy as np

    vectors = embedder.embed_array(list(texts))
    buffer = io.BytesIO()
    np.savez_compressed(buffer, vectors=vectors.astype(np.float32), digest=np.array(wanted))
    write_atomically(VECTORS_FILE, buffer.getvalue())
    print(f"wrote {len(vectors)} capability vectors ({embedder.model_id}) to {VECTORS_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
