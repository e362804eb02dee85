"""Which formulas state a bound: draws, assumptions and regimes ("when …", "so long as …", a
sentence opening on a condition) are none, nor amounts of improvement ("improves … by $X$").

Expected fields are written from the sentences, not from extractor output.
"""

from __future__ import annotations

import pytest

from tests.unit.bounds_cases import formula_bounds, unparsed


@pytest.mark.parametrize(
    "abstract",
    [
        # a draw from a distribution written with a paper's own calligraphic macro
        "Observations carry noise $\\eps \\sim \\cN(0, \\sigma^2)$ of unknown variance.",
        # an assumption ("satisfying") and a regime ("scenario") are conditions
        "The noise $\\xi$ is drawn independently of $x$, satisfying $\\Pr[\\xi = 0] \\geq o(1)$.",
        "In the short training scenario $\\eta T = O(n)$, longer training does not hurt.",
        # "tolerance" names a quantity but makes no formula a claim
        "We estimate the distance up to an additive tolerance $\\pm \\varepsilon$.",
    ],
)
def test_bounds_statements_draws_assumptions_and_regimes_are_no_bounds(abstract: str) -> None:
    assert formula_bounds(abstract) == []


def test_bounds_statements_so_long_as_states_a_regime() -> None:
    assert unparsed("Reconstruction remains impossible so long as $K=o(n)$.") == []


def test_bounds_statements_lower_bounded_by_is_no_improvement_amount() -> None:
    abstract = "We prove the regret is lower bounded by $\\Omega(\\sqrt{T})$ for every strategy."
    assert [(b.kind, b.quantity) for b in unparsed(abstract)] == [("lower", "regret")]
    # an improvement amount stays out
    assert unparsed("This lowers the sample complexity by $O(\\log n)$ over earlier work.") == []


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
def test_bounds_statements_a_formula_in_an_opening_condition_is_a_regime(abstract: str) -> None:
    bounds = unparsed(abstract)
    assert [b.latex for b in bounds] == ["R_n \\le O(n^{1/2})"]
    assert bounds[0].condition is not None


def test_bounds_statements_a_sentence_that_is_all_condition_keeps_its_bound() -> None:
    # no main clause after the comma-free condition: nothing to qualify
    (bound,) = unparsed("When the loss is smooth we obtain a regret of $O(\\log T)$.")
    assert bound.kind == "upper"


def test_bounds_statements_a_main_clause_after_a_condition_without_a_comma() -> None:
    abstract = (
        "When the data lies in $\\mathbb{R}^D$ we obtain a rate of $\\widetilde{O}(n^{-1/(2\\beta + D)})$, "
        "which matches known lower bounds up to logarithmic factors."
    )
    assert [b.latex for b in unparsed(abstract)] == ["\\widetilde{O}(n^{-1/(2\\beta + D)})"]
    # the subject of the condition itself is no main clause
    regime = "When we have eigen-decay ($\\mu_j \\le O(j^{-\\beta})$), the regret is $R_n \\le O(n^{1/2})$."
    assert [b.latex for b in unparsed(regime)] == ["R_n \\le O(n^{1/2})"]


def test_bounds_statements_a_bare_bound_with_its_symbol_under_if_is_a_regime() -> None:
    abstract = "(1) If K=ω( n /\\log n), SDP attains the limits; (2) If K=Θ(n/\\log n), SDP is optimal."
    assert unparsed(abstract) == []
    claim = "We show that K=Θ(n/\\log n) suffices for recovery."
    assert [b.latex for b in unparsed(claim)] == ["K=Θ(n/\\log n)"]


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        # a sample size under a condition decides what can be done: a bound on the samples
        (
            "Consistent estimation is achievable when $n \\gg \\frac{S^2}{\\log S}$ for $n$ samples.",
            [("n \\gg \\frac{S^2}{\\log S}", "lower", "sample complexity")],
        ),
        (
            "Given $N = \\tilde{\\Omega}(d^2/\\epsilon^2)$ samples from a Gaussian, the method succeeds.",
            [("N = \\tilde{\\Omega}(d^2/\\epsilon^2)", "lower", "sample complexity")],
        ),
        (
            "The procedure succeeds given a dataset of size $n \\gtrsim k \\ln(d)$.",
            [("n \\gtrsim k \\ln(d)", "lower", "sample complexity")],
        ),
        # ... unless its sentence states another bound, of which it is the regime
        (
            "With $n$ samples we improve the rate to $O(1/n^2)$ when $n = \\tilde{\\Omega}(\\kappa d)$.",
            [("O(1/n^2)", "upper", "convergence rate")],
        ),
        # a size compared with another size is a regime
        ("Given $n$ samples, the estimate is consistent when $n \\gg m$.", []),
        # a symbol that counts no samples stays a regime
        ("The estimate is consistent when $d \\gg \\log^2 T$ for $n$ samples.", []),
    ],
)
def test_bounds_statements_a_sample_size_under_a_condition(
    abstract: str, expected: list[tuple[str, str, str]]
) -> None:
    assert [(b.latex, b.kind, b.quantity) for b in unparsed(abstract)] == expected
