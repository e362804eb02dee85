"""Every injection payload (tests/data/injection_payloads.json) reaches the REAL Neo4j verbatim, over
Bolt and through the real cypher-shell script, and none of them runs as Cypher."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.export.cypher import export_cypher
from kg.export.neo4j import export_neo4j
from tests.fixtures.export_graph import payload_graph, payloads
from tests.fixtures.neo4j import Neo4jServer, run_cypher_shell

pytestmark = pytest.mark.integration

PAYLOADS = payloads()


def _read_back(server: Neo4jServer) -> None:
    with server.driver() as driver:
        driver.execute_query("CREATE (:Bystander {name: 'still here'})")
        methods, _, _ = driver.execute_query(
            "MATCH (p:Paper)-[r:USES]->(m:Method) RETURN m.key AS key, m.canonical AS canonical, "
            "m.aliases AS aliases, p.title AS title, p.abstract AS abstract, p.authors AS authors, "
            "r.sentence AS sentence ORDER BY key")
        bystanders, _, _ = driver.execute_query("MATCH (b:Bystander) RETURN count(b) AS n")
    assert [r["key"] for r in methods] == [f"Method:payload-{i:02d}" for i in range(len(PAYLOADS))]
    for record, text in zip(methods, PAYLOADS, strict=True):
        got = (record["canonical"], record["aliases"], record["title"], record["abstract"],
               record["authors"], record["sentence"])
        assert got == (text, [text], text, text, [text, "Plain Author"], text)
    assert bystanders[0]["n"] == 1
    assert server.counts() == ({"Bystander": 1, "Method": 24, "Paper": 24}, {"USES": 24})


def test_payloads_verbatim_over_bolt(neo4j_db: Neo4jServer) -> None:
    export_neo4j(payload_graph(), neo4j_db.uri, user=neo4j_db.user, password=neo4j_db.password, batch_size=7)
    _read_back(neo4j_db)


@pytest.mark.slow
def test_payloads_verbatim_through_cypher_shell(neo4j_db: Neo4jServer, tmp_path: Path) -> None:
    script = tmp_path / "payloads.cypher"
    export_cypher(payload_graph(), script, batch_size=5)
    proc = run_cypher_shell(neo4j_db, script)
    assert proc.returncode == 0, proc.stderr
    _read_back(neo4j_db)
