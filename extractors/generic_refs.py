"""Generic references: the words by which an abstract points at a method, task or resource it
names elsewhere or not at all ("this method", "our approach", "the system", "it").

SciERC (Luan et al., EMNLP 2018) annotates them as ``Generic`` entities, and a third of its
relations have one as an argument ("*it* USED-FOR object recognition"). The entity extractor never
outputs them: they name nothing a graph could merge. The relation step needs them as arguments,
so it finds them here: each noun heading its phrase, or a subject or object pronoun "it", "they",
"them", outside every entity mention, is a candidate; a binary logistic regression over a few
sparse features of the token (:func:`token_features`: its lemma, the words around it, its
dependency label and its head's lemma, its tag, how many modifiers it has) keeps those whose
probability reaches the shipped threshold. A reference is one token, as 92 % of SciERC's
``Generic`` spans are.

Trained with the relation classifier by :mod:`extractors.train.relations` (same documents, same
folds); the weights ship in ``models/relations/generic/``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from extractors.linear import sparse_scores
from kg.errors import ConfigError
from kg.fileio import read_model

if TYPE_CHECKING:
    from spacy.tokens import Doc

MODEL_DIR = Path(__file__).resolve().parent / "models" / "relations" / "generic"
PRONOUNS = frozenset({"it", "they", "them"})
_PRONOUN_DEPS = frozenset({"nsubj", "nsubjpass", "dobj", "pobj"})
_MODIFIER_DEPS = frozenset({"compound", "amod", "nmod"})


class TokenArrays:
    """The per-token strings and heads of one parse that the relation step and the candidates read
    (tags and parts of speech as ids: only candidates need a tag's string)."""

    __slots__ = ("words", "lemmas", "deps", "heads", "modifiers", "_tags", "_pos", "_strings", "_nouns")

    def __init__(self, doc: Doc) -> None:
        from spacy.attrs import DEP, HEAD, LEMMA, LOWER, POS, TAG
        from spacy.parts_of_speech import NOUN, PROPN

        self._nouns = (NOUN, PROPN)
        strings = doc.vocab.strings
        array = doc.to_array([LOWER, LEMMA, DEP, HEAD, TAG, POS])
        self.words = [strings[int(h)] for h in array[:, 0]]
        self.lemmas = [strings[int(h)].lower() or w for h, w in zip(array[:, 1], self.words, strict=True)]
        self.deps = [strings[int(h)] for h in array[:, 2]]
        self.heads: list[int] = (np.arange(len(doc)) + array[:, 3].astype(np.int64)).tolist()
        self._tags = array[:, 4].tolist()
        self._pos = array[:, 5].tolist()
        self._strings = strings
        self.modifiers = [0] * len(doc)
        for i, (h, dep) in enumerate(zip(self.heads, self.deps, strict=True)):
            if h != i and dep in ("compound", "amod"):
                self.modifiers[h] += 1

    def tag(self, i: int) -> str:
        """The fine-grained tag of token ``i``."""
        return str(self._strings[self._tags[i]])

    def is_noun(self, i: int) -> bool:
        """Whether token ``i`` is a noun or a proper noun."""
        return self._pos[i] in self._nouns


def candidates(arrays: TokenArrays, covered: Sequence[bool]) -> list[int]:
    """Tokens that may be a generic reference: a noun heading its phrase or a subject or object
    pronoun, not inside an entity mention (``covered``)."""
    out = []
    for i, dep in enumerate(arrays.deps):
        if covered[i]:
            continue
        if (arrays.is_noun(i) and dep not in _MODIFIER_DEPS) or (
            arrays.words[i] in PRONOUNS and dep in _PRONOUN_DEPS
        ):
            out.append(i)
    return out


def token_features(arrays: TokenArrays, i: int) -> list[str]:
    """The sparse features of candidate token ``i``.

    >>> import spacy
    >>> nlp = spacy.blank("en")
    >>> doc = nlp("we test our method here")
    >>> for t in doc:
    ...     t.lemma_, t.dep_, t.tag_, t.pos_ = t.text, "dep", "NN", "NOUN"
    >>> doc[3].head = doc[1]
    >>> [f for f in token_features(TokenArrays(doc), 3) if f.startswith(("l=", "p1=", "lp="))]
    ['l=method', 'p1=our', 'lp=method|our']
    """
    w = arrays.words
    n = len(w)
    lemma = arrays.lemmas[i]
    p1 = w[i - 1] if i > 0 else "<s>"
    return [
        "l=" + lemma,
        "p1=" + p1,
        "p2=" + (w[i - 2] if i > 1 else "<s>"),
        "n1=" + (w[i + 1] if i + 1 < n else "</s>"),
        "dep=" + arrays.deps[i],
        "h=" + arrays.lemmas[arrays.heads[i]],
        "tag=" + arrays.tag(i),
        "lp=" + lemma + "|" + p1,
        "mods=" + str(min(arrays.modifiers[i], 2)),
    ]


class GenericModel:
    """Binary logistic regression over :func:`token_features`: ``weights`` (features + 1 spare
    row), ``bias``, ``threshold``."""

    def __init__(self, features: Sequence[str], weights: np.ndarray, bias: float, threshold: float) -> None:
        self.index = {f: i for i, f in enumerate(features)}
        self.weights = weights
        self.bias = bias
        self.threshold = threshold

    def probabilities(self, feature_lists: Sequence[Sequence[str]]) -> np.ndarray:
        """The probability that each candidate is a generic reference."""
        if not feature_lists:
            return np.zeros(0, dtype=np.float64)
        scores = sparse_scores(self.weights, self.index, feature_lists) + self.bias
        return 1.0 / (1.0 + np.exp(-scores))  # type: ignore[no-any-return]

    def find(self, arrays: TokenArrays, covered: Sequence[bool]) -> list[int]:
        """The tokens of one parse that are generic references (in text order)."""
        cands = candidates(arrays, covered)
        probs = self.probabilities([token_features(arrays, i) for i in cands])
        return [i for i, p in zip(cands, probs, strict=True) if p >= self.threshold]


def load_model(model_dir: Path = MODEL_DIR) -> GenericModel:
    """Load the generic-reference classifier.

    Raises:
        ConfigError: the files are missing or inconsistent.
    """
    meta, arrays = read_model(model_dir, ("weights", "bias"), "python -m extractors.train.relations")
    weights, bias, features = arrays["weights"], arrays["bias"], meta["features"]
    if weights.shape != (len(features) + 1,) or bias.shape != (1,):
        raise ConfigError(f"{model_dir}: weights.npz does not match meta.json")
    return GenericModel(features, weights.astype(np.float64), float(bias[0]), float(meta["threshold"]))


@lru_cache(maxsize=1)
def shipped_model() -> GenericModel:
    """The shipped generic-reference classifier, loaded once per process."""
    return load_model()
