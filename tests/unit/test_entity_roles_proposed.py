"""Roles through the real parse: what an abstract proposes, what it builds on or uses, and what it
shows (a bound, a rate, an analysis), which is never proposed."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from kg.types import Mention

Extract = Callable[[str], list[Mention]]


def _proposed(mentions: list[Mention]) -> set[str]:
    return {m.text for m in mentions if m.role == "proposed"}


def _role_of(mentions: list[Mention], text: str) -> str | None:
    roles = {m.role for m in mentions if m.text == text}
    assert roles, f"no mention {text!r} in {[m.text for m in mentions]}"
    return roles.pop()


def test_roles_extension_of_a_method_proposes_the_extension_not_the_method(entities_of: Extract) -> None:
    mentions = entities_of(
        "Nested optimization has many uses. We propose a bilevel extension of the celebrated "
        "SARAH algorithm and show that it needs fewer oracle calls."
    )
    assert not any("SARAH" in text for text in _proposed(mentions))


def test_roles_method_the_new_one_extends_is_used(entities_of: Extract) -> None:
    mentions = entities_of(
        "Based on this analysis, we propose Robust Value PC (RVPC), which extends the PC algorithm "
        "to handle missing entries. RVPC recovers the causal graph."
    )
    proposed = _proposed(mentions)
    assert "RVPC" in proposed
    assert not any(text.startswith("PC") for text in proposed)


@pytest.mark.parametrize(
    "abstract",
    [
        "We derive a temporal generalization bound for streaming learners.",
        "We present a theoretical analysis of softmax attention in linear regression.",
        "In this paper, we develop asymptotic analysis of sampling estimators for least squares.",
    ],
)
def test_roles_a_bound_or_an_analysis_is_never_proposed(entities_of: Extract, abstract: str) -> None:
    assert _proposed(entities_of(abstract)) == set()


def test_roles_a_rate_is_never_proposed(entities_of: Extract) -> None:
    mentions = entities_of(
        "We propose a fast calibration rate for online forecasters and prove it is optimal."
    )
    assert not any("rate" in m.text for m in mentions if m.role == "proposed")


def test_roles_recently_proposed_is_earlier_work(entities_of: Extract) -> None:
    mentions = entities_of(
        "Using several recently proposed multi-agent frameworks as examples, we show that "
        "adversarial content can hijack the system."
    )
    assert _proposed(mentions) == set()


def test_roles_name_coined_in_a_sentence_about_earlier_work_is_not_proposed(entities_of: Extract) -> None:
    mentions = entities_of(
        "A learned solver, coined FLISTA, was proposed in earlier work. In this paper we study "
        "why such solvers converge fast."
    )
    assert "FLISTA" not in _proposed(mentions)


def test_roles_name_in_a_second_clause_is_not_proposed(entities_of: Extract) -> None:
    mentions = entities_of(
        "We propose a computational framework for long-form summarization and investigate the "
        "behavior of GPT-4 and Cohere on financial reports."
    )
    assert not {"GPT-4", "Cohere"} & _proposed(mentions)


def test_roles_object_of_a_proposal_is_proposed_when_nothing_names_it(entities_of: Extract) -> None:
    mentions = entities_of(
        "Observations are costly when hypotheses abound. We propose a new experimentation framework "
        "for this regime and characterize its optimal policy."
    )
    assert "experimentation framework" in _proposed(mentions)


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        ("We propose KeRNS, an algorithm for episodic reinforcement learning in changing MDPs.", "KeRNS"),
        ("In this work we introduce HIP-GP, a scalable inference method for inter-domain GPs.", "HIP-GP"),
        ("We present a new regularization strategy which we call BitNet for compact networks.", "BitNet"),
    ],
)
def test_roles_named_new_systems_stay_proposed(entities_of: Extract, abstract: str, name: str) -> None:
    assert _role_of(entities_of(abstract), name) == "proposed"


@pytest.mark.parametrize(
    ("abstract", "phrase", "inside"),
    [
        (
            "We present an algorithm for learning decision trees using stochastic gradient information.",
            "algorithm for learning decision trees",
            "learning decision trees",
        ),
        (
            "In this paper, we propose a new estimator for the maximum expected value, based on a "
            "weighted average of the sample means.",
            "estimator for the maximum expected value",
            "maximum expected value",
        ),
    ],
)
def test_roles_proposal_named_by_what_it_is_for_holds_the_task_inside(
    entities_of: Extract, abstract: str, phrase: str, inside: str
) -> None:
    mentions = entities_of(abstract)
    outer = [m for m in mentions if m.text == phrase]
    assert outer and outer[0].role == "proposed" and outer[0].type == "Method"
    # the task or concept the recognizer found in the phrase stays a mention of its own, not proposed
    assert _role_of(mentions, inside) is None


def test_roles_proposal_named_by_an_infinitive_is_proposed(entities_of: Extract) -> None:
    mentions = entities_of("In this note, we propose a method to find faster algorithms for this problem.")
    assert "method to find faster algorithms" in _proposed(mentions)


def test_roles_proposal_with_a_named_method_in_its_complement_is_not_nested(entities_of: Extract) -> None:
    mentions = entities_of(
        "We develop a novel iterative Gauss-Newton algorithm for joint matrix Schur decomposition, "
        "which minimizes a nonconvex objective."
    )
    proposed = _proposed(mentions)
    assert any("Gauss-Newton" in text for text in proposed)
    assert not any("decomposition" in text for text in proposed)


def test_roles_concept_with_a_method_head_the_paper_designs_is_proposed(entities_of: Extract) -> None:
    mentions = entities_of(
        "Furthermore, we design a novel reward function to promote robust, symmetric, and "
        "frequency-adaptive locomotion gaits."
    )
    found = [m for m in mentions if m.text == "reward function"]
    assert found and (found[0].type, found[0].role) == ("Method", "proposed")


def test_roles_concept_introduced_in_the_passive_is_not_proposed(entities_of: Extract) -> None:
    mentions = entities_of(
        "This forward-backward mismatch raises a central theoretical question. A smoothed spike "
        "objective is introduced only as an analytical bridge, allowing us to separate the core error "
        "into two components: the gradient-level mismatch and the objective-level consistency gap."
    )
    assert _role_of(mentions, "smoothed spike objective") is None
