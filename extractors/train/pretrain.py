"""Pretrain the entity recognizer's tok2vec on the unlabeled ML abstracts (spaCy's characters objective).

The recognizer (:mod:`extractors.train.scierc_ner`) learns from a few hundred labelled abstracts; its
CNN tok2vec can first learn from the 22k unlabeled ones what a word looks like in this domain. This is
``spacy pretrain`` with the ``spacy.PretrainCharacters.v1`` objective (predict each word's first and
last four characters from its context vector), run here as a small loop over spaCy's own pretraining
model and update so that the documents carry the base pipeline's ``TAG`` and ``DEP`` — two of the
recognizer's hashed features, which ``spacy pretrain``'s raw-text reader would leave empty.

The abstracts are normalized as at extraction time (:func:`kg.text.normalize`: math is one ``MATH``
token), tagged and parsed once by the base pipeline (cached as a ``DocBin`` next to the output), and
shuffled with a fixed seed each epoch; one thread. The weights of each epoch are written as
``model{N}.bin`` (the tok2vec's ``to_bytes``), which :mod:`extractors.train.scierc_ner` reads with
``--init-tok2vec``. They are a training input, not shipped: the trained recognizer carries them.

    OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python -m extractors.train.pretrain --out /tmp/kg-pretrain

(defaults: ``../shared/data/ml-abstracts.jsonl``, the shipped vectors, the recognizer's architecture
from :func:`extractors.train.scierc_ner.model_config`).
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

from extractors.train.scierc_ner import BASE_PIPELINE, COMPONENT, MODEL_DIR, SEED, SHARED_DATA, model_config


def _corpus_texts(corpus: Path, limit: int) -> list[str]:
    from kg.errors import KGError
    from kg.text import normalize

    texts = []
    with corpus.open(encoding="utf-8") as fh:
        for line in fh:
            abstract = json.loads(line).get("abstract") if line.strip() else None
            if not abstract:
                continue
            try:
                texts.append(normalize(abstract).text)
            except KGError:  # unbalanced math: it is only unlabeled text, skip it
                continue
            if limit and len(texts) >= limit:
                break
    return texts


def main(argv: list[str] | None = None) -> int:
    """Parse the corpus once, then pretrain and write one weights file per epoch."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=SHARED_DATA / "ml-abstracts.jsonl")
    ap.add_argument("--vectors", type=Path, default=MODEL_DIR / "vectors")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--limit", type=int, default=0, help="first N abstracts only (0: all)")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--width", type=int, default=96)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--batch-words", type=int, default=3000)
    args = ap.parse_args(argv)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")

    import spacy
    from spacy.tokens import DocBin
    from spacy.training.pretrain import make_update
    from spacy.util import registry
    from spacy.vectors import Vectors
    from thinc.api import Adam, fix_random_seed, set_dropout_rate

    fix_random_seed(SEED)
    t0 = time.time()
    args.out.mkdir(parents=True, exist_ok=True)
    nlp = spacy.load(BASE_PIPELINE, exclude=["ner", "lemmatizer", "attribute_ruler", "senter"])
    nlp.vocab.vectors = Vectors().from_disk(args.vectors)
    cache = args.out / "docs.spacy"
    if cache.exists():
        docs = list(DocBin().from_disk(cache).get_docs(nlp.vocab))
    else:
        texts = _corpus_texts(args.corpus, args.limit)
        docs = list(nlp.pipe(texts, batch_size=32))
        DocBin(attrs=["ORTH", "TAG", "DEP", "HEAD"], docs=docs).to_disk(cache)
    print(
        f"{len(docs)} docs, {sum(len(d) for d in docs)} words parsed in {time.time() - t0:.0f}s", flush=True
    )

    ner: Any = nlp.add_pipe(
        "ner",
        name=COMPONENT,
        config={"model": model_config(args.width, args.depth), "update_with_oracle_cut_size": 1000},
    )
    # The parser model wraps the Tok2Vec (docs → one array per doc) in chain(tok2vec, list2array, Linear).
    tok2vec = ner.model.get_ref("tok2vec").layers[0]
    tok2vec.initialize(X=docs[:8])
    objective = registry.architectures.get("spacy.PretrainCharacters.v1")(
        maxout_pieces=3, hidden_size=300, n_characters=4
    )
    model = objective(nlp.vocab, tok2vec)
    model.initialize(X=docs[:8])
    set_dropout_rate(model, 0.2)
    optimizer = Adam(learn_rate=0.001, L2=0.01, L2_is_weight_decay=True, grad_clip=1.0, use_averages=True)
    loss_fn = model.attrs["loss"]
    rng = random.Random(SEED)
    order = list(range(len(docs)))
    for epoch in range(args.epochs):
        rng.shuffle(order)
        batch: list = []
        words = 0
        total = 0.0
        for i in order:
            batch.append(docs[i])
            words += len(docs[i])
            if words >= args.batch_words:
                total += make_update(model, batch, optimizer, loss_fn)
                batch, words = [], 0
        if batch:
            total += make_update(model, batch, optimizer, loss_fn)
        with model.use_params(optimizer.averages):
            (args.out / f"model{epoch}.bin").write_bytes(model.get_ref("tok2vec").to_bytes())
        print(f"epoch {epoch} loss {total:.1f} ({time.time() - t0:.0f}s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
