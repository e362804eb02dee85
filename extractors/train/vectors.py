"""Build the small in-domain static word vectors the SciERC recognizer reads.

word2vec (gensim, CBOW, one thread, fixed seed and a deterministic hash) over the abstracts of the
shared ML corpus (``ml-abstracts.jsonl``) and the text of SciERC ``train.json`` — never dev — tokenized
by the base pipeline's tokenizer after :func:`kg.text.normalize` (so math is the ``MATH`` token, as at
extraction time). Words are learned lowercased; every case form seen in the corpus (``ImageNet``,
``CRF``) is added as a key to the same row, because spaCy's static-vector layer looks tokens up by
their exact text.

Run by :mod:`extractors.train.scierc_ner` when ``--vectors`` is missing, or on its own::

    .venv/bin/python -m extractors.train.vectors --corpus ../shared/data/ml-abstracts.jsonl \\
        --train ../shared/data/scierc/train.json --out extractors/models/scierc_ner/vectors
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from collections import Counter
from pathlib import Path

SEED = 0


def _stable_hash(text: str) -> int:
    # gensim seeds each word's initial vector with hash(word + seed); Python's str hash changes
    # per process, which made two builds differ. crc32 does not.
    return zlib.crc32(text.encode("utf-8"))


def corpus_texts(corpus: Path, train: Path | None) -> list[str]:
    """The abstracts of a JSONL corpus (``abstract`` field) plus the SciERC train texts."""
    from extractors.train.scierc import read_scierc

    texts: list[str] = []
    with corpus.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                abstract = json.loads(line).get("abstract") or ""
                if abstract:
                    texts.append(abstract)
    if train is not None:
        texts.extend(d.text for d in read_scierc(train))
    return texts


def build_vectors(
    texts: list[str],
    out: Path,
    *,
    dim: int = 100,
    max_words: int = 30000,
    min_count: int = 5,
    epochs: int = 8,
    skipgram: bool = False,
) -> dict[str, int]:
    """Train word2vec on ``texts`` and write a spaCy ``Vectors`` table to ``out``.

    Returns:
        Counts: ``words`` (rows) and ``keys`` (case forms pointing at them).
    """
    import numpy
    import spacy
    from gensim.models import Word2Vec
    from spacy.vectors import Vectors

    from kg.errors import KGError
    from kg.text import normalize

    tokenizer = spacy.blank("en").tokenizer
    sentences: list[list[str]] = []
    forms: Counter[str] = Counter()
    for text in texts:
        try:
            norm = normalize(text).text
        except KGError:  # unbalanced math in a corpus abstract: skip it, it is only unlabeled text
            continue
        words = [t.text for t in tokenizer(norm) if not t.is_space]
        forms.update(words)
        sentences.append([w.lower() for w in words])
    model = Word2Vec(
        sentences=sentences,
        vector_size=dim,
        window=5,
        min_count=min_count,
        sg=int(skipgram),
        negative=5,
        workers=1,
        seed=SEED,
        epochs=epochs,
        hashfxn=_stable_hash,
        max_final_vocab=max_words,
    )
    words = list(model.wv.index_to_key)[:max_words]
    data = numpy.asarray([model.wv[w] for w in words], dtype="float32")
    vectors = Vectors(data=data, keys=None, name="kg_ml_abstracts_w2v")
    strings = spacy.blank("en").vocab.strings
    row_of = {w: i for i, w in enumerate(words)}
    n_keys = 0
    keyed: set[str] = set()
    # Every case form seen at least twice, then the lowercase word itself; first key wins a row.
    for form, count in sorted(forms.items(), key=lambda kv: (-kv[1], kv[0])):
        row = row_of.get(form.lower())
        if row is None or form in keyed or (count < 2 and form != form.lower()):
            continue
        vectors.add(strings.add(form), row=row)
        keyed.add(form)
        n_keys += 1
    for word, row in row_of.items():
        for form in (word, word.capitalize(), word.upper()):
            if form not in keyed:
                vectors.add(strings.add(form), row=row)
                keyed.add(form)
                n_keys += 1
    out.mkdir(parents=True, exist_ok=True)
    vectors.to_disk(out)
    return {"words": len(words), "keys": n_keys, "dim": dim, "sentences": len(sentences)}


def main(argv: list[str] | None = None) -> int:
    """Command line: build the vectors table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", required=True, type=Path)
    ap.add_argument("--train", type=Path, default=None)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--dim", type=int, default=100)
    ap.add_argument("--max-words", type=int, default=30000)
    ap.add_argument("--min-count", type=int, default=5)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--skipgram", action="store_true")
    args = ap.parse_args(argv)
    t0 = time.time()
    stats = build_vectors(
        corpus_texts(args.corpus, args.train),
        args.out,
        dim=args.dim,
        max_words=args.max_words,
        min_count=args.min_count,
        epochs=args.epochs,
        skipgram=args.skipgram,
    )
    print(f"vectors: {stats} in {time.time() - t0:.0f}s -> {args.out}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
