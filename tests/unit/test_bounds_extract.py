"""The bounds extractor on inline abstracts: each notation, kind, soft, nesting, Unicode, non-bounds.

Expected fields are written from the mathematics of each sentence, not from the extractor's output.
The parse is not needed here (``doc=None``); subjects are covered by the integration test.
"""

from __future__ import annotations

import pytest

from extractors.bounds import NAME, count_formula_bound_papers, extract_bounds
from kg.types import Bound


def only(abstract: str) -> Bound:
    """The single formula bound of ``abstract``."""
    bounds = [b for b in extract_bounds(abstract) if b.form == "formula"]
    assert len(bounds) == 1, bounds
    return bounds[0]


def formula_bounds(abstract: str) -> list[Bound]:
    return [b for b in extract_bounds(abstract) if b.form == "formula"]


@pytest.mark.parametrize(
    ("abstract", "latex", "notation", "kind", "soft", "expr", "variables"),
    [
        ("We obtain $O(\\sqrt{T})$ regret.", "O(\\sqrt{T})", "O", "upper", False, "sqrt(T)", ("T",)),
        (
            "It has $\\mathcal{O}(d\\log n)$ sample complexity.",
            "\\mathcal{O}(d\\log n)",
            "O",
            "upper",
            False,
            "d log n",
            ("d", "n"),
        ),
        (
            "We prove $\\tilde{O}(\\sqrt{dT})$ regret.",
            "\\tilde{O}(\\sqrt{dT})",
            "O",
            "upper",
            True,
            "sqrt(dT)",
            ("T", "d"),
        ),
        (
            "The first achieves $\\widetilde{O}(dB + d\\sqrt{T})$ regret.",
            "\\widetilde{O}(dB + d\\sqrt{T})",
            "O",
            "upper",
            True,
            "dB + d sqrt(T)",
            ("B", "T", "d"),
        ),
        (
            "The algorithm attains Õ(dB + d√T) regret.",
            "Õ(dB + d√T)",
            "O",
            "upper",
            True,
            "dB + d sqrt(T)",
            ("B", "T", "d"),
        ),
        (
            "We prove a $\\Omega(\\sqrt{T})$ regret lower bound.",
            "\\Omega(\\sqrt{T})",
            "Omega",
            "lower",
            False,
            "sqrt(T)",
            ("T",),
        ),
        ("Any method suffers Ω(√T) regret.", "Ω(√T)", "Omega", "lower", False, "sqrt(T)", ("T",)),
        (
            "Any method suffers $\\widetilde{\\Omega}(d\\sqrt{T})$ regret.",
            "\\widetilde{\\Omega}(d\\sqrt{T})",
            "Omega",
            "lower",
            True,
            "d sqrt(T)",
            ("T", "d"),
        ),
        ("The arithmetic cost is $\\Theta(n^2)$.", "\\Theta(n^2)", "Theta", "tight", False, "n^2", ("n",)),
        ("Sorting takes Θ(n log n) time.", "Θ(n log n)", "Theta", "tight", False, "n log n", ("n",)),
        ("The excess risk is $o(1/n)$.", "o(1/n)", "o", "upper", False, "1/n", ("n",)),
        (
            "Any tester needs $\\omega(\\log n)$ queries.",
            "\\omega(\\log n)",
            "omega",
            "lower",
            False,
            "log n",
            ("n",),
        ),
        ("It runs in O(n log n) time.", "O(n log n)", "O", "upper", False, "n log n", ("n",)),
        (
            "Regret of O(\\logT + L_max ) follows.",
            "O(\\logT + L_max )",
            "O",
            "upper",
            False,
            "log T + L_max",
            ("L_max", "T"),
        ),
    ],
)
def test_bounds_notation_fields(
    abstract: str, latex: str, notation: str, kind: str, soft: bool, expr: str, variables: tuple[str, ...]
) -> None:
    bound = only(abstract)
    assert (bound.latex, bound.notation, bound.kind, bound.soft, bound.expr, bound.variables) == (
        latex,
        notation,
        kind,
        soft,
        expr,
        variables,
    )
    assert abstract[bound.start : bound.end] == bound.latex
    assert bound.form == "formula" and bound.extractor == NAME


