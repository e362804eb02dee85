"""Time the bounds extractor on hostile abstracts against an ordinary one of the same size.

    .venv/bin/python bench/bench_adversarial.py

Each case of ``tests/fixtures/adversarial.py`` (50–140 kB: unclosed braces, 14,000 nested
``\\sqrt{``, 2,500 formulas in one sentence …) is normalized and read by ``extract_bounds`` in
this process, best of three, and so is the baseline measured in the same run: an ordinary
abstract of about the same size, one bound per sentence; the normalizer's own cases are timed
against the same abstract normalized only. The table gives seconds, seconds per 100 kB and the
ratio to the baseline; the documented bound is 2 s per 100 kB.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from extractors.bounds import extract_bounds  # noqa: E402
from kg.text import normalize  # noqa: E402
from tests.fixtures.adversarial import BENIGN, CASES, NORMALIZE_CASES, build  # noqa: E402

BUDGET_S_PER_100KB = 2.0


def read_seconds(abstract: str, extract: bool = True, repeat: int = 3) -> float:
    """Best of ``repeat`` wall times of normalizing ``abstract`` (and reading its bounds)."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        math = normalize(abstract).math
        if extract:
            extract_bounds(abstract, math)
        best = min(best, time.perf_counter() - t)
    return best


def rows_for(cases: dict[str, str], benign: str, extract: bool, what: str) -> list[tuple[str, ...]]:
    base = read_seconds(benign, extract)
    base_rate = base / len(benign) * 100_000
    rows = [(f"baseline: ordinary abstract ({what})", f"{len(benign) / 1000:.0f}", f"{base:.2f}",
             f"{base_rate:.2f}", "1.00", "met" if base_rate <= BUDGET_S_PER_100KB else "NOT met")]
    for name in sorted(cases):
        text = build(cases[name])
        seconds = read_seconds(text, extract)
        rate = seconds / len(text) * 100_000
        rows.append((f"  {name}", f"{len(text) / 1000:.0f}", f"{seconds:.2f}", f"{rate:.2f}",
                     f"{rate / base_rate:.2f}" if base_rate else "–",
                     "met" if rate <= BUDGET_S_PER_100KB else "NOT met"))
    return rows


def main() -> int:
    benign = build(BENIGN)
    rows: list[tuple[str, ...]] = [("case", "kB", "seconds", "s per 100 kB", "× baseline", "≤ 2 s/100 kB")]
    rows += rows_for(CASES, benign, True, "normalize and extract bounds")
    rows += rows_for(NORMALIZE_CASES, benign, False, "normalize only")
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
