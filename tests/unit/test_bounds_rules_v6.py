"""The ``bounds.latex.v6`` mechanisms on hand-built sentences, one test (or more) each.

v6 names a quantity at one grain: the qualifiers that say which quantity it is are kept ("Nash
regret", "expected regret", "calibration error"), the words that describe the bound or its regime
are not ("optimal", "worst-case", "gap-dependent", "$T$-round"); a symbol between qualifiers is
skipped ("expected $\\ell_2$ error"); a convergence rate keeps no qualifier; bits of space or of
communication are a space or a communication complexity; a resource noun naming a bound before
the formula ("communication lower bounds of $X$") names its quantity. The qualifiers come from
the parse, so these run through the real spaCy pipeline. Expected fields are written from the
sentences, not from extractor output. The v7 and v8 mechanisms follow, one test each.
"""

from __future__ import annotations

from typing import Any

import pytest

from extractors.bounds import extract_bounds
from kg.types import Bound, Paper


def quantities(pipeline: Any, abstract: str) -> list[str | None]:
    paper = Paper(id="p-test", title="t", abstract=abstract)
    return [b.quantity for b in pipeline.extract_one(paper).bounds if b.form == "formula"]


def unparsed(abstract: str) -> list[Bound]:
    return [b for b in extract_bounds(abstract) if b.form == "formula"]


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
def test_v6_qualifiers_that_name_the_quantity_are_kept(
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
def test_v6_words_describing_the_bound_are_dropped(bounds_pipeline: Any, abstract: str) -> None:
    assert quantities(bounds_pipeline, abstract) == ["regret"]


def test_v6_a_describing_word_goes_with_the_word_it_modifies(bounds_pipeline: Any) -> None:
    # "worst case" is the regime; "cumulative" still says which regret
    assert quantities(
        bounds_pipeline, "Specifically, the cumulative achievable regret over horizon $T$ is $O(\\sqrt{T})$."
    ) == ["cumulative regret"]


def test_v6_a_parenthesised_qualifier_and_a_symbol_between_qualifiers(bounds_pipeline: Any) -> None:
    assert quantities(
        bounds_pipeline, "Prior work guarantees an optimal (dynamic) regret $\\sqrt{LT}$ for $T$ rounds."
    )[0] == "dynamic regret"
    assert quantities(
        bounds_pipeline, "We show that the expected $\\ell_2$ error of our algorithm is $O(n^{k-1})$."
    ) == ["expected error"]


def test_v6_the_formula_itself_is_no_qualifier(bounds_pipeline: Any) -> None:
    # the words before "$X$ regret" are the sentence's subject, not qualifiers of "regret"
    abstract = "We show that the proposed algorithm attains $O(\\sqrt{T})$ regret."
    assert quantities(bounds_pipeline, abstract) == ["regret"]


def test_v6_a_convergence_rate_keeps_no_qualifier(bounds_pipeline: Any) -> None:
    assert quantities(
        bounds_pipeline, "The method enjoys an accelerated convergence rate of $O(1/T^2)$ for smooth losses."
    ) == ["convergence rate"]


def test_v6_bits_of_space_and_of_communication(bounds_pipeline: Any) -> None:
    assert quantities(
        bounds_pipeline, "Any such streaming algorithm must use $\\Omega(d\\kappa)$ bits of space."
    ) == ["space complexity"]
    assert quantities(
        bounds_pipeline, "The protocol requires only $O(d)$ bits of communication per round."
    ) == ["communication complexity"]
    assert quantities(bounds_pipeline, "The sketch is stored in $O(\\log n)$ bits.") == ["number of bits"]


def test_v6_a_resource_noun_naming_the_bound_before_the_formula(bounds_pipeline: Any) -> None:
    assert quantities(
        bounds_pipeline, "We also show communication lower bounds of $\\Omega(sd^2)$ for this problem."
    ) == ["communication complexity"]
    abstract = "For such features, our space lower bound is $\\tilde\\Omega(d^2)$."
    assert quantities(bounds_pipeline, abstract) == ["space complexity"]


def test_v6_without_a_parse_the_rules_name_stays() -> None:
    (b,) = unparsed("Our algorithm achieves a Nash regret of $O(T^{4/5})$ in potential games.")
    assert b.quantity == "regret"


# -- bounds.latex.v7 ---------------------------------------------------------------------------


def test_v7_plural_and_unit_forms_take_qualifiers_too(bounds_pipeline: Any) -> None:
    assert quantities(
        bounds_pipeline, "Forecasters achieve a calibration error rate of $O(1/\\sqrt{T})$ in general."
    ) == ["calibration error"]
    assert quantities(
        bounds_pipeline, "We prove an expected regret bound of $\\tilde{O}(\\sqrt{KT})$ for the sampler."
    ) == ["expected regret"]


def test_v7_a_hyphenated_two_word_quantity(bounds_pipeline: Any) -> None:
    assert quantities(
        bounds_pipeline, "Existing approaches have an iteration-complexity of $O(1/\\epsilon^2)$ here."
    ) == ["iteration complexity"]


def test_v7_a_lone_complexity_is_the_one_named_before(bounds_pipeline: Any) -> None:
    abstract = (
        "We analyze the sample complexity of penalty methods for constrained problems. "
        "The constraints differ among three cases. "
        "To find a stationary point, we require $\\widetilde{O}(\\varepsilon^{-3})$ complexity "
        "in the first case."
    )
    assert quantities(bounds_pipeline, abstract) == ["sample complexity"]


def test_v7_competitiveness(bounds_pipeline: Any) -> None:
    abstract = "We give an algorithm that achieves an $O(\\sqrt{\\kappa})$-competitiveness here."
    assert quantities(bounds_pipeline, abstract) == ["competitive ratio"]


# -- bounds.latex.v8 ---------------------------------------------------------------------------


def test_v8_the_object_improved_to_a_formula(bounds_pipeline: Any) -> None:
    abstract = "We reduce the space to $O(|V|)$ and the time to $O(|V|^{2.5})$ in the expected case."
    assert quantities(bounds_pipeline, abstract) == ["space complexity", "running time"]


def test_v8_a_resource_right_before_outranks_coordination(bounds_pipeline: Any) -> None:
    abstract = "Any such learner either requires space $\\Omega(nm/d)$ or $2^{\\Omega(n/d)}$ time."
    assert quantities(bounds_pipeline, abstract) == ["space complexity", "running time"]


def test_v8_a_phrase_naming_a_symbol_is_not_the_quantity(bounds_pipeline: Any) -> None:
    abstract = (
        "Though we understand the sample complexity of learning a VC dimension $d$ class on $k$ "
        "distributions to be $O(\\epsilon^{-2} (d + k))$, the lower bound is weaker."
    )
    assert quantities(bounds_pipeline, abstract)[0] == "sample complexity"


def test_v8_convergence_right_after_a_formula(bounds_pipeline: Any) -> None:
    abstract = (
        "Both methods exhibit $O(1/\\sqrt{T})$ last-iterate convergence and $O(1/T)$ "
        "average-iterate convergence."
    )
    assert quantities(bounds_pipeline, abstract) == ["convergence rate", "convergence rate"]


# -- bounds.latex.v9 ---------------------------------------------------------------------------


def test_v9_a_number_of_phrase_ends_at_its_verb(bounds_pipeline: Any) -> None:
    abstract = "We show that the number of neurons must be at least $2^{\\Omega(d \\log d)}$ for this task."
    assert quantities(bounds_pipeline, abstract) == ["number of neurons"]
    (b,) = unparsed(abstract)  # also without the parse
    assert b.quantity == "number of neurons"


def test_v9_a_hyphenated_describing_word_and_counted_mistakes(bounds_pipeline: Any) -> None:
    assert quantities(
        bounds_pipeline, "This improves the best-known regret of $\\Omega(\\sqrt{H^3 SAT})$ for such games."
    ) == ["regret"]
    abstract = "The learner makes at most $O(d \\log n)$ mistakes."
    assert quantities(bounds_pipeline, abstract) == ["number of mistakes"]


# -- bounds.latex.v10: kind -------------------------------------------------------------------


def test_v10_the_next_sentence_calls_the_bounds_tight() -> None:
    abstract = (
        "We construct algorithms with convergence rate of order $O(T^{-1/2})$ for independent "
        "signals and $O(T^{-1/3})$ otherwise. Those rates are optimal in the sense that they "
        "cannot be improved without further assumptions."
    )
    assert [b.kind for b in unparsed(abstract)] == ["tight", "tight"]
    hedged = "We show a sample complexity of $\\tilde O(d/\\alpha^2)$. This bound is nearly tight."
    assert [b.kind for b in unparsed(hedged)] == ["upper"]
    # the next sentence is about a formula of its own
    other = (
        "We show a regret of $O(\\sqrt{T})$. This result is complemented by a lower bound of "
        "$\\Omega(\\sqrt{T})$, which is tight."
    )
    assert [b.kind for b in unparsed(other)] == ["upper", "tight"]


def test_v10_known_to_be_tight() -> None:
    abstract = "The algorithm has an error bound of $O(\\sqrt{k}/\\epsilon)$, which is known to be tight."
    assert [b.kind for b in unparsed(abstract)] == ["tight"]


# -- bounds.latex.v11 ---------------------------------------------------------------------------


@pytest.mark.parametrize("head", ["O^*", "O^\\ast", "O^{*}", "O^{\\ast}"])
def test_v11_a_starred_head_hides_log_factors(head: str) -> None:
    bounds = unparsed(f"Our batch algorithm achieves cumulative regret ${head}(\\sqrt{{T\\gamma_T}})$.")
    assert [(b.latex, b.notation, b.kind, b.soft, b.expr) for b in bounds] == [
        (f"{head}(\\sqrt{{T\\gamma_T}})", "O", "upper", True, "sqrt(T gamma_T)")]
    # a starred symbol is no head: the optimum $x^*(t)$ bounds nothing
    assert unparsed("The optimum $x^*(t)$ moves with $t$.") == []


def test_v11_necessary_and_sufficient_is_tight() -> None:
    for said in ("are necessary (and sufficient)", "are necessary and sufficient"):
        abstract = f"We show that $\\Omega(A^2/\\varepsilon^2)$ episodes {said} to learn a good policy."
        assert [b.kind for b in unparsed(abstract)] == ["tight"]
    assert [b.kind for b in unparsed("We show that $\\Omega(A^2)$ episodes are necessary.")] == ["lower"]


def test_v11_converges_as_states_an_order() -> None:
    bounds = unparsed("Our results also include bounds that converge as $1/m$, not known before.")
    assert [(b.latex, b.kind) for b in bounds] == [("1/m", "order")]


def test_v11_first_known_claims_and_a_formula_conjecture_is_prior() -> None:
    first = unparsed("We give the first known sketching bounds that achieve $m = O(\\sqrt{d})$ rows.")
    assert [b.attribution for b in first] == ["this"]
    assert [b.attribution for b in unparsed("It is known that $O(\\sqrt{d})$ rows suffice.")] == ["prior"]
    conjecture = "In particular, our result disproves a longstanding $\\Theta(\\log S/S)$ conjecture."
    assert [b.attribution for b in unparsed(conjecture)] == ["prior"]


def test_v11_in_expectation_qualifies_the_quantity(bounds_pipeline: Any) -> None:
    abstract = "The learner achieves a regret bound of $\\tilde{O}(\\sqrt{T})$ in expectation."
    assert quantities(bounds_pipeline, abstract) == ["expected regret"]
    # a counted resource is no expected quantity
    assert quantities(bounds_pipeline, "It requires $O(n \\log n)$ samples in expectation.") == [
        "sample complexity"]


def test_v11_total_variation_distance_is_one_name(bounds_pipeline: Any) -> None:
    abstract = "We show that the optimal total variation distance is $\\tilde\\Theta(D/n)$ for all pairs."
    assert quantities(bounds_pipeline, abstract) == ["total variation distance"]


# -- bounds.latex.v12 ---------------------------------------------------------------------------


def test_v12_a_sized_plural_is_named_in_the_singular(bounds_pipeline: Any) -> None:
    abstract = "It is approximated with networks of size $O(d)$ but not with networks of size $o(d)$."
    assert quantities(bounds_pipeline, abstract) == ["network size", "network size"]
    assert quantities(bounds_pipeline, "We learn GGMs of size $O(p^2)$ quickly.") == ["GGM size"]


def test_v12_a_formula_approximation_is_an_approximation_ratio(bounds_pipeline: Any) -> None:
    abstract = "Both permanents are $\\exp(O(k \\log(N/k)))$ approximations to the permanent."
    assert quantities(bounds_pipeline, abstract) == ["approximation ratio"]


def test_v12_so_long_as_states_a_regime() -> None:
    assert unparsed("Reconstruction remains impossible so long as $K=o(n)$.") == []


# -- bounds.latex.v13 ---------------------------------------------------------------------------


def test_v13_an_acronym_on_the_left_names_the_quantity_the_abstract_defines() -> None:
    abstract = (
        "We study the Recursive Teaching Dimension (RTD) of concept classes and show "
        "$\\mathrm{RTD}(\\mathcal C) = O(d^2)$."
    )
    assert [b.quantity for b in unparsed(abstract)] == ["recursive teaching dimension"]
    kept = "We bound the Rademacher complexity (RC) of the class: $\\mathrm{RC} \\le O(1/\\sqrt{n})$."
    assert [b.quantity for b in unparsed(kept)] == ["Rademacher complexity"]
    # an acronym the abstract does not define names nothing
    assert [b.quantity for b in unparsed("It holds that $\\mathrm{XYZ}(C) = O(d)$ here.")] == [None]


# -- bounds.latex.v14 ---------------------------------------------------------------------------


def test_v14_gradients_counted_are_a_gradient_complexity(bounds_pipeline: Any) -> None:
    abstract = (
        "The method finds a stationary point with $O(\\epsilon^{-3})$ stochastic gradient evaluations. "
        "A second method needs $O(\\epsilon^{-4})$ gradient computations."
    )
    assert quantities(bounds_pipeline, abstract) == ["gradient complexity", "gradient complexity"]
    # a Hessian, a function value or an oracle among the counted things: an oracle complexity
    mixed = (
        "It uses $O(\\epsilon^{-3})$ stochastic gradient and Hessian-vector products. "
        "It needs $O(\\epsilon^{-1/2})$ total function and gradient evaluations. "
        "It makes $O(\\epsilon^{-2})$ gradient queries."
    )
    assert quantities(bounds_pipeline, mixed) == ["oracle complexity"] * 3


def test_v14_primal_dual_gaps_are_named(bounds_pipeline: Any) -> None:
    abstract = (
        "Our method attains a strong gap of $O(1/\\sqrt{n})$. "
        "Its duality gap is at most $O(1/T)$ after $T$ iterations."
    )
    assert quantities(bounds_pipeline, abstract) == ["strong gap", "duality gap"]


def test_v14_this_bound_is_tight_later_in_the_sentence() -> None:
    abstract = (
        "We show that any stable algorithm has empirical gap $\\Omega(1/n)$, and that this bound is tight."
    )
    assert [b.kind for b in unparsed(abstract)] == ["tight"]
    hedged = "We show a regret of $\\Omega(\\sqrt{T})$, and that this bound is nearly tight."
    assert [b.kind for b in unparsed(hedged)] == ["lower"]
    # another formula in between: the reference is to that one
    other = "We show a regret of $\\Omega(\\sqrt{T})$ and an upper bound of $O(T)$, and this bound is tight."
    assert [b.kind for b in unparsed(other)] == ["lower", "tight"]


def test_v14_sublinear_describes_the_bound(bounds_pipeline: Any) -> None:
    abstract = "The algorithm secures a $\\tilde{O}(d\\sqrt{n})$ sub-linear regret under mild conditions."
    assert quantities(bounds_pipeline, abstract) == ["regret"]


def test_v14_a_growth_word_before_the_resource(bounds_pipeline: Any) -> None:
    abstract = "We estimate the mean with optimal error guarantees in nearly-linear time $\\widetilde O(Nd)$."
    assert quantities(bounds_pipeline, abstract) == ["running time"]
    assert quantities(bounds_pipeline, "The sketch is built in polynomial time $O(n^3)$.") == ["running time"]


def test_v14_a_bound_of_a_formula_on_a_quantity(bounds_pipeline: Any) -> None:
    abstract = (
        "Each label has a cost. When the cost is $B$, our algorithm achieves a worst-case upper bound of "
        "$\\tilde O(B^{1/3} T^{2/3})$ on the loss after $T$ rounds."
    )
    assert quantities(bounds_pipeline, abstract) == ["loss"]
    # "for" after the formula names a parameter, not what is bounded
    gap = "Existing algorithms achieve regret bounds of $O(\\log T/\\Delta)$ for suboptimality gap $\\Delta$."
    assert quantities(bounds_pipeline, gap) == ["regret"]


def test_v14_from_a_rate_of_a_formula_to_another() -> None:
    abstract = "Its local convergence rate accelerates from a rate of $O(1/k)$ to up to $O(1/k^{3/2})$."
    assert [b.attribution for b in unparsed(abstract)] == ["prior", "this"]


def test_v14_a_noun_before_dimension_names_it(bounds_pipeline: Any) -> None:
    abstract = "Every such class has $O(d \\log d)$ Natarajan dimension, and more in general."
    assert quantities(bounds_pipeline, abstract) == ["natarajan dimension"]


# -- bounds.latex.v15 ---------------------------------------------------------------------------


def test_v15_a_resource_then_at_least_or_at_most(bounds_pipeline: Any) -> None:
    abstract = (
        "We show that learning halfspaces up to error $\\epsilon$ takes time at least "
        "$d^{\\tilde{\\Omega}(1/\\epsilon^{2})}$ under standard hardness assumptions."
    )
    assert quantities(bounds_pipeline, abstract) == ["running time"]


def test_v15_a_formula_robustness(bounds_pipeline: Any) -> None:
    abstract = "The algorithm achieves $\\mathcal{O}(C/\\epsilon^2)$-robustness for any $\\epsilon > 0$."
    assert quantities(bounds_pipeline, abstract) == ["robustness"]


def test_v15_aligned_with_the_lower_bound_is_prior() -> None:
    abstract = (
        "We show that the method has an $O(T^{2/3})$ dynamic regret bound, which is aligned with the "
        "$\\Omega(T^{2/3})$ lower bound of online learning with full labels."
    )
    assert [b.attribution for b in unparsed(abstract)] == ["this", "prior"]
    consistent = abstract.replace("aligned with", "consistent with")
    assert [b.attribution for b in unparsed(consistent)] == ["this", "prior"]


def test_v15_from_a_formula_for_a_method_to_another() -> None:
    abstract = (
        "The result is an improvement in sample complexity from $\\widetilde{O}(1/\\epsilon^{11})$ for "
        "PC-PG to $\\widetilde{O}(1/\\epsilon^3)$ for COPOE."
    )
    assert [b.attribution for b in unparsed(abstract)] == ["prior", "this"]
    # "to" as an infinitive, no formula after it: not an improvement from the formula
    learn = "We need from $O(d)$ up to many samples to learn the class."
    assert [b.attribution for b in unparsed(learn)] == ["this"]


# -- bounds.latex.v16 ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("macro", "notation", "soft"),
    [
        ("\\Ot", "O", True),
        ("\\Otil", "O", True),
        ("\\Otilde", "O", True),
        ("\\bigOtil", "O", True),
        ("\\tlO", "O", True),
        ("\\mO", "O", False),
        ("\\OM", "O", False),
        ("\\O", "O", False),
        ("\\bigomega", "Omega", False),
    ],
)
def test_v16_author_macros_for_asymptotic_heads(macro: str, notation: str, soft: bool) -> None:
    (bound,) = unparsed(f"Our learner attains regret ${macro}(\\sqrt{{dT}})$ on every instance.")
    expected = (notation, soft, "sqrt(dT)", ("T", "d"))
    assert (bound.notation, bound.soft, bound.expr, bound.variables) == expected


