"""Helpers of the bounds rule tests: the formula bounds of a hand-built sentence, with or without
the real spaCy parse (the ``bounds_pipeline`` fixture)."""

from __future__ import annotations

from typing import Any

from extractors.bounds import extract_bounds
from kg.types import Bound, Paper


def formula_bounds(abstract: str) -> list[Bound]:
    """The formula bounds of ``abstract`` read without a parse."""
    return [b for b in extract_bounds(abstract) if b.form == "formula"]


unparsed = formula_bounds


def only(abstract: str) -> Bound:
    """The one formula bound of ``abstract`` (read without a parse)."""
    bounds = formula_bounds(abstract)
    assert len(bounds) == 1, bounds
    return bounds[0]


def parsed_bounds(pipeline: Any, abstract: str) -> list[Bound]:
    """The formula bounds of ``abstract`` through the real pipeline."""
    paper = Paper(id="p-test", title="t", abstract=abstract)
    return [b for b in pipeline.extract_one(paper).bounds if b.form == "formula"]


def quantities(pipeline: Any, abstract: str) -> list[str | None]:
    """The quantities of the formula bounds of ``abstract`` through the real pipeline."""
    return [b.quantity for b in parsed_bounds(pipeline, abstract)]


def attributions(pipeline: Any, abstract: str) -> list[str]:
    """The attributions of the formula bounds of ``abstract`` through the real pipeline."""
    return [b.attribution for b in parsed_bounds(pipeline, abstract)]
