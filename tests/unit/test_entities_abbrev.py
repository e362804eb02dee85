"""Abbreviation definitions (Schwartz–Hearst, plus the part-wise fallback for coinages)."""

from __future__ import annotations

import pytest

from extractors.abbrev import find_abbreviations, is_short_form


@pytest.mark.parametrize(
    ("text", "short", "long"),
    [
        (
            "We propose Brownian Distance Correlation (BDCorr) for merging.",
            "BDCorr",
            "Brownian Distance Correlation",
        ),
        ("Our Attention-DAG (ADAG) prunes heads.", "ADAG", "Attention-DAG"),
        (
            "We study Structural Equation Models (SEMs) with latent factors.",
            "SEMs",
            "Structural Equation Models",
        ),
        (
            "We propose Brownian Distance Correlation Merging (BDC-Merge).",
            "BDC-Merge",
            "Brownian Distance Correlation Merging",
        ),
        (
            "trained with reinforcement learning from human feedback (RLHF).",
            "RLHF",
            "reinforcement learning from human feedback",
        ),
        ("a sparse mixture of experts (MoE) layer", "MoE", "mixture of experts"),
        ("Gaussian processes (GPs; Rasmussen 2006) are", "GPs", "Gaussian processes"),
    ],
)
def test_entities_abbrev_finds_definition_with_offsets(text: str, short: str, long: str) -> None:
    [found] = find_abbreviations(text)
    assert (found.short, found.long) == (short, long)
    assert text[found.short_start : found.short_end] == short
    assert text[found.long_start : found.long_end] == long


@pytest.mark.parametrize(
    "text",
    [
        "as shown before (see Section 3).",
        "on vision benchmarks (e.g. ImageNet).",
        "the regret bound (MATH) holds.",
        "as reported by Smith et al. (2019).",
        "the Korean-to-English system (CCLINC) translates.",  # letters do not fit the long form
        "we use stochastic gradient descent (Adam).",
    ],
)
def test_entities_abbrev_rejects_non_definitions(text: str) -> None:
    assert find_abbreviations(text) == []


@pytest.mark.parametrize(
    ("candidate", "expected"),
    [
        ("BDCorr", True),
        ("SEMs", True),
        ("f-GRPO", True),
        ("e.g.", False),
        ("see", False),
        ("MATH", False),
        ("2019", False),
        ("two words", False),
    ],
)
def test_entities_abbrev_short_form_shape(candidate: str, expected: bool) -> None:
    assert is_short_form(candidate) is expected