def test_v16_a_tilde_without_its_o() -> None:
    (bound,) = unparsed("The method attains regret $\\widetilde(\\sqrt{kT})$ in finite metric spaces.")
    assert (bound.kind, bound.soft, bound.expr) == ("upper", True, "sqrt(kT)")


def test_v16_lower_bounded_by_is_no_improvement_amount() -> None:
    abstract = "We prove the regret is lower bounded by $\\Omega(\\sqrt{T})$ for every strategy."
    assert [(b.kind, b.quantity) for b in unparsed(abstract)] == [("lower", "regret")]
    # an improvement amount stays out
    assert unparsed("This lowers the sample complexity by $O(\\log n)$ over earlier work.") == []


def test_v16_a_group_name_is_not_a_bound(bounds_pipeline: Any) -> None:
    abstract = "Our estimator converges much faster than methods that operate in the $SO(3)$ space."
    assert quantities(bounds_pipeline, abstract) == []


@pytest.mark.parametrize(
    ("abstract", "quantity"),
    [
        ("Graph convolutions can be learned with $O(1)$ parameters per layer.", "number of parameters"),
        ("The relaxation uses $\\Theta(n \\log n)$ variables only.", "number of variables"),
        ("The planner needs $\\widetilde{O}(SA/\\epsilon^2)$ sample transitions.", "sample complexity"),
        ("The tournament selects the best item with $O(n \\log n)$ comparisons.", "number of comparisons"),
        ("For instance, it recovers the $O(N \\log N)$ fast Fourier transform algorithm.", "running time"),
    ],
)
def test_v16_counted_resources_and_sized_algorithms(
    bounds_pipeline: Any, abstract: str, quantity: str
) -> None:
    assert quantities(bounds_pipeline, abstract) == [quantity]


