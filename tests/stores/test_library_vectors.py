"""The bundled library's vectors ship with the package: a fresh index embeds only what differs."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

from oic_ai.stores.embeddings.minilm import MiniLMEmbedder
from oic_ai.stores.library_vectors import (
    DATA_DIR,
    MANIFEST_FILE,
    VECTORS_FILE,
    embed_reusing_shipped,
    library_entries,
    load_shipped,
    stale_entries,
    text_hash,
)
from oic_ai.stores.template_index import TemplateIndex, library_key
from tests.conftest import OUR_TEMPLATES, PROJECT
from tests.support.fake_models import HashEmbedder


class CountingMiniLM(MiniLMEmbedder):
    """The real local model, counting the documents it is asked to embed."""

    def __init__(self) -> None:
        super().__init__()
        self.embedded: list[str] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.embedded.extend(texts)
        return super().embed_documents(texts)


def copy_library(target: Path) -> Path:
    shutil.copytree(OUR_TEMPLATES, target)
    return target


def test_the_shipped_vectors_are_up_to_date_with_the_library() -> None:
    assert stale_entries(OUR_TEMPLATES) == [], "the library changed: run `make vectors`"
    done = subprocess.run(
        [sys.executable, "scripts/build_library_vectors.py", "--check"],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr


def test_the_shipped_files_are_small_and_consistent() -> None:
    manifest = json.loads((DATA_DIR / MANIFEST_FILE).read_text())
    matrix = np.load(DATA_DIR / VECTORS_FILE, allow_pickle=False)
    assert manifest["model_id"] == MiniLMEmbedder.model_id
    assert (
        matrix.shape
        == (len(manifest["files"]), manifest["dims"])
        == (
            len(list(OUR_TEMPLATES.glob("*.yml"))),
            MiniLMEmbedder.dimensions,
        )
    )
    assert matrix.dtype == np.float32
    assert np.allclose(np.linalg.norm(matrix, axis=1), 1.0, atol=1e-5)  # unit vectors
    size = (DATA_DIR / VECTORS_FILE).stat().st_size + (DATA_DIR / MANIFEST_FILE).stat().st_size
    assert size < 128 * 1024


def test_shipped_vectors_are_what_the_local_model_gives() -> None:
    entries, texts = library_entries(OUR_TEMPLATES)
    shipped = load_shipped()
    assert shipped is not None
    picked = [0, len(texts) // 2, len(texts) - 1]
    fresh = MiniLMEmbedder().embed_array([texts[i] for i in picked])
    for row, i in enumerate(picked):
        _, sha, text_sha = entries[i]
        vector = np.asarray(shipped.vector(sha, text_sha), dtype=np.float32)
        # the same model; only the batch it was computed in differs (float32 rounding)
        assert np.max(np.abs(vector - fresh[row])) < 1e-5
        assert float(vector @ fresh[row]) > 0.99999


def test_a_fresh_index_of_a_copy_of_the_library_embeds_nothing(tmp_path: Path) -> None:
    library = copy_library(tmp_path / "copy")
    embedder = CountingMiniLM()
    index = TemplateIndex(embedder, tmp_path / "data", library=library_key(library))
    first = index.sync(library)
    count = len(list(library.glob("*.yml")))
    assert (first.created, first.embedded, first.shipped) == (count, count, count)
    assert embedder.embedded == []  # the model was not asked for anything
    shipped = load_shipped()
    assert shipped is not None
    stored = index.collection.get(include=["embeddings", "metadatas"])
    for vector, meta, document in zip(
        stored["embeddings"], stored["metadatas"], index.collection.get()["documents"], strict=True
    ):
        expected = shipped.vector(meta["content_hash"], text_hash(document))
        assert expected is not None
        # what the store gives back (it re-normalises cosine vectors: last-bit differences)
        assert np.allclose(np.asarray(vector), expected, atol=1e-6)

    # a changed file and a renamed copy (its text names the file) go to the model
    changed = sorted(library.glob("*.yml"))[0]
    changed.write_text(changed.read_text() + "\n# changed after shipping\n")
    renamed = sorted(library.glob("*.yml"))[1]
    shutil.copy(renamed, library / "renamed-copy.yml")
    again = index.sync(library)
    assert (again.created, again.updated, again.unchanged) == (1, 1, count - 1)
    assert (again.embedded, again.shipped) == (2, 0)
    assert sorted(t.split("\n", 1)[0] for t in embedder.embedded) == [
        f"Template: {changed.name}",
        "Template: renamed-copy.yml",
    ]


def test_another_models_index_never_uses_the_shipped_vectors(tmp_path: Path) -> None:
    embedder = HashEmbedder()
    library = copy_library(tmp_path / "copy")
    report = TemplateIndex(embedder, tmp_path / "data", library=library_key(library)).sync(library)
    assert report.shipped == 0 and report.embedded == report.created > 0
    assert sum(embedder.calls) == report.created


def test_damaged_shipped_files_are_ignored_not_trusted(tmp_path: Path) -> None:
    entries, texts = library_entries(OUR_TEMPLATES)
    hashes = [sha for _, sha, _ in entries[:3]]
    asked: list[list[str]] = []

    def embed(batch: list[str]) -> list[list[float]]:
        asked.append(batch)
        return [[0.0] * MiniLMEmbedder.dimensions for _ in batch]

    # the real files serve every row
    vectors, shipped = embed_reusing_shipped(
        MiniLMEmbedder.model_id, MiniLMEmbedder.dimensions, hashes, texts[:3], embed
    )
    assert (shipped, asked) == (3, [])
    assert all(abs(np.linalg.norm(v) - 1.0) < 1e-5 for v in vectors)

    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / MANIFEST_FILE).write_text((DATA_DIR / MANIFEST_FILE).read_text())
    np.save(damaged / VECTORS_FILE, np.zeros((2, 7), dtype=np.float32))  # wrong shape
    assert load_shipped(damaged) is None
    garbled = tmp_path / "garbled"
    garbled.mkdir()
    (garbled / MANIFEST_FILE).write_text("{not json")
    shutil.copy(DATA_DIR / VECTORS_FILE, garbled / VECTORS_FILE)
    for folder in (damaged, garbled, tmp_path / "absent"):
        asked.clear()
        _, shipped = embed_reusing_shipped(
            MiniLMEmbedder.model_id, MiniLMEmbedder.dimensions, hashes, texts[:3], embed, folder
        )
        assert (shipped, asked) == (0, [texts[:3]])


def test_stale_entries_name_what_changed(tmp_path: Path) -> None:
    library = copy_library(tmp_path / "copy")
    changed = sorted(library.glob("*.yml"))[2]
    changed.write_text(changed.read_text() + "\n# edited\n")
    stale = stale_entries(library)
    assert stale == [changed.name, f"{changed.name} (no longer in the library)"]
