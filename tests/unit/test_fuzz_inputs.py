"""Property-based tests: arbitrary text never breaks the readers or the normalizer.

Whatever arrives — unbalanced braces and ``$``, control characters, RTL marks, NUL bytes,
lone surrogates — the only exception allowed out of a reader is kg's own clear input error, any
text that is not blank reads as a paper, the normalizer reads everything, and every offset it
hands back points into the original string.
"""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.errors import InputError, KGError
from kg.ingest import read_papers
from kg.text import find_math, normalize, read_math
from tests.fixtures.adversarial import NORMALIZE_CASES

REPO = Path(__file__).resolve().parents[2]

LATEX_BITS = st.sampled_from([
    "$", "$$", "{", "}", "\\", "\\(", "\\)", "\\[", "\\]", "\\sqrt{", "\\frac{a}{b}", "\\textit{",
    "\\emph{x}", "``", "''", "---", "--", "**", "~", "\\&", "\\%", "\\$", "O(", ")", "^{", "_{",
    "\u2011", "\u2014", "\u200f", "\u202e", "\x00", "\x07", "\ud800", "\n", " ", "x", "regret",
])
TEXTS = st.one_of(
    st.text(max_size=300),
    st.lists(st.one_of(LATEX_BITS, st.text(max_size=5)), max_size=80).map("".join),
)
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(TEXTS)
def test_normalize_reads_any_text(text):
    norm = normalize(text)
    assert len(norm.starts) == len(norm.text) == len(norm.ends)
    for i in range(len(norm.text)):
        a, b = norm.to_original(i, i + 1)
        assert 0 <= a < b <= len(text)
    for span in norm.math:
        assert text[span.start] in "$\\"
        assert span.start <= span.body_start <= span.body_end <= span.end


@SETTINGS
@given(TEXTS)
def test_math_spans_are_ordered_and_disjoint(text):
    spans = find_math(text)
    for before, after in zip(spans, spans[1:], strict=False):
        assert before.end <= after.start


@SETTINGS
@given(TEXTS)
def test_read_math_stray_delimiters_are_delimiters_outside_math(text):
    scan = read_math(text)
    for stray in scan.stray:
        assert text[stray.offset : stray.offset + len(stray.delimiter)] == stray.delimiter
        assert stray.delimiter in ("$", "\\(", "\\[")
        assert not any(m.start <= stray.offset < m.end for m in scan.spans)


ABSTRACTS = st.one_of(
    st.text(min_size=1, max_size=300),
    st.lists(st.one_of(LATEX_BITS.filter(lambda b: b != "\ud800"), st.text(max_size=5)),
             min_size=1, max_size=80).map("".join),
).filter(lambda t: t.strip())


@SETTINGS
@given(ABSTRACTS)
def test_read_papers_any_text_as_an_abstract_is_a_paper(tmp_path_factory, abstract):
    path = tmp_path_factory.mktemp("any") / "any.jsonl"
    path.write_text(json.dumps({"id": "x", "abstract": abstract}) + "\n", encoding="utf-8")
    (paper,) = read_papers([str(path)])
    assert paper.abstract == abstract.strip()


@SETTINGS
@given(st.binary(max_size=400))
def test_readers_raise_only_input_errors_on_arbitrary_bytes(tmp_path_factory, data):
    directory = tmp_path_factory.mktemp("fuzz")
    for name in ("in.jsonl", "in.json", "in.csv", "in.bib", "in.txt"):
        path = directory / name
        path.write_bytes(data)
        try:
            papers = read_papers([str(path)], skip_bad=False)
        except InputError as exc:
            assert str(exc).startswith(str(path))
            continue
        for paper in papers:
            assert paper.abstract.strip()


@SETTINGS
@given(st.lists(st.dictionaries(st.sampled_from(["id", "title", "abstract", "year", "authors"]),
                                st.one_of(st.text(max_size=40), st.integers(), st.none(),
                                          st.lists(st.text(max_size=5), max_size=3)),
                                max_size=5), max_size=6))
def test_jsonl_records_of_any_shape_give_papers_or_clear_errors(tmp_path_factory, rows):
    path = tmp_path_factory.mktemp("rows") / "rows.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    try:
        papers = read_papers([str(path)], skip_bad=True)
    except KGError as exc:
        assert str(exc).startswith(str(path))
        return
    for paper in papers:
        assert isinstance(paper.abstract, str) and paper.abstract.strip()
        json.dumps(paper.to_json(), ensure_ascii=False).encode("utf-8")


def test_normalize_reads_adversarial_100kb_inputs():
    # In a subprocess under a watchdog, so that super-linear behaviour fails the run instead of
    # hanging it; the time of each case against an ordinary abstract is in bench/bench_adversarial.py.
    code = textwrap.dedent(
        """
        import json, sys
        from kg.text import normalize
        from tests.fixtures.adversarial import NORMALIZE_CASES, build
        read = 0
        for name, expr in NORMALIZE_CASES.items():
            normalize(build(expr))
            read += 1
        print(read)
        """
    )
    done = subprocess.run([sys.executable, "-c", code], text=True, capture_output=True, timeout=120,
                          check=True, cwd=REPO)
    assert int(done.stdout) == len(NORMALIZE_CASES)
