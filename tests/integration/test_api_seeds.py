"""kg's Python API on the real seeds: built in memory it is the reviewed graph; loaded from the
build directory it gives the records, related work with explanations, SPARQL rows, a filled pyvis
Network and the page ``kg export html`` writes."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import networkx as nx
import pytest
from pyvis.network import Network
from rdflib import Graph
from rdflib.compare import isomorphic

import kg
from kg.cli import main
from kg.types import Bound, Extraction, Mention
from tests.fixtures.graph import REPO

pytestmark = pytest.mark.integration

GOLDEN = REPO / "tests" / "data" / "golden" / "seeds_graph.ttl"


@pytest.fixture(scope="module")
def memory_graph() -> Iterator[kg.KnowledgeGraph]:
    """``kg.build("seeds/")`` run in the checkout, as a reader of the README would."""
    before = Path.cwd()
    os.chdir(REPO)
    try:
        yield kg.build("seeds/")
    finally:
        os.chdir(before)


@pytest.fixture(scope="module")
def seed_graph(seed_graph_dir: Path) -> kg.KnowledgeGraph:
    return kg.load(seed_graph_dir)


def test_api_build_in_memory_is_the_golden_seeds_graph(memory_graph: kg.KnowledgeGraph) -> None:
    assert memory_graph.directory is None and memory_graph.run is not None
    assert memory_graph.run.report.papers == 50 and memory_graph.run.extracted == 50
    assert isomorphic(memory_graph.rdf, Graph().parse(GOLDEN, format="turtle"))


def test_api_build_in_memory_has_the_records_and_graph_of_a_build(
    memory_graph: kg.KnowledgeGraph, seed_graph: kg.KnowledgeGraph, seed_nx_graph: nx.MultiDiGraph,
) -> None:
    assert [p.id for p in memory_graph.papers] == [p.id for p in seed_graph.papers]
    assert [len(p.entities) for p in memory_graph.papers] == [len(p.entities) for p in seed_graph.papers]
    assert list(memory_graph.nx.nodes) == list(seed_nx_graph.nodes)
    assert memory_graph.nx.number_of_edges() == seed_nx_graph.number_of_edges()


def test_api_loaded_seeds_have_typed_records(seed_graph: kg.KnowledgeGraph) -> None:
    papers = seed_graph.papers
    assert len(papers) == 50 and [p.id for p in papers] == sorted(p.id for p in papers)
    assert all(isinstance(p, Extraction) and p.title and p.abstract for p in papers)
    entities = [e for p in papers for e in p.entities]
    assert entities and all(isinstance(e, Mention) for e in entities)
    assert {e.type for e in entities} == {"Method", "Task", "Dataset", "Metric", "Concept"}
    assert all(p.abstract[e.start:e.end] == e.text for p in papers for e in p.entities)
    assert sum(1 for p in papers for b in p.bounds if isinstance(b, Bound)) > 10
    assert isinstance(seed_graph.rdf, Graph) and isinstance(seed_graph.nx, nx.MultiDiGraph)


def test_api_related_explains_every_result(seed_graph: kg.KnowledgeGraph) -> None:
    for paper in seed_graph.papers:
        results = seed_graph.related(paper.id, top=3)
        assert len(results) == 3, paper.id
        assert paper.id not in [r.id for r in results]
        assert [r.score for r in results] == sorted((r.score for r in results), reverse=True)
        assert all(r.explanation for r in results), paper.id


def test_api_related_takes_a_record_or_a_title(seed_graph: kg.KnowledgeGraph) -> None:
    paper = next(p for p in seed_graph.papers if p.id == "p-9898d1ffb550")
    by_id = [r.id for r in seed_graph.related(paper.id, top=5)]
    assert [r.id for r in seed_graph.related(paper, top=5)] == by_id
    assert [r.id for r in seed_graph.related(paper.title.rstrip("…"), top=5)] == by_id


def test_api_sparql_and_cypher_give_rows(seed_graph: kg.KnowledgeGraph) -> None:
    count = seed_graph.query("SELECT (COUNT(?p) AS ?n) WHERE { ?p a kg:Paper }")
    assert (count.columns, count.rows) == (["n"], [[50]])
    ids = {p.id for p in seed_graph.papers}
    lower = seed_graph.query("regret-lower-bounds")
    assert lower.rows and {row[lower.columns.index("paper")] for row in lower.rows} <= ids
    cypher = seed_graph.query("MATCH (p:Paper) RETURN p.id")
    assert sorted(row[0] for row in cypher.rows) == sorted(ids)


def test_api_pyvis_network_is_filled_with_groups(seed_graph: kg.KnowledgeGraph,
                                                 seed_nx_graph: nx.MultiDiGraph) -> None:
    capped = seed_graph.to_pyvis(view="full", max_nodes=200)
    assert len(capped.nodes) == 200 < seed_nx_graph.number_of_nodes()
    everything = seed_nx_graph.number_of_nodes() + seed_nx_graph.number_of_edges()
    net = seed_graph.to_pyvis(view="full", max_nodes=everything, max_edges=everything)
    assert isinstance(net, Network)
    assert len(net.nodes) == seed_nx_graph.number_of_nodes()
    assert len(net.edges) == seed_nx_graph.number_of_edges()
    groups = {node["id"]: node["group"] for node in net.nodes}
    for node, data in seed_nx_graph.nodes(data=True):
        expected = f"topic {data['topic']}" if data["kind"] == "Paper" else data["kind"]
        assert groups[node] == expected
    assert {"Method", "Task", "Dataset", "Metric", "Concept", "Bound"} <= set(groups.values())
    assert all(node["title"] and node["label"] for node in net.nodes)


def test_api_write_html_is_the_page_of_kg_export_html(seed_graph: kg.KnowledgeGraph, seed_graph_dir: Path,
                                                      tmp_path: Path) -> None:
    page = seed_graph.write_html(tmp_path / "api.html", view="papers")
    assert (page.view, page.nodes) == ("papers", 50)
    assert main(["export", "html", "-g", str(seed_graph_dir), "-o", str(tmp_path / "cli.html"),
                 "--view", "papers"]) == 0
    assert (tmp_path / "api.html").read_bytes() == (tmp_path / "cli.html").read_bytes()
