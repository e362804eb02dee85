"""The ``bounds.latex.v3`` rules on hand-built sentences: one case (or more) per rule.

Quantity: what a bound is said to be on, after it ("$X$ lower bound on the regret"), the subject of
a rate verb ("the loss converges as $X$"), a counted oracle ("$X$ stochastic gradient … products"),
a symbol the abstract defines ("$n$ is the number of samples"), a vague "rate"/"complexity" that
refers to the bound before. Attribution: "suffers", a semicolon closing a clause, "$X$ of <another
method>", "$X$ is known". Kind: ", which is also tight". Non-bounds: "\\cN" draws and "satisfying"
or "scenario" regimes. Expected fields are written from the sentences, not from extractor output.
"""

from __future__ import annotations

import pytest

from extractors.bounds import NAME, extract_bounds
from kg.types import Bound


def formula_bounds(abstract: str) -> list[Bound]:
    return [b for b in extract_bounds(abstract) if b.form == "formula"]


def only(abstract: str) -> Bound:
    bounds = formula_bounds(abstract)
    assert len(bounds) == 1, bounds
    return bounds[0]


def test_bounds_v3_rules_still_ship() -> None:
    # the v3 rules below are part of v4 (tests/unit/test_bounds_rules_v4.py checks the version)
    assert NAME.startswith("bounds.latex.v")
    assert only("We obtain $O(\\sqrt{T})$ regret.").extractor == NAME


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
def test_bounds_v3_quantity(abstract: str, quantity: str | None) -> None:
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
def test_bounds_v3_quantity_in_context(abstract: str, quantities: list[str]) -> None:
    assert [b.quantity for b in formula_bounds(abstract)] == quantities


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
def test_bounds_v3_attribution(abstract: str, attributions: list[str]) -> None:
    assert [b.attribution for b in formula_bounds(abstract)] == attributions


@pytest.mark.parametrize(
    ("abstract", "kind"),
    [
        # a relative clause after a comma still speaks of the bound
        (
            "We show that $\\Omega(1/\\epsilon^4)$ iterations are necessary for GD to match SGD, which "
            "is also tight.",
            "tight",
        ),
        ("The computational complexity is $O(N)$, which is optimal.", "tight"),
        # "tight within polylogarithmic factors", like "tight up to", is not tight
        ("Its sample complexity is $O(d/\\epsilon)$ that is tight within polylog factors.", "upper"),
    ],
)
def test_bounds_v3_kind(abstract: str, kind: str) -> None:
    assert only(abstract).kind == kind


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
def test_bounds_v3_non_bounds(abstract: str) -> None:
    assert formula_bounds(abstract) == []
