"""The relation step's pieces: which pairs are classified, how a decision reads, how mentions map
to tokens through the normalized text, the shipped model's files, and Rel scoring."""

from __future__ import annotations

import numpy as np
import pytest
import spacy

from extractors.base import ParsedPaper
from extractors.generic_refs import TokenArrays, candidates
from extractors.generic_refs import load_model as load_generic_model
from extractors.relations import (
    MAX_GAP,
    NONE,
    RELATION_TYPES,
    RelationExtractor,
    RelationModel,
    load_model,
    mention_tokens,
    pairs_dense,
    sentence_pairs,
)
from kg.errors import ConfigError
from kg.evaluate.relations import RelScores
from kg.text import normalize
from kg.types import EntityRelation, Mention, Paper, TextSpan


def test_pairs_stay_in_one_sentence_in_text_order_and_near() -> None:
    spans = [(0, 2, "Method", 0), (3, 4, "Task", 0), (5, 6, "Dataset", 0), (8, 9, "Task", 1),
             (9 + MAX_GAP + 1, 9 + MAX_GAP + 2, "Method", 1)]
    pairs = sentence_pairs(spans)
    assert [(i, j) for i, j, _n in pairs] == [(0, 1), (0, 2), (1, 2)]
    assert [n for _i, _j, n in pairs] == [0, 1, 0]  # mentions between the two


def _model(threshold: float = 0.5) -> RelationModel:
    classes = [NONE, "USED-FOR<", "USED-FOR>"]
    return RelationModel(classes, [], np.zeros((1, 3), np.float32), np.zeros(3, np.float32), threshold)


def test_decision_reads_type_direction_and_threshold() -> None:
    model = _model()
    probs = np.array([[0.2, 0.1, 0.7], [0.3, 0.6, 0.1], [0.6, 0.2, 0.2], [0.55, 0.45, 0.0]])
    assert model.decide(probs) == [
        ("USED-FOR", True, pytest.approx(0.7)),
        ("USED-FOR", False, pytest.approx(0.6)),
        None,
        None,
    ]
    # under a lower threshold the best relation class is kept even when NONE is likelier
    assert model.decide(probs, threshold=0.4)[3] == ("USED-FOR", False, pytest.approx(0.45))


def test_mentions_map_to_tokens_through_the_normalized_text() -> None:
    abstract = "We apply \\emph{gradient descent} to $x^2$ minimization."
    norm = normalize(abstract)
    nlp = spacy.blank("en")
    doc = nlp(norm.text)
    start = abstract.index("gradient descent")
    m = Mention("Method", "gradient descent", start, start + 16, "gradient descent")
    start2 = abstract.index("minimization")
    m2 = Mention("Task", "minimization", start2, start2 + 12, "minimization")
    parsed = ParsedPaper(Paper("p", "", abstract), norm, doc, (m, m2))
    (a, b), (c, d) = mention_tokens(parsed, [m, m2])
    assert doc[a:b].text == "gradient descent"
    assert doc[c:d].text == "minimization"


def test_shipped_model_has_every_type_both_ways() -> None:
    model = load_model()
    assert set(model.classes) == {NONE} | {t + d for t in RELATION_TYPES for d in "<>"}
    assert 0.0 < model.threshold < 1.0


def test_missing_model_is_a_config_error(tmp_path) -> None:  # noqa: ANN001
    with pytest.raises(ConfigError, match="extractors.train.relations"):
        load_model(tmp_path)


def test_relation_step_needs_two_arguments() -> None:
    nlp = spacy.blank("en")
    norm = normalize("Only BERT here.")
    m = Mention("Method", "BERT", 5, 9, "bert", sentence_start=0, sentence_end=15)
    parsed = ParsedPaper(Paper("p", "", norm.original), norm, nlp(norm.text), (m,))
    assert list(RelationExtractor(_model()).extract(parsed)) == []