@pytest.mark.parametrize(
    ("abstract", "latex", "expr"),
    [
        # nested braces with \lbrace, \lvert and \min
        (
            "We show $\\Omega(B\\min \\lbrace d,\\log\\lvert \\mathcal{A} \\rvert \\rbrace)$ regret "
            "is unavoidable.",
            "\\Omega(B\\min \\lbrace d,\\log\\lvert \\mathcal{A} \\rvert \\rbrace)",
            "B min{d, log |A|}",
        ),
        # \big, \! and \, spacing commands
        (
            "It attains regret $\\tilde{O}\\!\\big(d\\sqrt{T}\\,\\log T\\big)$.",
            "\\tilde{O}\\!\\big(d\\sqrt{T}\\,\\log T\\big)",
            "d sqrt(T) log T",
        ),
        # \frac and \left( … \right)
        (
            "A $\\mathcal{O}\\left(\\frac{d}{T}\\right)$ generalization bound holds.",
            "\\mathcal{O}\\left(\\frac{d}{T}\\right)",
            "d/T",
        ),
        # subscripts and superscripts
        (
            "Sample complexities of order $t_{\\mathrm{mix}}^3/\\varepsilon^2$ follow.",
            "t_{\\mathrm{mix}}^3/\\varepsilon^2",
            "t_mix^3/epsilon^2",
        ),
        (
            "The regret is $O(d^{3/2}\\sqrt{B} + T^{-1})$ overall.",
            "O(d^{3/2}\\sqrt{B} + T^{-1})",
            "d^(3/2) sqrt(B) + T^(-1)",
        ),
    ],
)
def test_bounds_nested_latex_expr(abstract: str, latex: str, expr: str) -> None:
    bound = only(abstract)
    assert (bound.latex, bound.expr) == (latex, expr)


@pytest.mark.parametrize(
    ("abstract", "kind", "notation", "quantity"),
    [
        (
            "The generalization error $\\le \\sqrt{d/n}$ with high probability.",
            "upper",
            "le",
            "generalization error",
        ),
        ("We show that $R_T \\leq C\\sqrt{T \\log T}$ for every instance.", "upper", "le", None),
        ("The error $\\| \\hat\\theta - \\theta \\| < \\epsilon\\sqrt{d}$ holds.", "upper", "le", "error"),
        ("The loss satisfies $\\mathcal{L}(\\theta_t) - \\mathcal{L}^* \\ge c/t$.", "lower", "ge", "loss"),
        (
            "The expected regret $\\mathbb{E}[R_T] \\geq \\sqrt{KT}/20$ for any policy.",
            "lower",
            "ge",
            "expected regret",
        ),
        ("The optimal schedule is $\\eta(t) \\sim t^{-1/2}$.", "order", "sim", None),
        ("The regret is $R \\simeq \\sqrt{T}$.", "order", "simeq", "regret"),
        ("The error scales as $n^{-1/2}$.", "order", "order", "error"),
        ("The risk decays at rate $n^{-1}$.", "order", "order", "risk"),
        ("The estimator achieves a rate of $n^{-1/3}$.", "order", "order", "convergence rate"),
        ("We show sample complexities of order $d/\\varepsilon^2$.", "order", "order", "sample complexity"),
    ],
)
def test_bounds_inequalities_and_orders(
    abstract: str, kind: str, notation: str, quantity: str | None
) -> None:
    bound = only(abstract)
    assert (bound.kind, bound.notation) == (kind, notation)
    if quantity is not None:
        assert bound.quantity == quantity


@pytest.mark.parametrize(
    ("abstract", "kind"),
    [
        ("We further show that the $\\mathcal{O}(d/T)$ rate is tight.", "tight"),
        ("The $t^3/\\varepsilon^2$ sample complexity of order is unimprovable.", "tight"),
        ("We derive a lower bound of $\\mathcal{O}(K\\log T)$ on the regret.", "lower"),
        ("It is impossible to succeed with $o(\\log n)$ adaptive rounds.", "lower"),
        ("It matches the lower bound up to logarithmic factors with $\\tilde O(\\sqrt{T})$ regret.", "upper"),
        ("We show that $n^{-\\Omega(\\log k)}$ tolerance is required.", "upper"),
        ("It needs $2^{n^{\\Omega(1)}}$ queries.", "lower"),
        # a main term minus a lower-order one bounds from below
        ("The principal receives expected reward $\\mu T - o(T)$.", "lower"),
        # membership in an asymptotic class is a bound, membership in a set is not
        ("We show that $H(f)/h(f) \\in \\Theta(1)$ for every test.", "tight"),
        ("We show that $h(f) \\in \\Omega(1)$ and $\\alpha \\in [0,1]$.", "lower"),
    ],
)
def test_bounds_kind_from_words(abstract: str, kind: str) -> None:
    assert only(abstract).kind == kind


