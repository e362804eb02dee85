"""Every bound that changed between two versions of the extractor, grouped by class of change.

    .venv/bin/python tools/bounds_diff.py BEFORE AFTER [--corpus FILE]... [--limit N] [--json FILE]

BEFORE and AFTER are each one of:

* an extraction file, the JSONL ``kg extract`` writes (``before.jsonl``);
* ``git:REV``, a git revision (``git:58620fa``, ``git:main``): its files are exported to a
  scratch directory and its own ``kg extract`` is run over the corpus, once (the output is kept
  under ``--work``, named by the revision and the corpus, and reused);
* ``.``, the checkout as it is, uncommitted changes included (extracted every time).

``--corpus`` (default ``../shared/data/ml-abstracts.jsonl``) is what the revisions are run over,
with ``--skip-bad``; ``--bounds-only`` runs the bounds extractor alone, through ``kg.pipeline``, a
few times faster than ``kg extract`` with the entities.

Bounds are compared paper by paper. A bound keeps its identity by its span (``start``, ``end``,
``form``); the bounds left over on either side are paired when their spans overlap (a class
"span"), and the rest are "added" or "removed". A paired bound whose fields differ falls in the
class named by the fields that changed ("quantity", "kind+attribution"); the ``extractor`` field
(the version) is never compared. Each class is printed with its count, its most frequent changes
("'regret' -> 'expected regret' ×12") and up to ``--limit`` examples (paper id and formula).
``--json`` also writes every change, one object per line.

Exit status: 0 when no bound changed, 1 when some did (as ``diff``), 2 on an error.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO.parent / "shared" / "data" / "ml-abstracts.jsonl"
IGNORED = frozenset(("extractor",))

# Run inside the exported revision: its own pipeline, the bounds family alone, the record format
# of kg extract.
_BOUNDS_ONLY = """
import json, sys
from kg.fileio import write_jsonl_atomic
from kg.ingest import read_papers
from kg.pipeline import extract_papers, load_pipeline
from kg.types import RunReport
papers = read_papers(sys.argv[2:], skip_bad=True, report=RunReport())
pipeline = load_pipeline(None, families=("bounds",))
write_jsonl_atomic(sys.argv[1], (x.to_json() for x in extract_papers(papers, pipeline=pipeline)))
"""


@dataclass(frozen=True, slots=True)
class Change:
    """One bound that differs: its class, the paper, and the bound on each side (None: absent)."""

    cls: str
    paper: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None

    def fields(self) -> list[str]:
        if self.before is None or self.after is None:
            return []
        keys = sorted((set(self.before) | set(self.after)) - IGNORED)
        return [k for k in keys if self.before.get(k) != self.after.get(k)]

    def to_json(self) -> dict[str, Any]:
        return {"class": self.cls, "paper": self.paper, "before": self.before, "after": self.after}


def read_bounds(path: Path) -> dict[str, list[dict[str, Any]]]:
    """Paper id → its bounds, from an extraction JSONL file."""
    out: dict[str, list[dict[str, Any]]] = {}
    with path.open(encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                out[record["id"]] = list(record.get("bounds") or [])
            except (ValueError, KeyError, TypeError) as exc:
                raise SystemExit(f"{path}: line {n}: expected a kg extract record ({exc})") from None
    return out


def _key(bound: dict[str, Any]) -> tuple[int, int, str]:
    return int(bound["start"]), int(bound["end"]), str(bound.get("form", ""))


def _by_key(bounds: list[dict[str, Any]]) -> dict[tuple[int, int, str, int], dict[str, Any]]:
    """Bounds by span, the n-th of a span that occurs twice keyed by n."""
    seen: Counter[tuple[int, int, str]] = Counter()
    out = {}
    for bound in bounds:
        key = _key(bound)
        out[(*key, seen[key])] = bound
        seen[key] += 1
    return out


def _overlap(a: dict[str, Any], b: dict[str, Any]) -> int:
    return min(int(a["end"]), int(b["end"])) - max(int(a["start"]), int(b["start"]))


def compare_paper(paper: str, before: list[dict[str, Any]], after: list[dict[str, Any]]) -> Iterator[Change]:
    """The changes of one paper's bounds, in text order."""
    left, right = _by_key(before), _by_key(after)
    pairs = [(left[k], right[k]) for k in left if k in right]
    only_left = [b for k, b in left.items() if k not in right]
    only_right = [b for k, b in right.items() if k not in left]
    # spans that moved: pair leftovers by the largest overlap, one to one
    candidates = sorted(
        ((_overlap(a, b), i, j) for i, a in enumerate(only_left) for j, b in enumerate(only_right)),
        key=lambda t: (-t[0], t[1], t[2]),
    )
    used_l: set[int] = set()
    used_r: set[int] = set()
    moved = []
    for ov, i, j in candidates:
        if ov > 0 and i not in used_l and j not in used_r:
            used_l.add(i)
            used_r.add(j)
            moved.append((only_left[i], only_right[j]))
    changes = []
    for a, b in pairs:
        change = Change("", paper, a, b)
        fields = change.fields()
        if fields:
            changes.append(Change("+".join(fields), paper, a, b))
    changes += [Change("span", paper, a, b) for a, b in moved]
    changes += [Change("removed", paper, b, None) for i, b in enumerate(only_left) if i not in used_l]
    changes += [Change("added", paper, None, b) for j, b in enumerate(only_right) if j not in used_r]
    changes.sort(key=lambda c: _key(c.before or c.after or {"start": 0, "end": 0}))
    return iter(changes)


