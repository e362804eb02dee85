"""The grain of a quantity's name: the qualifiers that say which quantity it is are kept ("Nash
regret", "expected regret", "calibration error"), the words that describe the bound or its regime
are not ("optimal", "worst-case", "gap-dependent", "$T$-round"). The qualifiers come from the
parse, so most of these run through the real spaCy pipeline.

Expected fields are written from the sentences, not from extractor output.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.bounds_cases import attributions, quantities, unparsed


@pytest.mark.parametrize(
    ("abstract", "quantity"),
    [
        ("Our algorithm achieves a Nash regret of $O(T^{4/5})$ in potential games.", "Nash regret"),
        ("The learner attains $O(T^{3/4})$ expected regret against any adversary.", "expected regret"),
        ("We prove that the Bayesian regret of the sampler is $\\tilde{O}(d\\sqrt{T})$.", "Bayesian regret"),
        ("It guarantees a calibration error of $O(T^{1/3})$ for every sequence.", "calibration error"),
        ("We bound the optimization error by $O(1/k^2)$ after $k$ steps.", "optimization error"),
    ],
)
def test_bounds_quantity_qualifiers_that_name_the_quantity_are_kept(
    bounds_pipeline: Any, abstract: str, quantity: str
) -> None:
    assert quantities(bounds_pipeline, abstract) == [quantity]


@pytest.mark.parametrize(
    "abstract",
    [
        "Our algorithm achieves the minimax optimal regret of $O(\\sqrt{T})$ on every instance.",
        "We prove a worst-case regret of $O(\\sqrt{T})$ for the proposed policy.",
        "The policy enjoys a gap-dependent regret of $O(\\log T)$ in the stochastic setting.",
        "The algorithm suffers a high-probability regret of $O(\\sqrt{T})$ against adaptive adversaries.",
    ],
)
def test_bounds_quantity_words_describing_the_bound_are_dropped(bounds_pipeline: Any, abstract: str) -> None:
    assert quantities(bounds_pipeline, abstract) == ["regret"]


def test_bounds_quantity_a_describing_word_goes_with_the_word_it_modifies(bounds_pipeline: Any) -> None:
    # "worst case" is the regime; "cumulative" still says which regret
    assert quantities(
        bounds_pipeline, "Specifically, the cumulative achievable regret over horizon $T$ is $O(\\sqrt{T})$."
    ) == ["cumulative regret"]


def test_bounds_quantity_a_parenthesised_qualifier_and_a_symbol_between_qualifiers(
    bounds_pipeline: Any,
) -> None:
    assert (
        quantities(
            bounds_pipeline, "Prior work guarantees an optimal (dynamic) regret $\\sqrt{LT}$ for $T$ rounds."
        )[0]
        == "dynamic regret"
    )
    assert quantities(
        bounds_pipeline, "We show that the expected $\\ell_2$ error of our algorithm is $O(n^{k-1})$."
    ) == ["expected error"]


def test_bounds_quantity_the_formula_itself_is_no_qualifier(bounds_pipeline: Any) -> None:
    # the words before "$X$ regret" are the sentence's subject, not qualifiers of "regret"
    abstract = "We show that the proposed algorithm attains $O(\\sqrt{T})$ regret."
    assert quantities(bounds_pipeline, abstract) == ["regret"]


def test_bounds_quantity_a_convergence_rate_keeps_no_qualifier(bounds_pipeline: Any) -> None:
    assert quantities(
        bounds_pipeline, "The method enjoys an accelerated convergence rate of $O(1/T^2)$ for smooth losses."
    ) == ["convergence rate"]


def test_bounds_quantity_without_a_parse_the_rules_name_stays() -> None:
    (b,) = unparsed("Our algorithm achieves a Nash regret of $O(T^{4/5})$ in potential games.")
    assert b.quantity == "regret"


def test_bounds_quantity_plural_and_unit_forms_take_qualifiers_too(bounds_pipeline: Any) -> None:
    assert quantities(
        bounds_pipeline, "Forecasters achieve a calibration error rate of $O(1/\\sqrt{T})$ in general."
    ) == ["calibration error"]
    assert quantities(
        bounds_pipeline, "We prove an expected regret bound of $\\tilde{O}(\\sqrt{KT})$ for the sampler."
    ) == ["expected regret"]


def test_bounds_quantity_a_hyphenated_two_word_quantity(bounds_pipeline: Any) -> None:
    assert quantities(
        bounds_pipeline, "Existing approaches have an iteration-complexity of $O(1/\\epsilon^2)$ here."
    ) == ["iteration complexity"]


def test_bounds_quantity_a_hyphenated_describing_word_and_counted_mistakes(bounds_pipeline: Any) -> None:
    assert quantities(
        bounds_pipeline, "This improves the best-known regret of $\\Omega(\\sqrt{H^3 SAT})$ for such games."
    ) == ["regret"]
    abstract = "The learner makes at most $O(d \\log n)$ mistakes."
    assert quantities(bounds_pipeline, abstract) == ["number of mistakes"]


def test_bounds_quantity_in_expectation_qualifies_the_quantity(bounds_pipeline: Any) -> None:
    abstract = "The learner achieves a regret bound of $\\tilde{O}(\\sqrt{T})$ in expectation."
    assert quantities(bounds_pipeline, abstract) == ["expected regret"]
    # a counted resource is no expected quantity
    assert quantities(bounds_pipeline, "It requires $O(n \\log n)$ samples in expectation.") == [
        "sample complexity"
    ]


def test_bounds_quantity_total_variation_distance_is_one_name(bounds_pipeline: Any) -> None:
    abstract = "We show that the optimal total variation distance is $\\tilde\\Theta(D/n)$ for all pairs."
    assert quantities(bounds_pipeline, abstract) == ["total variation distance"]


def test_bounds_quantity_sublinear_describes_the_bound(bounds_pipeline: Any) -> None:
    abstract = "The algorithm secures a $\\tilde{O}(d\\sqrt{n})$ sub-linear regret under mild conditions."
    assert quantities(bounds_pipeline, abstract) == ["regret"]


def test_bounds_quantity_such_approaches_and_uniformly_convex_losses(bounds_pipeline: Any) -> None:
    such = "Such approaches usually require $\\Omega(N^2)$ time per iteration."
    assert attributions(bounds_pipeline, such) == ["prior"]
    uniformly = "We show its complexity is $O(1/\\epsilon^{1/d})$ for uniformly convex loss of order $d$."
    assert quantities(bounds_pipeline, uniformly) == ["computational complexity"]
