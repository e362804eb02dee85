"""The issue's seed examples through the real pipeline (spaCy parse included, for subjects)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.ingest import read_papers
from kg.types import Bound

pytestmark = pytest.mark.integration

SEEDS = Path(__file__).resolve().parents[2] / "seeds"


@pytest.fixture(scope="module")
def seed_bounds(bounds_pipeline) -> dict[str, list[Bound]]:  # noqa: ANN001
    """Every seed abstract's bounds, keyed by a distinctive phrase of the abstract."""
    papers = read_papers([str(SEEDS)])
    keys = {
        "batching": "1-bit quantization rule",
        "misspecified": "misspecification amplification",
        "pmd": "Policy mirror descent (PMD)",
    }
    out: dict[str, list[Bound]] = {}
    for key, phrase in keys.items():
        (paper,) = [p for p in papers if phrase in p.abstract]
        out[key] = list(bounds_pipeline.extract_one(paper).bounds)
    return out


def by_latex(bounds: list[Bound], latex: str) -> Bound:
    (bound,) = [b for b in bounds if b.latex == latex]
    return bound


def test_bounds_seed_lower_bound_unavoidable(seed_bounds: dict[str, list[Bound]]) -> None:
    b = by_latex(
        seed_bounds["batching"], "\\Omega(B\\min \\lbrace d,\\log\\lvert \\mathcal{A} \\rvert \\rbrace)"
    )
    assert (b.kind, b.notation, b.soft, b.quantity, b.attribution) == (
        "lower",
        "Omega",
        False,
        "regret",
        "this",
    )


def test_bounds_seed_first_algorithm_upper_bound(seed_bounds: dict[str, list[Bound]]) -> None:
    b = by_latex(seed_bounds["batching"], "\\widetilde{O}(dB + d\\sqrt{T})")
    assert (b.kind, b.soft, b.expr, b.variables, b.quantity, b.attribution) == (
        "upper",
        True,
        "dB + d sqrt(T)",
        ("B", "T", "d"),
        "regret",
        "this",
    )
    assert b.subject == "the first phased-elimination algorithm"
    assert b.condition == "when $\\lvert \\mathcal{A} \\rvert = \\exp(\\Omega(d))$"


def test_bounds_seed_condition_is_not_a_bound(seed_bounds: dict[str, list[Bound]]) -> None:
    assert not [b for b in seed_bounds["batching"] if "\\exp(\\Omega(d))" in b.latex]
    assert not [b for b in seed_bounds["batching"] if b.latex == "\\Theta(\\sqrt{T})"]  # a batch-size regime


def test_bounds_seed_prior_penalty(seed_bounds: dict[str, list[Bound]]) -> None:
    b = by_latex(seed_bounds["misspecified"], "\\sqrt{\\gamma_n}\\,n\\varepsilon")
    assert (b.attribution, b.quantity) == ("prior", "regret")


def test_bounds_seed_order_of_sample_complexity(seed_bounds: dict[str, list[Bound]]) -> None:
    first = [b for b in seed_bounds["pmd"] if b.latex == "t_{\\mathrm{mix}}^3/\\varepsilon^2"]
    assert [(b.kind, b.quantity) for b in first] == [
        ("order", "sample complexity"),
        ("tight", "sample complexity"),
    ]
    prior = by_latex(seed_bounds["pmd"], "t_{\\mathrm{mix}}^5")
    assert (prior.attribution, prior.kind) == ("prior", "upper")