def test_v16_attaining_the_best_known_value_is_a_claim() -> None:
    abstract = "We show that plain SGD can achieve the fastest known $O(1/(NT))$ convergence rate."
    assert [b.attribution for b in unparsed(abstract)] == ["this"]
    improved = "Our method improves upon the best known $O(1/\\epsilon^2)$ sample complexity."
    assert [b.attribution for b in unparsed(improved)] == ["prior"]


def test_v16_a_later_item_of_an_enumeration_keeps_the_first_items_attribution(bounds_pipeline: Any) -> None:
    abstract = (
        "Our bound recovers the previously known bounds in two special cases: (i) the switching cost "
        "regret $\\widetilde{\\Theta}(T^{2/3})$ where $C=\\Theta(k)$, and (ii) the interval metric with "
        "regret $\\widetilde{\\Theta}(\\sqrt{kT})$ where $C=\\Theta(1)$."
    )
    paper = Paper(id="p-test", title="t", abstract=abstract)
    bounds = [b for b in bounds_pipeline.extract_one(paper).bounds if b.form == "formula"]
    assert [b.attribution for b in bounds] == ["prior", "prior"]


def test_v16_this_is_the_best_possible_and_a_matching_lower_bound_next() -> None:
    same = "The algorithm achieves regret $O(T^{2/3})$, and we show that this is the best possible."
    assert [b.kind for b in unparsed(same)] == ["tight"]
    nxt = "It finds a policy with $\\widetilde{O}(SA/\\epsilon^2)$ samples. A matching lower bound is proved."
    assert [b.kind for b in unparsed(nxt)] == ["tight"]
    hedged = "It finds a policy with $\\widetilde{O}(SA/\\epsilon^2)$ samples. A lower bound is proved."
    assert [b.kind for b in unparsed(hedged)] == ["upper"]


