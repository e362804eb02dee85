"""kg's Python API (kg.api) on a hand-built graph: loading, queries, pyvis, files; no spaCy."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest
from pyvis.network import Network
from rdflib import Graph
from rdflib.compare import isomorphic

import kg
from kg.assemble import rdf_triples, to_rdflib
from kg.errors import ConfigError, GraphDirError, QueryError
from kg.export.html import HtmlPage
from kg.export.pyvis import to_network
from kg.graphdir import GRAPH_JSON, GRAPH_TTL, NodeLink, turtle_lines
from kg.nodelink import write_node_link
from tests.fixtures.export_graph import EVIL, contract_graph


def _memory_graph() -> kg.KnowledgeGraph:
    return kg.KnowledgeGraph(nx_graph=contract_graph(), records=[])


def _graph_dir(tmp_path: Path) -> Path:
    """A directory holding only graph.json and graph.ttl of the contract graph (no manifest)."""
    directory = tmp_path / "graph"
    directory.mkdir()
    graph = contract_graph()
    with open(directory / GRAPH_JSON, "wb") as fh:
        write_node_link(fh, graph)
    (directory / GRAPH_TTL).write_text("".join(turtle_lines(rdf_triples(graph))), encoding="utf-8")
    return directory


def test_api_names_come_from_kg_itself() -> None:
    assert kg.build is kg.api.build and kg.load is kg.api.load and kg.KnowledgeGraph is kg.api.KnowledgeGraph
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        kg.nothing  # noqa: B018


def test_api_load_refuses_what_is_not_a_directory(tmp_path: Path) -> None:
    with pytest.raises(GraphDirError, match="not a graph directory"):
        kg.load(tmp_path / "missing")


def test_api_loaded_graph_reads_each_file_when_asked(tmp_path: Path) -> None:
    directory = _graph_dir(tmp_path)
    graph = kg.load(directory)
    assert graph.directory == directory and graph.run is None
    assert isinstance(graph.nx, nx.MultiDiGraph) and graph.nx.number_of_nodes() == 11
    assert isinstance(graph.rdf, Graph) and isomorphic(graph.rdf, to_rdflib(contract_graph()))
    with pytest.raises(GraphDirError, match="manifest.json is missing"):
        graph.papers  # noqa: B018 - extractions.jsonl is read only through the manifest


def test_api_memory_graph_has_rdf_of_its_networkx_graph() -> None:
    graph = _memory_graph()
    assert graph.directory is None and graph.papers == []
    assert isomorphic(graph.rdf, to_rdflib(contract_graph()))
    with pytest.raises(ConfigError, match="built in memory"):
        graph.write_related_index()


def test_api_graph_needs_a_directory_or_a_graph_and_records() -> None:
    with pytest.raises(ConfigError, match="needs a build directory"):
        kg.KnowledgeGraph(nx_graph=contract_graph())


@pytest.mark.parametrize(
    ("text", "columns", "rows"),
    [
        ("SELECT ?id WHERE { ?p a kg:Paper ; dcterms:identifier ?id } ORDER BY ?id", ["id"],
         [["p-a"], ["p-b"], ["p-c"]]),
        ("MATCH (p:Paper) RETURN p.id ORDER BY p.id", ["p.id"], [["p-a"], ["p-b"], ["p-c"]]),
        ("  match (d:Dataset) RETURN d.label", ["d.label"], [["ImageNet"]]),
    ],
)
def test_api_query_tells_sparql_from_cypher(text: str, columns: list[str], rows: list[list[object]]) -> None:
    result = _memory_graph().query(text)
    assert (result.columns, result.rows) == (columns, rows)


def test_api_query_binds_parameters_as_values() -> None:
    graph = _memory_graph()
    sparql = graph.query("SELECT ?t WHERE { ?p dcterms:identifier ?id ; dcterms:title ?t }", id="p-c")
    cypher = graph.query("MATCH (p:Paper) WHERE p.id = $id RETURN p.title", params={"id": "p-c"})
    assert sparql.rows == cypher.rows == [["Über Zufall: ∑ and ∞"]]


def test_api_query_runs_a_named_query_by_its_name() -> None:
    graph = _memory_graph()
    sparql = graph.query("method-papers", method="stochastic gradient descent")
    cypher = graph.query("method-papers", language="cypher", method="stochastic gradient descent")
    assert [(r[0], r[2]) for r in sparql.rows] == [("p-a", "kg:proposes"), ("p-b", "kg:uses")]
    assert sorted((r[0], r[2]) for r in cypher.rows) == [("p-a", "PROPOSES"), ("p-b", "USES")]
    with pytest.raises(QueryError, match="unknown named query 'no-such-query'; known: "):
        graph.query("no-such-query")


def test_pyvis_network_has_every_node_with_group_title_and_shape() -> None:
    net = to_network(contract_graph(), view="full")
    assert isinstance(net, Network)
    nodes = {n["id"]: n for n in net.nodes}
    assert len(nodes) == 11 and len(net.edges) == contract_graph().number_of_edges()
    assert nodes["paper:p-a"]["group"] == "topic 0" and nodes["paper:p-c"]["group"] == "topic 1"
    assert nodes["Method:stochastic-gradient-descent"]["group"] == "Method"
    assert nodes["Method:stochastic-gradient-descent"]["shape"] == "diamond"
    assert nodes["bound:p-a:0"]["group"] == "Bound"
    assert nodes["Method:stochastic-gradient-descent"]["title"].startswith("stochastic gradient descent\n")
    assert "aliases: SGD" in nodes["Method:stochastic-gradient-descent"]["title"]


def test_pyvis_network_links_papers_by_what_they_share() -> None:
    net = to_network(contract_graph(), view="papers")
    assert sorted(n["id"] for n in net.nodes) == ["paper:p-a", "paper:p-b", "paper:p-c"]
    by_ends = {(e["from"], e["to"]): e for e in net.edges}
    technique = by_ends[("paper:p-a", "paper:p-b")]
    assert technique["label"] == "stochastic gradient descent" and technique["value"] == 0.5
    assert technique["arrows"] == ""  # a symmetric link
    assert by_ends[("paper:p-a", "paper:p-c")]["title"].startswith(f"sharesTaskWith\nshared: {EVIL}")


def test_pyvis_network_keeps_html_in_a_title_as_text() -> None:
    graph = contract_graph()
    graph.nodes["paper:p-a"]["abstract"] = 'See <a href="https://example.org">this</a>.'
    net = to_network(graph, view="papers")
    title = next(n["title"] for n in net.nodes if n["id"] == "paper:p-a")
    assert "href" not in title and "https://example.org" in title


def test_pyvis_network_takes_pyvis_options_and_writes_its_page(tmp_path: Path) -> None:
    net = _memory_graph().to_pyvis(view="papers", height="400px", max_nodes=2)
    assert net.height == "400px" and len(net.nodes) == 2
    net.show_buttons(filter_=["physics"])
    net.write_html(str(tmp_path / "net.html"))
    page = (tmp_path / "net.html").read_text(encoding="utf-8")
    assert '"id": "paper:p-b"' in page and '"id": "paper:p-a"' not in page and "physics" in page


def test_api_write_html_of_a_memory_graph_is_the_page_of_its_directory(tmp_path: Path) -> None:
    from_memory = _memory_graph().write_html(tmp_path / "memory.html", view="papers")
    from_directory = kg.load(_graph_dir(tmp_path)).write_html(tmp_path / "directory.html", view="papers")
    assert isinstance(from_memory, HtmlPage) and from_memory.nodes == from_directory.nodes == 3
    assert (tmp_path / "memory.html").read_bytes() == (tmp_path / "directory.html").read_bytes()


def test_api_items_are_read_without_networkx_until_it_is_loaded(tmp_path: Path) -> None:
    graph = kg.load(_graph_dir(tmp_path))
    items = graph.items()
    assert isinstance(items, NodeLink) and len(items) == 11 + contract_graph().number_of_edges()
    assert graph.items() is items
    assert graph.nx is graph.items()


def test_api_exports_write_their_files(tmp_path: Path) -> None:
    graph = kg.load(_graph_dir(tmp_path))
    assert graph.write_graphml(tmp_path / "g.graphml").nodes == 11
    assert graph.write_gexf(tmp_path / "g.gexf").edges == contract_graph().number_of_edges()
    assert {p.name for p in graph.write_csv(tmp_path / "csv").paths} == {"nodes.csv", "edges.csv"}
    assert graph.write_cypher(tmp_path / "g.cypher").nodes == 11
    result, data = graph.write_rdf(None, "nt")
    assert result.triples == len(graph.rdf) and data.count(b"\n") == len(graph.rdf)
