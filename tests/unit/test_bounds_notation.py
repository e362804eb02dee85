"""Reading the math: asymptotic heads, authors' macros, bounds written outside math, and the
math that is no bound (a list of symbols, a word or a group set in math).

Expected fields are written from the sentences, not from extractor output.
"""

from __future__ import annotations

from typing import Any

import pytest

from extractors.bounds import NAME
from kg.types import Paper
from tests.unit.bounds_cases import only, quantities, unparsed


def test_bounds_extractor_records_its_versioned_name() -> None:
    assert NAME.startswith("bounds.latex.v")
    assert only("We obtain $O(\\sqrt{T})$ regret.").extractor == NAME


@pytest.mark.parametrize("head", ["O^*", "O^\\ast", "O^{*}", "O^{\\ast}"])
def test_bounds_notation_a_starred_head_hides_log_factors(head: str) -> None:
    bounds = unparsed(f"Our batch algorithm achieves cumulative regret ${head}(\\sqrt{{T\\gamma_T}})$.")
    assert [(b.latex, b.notation, b.kind, b.soft, b.expr) for b in bounds] == [
        (f"{head}(\\sqrt{{T\\gamma_T}})", "O", "upper", True, "sqrt(T gamma_T)")
    ]
    # a starred symbol is no head: the optimum $x^*(t)$ bounds nothing
    assert unparsed("The optimum $x^*(t)$ moves with $t$.") == []


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
def test_bounds_notation_author_macros_for_asymptotic_heads(macro: str, notation: str, soft: bool) -> None:
    (bound,) = unparsed(f"Our learner attains regret ${macro}(\\sqrt{{dT}})$ on every instance.")
    expected = (notation, soft, "sqrt(dT)", ("T", "d"))
    assert (bound.notation, bound.soft, bound.expr, bound.variables) == expected


def test_bounds_notation_a_tilde_without_its_o() -> None:
    (bound,) = unparsed("The method attains regret $\\widetilde(\\sqrt{kT})$ in finite metric spaces.")
    assert (bound.kind, bound.soft, bound.expr) == ("upper", True, "sqrt(kT)")


def test_bounds_notation_a_group_name_is_not_a_bound(bounds_pipeline: Any) -> None:
    abstract = "Our estimator converges much faster than methods that operate in the $SO(3)$ space."
    assert quantities(bounds_pipeline, abstract) == []


@pytest.mark.parametrize(("macro", "soft"), [("\\otilde", True), ("\\otil", True), ("\\order", False)])
def test_bounds_notation_lower_case_head_macros(macro: str, soft: bool) -> None:
    (bound,) = unparsed(f"We obtain a running time of ${macro}(nd + d^2)$ on sparse inputs.")
    assert (bound.notation, bound.soft, bound.expr, bound.quantity) == ("O", soft, "nd + d^2", "running time")


def test_bounds_notation_a_tilde_whose_brace_never_closes() -> None:
    (bound,) = unparsed("We show the sample complexity is $\\widetilde{O(m/\\epsilon^2)$ for linear filters.")
    expected = ("upper", True, "m/epsilon^2", "sample complexity")
    assert (bound.kind, bound.soft, bound.expr, bound.quantity) == expected


def test_bounds_notation_short_left_right_macros() -> None:
    (bound,) = unparsed("It converges in time $\\mathcal{O}\\l(\\varepsilon^{-2}\\log(1/\\varepsilon)\\r)$.")
    assert (bound.kind, bound.expr) == ("upper", "epsilon^(-2) log(1/epsilon)")


def test_bounds_notation_a_list_of_symbols_bounds_nothing() -> None:
    assert unparsed("The method is based on i.i.d. samples $f^1, f^2, \\ldots, f^n$ from $D$.") == []
    assert unparsed("We observe $X_1,X_2,\\ldots$ drawn from $P$.") == []
    # a sum with an ellipsis is still a bound
    (bound,) = unparsed("The total cost is $O(n_1 + \\cdots + n_k)$ over all rounds.")
    assert bound.kind == "upper"


def test_bounds_notation_a_word_set_in_math_is_no_product(bounds_pipeline: Any) -> None:
    words = "Given $iid$ observations from an unknown density, we estimate it."
    assert quantities(bounds_pipeline, words) == []
    product = "Given $nd$ observations from an unknown density, we estimate it."
    assert quantities(bounds_pipeline, product) == ["sample complexity"]


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
def test_bounds_notation_bounds_written_without_tex_math(
    abstract: str, expected: list[tuple[str, str, str]]
) -> None:
    assert [(b.latex, b.kind, b.expr) for b in unparsed(abstract)] == expected


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
def test_bounds_notation_what_stands_before_a_bare_head(
    abstract: str, expected: list[tuple[str, bool]]
) -> None:
    assert [(b.latex, b.soft) for b in unparsed(abstract)] == expected


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
def test_bounds_notation_more_bounds_written_without_tex_math(
    bounds_pipeline: Any, abstract: str, expected: list[tuple[str, bool, str]]
) -> None:
    paper = Paper(id="p-test", title="t", abstract=abstract)
    bounds = [b for b in bounds_pipeline.extract_one(paper).bounds if b.form == "formula"]
    assert [(b.kind, b.soft, b.quantity) for b in bounds] == expected


