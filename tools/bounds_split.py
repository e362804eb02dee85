"""The dev/test split of a bounds gold file: which abstracts the rules may be tuned on.

    .venv/bin/python tools/bounds_split.py GOLD.jsonl            # counts per split, checks the field
    .venv/bin/python tools/bounds_split.py GOLD.jsonl --assign   # writes the field where missing
    .venv/bin/python tools/bounds_split.py GOLD.jsonl --halves   # rewrites it by the halves rule

Every line of a bounds gold file carries ``"split": "dev"`` or ``"split": "test"``. The rules are
tuned on ``dev`` only; ``test`` is frozen: it is measured (``kg eval bounds --split test``) and its
errors are not read to write rules. For the gold written before the split existed
(``tests/data/bounds_gold.jsonl``: the seeds and the blind order of ``tools/bounds_batch.py``), the
split was decided by :func:`split_of`, a hash of the doc id, before any rule was changed after it:
30 % of the abstracts are ``test``. Gold written later for the frozen part alone (an annotator's
blind batch) is split by :func:`half_of`, another hash of the doc id, into two halves: the
blind gold (``tests/data/bounds_gold_blind.jsonl``), written by a reader who never ran kg, was
halved so before any of its errors was read (``--halves`` rewrites every line's field by that
rule). ``--assign`` only fills lines that lack the field.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

SPLITS = ("dev", "test")
TEST_SHARE = 3  # tenths of the abstracts in the frozen test part


def split_of(doc: str) -> str:
    """The split a doc id falls in: ``test`` when sha256("bounds-split:" + id) mod 10 < 3.

    >>> split_of("p-9898d1ffb550"), split_of("p-d04c8b43eef9")
    ('dev', 'test')
    """
    digest = hashlib.sha256(("bounds-split:" + doc).encode("utf-8")).hexdigest()
    return "test" if int(digest, 16) % 10 < TEST_SHARE else "dev"


def half_of(doc: str) -> str:
    """The half of a blind gold a doc id falls in: ``test`` when sha256("bounds-blind-half:" + id)
    is odd, ``dev`` when it is even.

    >>> half_of("alt2025-7Nal6i5lje"), half_of("alt2025-GSgcnyQzpz")
    ('dev', 'test')
    """
    digest = hashlib.sha256(("bounds-blind-half:" + doc).encode("utf-8")).hexdigest()
    return "test" if int(digest, 16) % 2 else "dev"


def with_split(line: str, split: str) -> str:
    """``line`` (a gold record ``{"doc": …, …}``) with ``"split"`` written right after the doc id,
    the rest of its bytes unchanged."""
    obj = json.loads(line)
    head = json.dumps({"doc": obj["doc"]}, ensure_ascii=False)[:-1]
    if not line.startswith(head + ", "):
        raise ValueError(f"doc {obj['doc']!r}: expected the line to open on its doc id")
    return f'{head}, "split": {json.dumps(split)}, {line[len(head) + 2 :]}'


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("gold", type=Path)
    ap.add_argument("--assign", action="store_true", help="write the hash split into lines without one")
    ap.add_argument("--halves", action="store_true", help="rewrite every line's split by the halves rule")
    args = ap.parse_args(argv)
    lines = args.gold.read_text(encoding="utf-8").splitlines()
    out, counts, bounds = [], Counter[str](), Counter[str]()
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        obj = json.loads(line)
        split = obj.get("split")
        if args.halves:
            split = half_of(obj["doc"])
            unsplit = {k: v for k, v in obj.items() if k != "split"}
            line = with_split(json.dumps(unsplit, ensure_ascii=False), split)
        elif split is None and args.assign:
            split = split_of(obj["doc"])
            line = with_split(line, split)
        if split not in SPLITS:
            print(f"{args.gold}: line {n}: split {split!r} is not one of {SPLITS}", file=sys.stderr)
            return 1
        counts[split] += 1
        bounds[split] += len(obj["bounds"])
        out.append(line)
    if args.assign or args.halves:
        fd, tmp = tempfile.mkstemp(dir=args.gold.parent, prefix=args.gold.name + ".")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("\n".join(out) + "\n")
        os.replace(tmp, args.gold)
    for split in SPLITS:
        print(f"{split}: {counts[split]} abstracts, {bounds[split]} gold bounds")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
