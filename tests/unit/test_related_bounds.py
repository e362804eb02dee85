"""Bound shapes: exponents read off plain expressions, and the phrases comparing two bounds."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from kg.related.shapes import bound_shape, compare_shapes, dependence, format_dependence


@pytest.mark.parametrize(
    ("expr", "variables", "expected"),
    [
        ("O(dB + d sqrt(T))", ("B", "O", "T", "d"), {"B": (F(1), 0), "T": (F(1, 2), 0), "d": (F(1), 0)}),
        ("O(d^(3/2) sqrt(T log T))", ("O", "T", "d"), {"d": (F(3, 2), 0), "T": (F(1, 2), 1)}),
        ("O(d/T)", ("O", "T", "d"), {"d": (F(1), 0), "T": (F(-1), 0)}),
        ("t_mix^3/epsilon^2", ("epsilon", "t_mix"), {"t_mix": (F(3), 0), "epsilon": (F(-2), 0)}),
        # the dominant term in a small variable is the most negative power
        ("O(1/epsilon + 1/epsilon^2)", ("O", "epsilon"), {"epsilon": (F(-2), 0)}),
        ("O(sqrt(Kt))", ("K", "O", "t"), {"K": (F(1, 2), 0), "t": (F(1, 2), 0)}),
        ("Theta(ell d^2 + ell^2d)", ("Theta", "d", "ell"), {"ell": (F(2), 0), "d": (F(2), 0)}),
        ("T^-1", ("T",), {"T": (F(-1), 0)}),
        ("log T", ("T",), {"T": (F(0), 1)}),
        # a non-numeric power has no exponent to compare: the variable is dropped
        ("n^(1/(2beta) - 1)", ("beta", "n"), {}),
        ("exp(d) T", ("T", "d"), {"T": (F(1), 0)}),
        ("O(d sqrt(T)", ("O", "T", "d"), {}),  # unbalanced: unreadable
        ("", (), {}),
    ],
)
def test_related_dependence_reads_exponents(
    expr: str, variables: tuple[str, ...], expected: dict[str, tuple[F, int]]
) -> None:
    assert dependence(expr, variables) == expected


@pytest.mark.parametrize(
    ("variable", "exponent", "log_power", "text"),
    [
        ("T", F(1, 2), 0, "√T"),
        ("d", F(1), 0, "d"),
        ("d", F(3, 2), 0, "d^(3/2)"),
        ("n", F(2), 0, "n^2"),
        ("epsilon", F(-2), 0, "1/ε^2"),
        ("T", F(1, 2), 1, "√T·log T"),
        ("T", F(0), 2, "log^2 T"),
        ("T", F(0), 0, "constant"),
    ],
)
def test_related_format_dependence(variable: str, exponent: F, log_power: int, text: str) -> None:
    assert format_dependence(variable, exponent, log_power) == text


@pytest.mark.parametrize(
    ("a", "b", "phrases"),
    [
        (
            ("upper", "O(d sqrt(T))", "regret"),
            ("upper", "O(sqrt(T))", "regret"),
            ["both claim regret upper bounds in √T"],
        ),
        (
            ("upper", "O(T^(2/3))", "regret"),
            ("upper", "O(sqrt(T))", "regret"),
            [
                "improves the query's regret upper bound in T (√T vs T^(2/3))",
                "both claim regret upper bounds",
            ],
        ),
        (
            ("upper", "O(sqrt(T))", "regret"),
            ("upper", "O(T^(2/3))", "regret"),
            [
                "the query's regret upper bound is better in T (√T vs T^(2/3))",
                "both claim regret upper bounds",
            ],
        ),
        (
            ("upper", "O(1/epsilon^2)", "sample complexity"),
            ("upper", "O(1/epsilon^3)", "sample complexity"),
            [
                "the query's sample complexity upper bound is better in epsilon (1/ε^2 vs 1/ε^3)",
                "both claim sample complexity upper bounds",
            ],
        ),
        # a tight bound matches upper and lower bounds
        (
            ("tight", "Theta(sqrt(T))", "regret"),
            ("lower", "Omega(sqrt(T))", "regret"),
            ["both claim regret lower bounds in √T"],
        ),
        (("upper", "O(sqrt(T))", "regret"), ("lower", "Omega(sqrt(T))", "regret"), []),
        (("upper", "O(sqrt(T))", "regret"), ("upper", "O(sqrt(T))", "error"), []),
    ],
)
def test_related_compare_shapes_strongest_first(
    a: tuple[str, str, str], b: tuple[str, str, str], phrases: list[str]
) -> None:
    shape_a = bound_shape(a[0], a[1], a[2], variables=("T", "d", "epsilon"))
    shape_b = bound_shape(b[0], b[1], b[2], variables=("T", "d", "epsilon"))
    assert [p for _s, p in compare_shapes(shape_a, shape_b)] == phrases


def test_related_shapes_compare_the_named_quantity_not_its_qualifiers() -> None:
    # bounds.latex.v6 names "expected regret", "Nash regret"; as shapes they are regret bounds
    a = bound_shape("upper", "O(sqrt(T))", "expected regret", variables=("T",))
    b = bound_shape("upper", "O(d sqrt(T))", "Nash regret", variables=("T", "d"))
    assert a.quantity == b.quantity == "regret"
    assert [p for _s, p in compare_shapes(a, b)][0] == "both claim regret upper bounds in √T"
    # a quantity of its own keeps its name: cumulative regret is not regret
    assert bound_shape("upper", "O(sqrt(T))", "expected cumulative regret").quantity == "cumulative regret"
