"""The next batch of abstracts for the bounds gold, in the blind order the gold was drawn in.

    .venv/bin/python tools/bounds_batch.py FIRST LAST [--corpus PATH] [-o OUT.jsonl]

Writes records FIRST..LAST (1-based, inclusive) of the blind order as JSONL, verbatim from the
corpus (default: ``../shared/data/ml-abstracts.jsonl``), to OUT (default: stdout). The order is
the one ``kg.evaluate.bounds`` documents, blind to the extractor: venue COLT, ALT, AISTATS or
UAI; the abstract holds ``$`` and one of the bound markers below, and kg can read it (a record
whose math never closes, a truncated abstract, is one ``kg`` refuses as bad input); sorted by
``sha256(id)``. A new
batch is annotated by hand BEFORE the extractor is run on it, then scored once: that is what
makes it an estimate on unseen text. ``tests/unit/test_bounds_gold_order.py`` checks that the
shipped gold papers are the first records of this order. On the 22,654-abstract corpus the theory
venues give 879 records, and the gold holds all of them since batch S; the order then goes on with
the abstracts of every other venue that pass the same filter, in the same hash order (880
onwards: NeurIPS, ICML, ICLR and the rest), 1,346 records in all, which the gold holds since batch
AC. The order ends with the abstracts, of any venue, that write their bounds without TeX math
("O(n^3) complexity", "Õ(√T) regret": :func:`plain_bounded`), from record 1,347 on.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO.parent / "shared" / "data" / "ml-abstracts.jsonl"
VENUES = ("COLT", "ALT", "AISTATS", "UAI")
MARKERS = ("O(", "\\Omega", "\\Theta", "\\tilde", "\\widetilde", "\\mathcal{O}", "\\le", "\\ge", "\\sim")


def eligible(record: dict[str, object]) -> bool:
    """Whether a corpus record is a theory abstract the bounds gold draws from first."""
    return record.get("venue") in VENUES and bounded(record)


def bounded(record: dict[str, object]) -> bool:
    """Whether a record's abstract has math with a bound marker that kg reads, at any venue."""
    abstract = record.get("abstract") or ""
    return (isinstance(abstract, str) and "$" in abstract
            and any(marker in abstract for marker in MARKERS) and _readable(abstract))


# Bounds written without TeX math: Unicode (Õ, Ω, Θ, ≤, ≥, √) or a plain "O(" before a term.
PLAIN_MARKER = re.compile(r"[ÕΩΘ≤≥√]|\bO\(\s*[A-Za-z0-9√(\\]")


def plain_bounded(record: dict[str, object]) -> bool:
    """Whether a record's abstract has no TeX math but a Unicode or plain-text bound marker
    ("O(n^3) complexity", "Õ(√T) regret"), at any venue: the order's last part."""
    abstract = record.get("abstract") or ""
    return (isinstance(abstract, str) and "$" not in abstract
            and PLAIN_MARKER.search(abstract) is not None and _readable(abstract))


def _readable(abstract: str) -> bool:
    """Whether the abstract's math spans all close (``kg.text.find_math`` reading strictly): kg
    refused the others when the order was drawn, and the order stays the one the gold was
    written in now that kg reads a ``$`` that opens no math as text."""
    from kg.errors import KGError
    from kg.text import find_math

    try:
        find_math(abstract, strict=True)
    except KGError:
        return False
    return True


def blind_order(corpus: Path) -> list[dict[str, object]]:
    """Every eligible record of ``corpus`` (JSONL) in order of ``sha256(id)``, then every other
    record with a bound marker in TeX math (the other venues: NeurIPS, ICML, ICLR …) in the same
    order, then every record whose bounds are written without TeX math (:func:`plain_bounded`, any
    venue) in the same order. A text the order already holds under another id (the corpus has a
    few abstracts twice) is left out: kg reads it as one paper, so a gold file holds it once."""
    with open(corpus, encoding="utf-8") as fh:
        records = list(map(json.loads, fh))

    def key(record: dict[str, object]) -> str:
        return hashlib.sha256(str(record["id"]).encode("utf-8")).hexdigest()

    tex = [r for r in records if bounded(r)]
    theory = sorted((r for r in tex if r.get("venue") in VENUES), key=key)
    rest = sorted((r for r in tex if r.get("venue") not in VENUES), key=key)
    plain = sorted((r for r in records if plain_bounded(r)), key=key)
    seen: set[str] = set()
    order = []
    for record in theory + rest + plain:
        text = " ".join(str(record.get("abstract") or "").split())
        if text not in seen:
            seen.add(text)
            order.append(record)
    return order


def batch(corpus: Path, first: int, last: int) -> Iterator[dict[str, object]]:
    """Records ``first``..``last`` (1-based, inclusive) of the blind order."""
    yield from blind_order(corpus)[first - 1 : last]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("first", type=int)
    ap.add_argument("last", type=int)
    ap.add_argument("--corpus", default=str(DEFAULT_CORPUS))
    ap.add_argument("-o", "--output", default="-")
    args = ap.parse_args()
    if not 1 <= args.first <= args.last:
        print(f"bounds_batch: need 1 <= FIRST <= LAST, got {args.first} {args.last}", file=sys.stderr)
        return 2
    if not Path(args.corpus).is_file():
        print(f"bounds_batch: corpus not found: {args.corpus}", file=sys.stderr)
        return 2
    records = batch(Path(args.corpus), args.first, args.last)
    lines = [json.dumps(r, ensure_ascii=False) + "\n" for r in records]
    if args.output == "-":
        sys.stdout.writelines(lines)
    else:
        Path(args.output).write_text("".join(lines), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
