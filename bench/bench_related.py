"""Benchmark ``kg related`` query latency on a large graph (not a test; run by hand).

    .venv/bin/python bench/bench_related.py /work/shared/data/ml-abstracts.jsonl
    .venv/bin/python bench/bench_related.py --graph out/        # a build directory (its saved
                                                                # index if it has one)

Without ``--graph`` it builds a graph of the contract's shape from a JSONL of abstracts without
running spaCy: entities are the acronyms the abstracts define ("… (PCA)") as Methods and the
capitalized multi-word names as Tasks/Concepts, topics are hashes, and one paper in ten claims an
O(sqrt(T)) regret bound. That is enough to measure index build and query time at scale.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import statistics
import sys
import time
from pathlib import Path

import networkx as nx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kg.related import build_index  # noqa: E402
from kg.vocab import entity_node, slug  # noqa: E402

_ACRONYM = re.compile(r"\(([A-Z][A-Za-z0-9-]{1,10})\)")
_NAME = re.compile(r"\b([A-Z][a-z]+(?: [A-Z][a-z]+)+)\b")


def synthetic_graph(path: str, limit: int | None = None) -> nx.MultiDiGraph:
    g = nx.MultiDiGraph()
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh):
            if limit is not None and n >= limit:
                break
            row = json.loads(line)
            pid = row["id"]
            pnode = f"paper:{pid}"
            h = int(hashlib.sha256(pid.encode()).hexdigest(), 16)
            g.add_node(
                pnode,
                kind="Paper",
                id=pid,
                title=row.get("title") or pid,
                label=pid,
                abstract=row.get("abstract") or "",
                topic=h % 40,
            )
            names = [("Method", a) for a in _ACRONYM.findall(row.get("abstract") or "")]
            names += [
                ("Task" if i % 2 else "Concept", m)
                for i, m in enumerate(_NAME.findall(row.get("abstract") or ""))
            ]
            for i, (etype, name) in enumerate(names):
                if not slug(name):
                    continue
                enode = entity_node(etype, name.lower())
                if enode not in g:
                    g.add_node(enode, kind=etype, canonical=name.lower(), label=name, aliases=[])
                pred = "proposes" if i == 0 and etype == "Method" else "uses"
                g.add_edge(pnode, enode, key=pred, predicate=pred)
            if h % 10 == 0:
                b = f"bound:{pid}:0"
                g.add_node(
                    b,
                    kind="Bound",
                    bound_kind="upper",
                    expr="O(d sqrt(T))",
                    variables=["T", "d"],
                    quantity="regret",
                    latex=r"O(d\sqrt{T})",
                    attribution="this",
                )
                g.add_edge(pnode, b, key="claimsBound", predicate="claimsBound")
    return g


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("abstracts", nargs="?", help="JSONL of abstracts (synthetic graph)")
    ap.add_argument("--graph", help="a build directory instead")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--top", type=int, default=10)
    args = ap.parse_args()
    started = time.perf_counter()
    if args.graph:
        # the build directory's saved index (kg related --write-index) when it has one
        from kg.related import load_index

        index = load_index(args.graph)
        loaded = built = time.perf_counter()
    else:
        g = synthetic_graph(args.abstracts)
        loaded = time.perf_counter()
        index = build_index(g)
        built = time.perf_counter()
    step = max(1, len(index) // args.queries)
    times = []
    for pid in index.ids[::step][: args.queries]:
        t0 = time.perf_counter()
        index.related(pid, args.top)
        times.append(time.perf_counter() - t0)
    print(
        f"papers {len(index)}, entities {len(index.entities)}, graph load {loaded - started:.1f} s, "
        f"index build {built - loaded:.1f} s"
    )
    print(
        f"query (top {args.top}) over {len(times)} papers: median {statistics.median(times) * 1000:.1f} ms, "
        f"p95 {sorted(times)[int(0.95 * len(times)) - 1] * 1000:.1f} ms, max {max(times) * 1000:.1f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
