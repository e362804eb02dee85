"""Attribution: this paper's result or earlier work's, from cues read in the formula's clause
(citations, "previous", "we"), from "from $A$ to $B$", the object of an improving verb, a list or
an enumeration, a clause without a subject of its own, and the background before the abstract
speaks of itself.

Expected fields are written from the sentences, not from extractor output.
"""

from __future__ import annotations

from typing import Any

import pytest

from kg.types import Paper
from tests.unit.bounds_cases import attributions, formula_bounds, only, parsed_bounds, unparsed


@pytest.mark.parametrize(
    ("abstract", "attributions"),
    [
        # "suffers" describes a baseline …
        ("Despite this, Stress Majorization suffers from high complexity $O(n^3)$ per iteration.", ["prior"]),
        ("In contrast, an i.i.d. sample suffers $\\Omega(n^{-1/4})$ integration error.", ["prior"]),
        # … unless a lower bound over every method, or this paper's method, suffers it
        ("We prove that any algorithm must suffer $\\Omega(\\sqrt{T})$ regret.", ["this"]),
        ("Our method suffers only $O(\\log T)$ regret.", ["this"]),
        ("We show, by construction, that the algorithm suffers an $\\Omega(T^{2/3})$ regret.", ["this"]),
        # a semicolon closes the clause whose cues spoke of earlier work
        (
            "We show how OBD improves upon state-of-the-art guarantees; in particular, it is the first "
            "algorithm to achieve a competitive ratio $3 + O(1/\\alpha)$.",
            ["this"],
        ),
        # "$X$ of <a method the abstract does not introduce>" or of a class of methods
        (
            "We develop an algorithm ADSAGA with $\\tilde O(n\\kappa)$ iterations. It sits between the "
            "complexity $\\tilde O(n + \\kappa)$ of SAGA and the complexity $\\tilde O(n + m\\kappa)$ of "
            "parallel asynchronous algorithms.",
            ["this", "prior", "prior"],
        ),
        ("We develop ADSAGA. It needs $\\tilde O(n\\kappa)$ iterations of ADSAGA in total.", ["this"]),
        # "$X$ is known", "was conjectured", "to date", "up to now"
        ("For the tabular case, a lower bound of $\\Omega(\\sqrt{SAT})$ is known.", ["prior"]),
        ("It was conjectured that $O(n\\log n)$ comparisons suffice.", ["prior"]),
        ("Up to now, the best bound was $O(\\kappa^2)$.", ["prior"]),
        # "our task", "our setting": the paper's setting claims nothing
        (
            "We compare our schedule to benchmarks in our task including $\\eta_T \\sim T^{-\\xi}$.",
            ["prior"],
        ),
        # a prior cue opening the sentence yields to "we" later in it
        (
            "Existing guarantees are loose. In contrast, we show that EM needs $O(1)$ iterations, as "
            "long as $m$ grows as $e^{o(n)}$.",
            ["this", "this"],
        ),
    ],
)
def test_bounds_attribution_cues(abstract: str, attributions: list[str]) -> None:
    assert [b.attribution for b in formula_bounds(abstract)] == attributions


def test_bounds_attribution_citation_year_with_letter() -> None:
    b = only("The first paper (Li, 2009a) on sketches reduces the sample complexity to $O(1/\\Delta)$.")
    assert b.attribution == "prior"


def test_bounds_attribution_clause_without_subject_continues_the_bound_before(bounds_pipeline: Any) -> None:
    a, b = parsed_bounds(
        bounds_pipeline,
        "This improves results of Rakhlin et al. (2012), both of which achieved error $O(1/T)$, "
        "but only in expectation, and achieved a high probability error bound of $O(\\log T/T)$.",
    )
    assert (a.attribution, b.attribution) == ("prior", "prior")


def test_bounds_attribution_clause_with_its_own_subject_does_not_continue(bounds_pipeline: Any) -> None:
    a, b = parsed_bounds(
        bounds_pipeline,
        "Prior methods achieve $O(1/\\sqrt{T})$ error, while we achieve an error of $O(1/T)$.",
    )
    assert (a.attribution, b.attribution) == ("prior", "this")


def test_bounds_attribution_the_paper_is_this_paper() -> None:
    a, b = formula_bounds(
        "Previous methods need $O(\\epsilon^{-4})$ samples. The paper presents a new method and "
        "establishes the $O(\\epsilon^{-2})$ sample complexity."
    )
    assert (a.attribution, b.attribution) == ("prior", "this")


