"""docs/python-api.md runs as written: every ``python`` block in order, in one namespace, against
the seeds, each ``text`` block under one compared with what it printed (``...`` stands for any
text, as in doctest); the ``python neo4j`` blocks against the real Neo4j test server."""

from __future__ import annotations

import contextlib
import doctest
import io
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.graph import REPO
from tests.fixtures.neo4j import Neo4jServer

pytestmark = pytest.mark.integration

DOC = REPO / "docs" / "python-api.md"
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```\s*$", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Block:
    line: int
    tags: tuple[str, ...]  # ("python",) or ("python", "neo4j")
    code: str
    shown: str | None  # the text block right under it, if any


def doc_blocks() -> list[Block]:
    text = DOC.read_text(encoding="utf-8")
    fences = [(text.count("\n", 0, m.start()) + 1, tuple(m.group(1).split()), m.group(2))
              for m in FENCE.finditer(text)]
    blocks = []
    for i, (line, tags, body) in enumerate(fences):
        if tags[:1] == ("python",):
            following = fences[i + 1] if i + 1 < len(fences) else None
            shown = following[2] if following and following[1] == ("text",) else None
            blocks.append(Block(line, tags, body, shown))
    return blocks


def run_block(block: Block, namespace: dict[str, Any]) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block.code, f"{DOC.name}:{block.line}", "exec"), namespace)  # noqa: S102
    if block.shown is not None:
        checker = doctest.OutputChecker()
        flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
        assert checker.check_output(block.shown, out.getvalue(), flags), (
            f"{DOC.name}:{block.line} printed\n{out.getvalue()}\nbut the page shows\n{block.shown}"
        )


@contextlib.contextmanager
def in_directory(path: Path) -> Iterator[None]:
    before = Path.cwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


@pytest.fixture(scope="module")
def walkthrough(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, Any]]]:
    """A directory holding ``seeds/`` (as the page's reader's checkout does) and the namespace the
    page's blocks share; the plain ``python`` blocks run in the test below."""
    work = tmp_path_factory.mktemp("python-api")
    (work / "seeds").symlink_to(REPO / "seeds")
    yield work, {"__name__": "python_api_walkthrough"}


def test_docs_python_api_has_blocks_to_run() -> None:
    blocks = doc_blocks()
    assert len([b for b in blocks if b.tags == ("python",)]) >= 8
    assert [b for b in blocks if b.tags == ("python", "neo4j")]
    assert all(b.shown is not None for b in blocks)  # every block says what it prints


def test_docs_python_api_blocks_run_and_print_what_the_page_shows(
    walkthrough: tuple[Path, dict[str, Any]],
) -> None:
    work, namespace = walkthrough
    with in_directory(work):
        for block in doc_blocks():
            if block.tags == ("python",):
                run_block(block, namespace)
    assert (work / "out" / "graph.ttl").is_file()
    assert (work / "seeds-pyvis.html").is_file() and (work / "seeds.html").is_file()


def test_docs_python_api_neo4j_blocks_run_on_a_real_server(
    walkthrough: tuple[Path, dict[str, Any]], neo4j_db: Neo4jServer, monkeypatch: pytest.MonkeyPatch,
) -> None:
    work, namespace = walkthrough
    if "graph" not in namespace:
        pytest.fail("the walk-through's plain blocks did not run first (run the whole module)")
    monkeypatch.setenv("NEO4J_URI", neo4j_db.uri)
    monkeypatch.setenv("NEO4J_USER", neo4j_db.user)
    monkeypatch.setenv("NEO4J_PASSWORD", neo4j_db.password)
    with in_directory(work):
        for block in doc_blocks():
            if block.tags == ("python", "neo4j"):
                run_block(block, namespace)
    assert neo4j_db.counts()[0]["Paper"] == 50
