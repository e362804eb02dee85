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


def test_neo4j_fixture_bench_server_options(tmp_path: Path) -> None:
    capped = fixture.Neo4jServer(tmp_path / "a").jvm_options()
    assert capped == fixture.jvm_args()  # the tests' server: exactly jvm.args
    sized = fixture.Neo4jServer(tmp_path / "b", heap="2g", full_jit=True, gc="Parallel").jvm_options()
    assert {"-Xms2g", "-Xmx2g", "-XX:+UseParallelGC"} <= set(sized)
    # one collector and no JIT cap left, the rest of jvm.args kept
    assert [a for a in sized if a.endswith("GC") and a.startswith("-XX:+Use")] == ["-XX:+UseParallelGC"]
    assert not any(a.startswith(("-XX:TieredStopAtLevel", "-Xmx512m")) for a in sized)
    assert "--add-opens=java.base/java.nio=ALL-UNNAMED" in sized
