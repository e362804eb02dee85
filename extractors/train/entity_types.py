"""Train the span-type classifier of :mod:`extractors.entity_types` on SciERC train gold spans.

SciERC: Luan, He, Ostendorf and Hajishirzi, "Multi-Task Identification of Entities, Relations, and
Coreference for Scientific Knowledge Graph Construction", EMNLP 2018 (DyGIE json layout).

One command rebuilds the shipped weights (deterministic: lbfgs, no sampling; about a minute)::

    .venv/bin/python -m extractors.train.entity_types

(defaults: ``../shared/data/scierc/{train,dev}.json``, output ``extractors/models/entity_types/``).

* Examples: every gold span of SciERC ``train.json`` + ``dev.json`` outside the frozen fold
  (:mod:`extractors.train.splits`; never read here) except ``Generic``, labels mapped by
  :data:`extractors.train.scierc.SCIERC_TO_TYPE`; texts parsed by the extraction pipeline's own
  ``nlp`` (same tokens, tags, lemmas and in-domain vectors as at extraction).
* Features: :func:`extractors.entity_types.span_features` (kept when seen at least twice) and
  :func:`extractors.entity_types.dense_features`. The recognizer's type is *not* a feature: on
  train spans it is overfit (the recognizer learned those very spans), so it is combined at
  prediction instead (see the threshold below).
* Model: multinomial ``LogisticRegression`` (lbfgs). ``C`` is chosen by 5-fold cross-validation
  over those documents, from a small grid.
* ``--threshold``: the classifier overrides the recognizer's type only with probability at least
  this: 0.5, as chosen on SciERC dev when this classifier was trained on train alone (``--sweep``
  prints the figures of the whole extractor on ``--dev`` for several values; now that dev is
  pooled into training, a sweep there measures nothing held out, and the value was not re-tuned).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

MODEL_DIR = Path(__file__).resolve().parent.parent / "models" / "entity_types"
SHARED_DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
C_GRID = (0.1, 0.3, 1.0, 3.0)
FOLDS = 5
MIN_COUNT = 2
THRESHOLD = 0.5


def _examples(nlp: Any, docs: list[Any]) -> tuple[list[list[str]], np.ndarray, list[str], list[int]]:
    """Sparse features, dense features, labels and document index of every typed gold span."""
    from extractors.entity_types import dense_features, doc_features, token_bounds
    from extractors.train.scierc import SCIERC_TO_TYPE

    sparse: list[list[str]] = []
    dense: list[np.ndarray] = []
    labels: list[str] = []
    groups: list[int] = []
    for i, (sdoc, doc) in enumerate(
        zip(docs, nlp.pipe([d.text for d in docs], batch_size=16, disable=["scierc_ner"]), strict=True)
    ):
        spans = [s for s in sdoc.spans if s.label in SCIERC_TO_TYPE]
        bounds = token_bounds(doc, [(s.start, s.end) for s in spans])
        sparse += doc_features(doc, bounds)
        dense.append(dense_features(doc, bounds))
        labels += [SCIERC_TO_TYPE[s.label] for s in spans]
        groups += [i] * len(spans)
    return sparse, np.vstack(dense), labels, groups


def _matrix(sparse: list[list[str]], dense: np.ndarray, index: dict[str, int]) -> Any:
    from scipy.sparse import csr_matrix, hstack

    rows, cols = [], []
    for r, feats in enumerate(sparse):
        for f in feats:
            if f in index:
                rows.append(r)
                cols.append(index[f])
    x = csr_matrix((np.ones(len(rows), np.float32), (rows, cols)), shape=(len(sparse), len(index)))
    return hstack([x, csr_matrix(dense)], format="csr")


def _fit(x: Any, y: list[str], c: float) -> Any:
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=c, solver="lbfgs", max_iter=3000, tol=1e-5).fit(x, y)


def _vocab(sparse: list[list[str]]) -> list[str]:
    counts = Counter(f for feats in sparse for f in set(feats))
    return sorted(f for f, n in counts.items() if n >= MIN_COUNT)


def _cv_accuracy(
    sparse: list[list[str]], dense: np.ndarray, y: list[str], groups: list[int], c: float
) -> float:
    """Accuracy of 5-fold cross-validation over documents (document ``i`` is in fold ``i % 5``)."""
    correct = 0
    for fold in range(FOLDS):
        tr = [i for i, g in enumerate(groups) if g % FOLDS != fold]
        te = [i for i, g in enumerate(groups) if g % FOLDS == fold]
        feats = _vocab([sparse[i] for i in tr])
        index = {f: j for j, f in enumerate(feats)}
        model = _fit(_matrix([sparse[i] for i in tr], dense[tr], index), [y[i] for i in tr], c)
        pred = model.predict(_matrix([sparse[i] for i in te], dense[te], index))
        correct += int(sum(p == y[i] for p, i in zip(pred, te, strict=True)))
    return correct / len(y)


def _write(out: Path, model: Any, feats: list[str], threshold: float, info: dict[str, Any]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    coef = model.coef_.T.astype(np.float32)  # (features + dense) × classes
    n = len(feats)
    sparse = np.vstack([coef[:n], np.zeros((1, coef.shape[1]), np.float32)])
    np.savez_compressed(
        out / "weights.npz", sparse=sparse, dense=coef[n:], bias=model.intercept_.astype(np.float32)
    )
    meta = {
        "classes": [str(c) for c in model.classes_],
        "threshold": threshold,
        **info,
        "note": "trained on the gold spans of SciERC train+dev minus the frozen fold; C by 5-fold CV "
        "on those documents; the threshold as chosen before on dev. "
        "Rebuild: python -m extractors.train.entity_types",
        "features": feats,
    }
    (out / "meta.json").write_text(json.dumps(meta, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")


def _sweep(nlp_name: str, nlp: Any, out: Path, dev: Path, thresholds: list[float]) -> None:
    from dataclasses import replace

    from extractors.entities import EntityExtractor
    from extractors.entity_types import load_classifier
    from kg.evaluate.entities import evaluate_scierc
    from kg.pipeline import Pipeline

    base = load_classifier(out)
    for t in thresholds:
        extractor = EntityExtractor(classifier=replace(base, threshold=min(t, 1.0)), retype=t <= 1)
        scores = evaluate_scierc(dev, pipeline=Pipeline(nlp, nlp_name, ["entities"], [extractor]))
        s, r = scores.strict.scores(), scores.relaxed.scores()
        print(f"threshold {t:.2f}: dev strict F1 {s['f1']:.3f}, relaxed F1 {r['f1']:.3f}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--train", type=Path, default=SHARED_DATA / "scierc" / "train.json")
    parser.add_argument("--dev", type=Path, default=SHARED_DATA / "scierc" / "dev.json")
    parser.add_argument("--out", type=Path, default=MODEL_DIR)
    parser.add_argument("--threshold", type=float, default=THRESHOLD)
    parser.add_argument("--c", type=float, default=None, help="skip the CV and use this C")
    parser.add_argument(
        "--sweep",
        type=float,
        nargs="*",
        default=None,
        help="print dev figures at these thresholds (above 1: the recognizer's types alone)",
    )
    args = parser.parse_args(argv)

    from extractors.entities import add_components
    from kg.nlp import load_nlp

    t0 = time.time()
    nlp, nlp_name = load_nlp(None)
    add_components(nlp)  # the extraction pipeline's nlp: the recognizer and its vectors added
    from extractors.train.scierc_ner import pooled_docs

    pool, _frozen = pooled_docs(args.train, args.dev)  # the frozen fold is never read
    sparse, dense, y, groups = _examples(nlp, pool)
    print(f"{len(y)} gold spans from {max(groups) + 1} docs: {dict(Counter(y))}", file=sys.stderr)
    cv: dict[str, float] = {}
    if args.c is None:
        for c in C_GRID:
            cv[str(c)] = round(_cv_accuracy(sparse, dense, y, groups, c), 4)
            print(f"C={c}: 5-fold CV accuracy on train gold spans {cv[str(c)]:.4f}", file=sys.stderr)
        c_best = max(C_GRID, key=lambda c: (cv[str(c)], -c))
    else:
        c_best = args.c
    feats = _vocab(sparse)
    model = _fit(_matrix(sparse, dense, {f: j for j, f in enumerate(feats)}), y, c_best)
    info = {"C": c_best, "cv_accuracy": cv, "train_spans": len(y), "min_count": MIN_COUNT}
    _write(args.out, model, feats, args.threshold, info)
    print(f"C={c_best}, {len(feats)} features -> {args.out} ({time.time() - t0:.0f} s)", file=sys.stderr)
    if args.sweep is not None:
        _sweep(nlp_name, nlp, args.out, args.dev, args.sweep or [0.5, 0.6, 0.7, 0.8, 0.9, 2.0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
