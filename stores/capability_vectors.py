"""The capability catalog in words, and its MiniLM vectors shipped in ``stores/data/``.

A request that says what a package should do ("something to export node metrics") is read
against each capability's name, synonyms and note (:mod:`oic_ai.tools.planner.rules.described`).
Those texts are embedded once, by ``scripts/build_operation_bank.py`` (``make vectors``),
into ``stores/data/capability-vectors.npz`` (:mod:`oic_ai.stores.shipped_vectors`); a stale
file is ignored and the texts are embedded at run time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from oic_ai.stores.capability_catalog import Capability, CapabilityCatalog
from oic_ai.stores.shipped_vectors import load_shipped, texts_digest

VECTORS_FILE = Path(__file__).resolve().parent / "data" / "capability-vectors.npz"


def capability_text(capability: Capability) -> str:
    """What a capability is, in words: its name, its synonyms and its note."""
    synonyms = ", ".join(capability.synonyms)
    return f"{capability.name.replace('-', ' ')}: {synonyms}. {capability.note}"


def capability_texts(catalog: CapabilityCatalog) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The capability names, in catalog order, and the text of each."""
    names = tuple(catalog.capabilities)
    return names, tuple(capability_text(catalog.capabilities[n]) for n in names)


def load_vectors(texts: tuple[str, ...], model_id: str) -> Any | None:
    """The shipped vectors for these capability texts and model, or None when stale."""
    return load_shipped(VECTORS_FILE, texts_digest(model_id, texts))