def test_bounds_attribution_getting_below_a_baseline() -> None:
    a, b = formula_bounds(
        "Our algorithm runs in $O(2.8^n)$ expected time, getting below $O(3^n)$ for the first time."
    )
    assert (a.attribution, b.attribution) == ("this", "prior")


def test_bounds_attribution_cues_of_an_earlier_coordinated_predicate_stay_there(bounds_pipeline: Any) -> None:
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


def test_bounds_attribution_bound_stated_before_the_abstract_speaks_of_itself() -> None:
    a, b = formula_bounds(
        "Most kernel methods require $O(n^2)$ time and space for $n$ samples. In this paper, we "
        "propose a method that runs in $O(n)$ time."
    )
    assert (a.attribution, b.attribution) == ("prior", "this")


def test_bounds_attribution_known_in_a_condition_means_given() -> None:
    b = formula_bounds(
        "We study identity testing. Lastly, if $Q$ is known, the sample complexity becomes "
        "$O(\\sqrt{n}/\\epsilon^2)$."
    )[-1]
    assert (b.attribution, b.quantity) == ("this", "sample complexity")


def test_bounds_attribution_prior_to_this_work() -> None:
    b = only("Prior to this work, other methods required the superlinear scaling $\\Omega(d^{3/2})$.")
    assert b.attribution == "prior"


def test_bounds_attribution_in_this_case_is_not_this_paper() -> None:
    b = only(
        "It is known that in this case, all features can be recovered using no more than $O(k)$ queries."
    )
    assert (b.attribution, b.quantity) == ("prior", "query complexity")


def test_bounds_attribution_object_of_an_improving_verb_is_prior(bounds_pipeline: Any) -> None:
    (b,) = parsed_bounds(
        bounds_pipeline,
        "A linear rate is proved for strongly convex problems, which substantially improves the "
        "sublinear rate $O(K^{-0.8})$ of the best known algorithm.",
    )
    assert b.attribution == "prior"


def test_bounds_attribution_bound_established_in_this_paper() -> None:
    b = only(
        "The latter result is optimal, matching the $\\Omega(\\sqrt{T})$ lower bound "
        "established in this paper."
    )
    assert (b.attribution, b.kind) == ("this", "lower")


def test_bounds_attribution_first_known_claims_and_a_formula_conjecture_is_prior() -> None:
    first = unparsed("We give the first known sketching bounds that achieve $m = O(\\sqrt{d})$ rows.")
    assert [b.attribution for b in first] == ["this"]
    assert [b.attribution for b in unparsed("It is known that $O(\\sqrt{d})$ rows suffice.")] == ["prior"]
    conjecture = "In particular, our result disproves a longstanding $\\Theta(\\log S/S)$ conjecture."
    assert [b.attribution for b in unparsed(conjecture)] == ["prior"]


def test_bounds_attribution_from_a_rate_of_a_formula_to_another() -> None:
    abstract = "Its local convergence rate accelerates from a rate of $O(1/k)$ to up to $O(1/k^{3/2})$."
    assert [b.attribution for b in unparsed(abstract)] == ["prior", "this"]


def test_bounds_attribution_aligned_with_the_lower_bound_is_prior() -> None:
    abstract = (
        "We show that the method has an $O(T^{2/3})$ dynamic regret bound, which is aligned with the "
        "$\\Omega(T^{2/3})$ lower bound of online learning with full labels."
    )
    assert [b.attribution for b in unparsed(abstract)] == ["this", "prior"]
    consistent = abstract.replace("aligned with", "consistent with")
    assert [b.attribution for b in unparsed(consistent)] == ["this", "prior"]


def test_bounds_attribution_from_a_formula_for_a_method_to_another() -> None:
    abstract = (
        "The result is an improvement in sample complexity from $\\widetilde{O}(1/\\epsilon^{11})$ for "
        "PC-PG to $\\widetilde{O}(1/\\epsilon^3)$ for COPOE."
    )
    assert [b.attribution for b in unparsed(abstract)] == ["prior", "this"]
    # "to" as an infinitive, no formula after it: not an improvement from the formula
    learn = "We need from $O(d)$ up to many samples to learn the class."
    assert [b.attribution for b in unparsed(learn)] == ["this"]