@pytest.mark.parametrize(
    ("abstract", "attributions"),
    [
        ("Prior work obtained $O(T^{2/3})$ regret; we improve it to $O(\\sqrt{T})$.", ["prior", "this"]),
        ("We improve the regret from $O(T^{2/3})$ to $O(\\sqrt{T})$.", ["prior", "this"]),
        (
            "Our algorithm has regret $\\tilde{O}(d\\sqrt{T})$, matching the non-private rate "
            "$\\tilde{O}(\\sqrt{T})$.",
            ["this", "prior"],
        ),
        ("The sample complexity improves upon the best known result $O(1/\\epsilon^2)$.", ["prior"]),
        (
            "Existing guarantees pay for it: in regret bounds, the penalty is "
            "$\\sqrt{\\gamma_n}\\,n\\varepsilon$.",
            ["prior"],
        ),
        (
            "The LFA rate sharpens the prior best $t_{\\mathrm{mix}}^5$ mixing dependence to "
            "$t_{\\mathrm{mix}}^3$.",
            ["prior", "this"],
        ),
        ("To address the prohibitive $\\mathcal{O}(n^3)$ time complexity, recent work uses CG.", ["prior"]),
        ("We give an algorithm with $O(\\sqrt{T})$ regret. It is simple.", ["this"]),
        # a reference rate named by comparison, right before the formula
        (
            "We obtain an $\\tilde{O}(d/n)$ risk bound, analogous to the $\\tilde{O}(1/n)$ rate of ERM.",
            ["this", "prior"],
        ),
        ("The standard $O(1/\\sqrt{T})$ rate is slow; ours is $O(1/T)$.", ["prior", "this"]),
        # citations: "(Name, year)", "[Venue year]", and the sentences that follow them
        (
            "A bound was proved by Smith and Jones (2018) that has overhead $O(n^{1/4})$. "
            "We prove a bound of $O(\\log n)$.",
            ["prior", "this"],
        ),
        ("The algorithm of Hu and Evans [UAI 2020] runs in time $O(n^5)$.", ["prior"]),
        # "never larger than" states a bound of this paper, not a comparison with earlier work
        ("Our scheme needs $O(d)$ tests, and $H$ is never larger than $O(d^2)$.", ["this", "this"]),
    ],
)
def test_bounds_attribution(abstract: str, attributions: list[str]) -> None:
    assert [b.attribution for b in formula_bounds(abstract)] == attributions


@pytest.mark.parametrize(
    ("abstract", "quantity"),
    [
        ("We obtain $O(\\sqrt{T})$ cumulative regret.", "cumulative regret"),
        ("It uses $\\tilde{O}(dr^{2})$ random linear measurements.", "sample complexity"),
        ("The stopping time is $T^{\\star}\\log(1/\\delta)$ up to lower-order terms.", "stopping time"),
        ("Backpropagation has arithmetic cost $\\Theta(\\ell d^2)$.", "arithmetic complexity"),
        ("It converges in $\\tilde{O}(n\\log(1/\\epsilon))$ iterations.", "iteration complexity"),
        (
            "A high-probability $\\mathcal{O}(\\frac{d}{T})$ generalization bound holds.",
            "generalization error",
        ),
        ("It requires O(n^3) time.", "running time"),
        ("It requires $O(n^2)$ memory.", "space complexity"),
        # the quantity a bound is said to be "on" outranks nearer nouns
        (
            "Their bound on the estimation error of any algorithm on $n$ samples and range in "
            "$[0,1]$ is $O(\\sqrt{\\log(1/\\delta)/n})$.",
            "estimation error",
        ),
        ("We prove upper and lower bounds on the number of states $S$: $O(n\\log n)$.", "number of states"),
        ("The total number of communication rounds is $O(MSA\\log T)$.", "round complexity"),
        # a counted resource right after the formula
        ("Our scheme requires at most $O(d\\log n)$ tests.", "number of tests"),
        ("The prior algorithm runs in time $O(n^5)$ for instances with $n$ vertices.", "running time"),
        ("The principal receives reward $o(T)$.", "reward"),
        ("A uniform sample of size $O(d\\sqrt{n})$ is a coreset.", "sample complexity"),
        ("Keep a family of GGMs of size $O(\\log n)$.", "GGM size"),
        # a "where" clause defines symbols; "loss function" is not the loss
        (
            "For a convex loss function, the bound is $O(1/m)$, where $m$ is the sample size.",
            None,
        ),
    ],
)
def test_bounds_quantity(abstract: str, quantity: str | None) -> None:
    assert only(abstract).quantity == quantity


