"""Collection names: one per library and embedding model, always a name Chroma accepts."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from chromadb.api.segment import check_index_name

from oic_ai.stores.template_index import (
    TemplateIndex,
    cache_stats,
    clear_cache,
    collection_name,
    legacy_collection_name,
    library_collections,
    library_key,
)
from tests.support.fake_models import HashEmbedder

LONG_MODEL = "openai-" + "a-very-long-fine-tuned-embedding-model-name" * 3


@pytest.mark.parametrize(
    ("name", "model", "dimensions"),
    [
        (None, "hash", 16),
        ("team-a", "all-MiniLM-L6-v2", 384),
        ("Team A's library!", LONG_MODEL, 3072),
        ("x" * 200, LONG_MODEL, 123456),
        ("...", "...", 8),
        ("1.2.3.4", "5.6.7.8", 9),
    ],
)
def test_every_name_is_one_chroma_accepts(
    tmp_path: Path, name: str | None, model: str, dimensions: int
) -> None:
    key = library_key(tmp_path / "library", name)
    built = collection_name(HashEmbedder(dimensions, model), key)
    check_index_name(built)  # raises ValueError for a name Chroma refuses
    assert len(key) <= 21 and len(built) <= 63


def test_an_explicit_short_name_is_used_as_it_is(tmp_path: Path) -> None:
    key = library_key(tmp_path / "anywhere", "team-a")
    assert key == "team-a"
    assert collection_name(HashEmbedder(16), key) == "oic_team-a_hash-16_16d"
    assert library_key(tmp_path / "elsewhere", " team-a ") == key, "the folder no longer matters"


def test_other_names_are_shortened_and_keep_a_hash(tmp_path: Path) -> None:
    first, second = library_key(tmp_path, "Team A"), library_key(tmp_path, "team a")
    assert first != second, "names that slug alike still differ"
    assert first.startswith("team-a-") and len(first) == len("team-a-") + 8


def test_a_folder_id_is_stable_and_follows_the_resolved_path(tmp_path: Path) -> None:
    folder = tmp_path / "image-templates"
    folder.mkdir()
    (tmp_path / "link").symlink_to(folder)
    key = library_key(folder)
    assert key == library_key(folder) == library_key(tmp_path / "link")
    assert key == library_key(tmp_path / "sub" / ".." / "image-templates")
    assert key.startswith("image-templ") and len(key) <= 21
    other = tmp_path / "other" / "image-templates"
    assert library_key(other) != key, "same folder name, another path: another library"


def test_long_model_ids_stay_apart(tmp_path: Path) -> None:
    key = library_key(tmp_path)
    one, two = HashEmbedder(8, LONG_MODEL + "-one"), HashEmbedder(8, LONG_MODEL + "-two")
    assert collection_name(one, key) != collection_name(two, key)


def test_a_library_name_prefix_does_not_reach_another_library(
    small_library: Path, tmp_path: Path
) -> None:
    """``team`` and ``team-a`` share a name prefix; clearing one keeps the other."""
    data = tmp_path / "data"
    team = TemplateIndex(HashEmbedder(), data, library="team")
    team.sync(small_library)
    team_a = TemplateIndex(HashEmbedder(), data, library="team-a", client=team.client)
    team_a.sync(small_library)
    assert team.name != team_a.name
    assert [c["name"] for c in library_collections(team.client, "team")] == [team.name]
    assert [c["name"] for c in library_collections(team.client, "team-a")] == [team_a.name]


def test_two_libraries_in_one_store_keep_each_others_entries(
    small_library: Path, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    other = tmp_path / "other"
    other.mkdir()
    first = sorted(small_library.glob("*.yml"))
    for path in first[:2]:
        shutil.copy(path, other / path.name)
    ours = TemplateIndex(HashEmbedder(), data, library=library_key(small_library))
    theirs = TemplateIndex(HashEmbedder(), data, library=library_key(other))
    assert ours.sync(small_library).created == 5
    assert theirs.sync(other).created == 2
    assert ours.sync(small_library).deleted == 0, "their two files are not ours to delete"
    (small_library / first[0].name).unlink()
    assert ours.sync(small_library).deleted == 1
    assert sorted(theirs.collection.get()["ids"]) == sorted(p.name for p in first[:2])
    assert ours.collection.count() == 4


def test_the_first_sync_reuses_vectors_of_the_legacy_collection(
    small_library: Path, tmp_path: Path
) -> None:
    """An upgrade re-indexes into the new name without embedding identical files again."""
    embedder = HashEmbedder()
    index = TemplateIndex(embedder, tmp_path / "data", library="team")
    ef = index.collection._embedding_function
    legacy = index.client.create_collection(legacy_collection_name(embedder), embedding_function=ef)
    index.client.delete_collection(index.name)  # only the legacy one exists, as before
    index._collection = None
    files = sorted(small_library.glob("*.yml"))
    old = TemplateIndex(embedder, tmp_path / "scratch", library="scratch")
    old.sync(small_library)
    got = old.collection.get(include=["embeddings", "metadatas", "documents"])
    legacy.add(
        ids=got["ids"],
        embeddings=got["embeddings"],
        metadatas=got["metadatas"],
        documents=got["documents"],
    )
    files[0].write_text(files[0].read_text() + "\n# changed since the legacy index\n")
    embedder.calls.clear()

    report = index.sync(small_library)

    assert (report.created, report.reused, report.embedded) == (5, 4, 1)
    assert embedder.calls == [1]
    assert legacy.count() == 5, "the legacy collection is left as it was"
    mine = index.collection.get(ids=[files[1].name], include=["embeddings"])["embeddings"][0]
    theirs = legacy.get(ids=[files[1].name], include=["embeddings"])["embeddings"][0]
    assert list(mine) == pytest.approx(list(theirs))
    stats = cache_stats(tmp_path / "data", library="team")
    assert {(c["name"], c["legacy"]) for c in stats["collections"]} == {
        (index.name, False),
        (legacy_collection_name(embedder), True),
    }
    assert clear_cache(tmp_path / "data", library="team") == 10, "the embedded store is ours"