@pytest.mark.parametrize(
    ("abstract", "quantity"),
    [
        ("Kernel methods pay a $O(t^2)$ per-step cost after $t$ steps.", "per-step cost"),
        ("Kernel methods suffer a $O(t)$ per step complexity after $t$ steps.", "per-step complexity"),
        (
            "We obtain a learner using low-rank updates with complexity $O(k n^2)$ per iteration.",
            "computational complexity",
        ),
        ("The solver has $O(n)$ per-iteration time and space on sparse graphs.", "running time"),
    ],
)
def test_v16_a_cost_per_unit(bounds_pipeline: Any, abstract: str, quantity: str) -> None:
    assert quantities(bounds_pipeline, abstract) == [quantity]


def test_v16_exceeding_states_a_lower_bound() -> None:
    abstract = "After $T$ steps the iterates reach values exceeding $(\\mathrm{OPT}/2 - \\epsilon)$."
    assert [b.kind for b in unparsed(abstract)] == ["lower"]


# -- bounds.latex.v17 ---------------------------------------------------------------------------


@pytest.mark.parametrize(("macro", "soft"), [("\\otilde", True), ("\\otil", True), ("\\order", False)])
def test_v17_lower_case_head_macros(macro: str, soft: bool) -> None:
    (bound,) = unparsed(f"We obtain a running time of ${macro}(nd + d^2)$ on sparse inputs.")
    assert (bound.notation, bound.soft, bound.expr, bound.quantity) == ("O", soft, "nd + d^2", "running time")


def test_v17_a_tilde_whose_brace_never_closes() -> None:
    (bound,) = unparsed("We show the sample complexity is $\\widetilde{O(m/\\epsilon^2)$ for linear filters.")
    expected = ("upper", True, "m/epsilon^2", "sample complexity")
    assert (bound.kind, bound.soft, bound.expr, bound.quantity) == expected


# -- bounds.latex.v18 ---------------------------------------------------------------------------


def test_v18_short_left_right_macros() -> None:
    (bound,) = unparsed("It converges in time $\\mathcal{O}\\l(\\varepsilon^{-2}\\log(1/\\varepsilon)\\r)$.")
    assert (bound.kind, bound.expr) == ("upper", "epsilon^(-2) log(1/epsilon)")


def test_v18_a_reaching_participle_after_the_earlier_work() -> None:
    ours = "Our method improves upon the original regret bound for smooth losses, achieving $O(T^{2/3})$."
    assert [b.attribution for b in unparsed(ours)] == ["this"]
    theirs = "Prior work improved upon the original bound, achieving a regret of $O(T^{3/4})$."
    assert [b.attribution for b in unparsed(theirs)] == ["prior"]


