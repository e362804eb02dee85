"""kg.ingest: every format, stable ids, merged duplicates, and every bad-input case."""

import hashlib
import json
import tracemalloc
from pathlib import Path

import pytest

from kg.errors import InputError
from kg.ingest import RECORDS, derive_title, iter_records, paper_id, read_papers
from kg.text import fingerprint_text
from kg.types import Paper, RunReport, Source

SEEDS = Path(__file__).resolve().parents[2] / "seeds"
A1 = "We study stochastic linear bandits with $B$ batches and prove $\\Omega(\\sqrt{T})$ regret."
A2 = "We propose GRACE, a graph method for node classification on Cora."


def write(tmp_path, name, content, mode="w"):
    path = tmp_path / name
    if mode == "wb":
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return str(path)


def test_paper_id_is_prefix_and_12_hex_of_fingerprint_hash():
    expected = "p-" + hashlib.sha256(fingerprint_text(A1).encode()).hexdigest()[:12]
    assert paper_id(A1) == expected
    assert paper_id(A1 + "  ") == expected


def test_read_seeds_yields_50_papers_with_venue_year_and_merged_sources():
    report = RunReport()
    papers = read_papers([str(SEEDS)], report=report)
    assert len(papers) == 50
    assert report.records_read == 51
    assert report.duplicates_merged == 1
    assert {(p.venue, p.year) for p in papers} == {("NeurIPS", 2026)}
    merged = [p for p in papers if len(p.sources) > 1]
    assert len(merged) == 1
    assert [Path(s.file).name for s in merged[0].sources] == [
        "001_e801319b3f1d041e.txt",
        "002_bb238cf8a1452138.txt",
    ]
    assert len({p.id for p in papers}) == 50


@pytest.mark.parametrize(
    ("header", "venue", "year"),
    [
        ("NeurIPS 2026 Papers", "NeurIPS", 2026),
        ("NeurIPS 2026 论文列表", "NeurIPS", 2026),
        ("ICML 2024 accepted papers", "ICML", 2024),
    ],
)
def test_seeds_header_gives_venue_and_year(tmp_path, header, venue, year):
    path = write(tmp_path, "list.txt", f"{header}\n\n{A1}\n\n{A2}\n")
    papers = read_papers([path])
    assert [(p.venue, p.year) for p in papers] == [(venue, year), (venue, year)]
    assert [p.sources for p in papers] == [(Source(path, 1),), (Source(path, 2),)]


def test_seeds_without_header_reads_every_block(tmp_path):
    path = write(tmp_path, "plain.txt", f"{A1}\n\n{A2}\n")
    assert [p.abstract for p in read_papers([path])] == [A1, A2]


def test_jsonl_with_aliases(tmp_path):
    rows = [
        {"id": "x1", "title": "T1", "summary": A1, "author": "Ann Lee and Bo Chen", "year": "2021"},
        {
            "paperId": "x2",
            "title": "T2",
            "paperAbstract": A2,
            "authors": ["C D"],
            "venue": "ICML",
            "url": "http://e.org/2",
        },
    ]
    path = write(tmp_path, "in.jsonl", "\n".join(json.dumps(r) for r in rows) + "\n")
    p1, p2 = read_papers([path])
    assert (p1.id, p1.title, p1.abstract, p1.authors, p1.year) == (
        "x1",
        "T1",
        A1,
        ("Ann Lee", "Bo Chen"),
        2021,
    )
    assert (p2.id, p2.authors, p2.venue, p2.url) == ("x2", ("C D",), "ICML", "http://e.org/2")
    assert not p1.title_derived


def test_json_array_streams_objects(tmp_path):
    rows = [{"id": f"j{i}", "title": f"T{i}", "abstract": f"{A2} Variant {i}."} for i in range(3)]
    path = write(tmp_path, "in.json", json.dumps(rows, indent=2))
    assert [p.id for p in read_papers([path])] == ["j0", "j1", "j2"]


@pytest.mark.parametrize(("name", "sep"), [("in.csv", ","), ("in.tsv", "\t")])
def test_delimited_with_header(tmp_path, name, sep):
    abstract = A2.replace(",", "") if sep == "\t" else A2
    body = sep.join(["id", "title", "abstract", "year"]) + "\n"
    quoted = f'"{abstract}"' if sep == "," else abstract
    body += sep.join(["c1", "Title one", quoted, "2020"]) + "\n"
    path = write(tmp_path, name, body)
    (paper,) = read_papers([path])
    assert (paper.id, paper.title, paper.abstract, paper.year) == ("c1", "Title one", abstract, 2020)