def test_bounds_notation_a_power_of_a_parenthesized_base_reads_its_base() -> None:
    (bound,) = unparsed("Any cover has size (1/ε)^Ω(\\log(1/ε)) at least.")
    assert (bound.latex, bound.kind, bound.expr) == (
        "(1/ε)^Ω(\\log(1/ε))",
        "lower",
        "(1/epsilon)^(Omega(log(1/epsilon)))",
    )


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        # a group that sets the head apart, in math and outside it
        (
            "It achieves a regret of ${O}(\\sqrt{T \\log T})$ overall.",
            [("{O}(\\sqrt{T \\log T})", "upper", False)],
        ),
        (
            "The cost is ${{\\mathcal{O}}}\\left(\\sqrt{L/\\epsilon} \\right)$.",
            [("{{\\mathcal{O}}}\\left(\\sqrt{L/\\epsilon} \\right)", "upper", False)],
        ),
        ("The classic ${\\cal O}(n^2)$ method is slow.", [("{\\cal O}(n^2)", "upper", False)]),
        ("Each machine reduces its input to {Õ}(k) points.", [("{Õ}(k)", "upper", True)]),
        (
            "The variance is typically {\\Omega}(n^2) where n is the horizon.",
            [("{\\Omega}(n^2)", "lower", False)],
        ),
        # the argument set in a group
        ("It needs $n=\\Omega{(d^3\\log{p})}$ samples.", [("n=\\Omega{(d^3\\log{p})}", "lower", False)]),
        # a star or a typed tilde before a head written outside math hides log factors
        (
            "It stops after \\mathcalO^*(n^7.5ε^-2) function evaluations.",
            [("\\mathcalO^*(n^7.5ε^-2)", "upper", True)],
        ),
        ("It runs in time ~O(1/gamma) on n processors.", [("~O(1/gamma)", "upper", True)]),
        # a group that holds a bound is no head set apart: the fraction is read whole
        ("A rate of $\\frac{O(1)}{n}$ follows.", [("\\frac{O(1)}{n}", "upper", False)]),
        # a tilde after a word is a LaTeX space, not a tilde on the head
        ("It runs in time~O(n) on n processors.", [("O(n)", "upper", False)]),
    ],
)
def test_bounds_notation_a_head_set_apart_or_starred(
    abstract: str, expected: list[tuple[str, str, bool]]
) -> None:
    assert [(b.latex, b.kind, b.soft) for b in unparsed(abstract)] == expected


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        # an OCR of a scanned page prints a zero for the O of a head written outside math
        (
            "Storage is O(nm), the cost for prediction is  0 ( n)  and training is O(nm).",
            ["O(nm)", "0 ( n)", "O(nm)"],
        ),
        ("It is one order faster (only 0(fV3) operations for each step).", ["0(fV3)"]),
        # a zero before a word, after an arrow or after a number is no head
        ("The knob goes from 0 (arbitrarily bad) to 1 (globally optimal).", []),
        ("It interpolates between α→0 (VB) and α= 1 (EP).", []),
        ("The values 10 (n) are kept.", []),
    ],
)
def test_bounds_notation_a_head_an_ocr_printed_as_a_zero(abstract: str, expected: list[str]) -> None:
    assert [b.latex for b in unparsed(abstract)] == expected


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        # a formula written outside math, without a head, that words claim
        (
            "For d=\\sqrtK the regret bound is K^1/4\\sqrtT, better than the minimax regret \\sqrtKT.",
            [("K^1/4\\sqrtT", "upper", "regret"), ("\\sqrtKT", "upper", "regret")],
        ),
        (
            "The optimal sample size decreases at the rate of 1/M. Moreover, it is fast.",
            [("1/M", "order", "sample complexity")],
        ),
        (
            "It attains a sublinear rate (1/K) on general convex functions.",
            [("1/K", "order", "convergence rate")],
        ),
        (
            "It is close to the full information minimax regret \\sqrtT\\ln K when G is dense.",
            [("\\sqrtT\\ln K", "upper", "regret")],
        ),
        # words, a link, a number, text commands or a formula glued to a word are no formula
        ("The input/output and/or AI/ML pairs see https://x.org/a/b for 1/2 of them.", []),
        ("We give \\emph{tight} bounds for the \\citet{smith} rate of n^αwhere the rate holds.", []),
        # and a bare formula no words claim is none
        ("We set K^1/4\\sqrtT as the width.", []),
    ],
)
def test_bounds_notation_a_formula_outside_math_that_words_claim(
    abstract: str, expected: list[tuple[str, str, str | None]]
) -> None:
    assert [(b.latex, b.kind, b.quantity) for b in unparsed(abstract)] == expected