def test_bounds_attribution_attaining_the_best_known_value_is_a_claim() -> None:
    abstract = "We show that plain SGD can achieve the fastest known $O(1/(NT))$ convergence rate."
    assert [b.attribution for b in unparsed(abstract)] == ["this"]
    improved = "Our method improves upon the best known $O(1/\\epsilon^2)$ sample complexity."
    assert [b.attribution for b in unparsed(improved)] == ["prior"]


def test_bounds_attribution_a_later_item_of_an_enumeration_keeps_the_first_items_attribution(
    bounds_pipeline: Any,
) -> None:
    abstract = (
        "Our bound recovers the previously known bounds in two special cases: (i) the switching cost "
        "regret $\\widetilde{\\Theta}(T^{2/3})$ where $C=\\Theta(k)$, and (ii) the interval metric with "
        "regret $\\widetilde{\\Theta}(\\sqrt{kT})$ where $C=\\Theta(1)$."
    )
    paper = Paper(id="p-test", title="t", abstract=abstract)
    bounds = [b for b in bounds_pipeline.extract_one(paper).bounds if b.form == "formula"]
    assert [b.attribution for b in bounds] == ["prior", "prior"]


def test_bounds_attribution_a_reaching_participle_after_the_earlier_work() -> None:
    ours = "Our method improves upon the original regret bound for smooth losses, achieving $O(T^{2/3})$."
    assert [b.attribution for b in unparsed(ours)] == ["this"]
    theirs = "Prior work improved upon the original bound, achieving a regret of $O(T^{3/4})$."
    assert [b.attribution for b in unparsed(theirs)] == ["prior"]


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        (
            "It leads to a regret of $\\tilde{O}(\\sqrt{HSAT})$ that matches the established lower bound "
            "of $\\Omega(\\sqrt{HSAT})$ up to a logarithmic factor.",
            ["this", "prior"],
        ),
        ("Our result is the first to break the $O(T^{3/4})$ barrier left open.", ["prior"]),
        ("This breaks the $\\Omega(d \\log T)$ lower bound for dense problems.", ["prior"]),
        (
            "We reduce the complexity $O(n^3)$ of the original ADM based method to $O(rn^2)$.",
            ["prior", "this"],
        ),
        ("The query complexity drops from $\\Theta(nk)$ (no side data) to $O(k^2)$.", ["prior", "this"]),
        (
            "For bandits, the proposed algorithm achieves a regret of $O(T^{1/2}/\\epsilon)$, while the "
            "previously best known regret bound was $O(T^{2/3}/\\epsilon)$.",
            ["this", "prior"],
        ),
    ],
)
def test_bounds_attribution_earlier_values_and_this_papers(
    bounds_pipeline: Any, abstract: str, expected: list[str]
) -> None:
    assert attributions(bounds_pipeline, abstract) == expected


def test_bounds_attribution_what_a_reduction_restates_is_no_earlier_value(bounds_pipeline: Any) -> None:
    abstract = "With the support, we can greatly reduce the sample complexity of a task, i.e., $l \\in O(1)$."
    assert attributions(bounds_pipeline, abstract) == ["this"]
    study = (
        "Structure learning for LiNGAMs in high dimensions remains unexplored. This study introduces an "
        "algorithm that achieves the optimal sample complexity, $n = \\Theta(d \\log p)$. The proposed "
        "method is evaluated on synthetic data."
    )
    assert attributions(bounds_pipeline, study) == ["this"]


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        (
            "We obtain an algorithm with overhead $O(\\ln k)$, improving the one with overhead "
            "$O(\\ln^2 k)$ in \\cite{BHPQ17}.",
            ["this", "prior"],
        ),
        ("This improves the regret $O(d^{7/2} \\sqrt{T})$ by Lee et al. 2020.", ["prior"]),
        ("Our algorithm attains regret $O(\\sqrt{T})$ (Theorem 2) on all instances.", ["this"]),
    ],
)
def test_bounds_attribution_a_citation_after_the_formula(
    bounds_pipeline: Any, abstract: str, expected: list[str]
) -> None:
    assert attributions(bounds_pipeline, abstract) == expected


def test_bounds_attribution_a_resource_after_a_recovering_verb_is_no_earlier_value(
    bounds_pipeline: Any,
) -> None:
    ours = "Our method can recover the tensor exactly from $O(n^{3/2} r^5)$ samples."
    assert attributions(bounds_pipeline, ours) == ["this"]
    recovered = "This recovers the $O(\\sqrt{T})$ rate of prior work."
    assert attributions(bounds_pipeline, recovered) == ["prior"]


