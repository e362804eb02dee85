"""Build orchestration: build, --update and remove give the same bytes as a full rebuild.

The pipeline here is the real :class:`kg.pipeline.Pipeline` around a blank spaCy English
pipeline (sentencizer only, offline) and a small lexicon extractor written for these tests:
the orchestration and the cache are what is tested, not the extractors.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
from collections.abc import Iterable
from pathlib import Path

import pytest
import spacy

from extractors.base import ParsedPaper
from kg.builder import build_graph, remove_papers, update_graph
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
    # Method: transformer, LoRA, RLHF and the taxonomy families above them no paper names
    # (large language models, neural networks, machine learning methods)
    assert manifest["counts"]["nodes"] == {"Bound": 1, "Metric": 1, "Method": 6, "Paper": 3, "Task": 2}
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


# ------------------------------------------------------------------ pending additions (kg.pending)

MORE = [  # a base large enough that two new papers stay pending (kg.pending.COMPACT_RATIO)
    (f"c{i:02d}", f"{word} with a transformer for {task}, study {i}.")
    for i, (word, task) in enumerate(
        [("LoRA", "summarization"), ("RLHF", "translation"), ("LoRA", "translation")] * 12)
]


def _pending_setup(tmp_path: Path, pipeline: Pipeline) -> tuple[str, str, str]:
    old = _jsonl(tmp_path / "old.jsonl", OLD + MORE)
    new = _jsonl(tmp_path / "new.jsonl", NEW)
    build_graph([old], tmp_path / "inc", pipeline=pipeline, workers=1)
    return old, new, str(tmp_path / "inc")


def test_update_keeps_new_papers_pending_over_an_untouched_graph(tmp_path: Path, pipeline: Pipeline) -> None:
    from kg.assemble import to_rdflib
    from kg.graphdir import graph_counts, load_extractions, load_rdf

    old, new, inc = _pending_setup(tmp_path, pipeline)
    before = {name: (Path(inc) / name).read_bytes() for name in GRAPH_FILES}
    result = update_graph(inc, [new], pipeline=pipeline, workers=1)
    assert (result.extracted, result.reused) == (2, 0)
    assert {name: (Path(inc) / name).read_bytes() for name in GRAPH_FILES} == before
    assert sorted(p.name for p in Path(inc).glob("pending-*")) == ["pending-1.json", "pending-1.jsonl"]
    manifest = load_manifest(inc)
    assert manifest["pending"]["papers"] == 2 and manifest["pending"]["generation"] == 1

    g = load_nx(inc)
    assert {"paper:b1", "paper:b2"} <= set(g) and len(load_extractions(inc)) == 41
    # the new papers' mentions resolve to the graph's entities; ImageNet is new
    assert g.has_edge("paper:b2", "Method:lora", "uses")
    assert g.has_edge("paper:b1", "Dataset:imagenet", "evaluatesOn")
    full_counts = sum(1 for e in load_extractions(inc) if "rlhf" in e.paper.abstract.lower())
    assert g.nodes["Method:rlhf"]["papers"] == full_counts
    assert manifest["counts"] == graph_counts(g)
    # the RDF reader lays the same delta over graph.ttl: the triples of the merged graph
    assert set(load_rdf(inc)) == set(to_rdflib(g))


def test_update_pending_files_are_the_same_bytes_every_time(tmp_path: Path, pipeline: Pipeline) -> None:
    _old, new, inc = _pending_setup(tmp_path, pipeline)
    shutil.copytree(inc, tmp_path / "twin")
    for target in (inc, tmp_path / "twin"):
        update_graph(target, [new], pipeline=pipeline, workers=1)
    for name in ("pending-1.json", "pending-1.jsonl", "manifest.json"):
        assert (Path(inc) / name).read_bytes() == (tmp_path / "twin" / name).read_bytes(), name


def test_update_pending_papers_match_a_rebuild_paper_by_paper(tmp_path: Path, pipeline: Pipeline) -> None:
    old, new, inc = _pending_setup(tmp_path, pipeline)
    update_graph(inc, [new], pipeline=pipeline, workers=1)
    build_graph([old, new], tmp_path / "full", pipeline=pipeline, workers=1, use_cache=False)
    g, full = load_nx(inc), load_nx(tmp_path / "full")
    for pid in ("paper:b1", "paper:b2"):
        mine = {k: v for k, v in g.nodes[pid].items() if k != "topic"}
        assert mine == {k: v for k, v in full.nodes[pid].items() if k != "topic"}
        def entity_edges(graph, pid=pid):  # noqa: ANN001, ANN202
            return sorted((v, k, tuple(sorted(d.items())))
                          for _u, v, k, d in graph.out_edges(pid, keys=True, data=True) if "sentence" in d)

        assert entity_edges(g) == entity_edges(full)


def test_update_pending_links_weigh_what_they_share_by_rarity_among_all_papers(
        tmp_path: Path, pipeline: Pipeline) -> None:
    old, new, inc = _pending_setup(tmp_path, pipeline)
    update_graph(inc, [new], pipeline=pipeline, workers=1)
    g = load_nx(inc)
    papers = [n for n, d in g.nodes(data=True) if d["kind"] == "Paper"]
    assert len(papers) == 41

    def links_of(graph, paper: str) -> dict[str, tuple[str, float, list[str]]]:  # noqa: ANN001
        return {v if u == paper else u: (k, d["weight"], d["shared"])
                for u, v, k, d in graph.edges(keys=True, data=True) if "via" in d and paper in (u, v)}

    pending = links_of(g, "paper:b2")
    assert pending  # LoRA and RLHF are shared with the base papers
    # RLHF is shared with 14 papers, LoRA with more than half of them (not used): b2 keeps its top
    # 10 and the base papers that would rank it among their own 10 keep it, as in a rebuild, with
    # the weights and shared concepts of a rebuild
    assert len(pending) > 10
    build_graph([old, new], tmp_path / "full", pipeline=pipeline, workers=1, use_cache=False)
    full = load_nx(tmp_path / "full")
    rebuilt = links_of(full, "paper:b2")
    assert set(pending) == set(rebuilt)
    for other, (key, weight, shared) in pending.items():
        assert (key, shared) == (rebuilt[other][0], rebuilt[other][2])
        assert weight == pytest.approx(rebuilt[other][1], abs=1e-6)
    # its topic is the one its links to base papers weigh most, over every link type
    votes: dict[int, float] = {}
    for u, v, d in g.edges(data=True):
        other = v if u == "paper:b2" else u if v == "paper:b2" else None
        if "shared" in d and other is not None and not other.startswith("paper:b"):
            votes[g.nodes[other]["topic"]] = votes.get(g.nodes[other]["topic"], 0.0) + d["weight"]
    assert len(votes) >= 2 and g.nodes["paper:b2"]["topic"] == max(votes, key=lambda t: (votes[t], -t))


def test_update_again_recomputes_the_pending_delta_and_compact_equals_a_rebuild(
        tmp_path: Path, pipeline: Pipeline) -> None:
    from kg.builder import compact_graph

    old, new, inc = _pending_setup(tmp_path, pipeline)
    update_graph(inc, [new], pipeline=pipeline, workers=1)
    third = _jsonl(tmp_path / "third.jsonl", [("b3", "We propose LoRA for translation.")])
    update_graph(inc, [third], pipeline=pipeline, workers=1)
    assert sorted(p.name for p in Path(inc).glob("pending-*")) == ["pending-2.json", "pending-2.jsonl"]
    assert load_manifest(inc)["pending"]["papers"] == 3
    assert load_nx(inc).has_edge("paper:b3", "Method:lora", "proposes")
    compact_graph(inc)
    assert list(Path(inc).glob("pending-*")) == [] and "pending" not in load_manifest(inc)
    build_graph([old, new, third], tmp_path / "full", pipeline=pipeline, workers=1, use_cache=False)
    _same_graph(Path(inc), tmp_path / "full")


def test_update_compacts_when_an_abstract_changes_or_when_asked(tmp_path: Path, pipeline: Pipeline) -> None:
    old, new, inc = _pending_setup(tmp_path, pipeline)
    update_graph(inc, [new], pipeline=pipeline, workers=1)
    edited = _jsonl(tmp_path / "edited.jsonl", [("a2", "RLHF fine-tuning of a transformer for translation.")])
    result = update_graph(inc, [edited], pipeline=pipeline, workers=1)
    assert result.extracted == 1 and list(Path(inc).glob("pending-*")) == []
    rows = [r for r in OLD + MORE if r[0] != "a2"]
    rows.append(("a2", "RLHF fine-tuning of a transformer for translation."))
    build_graph([_jsonl(tmp_path / "all.jsonl", rows), new], tmp_path / "full", pipeline=pipeline, workers=1)
    assert set(load_nx(inc).edges(keys=True)) == set(load_nx(tmp_path / "full").edges(keys=True))

    asked = _jsonl(tmp_path / "asked.jsonl", [("b4", "LoRA on ImageNet.")])
    update_graph(inc, [asked], pipeline=pipeline, workers=1, compact=True)
    assert list(Path(inc).glob("pending-*")) == []


def test_update_of_a_known_paper_from_another_file_adds_its_source(
        tmp_path: Path, pipeline: Pipeline) -> None:
    from kg.graphdir import load_rdf
    from kg.vocab import KG, node_iri

    _old, _new, inc = _pending_setup(tmp_path, pipeline)
    again = _jsonl(tmp_path / "again.jsonl", [OLD[0]])
    result = update_graph(inc, [again], pipeline=pipeline, workers=1)
    assert result.extracted == 0
    sources = load_nx(inc).nodes["paper:a1"]["sources"]
    assert len(sources) == 2 and sources[1].startswith(again)
    rdf_sources = {str(o) for o in load_rdf(inc).objects(node_iri("paper:a1"), KG.inputSource)}
    assert rdf_sources == set(sources)


def test_update_that_cannot_write_its_pending_files_leaves_the_directory_as_it_was(
        tmp_path: Path, pipeline: Pipeline, monkeypatch: pytest.MonkeyPatch) -> None:
    import kg.graphdir

    _old, new, inc = _pending_setup(tmp_path, pipeline)
    update_graph(inc, [new], pipeline=pipeline, workers=1)
    before = {p.name: p.read_bytes() for p in Path(inc).iterdir()}

    def full_disk(fh: object, graph: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(kg.graphdir, "write_node_link", full_disk)
    third = _jsonl(tmp_path / "third.jsonl", [("b3", "We propose LoRA for translation.")])
    with pytest.raises(GraphDirError, match="cannot write the pending additions: .*No space left"):
        update_graph(inc, [third], pipeline=pipeline, workers=1)
    assert {p.name: p.read_bytes() for p in Path(inc).iterdir()} == before


def test_build_cli_compact(tmp_path: Path, pipeline: Pipeline, capsys: pytest.CaptureFixture[str]) -> None:
    from kg.cli import main

    _old, new, inc = _pending_setup(tmp_path, pipeline)
    update_graph(inc, [new], pipeline=pipeline, workers=1)
    assert main(["stats", "-g", inc]) == 0
    assert "pending: 2 papers added since the graph was last assembled" in capsys.readouterr().out
    assert main(["compact", inc]) == 0
    assert capsys.readouterr().err == f"compacted {inc}: 41 paper(s)\n"
    assert list(Path(inc).glob("pending-*")) == []
    assert main(["build", "seeds", "-o", str(tmp_path / "x"), "--compact"]) == 2
    expected = "kg: error: kg build: --compact goes with --update DIR (a new build is always whole)\n"
    assert capsys.readouterr().err == expected


class _DyingExtractor(LexiconExtractor):
    """The lexicon extractor, except that a process other than the test's own that reads an
    abstract with "SIGKILL" in it is killed there: a worker lost to the OOM killer, for real."""

    def __init__(self) -> None:
        super().__init__()
        self.test_pid = os.getpid()

    def extract(self, parsed: ParsedPaper) -> Iterable[Mention | Bound]:
        if "SIGKILL" in parsed.paper.abstract and os.getpid() != self.test_pid:
            os.kill(os.getpid(), signal.SIGKILL)
        return super().extract(parsed)


def _dying_pipeline() -> Pipeline:
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    return Pipeline(nlp, "blank-en", ["entities"], [_DyingExtractor()])


def test_build_whose_worker_is_killed_fails_in_one_line_and_writes_nothing(tmp_path: Path) -> None:
    from kg.errors import ExtractionError

    # more papers than one chunk, so that two worker processes share them; the last one kills its worker
    rows = [(f"c{i}", f"LoRA for summarization, variant {i}.") for i in range(80)] + [("c80", "SIGKILL")]
    src = _jsonl(tmp_path / "many.jsonl", rows)
    with pytest.raises(ExtractionError) as caught:
        build_graph([src], tmp_path / "out", pipeline=_dying_pipeline(), workers=2)
    message = str(caught.value)
    assert message.startswith("an extraction worker process ended abruptly (killed, or out of memory); "
                              "nothing was written; the ")
    assert message.endswith(" papers extracted before it are journaled for a re-run")
    assert "\n" not in message and caught.value.exit_code == 1
    assert not (tmp_path / "out").exists()


def test_update_whose_extraction_process_is_killed_fails_in_one_line(
        tmp_path: Path, pipeline: Pipeline) -> None:
    from kg.errors import ExtractionError

    _old, _new, inc = _pending_setup(tmp_path, pipeline)
    before = {p.name: p.read_bytes() for p in Path(inc).iterdir()}
    dying = _jsonl(tmp_path / "dying.jsonl", [("d1", "SIGKILL")])
    with pytest.raises(ExtractionError, match=r"^the extraction process ended without an answer "
                                              r"\(killed by SIGKILL\); nothing was written$"):
        update_graph(inc, [dying], pipeline=_dying_pipeline(), workers=1)
    assert {p.name: p.read_bytes() for p in Path(inc).iterdir()} == before


@pytest.mark.parametrize("damaged", ["extractions.jsonl", "pending-1.jsonl"])
def test_compact_of_records_cut_short_at_a_line_end_fails_and_loses_no_paper(
        tmp_path: Path, pipeline: Pipeline, damaged: str) -> None:
    _old, new, inc = _pending_setup(tmp_path, pipeline)
    update_graph(inc, [new], pipeline=pipeline, workers=1)
    path = Path(inc) / damaged
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:-1]))  # the last record gone, every line still whole
    before = {p.name: p.read_bytes() for p in Path(inc).iterdir()}
    # the base records are held to the byte size the manifest records, the pending ones to its count
    found = (r"\d+ bytes, but the manifest records \d+" if damaged == "extractions.jsonl" else
             rf"{len(lines) - 1} extraction record\(s\), but the manifest counts {len(lines)}")
    with pytest.raises(GraphDirError, match=rf"{damaged}: {found}: the file was cut short or changed"):
        remove_papers(inc, [])  # what `kg compact` runs
    assert {p.name: p.read_bytes() for p in Path(inc).iterdir()} == before


def test_turtle_cut_short_between_two_statements_fails_the_read(
        tmp_path: Path, pipeline: Pipeline, capsys: pytest.CaptureFixture[str]) -> None:
    from rdflib import Graph

    from kg.cli import main
    from kg.graphdir import load_rdf

    _old, _new, inc = _pending_setup(tmp_path, pipeline)
    path = Path(inc) / "graph.ttl"
    text = path.read_bytes()
    cut = text[: text.rindex(b" .\n", 0, len(text) // 2) + 3]  # ends after a whole statement
    Graph().parse(data=cut.decode(), format="turtle")  # still Turtle: only the size tells
    path.write_bytes(cut)
    with pytest.raises(GraphDirError, match=rf"graph.ttl: {len(cut)} bytes, but the manifest records "
                                            rf"{len(text)}: the file was cut short or changed"):
        load_rdf(inc)
    assert main(["query", "-g", inc, "sparql", "SELECT * WHERE { ?s ?p ?o } LIMIT 1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kg: error: ") and err.count("\n") == 1
