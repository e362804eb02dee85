"""``kg related`` and ``kg eval related`` on a small build directory: outputs and errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kg.cli import main
from kg.graphdir import write_graph_dir
from tests.unit.related_graph import pca_and_bandits


@pytest.fixture(scope="module")
def graph_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    gb = pca_and_bandits()
    gb.paper("p-eee", "Protein folding", "protein structure prediction", topic=2)
    out = tmp_path_factory.mktemp("related") / "graph"
    write_graph_dir(out, [], gb.g, [], {})
    return out


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


_LINE = re.compile(r"^ ?(\d+)\. (\d+\.\d{3})  (p-\w+)  (.+) — (.+)$")


def test_related_cli_prints_one_readable_line_per_result(
    graph_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(capsys, "related", "p-ddd", "-g", str(graph_dir), "--top", "2")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 1  # no other paper shares an entity, a bound, the topic or a word
    first = _LINE.match(lines[0])
    assert first is not None
    assert first.group(3) == "p-ccc"
    assert first.group(4) == "Linear bandits with one bit"
    assert first.group(5).startswith(
        "phased elimination (proposed here); both address linear bandits; "
        "both claim regret upper bounds in √T; improves the query's regret "
        "upper bound in d (d vs d^(3/2)); same topic 1; terms: "
    )
    assert "related to p-ddd  Private linear bandits" in err


def test_related_cli_title_lookup_and_json(graph_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = _run(capsys, "related", "one bit", "-g", str(graph_dir), "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["query"] == {"id": "p-ccc", "title": "Linear bandits with one bit"}
    first = doc["related"][0]
    assert first["id"] == "p-ddd"
    assert [(s["type"], s["canonical"], s["roles"]) for s in first["shared"]] == [
        ("Method", "phased elimination", ["proposed", "used"]),
        ("Task", "linear bandits", ["used", "used"]),
    ]
    assert first["topic"] == 1
    assert set(first["signals"]) == {
        "entity", "concept", "terms", "bound", "topic", "lexical", "semantic", "encoder"
    }


def test_related_cli_all_writes_one_json_line_per_paper(
    graph_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "related.jsonl"
    code, _out, err = _run(
        capsys, "related", "--all", "-g", str(graph_dir), "--top", "1", "--jsonl", "-o", str(target)
    )
    assert code == 0
    assert "related papers of 5 paper(s)" in err
    rows = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert [row["id"] for row in rows] == ["p-aaa", "p-bbb", "p-ccc", "p-ddd", "p-eee"]
    for row in rows:
        assert set(row) == {"id", "related"}
        assert len(row["related"]) <= 1
        for item in row["related"]:
            assert isinstance(item["id"], str) and isinstance(item["score"], float)
            assert all({"type", "canonical"} <= set(s) for s in item["shared"])
    assert rows[0]["related"][0]["id"] == "p-bbb"
    assert rows[0]["related"][0]["shared"][0]["canonical"] == "principal component analysis"


def test_related_cli_all_to_stdout(graph_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = _run(capsys, "related", "--all", "-g", str(graph_dir), "--top", "2", "--jsonl")
    assert code == 0
    assert len(out.splitlines()) == 5


def test_related_cli_method_lists_roles(graph_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = _run(capsys, "related", "--method", "phased elimination", "-g", str(graph_dir))
    assert code == 0
    assert out.splitlines() == [
        "phased elimination (Method:phased-elimination)",
        "  proposed by 1 paper(s)",
        "    p-ccc  Linear bandits with one bit",
        "  used by 1 paper(s)",
        "    p-ddd  Private linear bandits",
    ]


def test_related_cli_bridge(graph_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = _run(capsys, "related", "--bridge", "PCA", "topic:0", "-g", str(graph_dir), "--json")
    assert code == 0
    assert [b["id"] for b in json.loads(out)] == ["p-aaa", "p-bbb"]


def test_related_cli_weights_file_changes_the_order(
    graph_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    weights = tmp_path / "w.json"
    weights.write_text(
        json.dumps({"entity": 0, "terms": 0, "bound": 0, "topic": 0, "lexical": 1}), encoding="utf-8"
    )
    code, out, _err = _run(
        capsys, "related", "p-aaa", "-g", str(graph_dir), "--json", "--weights", str(weights)
    )
    assert code == 0
    related = json.loads(out)["related"]
    assert [r["id"] for r in related] == ["p-bbb"]  # only "pca" is a shared word
    assert related[0]["shared"] == [] and related[0]["terms"] == ["pca"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["related", "-g", "{g}"],
            "give exactly one of PAPER, --text FILE, --all, --method NAME, --bridge A B or --write-index",
        ),
        (["related", "p-aaa", "--all", "-g", "{g}"], "give exactly one of"),
        (["related", "nothing like it", "-g", "{g}"], "no paper with id or title matching 'nothing like it'"),
        (["related", "p-aaa", "-g", "{g}", "--top", "0"], "--top must be at least 1, got 0"),
        (["related", "p-aaa", "-g", "{g}", "--jsonl"], "--jsonl goes with --all"),
        (["related", "p-aaa", "-g", "{g}/missing"], "not a graph directory"),
        (["related", "--method", "nope", "-g", "{g}"], "no Method named 'nope' in the graph"),
        (["related", "--text", "{g}/no-such-file.txt", "-g", "{g}"], "cannot read the abstract"),
        (["eval", "related", "--judgments", "{g}/none.jsonl", "-g", "{g}"], "cannot read the judgments"),
    ],
)
def test_related_cli_errors_are_one_line_and_exit_2(
    graph_dir: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = _run(capsys, *[a.replace("{g}", str(graph_dir)) for a in argv])
    assert code == 2
    assert out == ""
    assert len(err.splitlines()) == 1
    assert err.startswith("kg: error: ")
    assert message in err


def test_related_cli_eval_prints_both_systems(
    graph_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    judgments = tmp_path / "j.jsonl"
    judgments.write_text(json.dumps({"id": "p-ccc", "related": {"p-ddd": 2}}) + "\n", encoding="utf-8")
    code, out, _err = _run(capsys, "eval", "related", "--judgments", str(judgments), "-g", str(graph_dir))
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["system", "queries", "nDCG@5", "P@3"]
    assert lines[1].split() == ["kg", "1", "1.0000", "0.3333"]
    assert lines[2].split() == ["tfidf", "1", "1.0000", "0.3333"]
    assert "kg top-3 results with an explanation: " in out


def test_related_cli_says_once_when_it_encodes_many_abstracts(capsys: pytest.CaptureFixture[str]) -> None:
    from kg.cli.common import EncodingProgress

    few = EncodingProgress()
    for done in (16, 32, 40):
        few(done, 40)  # the seeds: seconds, nothing to say
    assert capsys.readouterr().err == ""
    many = EncodingProgress()
    for done in range(16, 22_617, 16):
        many(done, 22_616)
    err = capsys.readouterr().err
    assert err.count("\n") == 1  # not a terminal: one line, not a bar
    assert err.startswith("kg: encoding 22616 abstracts for the related-work index (once per graph")