def test_bounds_attribution_what_has_been_developed_is_earlier_work(bounds_pipeline: Any) -> None:
    developed = "Approximations have been developed which avoid the $O(N^3)$ scaling with dataset size $N$."
    assert attributions(bounds_pipeline, developed) == ["prior"]


def test_bounds_attribution_from_a_typical_value_to_merely_another(bounds_pipeline: Any) -> None:
    abstract = (
        "Using our hashing method, the query time of a (K,L)-parameterized LSH is reduced from the "
        "typical O(dKL) complexity to merely O(KL+dL), where d is the number of nonzeros."
    )
    paper = Paper(id="p-test", title="t", abstract=abstract)
    bounds = [b for b in bounds_pipeline.extract_one(paper).bounds if b.form == "formula"]
    assert [(b.latex, b.attribution) for b in bounds] == [("O(dKL)", "prior"), ("O(KL+dL)", "this")]


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        (
            "The classic rate $\\Theta(1/\\sqrt{T})$ for convex functions is a special case of our result.",
            "prior",
        ),
        (
            "Our regret bounds are close to the lower bound of $\\Omega(\\sqrt{dT})$ for this problem.",
            "prior",
        ),
        # the algorithms' own: "their" is no reference to earlier work
        ("The algorithms are randomized and their query complexities are $O(m \\log n)$.", "this"),
    ],
)
def test_bounds_attribution_a_classic_value_and_one_a_result_is_close_to(
    bounds_pipeline: Any, abstract: str, expected: str
) -> None:
    paper = Paper(id="p-test", title="t", abstract=abstract)
    (bound,) = [b for b in bounds_pipeline.extract_one(paper).bounds if b.form == "formula"]
    assert bound.attribution == expected


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        (
            "Compared to classical samplers that mix in $O(d^2)$ steps, LangevinX mixes in $O(d)$ steps "
            "on log-concave targets.",
            ["prior", "this"],
        ),
        (
            "Sketching is cheap. Unlike the existing solvers, which take $O(n^3)$ time, the sketched "
            "solver needs $O(\\log n)$ passes over the data.",
            ["prior", "this"],
        ),
        (
            "In contrast to the convex case, the best known rate for nonconvex objectives is "
            "$O(1/\\sqrt{T})$.",
            ["prior"],
        ),
    ],
)
def test_bounds_attribution_a_contrast_set_before_the_main_clause_speaks_of_the_contrasted(
    bounds_pipeline: Any, abstract: str, expected: list[str]
) -> None:
    assert attributions(bounds_pipeline, abstract) == expected


@pytest.mark.parametrize(
    "abstract",
    [
        "We study kernel ridge regression. Conventional solvers for it need $O(n^3)$ time.",
        "We study online portfolios. Traditionally, methods with logarithmic regret run in $O(T^{14})$ time "
        "per round.",
        "We study dense subgraphs in streams. A naive approach to finding the densest one requires $O(n^2)$ "
        "memory.",
        "We study semidefinite programs. These are usually solved by interior point methods in $O(n^{6})$ "
        "time.",
    ],
)
def test_bounds_attribution_what_is_conventional_or_naive_is_earlier_work(
    bounds_pipeline: Any, abstract: str
) -> None:
    assert attributions(bounds_pipeline, abstract) == ["prior"]


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        ("We prove that no estimator of the drift can reach a rate faster than $O(1/n)$.", ["this"]),
        ("We show it is not possible to identify more than $O(\\log n)$ of the hidden rankings.", ["this"]),
        ("Our sampler mixes faster than $O(d^2)$, the rate of earlier samplers.", ["prior"]),
    ],
)
def test_bounds_attribution_a_denied_comparison_states_the_papers_bound(
    bounds_pipeline: Any, abstract: str, expected: list[str]
) -> None:
    assert attributions(bounds_pipeline, abstract) == expected


