"""A static token-embedding table distilled from all-MiniLM-L6-v2: a text's vector is a lookup
and a mean, not a transformer pass.

The table is made by the model2vec method (Tulkens and van Dongen, "Model2Vec", 2024) from the
installed MiniLM weights (:mod:`kg.encoder`), with no download and no training:

1. every token of the model's WordPiece vocabulary is encoded by the model on its own
   (``[CLS] token [SEP]``, the model's mean pooling): 30,522 short passes;
2. the vectors are centred and rotated onto their principal components (PCA), the first
   :data:`DIMENSIONS` kept;
3. each token's row is weighted by SIF, ``a / (a + p(token))``, with ``p`` a Zipf law over the
   token's rank in the vocabulary (its order approximates frequency): frequent tokens ("the",
   "of", "##s") count little in a mean, rare ones much.

A text is tokenized with the same tokenizer (lowercased WordPiece, no truncation, no special
tokens), its rows averaged and the mean L2-normalized; zeros for a text without a token. The
table ships as ``kg/models/static_encoder/`` (``vectors.npy``, float16, and ``meta.json``, which
names the MiniLM weights and tokenizer it was distilled from; the installed tokenizer is checked
against it at load). It is rebuilt, byte for byte, by::

    python -m kg.static_encoder          # about a minute on one core
"""

from __future__ import annotations

import functools
import hashlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from kg.encoder import DIMENSIONS as MODEL_DIMENSIONS
from kg.encoder import TOKENIZER_SHA256, WEIGHTS_SHA256, Encoder, _checked, model_dir
from kg.errors import ConfigError

MODEL_DIR = Path(__file__).resolve().parent / "models" / "static_encoder"
DIMENSIONS = 256
SIF_A = 1e-3  # model2vec's SIF coefficient
REBUILD = "python -m kg.static_encoder"


class StaticEncoder:
    """The distilled table: :meth:`vectors` maps texts to unit vectors of :data:`DIMENSIONS`.

    Raises:
        ConfigError: the table or the tokenizer is missing, or the tokenizer is not the one the
            table was distilled with.
    """

    def __init__(self, directory: Path = MODEL_DIR) -> None:
        from tokenizers import Tokenizer

        try:
            meta = json.loads((directory / "meta.json").read_text(encoding="utf-8"))
            table = np.load(directory / "vectors.npy", allow_pickle=False)
        except (OSError, ValueError) as exc:
            raise ConfigError(f"{directory}: cannot read the static encoder table ({exc}); "
                              f"rebuild it with {REBUILD}") from None
        if meta.get("tokenizer_sha256") != TOKENIZER_SHA256:
            raise ConfigError(f"{directory}: the static table was distilled with another tokenizer; "
                              f"rebuild it with {REBUILD}")
        tokenizer = _checked(model_dir() / "tokenizer.json", TOKENIZER_SHA256)
        self.tokenizer = Tokenizer.from_str(tokenizer.decode("utf-8"))
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()
        self.table = table.astype(np.float32)
        self.name = str(meta["name"])

    def vectors(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors of ``texts`` (``n × DIMENSIONS``, float32), in their order."""
        return table_vectors(self.tokenizer, self.table, texts)


def table_vectors(tokenizer: Any, table: np.ndarray, texts: Sequence[str]) -> np.ndarray:
    """The unit mean of ``table``'s rows over each text's tokens (``tokenizer`` without special
    tokens; zeros for a text without a token): ``n × table width``, float32."""
    out = np.zeros((len(texts), table.shape[1]), dtype=np.float32)
    for i, encoding in enumerate(tokenizer.encode_batch(list(texts), add_special_tokens=False)):
        if not encoding.ids:
            continue
        mean = table[encoding.ids].mean(axis=0)
        norm = float(np.linalg.norm(mean))
        if norm > 0:
            out[i] = mean / norm
    return out


@functools.lru_cache(maxsize=1)
def load_static_encoder() -> StaticEncoder:
    """The shipped table (read once per process)."""
    return StaticEncoder()


def token_rows(encoder: Encoder) -> tuple[np.ndarray, np.ndarray]:
    """Each vocabulary token encoded by ``encoder`` on its own (``[CLS] token [SEP]``, mean pooling):
    ``vocab × 384`` rows (zeros for the special tokens) and the ids of the tokens kept."""
    from threadpoolctl import threadpool_limits

    vocab = encoder.tokenizer.get_vocab()
    size = len(vocab)
    cls, sep = vocab["[CLS]"], vocab["[SEP]"]
    skip = {i for t, i in vocab.items() if t.startswith("[") and t.endswith("]")}  # [PAD], [unused0] …
    kept = np.array(sorted(set(range(size)) - skip), dtype=np.int64)
    rows = np.zeros((size, MODEL_DIMENSIONS), dtype=np.float64)
    with threadpool_limits(1):
        for start in range(0, len(kept), 512):  # [CLS] token [SEP], 512 tokens a pass
            batch = kept[start : start + 512]
            ids = np.stack([np.full(len(batch), cls), batch, np.full(len(batch), sep)], axis=1)
            rows[batch] = encoder.encode_batch(ids)
    return rows, kept


def sif_weights(size: int, sif_a: float = SIF_A) -> np.ndarray:
    """SIF weights ``a / (a + p)`` of a vocabulary, ``p`` a Zipf law over its rank (its order)."""
    rank = np.arange(1, size + 1, dtype=np.float64)
    p = (1.0 / rank) / (1.0 / rank).sum()
    return sif_a / (sif_a + p)  # type: ignore[no-any-return]


def distill(encoder: Encoder, dimensions: int = DIMENSIONS, sif_a: float = SIF_A) -> np.ndarray:
    """The table of ``encoder``'s vocabulary (see the module docstring): ``vocab × dimensions``."""
    rows, kept = token_rows(encoder)
    size = len(rows)
    centred = rows[kept] - rows[kept].mean(axis=0)
    _u, _s, components = np.linalg.svd(centred, full_matrices=False)
    components = components[:dimensions]
    # an SVD's signs are arbitrary: each component points where its largest coordinate is positive
    signs = np.sign(components[np.arange(len(components)), np.abs(components).argmax(axis=1)])
    components *= signs[:, None]
    table = np.zeros((size, dimensions), dtype=np.float64)
    table[kept] = centred @ components.T
    table *= sif_weights(size, sif_a)[:, None]
    return table.astype(np.float16)


def write_table(directory: Path = MODEL_DIR) -> Path:
    """Distill the installed MiniLM, in float32, into ``directory`` (``vectors.npy``, ``meta.json``)."""
    table = distill(Encoder(model_dir(), "float32"))
    directory.mkdir(parents=True, exist_ok=True)
    np.save(directory / "vectors.npy", table, allow_pickle=False)
    digest = hashlib.sha256(table.tobytes()).hexdigest()
    meta = {
        "name": f"minilm-static-{DIMENSIONS}-{digest[:12]}",
        "method": "model2vec: per-token MiniLM vectors, PCA, SIF weights by a Zipf law over vocabulary rank",
        "dimensions": DIMENSIONS,
        "sif_a": SIF_A,
        "weights_sha256": WEIGHTS_SHA256,
        "tokenizer_sha256": TOKENIZER_SHA256,
        "rebuild": REBUILD,
    }
    (directory / "meta.json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return directory


if __name__ == "__main__":
    print(f"wrote {write_table()}", file=sys.stderr)
