"""Faults during `kg export neo4j`: the REAL test server's JVM is killed mid-export.

kg must fail clearly (one line, non-zero exit, no traceback, no password) within a bounded time;
committed batches survive the crash whole (one transaction per batch), and a re-run after the
server is back completes with exactly the expected counts: nothing duplicated, nothing lost.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kg.graphdir import write_graph_dir
from tests.fixtures.export_graph import scaled_graph
from tests.fixtures.neo4j import Neo4jServer

pytestmark = pytest.mark.integration

N_PAPERS = 1000  # scaled_graph: 1000 Paper + 500 Method nodes, 3000 USES + 999 SHARES_TECHNIQUE_WITH
BATCH = 5
# Bounded failure: retries stop after --retry-seconds; allow for a loaded 2-core machine.
FAIL_WITHIN_S = 90.0


def _kg_export(graph_dir: Path, uri: str, password: str, *extra: str) -> list[str]:
    return [sys.executable, "-m", "kg.cli", "export", "neo4j", "-g", str(graph_dir), "--uri", uri, *extra]


def _env(password: str) -> dict[str, str]:
    return {**os.environ, "NEO4J_PASSWORD": password, "NEO4J_USER": "neo4j"}


def _count(server: Neo4jServer, query: str) -> int:
    with server.driver() as driver:
        records, _, _ = driver.execute_query(query)
    return int(records[0]["n"])


def _counts(server: Neo4jServer) -> tuple[int, int, int, int]:
    return (
        _count(server, "MATCH (n:Method) RETURN count(n) AS n"),
        _count(server, "MATCH (n:Paper) RETURN count(n) AS n"),
        _count(server, "MATCH ()-[r:USES]->() RETURN count(r) AS n"),
        _count(server, "MATCH ()-[r:SHARES_TECHNIQUE_WITH]->() RETURN count(r) AS n"),
    )


@pytest.mark.slow
def test_export_neo4j_server_killed_mid_export_then_rerun_is_exact(neo4j_db: Neo4jServer,
                                                                   tmp_path: Path) -> None:
    graph_dir = write_graph_dir(tmp_path / "graph", [], scaled_graph(N_PAPERS), [], {})
    cmd = _kg_export(graph_dir, neo4j_db.uri, neo4j_db.password, "--batch-size", str(BATCH),
                     "--retry-seconds", "3")
    proc = subprocess.Popen(cmd, env=_env(neo4j_db.password), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # Methods are written first (labels in order), then Papers: kill once Papers are arriving.
        deadline = time.monotonic() + 180
        while proc.poll() is None and time.monotonic() < deadline:
            if _count(neo4j_db, "MATCH (n:Paper) RETURN count(n) AS n") >= 100:
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the export ended before the kill; the test would prove nothing"
        neo4j_db.kill()
        killed_at = time.monotonic()
        out, err = proc.communicate(timeout=FAIL_WITHIN_S + 30)
        took = time.monotonic() - killed_at
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()

    assert proc.returncode == 1
    assert took < FAIL_WITHIN_S
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"kg: error: neo4j {neo4j_db.uri}: server unavailable while writing "), err
    assert "re-run the export once the server is back, it is idempotent" in lines[0]
    assert "Traceback" not in err and neo4j_db.password not in out + err

    neo4j_db.start()  # same data directory: what was committed before the crash is still there
    methods, papers, _uses, _shares = _counts(neo4j_db)
    assert methods == N_PAPERS // 2
    assert 100 <= papers < N_PAPERS
    assert papers % BATCH == 0, "a batch was half-written"
    print(f"\nfault observed: exit {proc.returncode} {took:.1f} s after the kill; {papers} of {N_PAPERS} "
          f"papers committed before it; stderr: {lines[0]}")

    rerun = subprocess.run(_kg_export(graph_dir, neo4j_db.uri, neo4j_db.password),
                           env=_env(neo4j_db.password), stdin=subprocess.DEVNULL, capture_output=True,
                           text=True, timeout=600)
    assert rerun.returncode == 0, rerun.stderr
    assert _counts(neo4j_db) == (N_PAPERS // 2, N_PAPERS, 3 * N_PAPERS, N_PAPERS - 1)
    assert _count(neo4j_db, "MATCH (n) RETURN count(n) AS n") == N_PAPERS + N_PAPERS // 2


@pytest.mark.slow
def test_export_neo4j_rides_out_a_restart_within_the_retry_window(neo4j_db: Neo4jServer,
                                                                  tmp_path: Path) -> None:
    graph_dir = write_graph_dir(tmp_path / "graph", [], scaled_graph(N_PAPERS), [], {})
    cmd = _kg_export(graph_dir, neo4j_db.uri, neo4j_db.password, "--batch-size", str(BATCH),
                     "--retry-seconds", "150")
    proc = subprocess.Popen(cmd, env=_env(neo4j_db.password), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 180
        while proc.poll() is None and time.monotonic() < deadline:
            if _count(neo4j_db, "MATCH (n:Paper) RETURN count(n) AS n") >= 100:
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the export ended before the kill; the test would prove nothing"
        neo4j_db.kill()
        neo4j_db.start()  # back on the same data while kg is still retrying the interrupted batch
        _out, err = proc.communicate(timeout=400)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert _counts(neo4j_db) == (N_PAPERS // 2, N_PAPERS, 3 * N_PAPERS, N_PAPERS - 1)


def _closed_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_export_neo4j_no_server_fails_fast_and_clearly(tmp_path: Path) -> None:
    from tests.fixtures.export_graph import contract_graph

    graph_dir = write_graph_dir(tmp_path / "graph", [], contract_graph(), [], {})
    uri = f"bolt://127.0.0.1:{_closed_port()}"
    started = time.monotonic()
    proc = subprocess.run(_kg_export(graph_dir, uri, "secret-never-shown", "--retry-seconds", "2"),
                          env=_env("secret-never-shown"), stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 1
    assert time.monotonic() - started < 60
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"kg: error: neo4j {uri}: server unavailable while connecting")
    assert "secret-never-shown" not in proc.stdout + proc.stderr


@pytest.mark.parametrize("uri", ["http://127.0.0.1:7474", "bolt://", "not a uri"])
def test_export_neo4j_bad_uri_is_a_clear_error(tmp_path: Path, uri: str) -> None:
    from tests.fixtures.export_graph import contract_graph

    graph_dir = write_graph_dir(tmp_path / "graph", [], contract_graph(), [], {})
    proc = subprocess.run(_kg_export(graph_dir, uri, "pw-never-shown"), env=_env("pw-never-shown"),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"kg: error: neo4j: bad server address {uri!r}"), proc.stderr
    assert "Traceback" not in proc.stderr and "pw-never-shown" not in proc.stderr


def test_export_neo4j_credentials_in_uri_refused_without_echo(tmp_path: Path) -> None:
    from tests.fixtures.export_graph import contract_graph

    graph_dir = write_graph_dir(tmp_path / "graph", [], contract_graph(), [], {})
    uri = "bolt://neo4j:pw-in-uri@127.0.0.1:7687"
    proc = subprocess.run(_kg_export(graph_dir, uri, "x"), env=_env("x"), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert proc.stderr == ("kg: error: neo4j: bad server address: put no credentials in the URI "
                           "(use NEO4J_USER / NEO4J_PASSWORD)\n")
