"""The second-stage span-type classifier: features, shipped weights, threshold logic, and its
predictions on hand-built snippets through the real pipeline."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from extractors.entity_types import (
    MODEL_DIR,
    TypeClassifier,
    dense_features,
    doc_features,
    load_classifier,
    span_features,
    token_bounds,
)
from kg.errors import ConfigError


@pytest.fixture(scope="module")
def blank():  # noqa: ANN201 - spacy Language
    import spacy

    return spacy.blank("en")


def test_entity_types_features_context_and_shape(blank) -> None:  # noqa: ANN001
    doc = blank("We evaluate on the CoNLL-2003 dataset .")
    feats = span_features(doc, 4, 5)
    for f in ("w=conll-2003", "h=conll-2003", "b1=the", "b2=on", "a1=dataset", "a2=.", "digit", "hyphen"):
        assert f in feats
    first, last = doc_features(doc, [(0, 1), (5, 7)])
    assert "b12=<s>|<s>" in first
    assert "a12=</s>|</s>" in last
    assert doc_features(doc, [(3, 3)]) == [["empty"]]


def test_entity_types_token_bounds_expand(blank) -> None:  # noqa: ANN001
    doc = blank("the task of machine translation")
    assert token_bounds(doc, [(12, 31), (13, 14)]) == [(3, 5), (3, 4)]


def test_entity_types_dense_without_vectors_is_zero(blank) -> None:  # noqa: ANN001
    doc = blank("a b c")
    assert dense_features(doc, [(0, 1)]).shape == (1, 0)


def _toy(threshold: float) -> TypeClassifier:
    # Two features: "h=bleu" votes Metric, "h=translation" votes Task.
    sparse = np.zeros((3, 3), np.float32)
    sparse[0, 1] = 4.0
    sparse[1, 2] = 1.0
    return TypeClassifier(
        ("Concept", "Metric", "Task"),
        {"h=bleu": 0, "h=translation": 1},
        sparse,
        np.zeros((0, 3), np.float32),
        np.zeros(3, np.float32),
        threshold,
    )


def test_entity_types_threshold_logic(blank) -> None:  # noqa: ANN001
    doc = blank("bleu translation other")
    bounds = [(0, 1), (1, 2), (2, 3), (0, 0)]
    probs = _toy(0.5).probabilities(doc, bounds)
    assert np.allclose(probs.sum(axis=1), 1.0)
    assert probs[0, 1] > 0.9 and 0.5 < probs[1, 2] < 0.6  # e^1 / (e^1 + 2) = 0.576
    # Confident → switched; not confident enough → the recognizer's type; empty span → kept.
    assert _toy(0.5).retype(doc, bounds, ["Task", "Concept", "Method", "Dataset"]) == [
        "Metric",
        "Task",
        "Method",
        "Dataset",
    ]
    assert _toy(0.6).retype(doc, bounds, ["Task", "Concept", "Method", "Dataset"]) == [
        "Metric",
        "Concept",
        "Method",
        "Dataset",
    ]


def test_entity_types_shipped_weights_load() -> None:
    clf = load_classifier()
    assert clf.classes == ("Concept", "Dataset", "Method", "Metric", "Task")
    assert clf.sparse.shape == (len(clf.index) + 1, 5)
    assert not clf.sparse[-1].any()  # the spare "no feature" row
    assert 0.0 < clf.threshold <= 1.0
    assert sum(p.stat().st_size for p in MODEL_DIR.iterdir()) < 1_000_000


def test_entity_types_missing_weights(tmp_path) -> None:  # noqa: ANN001
    with pytest.raises(ConfigError, match="entity_types"):
        load_classifier(tmp_path)


@pytest.mark.integration
@pytest.mark.parametrize(
    ("sentence", "span", "etype"),
    [
        ("We study the task of machine translation .", "machine translation", "Task"),
        ("We evaluate on the CoNLL-2003 dataset .", "CoNLL-2003", "Dataset"),
        ("Our parser improves accuracy on the Penn Treebank .", "Penn Treebank", "Dataset"),
        ("We report the BLEU score of each system .", "BLEU score", "Metric"),
    ],
)
def test_entity_types_snippets(entity_pipeline, sentence: str, span: str, etype: str) -> None:  # noqa: ANN001
    clf = load_classifier()
    doc = entity_pipeline.nlp(sentence)
    start = sentence.index(span)
    bounds = token_bounds(doc, [(start, start + len(span))])
    probs = clf.probabilities(doc, bounds)
    assert clf.classes[int(probs[0].argmax())] == etype
    # Deterministic: the same input gives the same numbers.
    assert np.array_equal(probs, clf.probabilities(doc, bounds))
    # Below the threshold the recognizer's type stands; at 0 the classifier's choice wins.
    assert replace(clf, threshold=1.0).retype(doc, bounds, ["Concept"]) == ["Concept"]
    assert replace(clf, threshold=0.0).retype(doc, bounds, ["Concept"]) == [etype]
