"""Each related-work signal against its cost: nDCG@5 with it switched off, on every judgment set.

    .venv/bin/python bench/ablate_related.py [--seeds SEEDS_BUILD] [--corpus CORPUS_BUILD] [--minilm]

For every judgment set in ``tests/data/`` whose graph is given (the two seed sets on a build of
``seeds/``; the 30 corpus queries the weights were tuned on and the 20 held out on a build of
``../shared/data/ml-abstracts.jsonl``) it prints nDCG@5 of the default ranking, of the ranking
with each signal's weight set to 0, and of the sentence encoder replaced by cheaper forms: the
static token table distilled from the same model (:mod:`kg.static_encoder`) and the model on the
first 128 tokens of each text. Then the CPU seconds each signal's part of the index costs on the
largest graph given. Not a test: it prints a table and asserts nothing. ``--signals-only`` prints
the short table: the default ranking, each signal off, the graph's own evidence alone (the text
signals and the entity words at 0) and the TF-IDF baseline of the same run.

``--minilm`` computes the full sentence encoder's vectors where no saved index holds them (on the
22k-paper corpus that is 2,189 CPU-seconds); without it the corpus rows of the full encoder are
left out unless ``CORPUS_BUILD/related-index.npz`` has them (``kg related --write-index``).
``--table FILE.npy`` (repeatable) adds a row for a token table fitted by
``tools/fit_static_encoder.py`` in the encoder's place.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from kg.encoder import DIMENSIONS, load_encoder, text_key  # noqa: E402
from kg.evaluate.related import evaluate_related, load_judgments  # noqa: E402
from kg.graphdir import load_nx  # noqa: E402
from kg.related import SIGNALS, RelatedWeights, lexical_matrix, saved_encoder_vectors  # noqa: E402
from kg.related.vectorizers import paper_texts  # noqa: E402
from kg.semantic import load_model as load_semantic_model  # noqa: E402
from kg.static_encoder import load_static_encoder, table_vectors  # noqa: E402

DATA = REPO / "tests" / "data"
SETS = {
    "seeds": [("seeds, first judge", "related_judgments.jsonl"),
              ("seeds, second judge", "related_judgments_seeds_second.jsonl")],
    "corpus": [("corpus, 30 tuned", "related_judgments_corpus.jsonl"),
               ("corpus, 20 held out", "related_judgments_corpus_test.jsonl")],
}
SHORT_TOKENS = 128


def texts_of(nx_graph) -> list[str]:  # noqa: ANN001 - networkx graph
    """The texts the index encodes, in its paper order (as kg.related reads them)."""
    return paper_texts(nx_graph)


def padded(vectors: np.ndarray) -> np.ndarray:
    """Vectors narrower than the encoder's, zero-padded to its width (cosines unchanged)."""
    out = np.zeros((len(vectors), DIMENSIONS), dtype=np.float32)
    out[:, : vectors.shape[1]] = vectors
    return out


def minilm_short(texts: list[str]) -> np.ndarray:
    encoder = load_encoder()
    encoder.tokenizer.enable_truncation(SHORT_TOKENS)
    try:
        return np.stack([encoder.encode(t) for t in texts])
    finally:
        encoder.tokenizer.enable_truncation(256)


