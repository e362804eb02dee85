"""Property-based tests over the extractors with the real spaCy pipeline: arbitrary text and
random LaTeX, unbalanced math included, are read, parsed and extracted without an error, and every
emitted span is exact."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from extractors.bounds import extract_bounds
from kg.ingest import paper_id, read_papers
from kg.types import Paper

WORDS = st.sampled_from(
    [
        "We",
        "propose",
        "GRACE",
        ",",
        "a",
        "method",
        "for",
        "regret",
        "minimization",
        "achieving",
        "the",
        "minimax",
        "lower",
        "bound",
        "of",
        "order",
        "on",
        "CIFAR-10",
        "and",
        "ImageNet",
        "(",
        ")",
        "BDC-Merge",
        "Brownian Distance Correlation (BDCorr)",
        "stochastic gradient descent",
        "sample complexity",
        ".",
        "phased\u2011elimination",
        "``middle ground''",
        "\\textit{or}",
        "\u202e",
        "\x00",
        "\ud800",
        "\n",
    ]
)
MATH = st.sampled_from(
    [
        "$O(\\sqrt{T})$",
        "$\\widetilde{O}(dB + d\\sqrt{T})$",
        "$\\Omega(B\\min \\lbrace d,\\log\\lvert \\mathcal{A} \\rvert \\rbrace)$",
        "$\\Theta(n)$",
        "$t_{\\mathrm{mix}}^3/\\varepsilon^2$",
        "$\\alpha \\in [0,1]$",
        "$",
        "{",
        "}",
        "\\sqrt{",
        "$\\frac{1}{\\epsilon^2}$",
        "$$\\le n^{-1}$$",
        "\\(a\\)",
        "Õ(d√T)",
        "$x \\le y$",
    ]
)
ABSTRACTS = st.lists(st.one_of(WORDS, MATH, st.text(max_size=8)), max_size=60).map(" ".join)
SETTINGS = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.fixture(scope="module")
def pipeline():  # noqa: ANN201 - kg.pipeline.Pipeline
    """The real pipeline with every default extractor family (entities and bounds)."""
    from kg.pipeline import load_pipeline

    return load_pipeline()


@SETTINGS
@given(ABSTRACTS)
def test_fuzz_pipeline_spans_are_exact(pipeline, abstract: str) -> None:  # noqa: ANN001
    paper = Paper(id="p-fuzz", title="t", abstract=abstract)
    extraction = pipeline.extract_one(paper)
    for mention in extraction.mentions:
        assert abstract[mention.start : mention.end] == mention.text
    for bound in extraction.bounds:
        assert 0 <= bound.start <= bound.end <= len(abstract)
        if bound.form == "formula":
            assert abstract[bound.start : bound.end] == bound.latex


@settings(max_examples=400, deadline=None)
@given(st.one_of(ABSTRACTS, st.text(max_size=400)))
def test_fuzz_bound_extractor_without_parse(abstract: str) -> None:
    bounds = extract_bounds(abstract)
    for bound in bounds:
        assert 0 <= bound.start <= bound.end <= len(abstract)
        if bound.form == "formula":
            assert abstract[bound.start : bound.end] == bound.latex


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(st.one_of(ABSTRACTS, st.text(min_size=1, max_size=300)), min_size=1, max_size=4))
def test_fuzz_any_abstract_is_read_and_extracted(pipeline, tmp_path_factory, abstracts: list[str]) -> None:  # noqa: ANN001
    """Any text that is not blank, written to a JSONL file, becomes a paper (copies of one text
    one paper) and its record."""
    rows = [a for a in abstracts if a.strip() and "\ud800" not in a]
    path = tmp_path_factory.mktemp("fuzz") / "any.jsonl"
    path.write_text("".join(json.dumps({"id": f"r{i}", "abstract": a}) + "\n" for i, a in enumerate(rows)),
                    encoding="utf-8")
    papers = read_papers([str(path)]) if rows else []
    assert len(papers) == len({paper_id(a) for a in rows})
    for paper, extraction in zip(papers, pipeline.extract_many(papers), strict=True):
        assert extraction.paper.abstract == paper.abstract
        for mention in extraction.mentions:
            assert paper.abstract[mention.start : mention.end] == mention.text
        for bound in extraction.bounds:
            if bound.form == "formula":
                assert paper.abstract[bound.start : bound.end] == bound.latex
