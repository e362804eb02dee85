"""The frozen SciERC fold and the cross-validation folds of the rest, by hash of each document key.

SciERC ``train.json`` and ``dev.json`` (400 abstracts) are pooled. The 60 whose ``sha256(doc_key)``
hex digests are smallest form the **frozen fold**, listed in ``splits/scierc_frozen.txt``: no model
is trained on it and no choice (epoch, width, rule, threshold) is made by looking at it; it is
scored once a choice is made. The other 340 are split into ``FOLDS`` cross-validation folds by the
same digest (``int(digest, 16) % FOLDS``); every model-selection choice is the mean over those
folds, and the shipped model is then trained on all 340 (the epoch count chosen by the folds).

Written once, before any tuning::

    .venv/bin/python -m extractors.train.splits --write

and checked by the tests: the file and the hash rule agree.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

SPLITS_DIR = Path(__file__).resolve().parent / "splits"
FROZEN_FILE = SPLITS_DIR / "scierc_frozen.txt"
FROZEN_SIZE = 60
FOLDS = 5


def digest(key: str) -> str:
    """The sha256 hex digest of a document key, the one thing splits are made from.

    >>> digest("H05-1041")[:8]
    '00988197'
    """
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def frozen_keys(keys: list[str], size: int = FROZEN_SIZE) -> list[str]:
    """The ``size`` keys with the smallest digests, sorted by key."""
    return sorted(sorted(keys, key=digest)[:size])


def fold_of(key: str, folds: int = FOLDS) -> int:
    """The cross-validation fold of a document that is not frozen."""
    return int(digest(key), 16) % folds


def read_frozen(path: Path = FROZEN_FILE) -> set[str]:
    """The doc keys listed in the frozen-fold file (comments and the source column ignored)."""
    keys = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            keys.add(line.split("\t")[0])
    return keys


def write_frozen(sources: dict[str, list[str]], path: Path = FROZEN_FILE) -> None:
    """Write the frozen fold of the pooled ``sources`` (file name → doc keys in it)."""
    where = {key: name for name, keys in sources.items() for key in keys}
    lines = [
        "# The frozen SciERC fold: never trained on, never tuned on; reported once a choice is made.",
        "# The 60 documents of SciERC train.json + dev.json with the smallest sha256(doc_key) hex digest,",
        "# one doc_key and its source file per line. Rebuild: python -m extractors.train.splits --write",
    ]
    lines += [f"{key}\t{where[key]}" for key in frozen_keys(list(where))]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Print (or ``--write``) the frozen fold of SciERC train + dev."""
    from extractors.train.scierc import read_scierc

    shared = Path(__file__).resolve().parents[3] / "shared" / "data" / "scierc"
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scierc-dir", type=Path, default=shared)
    ap.add_argument("--write", action="store_true", help=f"write {FROZEN_FILE.name}")
    args = ap.parse_args(argv)
    sources = {
        name.split(".")[0]: [d.key for d in read_scierc(args.scierc_dir / name)]
        for name in ("train.json", "dev.json")
    }
    if args.write:
        write_frozen(sources)
    else:
        print("\n".join(frozen_keys([k for keys in sources.values() for k in keys])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