def cpu(fn: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    """``fn(*args)`` and the CPU seconds it took."""
    started = time.process_time()
    out = fn(*args)
    return out, time.process_time() - started


def encode_full(texts: list[str], saved: dict[str, np.ndarray] | None = None) -> np.ndarray:
    return load_encoder().vectors(texts, saved)


def encode_each(texts: list[str]) -> np.ndarray:
    return np.stack([load_encoder().encode(t) for t in texts])


def encode_static(texts: list[str]) -> np.ndarray:
    return load_static_encoder().vectors(texts)


def encode_table(path: Path, texts: list[str]) -> np.ndarray:
    """A token table's vectors of ``texts`` (:func:`kg.static_encoder.table_vectors`), padded."""
    table = np.load(path, allow_pickle=False).astype(np.float32)
    return padded(table_vectors(load_static_encoder().tokenizer, table, texts))


def build_index(nx_graph: Any, weights: RelatedWeights, saved: dict[str, np.ndarray] | None) -> Any:
    """The related index under ``weights``, the encoder's vectors taken from ``saved``."""
    from kg.related import build_index as build

    load_encoder()._memo.clear()  # the encoder's own memo comes before the vectors given
    return build(nx_graph, weights, saved_vectors=saved)


def one_thread(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` with one BLAS thread, as kg's encoder runs (spare threads only spin on 2 cores)."""
    def run(*args: Any) -> Any:
        from threadpoolctl import threadpool_limits

        with threadpool_limits(1):
            return fn(*args)

    return run


def main() -> int:  # noqa: C901, PLR0915 - one table, built in order
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", help="a build directory of seeds/")
    ap.add_argument("--corpus", help="a build directory of the 22k-paper corpus")
    ap.add_argument("--minilm", action="store_true", help="encode with the full model where no index has it")
    ap.add_argument("--minilm-sample", type=int, default=300, help="texts timed for the full model's cost")
    ap.add_argument("--table", type=Path, action="append", default=[],
                    help="a token table (tools/fit_static_encoder.py) ranked in the encoder's place")
    ap.add_argument("--signals-only", action="store_true",
                    help="only the default, each signal off, the graph alone and TF-IDF: no cheaper "
                         "encoder forms, no timings (a loaded machine's quick table)")
    args = ap.parse_args()
    given = {"seeds": args.seeds, "corpus": args.corpus}
    graphs = {name: Path(directory) for name, directory in given.items() if directory}
    rows: dict[str, dict[str, float | None]] = {}
    costs: dict[str, float] = {}
    for name, directory in graphs.items():
        nx_graph = load_nx(directory)
        texts = texts_of(nx_graph)
        keys = [text_key(t) for t in texts]
        saved = saved_encoder_vectors(directory / "related-index.npz")
        have_minilm = all(k in saved for k in keys) or args.minilm or name == "seeds"
        forms: dict[str, dict[str, np.ndarray] | None] = {}
        if have_minilm:
            vectors, seconds = cpu(one_thread(encode_full), texts, saved)
            forms["minilm"] = dict(zip(keys, vectors, strict=True))
        judged = [(label, load_judgments(DATA / file)) for label, file in SETS[name]]
        default = RelatedWeights()
        if args.signals_only:
            # the graph's own evidence: the text signals and the entity words off (issue 27)
            graph_only = dataclasses.replace(default, lexical=0.0, semantic=0.0, encoder=0.0, terms=0.0)
            quick = [("graph only (lexical, semantic, encoder, terms 0)", graph_only, None)]
            if forms.get("minilm") is not None:
                quick.insert(0, ("default (full encoder)", default, forms["minilm"]))
                quick += [(f"{s} off", dataclasses.replace(default, **{s: 0.0}), forms["minilm"])
                          for s in SIGNALS if getattr(default, s) != 0]
            for table in args.table:
                vectors = dict(zip(keys, encode_table(table, texts), strict=True))
                quick.append((f"encoder: table {table.name}", default, vectors))
            for config, weights, vectors in quick:
                index, seconds = cpu(build_index, nx_graph, weights, vectors)
                for label, judgments in judged:
                    result = evaluate_related(nx_graph, judgments, weights, index=index)
                    rows.setdefault(label, {})[config] = float(result.systems[0].mean_ndcg)
                    rows[label]["TF-IDF baseline (same run)"] = float(result.systems[1].mean_ndcg)
                print(f"ablate: {name}: {config} ({seconds:.0f} CPU-s)", file=sys.stderr, flush=True)
            continue
        static, seconds = cpu(encode_static, texts)
        costs[f"{name}: static table, all {len(texts)} texts"] = seconds
        forms["static"] = dict(zip(keys, padded(static), strict=True))
        if name == "seeds" or args.minilm:
            short, seconds = cpu(one_thread(minilm_short), texts)
            forms["minilm-128"] = dict(zip(keys, short, strict=True))
        _m, seconds = cpu(lexical_matrix, texts)
        costs[f"{name}: lexical (TF-IDF of the texts)"] = seconds
        _m, seconds = cpu(lambda ts: load_semantic_model().vectors(ts), texts)
        costs[f"{name}: semantic (LSA of the texts)"] = seconds
        sample = texts[:: max(1, len(texts) // args.minilm_sample)][: args.minilm_sample]
        _v, seconds = cpu(one_thread(encode_each), sample)
        per_1000 = seconds / len(sample) * 1000
        costs[f"{name}: full encoder, per 1,000 texts (timed on {len(sample)})"] = per_1000
        _v, seconds = cpu(one_thread(minilm_short), sample)
        costs[f"{name}: encoder on {SHORT_TOKENS} tokens, per 1,000 texts"] = seconds / len(sample) * 1000
        configs: list[tuple[str, RelatedWeights, dict[str, np.ndarray] | None]] = []
        if forms.get("minilm") is not None:
            configs.append(("default (full encoder)", default, forms["minilm"]))
        configs.append(("encoder off", dataclasses.replace(default, encoder=0.0), None))
        configs.append(("encoder: static table", default, forms["static"]))
        for table in args.table:
            vectors = dict(zip(keys, encode_table(table, texts), strict=True))
            configs.append((f"encoder: table {table.name}", default, vectors))
        if "minilm-128" in forms:
            configs.append((f"encoder: first {SHORT_TOKENS} tokens", default, forms["minilm-128"]))
        for vectors_name in ("full encoder", "static table"):
            vectors = forms.get("minilm" if vectors_name == "full encoder" else "static")
            if vectors is None:
                continue
            for signal in SIGNALS:
                if signal != "encoder" and getattr(default, signal) != 0:
                    configs.append((f"{signal} off ({vectors_name})",
                                    dataclasses.replace(default, **{signal: 0.0}), vectors))
        for config, weights, vectors in configs:
            # one index per ranking, scored on every judgment set of the graph
            index, seconds = cpu(build_index, nx_graph, weights, vectors)
            for label, judgments in judged:
                result = evaluate_related(nx_graph, judgments, weights, index=index)
                rows.setdefault(label, {})[config] = float(result.systems[0].mean_ndcg)
            costs[f"{name}: index with {config}"] = seconds
            print(f"ablate: {name}: {config} ({seconds:.0f} CPU-s)", file=sys.stderr, flush=True)
    names = list(dict.fromkeys(k for r in rows.values() for k in r))
    labels = list(rows)
    print("| ranking | " + " | ".join(labels) + " |")
    print("|---|" + "---|" * len(labels))
    for n in names:
        cells = [f"{rows[lab][n]:.3f}" if rows[lab].get(n) is not None else "–" for lab in labels]
        print(f"| {n} | " + " | ".join(cells) + " |")
    if costs:
        print()
        print("| cost | CPU seconds |")
        print("|---|---|")
        for what, seconds in costs.items():
            print(f"| {what} | {seconds:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
