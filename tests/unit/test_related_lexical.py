"""kg's lexical signal (titles, word pairs, no markup) and the scales that put signals on one footing."""

from __future__ import annotations

import math

import pytest

from kg.related import SIGNALS, RelatedWeights, build_index, lexical_matrix, paper_text
from kg.related.explain import _explaining_terms
from kg.words import lexical_tokens
from tests.unit.related_graph import GraphBuilder, filler


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("Stochastic Block Models", ["stochastic", "block", "models"]),
        # LaTeX commands and PDF debris are not words; neither are numbers or one-letter variables
        ("$\\mathbf{x} \\in \\mathbb{R}^d$ with $\\varepsilon$ error", ["error"]),
        ("co-evolving (cid:173) nets", ["evolving", "nets"]),
        ("a 2-layer net in O(n^2) time", ["layer", "net", "time"]),
        ("We show that it is the EM algorithm", ["em", "algorithm"]),
    ],
)
def test_related_lexical_tokens(text: str, tokens: list[str]) -> None:
    assert lexical_tokens(text) == tokens


def test_related_lexical_reads_a_title_only_when_it_is_real() -> None:
    assert paper_text("Mixed membership", "We study graphs.") == "Mixed membership. We study graphs."
    assert paper_text("We study…", "We study graphs.", title_derived=True) == "We study graphs."
    assert paper_text("", "We study graphs.") == "We study graphs."


def test_related_lexical_counts_word_pairs_seen_in_two_papers() -> None:
    vectorizer, matrix = lexical_matrix(
        [
            "stochastic block model of communities",
            "mixed membership stochastic block model",
            "protein folding",
        ]
    )
    # "communities", "mixed", "protein", ... occur once: they can match nothing and are left out
    assert list(vectorizer.get_feature_names_out()) == [
        "block",
        "block model",
        "model",
        "stochastic",
        "stochastic block",
    ]
    assert matrix.shape == (3, 5)
    assert matrix[2].nnz == 0
    assert (matrix[0] @ matrix[1].T).toarray()[0, 0] == pytest.approx(1.0)


def test_related_lexical_finds_what_only_the_titles_share() -> None:
    gb = GraphBuilder()
    gb.paper("q", "Graduated optimization", "a continuation heuristic for hard problems")
    gb.paper("c", "Graduated optimization of networks", "smoothing the loss while training")
    gb.paper("z", "Protein folding", "structures of molecules")
    lexical_only = RelatedWeights(entity=0, terms=0, bound=0, topic=0, lexical=1)
    (result,) = build_index(gb.g, lexical_only).related("q")
    assert result.id == "c"
    assert result.terms == ("graduated optimization",)


def test_related_explaining_terms_let_a_pair_stand_for_its_words() -> None:
    ranked = ["regret", "linear bandit", "bandit", "linear", "xy", "delay", "feedback", "arm"]
    assert _explaining_terms(ranked) == ("regret", "linear bandit", "delay")
    assert _explaining_terms(["block", "model", "block model", "graph"]) == ("block model", "graph")
    assert _explaining_terms([]) == ()


def _scaled_graph() -> GraphBuilder:
    """a proposes what b uses; c and d both use one method; e holds nothing; titles share no word."""
    gb = GraphBuilder()
    for pid in "abcde":
        gb.paper(pid, f"Title{pid}", f"word{pid}")
    for pid, abstract in filler(4):
        gb.paper(pid, f"Filler{pid}", abstract)
    gb.holds("a", "Method", "alpha", "proposes").holds("b", "Method", "alpha", "uses")
    gb.holds("c", "Method", "kappa").holds("d", "Method", "kappa")
    return gb


def test_related_signal_scale_is_the_median_best_match() -> None:
    index = build_index(_scaled_graph().g)
    # best E matches: a↔b 1.25 (one proposes what the other uses), c↔d 1; e has no entity
    # and the fillers none either, so they are not counted
    scales = dict(zip(SIGNALS, index.scales.tolist(), strict=True))
    assert scales["entity"] == pytest.approx((1.25 + 1.0) / 2)
    assert scales["terms"] == pytest.approx(1.0)  # "alpha" with "alpha", "kappa" with "kappa"
    assert scales["bound"] == scales["topic"] == scales["lexical"] == 1.0  # no paper has them


def test_related_score_adds_the_weighted_signals_in_units_of_their_scales() -> None:
    # titles such as "Titlec" mean nothing, the encoder still meets them; C repeats E here
    w = RelatedWeights(encoder=0.0, concept=0.0)
    index = build_index(_scaled_graph().g, w)
    (result,) = index.related("c")
    assert result.id == "d"
    assert result.signals["entity"] == pytest.approx(1.0 / 1.125)
    assert result.signals["terms"] == pytest.approx(1.0)
    assert result.score == pytest.approx(w.entity / 1.125 + w.terms)
    assert math.isclose(result.score, sum(getattr(w, k) * v for k, v in result.signals.items()))
    assert [s.contribution for s in result.shared] == [pytest.approx(w.entity / 1.125)]


def test_related_lexical_without_titles_matches_abstracts_only() -> None:
    gb = GraphBuilder()
    gb.paper("a", "Spectral clustering", "We study bandits with delays.")
    gb.paper("b", "Spectral clustering revisited", "Sampling from posteriors quickly.")
    gb.paper("c", "Posterior sampling", "We study bandits with delays and switching costs.")
    plain = build_index(gb.g, titles=False)
    # Abstract terms in two papers: study, bandits, delays, "study bandits", "bandits delays", all
    # in a and c only (once each, same IDF), so a and c are the same vector and b is empty.
    assert list(plain.terms) == ["bandits", "bandits delays", "delays", "study", "study bandits"]
    assert (plain.lexical[0] @ plain.lexical[2].T).toarray()[0, 0] == pytest.approx(1.0)
    assert plain.lexical[1].nnz == 0
    titled = build_index(gb.g)
    # the titles add "spectral", "clustering" and "spectral clustering" (a, b), "sampling" (b, c)
    assert {"spectral", "clustering", "spectral clustering", "sampling"} <= set(titled.terms)
    assert (titled.lexical[0] @ titled.lexical[1].T).toarray()[0, 0] > 0
    assert (titled.lexical[0] @ titled.lexical[2].T).toarray()[0, 0] < 1