def test_v18_a_rate_that_is_not_attainable_is_a_lower_bound() -> None:
    abstract = "This is tight in the sense that a rate of $O(1/k^{2})$ is not generally attainable by them."
    assert [b.kind for b in unparsed(abstract)] == ["lower"]
    attained = "We show that a rate of $O(1/k^{2})$ is attainable by such methods."
    assert [b.kind for b in unparsed(attained)] == ["upper"]


# -- bounds.latex.v19 ---------------------------------------------------------------------------


def test_v19_a_list_of_symbols_bounds_nothing() -> None:
    assert unparsed("The method is based on i.i.d. samples $f^1, f^2, \\ldots, f^n$ from $D$.") == []
    assert unparsed("We observe $X_1,X_2,\\ldots$ drawn from $P$.") == []
    # a sum with an ellipsis is still a bound
    (bound,) = unparsed("The total cost is $O(n_1 + \\cdots + n_k)$ over all rounds.")
    assert bound.kind == "upper"


def test_v19_a_word_set_in_math_is_no_product(bounds_pipeline: Any) -> None:
    words = "Given $iid$ observations from an unknown density, we estimate it."
    assert quantities(bounds_pipeline, words) == []
    product = "Given $nd$ observations from an unknown density, we estimate it."
    assert quantities(bounds_pipeline, product) == ["sample complexity"]


# -- bounds.latex.v20 ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        (
            "We provide an efficient $O(n \\log n)$ algorithm for this step, improving upon the "
            "previous $O(n^2)$ algorithm.",
            ["running time", "running time"],
        ),
        # a formula that sizes something else is no running time
        ("The learner runs an efficient $O(\\log n)$-competitive algorithm.", ["competitive ratio"]),
    ],
)
def test_v20_a_described_sized_algorithm(bounds_pipeline: Any, abstract: str, expected: list[str]) -> None:
    assert quantities(bounds_pipeline, abstract) == expected


def test_v20_a_rate_for_a_class_of_losses_over_its_own_iterations(bounds_pipeline: Any) -> None:
    abstract = (
        "In particular, for strongly convex loss, it achieves the optimal rate of $O(1/N + 1/N^2)$ "
        "for $N$ iterations, which improves the best known rate $O(\\log N / N)$. A multi-stage "
        "extension achieves the uniformly-optimal rate $O(1/N + \\exp\\{-N\\})$ for strongly convex loss."
    )
    assert quantities(bounds_pipeline, abstract) == ["convergence rate"] * 3
    # iterations that are no variable of the bound still count them
    counted = "The method reaches an $\\epsilon$-accurate solution after $O(1/\\epsilon)$ iterations."
    assert quantities(bounds_pipeline, counted) == ["iteration complexity"]


def test_v20_an_elided_rate_after_its_own_iterations_keeps_the_rate(bounds_pipeline: Any) -> None:
    abstract = (
        "We show that it achieves an expected convergence rate of $O(1/\\sqrt{n})$ after $n$ "
        "iterations, and of $O(1/n)$ for strongly convex functions."
    )
    assert quantities(bounds_pipeline, abstract) == ["expected convergence rate"] * 2
    ergodic = "We establish an ergodic convergence rate $O(1/\\sqrt{K})$ for both algorithms."
    assert quantities(bounds_pipeline, ergodic) == ["ergodic convergence rate"]
    accelerated = "It has an accelerated convergence rate of $O(1/T^2)$."
    assert quantities(bounds_pipeline, accelerated) == ["convergence rate"]
    form = "We derive a convergence rate of the form $n^{-2/(2+d)}$ for such regressors."
    assert quantities(bounds_pipeline, form) == ["convergence rate"]


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        ("The streaming algorithm uses $O(dk/\\epsilon)$ words of space.", ["space complexity"]),
        (
            "Learning requires asking $O(n D^3)$ questions and $O(n \\log^2 n)$ bits to store.",
            ["number of questions", "space complexity"],
        ),
        ("The protocol sends $O(d \\log n)$ words of communication per round.", ["communication complexity"]),
        ("The dictionary keeps $O(n)$ words in its leaves.", ["number of words"]),
    ],
)
def test_v20_units_of_space_and_a_count_of_its_own(
    bounds_pipeline: Any, abstract: str, expected: list[str]
) -> None:
    assert quantities(bounds_pipeline, abstract) == expected


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        ("The polytope is represented using $\\Theta(n^2)$ variables and constraints.",
         "number of variables and constraints"),
        ("We reduce the number of variables and constraints to $\\Theta(n \\log n)$.",
         "number of variables and constraints"),
        ("It uses $O(n)$ tests and returns a good arm.", "number of tests"),
    ],
)
def test_v20_two_counted_nouns_joined(bounds_pipeline: Any, abstract: str, expected: str) -> None:
    assert quantities(bounds_pipeline, abstract) == [expected]


def attributions(pipeline: Any, abstract: str) -> list[str]:
    paper = Paper(id="p-test", title="t", abstract=abstract)
    return [b.attribution for b in pipeline.extract_one(paper).bounds if b.form == "formula"]


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
def test_v20_earlier_values_and_this_papers(bounds_pipeline: Any, abstract: str, expected: list[str]) -> None:
    assert attributions(bounds_pipeline, abstract) == expected


def test_v20_what_a_reduction_restates_is_no_earlier_value(bounds_pipeline: Any) -> None:
    abstract = "With the support, we can greatly reduce the sample complexity of a task, i.e., $l \\in O(1)$."
    assert attributions(bounds_pipeline, abstract) == ["this"]
    study = (
        "Structure learning for LiNGAMs in high dimensions remains unexplored. This study introduces an "
        "algorithm that achieves the optimal sample complexity, $n = \\Theta(d \\log p)$. The proposed "
        "method is evaluated on synthetic data."
    )
    assert attributions(bounds_pipeline, study) == ["this"]


def test_v20_both_bounds_called_tight_past_their_conditions() -> None:
    abstract = (
        "We give an algorithm achieving total loss $O(\\log T)$ when $d=1$ and $O(T^{(d-1)/d})$ when "
        "$d>1$, and show that both bounds are tight."
    )
    assert [b.kind for b in unparsed(abstract)] == ["tight", "tight"]
    one = "It achieves loss $O(\\log T)$ when $d=1$, and we show that this bound is tight."
    assert [b.kind for b in unparsed(one)] == ["tight"]
    other = "It achieves loss $O(\\log T)$ when $d=1$ and $O(\\sqrt{T})$ else; the latter bound is tight."
    assert [b.kind for b in unparsed(other)] == ["upper", "upper"]