def test_bounds_condition_is_not_a_bound() -> None:
    abstract = (
        "The first achieves $\\widetilde{O}(dB + d\\sqrt{T})$ regret, matching the lower bound when "
        "$\\lvert \\mathcal{A} \\rvert = \\exp(\\Omega(d))$."
    )
    bound = only(abstract)
    assert bound.latex == "\\widetilde{O}(dB + d\\sqrt{T})"
    assert bound.condition == "when $\\lvert \\mathcal{A} \\rvert = \\exp(\\Omega(d))$"


@pytest.mark.parametrize(
    "abstract",
    [
        "We vary the injection strength $\\alpha \\in [0, 1]$ across runs.",
        "Inputs are $d$-dimensional vectors.",
        "We evaluate on isolated $256 \\times 256$ patches.",
        "It reaches 95\\% accuracy and $75\\%$ recall, a $\\sim$$14\\times$ speed-up.",
        "Assume the moment is finite, $u<+\\infty$, and $t \\geq 0$ with $\\beta > 1/2$.",
        "Here $\\xi\\sim \\mathcal{N}(0,1)$ is the noise and $x \\sim \\mathrm{Unif}[0,1]$.",
        "This improves by a factor of $O(1/\\epsilon^{1/3})$.",
        "The $\\tO(\\cdot)$ notation hides logarithmic factors.",
        "Datasets with O(10k) instances are common.",
        "We typeset a word in math: only $\\textit{or}$ total budgets.",
        "The trajectories stay within error $\\varepsilon$ except on a set of measure $< \\delta$.",
        "Momentum improves the sample complexities by $\\tilde{O}(\\epsilon^{-1.5})$ and "
        "$\\tilde{O}(\\epsilon^{-1})$.",
        "We give a confidence process on the cumulative rates $(\\Lambda^A_t, \\Lambda^B_t)$.",
        "We want an error probability at most $0<\\delta<1/2$.",
        "There is an $o(T)$-approximate Nash equilibrium and an $\\epsilon$-optimal policy.",
        "It holds under the constraint that $\\|g\\|_2\\le R$ almost surely.",
    ],
)
def test_bounds_non_bounds(abstract: str) -> None:
    assert formula_bounds(abstract) == []


@pytest.mark.parametrize(
    ("abstract", "latex", "kind", "quantity"),
    [
        (
            "We prove a linear convergence rate for the method.",
            "linear convergence rate",
            "upper",
            "convergence rate",
        ),
        (
            "We propose a polynomial-time algorithm for the problem.",
            "polynomial-time algorithm",
            "upper",
            "running time",
        ),
    ],
)
def test_bounds_verbal(abstract: str, latex: str, kind: str, quantity: str) -> None:
    (bound,) = extract_bounds(abstract)
    assert (bound.form, bound.latex, bound.kind, bound.quantity, bound.notation) == (
        "verbal",
        latex,
        kind,
        quantity,
        "verbal",
    )
    assert abstract[bound.start : bound.end] == latex


def test_bounds_offsets_index_the_original_abstract() -> None:
    abstract = "Phased\u2011elimination gets  $\\widetilde{O}(dB)$ and Ω(√T) regret with $\\Theta(n)$ cost."
    bounds = formula_bounds(abstract)
    assert [abstract[b.start : b.end] for b in bounds] == [b.latex for b in bounds]
    assert [b.latex for b in bounds] == ["\\widetilde{O}(dB)", "Ω(√T)", "\\Theta(n)"]


def test_bounds_count_formula_bound_papers() -> None:
    per_paper = [
        extract_bounds("It has $O(n)$ regret."),
        extract_bounds("We prove a linear convergence rate."),
        [],
        extract_bounds("Θ(n) time and Ω(1) space."),
    ]
    assert count_formula_bound_papers(per_paper) == 2


def test_bounds_deterministic() -> None:
    abstract = "We obtain $\\tilde{O}(\\sqrt{dT})$ regret, improving on prior $O(T^{2/3})$ bounds."
    assert [b.to_json() for b in extract_bounds(abstract)] == [b.to_json() for b in extract_bounds(abstract)]
