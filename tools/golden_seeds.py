"""Regenerate the golden seeds graph, ``tests/data/golden/seeds_graph.ttl``.

    make golden        # or: .venv/bin/python tools/golden_seeds.py

Builds ``seeds/`` with the real pipeline (readers, spaCy, the registered extractors, resolution,
assembly, the build-directory writer), as ``kg build seeds/`` run in the checkout does, without
the build cache, and writes its ``graph.ttl`` over the golden file. Run it only when the graph is
meant to change, and review ``git diff tests/data/golden/`` in the same commit:
``tests/integration/test_golden_seeds.py`` holds every build of the seeds to this file.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GOLDEN = REPO / "tests" / "data" / "golden" / "seeds_graph.ttl"
sys.path.insert(0, str(REPO))

from kg.builder import build_graph  # noqa: E402
from kg.fileio import atomic_write  # noqa: E402
from kg.graphdir import GRAPH_TTL  # noqa: E402


def main() -> int:
    """Build the seeds into a temp directory and copy its Turtle over the golden file."""
    os.chdir(REPO)  # the input paths the graph records are the checkout's own: seeds/…
    with tempfile.TemporaryDirectory(prefix="kg-golden-") as tmp:
        out = Path(tmp) / "graph"
        build_graph(["seeds/"], out, use_cache=False)
        data = (out / GRAPH_TTL).read_bytes()
    with atomic_write(GOLDEN, "wb") as fh:
        fh.write(data)
    lines = data.count(b"\n")
    print(f"{GOLDEN.relative_to(REPO)}: {lines} lines; review `git diff {GOLDEN.parent.relative_to(REPO)}`")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
