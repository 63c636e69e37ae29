"""Vectors of the bundled template library, shipped with the package.

A fresh install would otherwise embed the whole bundled library on its first turn. The
vectors in ``stores/data/library-vectors.npy`` (float32, one row per template) and their
manifest ``library-vectors.json`` (``model_id``, ``dims`` and, per row, the template's
``file``, the ``sha256`` of its bytes, the hash the index keeps, and the ``text_sha256``
of the text that was embedded) let indexing skip the model for every file whose bytes and
embedded text match, in any templates folder (a copy of the library benefits too).

A vector is used only when the model id, the dimension, the file's hash and the hash of
the text the index would embed all match, so stale or foreign vectors are never used:
they are simply embedded again. ``scripts/build_library_vectors.py`` (``make vectors``)
rebuilds the files; a test checks they are up to date.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parent / "data"
VECTORS_FILE = "library-vectors.npy"
MANIFEST_FILE = "library-vectors.json"

Vectors = list[list[float]]


def text_hash(text: str) -> str:
    """SHA-256 of the text an embedder is given."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class ShippedVectors:
    """The shipped vectors of one model, found by (file hash, text hash)."""

    model_id: str
    dimensions: int
    rows: dict[tuple[str, str], int]
    matrix: Any  # a float32 NumPy array [rows, dimensions]

    def vector(self, file_sha256: str, text_sha256: str) -> list[float] | None:
        """The shipped vector for this file and text, or None when there is none."""
        row = self.rows.get((file_sha256, text_sha256))
        if row is None:
            return None
        return [float(v) for v in self.matrix[row]]


_loaded: dict[Path, ShippedVectors | None] = {}
_lock = threading.Lock()


def load_shipped(folder: Path = DATA_DIR) -> ShippedVectors | None:
    """Read the shipped vectors once per process; None when absent or unreadable.

    A damaged or inconsistent file is ignored (indexing then embeds everything), never
    trusted: the manifest must name as many rows as the array holds, of the stated size.
    """
    with _lock:
        if folder in _loaded:
            return _loaded[folder]
        shipped: ShippedVectors | None = None
        try:
            import numpy as np

            manifest = json.loads((folder / MANIFEST_FILE).read_text(encoding="utf-8"))
            matrix = np.load(folder / VECTORS_FILE, allow_pickle=False)
            entries = manifest["files"]
            dims = int(manifest["dims"])
            if matrix.ndim == 2 and matrix.shape == (len(entries), dims):
                shipped = ShippedVectors(
                    model_id=str(manifest["model_id"]),
                    dimensions=dims,
                    rows={
                        (str(e["sha256"]), str(e["text_sha256"])): i for i, e in enumerate(entries)
                    },
                    matrix=matrix.astype("float32", copy=False),
                )
        except (OSError, ValueError, KeyError, TypeError):
            shipped = None
        _loaded[folder] = shipped
        return shipped


def embed_reusing_shipped(
    model_id: str,
    dimensions: int,
    file_hashes: Sequence[str],
    texts: list[str],
    embed: Callable[[list[str]], Vectors],
    folder: Path = DATA_DIR,
) -> tuple[Vectors, int]:
    """Vectors for ``texts``: shipped ones where they match, ``embed`` for the rest.

    Args:
        model_id: The embedder's model id; only vectors of the same model are used.
        dimensions: The embedder's vector length.
        file_hashes: The SHA-256 of each text's template file, parallel to ``texts``.
        texts: The texts the index stores and would embed.
        embed: Embeds a list of texts (called once, with only the texts not covered).
        folder: Where the shipped files are.

    Returns:
        The vectors in input order, and how many came from the shipped file.
    """
    shipped = load_shipped(folder)
    found: list[list[float] | None] = [None] * len(texts)
    if shipped is not None and shipped.model_id == model_id and shipped.dimensions == dimensions:
        found = [
            shipped.vector(sha, text_hash(text))
            for sha, text in zip(file_hashes, texts, strict=True)
        ]
    missing = [i for i, vector in enumerate(found) if vector is None]
    embedded = embed([texts[i] for i in missing]) if missing else []
    for i, vector in zip(missing, embedded, strict=True):
        found[i] = vector
    return [v for v in found if v is not None], len(texts) - len(missing)


def build_manifest(
    model_id: str, dims: int, entries: Sequence[tuple[str, str, str]]
) -> dict[str, Any]:
    """The manifest for rows of (file, sha256 of its bytes, sha256 of its embedded text)."""
    return {
        "model_id": model_id,
        "dims": dims,
        "dtype": "float32",
        "files": [{"file": f, "sha256": sha, "text_sha256": text} for f, sha, text in entries],
    }


def library_entries(templates_dir: Path) -> tuple[list[tuple[str, str, str]], list[str]]:
    """Each usable template in ``templates_dir`` as the index reads it, in its order.

    Returns:
        Rows of (file, sha256 of its bytes, sha256 of its text), and the texts themselves.
    """
    from oic_ai.stores.template_library import (
        iter_template_files,
        parse_template_bytes,
        read_file_bytes,
    )

    entries: list[tuple[str, str, str]] = []
    texts: list[str] = []
    for path in iter_template_files(templates_dir, []):
        relative = path.relative_to(templates_dir).as_posix()
        parsed = parse_template_bytes(read_file_bytes(path), relative)
        if isinstance(parsed, str):
            continue
        text = parsed.searchable_text()
        entries.append((relative, parsed.content_hash, text_hash(text)))
        texts.append(text)
    return entries, texts


def stale_entries(templates_dir: Path, folder: Path = DATA_DIR) -> list[str]:
    """The library's files the shipped vectors do not cover, or cover with a wrong row.

    Empty when the shipped files are up to date with ``templates_dir``.
    """
    entries, _ = library_entries(templates_dir)
    try:
        manifest = json.loads((folder / MANIFEST_FILE).read_text(encoding="utf-8"))
        shipped = [(e["file"], e["sha256"], e["text_sha256"]) for e in manifest["files"]]
    except (OSError, ValueError, KeyError, TypeError):
        return [file for file, _, _ in entries] or ["(no manifest)"]
    wanted = set(entries)
    problems = [file for file, sha, text in entries if (file, sha, text) not in set(shipped)]
    problems += [
        f"{file} (no longer in the library)"
        for file, sha, text in shipped
        if (file, sha, text) not in wanted
    ]
    return problems
