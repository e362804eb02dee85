"""The inputs ``extract_bounds(collect=...)`` hands to the learned-attribution cross-validation.

Collecting must not change what is extracted, the features must be deterministic, and they carry
the rule decision and the cues the model was offered (written from the sentences).
"""

from __future__ import annotations

from extractors.bounds import extract_bounds

ABSTRACT = (
    "Prior work achieved $O(T^{2/3})$ regret (Smith et al., 2019). "
    "We prove a $O(\\sqrt{T})$ regret bound for our algorithm."
)


def test_collect_leaves_extraction_unchanged() -> None:
    collect: list[tuple[int, int, list[str], str]] = []
    assert extract_bounds(ABSTRACT, collect=collect) == extract_bounds(ABSTRACT)
    assert len(collect) == 2


def test_features_are_deterministic_and_carry_the_cues() -> None:
    first: list[tuple[int, int, list[str], str]] = []
    second: list[tuple[int, int, list[str], str]] = []
    extract_bounds(ABSTRACT, collect=first)
    extract_bounds(ABSTRACT, collect=second)
    assert first == second
    (_, _, prior_feats, prior_rule), (_, _, this_feats, this_rule) = first
    assert (prior_rule, this_rule) == ("prior", "this")
    assert prior_feats == sorted(prior_feats)
    assert {"rule:prior", "b:prior", "b:work", "s_cite", "pos:0", "first_bound"} <= set(prior_feats)
    assert "s_we" not in prior_feats
    assert {"rule:this", "b:we", "s_we", "b_we", "pos:1", "a:regret"} <= set(this_feats)
