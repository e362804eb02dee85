"""Fit a static token table to the sentence encoder's vectors of a build's abstracts.

    .venv/bin/python tools/fit_static_encoder.py BUILD -o TABLE.npy [--lam 0.003] [--iters 250]

The model2vec table of :mod:`kg.static_encoder` is made from tokens encoded one by one; this fits
one to whole texts instead (the idea of tokenlearn, Tulkens and van Dongen 2024): a text's vector
is the mean of its tokens' rows, and the rows ``E`` minimize

    ||X E - Y||² + lam ||E - E0||²

with ``X`` each text's token counts divided by its length, ``Y`` all-MiniLM-L6-v2's vectors of the
same texts and ``E0`` the single-token rows, centred, SIF-weighted and scaled to fit ``Y`` (the
prior a token seen in no text keeps). Solved by conjugate gradients, in float64, one thread.

BUILD is a build directory whose ``related-index.npz`` holds the encoder's vectors
(``kg related --write-index -g BUILD``; on the 22k corpus about 2,200 CPU-seconds). The texts are
the index's (title and abstract). One text in ten (by a hash of its text) is held out of the fit;
the mean cosine between the table's vectors and the encoder's on them is printed, next to the
single-token prior's. The table (``vocab × 384``, float16) is what ``bench/ablate_related.py
--table`` ranks with in the encoder's place.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

import numpy as np
import scipy.sparse as sp

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from kg.encoder import Encoder, model_dir, text_key  # noqa: E402
from kg.graphdir import load_nx  # noqa: E402
from kg.related import INDEX_FILE, saved_encoder_vectors  # noqa: E402
from kg.related.vectorizers import paper_texts  # noqa: E402
from kg.static_encoder import load_static_encoder, sif_weights, token_rows  # noqa: E402


def mean_matrix(texts: list[str], size: int) -> sp.csr_matrix:
    """Each text's token counts (no special tokens, no truncation) divided by its length."""
    tokenizer = load_static_encoder().tokenizer  # untruncated, no padding
    rows, cols, vals = [], [], []
    for i, encoding in enumerate(tokenizer.encode_batch(texts, add_special_tokens=False)):
        ids, counts = np.unique(np.asarray(encoding.ids, dtype=np.int64), return_counts=True)
        rows.append(np.full(len(ids), i))
        cols.append(ids)
        vals.append(counts / max(1, counts.sum()))
    matrix = sp.csr_matrix(
        (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(len(texts), size)
    )
    return matrix


def unit(a: np.ndarray) -> np.ndarray:
    norm = np.linalg.norm(a, axis=1, keepdims=True)
    return a / np.where(norm > 0, norm, 1.0)


def ridge(x: sp.csr_matrix, y: np.ndarray, lam: float, prior: np.ndarray, iters: int) -> np.ndarray:
    """``argmin ||x E - y||² + lam ||E - prior||²`` by conjugate gradients on all columns at once."""
    xt = x.T.tocsr()

    def apply(e: np.ndarray) -> np.ndarray:
        return xt @ (x @ e) + lam * e  # type: ignore[no-any-return]

    rhs = xt @ y + lam * prior
    e = prior.copy()
    r = rhs - apply(e)
    p = r.copy()
    rs = float(np.sum(r * r))
    scale = float(np.sqrt(np.sum(rhs * rhs)))
    for _ in range(iters):
        ap = apply(p)
        alpha = rs / float(np.sum(p * ap))
        e += alpha * p
        r -= alpha * ap
        rs_new = float(np.sum(r * r))
        if np.sqrt(rs_new) < 1e-6 * scale:
            break
        p = r + (rs_new / rs) * p
        rs = rs_new
    return e


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build", type=Path)
    ap.add_argument("-o", "--output", type=Path, required=True)
    ap.add_argument("--lam", type=float, default=0.003)
    ap.add_argument("--iters", type=int, default=250)
    args = ap.parse_args()
    from threadpoolctl import threadpool_limits

    texts = paper_texts(load_nx(args.build))
    keys = [text_key(t) for t in texts]
    saved = saved_encoder_vectors(args.build / INDEX_FILE)
    if not all(k in saved for k in keys):
        print(f"{args.build / INDEX_FILE}: no encoder vectors for every text; "
              f"run kg related --write-index -g {args.build}", file=sys.stderr)
        return 2
    y = np.stack([saved[k] for k in keys]).astype(np.float64)
    with threadpool_limits(1):
        rows, _kept = token_rows(Encoder(model_dir(), "float32"))
        prior = (rows - rows.mean(axis=0)) * sif_weights(len(rows))[:, None]
        x = mean_matrix(texts, len(rows))
        held = np.array([int(hashlib.sha256(k.encode()).hexdigest(), 16) % 10 == 0 for k in keys])
        fit_x, fit_y = x[~held], y[~held]
        guess = fit_x @ prior
        prior *= float(np.sum(guess * fit_y) / np.sum(guess * guess))
        table = ridge(fit_x, fit_y, args.lam, prior, args.iters)
    for name, e in (("single-token prior", prior), (f"fitted, lam {args.lam}", table)):
        cosine = float(np.mean(np.sum(unit(x[held] @ e) * y[held], axis=1)))
        print(f"{name}: mean cosine to the encoder on {int(held.sum())} held-out texts {cosine:.4f}")
    np.save(args.output, table.astype(np.float16), allow_pickle=False)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
