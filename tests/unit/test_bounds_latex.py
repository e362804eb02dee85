"""The LaTeX reader behind bound expressions: tokens with offsets, normal form, variables."""

from __future__ import annotations

import pytest

from extractors.latex import match_parens, to_expr, tokenize


@pytest.mark.parametrize(
    ("latex", "expr", "variables"),
    [
        ("dB + d\\sqrt{T}", "dB + d sqrt(T)", ("B", "T", "d")),
        (
            "B\\min \\lbrace d,\\log\\lvert \\mathcal{A} \\rvert \\rbrace",
            "B min{d, log |A|}",
            ("A", "B", "d"),
        ),
        ("\\frac{d}{T}", "d/T", ("T", "d")),
        ("\\frac{K-1}{2}", "(K - 1)/2", ("K",)),
        ("t_{\\mathrm{mix}}^3/\\varepsilon^2", "t_mix^3/epsilon^2", ("epsilon", "t_mix")),
        ("n^{-1}", "n^(-1)", ("n",)),
        ("d^{3/2}\\sqrt{B}", "d^(3/2) sqrt(B)", ("B", "d")),
        ("\\sqrt{\\gamma_n}\\,n\\varepsilon", "sqrt(gamma_n) n epsilon", ("epsilon", "gamma_n", "n")),
        ("\\!\\big(d\\sqrt{T}\\big)", "(d sqrt(T))", ("T", "d")),
        ("\\left(\\log T\\right)^{3/4}", "(log T)^(3/4)", ("T",)),
        ("T_{\\beta}^{\\star}(\\mu)\\log(1/\\delta)", "T_beta^*(mu) log(1/delta)", ("T_beta", "delta", "mu")),
        (
            "\\leq \\varepsilon^p + \\delta \\cdot D^p",
            "<= epsilon^p + delta * D^p",
            ("D", "delta", "epsilon", "p"),
        ),
        ("\\eta(t) \\sim t^{-1/2}", "eta(t) ~ t^(-1/2)", ("eta", "t")),
        ("dB + d√T", "dB + d sqrt(T)", ("B", "T", "d")),
        ("n log n", "n log n", ("n",)),
        ("\\logT + L_max", "log T + L_max", ("L_max", "T")),
        ("ε^{-2} · log(1/δ)", "epsilon^(-2) * log(1/delta)", ("delta", "epsilon")),
        ("\\ell d^2+\\ell^2d", "ell d^2 + ell^2d", ("d", "ell")),
        (
            "(\\text{activation degree})^{(-2 \\times \\text{depth})}",
            "(activation degree)^(-2 * depth)",
            ("activation degree", "depth"),
        ),
        # a root index is a power, not a square root
        ("1/\\sqrt[d]{\\epsilon}", "1/epsilon^(1/d)", ("d", "epsilon")),
        ("\\sqrt[3]{DS^2AT^2}", "(DS^2AT^2)^(1/3)", ("A", "D", "S", "T")),
        ("K \\sqrt[4]T", "KT^(1/4)", ("K", "T")),
        ("c \\sqrt[3]{xy}", "c (xy)^(1/3)", ("c", "x", "y")),
        ("\\sqrt[k+1]{n}", "n^(1/(k + 1))", ("k", "n")),
    ],
)
def test_latex_to_expr(latex: str, expr: str, variables: tuple[str, ...]) -> None:
    assert to_expr(latex) == (expr, variables)


def test_latex_tokenize_keeps_offsets() -> None:
    s = "x $\\tilde{O}(d\\,T)$"
    tokens = tokenize(s, 3, len(s) - 1)
    assert [t.text for t in tokens] == ["tilde", "{", "O", "}", "(", "d", ",", "T", ")"]
    assert all(s[t.start : t.end].lstrip("\\") == t.text for t in tokens)


def test_latex_tokenize_splits_glued_commands() -> None:
    assert [t.text for t in tokenize("\\mathcalO(n^r)")][:2] == ["mathcal", "O"]
    assert [t.text for t in tokenize("\\sqrtT")] == ["sqrt", "T"]


def test_latex_match_parens_braces_bound_parentheses() -> None:
    tokens = tokenize("(a{b)c}")
    pairs = match_parens(tokens)
    assert pairs == {2: 6}  # the ')' inside the group is stray; '(' stays open


def test_latex_match_parens_half_open_interval() -> None:
    tokens = tokenize("[0, 1) \\cup (a, b)")
    assert match_parens(tokens) == {9: 14}
