"""The bounded quantity: rule phrases, generic heads with their modifier, counted plurals, what
a bound is said to be on, the subject of a sizing predicate or a rate verb, repeated and
coordinated formulas, symbols and acronyms the abstract defines, and the vague "rate" or
"complexity" that refers to another.

Expected fields are written from the sentences, not from extractor output.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.bounds_cases import formula_bounds, only, parsed_bounds, quantities, unparsed


@pytest.mark.parametrize(
    ("abstract", "quantity"),
    [
        # "number of <participle> <noun>": a leading participle modifies the counted noun
        (
            "The required number of training environments for identification is only $O(K^2)$.",
            "number of training environments",
        ),
        ("The expected number of misclassified edges is $o(nk)$.", "number of misclassified edges"),
        # "in the number of X" names a variable the bound depends on, not what it bounds
        ("Kernel methods scale as $O(n^3)$ in the number of data points.", None),
        # a bound said to be on a quantity, right after the formula, outranks nouns before it
        ("The observation cost implies an $\\Omega(c^{1/3}T^{2/3})$ lower bound on the regret.", "regret"),
        ("The algorithm cost gives an $O(d)$ matching upper bound for the excess risk.", "excess risk"),
        # counted oracle calls: the modifiers name the oracle, whatever the head noun says
        (
            "It needs $\\tilde O(n\\epsilon^{-2})$ stochastic gradient and Hessian-vector product "
            "computations.",
            "oracle complexity",
        ),
        ("It uses $O(\\epsilon^{-3})$ stochastic gradient and Hessian-vector products.", "oracle complexity"),
        # the subject of a rate verb names what the formula bounds
        ("The loss converges as $O(1/t)$.", "loss"),
        ("The mean squared error decays as $O(1/n)$.", "mean squared error"),
        ("The weight vector converges in direction as $O(1/\\log t)$.", "convergence rate"),
        # a modifier before a parenthesis: "gradient (…) complexity"
        (
            "It obtains a gradient (i.e., stochastic first-order oracle, SFO) complexity of "
            "$\\tilde{O}(\\epsilon^{-3})$ with a lower communication cost.",
            "oracle complexity",
        ),
        # "in $X$" after a verb of computing, at the end of the clause, is a running time
        ("We can compute $A$ in $\\widetilde{O}(m n^2)$, such that the residual is small.", "running time"),
        ("The algorithm runs in $O(nd)$.", "running time"),
        # a phrase that starts just before the window: the longest one wins
        ("The estimation error is of order $O(\\sqrt{d/n})$.", "estimation error"),
        # vocabulary: plural rates, MSE spellings, tolerance, advantage, deviation, bits
        ("Standard bounds give convergence rates on the order of $O(T^{-1/2})$.", "convergence rate"),
        ("It attains a mean square error of $O(\\sigma^2/d)$.", "mean squared error"),
        ("It has MSE of $O(1/n)$ for any kernel.", "mean squared error"),
        ("SQ algorithms must make queries of tolerance at most $n^{-\\Omega(\\log k)}$.", "tolerance"),
        ("It weakly learns convex sets to advantage $\\Omega(1/\\sqrt{n})$.", "advantage"),
        (
            "The deviation in terms of our objective is bounded by $O(m^{-1/4})$, where $m$ is the "
            "number of samples.",
            "deviation",
        ),
        ("We show that $\\Theta(d/R^2)$ bits are necessary and sufficient.", "number of bits"),
        ("A worst-case $\\Omega(d\\epsilon)$ optimality gap is unavoidable.", "optimality gap"),
    ],
)
def test_bounds_quantity_rule_phrases(abstract: str, quantity: str | None) -> None:
    assert only(abstract).quantity == quantity


@pytest.mark.parametrize(
    ("abstract", "quantities"),
    [
        # a vague "rate" or "complexity" refers to the bound before (within two sentences)
        (
            "Iterating LMC for $\\tilde O(d\\epsilon^{-1})$ steps suffices. Our results need no warm "
            "start. Moreover, LMC achieves the rate estimate $\\tilde O(\\epsilon^{-1})$.",
            ["iteration complexity", "iteration complexity"],
        ),
        (
            "ADSAGA converges in $\\tilde O(n\\kappa)$ iterations. This complexity sits between the "
            "complexity $\\tilde O(n + \\kappa)$ of SAGA and others.",
            ["iteration complexity", "iteration complexity"],
        ),
        # …but not across a long distance, where it is the rate the sentence says
        (
            "It makes $O(d)$ computations per iteration. The step size is critical. We study an "
            "averaged scheme. We ask whether a rate of $C/t$ holds.",
            ["computational complexity", "convergence rate"],
        ),
        # a symbol the abstract defines as a quantity: the bound on it bounds that quantity
        (
            "We obtain an $O(1/n^2)$ risk bound, where $n$ is the number of samples. To achieve an "
            "$O(1/n)$ risk bound, the $\\Omega(\\kappa d)$ requirement on $n$ can be dropped.",
            ["risk", "risk", "sample complexity"],
        ),
        (
            "We draw $n$ samples from a mixture. For recovery with small error, we show that "
            "$n \\ge \\Omega(d \\log d)$ suffices.",
            ["sample complexity"],
        ),
    ],
)
def test_bounds_quantity_in_context(abstract: str, quantities: list[str]) -> None:
    assert [b.quantity for b in formula_bounds(abstract)] == quantities


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
def test_bounds_quantity_open_compound_quantity(abstract: str, quantity: str) -> None:
    assert only(abstract).quantity == quantity


def test_bounds_quantity_open_compound_quantity_with_parse(bounds_pipeline: Any) -> None:
    (b,) = parsed_bounds(bounds_pipeline, "We show that the teaching complexity is $\\Theta(d)$.")
    assert b.quantity == "teaching complexity"


def test_bounds_quantity_repeated_formula_takes_the_quantity_after_it() -> None:
    a, b = formula_bounds("We show $O(\\sqrt{T})$ regret and $O(\\sqrt{T})$ constraint violation.")
    assert (a.quantity, b.quantity) == ("regret", "constraint violation")


def test_bounds_quantity_repeated_formula_with_a_vague_word_keeps_its_quantity() -> None:
    a, b = formula_bounds("We prove an $O(d/T)$ generalization bound. The $O(d/T)$ rate is tight.")
    assert (a.quantity, b.quantity) == ("generalization error", "generalization error")


def test_bounds_quantity_coordinated_formulas_share_the_quantity_after_the_last() -> None:
    a, b = formula_bounds(
        "We establish the $O(\\epsilon^{-2}/T)$ upper-level and $O(\\epsilon^{-1})$ lower-level "
        "projection complexity of the method."
    )
    assert (a.quantity, b.quantity) == ("projection complexity", "projection complexity")


def test_bounds_quantity_parenthesised_formula_restates_the_phrase_before() -> None:
    b = formula_bounds("We also provide a polynomial time algorithm ($O(ne^{2})$) to verify equivalence.")[0]
    assert b.quantity == "running time"
    b = formula_bounds("It converts a graph in polynomial time ($O(n^{2}e)$).")[0]
    assert b.quantity == "running time"


def test_bounds_quantity_acronym_between_formula_and_counted_noun(bounds_pipeline: Any) -> None:
    text = "Our algorithm is efficient (it requires maintaining only $O(\\log T)$ OL instances)."
    assert only(text).quantity == "number of instances"
    (b,) = parsed_bounds(bounds_pipeline, text)
    assert b.quantity == "number of instances"


def test_bounds_quantity_quantity_is_the_subject_of_a_bounding_predicate(bounds_pipeline: Any) -> None:
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


def test_bounds_quantity_relative_clause_subject_outranks_a_repeated_formula(bounds_pipeline: Any) -> None:
    a, b = parsed_bounds(
        bounds_pipeline,
        "Earlier work builds a model on $2^{O(1/\\epsilon^2)}$ nodes. We obtain an algorithm "
        "with running time that is $2^{O(1/\\epsilon^2)}$ up to polynomial factors.",
    )
    assert (a.quantity, b.quantity) == ("number of nodes", "running time")


def test_bounds_quantity_plural_quantity_word_before_the_formula() -> None:
    assert only("Previous algorithms all have runtimes $\\tilde{\\Omega}(d^{3})$.").quantity == "running time"


def test_bounds_quantity_counted_noun_after_modifiers() -> None:
    b = only("After $O(\\log p)$ random projections a good direction is found.")
    assert b.quantity == "number of random projections"


def test_bounds_quantity_improved_from_to_bounds_the_object_of_the_verb() -> None:
    a, b = formula_bounds(
        "This design improves the sample complexity for realizing logarithmic regret from "
        "$O(d)$ to $O(\\sqrt{d})$."
    )
    assert (a.quantity, b.quantity) == ("sample complexity", "sample complexity")
    assert (a.attribution, b.attribution) == ("prior", "this")


def test_bounds_quantity_converging_at_a_rate_is_a_convergence_rate() -> None:
    b = only("The method addresses forgetting and bias while converging at a rate of $O(1/\\sqrt{T})$.")
    assert b.quantity == "convergence rate"


def test_bounds_quantity_unit_after_the_formula_measures_the_quantity_before() -> None:
    b = only("We build a class with information complexity at least $\\Omega(d \\log d)$ bits.")
    assert (b.quantity, b.kind) == ("information complexity", "lower")
    assert only("The scheme achieves a regret of $O(\\log \\log T)$ bits.").quantity == "regret"


def test_bounds_quantity_formula_between_commas_restates_the_phrase_before() -> None:
    b = only("However, the algorithm runs in near linear time, $\\tilde{O}(n)$, and needs few samples.")
    assert (b.quantity, b.soft) == ("running time", True)


def test_bounds_quantity_bits_of_space_and_of_communication(bounds_pipeline: Any) -> None:
    assert quantities(
        bounds_pipeline, "Any such streaming algorithm must use $\\Omega(d\\kappa)$ bits of space."
    ) == ["space complexity"]
    assert quantities(
        bounds_pipeline, "The protocol requires only $O(d)$ bits of communication per round."
    ) == ["communication complexity"]
    assert quantities(bounds_pipeline, "The sketch is stored in $O(\\log n)$ bits.") == ["number of bits"]


def test_bounds_quantity_a_resource_noun_naming_the_bound_before_the_formula(bounds_pipeline: Any) -> None:
    assert quantities(
        bounds_pipeline, "We also show communication lower bounds of $\\Omega(sd^2)$ for this problem."
    ) == ["communication complexity"]
    abstract = "For such features, our space lower bound is $\\tilde\\Omega(d^2)$."
    assert quantities(bounds_pipeline, abstract) == ["space complexity"]


def test_bounds_quantity_a_lone_complexity_is_the_one_named_before(bounds_pipeline: Any) -> None:
    abstract = (
        "We analyze the sample complexity of penalty methods for constrained problems. "
        "The constraints differ among three cases. "
        "To find a stationary point, we require $\\widetilde{O}(\\varepsilon^{-3})$ complexity "
        "in the first case."
    )
    assert quantities(bounds_pipeline, abstract) == ["sample complexity"]


def test_bounds_quantity_competitiveness(bounds_pipeline: Any) -> None:
    abstract = "We give an algorithm that achieves an $O(\\sqrt{\\kappa})$-competitiveness here."
    assert quantities(bounds_pipeline, abstract) == ["competitive ratio"]


def test_bounds_quantity_the_object_improved_to_a_formula(bounds_pipeline: Any) -> None:
    abstract = "We reduce the space to $O(|V|)$ and the time to $O(|V|^{2.5})$ in the expected case."
    assert quantities(bounds_pipeline, abstract) == ["space complexity", "running time"]


def test_bounds_quantity_a_resource_right_before_outranks_coordination(bounds_pipeline: Any) -> None:
    abstract = "Any such learner either requires space $\\Omega(nm/d)$ or $2^{\\Omega(n/d)}$ time."
    assert quantities(bounds_pipeline, abstract) == ["space complexity", "running time"]


def test_bounds_quantity_a_phrase_naming_a_symbol_is_not_the_quantity(bounds_pipeline: Any) -> None:
    abstract = (
        "Though we understand the sample complexity of learning a VC dimension $d$ class on $k$ "
        "distributions to be $O(\\epsilon^{-2} (d + k))$, the lower bound is weaker."
    )
    assert quantities(bounds_pipeline, abstract)[0] == "sample complexity"


def test_bounds_quantity_convergence_right_after_a_formula(bounds_pipeline: Any) -> None:
    abstract = (
        "Both methods exhibit $O(1/\\sqrt{T})$ last-iterate convergence and $O(1/T)$ "
        "average-iterate convergence."
    )
    assert quantities(bounds_pipeline, abstract) == ["convergence rate", "convergence rate"]


def test_bounds_quantity_a_number_of_phrase_ends_at_its_verb(bounds_pipeline: Any) -> None:
    abstract = "We show that the number of neurons must be at least $2^{\\Omega(d \\log d)}$ for this task."
    assert quantities(bounds_pipeline, abstract) == ["number of neurons"]
    (b,) = unparsed(abstract)  # also without the parse
    assert b.quantity == "number of neurons"


def test_bounds_quantity_a_sized_plural_is_named_in_the_singular(bounds_pipeline: Any) -> None:
    abstract = "It is approximated with networks of size $O(d)$ but not with networks of size $o(d)$."
    assert quantities(bounds_pipeline, abstract) == ["network size", "network size"]
    assert quantities(bounds_pipeline, "We learn GGMs of size $O(p^2)$ quickly.") == ["GGM size"]


def test_bounds_quantity_a_formula_approximation_is_an_approximation_ratio(bounds_pipeline: Any) -> None:
    abstract = "Both permanents are $\\exp(O(k \\log(N/k)))$ approximations to the permanent."
    assert quantities(bounds_pipeline, abstract) == ["approximation ratio"]


def test_bounds_quantity_an_acronym_on_the_left_names_the_quantity_the_abstract_defines() -> None:
    abstract = (
        "We study the Recursive Teaching Dimension (RTD) of concept classes and show "
        "$\\mathrm{RTD}(\\mathcal C) = O(d^2)$."
    )
    assert [b.quantity for b in unparsed(abstract)] == ["recursive teaching dimension"]
    kept = "We bound the Rademacher complexity (RC) of the class: $\\mathrm{RC} \\le O(1/\\sqrt{n})$."
    assert [b.quantity for b in unparsed(kept)] == ["Rademacher complexity"]
    # an acronym the abstract does not define names nothing
    assert [b.quantity for b in unparsed("It holds that $\\mathrm{XYZ}(C) = O(d)$ here.")] == [None]


def test_bounds_quantity_gradients_counted_are_a_gradient_complexity(bounds_pipeline: Any) -> None:
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


def test_bounds_quantity_primal_dual_gaps_are_named(bounds_pipeline: Any) -> None:
    abstract = (
        "Our method attains a strong gap of $O(1/\\sqrt{n})$. "
        "Its duality gap is at most $O(1/T)$ after $T$ iterations."
    )
    assert quantities(bounds_pipeline, abstract) == ["strong gap", "duality gap"]


def test_bounds_quantity_a_growth_word_before_the_resource(bounds_pipeline: Any) -> None:
    abstract = "We estimate the mean with optimal error guarantees in nearly-linear time $\\widetilde O(Nd)$."
    assert quantities(bounds_pipeline, abstract) == ["running time"]
    assert quantities(bounds_pipeline, "The sketch is built in polynomial time $O(n^3)$.") == ["running time"]


def test_bounds_quantity_a_bound_of_a_formula_on_a_quantity(bounds_pipeline: Any) -> None:
    abstract = (
        "Each label has a cost. When the cost is $B$, our algorithm achieves a worst-case upper bound of "
        "$\\tilde O(B^{1/3} T^{2/3})$ on the loss after $T$ rounds."
    )
    assert quantities(bounds_pipeline, abstract) == ["loss"]
    # "for" after the formula names a parameter, not what is bounded
    gap = "Existing algorithms achieve regret bounds of $O(\\log T/\\Delta)$ for suboptimality gap $\\Delta$."
    assert quantities(bounds_pipeline, gap) == ["regret"]


def test_bounds_quantity_a_noun_before_dimension_names_it(bounds_pipeline: Any) -> None:
    abstract = "Every such class has $O(d \\log d)$ Natarajan dimension, and more in general."
    assert quantities(bounds_pipeline, abstract) == ["natarajan dimension"]


def test_bounds_quantity_a_resource_then_at_least_or_at_most(bounds_pipeline: Any) -> None:
    abstract = (
        "We show that learning halfspaces up to error $\\epsilon$ takes time at least "
        "$d^{\\tilde{\\Omega}(1/\\epsilon^{2})}$ under standard hardness assumptions."
    )
    assert quantities(bounds_pipeline, abstract) == ["running time"]


def test_bounds_quantity_a_formula_robustness(bounds_pipeline: Any) -> None:
    abstract = "The algorithm achieves $\\mathcal{O}(C/\\epsilon^2)$-robustness for any $\\epsilon > 0$."
    assert quantities(bounds_pipeline, abstract) == ["robustness"]


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
def test_bounds_quantity_counted_resources_and_sized_algorithms(
    bounds_pipeline: Any, abstract: str, quantity: str
) -> None:
    assert quantities(bounds_pipeline, abstract) == [quantity]


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
def test_bounds_quantity_a_cost_per_unit(bounds_pipeline: Any, abstract: str, quantity: str) -> None:
    assert quantities(bounds_pipeline, abstract) == [quantity]


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
def test_bounds_quantity_a_described_sized_algorithm(
    bounds_pipeline: Any, abstract: str, expected: list[str]
) -> None:
    assert quantities(bounds_pipeline, abstract) == expected


def test_bounds_quantity_a_rate_for_a_class_of_losses_over_its_own_iterations(bounds_pipeline: Any) -> None:
    abstract = (
        "In particular, for strongly convex loss, it achieves the optimal rate of $O(1/N + 1/N^2)$ "
        "for $N$ iterations, which improves the best known rate $O(\\log N / N)$. A multi-stage "
        "extension achieves the uniformly-optimal rate $O(1/N + \\exp\\{-N\\})$ for strongly convex loss."
    )
    assert quantities(bounds_pipeline, abstract) == ["convergence rate"] * 3
    # iterations that are no variable of the bound still count them
    counted = "The method reaches an $\\epsilon$-accurate solution after $O(1/\\epsilon)$ iterations."
    assert quantities(bounds_pipeline, counted) == ["iteration complexity"]


def test_bounds_quantity_an_elided_rate_after_its_own_iterations_keeps_the_rate(bounds_pipeline: Any) -> None:
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
def test_bounds_quantity_units_of_space_and_a_count_of_its_own(
    bounds_pipeline: Any, abstract: str, expected: list[str]
) -> None:
    assert quantities(bounds_pipeline, abstract) == expected


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        (
            "The polytope is represented using $\\Theta(n^2)$ variables and constraints.",
            "number of variables and constraints",
        ),
        (
            "We reduce the number of variables and constraints to $\\Theta(n \\log n)$.",
            "number of variables and constraints",
        ),
        ("It uses $O(n)$ tests and returns a good arm.", "number of tests"),
    ],
)
def test_bounds_quantity_two_counted_nouns_joined(bounds_pipeline: Any, abstract: str, expected: str) -> None:
    assert quantities(bounds_pipeline, abstract) == [expected]


def test_bounds_quantity_a_bare_complexity_as_subject_and_a_gradient_computation_cost(
    bounds_pipeline: Any,
) -> None:
    subject = "The complexity of SCSG to reach a stationary point is $O(\\epsilon^{-5/3})$."
    assert quantities(bounds_pipeline, subject) == ["computational complexity"]
    named = "We study the sample complexity of learning. The complexity of our method is $O(d/\\epsilon^2)$."
    assert quantities(bounds_pipeline, named) == ["sample complexity"]
    cost = "It finds a stationary point at a gradient computation cost of $O(n^{1/2} \\epsilon^{-2})$."
    assert quantities(bounds_pipeline, cost) == ["gradient complexity"]


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
def test_bounds_quantity_rates_after_the_formula_and_observed_entries(
    bounds_pipeline: Any, abstract: str, expected: str
) -> None:
    assert quantities(bounds_pipeline, abstract) == [expected]


def test_bounds_quantity_a_variable_written_out_ends_its_sentence(bounds_pipeline: Any) -> None:
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
def test_bounds_quantity_a_named_cost(bounds_pipeline: Any, abstract: str, expected: str) -> None:
    assert quantities(bounds_pipeline, abstract) == [expected]


def test_bounds_quantity_a_formula_parsed_as_a_second_subject_is_the_complement(bounds_pipeline: Any) -> None:
    # the small parser makes both "complexity" and the formula subjects of "is"
    abstract = (
        "For a data matrix D, the complexity of conventional decomposition methods is O(N_1 N_2 r), "
        "which limits their usefulness."
    )
    assert quantities(bounds_pipeline, abstract) == ["computational complexity"]


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        # a bare "cost" after the formula is the cost the abstract named before
        (
            "These methods balance the per-iteration cost and the rate. They reach a superlinear rate with "
            "$O(d^2)$ cost, against $O(d)$ cost for first-order methods.",
            ["per-iteration cost"] * 2,
        ),
        ("The method reaches a superlinear rate with $O(d^2)$ cost.", ["computational complexity"]),
        # "expected" between the formula and a quantity that names itself qualifies it
        ("We prove that it has O(k) expected running time and finite variance.", ["expected running time"]),
    ],
)
def test_bounds_quantity_a_named_cost_and_an_expected_quantity(
    bounds_pipeline: Any, abstract: str, expected: list[str]
) -> None:
    assert quantities(bounds_pipeline, abstract) == expected


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        # a vague "rate" in an abstract about regret or an estimation error, which never speaks of
        # convergence, is that quantity
        (
            "We study bandit convex optimization and bound the regret of projection-free methods. "
            "Our method attains a faster rate of $O(T^{2/3})$ on strongly convex losses.",
            ["regret"],
        ),
        (
            "We bound the regret of online methods. Their iterates converge at a rate of $O(1/T)$.",
            ["convergence rate"],
        ),
        (
            "We study the estimation error of level set estimators in the Hausdorff metric. For smooth "
            "densities we obtain a rate of $\tilde{O}(n^{-1/(2\beta + D)})$.",
            ["estimation error"],
        ),
        # a count of the formula's own symbol, with modifiers before the counted noun, is a variable
        ("Exact inference has $O(n^3)$ complexity for $n$ training samples.", ["computational complexity"]),
        (
            "Such solvers have a running time at least quadratic in the number of observations n, "
            "i.e., O(n^2).",
            ["running time"],
        ),
        # a resource word right before the formula names it, before a quantity a little earlier
        (
            "Our algorithm uses $O(n \\log n)$ samples and runs in linear time $O(n \\log n)$.",
            ["sample complexity", "running time"],
        ),
        (
            "Earlier methods need $O(n)$ samples in super-linear time $O(n^3)$.",
            ["sample complexity", "running time"],
        ),
        (
            "We design a parallel algorithm which runs in $O(\\log^3 d)$ when enough processors are "
            "available.",
            ["running time"],
        ),
        # an algorithm that scales as a formula: its running time; a quantity that scales keeps its name
        ("The proposed algorithm only scales as $O(k \\log k)$ with the number of states.", ["running time"]),
        ("The test error of the estimator scales as $O(1/n)$.", ["error"]),
        # "data points" are samples; "convergence of" names a convergence rate
        ("We show that $\\tilde{O}(d/\\epsilon)$ data points suffice for learning.", ["sample complexity"]),
        ("We guarantee convergence of $O(1/\\sqrt{T})$ to a stationary point.", ["convergence rate"]),
        # a plural right after the formula counts what it bounds, unless "of" ties the formula to a
        # quantity before it
        (
            "The method keeps the optimal rate of convergence with only $O(\\log T)$ projections.",
            ["number of projections"],
        ),
        ("Our policy enjoys a regret of $O(\\sqrt{T})$ facing strategic buyers.", ["regret"]),
        # "computational efficiency" is a cost; a formula written again in another "from … to"
        # bounds what that clause improves
        (
            "Our solver improves the computational efficiency from $O(n^3)$ to $O(n^2)$ and reduces the "
            "memory requirement from $O(n^2)$ to $O(n)$.",
            ["computational complexity"] * 2 + ["space complexity"] * 2,
        ),
        # an open compound that is a table's phrase in the plural takes the table's name
        ("The new solver brings the time complexities down to $O(p^2 n)$.", ["running time"]),
        # "accuracy" is a quantity head like "complexity" or "distance"
        (
            "Under both assumptions, the optimal estimation accuracy is shown to be $\\Theta(S^2/n)$.",
            ["estimation accuracy"],
        ),
    ],
)
def test_bounds_quantity_quantities_named_by_the_setting_a_resource_or_a_count(
    bounds_pipeline: Any, abstract: str, expected: list[str]
) -> None:
    assert quantities(bounds_pipeline, abstract) == expected
