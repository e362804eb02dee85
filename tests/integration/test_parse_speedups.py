"""kg's parse speed-ups against the stock pipeline, token by token.

kg's pipeline multiplies through numpy's BLAS and memoizes ``attribute_ruler`` + ``lemmatizer``
(:mod:`kg.token_attrs`); the reference is the same package loaded the stock way (thinc's BLIS,
the stock rule components) with the same SciERC recognizer added.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
SCIERC_DEV = REPO.parent / "shared" / "data" / "scierc" / "dev.json"


@pytest.fixture(scope="module")
def stock():  # noqa: ANN201 - spacy Language
    import spacy
    from thinc.api import use_ops

    from extractors.entities import add_components
    from kg.nlp import EXCLUDE, candidates

    with use_ops("numpy", use_blis=True):
        nlp = spacy.load(candidates()[-1], exclude=list(EXCLUDE))
        add_components(nlp)
    models = [pipe.model for _, pipe in nlp.pipeline if getattr(pipe, "model", None) is not None]
    assert all(layer.ops.use_blis for model in models for layer in model.walk())
    return nlp


def _texts() -> list[str]:
    from kg.ingest import read_papers
    from kg.text import normalize

    texts = [normalize(p.abstract).text for p in read_papers([str(REPO / "seeds")])]
    if SCIERC_DEV.exists():
        for line in SCIERC_DEV.read_text(encoding="utf-8").splitlines():
            texts.append(" ".join(w for s in json.loads(line)["sentences"] for w in s))
    # Sentences the two-token patterns fire on (expletive + be, "gon na"), and the same words
    # where they do not.
    texts += [
        "There is a gap between the rates. There are two regimes, and the regret is small.",
        "We are gon na show it. Let's see. It is what it is.",
    ]
    return texts


def _attrs(doc) -> list[tuple[object, ...]]:  # noqa: ANN001
    tokens = [(t.text, t.tag_, t.dep_, t.head.i, t.pos_, str(t.morph), t.lemma_) for t in doc]
    return [*tokens, *((e.start, e.end, e.label_) for e in doc.ents)]


def test_same_parse_and_entities_as_stock_pipeline(stock, entity_pipeline) -> None:  # noqa: ANN001
    from kg.token_attrs import FACTORY

    nlp = entity_pipeline.nlp
    assert not nlp.get_pipe("tok2vec").model.ops.use_blis
    assert FACTORY in nlp.pipe_names
    assert "attribute_ruler" not in nlp.pipe_names and "lemmatizer" not in nlp.pipe_names
    texts = _texts()
    tokens = 0
    for ours, theirs in zip(nlp.pipe(texts), stock.pipe(texts), strict=True):
        assert _attrs(ours) == _attrs(theirs), ours.text[:80]
        tokens += len(ours)
    assert tokens > 10_000


def test_context_patterns_take_their_neighbours(entity_pipeline) -> None:  # noqa: ANN001
    doc = entity_pipeline.nlp("There is a gap. The gap is small.")
    is_expletive, is_copula = doc[1], doc[7]
    assert (is_expletive.text, is_copula.text) == ("is", "is")
    assert doc[0].dep_ == "expl"
    assert is_expletive.pos_ == "VERB"  # the two-token rule, not the one-word cache
    assert is_copula.pos_ == "AUX"
    assert is_expletive.lemma_ == is_copula.lemma_ == "be"


def test_ruler_reading_more_than_the_token_is_left_alone() -> None:
    import spacy

    from kg.nlp import EXCLUDE, candidates
    from kg.token_attrs import FACTORY, install

    nlp = spacy.load(candidates()[-1], exclude=list(EXCLUDE))
    nlp.get_pipe("attribute_ruler").add([[{"POS": "NOUN", "LOWER": "bound"}]], {"LEMMA": "bound"})
    install(nlp)
    assert FACTORY not in nlp.pipe_names
    assert "attribute_ruler" in nlp.pipe_names and "lemmatizer" in nlp.pipe_names
