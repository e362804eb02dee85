"""The latent semantic model behind kg.related's S signal: the shipped weights, and training."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from kg.errors import ConfigError
from kg.semantic import MODEL_DIR, load_model, main, train

BANDIT = "We minimize the cumulative regret of a multi-armed bandit algorithm."
ARMS = "An agent pulls arms to maximize reward while balancing exploration and exploitation."
IMAGES = "We synthesize realistic images with a generative adversarial network."


def test_semantic_shipped_model_is_consistent() -> None:
    model = load_model()
    meta = json.loads((MODEL_DIR / "meta.json").read_text(encoding="utf-8"))
    assert model.components.shape == (meta["dimensions"], len(model.terms))
    assert len(set(model.terms)) == len(model.terms) and model.idf.shape == (len(model.terms),)
    assert model.name.startswith(f"lsa-{meta['dimensions']}-")
    # every direction's largest word weight is positive (the sign convention training fixes)
    rows = np.arange(len(model.components))
    assert (model.components[rows, np.abs(model.components).argmax(axis=1)] > 0).all()


def test_semantic_vectors_are_unit_length_or_zero() -> None:
    vectors = load_model().vectors([BANDIT, "", "$x^2$ 42"])
    assert np.linalg.norm(vectors[0]) == pytest.approx(1.0)
    assert not vectors[1].any() and not vectors[2].any()  # no known word: no direction
    again = load_model().vectors([BANDIT])
    assert np.array_equal(again[0], vectors[0])


def test_semantic_same_subject_without_shared_words_is_closer_than_another_subject() -> None:
    model = load_model()
    tfidf = model.tfidf([BANDIT, ARMS, IMAGES])
    assert (tfidf[0] @ tfidf[1].T).toarray()[0, 0] == 0  # not one word in common
    a, b, c = model.vectors([BANDIT, ARMS, IMAGES])
    assert a @ b > 0.3 and a @ b > (a @ c) + 0.2


def _corpus() -> list[str]:
    topics = (
        "bandit regret arms exploration reward",
        "image network convolution pixels generative",
        "graph node edge community spectral",
    )
    return [f"{topics[i % 3]} sample{i % 7} extra{i % 5}" for i in range(60)]


def test_semantic_training_is_deterministic_with_fixed_signs() -> None:
    terms, idf, components, explained = train(_corpus(), dimensions=3, min_df=1)
    terms2, idf2, components2, explained2 = train(_corpus(), dimensions=3, min_df=1)
    assert terms == terms2 and np.array_equal(idf, idf2) and np.array_equal(components, components2)
    assert explained == explained2 and 0 < explained <= 1 + 1e-9  # a ratio, up to round-off
    assert (components[np.arange(3), np.abs(components).argmax(axis=1)] > 0).all()
    assert components.shape == (3, len(terms)) and components.dtype == np.float32


def test_semantic_main_names_file_and_line_of_bad_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text('{"title": "a", "abstract": "b"}\n{"title": \n', encoding="utf-8")
    out = tmp_path / "model"
    assert main([str(corpus), "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"kg.semantic: {corpus}: line 2: not valid JSON") and "\n" not in err
    assert not out.exists()  # nothing half-written


def test_semantic_main_trains_a_model_load_model_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(
        "".join(json.dumps({"title": "t", "abstract": text}) + "\n" for text in _corpus()), encoding="utf-8"
    )
    out = tmp_path / "model"
    assert main([str(corpus), "-o", str(out), "--dimensions", "3", "--min-df", "1"]) == 0
    model = load_model(out)
    assert json.loads((out / "meta.json").read_text(encoding="utf-8"))["documents"] == 60
    bandit, arms, images = model.vectors(["regret of a bandit", "arms and reward", "pixels of an image"])
    assert bandit @ arms > 0.9 and abs(bandit @ images) < 0.1
    # the shipped 100 directions need more words than this corpus has: a one-line error
    assert main([str(corpus), "-o", str(tmp_path / "big")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"kg.semantic: {corpus}: cannot train 100 directions") and "\n" not in err


def test_semantic_load_model_names_the_directory_on_missing_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=str(tmp_path)):
        load_model(tmp_path)
