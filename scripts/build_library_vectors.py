"""Write the bundled library's vectors into stores/data/ (``make vectors``).

Embeds every template of ``image-templates/`` with the local model exactly as a fresh
``oic-ai index`` would (same text, same order, batches of 32) and writes
``stores/data/library-vectors.npy`` (float32) and ``library-vectors.json`` (model id,
dimensions and, per row, the file, the SHA-256 of its bytes and of its embedded text),
each atomically. ``--check`` only compares hashes and exits 1 when the files are stale.

Usage: python scripts/build_library_vectors.py [--check]
"""

from __future__ import annotations

import io
import json
import sys

from vector_script import ROOT, check_only, write_atomically

from oic_ai.stores.library_vectors import (  # after vector_script: it sets the path
    DATA_DIR,
    MANIFEST_FILE,
    VECTORS_FILE,
    build_manifest,
    library_entries,
    stale_entries,
)

LIBRARY = ROOT / "image-templates"
BATCH = 32  # what TemplateIndex.sync embeds at once


def main() -> int:
    """Rebuild or check the shipped vectors; the exit status."""
    check = check_only(__doc__, "the files are stale")
    stale = stale_entries(LIBRARY)
    if check:
        if stale:
            print(
                f"library vectors are stale for {len(stale)} file(s), e.g. {stale[0]}; "
                "run: make vectors",
                file=sys.stderr,
            )
            return 1
        print("library vectors are up to date")
        return 0
    import numpy as np

    from oic_ai.stores.embeddings.minilm import MiniLMEmbedder

    embedder = MiniLMEmbedder()
    entries, texts = library_entries(LIBRARY)
    rows: list[list[float]] = []
    for start in range(0, len(texts), BATCH):
        rows.extend(embedder.embed_documents(texts[start : start + BATCH]))
    matrix = np.asarray(rows, dtype=np.float32).reshape(len(rows), embedder.dimensions)
    buffer = io.BytesIO()
    np.save(buffer, matrix, allow_pickle=False)
    manifest = build_manifest(embedder.model_id, embedder.dimensions, entries)
    write_atomically(DATA_DIR / VECTORS_FILE, buffer.getvalue())
    write_atomically(DATA_DIR / MANIFEST_FILE, (json.dumps(manifest, indent=1) + "\n").encode())
    size = (DATA_DIR / VECTORS_FILE).stat().st_size + (DATA_DIR / MANIFEST_FILE).stat().st_size
    print(
        f"wrote {len(entries)} vectors ({embedder.model_id}, {embedder.dimensions}d), "
        f"{size / 1024:.0f} KiB, to {DATA_DIR}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
