"""The abstract ``kg related --text`` reads: a file or standard input, as a paper."""

from __future__ import annotations

from pathlib import Path

from kg.errors import InputError
from kg.types import Paper


def read_query_text(source: str) -> Paper:
    """The abstract of ``kg related --text FILE|-`` as a paper (not added to any graph).

    Raises:
        InputError: the file cannot be read or holds no text.
    """
    import sys

    from kg.ingest import derive_title, paper_id

    name = "<stdin>" if source == "-" else source
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(name, None, f"cannot read the abstract: {exc}") from None
    abstract = " ".join(text.split())
    if not abstract:
        raise InputError(name, None, "no abstract text to find related work for")
    return Paper(id=paper_id(abstract), title=derive_title(abstract), abstract=abstract, title_derived=True)