def test_bibtex_entries_with_abstract(tmp_path):
    bib = """@string{nips = "Advances in NeurIPS"}
@inproceedings{lee2021bandits,
  title = {Batched {Bandits}},
  author = {Lee, Ann and Chen, Bo},
  booktitle = nips,
  year = 2021,
  abstract = {We study stochastic linear bandits with $B$ batches.}
}
@article{x2, title="Second", abstract="We propose GRACE {for} graphs.", year={2019}}
"""
    path = write(tmp_path, "refs.bib", bib)
    p1, p2 = read_papers([path])
    assert (p1.id, p1.title, p1.authors, p1.venue, p1.year) == (
        "lee2021bandits",
        "Batched Bandits",
        ("Lee, Ann", "Chen, Bo"),
        "Advances in NeurIPS",
        2021,
    )
    assert p1.abstract == "We study stochastic linear bandits with $B$ batches."
    assert (p2.id, p2.title, p2.abstract, p2.year) == ("x2", "Second", "We propose GRACE for graphs.", 2019)


def test_stdin_is_read_with_detected_format(monkeypatch):
    import io
    import sys

    data = json.dumps({"id": "s1", "abstract": A1}).encode() + b"\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(data))))
    assert [p.id for p in read_papers(["-"])] == ["s1"]


def test_untitled_paper_gets_derived_label():
    assert derive_title(A2) == "GRACE"
    assert derive_title("We study bandits.") == "We study bandits"


def test_same_abstract_in_two_files_is_one_paper(tmp_path):
    f1 = write(tmp_path, "a.txt", f"NeurIPS 2026 Papers\n\n{A1}\n")
    f2 = write(tmp_path, "b.jsonl", json.dumps({"title": "Batched", "abstract": A1 + " "}) + "\n")
    report = RunReport()
    (paper,) = read_papers([f1, f2], report=report)
    assert paper.sources == (Source(f1, 1), Source(f2, 1))
    assert (paper.title, paper.title_derived) == ("Batched", False)
    assert report.duplicates_merged == 1


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("empty.jsonl", b"", "empty.jsonl: empty file: no records"),
        ("blank.txt", b"  \n\n", "blank.txt: empty file: no records"),
        ("bin.jsonl", b'{"a": 1}\x00\x01\x02', "bin.jsonl: binary file (NUL bytes): expected text"),
        (
            "latin.jsonl",
            b'{"abstract": "ok"}\n{"abstract": "caf\xe9"}\n',
            "latin.jsonl: line 2: not UTF-8 text (byte 0xe9 at column 18); re-encode the file as UTF-8",
        ),
        (
            "broken.jsonl",
            b'{"abstract": "ok"}\n{"abstract": \n',
            "broken.jsonl: record 2 (line 2): invalid JSON: Expecting value at column 15",
        ),
        (
            "noabs.jsonl",
            b'{"id": "a", "abstract": "ok"}\n{"id": "b", "title": "T"}\n',
            "noabs.jsonl: record 2 (line 2): record has no abstract (expected a non-empty 'abstract' "
            "or 'summary' field)",
        ),
        (
            "dups.jsonl",
            b'{"id": "a", "abstract": "one"}\n{"id": "a", "abstract": "two"}\n',
            "dups.jsonl: record 2 (line 2): duplicate id 'a' with a different abstract",
        ),
        ("arr.json", b'[{"abstract": "ok"}, {"abstract": ]', "arr.json: record 2 (line 1): invalid JSON"),
        ("nocol.csv", b"id,title\n1,T\n", "nocol.csv: line 1: header names no abstract column"),
        (
            "surr.jsonl",
            b'{"abstract": "bad \\ud800 text"}\n',
            "surr.jsonl: record 1 (line 1): field 'abstract' holds a lone UTF-16 surrogate",
        ),
    ],
)
def test_bad_input_names_file_and_record(tmp_path, name, content, message):
    path = write(tmp_path, name, content, mode="wb")
    with pytest.raises(InputError) as info:
        read_papers([path])
    assert str(info.value).startswith(str(tmp_path / message.split(":")[0]) + ":")
    assert str(info.value).startswith(str(tmp_path) + "/" + message)


