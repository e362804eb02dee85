"""`kg export neo4j` against a REAL Neo4j 5.26 server over Bolt (tests/fixtures/neo4j.py), never a mock.

The graph is the hand-built contract graph (tests/fixtures/export_graph.py), whose counts and
values are written out by hand here, so no expected value comes from the code under test.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kg.errors import ExportError
from kg.export.neo4j import export_neo4j
from kg.graphdir import write_graph_dir
from kg.vocab import rel_type
from tests.fixtures.export_graph import (
    CONTRACT_NODE_COUNTS,
    CONTRACT_REL_COUNTS,
    EVIL,
    EVIL_NODE,
    contract_graph,
)
from tests.fixtures.neo4j import Neo4jServer

pytestmark = pytest.mark.integration

ONTOLOGY_LABELS = ["Bound", "Concept", "Dataset", "Mention", "Method", "Metric", "Paper", "Task"]


def _export(server: Neo4jServer, **kwargs: Any):  # noqa: ANN202
    return export_neo4j(contract_graph(), server.uri, user=server.user, password=server.password, **kwargs)


def test_export_neo4j_counts_equal_the_graph(neo4j_db: Neo4jServer) -> None:
    result = _export(neo4j_db)
    assert neo4j_db.counts() == (CONTRACT_NODE_COUNTS, CONTRACT_REL_COUNTS)
    assert (result.labels, result.types) == (CONTRACT_NODE_COUNTS, CONTRACT_REL_COUNTS)
    assert (result.nodes_written, result.relationships_written) == (11, 15)
    assert result.matches


def test_export_neo4j_bound_properties_read_back_equal(neo4j_db: Neo4jServer) -> None:
    _export(neo4j_db)
    with neo4j_db.driver() as driver:
        records, _, _ = driver.execute_query("MATCH (b:Bound) RETURN properties(b) AS props")
    assert [r["props"] for r in records] == [{
        "key": "bound:p-a:0", "label": "O(1/\\sqrt{T})", "paper": "p-a",
        "form": "formula", "bound_kind": "upper", "notation": "O", "soft": False,
        "latex": "$O(1/\\sqrt{T})$", "expr": "1/sqrt(T)", "variables": ["T"],
        "quantity": "convergence rate", "subject": "stochastic gradient descent",
        "attribution": "this", "start": 11, "end": 26, "confidence": 0.9, "extractor": "bounds.latex.v1",
    }]  # condition=None is absent, not null; kind is the label, not a property too


def test_export_neo4j_evidence_on_relationships(neo4j_db: Neo4jServer) -> None:
    _export(neo4j_db)
    with neo4j_db.driver() as driver:
        records, _, _ = driver.execute_query(
            "MATCH (:Paper {key: 'paper:p-b'})-[r:USES]->(m:Method {key: $key}) "
            "RETURN properties(r) AS props",
            key=EVIL_NODE)
        shares, _, _ = driver.execute_query(
            "MATCH (a:Paper)-[r:SHARES_TASK_WITH]->(b:Paper) RETURN a.key AS a, b.key AS b, r.weight AS w, "
            "r.shared AS shared")
    assert [r["props"] for r in records] == [{
        "start": 0, "end": 4, "text": "Adam",  # the predicate is the type, USES
        "sentence": "Adam uses\nSGD ideas. " + EVIL,
        "extractor": "entities.rules.v1", "confidence": 0.8, "mentions": 1,
    }]
    assert [(r["a"], r["b"], r["w"], r["shared"]) for r in shares] == [
        ("paper:p-a", "paper:p-c", 1.0, [EVIL, "x"])]


def test_export_neo4j_paper_method_paper_paths(neo4j_db: Neo4jServer) -> None:
    _export(neo4j_db)
    with neo4j_db.driver() as driver:
        records, _, _ = driver.execute_query(
            "MATCH (p:Paper)-[r1]->(m:Method)<-[r2]-(q:Paper) WHERE p.key < q.key "
            "RETURN p.key AS p, type(r1) AS r1, m.key AS m, type(r2) AS r2, q.key AS q")
    assert sorted(tuple(r.values()) for r in records) == [
        ("paper:p-a", "PROPOSES", "Method:stochastic-gradient-descent", "USES", "paper:p-b")]


def test_export_neo4j_three_runs_identical(neo4j_db: Neo4jServer) -> None:
    _export(neo4j_db)
    first = neo4j_db.dump()
    for _ in range(2):
        result = _export(neo4j_db)
        assert (result.labels, result.types) == (CONTRACT_NODE_COUNTS, CONTRACT_REL_COUNTS)
    assert neo4j_db.dump() == first
    assert len(first[0]) == 11 and len(first[1]) == 15


def test_export_neo4j_constraints_exist(neo4j_db: Neo4jServer) -> None:
    neo4j_db.clear(schema=True)
    _export(neo4j_db)
    with neo4j_db.driver() as driver:
        records, _, _ = driver.execute_query(
            "SHOW CONSTRAINTS YIELD name, type, labelsOrTypes, properties "
            "RETURN name, type, labelsOrTypes, properties ORDER BY name")
    assert sorted((r["labelsOrTypes"][0], r["type"], r["properties"]) for r in records) == [
        (label, "UNIQUENESS", ["key"]) for label in ONTOLOGY_LABELS]
    names = sorted(f"kg_{label.lower()}_key" for label in ONTOLOGY_LABELS)
    assert sorted(r["name"] for r in records) == names


def test_export_neo4j_malicious_name_stored_verbatim_and_harmless(neo4j_db: Neo4jServer) -> None:
    with neo4j_db.driver() as driver:
        driver.execute_query("CREATE (:Bystander {name: 'must survive'})")
    _export(neo4j_db)
    with neo4j_db.driver() as driver:
        records, _, _ = driver.execute_query(
            "MATCH (m:Method {key: $key}) RETURN m.canonical AS canonical, m.label AS label", key=EVIL_NODE)
        titles, _, _ = driver.execute_query("MATCH (p:Paper {key: 'paper:p-a'}) RETURN p.title AS title")
        bystanders, _, _ = driver.execute_query("MATCH (b:Bystander) RETURN b.name AS name")
    assert [(r["canonical"], r["label"]) for r in records] == [(EVIL, EVIL)]
    assert [r["title"] for r in titles] == ["Stochastic gradient descent for " + EVIL]
    assert [r["name"] for r in bystanders] == ["must survive"]
    labels, types = neo4j_db.counts()
    assert labels == {**CONTRACT_NODE_COUNTS, "Bystander": 1}
    assert types == CONTRACT_REL_COUNTS


def test_export_neo4j_replace_removes_only_project_labels(neo4j_db: Neo4jServer) -> None:
    with neo4j_db.driver() as driver:
        driver.execute_query("CREATE (:Method {key: 'Method:stale', canonical: 'stale'})"
                             "-[:USES]->(:Bystander {name: 'kept'})")
    result = _export(neo4j_db, replace=True)
    assert result.replaced
    labels, types = neo4j_db.counts()
    assert labels == {**CONTRACT_NODE_COUNTS, "Bystander": 1}
    assert types == CONTRACT_REL_COUNTS  # the stale USES went with its Method


def test_export_neo4j_without_replace_reports_extra_nodes(neo4j_db: Neo4jServer) -> None:
    with neo4j_db.driver() as driver:
        driver.execute_query("CREATE (:Method {key: 'Method:stale'})")
    result = _export(neo4j_db)
    assert result.labels == {**CONTRACT_NODE_COUNTS, "Method": 3}
    assert not result.matches
    assert "use --replace" in result.summary()


def test_export_neo4j_wrong_password_fails_clearly_without_echo(neo4j_db: Neo4jServer) -> None:
    wrong = "not-the-password-" + neo4j_db.password[-6:]
    with pytest.raises(ExportError) as info:
        export_neo4j(contract_graph(), neo4j_db.uri, user="neo4j", password=wrong)
    assert str(info.value) == (f"neo4j {neo4j_db.uri}: authentication failed for user 'neo4j' "
                               "(check NEO4J_USER / NEO4J_PASSWORD)")
    assert wrong not in str(info.value)


def test_export_neo4j_cli_prints_summary_never_the_password(neo4j_db: Neo4jServer, tmp_path: Path) -> None:
    graph_dir = write_graph_dir(tmp_path / "graph", [], contract_graph(), [], {})
    env = {**os.environ, "NEO4J_PASSWORD": neo4j_db.password, "NEO4J_USER": "neo4j"}
    proc = subprocess.run(
        [sys.executable, "-m", "kg.cli", "export", "neo4j", "-g", str(graph_dir), "--uri", neo4j_db.uri],
        env=env, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    assert neo4j_db.password not in proc.stdout + proc.stderr
    assert f"neo4j {neo4j_db.uri}: wrote 11 nodes and 15 relationships" in proc.stderr
    assert ("nodes in the database:         "
            "Bound 1, Concept 1, Dataset 1, Method 2, Metric 2, Paper 3, Task 1") in proc.stderr
    assert neo4j_db.counts() == (CONTRACT_NODE_COUNTS, CONTRACT_REL_COUNTS)
    help_text = subprocess.run([sys.executable, "-m", "kg.cli", "export", "neo4j", "--help"], env=env,
                               capture_output=True, text=True, timeout=60).stdout
    assert neo4j_db.password not in help_text


@pytest.mark.parametrize(("batch_size", "sessions"), [(1, 1), (3, 1), (500, 1), (1, 2), (1, 3), (3, 2)])
def test_export_neo4j_batch_size_and_sessions_do_not_change_the_result(
    neo4j_db: Neo4jServer, batch_size: int, sessions: int
) -> None:
    result = _export(neo4j_db, batch_size=batch_size, sessions=sessions)
    assert neo4j_db.counts() == (CONTRACT_NODE_COUNTS, CONTRACT_REL_COUNTS)
    # 7 labels and 13 (type, start label, end label) groups; batches = sum of ceil(rows / size).
    assert result.batches == {1: 26, 3: 20, 500: 20}[batch_size]
    # With one row per batch and several sessions, every relationship still found both ends:
    # node batches all commit before the first relationship batch goes out.
    with neo4j_db.driver() as driver:
        records, _, _ = driver.execute_query(
            "MATCH (a)-[r]->(b) RETURN a.key AS a, type(r) AS t, b.key AS b")
    expected = sorted((u, rel_type(k), v) for u, v, k in contract_graph().edges(keys=True))
    assert sorted((r["a"], r["t"], r["b"]) for r in records) == expected


def test_export_neo4j_sessions_must_be_positive(neo4j_db: Neo4jServer) -> None:
    with pytest.raises(ExportError, match="sessions must be at least 1, got 0"):
        _export(neo4j_db, sessions=0)
    assert neo4j_db.counts() == ({}, {})


@pytest.mark.parametrize("scheme", ["bolt", "neo4j"])
def test_export_neo4j_direct_and_routing_schemes(neo4j_db: Neo4jServer, scheme: str) -> None:
    uri = neo4j_db.uri.replace("bolt://", f"{scheme}://")
    result = export_neo4j(contract_graph(), uri, user=neo4j_db.user, password=neo4j_db.password,
                          database="neo4j")
    assert (result.labels, result.types) == (CONTRACT_NODE_COUNTS, CONTRACT_REL_COUNTS)


def test_export_neo4j_unknown_database_is_a_clear_error(neo4j_db: Neo4jServer) -> None:
    with pytest.raises(ExportError) as info:
        _export(neo4j_db, database="nosuchdb")
    message = str(info.value)
    expected = f"neo4j {neo4j_db.uri}: Neo.ClientError.Database.DatabaseNotFound while "
    assert message.startswith(expected), message
    assert neo4j_db.password not in message
    assert neo4j_db.counts() == ({}, {})


def test_export_neo4j_creates_only_groups_the_database_lacks(neo4j_db: Neo4jServer) -> None:
    from kg.export.neo4j import _fresh_groups
    from kg.export.neo4j_model import RelBatchKey, node_groups, relationship_groups

    nodes, rels = node_groups(contract_graph()), relationship_groups(contract_graph())
    with neo4j_db.driver() as driver, driver.session() as session:
        labels, groups = _fresh_groups(session, nodes, rels)
        assert labels == set(CONTRACT_NODE_COUNTS) and groups == set(rels)
        # a Task already there: Task nodes and every relationship reaching a Task are MERGEd
        session.run("CREATE (:Task {key: 'Task:elsewhere'})").consume()
        labels, groups = _fresh_groups(session, nodes, rels)
        assert labels == set(CONTRACT_NODE_COUNTS) - {"Task"}
        assert groups == {k for k in rels if "Task" not in (k.start_label, k.end_label)}
        # a USES relationship out of some Paper: every USES group from Paper is MERGEd
        session.run("CREATE (:Paper {key: 'paper:elsewhere'})-[:USES]->(:Method {key: 'Method:x'})").consume()
        labels, groups = _fresh_groups(session, nodes, rels)
        assert labels == set(CONTRACT_NODE_COUNTS) - {"Task", "Paper", "Method"}
        assert groups == {
            RelBatchKey("BOUNDS_QUANTITY", "Bound", "Concept"),
            RelBatchKey("BROADER_QUANTITY", "Metric", "Metric"),
        }


def test_export_neo4j_after_losing_some_relationships_restores_exactly(neo4j_db: Neo4jServer) -> None:
    # what an export killed in its relationship phase leaves: the re-run MERGEs, never duplicates
    _export(neo4j_db)
    complete = neo4j_db.dump()
    with neo4j_db.driver() as driver:
        driver.execute_query("MATCH (:Paper)-[r:USES|SHARES_TASK_WITH]->() DELETE r")
    result = _export(neo4j_db)
    assert result.matches and neo4j_db.dump() == complete
