"""Vectors shipped in ``stores/data/``: embedded once at build time, checked by a digest.

The operation bank's examples and the capability catalog's texts are embedded with the
bundled MiniLM by ``scripts/build_operation_bank.py`` (``make vectors``). Each ``.npz``
file holds the float32 vectors and the SHA-256 of the model and the texts they were made
from; a file made from other texts is ignored, and the caller embeds the texts itself.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def texts_digest(model_id: str, texts: Sequence[Any]) -> str:
    """SHA-256 of the model and the texts: what shipped vectors were made from."""
    payload = json.dumps([model_id, list(texts)], ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def load_shipped(path: Path, digest: str) -> Any | None:
    """The vectors of ``path`` (float32, one row per text) if they were made from ``digest``."""
    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as shipped:
            if str(shipped["digest"]) != digest:
                return None
            return np.asarray(shipped["vectors"], dtype=np.float32)
    except (OSError, KeyError, ValueError):
        return None


def shipped_bytes(vectors: Any, digest: str) -> bytes:
    """The ``.npz`` file's contents for ``vectors`` made from ``digest``."""
    import io

    import numpy as np

    buffer = io.BytesIO()
    np.savez_compressed(buffer, vectors=vectors.astype(np.float32), digest=np.array(digest))
    return buffer.getvalue()
