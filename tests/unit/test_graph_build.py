"""Build orchestration: build, --update and remove give the same bytes as a full rebuild.

The pipeline here is the real :class:`kg.pipeline.Pipeline` around a blank spaCy English
pipeline (sentencizer only, offline) and a small lexicon extractor written for these tests:
the orchestration and the cache are what is tested, not the extractors.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterable
from pathlib import Path

import pytest
import spacy

from extractors.base import ParsedPaper
from kg.build import build_graph, remove_papers, update_graph
from kg.errors import GraphDirError
from kg.graphdir import load_manifest, load_nx, lock
from kg.pipeline import Pipeline
from kg.types import Bound, Mention

GRAPH_FILES = ("graph.ttl", "graph.json", "extractions.jsonl")
LEXICON = {
    "transformer": "Method",
    "LoRA": "Method",
    "RLHF": "Method",
    "summarization": "Task",
    "translation": "Task",
    "ImageNet": "Dataset",
    "regret": "Metric",
}


class LexiconExtractor:
    """Exact-match lexicon mentions plus `$O(...)$` upper bounds on regret; counts its calls."""

    name = "entities.testlexicon.v1"

    def __init__(self) -> None:
        self.calls = 0

    def extract(self, parsed: ParsedPaper) -> Iterable[Mention | Bound]:
        self.calls += 1
        text = parsed.paper.abstract
        for word, etype in LEXICON.items():
            for m in re.finditer(rf"\b{re.escape(word)}\b", text):
                role = "proposed" if text[: m.start()].endswith("propose ") else None
                yield Mention(
                    etype, word, m.start(), m.end(), word.lower(), role, 0.9, self.name, 0, len(text)
                )
        for m in re.finditer(r"\$O\(([^$]*)\)\$", text):
            yield Bound(
                "formula",
                "upper",
                "O",
                False,
                m.group(0),
                m.group(1),
                (),
                "regret",
                None,
                "this",
                None,
                m.start(),
                m.end(),
                0.8,
                "bounds.testlexicon.v1",
            )


@pytest.fixture()
def pipeline() -> Pipeline:
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    return Pipeline(nlp, "blank-en", ["entities"], [LexiconExtractor()])


def _jsonl(path: Path, rows: list[tuple[str, str]]) -> str:
    path.write_text(
        "".join(json.dumps({"id": i, "title": f"T {i}", "abstract": a}) + "\n" for i, a in rows),
        encoding="utf-8",
    )
    return str(path)


OLD = [
    ("a1", "A transformer with LoRA for summarization achieves $O(\\sqrt{T})$ regret."),
    ("a2", "LoRA fine-tuning of a transformer for summarization."),
    ("a3", "RLHF for translation with a transformer."),
]
NEW = [
    ("b1", "RLHF for translation on ImageNet."),
    ("b2", "LoRA and RLHF together for summarization."),
]


def _same_graph(a: Path, b: Path) -> None:
    for name in GRAPH_FILES:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_build_writes_the_contract_layout(tmp_path: Path, pipeline: Pipeline) -> None:
    src = _jsonl(tmp_path / "old.jsonl", OLD)
    result = build_graph([src], tmp_path / "out", pipeline=pipeline, workers=1)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "extractions.jsonl",
        "graph.json",
        "graph.ttl",
        "manifest.json",
    ]
    manifest = load_manifest(tmp_path / "out")
    assert manifest["extractors"]["entities"] == "entities.testlexicon.v1"
    assert manifest["extractors"]["spacy"] == "blank-en-0.0.0"
    assert set(manifest["extractors"]) == {"entities", "patterns", "spacy"}
    assert re.fullmatch(r"sha256:[0-9a-f]{12}", manifest["extractors"]["patterns"])
    assert manifest["inputs"][src].startswith("sha256:")
    assert manifest["counts"]["nodes"] == {"Bound": 1, "Metric": 1, "Method": 3, "Paper": 3, "Task": 2}
    assert (result.extracted, result.reused) == (3, 0)
    assert [json.loads(x)["id"] for x in (tmp_path / "out/extractions.jsonl").read_text().splitlines()] == [
        "a1",
        "a2",
        "a3",
    ]


def test_build_twice_is_byte_identical(tmp_path: Path, pipeline: Pipeline) -> None:
    src = _jsonl(tmp_path / "old.jsonl", OLD)
    build_graph([src], tmp_path / "one", pipeline=pipeline, workers=1)
    build_graph([src], tmp_path / "two", pipeline=pipeline, workers=1)
    _same_graph(tmp_path / "one", tmp_path / "two")
    assert (tmp_path / "one/manifest.json").read_bytes() == (tmp_path / "two/manifest.json").read_bytes()


def test_build_reuses_cached_records(tmp_path: Path, pipeline: Pipeline) -> None:
    src = _jsonl(tmp_path / "old.jsonl", OLD)
    build_graph([src], tmp_path / "out", pipeline=pipeline, workers=1)
    calls = pipeline.extractors[0].calls
    result = build_graph([src], tmp_path / "out", pipeline=pipeline, workers=1)
    assert (result.extracted, result.reused) == (0, 3)
    assert pipeline.extractors[0].calls == calls


def test_a_changed_rule_table_invalidates_the_cached_records(
    tmp_path: Path, pipeline: Pipeline, monkeypatch: pytest.MonkeyPatch
) -> None:
    import kg.pipeline

    src = _jsonl(tmp_path / "old.jsonl", OLD)
    build_graph([src], tmp_path / "out", pipeline=pipeline, workers=1)
    tables = tmp_path / "patterns"
    shutil.copytree(kg.pipeline.PATTERNS_DIR, tables)
    with open(tables / "aliases.jsonl", "a", encoding="utf-8") as fh:  # one more alias, no new extractor name
        alias = {"id": "alias.test", "canonical": "running time", "type": "Metric", "names": ["wall time"]}
        fh.write(json.dumps(alias) + "\n")
    monkeypatch.setattr(kg.pipeline, "PATTERNS_DIR", tables)
    kg.pipeline.patterns_digest.cache_clear()
    try:
        result = build_graph([src], tmp_path / "out", pipeline=pipeline, workers=1)
    finally:
        kg.pipeline.patterns_digest.cache_clear()
    assert (result.extracted, result.reused) == (3, 0)


def test_build_update_equals_rebuild(tmp_path: Path, pipeline: Pipeline) -> None:
    old = _jsonl(tmp_path / "old.jsonl", OLD)
    new = _jsonl(tmp_path / "new.jsonl", NEW)
    build_graph([old], tmp_path / "inc", pipeline=pipeline, workers=1)
    calls = pipeline.extractors[0].calls
    result = update_graph(tmp_path / "inc", [new], pipeline=pipeline, workers=1)
    assert (result.extracted, result.reused) == (2, 3)
    assert pipeline.extractors[0].calls == calls + 2
    build_graph([old, new], tmp_path / "full", pipeline=pipeline, workers=1, use_cache=False)
    _same_graph(tmp_path / "inc", tmp_path / "full")


def test_build_remove_equals_rebuild(tmp_path: Path, pipeline: Pipeline) -> None:
    # the removed papers come from their own file, so the kept ones have the same sources
    kept = _jsonl(tmp_path / "kept.jsonl", [r for r in OLD + NEW if r[0] not in {"a1", "b1"}])
    gone = _jsonl(tmp_path / "gone.jsonl", [r for r in OLD + NEW if r[0] in {"a1", "b1"}])
    build_graph([kept, gone], tmp_path / "inc", pipeline=pipeline, workers=1)
    remove_papers(tmp_path / "inc", ["a1", "paper:b1"])
    build_graph([kept], tmp_path / "full", pipeline=pipeline, workers=1)
    _same_graph(tmp_path / "inc", tmp_path / "full")
    g = load_nx(tmp_path / "inc")
    # ImageNet and the bound were supported only by the removed papers
    assert "Dataset:imagenet" not in g and not any(n.startswith("bound:") for n in g)


def test_build_remove_unknown_paper_is_an_error(tmp_path: Path, pipeline: Pipeline) -> None:
    src = _jsonl(tmp_path / "old.jsonl", OLD)
    build_graph([src], tmp_path / "out", pipeline=pipeline, workers=1)
    with pytest.raises(GraphDirError, match="'zz'"):
        remove_papers(tmp_path / "out", ["zz"])


def test_build_update_of_missing_dir_is_an_error(tmp_path: Path, pipeline: Pipeline) -> None:
    new = _jsonl(tmp_path / "new.jsonl", NEW)
    with pytest.raises(GraphDirError, match="not a graph directory"):
        update_graph(tmp_path / "nothing", [new], pipeline=pipeline, workers=1)


def test_build_refuses_a_locked_directory(tmp_path: Path, pipeline: Pipeline) -> None:
    src = _jsonl(tmp_path / "old.jsonl", OLD)
    with lock(tmp_path / "out"), pytest.raises(GraphDirError, match="locked"):
        build_graph([src], tmp_path / "out", pipeline=pipeline, workers=1)


def test_build_failure_keeps_the_old_graph(tmp_path: Path, pipeline: Pipeline) -> None:
    src = _jsonl(tmp_path / "old.jsonl", OLD)
    build_graph([src], tmp_path / "out", pipeline=pipeline, workers=1)
    shutil.copytree(tmp_path / "out", tmp_path / "before")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x", "title": "t"}\n', encoding="utf-8")  # no abstract
    with pytest.raises(Exception):  # noqa: B017 - the reader's InputError
        build_graph([str(bad)], tmp_path / "out", pipeline=pipeline, workers=1)
    _same_graph(tmp_path / "out", tmp_path / "before")


def test_build_cache_hits_a_paper_whose_derived_title_was_refined(tmp_path: Path, pipeline: Pipeline) -> None:
    src = tmp_path / "untitled.jsonl"
    src.write_text(
        json.dumps({"id": "u1", "abstract": "We propose LoRA for summarization."}) + "\n", encoding="utf-8"
    )
    build_graph([str(src)], tmp_path / "out", pipeline=pipeline, workers=1)
    # the pipeline labels an untitled paper by the coined method it proposes
    assert load_nx(tmp_path / "out").nodes["paper:u1"]["title"] == "LoRA"
    result = build_graph([str(src)], tmp_path / "out", pipeline=pipeline, workers=1)
    assert (result.extracted, result.reused) == (0, 1)


def test_build_cli_remove(tmp_path: Path, pipeline: Pipeline, capsys: pytest.CaptureFixture[str]) -> None:
    from kg.cli import main

    src = _jsonl(tmp_path / "old.jsonl", OLD)
    build_graph([src], tmp_path / "out", pipeline=pipeline, workers=1)
    assert main(["remove", str(tmp_path / "out"), "a2"]) == 0
    assert capsys.readouterr().err == f"removed 1 paper(s) from {tmp_path / 'out'}; 2 left\n"
    assert main(["remove", str(tmp_path / "out"), "a2"]) == 2
    assert capsys.readouterr().err == f"kg: error: {tmp_path / 'out'}: no paper with id 'a2' in the graph\n"


@pytest.mark.parametrize("extra", [[], ["-o", "x", "--update", "y"]])
def test_build_cli_needs_exactly_one_target(extra: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    from kg.cli import main

    assert main(["build", "seeds", *extra]) == 2
    expected = "kg: error: kg build: give exactly one of -o DIR (new build) or --update DIR\n"
    assert capsys.readouterr().err == expected
