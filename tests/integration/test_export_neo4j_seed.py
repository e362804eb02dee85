"""The real seed build (``kg build seeds/``) exported to the REAL Neo4j test server over Bolt.

Expected values are read from the networkx graph directly (counted, walked), never from the
exporter's own row builders: Neo4j must hold the same nodes per kind, relationships per predicate,
paper → method → paper paths, and bound properties.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import networkx as nx
import pytest

from kg.export.neo4j import export_neo4j
from kg.vocab import rel_type
from tests.fixtures.neo4j import Neo4jServer

pytestmark = pytest.mark.integration


@pytest.fixture()
def seed_in_neo4j(neo4j_db: Neo4jServer, seed_nx_graph: nx.MultiDiGraph) -> Neo4jServer:
    export_neo4j(seed_nx_graph, neo4j_db.uri, user=neo4j_db.user, password=neo4j_db.password)
    return neo4j_db


def test_export_neo4j_seed_counts_equal_the_graph(seed_in_neo4j: Neo4jServer,
                                                  seed_nx_graph: nx.MultiDiGraph) -> None:
    kinds = Counter(d["kind"] for _n, d in seed_nx_graph.nodes(data=True))
    predicates = Counter(rel_type(k) for _u, _v, k in seed_nx_graph.edges(keys=True))
    assert kinds["Paper"] == 50 and kinds["Method"] > 0 and kinds["Bound"] > 0
    assert seed_in_neo4j.counts() == (dict(sorted(kinds.items())), dict(sorted(predicates.items())))


def test_export_neo4j_seed_paper_method_paper_paths(seed_in_neo4j: Neo4jServer,
                                                    seed_nx_graph: nx.MultiDiGraph) -> None:
    g = seed_nx_graph
    expected = set()
    for m, data in g.nodes(data=True):
        if data["kind"] != "Method":
            continue
        papers = sorted({u for u, _v, k in g.in_edges(m, keys=True)
                         if g.nodes[u]["kind"] == "Paper" and k in ("proposes", "uses")})
        expected |= {(p, m, q) for p in papers for q in papers if p < q}
    with seed_in_neo4j.driver() as driver:
        records, _, _ = driver.execute_query(
            "MATCH (p:Paper)-[:PROPOSES|USES]->(m:Method)<-[:PROPOSES|USES]-(q:Paper) WHERE p.key < q.key "
            "RETURN p.key AS p, m.key AS m, q.key AS q")
    assert expected, "the seed graph has no method shared by two papers"
    assert {(r["p"], r["m"], r["q"]) for r in records} == expected


def _as_stored(value: Any) -> Any:
    """How a networkx value reads back from Neo4j: tuples as lists; None and [] are absent."""
    return list(value) if isinstance(value, tuple) else value


def test_export_neo4j_seed_bound_properties_read_back_equal(seed_in_neo4j: Neo4jServer,
                                                            seed_nx_graph: nx.MultiDiGraph) -> None:
    bounds = {n: d for n, d in seed_nx_graph.nodes(data=True) if d["kind"] == "Bound"}
    with seed_in_neo4j.driver() as driver:
        records, _, _ = driver.execute_query("MATCH (b:Bound) RETURN b.key AS key, properties(b) AS props")
    stored = {r["key"]: r["props"] for r in records}
    assert sorted(stored) == sorted(bounds)
    for node, attrs in bounds.items():
        expected = {k: _as_stored(v) for k, v in attrs.items()
                    if v is not None and v != [] and v != () and k != "kind"}  # the label says the kind
        assert stored[node] == {**expected, "key": node}, node


def test_export_neo4j_seed_relations_carry_their_evidence(seed_in_neo4j: Neo4jServer,
                                                         seed_nx_graph: nx.MultiDiGraph) -> None:
    import json

    from kg.vocab import ENTITY_ENTITY_PROPERTIES

    expected = {(u, rel_type(k), v): d for u, v, k, d in seed_nx_graph.edges(keys=True, data=True)
                if k in ENTITY_ENTITY_PROPERTIES}
    assert expected, "the seed graph has no entity-entity relation"
    with seed_in_neo4j.driver() as driver:
        records, _, _ = driver.execute_query(
            "MATCH (a)-[r:USED_FOR|FEATURE_OF|HYPONYM_OF|PART_OF|COMPARED_WITH|CONJUNCTION|EVALUATED_FOR]"
            "->(b) "
            "RETURN a.key AS a, type(r) AS t, b.key AS b, r.confidence AS confidence, r.papers AS papers, "
            "r.evidence AS evidence")
    stored = {(r["a"], r["t"], r["b"]): r for r in records}
    assert sorted(stored) == sorted(expected)
    for key, d in expected.items():
        r = stored[key]
        assert (r["confidence"], r["papers"]) == (d["confidence"], d["papers"])
        # a list of maps is stored as a list of JSON texts, one per evidence entry
        assert [json.loads(e) for e in r["evidence"]] == d["evidence"]


def test_export_neo4j_of_a_graph_with_pending_papers_holds_them(
        neo4j_db: Neo4jServer, seed_pending_dir) -> None:  # noqa: ANN001
    from kg.graphdir import load_node_link, load_nx

    export_neo4j(load_node_link(seed_pending_dir), neo4j_db.uri, user=neo4j_db.user,
                 password=neo4j_db.password)
    g = load_nx(seed_pending_dir)
    kinds = Counter(d["kind"] for _n, d in g.nodes(data=True))
    predicates = Counter(rel_type(k) for _u, _v, k in g.edges(keys=True))
    assert kinds["Paper"] == 50
    assert neo4j_db.counts() == (dict(sorted(kinds.items())), dict(sorted(predicates.items())))
    pending = sorted(n for n, d in g.nodes(data=True) if d["kind"] == "Paper"
                     and n not in load_nx(seed_pending_dir, pending=False))
    assert len(pending) == 4
    with neo4j_db.driver() as driver:
        records, _, _ = driver.execute_query(
            "MATCH (p:Paper)-[r]->(e) WHERE p.key IN $keys RETURN p.key AS p, type(r) AS t, e.key AS e",
            keys=pending)
    assert {(r["p"], r["t"], r["e"]) for r in records} == {
        (u, rel_type(k), v) for u, v, k in g.edges(keys=True) if u in pending}
