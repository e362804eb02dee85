"""Cypher on a REAL Neo4j server (`kg query cypher --neo4j URI`) agrees with the embedded engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.errors import QueryError
from kg.export.neo4j import export_neo4j
from kg.query import run_cypher_neo4j, run_named, run_query
from tests.fixtures.neo4j import Neo4jServer

pytestmark = pytest.mark.integration

REGRET_LOWER = (
    "MATCH (p:Paper)-[:CLAIMS_BOUND]->(b:Bound)-[:BOUNDS_QUANTITY]->(q:Metric) "
    'WHERE b.bound_kind = "lower" AND q.canonical CONTAINS "regret" '
    "RETURN p.id, b.latex ORDER BY p.id, b.latex"
)


@pytest.fixture()
def loaded(neo4j_db: Neo4jServer, seed_nx_graph) -> Neo4jServer:  # noqa: ANN001
    export_neo4j(seed_nx_graph, neo4j_db.uri, user=neo4j_db.user, password=neo4j_db.password)
    return neo4j_db


def _neo4j(server: Neo4jServer) -> dict[str, str]:
    return {"neo4j_uri": server.uri, "neo4j_user": server.user, "neo4j_password": server.password}


def test_query_neo4j_matches_embedded(loaded: Neo4jServer, seed_graph_dir: Path) -> None:
    embedded = run_query(seed_graph_dir, "cypher", REGRET_LOWER)
    server = run_query(seed_graph_dir, "cypher", REGRET_LOWER, **_neo4j(loaded))
    assert server.rows == embedded.rows
    assert len(server.rows) >= 1


def test_query_neo4j_named_query_with_parameter(
    loaded: Neo4jServer, seed_graph_dir: Path, seed_nx_graph
) -> None:  # noqa: ANN001
    paper = sorted(d["id"] for _n, d in seed_nx_graph.nodes(data=True) if d["kind"] == "Paper")[0]
    server = run_named(seed_graph_dir, "edge-evidence", {"paper": paper}, "cypher", **_neo4j(loaded))
    embedded = run_named(seed_graph_dir, "edge-evidence", {"paper": paper}, "cypher")
    assert sorted(map(repr, server.rows)) == sorted(map(repr, embedded.rows))
    assert server.rows


def test_query_neo4j_parameters_are_not_pasted(loaded: Neo4jServer) -> None:
    hostile = '"}) MATCH (n) DETACH DELETE n //'
    result = run_cypher_neo4j(
        loaded.uri,
        "MATCH (p:Paper {id: $paper}) RETURN p.id",
        {"paper": hostile},
        user=loaded.user,
        password=loaded.password,
    )
    assert result.rows == []
    assert loaded.counts()[0]["Paper"] == 50


def test_query_neo4j_syntax_error_is_a_query_error(loaded: Neo4jServer) -> None:
    with pytest.raises(QueryError, match="Cypher query failed on bolt://"):
        run_cypher_neo4j(loaded.uri, "MATCH (p:Paper RETURN p", user=loaded.user, password=loaded.password)
