"""The proposed/used role through the real pipeline, on small hand-written abstracts.

Each case is one syntactic mechanism (see :meth:`extractors.entity_roles.RoleFinder.role`), with a
case where the same words do not make the paper's own system.
"""

from __future__ import annotations

import pytest

from kg.types import Mention, Paper

pytestmark = pytest.mark.integration


def _mentions(pipeline, abstract: str, title: str = "") -> list[Mention]:  # noqa: ANN001
    paper = Paper(id="p-test", title=title or "untitled", abstract=abstract, title_derived=not title)
    return list(pipeline.extract_one(paper).mentions)


def _roles(mentions: list[Mention], text: str) -> set[str | None]:
    roles = {m.role for m in mentions if m.text == text}
    assert roles, f"no mention {text!r} in {[m.text for m in mentions]}"
    return roles


def test_roles_title_name_is_proposed_at_each_occurrence(entity_pipeline) -> None:  # noqa: ANN001
    mentions = _mentions(
        entity_pipeline,
        "Link prediction on large graphs is costly. Zephyr samples small subgraphs around each candidate "
        "edge. On three benchmarks Zephyr is ten times faster than SEAL.",
        title="Zephyr: Fast Subgraph Sampling for Link Prediction",
    )
    zephyr = [m for m in mentions if m.text == "Zephyr"]
    assert len(zephyr) == 2
    assert {(m.type, m.role) for m in zephyr} == {("Method", "proposed")}
    assert "proposed" not in _roles(mentions, "SEAL")


def test_roles_title_word_used_as_common_noun_names_nothing(entity_pipeline) -> None:  # noqa: ANN001
    mentions = _mentions(
        entity_pipeline,
        "Attention is everywhere. We survey attention mechanisms for vision.",
        title="Attention: A Survey",
    )
    assert all(m.role != "proposed" for m in mentions)


def test_roles_present_passive_proposal_is_proposed(entity_pipeline) -> None:  # noqa: ANN001
    mentions = _mentions(
        entity_pipeline,
        "Anomaly detection in time series is hard. In this paper, a contrastive forecasting loss is "
        "introduced to learn normal patterns. It improves the F1 score on two datasets.",
    )
    assert _roles(mentions, "contrastive forecasting loss") == {"proposed"}


def test_roles_perfect_passive_and_prepositional_object_are_background(entity_pipeline) -> None:  # noqa: ANN001
    mentions = _mentions(
        entity_pipeline,
        "We propose a variant of stochastic gradient descent for sparse problems. Stochastic gradient "
        "descent has been proposed for many tasks.",
    )
    assert "proposed" not in _roles(mentions, "stochastic gradient descent")
    assert "proposed" not in _roles(mentions, "Stochastic gradient descent")


def test_roles_apposition_with_our_method_is_proposed(entity_pipeline) -> None:  # noqa: ANN001
    mentions = _mentions(
        entity_pipeline,
        "We study domain adaptation. Spectral feature alignment, our method, aligns the spectra of source "
        "and target features, and outperforms adversarial training on Office-31.",
    )
    assert _roles(mentions, "Spectral feature alignment") == {"proposed"}
    assert _roles(mentions, "adversarial training") == {"used"}
    assert _roles(mentions, "Office-31") == {"used"}
