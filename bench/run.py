"""``make bench``: the whole of kg at corpus scale, measured side by side in ONE run.

    .venv/bin/python bench/run.py [CORPUS.jsonl] [--workers 2] [--keep DIR]

Reads ``../shared/data/ml-abstracts.jsonl`` (22,654 abstracts) unless a path is given, and says
so and exits 0 when it is absent. Not a test: it prints a table, it asserts nothing.

1. ``kg build`` of the whole corpus with default flags (wall time, peak RSS and PSS, whether every
   record became a paper or merged into an identical abstract) and, on the same texts with the
   same process count, the baseline: the spaCy pipeline kg loads, run with ``nlp.pipe`` and
   nothing else. The ratio build/baseline is what kg adds on top of parsing.
2. ``kg export neo4j`` of that graph into a real Neo4j 5.26 server (the test server launcher):
   nodes + relationships written per second.
3. ``kg export html --view papers`` of that graph, opened in headless Chromium: time until the
   page reports its layout stabilized.
4. ``kg build --update`` adding 100 abstracts to the 22k graph (100 papers removed with
   ``kg remove`` first, so they are new to it and not in its cache): they stay pending
   (:mod:`kg.pending`); then ``kg compact`` folding them in, and how closely the pending view
   answers ``kg related`` for the 100 papers (top-10 overlap with the compacted graph's, which
   is a full rebuild's); and ``kg related`` latency: the median of 50 queries in one loaded
   process, and of 5 whole CLI invocations; the index's time as a ratio to the baseline.
5. ``kg build --engine dask`` of the same corpus on a LocalCluster of as many workers: its time
   against the local build's, and whether the two build directories hold the same bytes.

Every command runs in its own process; peak RSS is sampled over the whole process tree
(parent + forked workers, so pages they share are counted once per process: an upper bound),
and so is PSS (each shared page divided among the processes sharing it: the memory the tree
really holds). A second table
says where the build's and the update's wall time went, stage by stage, from the CLI's own timers
(``kg build --timings``), with the extraction workers' CPU split between spaCy's parse and kg's
extractors: the profile behind a target that is not met.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO.parent / "shared" / "data" / "ml-abstracts.jsonl"
KG = [sys.executable, "-m", "kg.cli"]
sys.path.insert(0, str(REPO))

NEO4J_HEAP = "2g"
NEO4J_PAGECACHE_MB = 1024
NEO4J_GC = "Parallel"
NEO4J_BATCH = 5000
TARGETS = {
    "build_ratio": 1.2,
    "build_seconds": 300.0,
    "peak_rss_gb": 2.0,
    "neo4j_rate": 20_000.0,
    "update_seconds": 10.0,
    "related_ms": 50.0,
    "related_index_ratio": 0.5,
    "html_seconds": 10.0,
}
PSS_EVERY = 0.5  # seconds between PSS samples (reading smaps costs more than the RSS)


@dataclass
class Run:
    seconds: float
    peak_rss: int  # bytes, summed over the process tree, sampled
    stdout: str
    cpu_seconds: float = 0.0  # user + system CPU of the process and every child it waited for
    peak_pss: int = 0  # bytes, summed over the process tree (shared pages divided), sampled


def measure(cmd: list[str], *, cwd: Path = REPO, input_text: str | None = None) -> Run:
    """Run ``cmd`` to completion, sampling the RSS of its whole process tree every 50 ms."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.Popen(
        cmd,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.PIPE if input_text is not None else subprocess.DEVNULL,
        text=True,
    )
    peak = peak_pss = 0
    stop = threading.Event()

    def sample() -> None:
        nonlocal peak, peak_pss
        root = psutil.Process(proc.pid)
        last_pss = 0.0
        while not stop.is_set():
            try:
                tree = [root, *root.children(recursive=True)]
                total = pss = 0
                with_pss = time.perf_counter() - last_pss >= PSS_EVERY
                for member in tree:
                    try:
                        total += member.memory_info().rss
                        if with_pss:
                            pss += member.memory_full_info().pss
                    except psutil.Error:
                        pass
                peak = max(peak, total)
                if with_pss:
                    peak_pss = max(peak_pss, pss)
                    last_pss = time.perf_counter()
            except psutil.Error:
                return
            stop.wait(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, err = proc.communicate(input_text)
    seconds = time.perf_counter() - started
    stop.set()
    sampler.join()
    if proc.returncode != 0:
        raise SystemExit(f"bench: command failed ({proc.returncode}): {' '.join(cmd)}\n{err[-2000:]}")
    done = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (done.ru_utime + done.ru_stime) - (usage.ru_utime + usage.ru_stime)
    return Run(seconds, peak, out, cpu, peak_pss)


def _gb(n: int) -> float:
    return n / 1024**3


def bench_build(corpus: Path, work: Path, workers: int) -> dict[str, float]:
    baseline = measure(
        [sys.executable, str(REPO / "bench" / "baseline_parse.py"), str(corpus), "--workers", str(workers)]
    )
    graph = work / "graph"
    timings = work / "build-timings.json"
    build = measure([*KG, "build", str(corpus), "-o", str(graph), "--workers", str(workers),
                     "--timings", str(timings)])
    manifest = json.loads((graph / "manifest.json").read_text(encoding="utf-8"))
    report = manifest.get("report", {})
    return {
        "records_read": float(report.get("records_read", 0)),
        "duplicates_merged": float(report.get("duplicates_merged", 0)),
        "records_skipped": float(len(report.get("skipped", []))),
        "records_warned": float(len(report.get("warnings", []))),
        "build_pss_gb": _gb(build.peak_pss),
        **_timing_figures("build", timings),
        "baseline_s": baseline.seconds,
        "baseline_cpu_s": baseline.cpu_seconds,
        "build_cpu_s": build.cpu_seconds,
        "baseline_rss_gb": _gb(baseline.peak_rss),
        "parsed_docs": float(json.loads(baseline.stdout)["docs"]),
        "build_s": build.seconds,
        "build_rss_gb": _gb(build.peak_rss),
        "ratio": build.seconds / baseline.seconds,
        "papers": float(
            manifest.get("counts", {}).get("nodes", {}).get("Paper", 0)
            or manifest.get("report", {}).get("papers", 0)
        ),
    }


def bench_dask(corpus: Path, graph: Path, work: Path, workers: int) -> dict[str, float]:
    """``kg build --engine dask`` on a LocalCluster of ``workers``, against the local build."""
    import hashlib

    dask_graph = work / "graph-dask"
    run = measure([*KG, "build", str(corpus), "-o", str(dask_graph), "--engine", "dask",
                   "--workers", str(workers)])

    def digest(directory: Path) -> str:
        h = hashlib.sha256()
        for name in ("extractions.jsonl", "graph.json", "graph.ttl"):
            h.update((directory / name).read_bytes())
        return h.hexdigest()

    same = digest(dask_graph) == digest(graph)
    shutil.rmtree(dask_graph, ignore_errors=True)
    return {"dask_s": run.seconds, "dask_cpu_s": run.cpu_seconds, "dask_rss_gb": _gb(run.peak_rss),
            "dask_same_bytes": float(same)}


def bench_neo4j(graph: Path, work: Path) -> dict[str, float]:
    from tests.fixtures.neo4j import Neo4jServer

    # Sized like a real server (heap, page cache, full JIT), unlike the tests' capped one, with the
    # throughput collector a bulk load wants (docs/neo4j.md: on this 2-core machine, four exports
    # alternated with G1 took 42.5 s against 48.7 s on average).
    server = Neo4jServer(work / "neo4j", heap=NEO4J_HEAP, pagecache_mb=NEO4J_PAGECACHE_MB, full_jit=True,
                         gc=NEO4J_GC)
    server.start()
    try:
        env = {**os.environ, "NEO4J_USER": server.user, "NEO4J_PASSWORD": server.password}
        started = time.perf_counter()
        done = subprocess.run(
            [*KG, "export", "neo4j", "-g", str(graph), "--uri", server.uri, "--batch-size", str(NEO4J_BATCH)],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
        )
        seconds = time.perf_counter() - started
        if done.returncode != 0:
            raise SystemExit(f"bench: neo4j export failed: {done.stderr[-2000:]}")
        from kg.export.neo4j import export_rows_total
        from kg.graphdir import load_nx

        total = export_rows_total(load_nx(graph))
    finally:
        server.stop()
    return {"neo4j_s": seconds, "neo4j_items": float(total), "neo4j_rate": total / seconds}


def bench_html(graph: Path, work: Path) -> dict[str, float]:
    page = work / "papers.html"
    export = measure([*KG, "export", "html", "-g", str(graph), "-o", str(page), "--view", "papers"])
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=[
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        try:
            tab = browser.new_page()
            started = time.perf_counter()
            tab.goto(page.as_uri())
            tab.wait_for_function("() => document.body.dataset.stabilized === 'true'", timeout=120_000)
            load = time.perf_counter() - started
            shown = tab.evaluate("() => window.kg ? window.kg.nodes.length : -1")
        finally:
            browser.close()
    return {
        "html_export_s": export.seconds,
        "html_load_s": load,
        "html_nodes": float(shown),
        "html_bytes": float(page.stat().st_size),
    }


def bench_update_and_related(corpus: Path, graph: Path, work: Path, workers: int) -> dict[str, float]:
    from kg.graphdir import load_extractions

    # The related-work index first: it encodes every abstract once (kg.encoder), and the copies
    # below carry it, so their indexes encode nothing again (the 100 papers come back with the
    # same texts).
    index = measure([*KG, "related", "--write-index", "-g", str(graph)])
    copy = work / "graph-update"
    shutil.copytree(graph, copy)
    papers = [e.paper for e in load_extractions(copy)]
    step = max(1, len(papers) // 100)
    held = papers[::step][:100]
    measure([*KG, "remove", str(copy), *(p.id for p in held)])
    new_file = work / "new100.jsonl"
    with open(new_file, "w", encoding="utf-8") as out:
        for p in held:
            out.write(
                json.dumps(
                    {
                        "id": p.id,
                        "title": "" if p.title_derived else p.title,
                        "abstract": p.abstract,
                        "venue": p.venue,
                        "year": p.year,
                        "authors": list(p.authors),
                        "url": p.url,
                    }
                )
                + "\n"
            )
    timings = work / "update-timings.json"
    update = measure([*KG, "build", "--update", str(copy), str(new_file), "--workers", str(workers),
                      "--timings", str(timings)])
    pending = work / "graph-pending"
    shutil.copytree(copy, pending)
    compact = measure([*KG, "compact", str(copy)])
    agreement = json.loads(measure([sys.executable, "-c", AGREEMENT_PROBE, str(pending), str(copy),
                                    *(p.id for p in held)]).stdout.strip().splitlines()[-1])
    shutil.rmtree(pending, ignore_errors=True)

    # kg related: in one loaded process (what a service or notebook sees), then the CLI.
    probe = measure([sys.executable, "-c", RELATED_PROBE, str(graph)])
    related = json.loads(probe.stdout.strip().splitlines()[-1])
    cli = [measure([*KG, "related", p.id, "-g", str(graph), "--top", "10"]).seconds for p in held[:5]]
    return {
        **_timing_figures("update", timings),
        "update_s": update.seconds,
        "update_rss_gb": _gb(update.peak_rss),
        "compact_s": compact.seconds,
        "pending_related_overlap": agreement["overlap"],
        "pending_related_first": agreement["first"],
        "related_index_s": index.seconds,
        "related_index_rss_gb": _gb(index.peak_rss),
        "related_index_pss_gb": _gb(index.peak_pss),
        "related_index_cpu_s": index.cpu_seconds,
        "related_ms": related["median_ms"],
        "related_load_s": related.get("load_s", float("nan")),
        "related_cli_s": statistics.median(cli),
    }


RELATED_PROBE = """
import json, statistics, sys, time
from kg.related import load_index
started = time.perf_counter()
index = load_index(sys.argv[1])
load_s = time.perf_counter() - started
step = max(1, len(index.ids) // 50)
times = []
for pid in index.ids[::step][:50]:
    t = time.perf_counter()
    index.related(pid, top=10)
    times.append(time.perf_counter() - t)
print(json.dumps({"median_ms": statistics.median(times) * 1000, "load_s": load_s, "n": len(times)}))
"""


# The 100 pending papers' top 10 related in the pending view (argv[1]) against the compacted
# graph's (argv[2]): mean overlap, and the share with the same first result.
AGREEMENT_PROBE = """
import json, sys
from kg.related import load_index
pending, whole = load_index(sys.argv[1]), load_index(sys.argv[2])
overlap, first = [], []
for pid in sys.argv[3:]:
    a = [r.id for r in pending.related(pid, top=10)]
    b = [r.id for r in whole.related(pid, top=10)]
    overlap.append(len(set(a) & set(b)) / max(len(b), 1))
    first.append(a[:1] == b[:1])
print(json.dumps({"overlap": sum(overlap) / len(overlap), "first": sum(first) / len(first)}))
"""


def table(rows: list[tuple[str, str, str, str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = []
    for n, row in enumerate(rows):
        lines.append("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


STAGES = ("read graph", "read", "load pipeline", "extract", "hash inputs", "resolve", "assemble", "write")


def _timing_figures(run: str, path: Path) -> dict[str, float]:
    """``kg build --timings`` of one run, flattened: ``{run}_stage_{name}``, ``{run}_cpu_{part}``."""
    timings = json.loads(path.read_text(encoding="utf-8"))
    out = {f"{run}_stage_{name}": float(s) for name, s in timings["stages"].items()}
    out.update({f"{run}_cpu_{part}": float(s) for part, s in timings["worker_cpu"].items()})
    return out


def _where_rows(r: dict[str, float], run: str, total: float) -> list[tuple[str, str, str, str]]:
    """Where one run's wall time went, stage by stage, from the CLI's own timers."""
    rows: list[tuple[str, str, str, str]] = []
    for name in STAGES:
        key = f"{run}_stage_{name}"
        if key in r:
            note = ""
            if name == "extract" and f"{run}_cpu_parse" in r:
                parse, extract = r[f"{run}_cpu_parse"], r[f"{run}_cpu_extract"]
                note = (f"workers' CPU: spaCy parse {parse:.1f} s, kg extractors {extract:.1f} s "
                        f"({extract / max(parse, 1e-9):.0%} of the parse)")
            rows.append((f"  {run}: {name}", f"{r[key]:.1f} s", f"{r[key] / total:.0%}", note))
    rest = total - sum(r.get(f"{run}_stage_{name}", 0.0) for name in STAGES)
    rows.append((f"  {run}: the rest", f"{rest:.1f} s", f"{rest / total:.0%}",
                 "interpreter start-up, imports, summary"))
    return rows


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def _build_rows(r: dict[str, float]) -> list[tuple[str, str, str, str]]:
    rows: list[tuple[str, str, str, str]] = []
    rows.append(
        (
            "baseline: spaCy nlp.pipe only",
            f"{r['baseline_s']:.1f} s ({int(r['parsed_docs'])} docs, peak RSS {r['baseline_rss_gb']:.2f} GB, "
            f"CPU {r.get('baseline_cpu_s', 0):.0f} s)",
            "",
            "",
        )
    )
    rows.append(
        (
            "kg build (ingest → write)",
            f"{r['build_s']:.1f} s ({int(r['papers'])} papers, CPU {r.get('build_cpu_s', 0):.0f} s)",
            f"≤ {TARGETS['build_seconds']:.0f} s",
            verdict(r["build_s"] <= TARGETS["build_seconds"]),
        )
    )
    rows.append(
        (
            "ratio build / baseline",
            f"{r['ratio']:.2f}×",
            f"≤ {TARGETS['build_ratio']}×",
            verdict(r["ratio"] <= TARGETS["build_ratio"]),
        )
    )
    rows.append(
        (
            "kg build peak RSS (tree)",
            f"{r['build_rss_gb']:.2f} GB (PSS {r.get('build_pss_gb', 0):.2f} GB)",
            f"≤ {TARGETS['peak_rss_gb']} GB",
            verdict(r["build_rss_gb"] <= TARGETS["peak_rss_gb"]),
        )
    )
    if "records_read" in r:
        built = r["papers"] + r["duplicates_merged"]
        rows.append(
            (
                "records built with default flags",
                f"{int(built)} of {int(r['records_read'])} ({int(r['papers'])} papers, "
                f"{int(r['duplicates_merged'])} merged into an identical abstract, "
                f"{int(r['records_skipped'])} skipped, {int(r['records_warned'])} with a warning)",
                "all",
                verdict(built == r["records_read"] and r["records_skipped"] == 0),
            )
        )
    if "dask_s" in r:
        rows.append(
            (
                "kg build --engine dask (LocalCluster)",
                f"{r['dask_s']:.1f} s (CPU {r['dask_cpu_s']:.0f} s, peak RSS {r['dask_rss_gb']:.2f} GB)",
                "",
                f"{r['dask_s'] / r['build_s']:.2f}× the local build; "
                f"{'the same bytes' if r['dask_same_bytes'] else 'OTHER BYTES'}",
            )
        )
    return rows


def _later_rows(r: dict[str, float], rows: list[tuple[str, str, str, str]]) -> None:
    if "neo4j_rate" in r:
        rows.append(
            (
                "Neo4j export",
                f"{r['neo4j_rate']:,.0f} items/s ({int(r['neo4j_items']):,} in {r['neo4j_s']:.1f} s)",
                f"≥ {TARGETS['neo4j_rate']:,.0f}/s",
                verdict(r["neo4j_rate"] >= TARGETS["neo4j_rate"]),
            )
        )
    if "html_load_s" in r:
        rows.append(
            (
                "HTML papers view load (Chromium)",
                f"{r['html_load_s'] * 1000:,.0f} ms "
                f"({int(r['html_nodes'])} nodes shown, {r['html_bytes'] / 1e6:.1f} MB)",
                f"≤ {TARGETS['html_seconds'] * 1000:,.0f} ms",
                verdict(r["html_load_s"] <= TARGETS["html_seconds"]),
            )
        )
    if "update_s" in r:
        rows.append(
            (
                "kg build --update (+100 papers)",
                f"{r['update_s']:.1f} s",
                f"≤ {TARGETS['update_seconds']:.0f} s",
                verdict(r["update_s"] <= TARGETS["update_seconds"]),
            )
        )
        rows.append(
            (
                "kg compact (fold the 100 into the graph)",
                f"{r['compact_s']:.1f} s",
                "",
                f"pending view's related top 10 vs compacted: overlap {r['pending_related_overlap']:.3f}, "
                f"same first {r['pending_related_first']:.0%}",
            )
        )
        ratio = r["related_index_s"] / r["baseline_s"] if "baseline_s" in r else float("nan")
        rows.append(
            (
                "kg related --write-index (encodes every abstract once)",
                f"{r['related_index_s']:.1f} s ({ratio:.2f}× the baseline; CPU "
                f"{r.get('related_index_cpu_s', float('nan')):.0f} s; peak RSS "
                f"{r['related_index_rss_gb']:.2f} GB, PSS "
                f"{r.get('related_index_pss_gb', float('nan')):.2f} GB: forked encoders share pages)",
                f"≤ {TARGETS['related_index_ratio']}× the baseline",
                verdict(ratio <= TARGETS["related_index_ratio"]),
            )
        )
        rows.append(
            (
                "kg related, median of 50 (loaded)",
                f"{r['related_ms']:.1f} ms",
                f"≤ {TARGETS['related_ms']:.0f} ms",
                verdict(r["related_ms"] <= TARGETS["related_ms"]),
            )
        )
        rows.append(
            (
                "kg related, whole CLI call (median of 5)",
                f"{r['related_cli_s'] * 1000:,.0f} ms",
                "",
                "(includes start-up and graph load)",
            )
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("corpus", nargs="?", default=str(DEFAULT_CORPUS))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--keep", default=None, help="keep the work directory here")
    parser.add_argument("--skip", default="", help="comma list of sections to skip: dask,neo4j,html,update")
    parser.add_argument("--graph", default=None, help="reuse this build of the corpus: skip section 1")
    args = parser.parse_args(argv)
    corpus = Path(args.corpus)
    if not corpus.is_file():
        print(f"bench: corpus {corpus} is absent; nothing to measure (give a JSONL path).")
        return 0
    skip = set(filter(None, args.skip.split(",")))
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="kg-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"bench: corpus {corpus}, {args.workers} worker(s), work dir {work}", flush=True)
    r: dict[str, float] = {}
    if args.graph:  # measure the later sections on an existing build of this corpus
        graph = Path(args.graph)
    else:
        r.update(bench_build(corpus, work, args.workers))
        print(f"bench: build done in {r['build_s']:.1f} s", flush=True)
        graph = work / "graph"
        if "dask" not in skip:
            r.update(bench_dask(corpus, graph, work, args.workers))
            print(f"bench: dask build done in {r['dask_s']:.1f} s", flush=True)
    if "neo4j" not in skip:
        r.update(bench_neo4j(graph, work))
        print("bench: neo4j export done", flush=True)
    if "html" not in skip:
        r.update(bench_html(graph, work))
        print("bench: html load done", flush=True)
    if "update" not in skip:
        r.update(bench_update_and_related(corpus, graph, work, args.workers))
        print("bench: update and related done", flush=True)

    rows = [("measure", "value", "target", "verdict")]
    if "build_s" in r:
        rows.extend(_build_rows(r))
    _later_rows(r, rows)
    print()
    print(table(rows))
    where = [("where the time went (kg build --timings)", "wall", "share", "")]
    if "build_s" in r:
        where.extend(_where_rows(r, "build", r["build_s"]))
        if r.get("baseline_cpu_s"):
            extra = r["build_cpu_s"] - r["baseline_cpu_s"]
            where.append(("  build: CPU of all its processes", f"{r['build_cpu_s']:.0f} s", "",
                          f"baseline {r['baseline_cpu_s']:.0f} s: kg adds {extra:.0f} s of CPU "
                          f"({extra / r['baseline_cpu_s']:.0%})"))
    if "update_s" in r:
        where.extend(_where_rows(r, "update", r["update_s"]))
    if len(where) > 1:
        print()
        print(table(where))
    (work / "bench.json").write_text(json.dumps(r, indent=2, sort_keys=True), encoding="utf-8")
    print(f"\nraw figures: {work / 'bench.json'}")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