@pytest.mark.parametrize(
    "abstract",
    [
        "When we have polynomial eigen-decay ($\\mu_j \\le O(j^{-\\beta})$), we find that the regret is "
        "bounded by $R_n \\le O(n^{1/2})$.",
        "Provided the chain mixes fast, i.e., the relaxation time is at most $O(S/\\ln^3 S)$, consistent "
        "estimation needs $R_n \\le O(n^{1/2})$ samples.",
        "If the rows are sparse, e.g., with $O(1)$ nonzeros per row, the error is $R_n \\le O(n^{1/2})$.",
        "Each edge appears with probability $\\rho_n$, assumed to be $\\Omega(\\log n/n)$, and the error "
        "is $R_n \\le O(n^{1/2})$.",
    ],
)
def test_v20_a_formula_in_an_opening_condition_is_a_regime(abstract: str) -> None:
    bounds = unparsed(abstract)
    assert [b.latex for b in bounds] == ["R_n \\le O(n^{1/2})"]
    assert bounds[0].condition is not None


def test_v20_a_sentence_that_is_all_condition_keeps_its_bound() -> None:
    # no main clause after the comma-free condition: nothing to qualify
    (bound,) = unparsed("When the loss is smooth we obtain a regret of $O(\\log T)$.")
    assert bound.kind == "upper"


# -- bounds.latex.v21 ---------------------------------------------------------------------------


def test_v21_impossibility_of_a_resource_and_its_contrast() -> None:
    (bound,) = unparsed("We show that $o(\\sqrt{T})$ regret is impossible for this class.")
    assert bound.kind == "lower"
    contrast = (
        "Earlier work showed that $o(n)$ time is impossible, while learning is possible in time "
        "$O(n \\log n)$."
    )
    assert [b.kind for b in unparsed(contrast)] == ["lower", "upper"]


@pytest.mark.parametrize(
    ("abstract", "kinds"),
    [
        (
            "The method needs only $\\tilde{O}(\\sqrt{n}m)$ samples. This sample complexity is shown "
            "to be optimal.",
            ["tight"],
        ),
        ("All three achieve $O(\\log T)$ compensation that match the theoretical lower bound.", ["tight"]),
        # optimal in one variable only, or up to factors: not tight
        (
            "It uses $\\tilde{O}(n/\\theta^4)$ units. This bound is shown to be optimal in $n$ up to "
            "log factors.",
            ["upper"],
        ),
        ("It achieves $O(\\log T)$ regret that matches the lower bound up to a constant.", ["upper"]),
    ],
)
def test_v21_called_optimal_or_matching(abstract: str, kinds: list[str]) -> None:
    assert [b.kind for b in unparsed(abstract)] == kinds


def test_v21_such_approaches_and_uniformly_convex_losses(bounds_pipeline: Any) -> None:
    such = "Such approaches usually require $\\Omega(N^2)$ time per iteration."
    assert attributions(bounds_pipeline, such) == ["prior"]
    uniformly = "We show its complexity is $O(1/\\epsilon^{1/d})$ for uniformly convex loss of order $d$."
    assert quantities(bounds_pipeline, uniformly) == ["computational complexity"]


# -- bounds.latex.v22 ---------------------------------------------------------------------------


def test_v22_a_main_clause_after_a_condition_without_a_comma() -> None:
    abstract = (
        "When the data lies in $\\mathbb{R}^D$ we obtain a rate of $\\widetilde{O}(n^{-1/(2\\beta + D)})$, "
        "which matches known lower bounds up to logarithmic factors."
    )
    assert [b.latex for b in unparsed(abstract)] == ["\\widetilde{O}(n^{-1/(2\\beta + D)})"]
    # the subject of the condition itself is no main clause
    regime = "When we have eigen-decay ($\\mu_j \\le O(j^{-\\beta})$), the regret is $R_n \\le O(n^{1/2})$."
    assert [b.latex for b in unparsed(regime)] == ["R_n \\le O(n^{1/2})"]


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
def test_v22_a_citation_after_the_formula(bounds_pipeline: Any, abstract: str, expected: list[str]) -> None:
    assert attributions(bounds_pipeline, abstract) == expected


@pytest.mark.parametrize(
    ("abstract", "kinds"),
    [
        ("Under stronger assumptions, even $O(n^{1.499}/\\epsilon^2)$ examples do not suffice.", ["lower"]),
        ("Learning this class using $O(n/\\epsilon^2)$ examples is impossible.", ["lower"]),
        ("We show that $O(n/\\epsilon^2)$ examples suffice.", ["upper"]),
        ("It achieves an $O(\\sqrt{dT})$ regret. This regret matches the minimax lower bound.", ["tight"]),
        ("We achieve error $O(1/t)$ which is information theoretically optimal.", ["tight"]),
        ("It reaches regret $O(\\sqrt{T})$ and matches the theoretical lower bound in $T$.", ["upper"]),
    ],
)
def test_v22_insufficient_and_matching(abstract: str, kinds: list[str]) -> None:
    assert [b.kind for b in unparsed(abstract)] == kinds


def test_v22_a_bare_complexity_as_subject_and_a_gradient_computation_cost(bounds_pipeline: Any) -> None:
    subject = "The complexity of SCSG to reach a stationary point is $O(\\epsilon^{-5/3})$."
    assert quantities(bounds_pipeline, subject) == ["computational complexity"]
    named = "We study the sample complexity of learning. The complexity of our method is $O(d/\\epsilon^2)$."
    assert quantities(bounds_pipeline, named) == ["sample complexity"]
    cost = "It finds a stationary point at a gradient computation cost of $O(n^{1/2} \\epsilon^{-2})$."
    assert quantities(bounds_pipeline, cost) == ["gradient complexity"]


# -- bounds.latex.v23 ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        ("The trajectories converge to the optimum at a $O(1/t^2)$ rate.", "convergence rate"),
        ("The error for minimizing a smooth function after $t$ iterations scales like $\\beta/t$.", "error"),
        ("The number of observed entries needed for exact recovery is $O(\\log N)$.", "sample complexity"),
        ("It recovers the tensor from $O(n^{3/2} r^5)$ randomly sampled entries.", "sample complexity"),
        ("The matrix has $O(n)$ nonzero entries.", "number of nonzero entries"),
    ],
)
def test_v23_rates_after_the_formula_and_observed_entries(
    bounds_pipeline: Any, abstract: str, expected: str
) -> None:
    assert quantities(bounds_pipeline, abstract) == [expected]


def test_v23_a_resource_after_a_recovering_verb_is_no_earlier_value(bounds_pipeline: Any) -> None:
    ours = "Our method can recover the tensor exactly from $O(n^{3/2} r^5)$ samples."
    assert attributions(bounds_pipeline, ours) == ["this"]
    recovered = "This recovers the $O(\\sqrt{T})$ rate of prior work."
    assert attributions(bounds_pipeline, recovered) == ["prior"]


