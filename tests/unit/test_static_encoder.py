"""kg.static_encoder: the distilled token table reads texts as a lookup and a mean."""

import json
import shutil

import numpy as np
import pytest

from kg.errors import ConfigError
from kg.static_encoder import DIMENSIONS, MODEL_DIR, StaticEncoder, load_static_encoder


def test_static_encoder_vectors_are_unit_length_and_zero_without_tokens():
    vectors = load_static_encoder().vectors(["Regret bounds for linear bandits.", "", "   "])
    assert vectors.shape == (3, DIMENSIONS)
    assert np.linalg.norm(vectors[0]) == pytest.approx(1.0, abs=1e-5)
    assert not vectors[1].any() and not vectors[2].any()


def test_static_encoder_vector_is_the_mean_of_its_tokens_rows():
    encoder = load_static_encoder()
    text = "Thompson sampling for contextual bandits"
    ids = encoder.tokenizer.encode(text, add_special_tokens=False).ids
    mean = encoder.table[ids].mean(axis=0)
    assert np.allclose(encoder.vectors([text])[0], mean / np.linalg.norm(mean), atol=1e-6)


def test_static_encoder_places_related_abstracts_closer_than_unrelated_ones():
    a, b, c = load_static_encoder().vectors([
        "We prove regret bounds for stochastic linear bandits with finitely many arms.",
        "An exploration strategy for contextual bandits with a sublinear regret guarantee.",
        "Predicting protein structures from amino acid sequences with deep networks.",
    ])
    assert float(a @ b) > float(a @ c)


def test_static_encoder_refuses_a_table_of_another_tokenizer(tmp_path):
    directory = tmp_path / "table"
    shutil.copytree(MODEL_DIR, directory)
    meta = json.loads((directory / "meta.json").read_text(encoding="utf-8"))
    meta["tokenizer_sha256"] = "0" * 64
    (directory / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    with pytest.raises(ConfigError, match="another tokenizer; rebuild it with python -m kg.static_encoder"):
        StaticEncoder(directory)
