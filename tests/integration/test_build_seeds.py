"""The real build of the seed abstracts: shapes, agreement, named queries, determinism, incremental."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from rdflib import RDF

from kg.builder import build_graph, update_graph
from kg.graphdir import graph_counts, load_manifest, rdf_counts, validate_rdf
from kg.query import named_queries, run_named
from kg.vocab import KG
from tests.fixtures.graph import SEEDS_DIR

pytestmark = pytest.mark.integration

GRAPH_FILES = ("graph.ttl", "graph.json", "extractions.jsonl")


def _bandit_paper(seed_nx_graph) -> str:  # noqa: ANN001
    """The batched 1-bit linear bandit paper, found by its abstract (not by a hard-coded id)."""
    found = [
        d["id"]
        for _n, d in seed_nx_graph.nodes(data=True)
        if d["kind"] == "Paper"
        and "single bit of feedback" in d["abstract"]
        and "stochastic linear bandits" in d["abstract"]
    ]
    assert len(found) == 1
    return found[0]


def test_build_seeds_has_the_50_papers(seed_graph_dir: Path) -> None:
    manifest = load_manifest(seed_graph_dir)
    assert manifest["counts"]["nodes"]["Paper"] == 50
    assert manifest["report"]["duplicates_merged"] == 1
    assert set(manifest["extractors"]) == {"bounds", "entities", "patterns", "relations", "spacy"}
    assert len(manifest["inputs"]) == 3


def test_build_seeds_validates_against_shapes(seed_rdf_graph) -> None:  # noqa: ANN001
    conforms, text = validate_rdf(seed_rdf_graph)
    assert conforms, text[:3000]


def test_build_seeds_rdf_agrees_with_networkx(seed_nx_graph, seed_rdf_graph) -> None:  # noqa: ANN001
    counts = graph_counts(seed_nx_graph)
    assert set(counts["nodes"]) == {"Paper", "Method", "Task", "Dataset", "Metric", "Concept", "Bound"}
    assert rdf_counts(seed_rdf_graph) == counts
    evidence = sum(1 for _u, _v, d in seed_nx_graph.edges(data=True) if "sentence" in d)
    assert len(set(seed_rdf_graph.subjects(RDF.type, KG.Mention))) == evidence


def test_build_seeds_evidence_points_into_the_abstract(seed_nx_graph) -> None:  # noqa: ANN001
    checked = 0
    for u, _v, d in seed_nx_graph.edges(data=True):
        if "sentence" in d:
            abstract = seed_nx_graph.nodes[u]["abstract"]
            assert abstract[d["start"] : d["end"]] == d["text"]
            assert d["text"] in d["sentence"] and d["sentence"] in abstract
            checked += 1
    assert checked > 500


def test_build_seeds_relation_evidence_is_a_sentence_holding_both_ends(seed_nx_graph, seed_rdf_graph) -> None:  # noqa: ANN001
    from kg.vocab import ENTITY_ENTITY_PROPERTIES

    g = seed_nx_graph
    edges = [(u, v, k, d) for u, v, k, d in g.edges(keys=True, data=True) if k in ENTITY_ENTITY_PROPERTIES]
    assert len({k for _u, _v, k, _d in edges}) >= 5, "the seeds state relations of most types"
    for u, v, _k, d in edges:
        assert g.nodes[u]["kind"] != "Paper" and g.nodes[v]["kind"] != "Paper"
        assert d["papers"] == len({e["paper"] for e in d["evidence"]}) >= 1
        assert d["confidence"] == max(e["confidence"] for e in d["evidence"])
        for e in d["evidence"]:
            paper = f"paper:{e['paper']}"
            sentence = g.nodes[paper]["abstract"][e["start"] : e["end"]]
            # both ends are entities that paper mentions; the span is a non-empty sentence
            assert g.has_edge(paper, u) and g.has_edge(paper, v)
            assert sentence.strip() and 0.0 <= e["confidence"] <= 1.0
    evidence = sum(len(d["evidence"]) for *_e, d in edges)
    assert len(set(seed_rdf_graph.subjects(RDF.type, KG.RelationEvidence))) == evidence


@pytest.mark.parametrize("language", ["sparql", "cypher"])
def test_build_seeds_regret_lower_bounds_find_the_batched_bandit_paper(
    seed_graph_dir: Path,
    seed_nx_graph,
    language: str,  # noqa: ANN001
) -> None:
    rows = run_named(seed_graph_dir, "regret-lower-bounds", {}, language).rows
    assert _bandit_paper(seed_nx_graph) in {row[0] for row in rows}


def test_build_seeds_every_named_query_returns_rows(seed_graph_dir: Path, seed_nx_graph) -> None:  # noqa: ANN001
    bandit = _bandit_paper(seed_nx_graph)
    linked = sorted(u for u, _v, k in seed_nx_graph.edges(keys=True) if k == "sharesTechniqueWith")[0]
    # a method some paper uses or proposes, taken from the graph (the extractor decides which)
    method = next(
        seed_nx_graph.nodes[v]["canonical"]
        for _u, v, k in sorted(seed_nx_graph.edges(keys=True))
        if k in ("uses", "proposes") and seed_nx_graph.nodes[v]["kind"] == "Method"
    )
    other = sorted((u, v) for u, v, k in seed_nx_graph.edges(keys=True) if k == "sharesTechniqueWith")[0][1]
    # the bandit papers' family in the curated taxonomy (kg/concepts/data/taxonomy.jsonl)
    params = {"paper": bandit, "topic": "0", "method": method, "family": "bandit algorithms"}
    empty = []
    for name, query in named_queries().items():
        for language in query.texts:
            if name in ("methods-used-for-task", "method-datasets", "method-kinds"):
                # relations hold between particular entities: the files' own examples (seeds names)
                raw = {p.name: p.example or "" for p in query.params}
            elif name == "shared-techniques":
                raw = {"paper": linked.removeprefix("paper:")}
            elif name == "shared-concepts":  # the two ends of a technique link
                raw = {"paper": linked.removeprefix("paper:"), "other": other.removeprefix("paper:")}
            else:
                raw = {p.name: params[p.name] for p in query.params}
            if not run_named(seed_graph_dir, name, raw, language).rows:
                empty.append((name, language))
    assert empty == []


def test_build_seeds_sqrt_t_upper_bounds_include_the_bandit_regret(
    seed_graph_dir: Path, seed_nx_graph
) -> None:  # noqa: ANN001
    rows = run_named(seed_graph_dir, "sqrt-t-upper-bounds", {}, "sparql").rows
    assert (_bandit_paper(seed_nx_graph), "dB + d sqrt(T)") in {(r[0], r[3]) for r in rows}


@pytest.mark.slow
def test_build_seeds_twice_is_byte_identical(seed_graph_dir: Path, tmp_path: Path) -> None:
    build_graph([str(SEEDS_DIR)], tmp_path / "again", use_cache=False)
    for name in (*GRAPH_FILES, "manifest.json"):
        assert (tmp_path / "again" / name).read_bytes() == (seed_graph_dir / name).read_bytes(), name


def test_build_seeds_update_equals_rebuild(seed_graph_dir: Path, tmp_path: Path) -> None:
    files = sorted(str(p) for p in SEEDS_DIR.glob("*.txt"))
    target = tmp_path / "inc"
    # Start from the first two files (records reused from a copy of the full build's cache) ...
    shutil.copytree(seed_graph_dir, target)
    first = build_graph(files[:2], target)
    assert first.extracted == 0
    # ... then add the third one incrementally: only its new papers are extracted.
    result = update_graph(target, files[2:])
    assert 0 < result.extracted < 20
    for name in GRAPH_FILES:
        assert (target / name).read_bytes() == (seed_graph_dir / name).read_bytes(), name


def test_build_seeds_timings_account_for_the_run(tmp_path: Path) -> None:
    result = build_graph([str(SEEDS_DIR)], tmp_path / "timed", use_cache=False, workers=2)
    timings = result.report.timings()
    stages = timings["stages"]
    assert list(stages) == ["read", "load pipeline", "extract", "hash inputs", "resolve", "assemble", "write"]
    assert all(v >= 0 for v in stages.values())
    assert sum(stages.values()) <= timings["seconds"] + 0.01  # stages do not overlap
    assert stages["extract"] > 0 and stages["write"] > 0
    # the seeds are one chunk, so the parse ran in this process: both parts were measured
    assert timings["worker_cpu"]["parse"] > 0 and timings["worker_cpu"]["extract"] > 0
    assert "stages" not in load_manifest(tmp_path / "timed")["report"]  # the build stays deterministic


def test_build_seeds_pending_update_is_read_everywhere_and_compacts_to_a_rebuild(
        seed_graph_dir: Path, seed_pending_dir: Path, tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    from kg.builder import compact_graph
    from kg.graphdir import load_nx, load_rdf

    work = seed_pending_dir.parent
    for name in GRAPH_FILES:  # pending, not rewritten
        assert (seed_pending_dir / name).read_bytes() == (work / "before" / name).read_bytes(), name
    held = [json.loads(line)["id"] for line in (work / "new.jsonl").read_text(encoding="utf-8").splitlines()]
    g, rdf = load_nx(seed_pending_dir), load_rdf(seed_pending_dir)
    assert all(f"paper:{pid}" in g for pid in held)
    assert load_manifest(seed_pending_dir)["counts"] == graph_counts(g) == rdf_counts(rdf)
    conforms, report = validate_rdf(rdf)
    assert conforms, report
    kg = [sys.executable, "-m", "kg.cli"]
    shown = subprocess.run([*kg, "related", held[0], "-g", str(seed_pending_dir), "--json", "--top", "3"],
                           capture_output=True, text=True, timeout=600)
    assert shown.returncode == 0, shown.stderr
    doc = json.loads(shown.stdout)
    assert doc["query"]["id"] == held[0] and len(doc["related"]) == 3
    assert all(r["shared"] or r["similar"] or r["bounds"] or r["terms"] or r["close"] for r in doc["related"])
    stats = subprocess.run([*kg, "stats", "-g", str(seed_pending_dir)], capture_output=True, text=True,
                           timeout=600)
    assert "pending: 4 papers added since" in stats.stdout

    target = tmp_path / "inc"
    shutil.copytree(seed_pending_dir, target)
    compact_graph(target)
    assert not list(target.glob("pending-*"))
    full = tmp_path / "full"
    shutil.copytree(seed_graph_dir, full)
    build_graph([str(work / "base.jsonl"), str(work / "new.jsonl")], full)
    for name in GRAPH_FILES:
        assert (target / name).read_bytes() == (full / name).read_bytes(), name
