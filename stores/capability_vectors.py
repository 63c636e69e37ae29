"""The capability catalog in words, and its MiniLM vectors shipped in ``stores/data/``.

A request that says what a package should do ("something to export node metrics") is read
against each capability's name, synonyms and note (:mod:`oic_ai.tools.planner.rules.described`).
Those texts are embedded once, by ``scripts/build_capability_vectors.py`` (``make vectors``),
into ``stores/data/capability-vectors.npz`` together with the digest of the texts and the
model they were made from; a stale file is ignored and the texts are embedded at run time.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from oic_ai.stores.capability_catalog import Capability, CapabilityCatalog

VECTORS_FILE = Path(__file__).resolve().parent / "data" / "capability-vectors.npz"


def capability_text(capability: Capability) -> str:
    """What a capability is, in words: its name, its synonyms and its note."""
    synonyms = ", ".join(capability.synonyms)
    return f"{capability.name.replace('-', ' ')}: {synonyms}. {capability.note}"


def capability_texts(catalog: CapabilityCatalog) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The capability names, in catalog order, and the text of each."""
    names = tuple(catalog.capabilities)
    return names, tuple(capability_text(catalog.capabilities[n]) for n in names)


def digest(model_id: str, texts: tuple[str, ...]) -> str:
    """SHA-256 of the texts and the model: what shipped vectors were made from."""
    payload = json.dumps([model_id, list(texts)], ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def load_vectors(wanted: str, path: Path = VECTORS_FILE) -> Any | None:
    """The shipped vectors (float32, one row per capability) if made from ``wanted``."""
    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as shipped:
            if str(shipped["digest"]) != wanted:
                return None
            return np.asarray(shipped["vectors"], dtype=np.float32)
    except (OSError, KeyError, ValueError):
        return None