def compare(
    before: dict[str, list[dict[str, Any]]], after: dict[str, list[dict[str, Any]]]
) -> tuple[list[Change], list[str], list[str]]:
    """All changes, and the papers only one side has."""
    changes: list[Change] = []
    for paper in sorted(before.keys() & after.keys()):
        changes.extend(compare_paper(paper, before[paper], after[paper]))
    return changes, sorted(before.keys() - after.keys()), sorted(after.keys() - before.keys())


def _transition(change: Change) -> str:
    """How a change reads in a class summary: the changed fields' values, before -> after."""
    if change.cls in ("added", "removed"):
        bound = change.after if change.cls == "added" else change.before
        assert bound is not None
        return f"{bound.get('form')} {bound.get('kind')} {bound.get('quantity')!r}"
    if change.cls == "span":
        return "span"
    assert change.before is not None and change.after is not None
    fields = change.fields()
    return "; ".join(f"{f}: {change.before.get(f)!r} -> {change.after.get(f)!r}" for f in fields)


def report(
    changes: list[Change], only_before: list[str], only_after: list[str], totals: tuple[int, int], limit: int
) -> str:
    """The printed summary: totals, then each class with its frequent changes and examples."""
    by_class: dict[str, list[Change]] = defaultdict(list)
    for change in changes:
        by_class[change.cls].append(change)
    lines = [
        f"bounds: {totals[0]} before, {totals[1]} after; {len(changes)} changed "
        f"in {len({c.paper for c in changes})} papers",
    ]
    if only_before or only_after:
        lines.append(f"papers only before: {len(only_before)}; only after: {len(only_after)}")
    for cls, group in sorted(by_class.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        lines.append(f"\n{cls}: {len(group)}")
        for text, n in Counter(_transition(c) for c in group).most_common(limit):
            lines.append(f"  ×{n:<4} {text}")
        for c in group[:limit]:
            b = c.after or c.before or {}
            lines.append(f"    e.g. {c.paper} [{b.get('start')}:{b.get('end')}] {b.get('latex')!r}")
    return "\n".join(lines)


def _corpus_digest(corpus: Iterable[Path]) -> str:
    digest = hashlib.sha256()
    for path in corpus:
        digest.update(str(path.resolve()).encode() + b"\0" + str(path.stat().st_size).encode() + b"\0")
    return digest.hexdigest()[:10]


def _run_kg(source: Path, out: Path, corpus: list[Path], bounds_only: bool) -> None:
    """Extract ``corpus`` into ``out`` with the code under ``source`` (nice'd: it is long)."""
    env = {**os.environ, "PYTHONPATH": str(source)}
    if bounds_only:
        cmd = [sys.executable, "-c", _BOUNDS_ONLY, str(out), *map(str, corpus)]
    else:
        cmd = [sys.executable, "-m", "kg.cli", "extract", *map(str, corpus), "--skip-bad", "-o", str(out)]
    print(f"extracting with {source} -> {out}", file=sys.stderr)
    done = subprocess.run(["nice", "-n", "10", *cmd], cwd=source, env=env)
    if done.returncode != 0:
        raise SystemExit(f"extraction with {source} failed (exit {done.returncode})")


def resolve_side(spec: str, corpus: list[Path], work: Path, bounds_only: bool) -> Path:
    """The extraction file of one side: a file as given, or one made from a revision or the checkout."""
    if spec == ".":
        work.mkdir(parents=True, exist_ok=True)
        out = work / f"checkout-{_corpus_digest(corpus)}{'-bounds' if bounds_only else ''}.jsonl"
        _run_kg(REPO, out, corpus, bounds_only)
        return out
    if not spec.startswith("git:"):
        path = Path(spec)
        if not path.is_file():
            raise SystemExit(f"{spec}: not an extraction file, git:REV or '.'")
        return path
    rev = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--verify", spec[4:] + "^{commit}"],
        capture_output=True,
        text=True,
    )
    if rev.returncode != 0:
        raise SystemExit(f"{spec}: not a revision of {REPO}")
    commit = rev.stdout.strip()
    out = work / f"{commit[:12]}-{_corpus_digest(corpus)}{'-bounds' if bounds_only else ''}.jsonl"
    if out.is_file():
        return out
    work.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=work, prefix=f"src-{commit[:12]}-") as src:
        archive = subprocess.run(["git", "-C", str(REPO), "archive", commit], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", src], input=archive.stdout, check=True)
        _run_kg(Path(src), out, corpus, bounds_only)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("before", help="extraction JSONL, git:REV or '.'")
    ap.add_argument("after", help="extraction JSONL, git:REV or '.'")
    ap.add_argument("--corpus", action="append", type=Path, help="input of the revisions (repeatable)")
    ap.add_argument("--bounds-only", action="store_true", help="run only the bounds extractor")
    ap.add_argument(
        "--work",
        type=Path,
        default=Path(tempfile.gettempdir()) / "kg-bounds-diff",
        help="where extractions of revisions are kept",
    )
    ap.add_argument("--limit", type=int, default=8, help="frequent changes and examples per class")
    ap.add_argument("--json", type=Path, default=None, help="write every change as JSONL here")
    args = ap.parse_args(argv)
    corpus = args.corpus or [DEFAULT_CORPUS]
    before = read_bounds(resolve_side(args.before, corpus, args.work, args.bounds_only))
    after = read_bounds(resolve_side(args.after, corpus, args.work, args.bounds_only))
    changes, only_before, only_after = compare(before, after)
    totals = (sum(map(len, before.values())), sum(map(len, after.values())))
    print(report(changes, only_before, only_after, totals, args.limit))
    if args.json is not None:
        with args.json.open("w", encoding="utf-8") as f:
            for change in changes:
                f.write(json.dumps(change.to_json(), ensure_ascii=False) + "\n")
    return 1 if changes or only_before or only_after else 0


if __name__ == "__main__":
    raise SystemExit(main())