def test_read_papers_dollar_opening_no_math_is_text_with_a_warning(tmp_path):
    path = write(tmp_path, "math.jsonl", "\n".join([
        json.dumps({"id": "a", "abstract": "fine"}),
        json.dumps({"id": "b", "abstract": "we get $O(n) regret"}),
        json.dumps({"id": "c", "abstract": "at a cost of $5.2K USD", "year": "n.d."}),
    ]) + "\n")
    report = RunReport()
    papers = read_papers([path], report=report)
    assert [p.id for p in papers] == ["a", "b", "c"]
    assert papers[1].abstract == "we get $O(n) regret"
    assert papers[2].year is None
    assert [str(w) for w in report.warnings] == [
        f"{path}: record 2 (line 2): '$' at offset 7 opens no math: read as text",
        f"{path}: record 3 (line 3): '$' at offset 13 opens no math: read as text",
        f"{path}: record 3 (line 3): year 'n.d.' is not a year; left out",
    ]
    assert report.to_json()["warnings"][0] == {
        "file": path, "record": "2 (line 2)", "message": "'$' at offset 7 opens no math: read as text"}
    assert not report.skipped


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"abstract": "we get $O(n) regret"}', "record 1 (line 1): unbalanced math: '$' opened at offset 7 "
         "is never closed"),
        ('{"abstract": "fine", "year": "n.d."}', "record 1 (line 1): year 'n.d.' is not a year"),
    ],
)
def test_read_papers_strict_refuses_what_is_otherwise_a_warning(tmp_path, line, message):
    path = write(tmp_path, "strict.jsonl", line + "\n")
    with pytest.raises(InputError) as info:
        read_papers([path], strict=True)
    assert str(info.value) == f"{path}: {message}"


def test_skip_bad_counts_skipped_records(tmp_path):
    path = write(
        tmp_path,
        "mixed.jsonl",
        "\n".join(
            [
                json.dumps({"id": "a", "abstract": A1}),
                "{not json",
                json.dumps({"id": "b", "title": "no abstract"}),
                json.dumps({"id": "c", "abstract": A2}),
            ]
        )
        + "\n",
    )
    report = RunReport()
    papers = read_papers([path], skip_bad=True, report=report)
    assert [p.id for p in papers] == ["a", "c"]
    assert [(s.record, s.reason.split(":")[0]) for s in report.skipped] == [
        ("2 (line 2)", "invalid JSON"),
        ("3 (line 3)", "record has no abstract (expected a non-empty 'abstract' or 'summary' field)"),
    ]


def test_missing_input_is_an_error(tmp_path):
    with pytest.raises(InputError, match="no such file or directory"):
        read_papers([str(tmp_path / "nope.jsonl")])


def test_50mb_file_is_streamed_in_bounded_memory(tmp_path):
    line = json.dumps({"abstract": "x" * 2000}) + "\n"
    path = tmp_path / "big.jsonl"
    with open(path, "w") as out:
        for i in range(50 * 1024 * 1024 // len(line) + 1):
            out.write(line.replace('"abstract"', f'"id": "r{i}", "abstract"'))
    assert path.stat().st_size >= 50 * 1024 * 1024
    tracemalloc.start()
    count = sum(1 for _ in iter_records(str(path)))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert count > 25000
    assert peak < 5 * 1024 * 1024


@pytest.mark.parametrize(
    ("name", "coined"),
    [("BDC-Merge", True), ("f-GRPO", True), ("XShapeEnc", True), ("SN-VLM", True), ("GRACE", True),
     ("Shepherd", False), ("$T$", False), ("stochastic gradient descent (SGD)", False), ("A", False)],
)
def test_is_coined_takes_one_coined_word_only(name, coined):
    from kg.ingest import is_coined

    assert is_coined(name) is coined


def test_read_papers_records_are_validated_like_jsonl_and_merged_with_files(tmp_path):
    path = write(tmp_path, "a.jsonl", json.dumps({"id": "j0", "abstract": A1}) + "\n")
    given = Paper(id="own", title="GRACE", abstract=A2)
    report = RunReport()
    papers = read_papers([path, {"abstract": A1, "title": "copy"}, given, {"abstract": A2 + " More."}],
                         report=report)
    assert [p.id for p in papers] == ["j0", "own", paper_id(A2 + " More.")]
    assert papers[0].sources == (Source(path, 1), Source(RECORDS, 1))  # one abstract, two sources
    assert papers[1].title == "GRACE" and not papers[1].title_derived
    assert papers[2].title_derived
    assert report.files == [path] and report.records_read == 4 and report.duplicates_merged == 1


def test_read_papers_record_without_abstract_names_the_record():
    with pytest.raises(InputError, match=r"^<records>: record 2 .*no abstract"):
        read_papers([{"abstract": A1}, {"title": "no text"}])
    report = RunReport()
    assert len(read_papers([{"abstract": A1}, {"title": "no text"}], skip_bad=True, report=report)) == 1
    assert [(s.file, s.record) for s in report.skipped] == [(RECORDS, "2 (line 2)")]


def test_read_papers_refuses_an_object_that_is_no_record():
    with pytest.raises(InputError, match="expected a path, a dict or a Paper, got int"):
        read_papers([3])
