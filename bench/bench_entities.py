"""Entity and relation extraction cost per abstract: this tree against a baseline tree, as a ratio.

    git archive BASE_COMMIT | (mkdir -p /tmp/kg-base && tar -x -C /tmp/kg-base)
    nice -n 10 .venv/bin/python bench/bench_entities.py ../shared/data/ml-abstracts.jsonl \\
        --baseline /tmp/kg-base [--n 1200] [--rounds 2]

Both trees run in child processes of this one (the same Python, the same installed packages; each
child puts its tree first on ``sys.path``), on the same first ``--n`` corpus abstracts (records
that cannot be read are skipped), each loading the pipeline ``kg extract`` uses with the
``entities`` family and the ``relations`` family after it (where the tree has one: the baseline
of a version before relations runs entities alone), and timing ``extract_many`` in CPU seconds of
its own process (parse, rules and the relation step; less sensitive to other work on a shared
machine than wall time); ``relation_step`` is the relation step's own share of it. Rounds alternate
baseline, this tree, baseline, …, and the median per tree is kept. Prints one JSON object: ms per
abstract for each tree (parse, extract, total) and the ratio.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

_CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from kg.ingest import read_papers
from kg.pipeline import load_pipeline
from extractors.registry import available
papers = read_papers([sys.argv[2]], skip_bad=True)[: int(sys.argv[3])]
families = [f for f in sys.argv[4].split(",") if f in available()]
pipeline = load_pipeline(None, families=families)
pipeline.extract_many(papers[:20])  # warm-up: lazy tables, first allocations
cpu = {"relations": 0.0}
for extractor in pipeline.extractors:
    if getattr(extractor, "reads_mentions", False):
        step = extractor.extract
        def timed(parsed, step=step):
            t = time.process_time()
            out = list(step(parsed))
            cpu["relations"] += time.process_time() - t
            return out
        extractor.extract = timed
t0 = time.process_time()
records = pipeline.extract_many(papers, cpu=cpu)
total = time.process_time() - t0
print(json.dumps({"papers": len(papers), "families": families,
                  "mentions": sum(len(r.mentions) for r in records),
                  "relations": sum(len(getattr(r, "relations", ())) for r in records),
                  "total": total, "relation_step": cpu.pop("relations"), **cpu}))
"""


def _run(tree: Path, corpus: str, n: int, families: str) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(tree), str(Path(corpus).resolve()), str(n), families],
        check=True,
        capture_output=True,
        text=True,
        cwd=tree,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("--baseline", type=Path, required=True, help="a checkout of the baseline commit")
    ap.add_argument("--n", type=int, default=1200)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--families", default="entities,relations",
                    help="families each tree runs (those a tree lacks are left out)")
    args = ap.parse_args()
    runs: dict[str, list[dict[str, float]]] = {"baseline": [], "this": []}
    for _ in range(args.rounds):
        for name, tree in (("baseline", args.baseline.resolve()), ("this", HERE)):
            runs[name].append(_run(tree, args.corpus, args.n, args.families))
            print(name, json.dumps(runs[name][-1]), file=sys.stderr, flush=True)
    result: dict[str, object] = {"papers": runs["this"][0]["papers"], "rounds": args.rounds}
    per: dict[str, float] = {}
    for name, rs in runs.items():
        n = rs[0]["papers"]
        row = {
            k: round(1000 * statistics.median(r.get(k, 0.0) for r in rs) / n, 2)
            for k in ("parse", "extract", "relation_step", "total")
        }
        row["mentions"] = rs[0]["mentions"]
        row["relations"] = rs[0]["relations"]
        result[name + "_ms_per_abstract"] = row
        per[name] = row["total"]
    result["ratio"] = round(per["this"] / per["baseline"], 3)
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