def test_rel_scores_need_both_spans_and_the_type_and_count_generic_gold() -> None:
    s = RelScores()
    gold = [(0, 4, 10, 20, "USED-FOR"), (30, 34, 40, 45, "CONJUNCTION"), (50, 54, 60, 64, "USED-FOR")]
    pred = [(0, 4, 10, 20, "USED-FOR"), (30, 34, 40, 44, "CONJUNCTION"), (10, 20, 0, 4, "USED-FOR")]
    s.add(pred, gold, generic=[(50, 54, 60, 64, "USED-FOR")])
    assert (s.all.ok, s.all.pred, s.all.gold) == (1, 3, 3)
    assert (s.no_generic.ok, s.no_generic.gold) == (1, 2)
    assert s.generic_gold == 1
    assert s.by_type["USED-FOR"].gold == 2 and s.by_type["CONJUNCTION"].ok == 0


def test_rel_scores_without_generic_leave_out_predictions_with_a_generic_reference() -> None:
    s = RelScores()
    gold = [(0, 4, 10, 20, "USED-FOR"), (30, 34, 40, 45, "USED-FOR")]
    pred = [(0, 4, 10, 20, "USED-FOR"), (30, 34, 40, 45, "USED-FOR"), (50, 54, 60, 64, "COMPARE")]
    s.add(pred, gold, generic=[(30, 34, 40, 45, "USED-FOR")], generic_pred=[(30, 34, 40, 45, "USED-FOR")])
    assert (s.all.ok, s.all.pred, s.all.gold) == (2, 3, 2)
    assert (s.no_generic.ok, s.no_generic.pred, s.no_generic.gold) == (1, 2, 1)


def _parsed_tokens(words: list[str], pos: list[str], deps: list[str], heads: list[int]) -> TokenArrays:
    doc = spacy.blank("en")(" ".join(words))
    for t, p, d, h in zip(doc, pos, deps, heads, strict=True):
        t.pos_, t.dep_, t.lemma_ = p, d, t.text.lower()
        t.head = doc[h]
    return TokenArrays(doc)


def test_generic_candidates_are_phrase_heads_and_argument_pronouns_outside_mentions() -> None:
    #        0     1       2      3      4     5     6     7
    words = ["It", "makes", "our", "deep", "method", "fast", "and", "it"]
    pos = ["PRON", "VERB", "PRON", "ADJ", "NOUN", "ADJ", "CCONJ", "PRON"]
    deps = ["nsubj", "ROOT", "poss", "amod", "dobj", "oprd", "cc", "conj"]
    heads = [1, 1, 4, 4, 1, 1, 5, 5]
    arrays = _parsed_tokens(words, pos, deps, heads)
    assert candidates(arrays, [False] * 8) == [0, 4]  # "it" as a conjunct is not an argument
    assert candidates(arrays, [False, False, False, True, True, False, False, False]) == [0]
    assert arrays.modifiers[4] == 1


def test_shipped_generic_model_loads_and_a_missing_one_is_a_config_error(tmp_path) -> None:  # noqa: ANN001
    model = load_generic_model()
    assert 0.0 < model.threshold < 1.0 and model.index
    with pytest.raises(ConfigError, match="extractors.train.relations"):
        load_generic_model(tmp_path)


def test_a_generic_argument_round_trips_through_json_and_is_marked_only_when_true() -> None:
    rel = EntityRelation("USED-FOR", TextSpan(0, 2, "It", generic=True), TextSpan(10, 20, "tagging"), 0.9)
    obj = rel.to_json()
    assert obj["head"]["generic"] is True and "generic" not in obj["tail"]
    assert EntityRelation.from_json(obj) == rel


def test_dense_features_are_unit_head_vectors_and_the_normalized_words_between() -> None:
    tok = np.array([[3.0, 4.0], [1.0, 0.0], [0.0, 2.0], [0.0, 0.0], [6.0, 8.0]])
    heads = [0, 0, 4, 4, 4]
    dense = pairs_dense(tok, heads, [(0, 1, "Method", 3, 5, "Task"), (0, 2, "Method", 2, 3, "Task")])
    assert dense.shape == (2, 6)
    # heads 0 and 4; between: tokens 1 and 2, summed (1, 2) and scaled to unit length
    assert dense[0] == pytest.approx([0.6, 0.8, 0.6, 0.8, 1 / 5**0.5, 2 / 5**0.5])
    # the second span's head is token 2 (its own head lies outside it); nothing between
    assert dense[1] == pytest.approx([0.6, 0.8, 0.0, 1.0, 0.0, 0.0])
