"""The Neo4j test-server fixture's contract: under CI a server that cannot start FAILS, never skips."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fixtures import neo4j as fixture


@pytest.mark.parametrize("ci,outcome", [("true", pytest.fail.Exception), ("", pytest.skip.Exception),
                                        ("false", pytest.skip.Exception)])
def test_neo4j_fixture_unavailable_fails_under_ci(monkeypatch: pytest.MonkeyPatch, ci: str, outcome) -> None:
    monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match="run `make neo4j-jars`"):
        fixture._unavailable("no jars: run `make neo4j-jars`")


def test_neo4j_fixture_missing_jars_is_server_unavailable(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    monkeypatch.setattr(fixture, "NEO4J_LIB", tmp_path / "lib")
    server = fixture.Neo4jServer(tmp_path / "server")
    with pytest.raises(fixture.ServerUnavailable, match="run `make neo4j-jars`"):
        server.start()
    assert not server.running


def test_neo4j_fixture_jvm_args_cap_memory_and_open_modules() -> None:
    args = fixture.jvm_args()
    assert "-Xmx512m" in args
    assert {"--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED"} <= set(args)
    assert not any(a.startswith("#") or not a for a in args)