def test_v23_what_has_been_developed_is_earlier_work(bounds_pipeline: Any) -> None:
    developed = "Approximations have been developed which avoid the $O(N^3)$ scaling with dataset size $N$."
    assert attributions(bounds_pipeline, developed) == ["prior"]


# -- bounds.latex.v24 ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        # a power whose exponent is the bound, written without TeX math
        ("It runs in time n^O(1/θ^2) for margin θ.", [("n^O(1/θ^2)", "upper", "n^(O(1/theta^2))")]),
        ("It depends on at most 2^O(1/ε^2) variables.", [("2^O(1/ε^2)", "upper", "2^(O(1/epsilon^2))")]),
        ("A lower bound of 2^Ω(1/ε) holds.", [("2^Ω(1/ε)", "lower", "2^(Omega(1/epsilon))")]),
        # heads spelled out, and the ohm sign some PDFs print for Ω
        ("We prove an Omega(ln(k)) overhead lower bound.", [("Omega(ln(k))", "lower", "ln(k)")]),
        ("It uses Theta(n log n) comparisons.", [("Theta(n log n)", "tight", "n log n")]),
        ("AdaBoost requires \u2126(k log m) iterations.", [("\u2126(k log m)", "lower", "k log m")]),
        # not heads: a word that ends in one, or a power of a longer base
        ("A Megaomega(n) unit and aTheta(x) term, and dn^O(1) in the text.", []),
    ],
)
def test_v24_bounds_written_without_tex_math(abstract: str, expected: list[tuple[str, str, str]]) -> None:
    assert [(b.latex, b.kind, b.expr) for b in unparsed(abstract)] == expected


# -- bounds.latex.v25 ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        # a tilde command written out before a bare head makes it soft, and belongs to it
        ("The regret is \\widetilde O(\\sqrtT) here.", [("\\widetilde O(\\sqrtT)", True)]),
        ("Classes learnable from \\tilde O(d/ε)-many samples exist.", [("\\tilde O(d/ε)", True)]),
        # a symbol and its relation written before a bare head belong to the bound
        ("The regret R_T ≤ O(√T) holds for all T.", [("R_T ≤ O(√T)", False)]),
        ("The sample complexity is n = O(d log d) here.", [("n = O(d log d)", False)]),
    ],
)
def test_v25_what_stands_before_a_bare_head(abstract: str, expected: list[tuple[str, bool]]) -> None:
    assert [(b.latex, b.soft) for b in unparsed(abstract)] == expected


def test_v25_a_bare_bound_with_its_symbol_under_if_is_a_regime() -> None:
    abstract = "(1) If K=ω( n /\\log n), SDP attains the limits; (2) If K=Θ(n/\\log n), SDP is optimal."
    assert unparsed(abstract) == []
    claim = "We show that K=Θ(n/\\log n) suffices for recovery."
    assert [b.latex for b in unparsed(claim)] == ["K=Θ(n/\\log n)"]


def test_v25_a_variable_written_out_ends_its_sentence(bounds_pipeline: Any) -> None:
    abstract = (
        "Our regret bounds do not depend on the number of experts, only on the rank d. For the "
        "stochastic model we show a tight bound of Θ(\\sqrtdT)."
    )
    # the bound's sentence names nothing, so the abstract's regret names it, not the count of the
    # sentence before
    assert quantities(bounds_pipeline, abstract) == ["regret"]


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        ("GBS obtains the gold standard query cost of O(log n) for such problems.", "query complexity"),
        ("The per-iteration cost of our method scales as O(log n).", "per-iteration cost"),
    ],
)
def test_v25_a_named_cost(bounds_pipeline: Any, abstract: str, expected: str) -> None:
    assert quantities(bounds_pipeline, abstract) == [expected]


# -- bounds.latex.v26 ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        # a sizing command, a no-break space or a star between a bare head and its parenthesis
        ("It has regret \\tildeO\\left(\\sqrt{NT}\\right) after T rounds.", [("upper", True, "regret")]),
        ("It runs in time O\u00a0( n^2 d ), improving on SDP.", [("upper", False, "running time")]),
        ("In the full information case the regret is O∗( nT ) only.", [("upper", True, "regret")]),
        # a parenthesized base of a power whose exponent is the bound
        ("Our algorithm runs in time (1/ε)^O(\\log \\log (1/ε)) only.", [("upper", False, "running time")]),
        # a function applied, not a base
        ("The map f(x)^O(1) is smooth.", []),
    ],
)
def test_v26_more_bounds_written_without_tex_math(
    bounds_pipeline: Any, abstract: str, expected: list[tuple[str, bool, str]]
) -> None:
    paper = Paper(id="p-test", title="t", abstract=abstract)
    bounds = [b for b in bounds_pipeline.extract_one(paper).bounds if b.form == "formula"]
    assert [(b.kind, b.soft, b.quantity) for b in bounds] == expected


def test_v26_a_power_of_a_parenthesized_base_reads_its_base() -> None:
    (bound,) = unparsed("Any cover has size (1/ε)^Ω(\\log(1/ε)) at least.")
    assert (bound.latex, bound.kind, bound.expr) == (
        "(1/ε)^Ω(\\log(1/ε))", "lower", "(1/epsilon)^(Omega(log(1/epsilon)))"
    )


# -- bounds.latex.v27 ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        # an asymptotic head before "-approximation" bounds the approximation ratio …
        ("We give an $O(\\log n)$-approximation algorithm for the problem.",
         [("O(\\log n)", "upper", "approximation ratio")]),
        ("We give an O(log n)-approximation algorithm for the problem.",
         [("O(log n)", "upper", "approximation ratio")]),
        # … a parameter or one coordinate of a pair does not
        ("We find an $\\epsilon$-approximation of the optimum.", []),
        ("It finds an $(\\epsilon, O(\\epsilon^{0.5}))$-approximate local minimum.", []),
        # "lower bound" right after an O-formula says which side
        ("We demonstrate an $O(d \\log T/T)$ upper bound on the excess risk, and an $O(d/T)$ lower bound "
         "on the excess risk of any method.",
         [("O(d \\log T/T)", "upper", "excess risk"), ("O(d/T)", "lower", "excess risk")]),
        # a written-out left side may be a command
        ("It requires a target dimension of \\ell = O(k/ε) for any k.",
         [("\\ell = O(k/ε)", "upper", "target dimension")]),
        # "capped by" bounds, even after a verb of decrease earlier in the sentence
        ("The ratio (i) decreases as the error decreases, and (ii) is always capped by O(log k), which "
         "holds without any input.", [("O(log k)", "upper", "error")]),
        # "best possible" right before the formula calls it tight, not across a comma
        ("An optimal rule converges at a best-possible rate O(N^-α/d) for such integrands.",
         [("O(N^-α/d)", "tight", "convergence rate")]),
        ("This lower bound is best possible, as $O(d^2)$ samples suffice to learn the covariance.",
         [("O(d^2)", "upper", "sample complexity")]),
    ],
)
def test_v27_approximations_sides_and_cues(
    bounds_pipeline: Any, abstract: str, expected: list[tuple[str, str, str]]
) -> None:
    paper = Paper(id="p-test", title="t", abstract=abstract)
    bounds = [b for b in bounds_pipeline.extract_one(paper).bounds if b.form == "formula"]
    assert [(b.latex, b.kind, b.quantity) for b in bounds] == expected


