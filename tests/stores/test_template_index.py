"""The Chroma index is an embedding cache: only new or changed files are embedded."""

from __future__ import annotations

from pathlib import Path

import pytest

from oic_ai.stores.template_index import TemplateIndex, cache_stats, clear_cache, collection_name
from oic_ai.stores.template_model import content_hash
from tests.support.fake_models import HashEmbedder

LIB = "lib"


def test_incremental_sync_follows_every_cache_rule(small_library: Path, tmp_path: Path) -> None:
    embedder = HashEmbedder()
    index = TemplateIndex(embedder, tmp_path / "data", library=LIB)

    first = index.sync(small_library)
    assert (first.created, first.updated, first.unchanged, first.deleted, first.embedded) == (
        5,
        0,
        0,
        0,
        5,
    )

    again = index.sync(small_library)
    assert (again.created, again.unchanged, again.embedded) == (0, 5, 0)
    assert embedder.calls == [5]  # nothing embedded the second time

    changed = sorted(small_library.glob("*.yml"))[0]
    changed.write_text(changed.read_text() + "\n# a comment is still a change\n")
    removed = sorted(small_library.glob("*.yml"))[1]
    removed.unlink()
    third = index.sync(small_library)
    assert (third.created, third.updated, third.unchanged, third.deleted, third.embedded) == (
        0,
        1,
        3,
        1,
        1,
    )
    stored = index.collection.get(ids=[changed.name], include=["metadatas"])
    assert stored["metadatas"][0]["content_hash"] == content_hash(changed.read_bytes())
    assert index.collection.count() == 4
    assert removed.name not in index.collection.get()["ids"]


def test_ids_are_paths_and_metadata_holds_filters(small_library: Path, tmp_path: Path) -> None:
    (small_library / "sub").mkdir()
    first = sorted(small_library.glob("*.yml"))[0]
    first.rename(small_library / "sub" / first.name)
    index = TemplateIndex(HashEmbedder(), tmp_path / "data", library=LIB)
    index.sync(small_library)
    ids = set(index.collection.get()["ids"])
    assert f"sub/{first.name}" in ids
    meta = index.collection.get(ids=[f"sub/{first.name}"], include=["metadatas"])["metadatas"][0]
    for key in (
        "content_hash",
        "file_name",
        "os",
        "dist",
        "arch",
        "image_type",
        "use_cases",
        "keywords",
        "packages",
        "model_id",
    ):
        assert meta[key], key


def test_each_model_and_dimension_gets_its_own_collection(
    small_library: Path, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    small, large = HashEmbedder(16), HashEmbedder(32)
    assert collection_name(small, LIB) != collection_name(large, LIB)
    TemplateIndex(small, data, library=LIB).sync(small_library)
    report = TemplateIndex(large, data, library=LIB).sync(small_library)
    assert report.created == 5  # nothing reused across models
    stats = cache_stats(data, library=LIB)
    assert sorted((c["model"], c["dimensions"], c["entries"]) for c in stats["collections"]) == [
        ("hash-16", 16, 5),
        ("hash-32", 32, 5),
    ]
    assert stats["last_run"]["misses"] == 5 and stats["size_bytes"] > 0


def test_failed_embedding_leaves_the_index_as_it_was(small_library: Path, tmp_path: Path) -> None:
    class Failing(HashEmbedder):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            raise RuntimeError("backend fell over")

    data = tmp_path / "data"
    TemplateIndex(HashEmbedder(), data, library=LIB).sync(small_library)
    target = sorted(small_library.glob("*.yml"))[0]
    before = TemplateIndex(HashEmbedder(), data, library=LIB).collection.get(include=["metadatas"])
    target.write_text(target.read_text() + "\n# changed\n")
    with pytest.raises(RuntimeError):
        TemplateIndex(Failing(), data, library=LIB).sync(small_library)
    after = TemplateIndex(HashEmbedder(), data, library=LIB).collection.get(include=["metadatas"])
    assert after == before


def test_cache_clear_empties_and_survives_a_corrupt_store(
    small_library: Path, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    TemplateIndex(HashEmbedder(), data, library=LIB).sync(small_library)
    assert clear_cache(data, library=LIB) == 5
    assert cache_stats(data, library=LIB)["entries"] == 0
    (data / "chroma" / "chroma.sqlite3").write_bytes(b"this is not a database" * 100)
    clear_cache(data, library=LIB)  # a damaged cache is thrown away, not fatal
    assert TemplateIndex(HashEmbedder(), data, library=LIB).sync(small_library).created == 5


def test_large_libraries_are_written_in_batches_chroma_accepts(
    small_library: Path, tmp_path: Path
) -> None:
    source = sorted(small_library.glob("*.yml"))
    for n in range(12):  # 17 templates, written 4 at a time
        (small_library / f"copy-{n:02d}.yml").write_text(
            source[n % len(source)].read_text().replace("description:", f"description: c{n}", 1)
        )
    index = TemplateIndex(HashEmbedder(), tmp_path / "data", library=LIB)
    index._write_batch = 4
    assert index.sync(small_library).created == 17
    assert index.collection.count() == 17
    for path in sorted(small_library.glob("copy-*.yml")):
        path.unlink()
    assert index.sync(small_library).deleted == 12
    assert index.collection.count() == 5
    fresh = TemplateIndex(HashEmbedder(), tmp_path / "other", library=LIB)
    assert fresh.write_batch() >= 1000  # what a real Chroma allows per write
