"""The baseline ``kg build`` is compared with: the spaCy pipeline kg loads, ``nlp.pipe`` only.

    .venv/bin/python bench/baseline_parse.py CORPUS.jsonl [--workers 2]

Same texts as the build (read and normalized the way kg reads them, before the clock's parse
part matters), same pipeline (``kg.pipeline.load_pipeline``'s ``nlp``: the same package, the
same excluded components and those the extractors add), same process count (forked workers,
each running ``nlp.pipe`` over its share and discarding the docs). Prints ``{"docs": N}``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kg.ingest import read_papers  # noqa: E402
from kg.pipeline import CHUNK, load_pipeline  # noqa: E402
from kg.text import normalize  # noqa: E402

_NLP = None


def _parse(texts: list[str]) -> int:
    assert _NLP is not None
    return sum(1 for _ in _NLP.pipe(texts, batch_size=CHUNK))


def main() -> int:
    global _NLP
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    texts = [normalize(p.abstract).text for p in read_papers([args.corpus])]
    _NLP = load_pipeline().nlp
    chunks = [texts[i : i + CHUNK] for i in range(0, len(texts), CHUNK)]
    if args.workers <= 1:
        docs = sum(_parse(c) for c in chunks)
    else:
        ctx = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=args.workers, mp_context=ctx) as pool:
            docs = sum(pool.map(_parse, chunks))
    print(json.dumps({"docs": docs}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
