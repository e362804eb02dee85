"""Rebuild kg/concepts/data/concept_df.tsv.gz: the document frequency of every phrase of the
reference corpus, the statistics that say how specific a concept is (kg/concepts/stats.py).

    nice python tools/build_concept_df.py /work/shared/data/ml-abstracts.jsonl

A fast, deterministic phrase pass, not a parse (spaCy's noun chunks over 22k abstracts take tens of
minutes on two cores; this takes about a minute): each title and abstract is lowercased, its LaTeX
math removed, cut into runs of words at punctuation and at stop words (spaCy's English list, "of"
allowed inside a phrase: "mixture of experts"), and every 1- to 4-word n-gram of a run, each word
singular as concepts are (kg/concepts/terms.py), counts once per document. Phrases in fewer than
``--min-df`` documents are dropped, and at most ``--top`` are kept (the most frequent), so the file
stays a few MB. Line 1 is ``#documents<TAB>N``; then ``phrase<TAB>df`` sorted by phrase.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spacy.lang.en.stop_words import STOP_WORDS  # noqa: E402

from kg.concepts.terms import DATA_DIR, singular  # noqa: E402

_MATH = re.compile(r"\$[^$]*\$|\\\(.*?\\\)|\\\[.*?\\\]")
_CLAUSE = re.compile(r"[.,;:!?()\[\]{}\"“”=<>+*/|]+|\s-\s")
_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
INSIDE = frozenset({"of"})
STOP = frozenset(w.lower() for w in STOP_WORDS) | {"et", "al", "eg", "ie", "wa"}


def phrases(text: str, max_n: int = 4) -> set[str]:
    """The distinct 1- to ``max_n``-word phrases of ``text`` (module docstring)."""
    out: set[str] = set()
    for clause in _CLAUSE.split(_MATH.sub(" . ", text.lower())):
        run: list[str] = []
        for token in [*_TOKEN.findall(clause), "."]:
            if token in STOP and not (token in INSIDE and run):
                _add_ngrams(run, max_n, out)
                run = []
                continue
            if token == ".":
                _add_ngrams(run, max_n, out)
                run = []
                continue
            run.append(singular(token))
    return out


def _add_ngrams(run: list[str], max_n: int, out: set[str]) -> None:
    while run and run[-1] in INSIDE:
        run.pop()
    for i in range(len(run)):
        if run[i] in INSIDE:
            continue
        for n in range(1, max_n + 1):
            if i + n > len(run):
                break
            if run[i + n - 1] not in INSIDE:
                out.add(" ".join(run[i : i + n]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="JSONL with title and abstract fields")
    parser.add_argument("-o", "--output", type=Path, default=DATA_DIR / "concept_df.tsv.gz")
    parser.add_argument("--min-df", type=int, default=3)
    parser.add_argument("--top", type=int, default=400_000)
    args = parser.parse_args(argv)
    df: Counter[str] = Counter()
    n_docs = 0
    with args.corpus.open(encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            record = json.loads(line)
            text = f"{record.get('title') or ''}. {record.get('abstract') or ''}"
            df.update(phrases(text))
            n_docs += 1
    kept = [(p, c) for p, c in df.items() if c >= args.min_df]
    kept.sort(key=lambda pc: (-pc[1], pc[0]))
    kept = sorted(kept[: args.top])
    body = "".join(f"{p}\t{c}\n" for p, c in kept)
    # mtime 0: the same corpus gives the same bytes
    with open(args.output, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as gz:
        gz.write(f"#documents\t{n_docs}\n{body}".encode())
    print(f"{args.output}: {len(kept)} phrases of {len(df)} from {n_docs} documents", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
