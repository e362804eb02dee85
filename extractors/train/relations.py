"""Train the relation classifier of :mod:`extractors.relations` on SciERC gold entities and relations.

One command rebuilds the shipped weights (deterministic: lbfgs, no sampling; a few minutes)::

    OMP_NUM_THREADS=1 .venv/bin/python -m extractors.train.relations

(defaults: ``../shared/data/scierc/{train,dev}.json``, output ``extractors/models/relations/``).

* Documents: SciERC ``train.json`` + ``dev.json`` outside the frozen fold
  (:mod:`extractors.train.splits`; the frozen fold is never read here), as the entity models.
* Examples: every pair of gold entities (``Generic`` left out: the entity extractor never outputs
  it) in one sentence, at most :data:`extractors.relations.MAX_GAP` tokens apart; label ``NONE``
  or the gold relation type with its direction. Texts parsed by the base spaCy pipeline (the
  parse the extractor reads: tags, lemmas, dependencies).
* Model: multinomial ``LogisticRegression`` (lbfgs) over :func:`extractors.relations.pair_features`
  kept when seen in at least two pairs, and :func:`extractors.relations.pair_dense` (the word
  vectors the entity recognizer ships, loaded as at extraction).
* Selection: ``C`` and the probability threshold by 5-fold cross-validation over those documents
  (the folds of :func:`extractors.train.splits.fold_of`), maximizing micro Rel F1 (both argument
  spans exact, type right) with gold entities; then fitted on all of them.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from extractors.relations import GENERIC

MODEL_DIR = Path(__file__).resolve().parent.parent / "models" / "relations"
SHARED_DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
C_GRID = (0.03, 0.1, 0.3, 1.0)
THRESHOLDS = (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6)
MIN_COUNT = 2
GENERIC_C_GRID = (0.3, 1.0, 3.0)

# One example: (doc index, char span of the first entity, of the second, features, label, dense row)
Example = tuple[int, tuple[int, int], tuple[int, int], list[str], str, np.ndarray]


def gold_relations(sdoc: Any) -> set[tuple[int, int, int, int, str]]:
    """The gold relations of a SciERC document as ``(head start, head end, tail start, tail end, type)``."""
    return {(*r.head, *r.tail, r.label) for r in sdoc.relations}


def arg_types(sdoc: Any) -> list[tuple[Any, str]]:
    """The gold spans of ``sdoc`` that can be relation arguments, with the type kg gives them
    (``Generic`` for SciERC's generic references)."""
    from extractors.train.scierc import SCIERC_TO_ARG_TYPE

    return [(s, SCIERC_TO_ARG_TYPE[s.label]) for s in sdoc.spans if s.label in SCIERC_TO_ARG_TYPE]


def examples(docs: list[Any], parses: list[Any]) -> list[Example]:
    """Every classified pair of gold entities of ``docs`` (a generic reference pairs with an
    entity, never with another generic reference), with its label."""
    from extractors.entity_types import token_bounds
    from extractors.generic_refs import TokenArrays
    from extractors.relations import doc_vectors, pair_dense, pair_features, sentence_pairs

    out: list[Example] = []
    for n, (sdoc, doc) in enumerate(zip(docs, parses, strict=True)):
        gold = {(r.head, r.tail): r.label for r in sdoc.relations}
        spans = arg_types(sdoc)
        bounds = token_bounds(doc, [(s.start, s.end) for s, _t in spans])

        def sentence(pos: int, sdoc: Any = sdoc) -> int:
            return next((k for k, (a, b) in enumerate(sdoc.sentences) if a <= pos < b), -1)

        rows = sorted(
            (a, b, etype, sentence(s.start), (s.start, s.end))
            for (s, etype), (a, b) in zip(spans, bounds, strict=True)
            if b > a
        )
        keyed = [(a, b, t, sent) for a, b, t, sent, _c in rows]
        arrays = TokenArrays(doc)
        words, lemmas, deps, heads = arrays.words, arrays.lemmas, arrays.deps, arrays.heads
        width = doc.vocab.vectors.shape[1] if doc.vocab.vectors.shape[0] else 0
        tok = doc_vectors(doc, width)
        for i, j, between in sentence_pairs(keyed):
            if keyed[i][2] == GENERIC and keyed[j][2] == GENERIC:
                continue
            first, second = rows[i][4], rows[j][4]
            if (first, second) in gold:
                label = gold[(first, second)] + ">"
            elif (second, first) in gold:
                label = gold[(second, first)] + "<"
            else:
                label = "NONE"
            pair = (*keyed[i][:3], *keyed[j][:3])
            feats = pair_features(words, lemmas, deps, heads, pair, between)  # type: ignore[arg-type]
            out.append((n, first, second, feats, label, pair_dense(tok, heads, pair)))  # type: ignore[arg-type]
    return out


def generic_examples(docs: list[Any], parses: list[Any]) -> list[tuple[int, list[str], bool]]:
    """Every generic-reference candidate of ``docs`` (:func:`extractors.generic_refs.candidates`,
    outside the gold entities): ``(doc index, features, is a gold Generic span)``."""
    from extractors.generic_refs import TokenArrays, candidates, token_features

    out = []
    for n, (sdoc, doc) in enumerate(zip(docs, parses, strict=True)):
        generic = {(s.start, s.end) for s, t in arg_types(sdoc) if t == GENERIC}
        covered = [False] * len(doc)
        for s, t in arg_types(sdoc):
            if t == GENERIC:
                continue
            span = doc.char_span(s.start, s.end, alignment_mode="expand")
            for k in range(span.start, span.end) if span is not None else ():
                covered[k] = True
        arrays = TokenArrays(doc)
        for i in candidates(arrays, covered):
            t = doc[i]
            out.append((n, token_features(arrays, i), (t.idx, t.idx + len(t)) in generic))
    return out


def generic_cv(
    docs: list[Any], rows: list[tuple[int, list[str], bool]], c: float
) -> dict[float, tuple[float, float, float]]:
    """Generic-reference P/R/F1 per threshold over the 5 folds (gold: every single-token gold
    Generic span outside the gold entities; the others count as missed)."""
    from extractors.train.splits import FOLDS, fold_of

    folds = [fold_of(d.key) for d in docs]
    gold = sum(1 for d in docs for s in d.spans if s.label == "Generic")
    found = {t: [0, 0] for t in THRESHOLDS}
    for fold in range(FOLDS):
        tr = [r for r in rows if folds[r[0]] != fold]
        te = [r for r in rows if folds[r[0]] == fold]
        index = {f: j for j, f in enumerate(_vocab_of([r[1] for r in tr]))}
        model = _fit(_sparse([r[1] for r in tr], index), [r[2] for r in tr], c)
        probs = model.predict_proba(_sparse([r[1] for r in te], index))[:, 1]
        for t in THRESHOLDS:
            for r, p in zip(te, probs, strict=True):
                if p >= t:
                    found[t][0] += 1
                    found[t][1] += int(r[2])
    out = {}
    for t, (pred, ok) in found.items():
        prec, rec = (ok / pred if pred else 0.0), ok / gold
        out[t] = (prec, rec, 2 * prec * rec / (prec + rec) if prec + rec else 0.0)
    return out


def _vocab_of(feature_lists: list[list[str]]) -> list[str]:
    counts = Counter(f for feats in feature_lists for f in set(feats))
    return sorted(f for f, k in counts.items() if k >= MIN_COUNT)


def _vocab(rows: list[Example]) -> list[str]:
    return _vocab_of([row[3] for row in rows])


def _sparse(feature_lists: list[list[str]], index: dict[str, int]) -> Any:
    """The 0/1 matrix of ``feature_lists`` over ``index``."""
    from scipy.sparse import csr_matrix

    r, c = [], []
    for k, feats in enumerate(feature_lists):
        for f in set(feats):
            if f in index:
                r.append(k)
                c.append(index[f])
    return csr_matrix((np.ones(len(r), np.float32), (r, c)), shape=(len(feature_lists), len(index)))


def _matrix(rows: list[Example], index: dict[str, int]) -> Any:
    """The sparse 0/1 features, then the dense columns, of ``rows``."""
    from scipy.sparse import csr_matrix, hstack

    x = _sparse([row[3] for row in rows], index)
    if not rows or not rows[0][5].shape[0]:
        return x
    return hstack([x, csr_matrix(np.vstack([row[5] for row in rows]))], format="csr")


def _fit(x: Any, y: list[Any], c: float) -> Any:
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=c, solver="lbfgs", max_iter=3000, tol=1e-5).fit(x, y)


