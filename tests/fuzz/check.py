"""The property the fuzzer checks, importable without atheris (the regression tests replay it)."""

import os
import tempfile

from extractors.bounds import extract_bounds
from extractors.latex import to_expr
from kg.errors import KGError
from kg.ingest import read_papers
from kg.text import normalize

_DIR = tempfile.mkdtemp(prefix="kg-fuzz-")
_SUFFIXES = (".jsonl", ".json", ".csv", ".tsv", ".bib", ".txt")


def check(data: bytes) -> None:
    """Only KGError may escape a reader, nothing the normalizer or the bound extractor, and every
    normalized offset maps inside the input.

    The first byte picks the reader (by file suffix); the rest is the file's content. The same
    bytes, decoded, also go through the normalizer, the LaTeX parser and the bound extractor.
    """
    if not data:
        return
    suffix = _SUFFIXES[data[0] % len(_SUFFIXES)]
    path = os.path.join(_DIR, "input" + suffix)
    with open(path, "wb") as out:
        out.write(data[1:])
    try:
        papers = read_papers([path])
    except KGError:
        papers = []
    for paper in papers:
        norm = normalize(paper.abstract)
        for i in range(len(norm.text)):
            a, b = norm.to_original(i, i + 1)
            assert 0 <= a < b <= len(paper.abstract)
    text = data.decode("utf-8", "replace")
    normalize(text)
    to_expr(text)
    bounds = extract_bounds(text)
    for bound in bounds:
        assert 0 <= bound.start <= bound.end <= len(text)
        if bound.form == "formula":
            assert text[bound.start : bound.end] == bound.latex