# -- bounds.latex.v28 ---------------------------------------------------------------------------


def test_v28_from_a_typical_value_to_merely_another(bounds_pipeline: Any) -> None:
    abstract = ("Using our hashing method, the query time of a (K,L)-parameterized LSH is reduced from the "
                "typical O(dKL) complexity to merely O(KL+dL), where d is the number of nonzeros.")
    paper = Paper(id="p-test", title="t", abstract=abstract)
    bounds = [b for b in bounds_pipeline.extract_one(paper).bounds if b.form == "formula"]
    assert [(b.latex, b.attribution) for b in bounds] == [("O(dKL)", "prior"), ("O(KL+dL)", "this")]


def test_v28_a_formula_parsed_as_a_second_subject_is_the_complement(bounds_pipeline: Any) -> None:
    # the small parser makes both "complexity" and the formula subjects of "is"
    abstract = ("For a data matrix D, the complexity of conventional decomposition methods is O(N_1 N_2 r), "
                "which limits their usefulness.")
    assert quantities(bounds_pipeline, abstract) == ["computational complexity"]


# -- bounds.latex.v29 ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        # a bare "cost" after the formula is the cost the abstract named before
        ("These methods balance the per-iteration cost and the rate. They reach a superlinear rate with "
         "$O(d^2)$ cost, against $O(d)$ cost for first-order methods.", ["per-iteration cost"] * 2),
        ("The method reaches a superlinear rate with $O(d^2)$ cost.", ["computational complexity"]),
        # "expected" between the formula and a quantity that names itself qualifies it
        ("We prove that it has O(k) expected running time and finite variance.", ["expected running time"]),
    ],
)
def test_v29_a_named_cost_and_an_expected_quantity(
    bounds_pipeline: Any, abstract: str, expected: list[str]
) -> None:
    assert quantities(bounds_pipeline, abstract) == expected


# -- bounds.latex.v30 ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        ("The classic rate $\\Theta(1/\\sqrt{T})$ for convex functions is a special case of our result.",
         "prior"),
        ("Our regret bounds are close to the lower bound of $\\Omega(\\sqrt{dT})$ for this problem.",
         "prior"),
        # the algorithms' own: "their" is no reference to earlier work
        ("The algorithms are randomized and their query complexities are $O(m \\log n)$.", "this"),
    ],
)
def test_v30_a_classic_value_and_one_a_result_is_close_to(
    bounds_pipeline: Any, abstract: str, expected: str
) -> None:
    paper = Paper(id="p-test", title="t", abstract=abstract)
    (bound,) = [b for b in bounds_pipeline.extract_one(paper).bounds if b.form == "formula"]
    assert bound.attribution == expected


# -- bounds.latex.v31 ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        # a vague "rate" in an abstract about regret or an estimation error, which never speaks of
        # convergence, is that quantity
        ("We study bandit convex optimization and bound the regret of projection-free methods. "
         "Our method attains a faster rate of $O(T^{2/3})$ on strongly convex losses.", ["regret"]),
        ("We bound the regret of online methods. Their iterates converge at a rate of $O(1/T)$.",
         ["convergence rate"]),
        ("We study the estimation error of level set estimators in the Hausdorff metric. For smooth "
         "densities we obtain a rate of $\tilde{O}(n^{-1/(2\beta + D)})$.", ["estimation error"]),
        # a count of the formula's own symbol, with modifiers before the counted noun, is a variable
        ("Exact inference has $O(n^3)$ complexity for $n$ training samples.", ["computational complexity"]),
        ("Such solvers have a running time at least quadratic in the number of observations n, "
         "i.e., O(n^2).", ["running time"]),
        # a resource word right before the formula names it, before a quantity a little earlier
        ("Our algorithm uses $O(n \\log n)$ samples and runs in linear time $O(n \\log n)$.",
         ["sample complexity", "running time"]),
        ("Earlier methods need $O(n)$ samples in super-linear time $O(n^3)$.",
         ["sample complexity", "running time"]),
        ("We design a parallel algorithm which runs in $O(\\log^3 d)$ when enough processors are "
         "available.", ["running time"]),
        # an algorithm that scales as a formula: its running time; a quantity that scales keeps its name
        ("The proposed algorithm only scales as $O(k \\log k)$ with the number of states.", ["running time"]),
        ("The test error of the estimator scales as $O(1/n)$.", ["error"]),
        # "data points" are samples; "convergence of" names a convergence rate
        ("We show that $\\tilde{O}(d/\\epsilon)$ data points suffice for learning.", ["sample complexity"]),
        ("We guarantee convergence of $O(1/\\sqrt{T})$ to a stationary point.", ["convergence rate"]),
        # a plural right after the formula counts what it bounds, unless "of" ties the formula to a
        # quantity before it
        ("The method keeps the optimal rate of convergence with only $O(\\log T)$ projections.",
         ["number of projections"]),
        ("Our policy enjoys a regret of $O(\\sqrt{T})$ facing strategic buyers.", ["regret"]),
        # "computational efficiency" is a cost; a formula written again in another "from … to"
        # bounds what that clause improves
        ("Our solver improves the computational efficiency from $O(n^3)$ to $O(n^2)$ and reduces the "
         "memory requirement from $O(n^2)$ to $O(n)$.",
         ["computational complexity"] * 2 + ["space complexity"] * 2),
        # an open compound that is a table's phrase in the plural takes the table's name
        ("The new solver brings the time complexities down to $O(p^2 n)$.", ["running time"]),
        # "accuracy" is a quantity head like "complexity" or "distance"
        ("Under both assumptions, the optimal estimation accuracy is shown to be $\\Theta(S^2/n)$.",
         ["estimation accuracy"]),
    ],
)
def test_v31_quantities_named_by_the_setting_a_resource_or_a_count(
    bounds_pipeline: Any, abstract: str, expected: list[str]
) -> None:
    assert quantities(bounds_pipeline, abstract) == expected