def predicted(rows: list[Example], probs: np.ndarray, classes: list[str], threshold: float) -> set[tuple]:
    """The relations ``(doc, head start, head end, tail start, tail end, type)`` predicted at
    ``threshold``."""
    rel = [k for k, c in enumerate(classes) if c != "NONE"]
    out = set()
    for row, p in zip(rows, probs, strict=True):
        k = max(rel, key=lambda c: p[c])
        if p[k] < threshold:
            continue
        name = classes[k]
        head, tail = (row[1], row[2]) if name.endswith(">") else (row[2], row[1])
        out.add((row[0], *head, *tail, name[:-1]))
    return out


def _f1(pred: set[tuple], gold: set[tuple]) -> tuple[float, float, float]:
    ok = len(pred & gold)
    p = ok / len(pred) if pred else 0.0
    r = ok / len(gold) if gold else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def cross_validate(docs: list[Any], rows: list[Example], c: float) -> dict[float, tuple[float, float, float]]:
    """Micro Rel P/R/F1 per threshold over the 5 folds (gold: every relation between two gold
    argument spans of the held-out documents, generic references included)."""
    from extractors.train.splits import FOLDS, fold_of

    typed = [{(s.start, s.end) for s, _t in arg_types(d)} for d in docs]
    gold = {
        (n, *g)
        for n, d in enumerate(docs)
        for g in gold_relations(d)
        if (g[0], g[1]) in typed[n] and (g[2], g[3]) in typed[n]
    }
    folds = [fold_of(d.key) for d in docs]
    preds: dict[float, set[tuple]] = {t: set() for t in THRESHOLDS}
    for fold in range(FOLDS):
        tr = [r for r in rows if folds[r[0]] != fold]
        te = [r for r in rows if folds[r[0]] == fold]
        index = {f: j for j, f in enumerate(_vocab(tr))}
        model = _fit(_matrix(tr, index), [r[4] for r in tr], c)
        probs = model.predict_proba(_matrix(te, index))
        for t in THRESHOLDS:
            preds[t] |= predicted(te, probs, [str(x) for x in model.classes_], t)
    return {t: _f1(preds[t], gold) for t in THRESHOLDS}


