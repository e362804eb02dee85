"""The ``bounds.latex.v4`` mechanisms on hand-built sentences: one case (or more) per mechanism.

v4 replaces closed lists by structure where it can. Quantity: a generic head noun ("complexity",
"violation", "divergence" …) takes the noun before it, whatever it is ("teaching complexity"); a
repeated formula keeps its earlier quantity only when no specific quantity follows it; coordinated
formulas ("$X$ upper-level and $Y$ lower-level projection complexity") share the quantity named
after the last; a formula in parentheses restates the noun phrase before it ("polynomial time
($X$)"); an acronym may sit between a formula and the noun it counts. Attribution: a clause with no
subject of its own continues the clause of the bound before (parse); "the paper" speaks of this
one; "getting below $X$" compares with a baseline; "(Li, 2009a)" is a citation. Kind: "at least"
before $O(\\cdot)$ states a lower bound. Expected fields are written from the sentences, not from
extractor output.
"""

from __future__ import annotations

from typing import Any

import pytest

from extractors.bounds import NAME, extract_bounds
from kg.types import Bound, Paper


def formula_bounds(abstract: str) -> list[Bound]:
    return [b for b in extract_bounds(abstract) if b.form == "formula"]


def parsed_bounds(pipeline: Any, abstract: str) -> list[Bound]:
    paper = Paper(id="p-test", title="t", abstract=abstract)
    return [b for b in pipeline.extract_one(paper).bounds if b.form == "formula"]


def only(abstract: str) -> Bound:
    bounds = formula_bounds(abstract)
    assert len(bounds) == 1, bounds
    return bounds[0]


def test_bounds_v4_version() -> None:
    assert NAME == "bounds.latex.v4"
    assert only("We obtain $O(\\sqrt{T})$ regret.").extractor == "bounds.latex.v4"


@pytest.mark.parametrize(
    ("abstract", "quantity"),
    [
        (
            "We show that the teaching complexity is $\\Theta(d)$ for linear perceptrons.",
            "teaching complexity",
        ),
        ("Our algorithm achieves $O(T^{3/4})$ hard constraint violation.", "constraint violation"),
        ("Our learner has a refutation complexity of $O(t \\log d)$.", "refutation complexity"),
        # a qualifier before the head names no quantity of its own
        ("The algorithm has total complexity $O(n^2)$.", "computational complexity"),
    ],
)
def test_open_compound_quantity(abstract: str, quantity: str) -> None:
    assert only(abstract).quantity == quantity


def test_open_compound_quantity_with_parse(bounds_pipeline: Any) -> None:
    (b,) = parsed_bounds(bounds_pipeline, "We show that the teaching complexity is $\\Theta(d)$.")
    assert b.quantity == "teaching complexity"


def test_repeated_formula_takes_the_quantity_after_it() -> None:
    a, b = formula_bounds("We show $O(\\sqrt{T})$ regret and $O(\\sqrt{T})$ constraint violation.")
    assert (a.quantity, b.quantity) == ("regret", "constraint violation")


def test_repeated_formula_with_a_vague_word_keeps_its_quantity() -> None:
    a, b = formula_bounds("We prove an $O(d/T)$ generalization bound. The $O(d/T)$ rate is tight.")
    assert (a.quantity, b.quantity) == ("generalization error", "generalization error")


def test_coordinated_formulas_share_the_quantity_after_the_last() -> None:
    a, b = formula_bounds(
        "We establish the $O(\\epsilon^{-2}/T)$ upper-level and $O(\\epsilon^{-1})$ lower-level "
        "projection complexity of the method."
    )
    assert (a.quantity, b.quantity) == ("projection complexity", "projection complexity")


def test_parenthesised_formula_restates_the_phrase_before() -> None:
    b = formula_bounds("We also provide a polynomial time algorithm ($O(ne^{2})$) to verify equivalence.")[0]
    assert b.quantity == "running time"
    b = formula_bounds("It converts a graph in polynomial time ($O(n^{2}e)$).")[0]
    assert b.quantity == "running time"


def test_acronym_between_formula_and_counted_noun(bounds_pipeline: Any) -> None:
    text = "Our algorithm is efficient (it requires maintaining only $O(\\log T)$ OL instances)."
    assert only(text).quantity == "number of instances"
    (b,) = parsed_bounds(bounds_pipeline, text)
    assert b.quantity == "number of instances"


def test_citation_year_with_letter() -> None:
    b = only("The first paper (Li, 2009a) on sketches reduces the sample complexity to $O(1/\\Delta)$.")
    assert b.attribution == "prior"


def test_clause_without_subject_continues_the_bound_before(bounds_pipeline: Any) -> None:
    a, b = parsed_bounds(
        bounds_pipeline,
        "This improves results of Rakhlin et al. (2012), both of which achieved error $O(1/T)$, "
        "but only in expectation, and achieved a high probability error bound of $O(\\log T/T)$.",
    )
    assert (a.attribution, b.attribution) == ("prior", "prior")


def test_clause_with_its_own_subject_does_not_continue(bounds_pipeline: Any) -> None:
    a, b = parsed_bounds(
        bounds_pipeline,
        "Prior methods achieve $O(1/\\sqrt{T})$ error, while we achieve an error of $O(1/T)$.",
    )
    assert (a.attribution, b.attribution) == ("prior", "this")


def test_the_paper_is_this_paper() -> None:
    a, b = formula_bounds(
        "Previous methods need $O(\\epsilon^{-4})$ samples. The paper presents a new method and "
        "establishes the $O(\\epsilon^{-2})$ sample complexity."
    )
    assert (a.attribution, b.attribution) == ("prior", "this")


def test_getting_below_a_baseline() -> None:
    a, b = formula_bounds(
        "Our algorithm runs in $O(2.8^n)$ expected time, getting below $O(3^n)$ for the first time."
    )
    assert (a.attribution, b.attribution) == ("this", "prior")


def test_at_least_big_o_is_a_lower_bound() -> None:
    assert only("Storing the kernel matrix requires at least $O(n^2)$ time.").kind == "lower"