@pytest.mark.parametrize(
    "abstract",
    [
        "We study dueling bandits. The regret of the new method is at most $O(\\sqrt{KT})$, thus matching "
        "existing lower bounds.",
        "We study sparse recovery. The sketch needs only $O(s \\log n)$ measurements, outperforming "
        "previous designs.",
    ],
)
def test_bounds_attribution_a_participle_commenting_on_the_bound_does_not_make_it_prior(
    bounds_pipeline: Any, abstract: str
) -> None:
    assert attributions(bounds_pipeline, abstract) == ["this"]


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        (
            "Our algorithm attains regret $O(\\Psi d \\sqrt{T})$. This is an improvement over "
            "$O(d \\sqrt{T})$ for independent users.",
            ["this", "prior"],
        ),
        (
            "We give a rate of $O(1/T)$, a substantial improvement upon the worst case $O(1/\\sqrt{T})$ "
            "rates.",
            ["this", "prior"],
        ),
    ],
)
def test_bounds_attribution_what_an_improvement_is_over_is_earlier_work(
    bounds_pipeline: Any, abstract: str, expected: list[str]
) -> None:
    assert attributions(bounds_pipeline, abstract) == expected


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        # the comparison is of the uncertainty, in a clause of its own: the verb after it states the bound
        (
            "Our algorithm, which labels a point if the uncertainty is larger than a threshold, achieves "
            "a regret of $O(T^{2/3})$.",
            ["this"],
        ),
        # the formula is what is compared
        ("Our sampler mixes in $O(d)$ steps, faster than $O(d^2)$.", ["this", "prior"]),
    ],
)
def test_bounds_attribution_a_comparison_speaks_only_of_what_it_compares(
    bounds_pipeline: Any, abstract: str, expected: list[str]
) -> None:
    assert attributions(bounds_pipeline, abstract) == expected


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        (
            "We study finite-sum problems. For non-smooth functions, existing methods require "
            "$O(N\\epsilon^{-2})$ queries to compute an $\\epsilon$-suboptimal point and "
            "$O(N\\epsilon^{-1})$ queries if the functions are smooth.",
            ["prior", "prior"],
        ),
        (
            "Previous algorithms need $O(d^2)$ memory. The memory drops to $O(d)$, while the server "
            "runs in $O(n)$ time.",
            ["prior", "this", "this"],
        ),
    ],
)
def test_bounds_attribution_a_bound_without_cues_follows_the_bound_before_it_in_its_sentence(
    bounds_pipeline: Any, abstract: str, expected: list[str]
) -> None:
    assert attributions(bounds_pipeline, abstract) == expected


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        (
            "We study listwise ranking. However, given $N$ items, computing the likelihood under the "
            "model has a time complexity of $O(N!)$.",
            ["prior"],
        ),
        # "the algorithm" is the paper's own, spoken of again
        (
            "We give a simple sampler. However, the algorithm runs in near linear time, $O(n \\log n)$.",
            ["this"],
        ),
    ],
)
def test_bounds_attribution_a_sentence_set_against_what_came_before_speaks_of_earlier_work(
    bounds_pipeline: Any, abstract: str, expected: list[str]
) -> None:
    assert attributions(bounds_pipeline, abstract) == expected


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        (
            "Compared to existing private methods, which have sub-optimal error bounds, PrivSGD provides "
            "nearly optimal error bounds. For Gaussian covariates, the excess error of PrivSGD is "
            "$O(d/N)$.",
            ["this"],
        ),
        (
            "Different from previous works that require Gaussian data, the algorithm allows other "
            "distributions. When the number of components is fixed, the algorithm has sample complexity "
            "$\\tilde{O}(d)$.",
            ["this"],
        ),
        # the main clause cites: its cue still speaks for the sentence
        (
            "Unlike our setting, the classical analysis of Smith et al. (2019) assumes bounded noise. "
            "Under that assumption, the error is $O(1/n)$.",
            ["prior"],
        ),
    ],
)
def test_bounds_attribution_an_earlier_sentence_keeps_the_cues_of_its_fronted_contrast_to_itself(
    bounds_pipeline: Any, abstract: str, expected: list[str]
) -> None:
    assert attributions(bounds_pipeline, abstract) == expected


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        (
            "We study bandits with unknown delays. Existing algorithms become intractable when the "
            "delays are unknown. Two new algorithms are developed for this setting. Both guarantee an "
            "$O(\\sqrt{KT})$ regret.",
            ["this"],
        ),
        # the sentence right before still hands its earlier-work cue on
        (
            "We study bandits with unknown delays. Existing algorithms need a known horizon. They "
            "guarantee an $O(\\sqrt{KT})$ regret.",
            ["prior"],
        ),
    ],
)
def test_bounds_attribution_earlier_work_is_inherited_from_the_sentence_right_before_only(
    bounds_pipeline: Any, abstract: str, expected: list[str]
) -> None:
    assert attributions(bounds_pipeline, abstract) == expected
