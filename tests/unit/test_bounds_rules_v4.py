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

The ``bounds.latex.v5`` mechanisms follow, one test each (see the extractor's module docstring):
the subject of a bounding predicate, an improved object "from $A$ to $B$", a unit measuring the
quantity before the formula, a formula between commas, "converging at a rate", modifiers before a
counted noun, plural quantity words; cues kept to their coordinated predicate, the object of an
improving verb, background before the abstract speaks of itself, "prior to this work", "in this
case", "if $Q$ is known", "established in this paper".
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


def test_bounds_version() -> None:
    assert NAME == "bounds.latex.v31"
    assert only("We obtain $O(\\sqrt{T})$ regret.").extractor == "bounds.latex.v31"


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


# -- bounds.latex.v5: structure read from the parse and the clause, one test per mechanism ------


def test_v5_quantity_is_the_subject_of_a_bounding_predicate(bounds_pipeline: Any) -> None:
    (b,) = parsed_bounds(
        bounds_pipeline,
        "We prove that the worst-case sample complexity of our algorithm to learn the optimal "
        "policy within an $\\epsilon$ error is upper bounded by $O(d/\\epsilon^2)$.",
    )
    assert (b.quantity, b.kind, b.attribution) == ("sample complexity", "upper", "this")
    # a coordinated complement shares the subject, past a noun in a clause between them
    a, b = parsed_bounds(
        bounds_pipeline,
        "We show that its regret is at most $O(\\log T)$ when the suboptimality gap is bounded "
        "from below, and at most $O(\\sqrt{T})$ in the adversarial regime.",
    )
    assert (a.quantity, b.quantity) == ("regret", "regret")


def test_v5_relative_clause_subject_outranks_a_repeated_formula(bounds_pipeline: Any) -> None:
    a, b = parsed_bounds(
        bounds_pipeline,
        "Earlier work builds a model on $2^{O(1/\\epsilon^2)}$ nodes. We obtain an algorithm "
        "with running time that is $2^{O(1/\\epsilon^2)}$ up to polynomial factors.",
    )
    assert (a.quantity, b.quantity) == ("number of nodes", "running time")


def test_v5_plural_quantity_word_before_the_formula() -> None:
    assert only("Previous algorithms all have runtimes $\\tilde{\\Omega}(d^{3})$.").quantity == "running time"


def test_v5_counted_noun_after_modifiers() -> None:
    b = only("After $O(\\log p)$ random projections a good direction is found.")
    assert b.quantity == "number of random projections"


def test_v5_improved_from_to_bounds_the_object_of_the_verb() -> None:
    a, b = formula_bounds(
        "This design improves the sample complexity for realizing logarithmic regret from "
        "$O(d)$ to $O(\\sqrt{d})$."
    )
    assert (a.quantity, b.quantity) == ("sample complexity", "sample complexity")
    assert (a.attribution, b.attribution) == ("prior", "this")


def test_v5_converging_at_a_rate_is_a_convergence_rate() -> None:
    b = only("The method addresses forgetting and bias while converging at a rate of $O(1/\\sqrt{T})$.")
    assert b.quantity == "convergence rate"


def test_v5_unit_after_the_formula_measures_the_quantity_before() -> None:
    b = only("We build a class with information complexity at least $\\Omega(d \\log d)$ bits.")
    assert (b.quantity, b.kind) == ("information complexity", "lower")
    assert only("The scheme achieves a regret of $O(\\log \\log T)$ bits.").quantity == "regret"


def test_v5_formula_between_commas_restates_the_phrase_before() -> None:
    b = only("However, the algorithm runs in near linear time, $\\tilde{O}(n)$, and needs few samples.")
    assert (b.quantity, b.soft) == ("running time", True)


def test_v5_cues_of_an_earlier_coordinated_predicate_stay_there(bounds_pipeline: Any) -> None:
    (b,) = parsed_bounds(
        bounds_pipeline,
        "We propose a novel algorithm that improves upon the state of the art and achieves an "
        "error rate of $O(1/T)$ after $T$ queries.",
    )
    assert b.attribution == "this"
    (b,) = parsed_bounds(
        bounds_pipeline,
        "This closes the gap between the works of Smith (2020) and Jones (1993) and characterizes "
        "the query complexity of this problem to be $\\Theta(1/\\varepsilon)$.",
    )
    assert (b.attribution, b.kind) == ("this", "tight")


def test_v5_bound_stated_before_the_abstract_speaks_of_itself() -> None:
    a, b = formula_bounds(
        "Most kernel methods require $O(n^2)$ time and space for $n$ samples. In this paper, we "
        "propose a method that runs in $O(n)$ time."
    )
    assert (a.attribution, b.attribution) == ("prior", "this")


def test_v5_known_in_a_condition_means_given() -> None:
    b = formula_bounds(
        "We study identity testing. Lastly, if $Q$ is known, the sample complexity becomes "
        "$O(\\sqrt{n}/\\epsilon^2)$."
    )[-1]
    assert (b.attribution, b.quantity) == ("this", "sample complexity")


def test_v5_prior_to_this_work() -> None:
    b = only("Prior to this work, other methods required the superlinear scaling $\\Omega(d^{3/2})$.")
    assert b.attribution == "prior"


def test_v5_in_this_case_is_not_this_paper() -> None:
    b = only(
        "It is known that in this case, all features can be recovered using no more than $O(k)$ queries."
    )
    assert (b.attribution, b.quantity) == ("prior", "query complexity")


def test_v5_object_of_an_improving_verb_is_prior(bounds_pipeline: Any) -> None:
    (b,) = parsed_bounds(
        bounds_pipeline,
        "A linear rate is proved for strongly convex problems, which substantially improves the "
        "sublinear rate $O(K^{-0.8})$ of the best known algorithm.",
    )
    assert b.attribution == "prior"


def test_v5_bound_established_in_this_paper() -> None:
    b = only(
        "The latter result is optimal, matching the $\\Omega(\\sqrt{T})$ lower bound "
        "established in this paper."
    )
    assert (b.attribution, b.kind) == ("this", "lower")
