"""The offline Neo4j forms, loaded by the REAL tools users run: cypher-shell and neo4j-admin import.

Each must leave in Neo4j exactly what the Bolt export leaves (same nodes, labels, relationships and
property values), and the import command kg prints must be the one that works.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from kg.export.cypher import export_cypher
from kg.export.neo4j import export_neo4j
from kg.export.neo4j_csv import export_neo4j_csv
from tests.fixtures.export_graph import CONTRACT_NODE_COUNTS, CONTRACT_REL_COUNTS, EVIL, contract_graph
from tests.fixtures.neo4j import Neo4jServer, ServerUnavailable, run_cypher_shell, run_neo4j_admin

pytestmark = pytest.mark.integration


def _bolt_dump(server: Neo4jServer) -> tuple[list, list]:
    server.clear()
    export_neo4j(contract_graph(), server.uri, user=server.user, password=server.password)
    return server.dump()


@pytest.mark.slow
def test_export_cypher_loaded_by_cypher_shell_equals_bolt_export(neo4j_db: Neo4jServer,
                                                                  tmp_path: Path) -> None:
    script = tmp_path / "graph.cypher"
    export_cypher(contract_graph(), script, batch_size=2)
    for _ in range(2):  # loading twice leaves the same graph
        proc = run_cypher_shell(neo4j_db, script)
        assert proc.returncode == 0, proc.stderr
    assert neo4j_db.password not in proc.stdout + proc.stderr
    assert neo4j_db.counts() == (CONTRACT_NODE_COUNTS, CONTRACT_REL_COUNTS)
    loaded = neo4j_db.dump()
    assert any(dict(props).get("canonical") == EVIL for _labels, props in loaded[0])
    assert loaded == _bolt_dump(neo4j_db)


@pytest.mark.slow
def test_export_neo4j_csv_imported_by_neo4j_admin_equals_bolt_export(neo4j_db: Neo4jServer,
                                                                     tmp_path: Path) -> None:
    result = export_neo4j_csv(contract_graph(), tmp_path / "csv")
    command = shlex.split((tmp_path / "csv" / "import.sh").read_text().splitlines()[-1])
    assert command == result.command and command[:4] == ["neo4j-admin", "database", "import", "full"]

    imported = Neo4jServer(tmp_path / "imported")
    proc = run_neo4j_admin([*command[1:], "--threads=1", "--max-off-heap-memory=64m"],
                           home=tmp_path / "admin-home", data_dir=imported.workdir / "data")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "IMPORT DONE" in proc.stdout
    try:
        imported.start()
    except ServerUnavailable as exc:
        pytest.fail(f"the server does not start on the imported data: {exc}")
    try:
        assert imported.counts() == (CONTRACT_NODE_COUNTS, CONTRACT_REL_COUNTS)
        from_csv = imported.dump()
    finally:
        imported.stop()
    assert from_csv == _bolt_dump(neo4j_db)