def select(
    grid: Sequence[float], scores_of: Callable[[float], dict[float, tuple[float, float, float]]], name: str
) -> tuple[float, float, dict[str, dict[str, list[float]]]]:
    """The ``C`` of ``grid`` and the threshold with the best cross-validated F1 (ties: the smaller
    ``C``, then the smaller threshold), and every figure, for ``meta.json``."""
    best = (-1.0, 0.0, 0.0)
    cv: dict[str, dict[str, list[float]]] = {}
    for c in grid:
        scores = scores_of(c)
        cv[str(c)] = {str(t): [round(x, 4) for x in prf] for t, prf in scores.items()}
        for t, (p, r, f) in scores.items():
            print(f"{name} C={c} threshold={t}: CV P {p:.3f} R {r:.3f} F1 {f:.3f}", file=sys.stderr)
            best = max(best, (round(f, 4), -c, -t))
    return -best[1], -best[2], cv


def _write_model(out: Path, arrays: dict[str, Any], meta: dict[str, Any]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out / "weights.npz", **arrays)
    (out / "meta.json").write_text(json.dumps(meta, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")


def write(out: Path, model: Any, feats: list[str], threshold: float, info: dict[str, Any]) -> None:
    coef = model.coef_.T.astype(np.float32)
    n = len(feats)
    weights = np.vstack([coef[:n], np.zeros((1, coef.shape[1]), np.float32)])
    arrays = {"weights": weights, "dense": coef[n:], "bias": model.intercept_.astype(np.float32)}
    meta = {
        "classes": [str(c) for c in model.classes_],
        "threshold": threshold,
        "vector_width": (coef.shape[0] - n) // 3,
        **info,
        "note": "trained on the gold entities and relations of SciERC train+dev minus the frozen fold; "
        "C and threshold by 5-fold CV on those documents (Rel F1, gold entities). "
        "Rebuild: python -m extractors.train.relations",
        "features": feats,
    }
    _write_model(out, arrays, meta)


def write_generic(out: Path, model: Any, feats: list[str], threshold: float, info: dict[str, Any]) -> None:
    """The generic-reference classifier: ``weights`` (features + 1 spare row), ``bias``."""
    coef = model.coef_[0].astype(np.float32)
    weights = np.concatenate([coef, np.zeros(1, np.float32)])
    arrays = {"weights": weights, "bias": model.intercept_.astype(np.float32)}
    meta = {
        "threshold": threshold,
        **info,
        "note": "generic references (SciERC Generic spans of one token) among the candidates of "
        "extractors.generic_refs, in SciERC train+dev minus the frozen fold; C and threshold by "
        "5-fold CV on those documents (F1 of the spans). Rebuild: python -m extractors.train.relations",
        "features": feats,
    }
    _write_model(out, arrays, meta)


def train_generic(pool: list[Any], parses: list[Any], out: Path) -> None:
    """Cross-validate, fit and write the generic-reference classifier."""
    rows = generic_examples(pool, parses)
    c_best, threshold, cv = select(GENERIC_C_GRID, lambda c: generic_cv(pool, rows, c), "generic")
    feats = _vocab_of([r[1] for r in rows])
    model = _fit(
        _sparse([r[1] for r in rows], {f: j for j, f in enumerate(feats)}), [r[2] for r in rows], c_best
    )
    write_generic(out, model, feats, threshold, {"C": c_best, "cv": cv, "candidates": len(rows)})
    print(f"generic: C={c_best}, threshold {threshold}, {len(feats)} features -> {out}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--train", type=Path, default=SHARED_DATA / "scierc" / "train.json")
    ap.add_argument("--dev", type=Path, default=SHARED_DATA / "scierc" / "dev.json")
    ap.add_argument("--out", type=Path, default=MODEL_DIR)
    ap.add_argument("--c", type=float, default=None, help="skip the CV: this C")
    ap.add_argument("--threshold", type=float, default=None, help="with --c: this threshold")
    args = ap.parse_args(argv)

    from extractors.entities import add_components
    from extractors.train.scierc_ner import pooled_docs
    from kg.nlp import load_nlp

    t0 = time.time()
    nlp, _name = load_nlp(None)
    add_components(nlp)  # the extraction pipeline's nlp: the recognizer's in-domain word vectors
    pool, _frozen = pooled_docs(args.train, args.dev)  # the frozen fold is never read
    disable = [p for p in ("ner", "scierc_ner") if p in nlp.pipe_names]
    parses = list(nlp.pipe([d.text for d in pool], batch_size=16, disable=disable))
    train_generic(pool, parses, args.out / "generic")
    rows = examples(pool, parses)
    print(
        f"{len(rows)} pairs from {len(pool)} docs: {dict(Counter(r[4] for r in rows))} "
        f"({time.time() - t0:.0f} s)",
        file=sys.stderr,
    )
    cv: dict[str, dict[str, list[float]]] = {}
    if args.c is None:
        c_best, threshold, cv = select(C_GRID, lambda c: cross_validate(pool, rows, c), "Rel")
    else:
        c_best, threshold = args.c, args.threshold if args.threshold is not None else 0.4
    feats = _vocab(rows)
    model = _fit(_matrix(rows, {f: j for j, f in enumerate(feats)}), [r[4] for r in rows], c_best)
    info = {"C": c_best, "cv_rel": cv, "train_pairs": len(rows), "min_count": MIN_COUNT}
    write(args.out, model, feats, threshold, info)
    print(
        f"C={c_best}, threshold {threshold}, {len(feats)} features -> {args.out} ({time.time() - t0:.0f} s)",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
