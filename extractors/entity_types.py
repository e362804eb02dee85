"""Second-stage span typing: a logistic regression over a span's words, head, shape and context.

The SciERC recognizer (:mod:`extractors.entities`) finds most spans but often gives them the wrong
type (on SciERC dev, untyped relaxed F1 0.875 against typed 0.655; Concept↔Task↔Method confusions
dominate). This classifier re-reads each model span with features the transition model sees only
through its window: the span's bag of words, its head (last word), the head's lemma and suffixes,
the first word, word shape, the syntactic root and what it hangs on, two words on each side ("the
task of X", "X on the Y dataset", "X accuracy") and in-domain word vectors of the span, its head and
the two words on each side.

It is trained on SciERC train gold spans only (:mod:`extractors.train.entity_types`), **without**
the recognizer's own type: the recognizer was trained on those same spans, so its type there is
nearly always right and a classifier would learn to copy it. Instead the two are combined at
prediction: the recognizer's type is kept unless the classifier prefers another type with
probability at least ``threshold`` (chosen on SciERC dev, the one knob tuned there).

The weights ship as ``models/entity_types/weights.npz`` (float32 arrays, no pickle) and
``meta.json`` (feature names, classes, threshold). Scoring is vectorized per document: one
gather-and-sum for the sparse features and one matrix product for the vectors.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from extractors.linear import softmax, sparse_scores
from kg.errors import ConfigError
from kg.fileio import read_model

if TYPE_CHECKING:
    from spacy.tokens import Doc

MODEL_DIR = Path(__file__).resolve().parent / "models" / "entity_types"
CONTEXT = 2  # words each side
_DIGIT = re.compile(r"\d")
_INNER_CAP = re.compile(r"\S[A-Z]")  # "BiLSTM", "word2Vec": a capital inside a word
_PUNCT = frozenset("()[]{},;:.\"'")


def token_bounds(doc: Doc, spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Token ``[start, end)`` of each char span (expanded to whole tokens); ``(0, 0)`` when empty."""
    out = []
    for a, b in spans:
        span = doc.char_span(a, b, alignment_mode="expand")
        out.append((span.start, span.end) if span is not None and len(span) else (0, 0))
    return out


def span_features(doc: Doc, start: int, end: int) -> list[str]:
    """The sparse (string) features of tokens ``doc[start:end]``.

    >>> import spacy
    >>> doc = spacy.blank("en")("the task of machine translation .")
    >>> sorted(f for f in span_features(doc, 3, 5) if f.startswith(("h=", "b1=", "a1=")))
    ['a1=.', 'b1=of', 'h=translation']
    """
    return doc_features(doc, [(start, end)])[0]


def doc_features(doc: Doc, bounds: Sequence[tuple[int, int]]) -> list[list[str]]:
    """The sparse features of each token span ``bounds`` of ``doc`` (token strings read once)."""
    from spacy.attrs import ORTH

    strings = doc.vocab.strings
    texts = [strings[h] for h in doc.to_array(ORTH).tolist()]  # no Token objects (nor doc.text)
    lowers = [w.lower() for w in texts]
    pad = ["<s>"] * CONTEXT + lowers + ["</s>"] * CONTEXT
    out = []
    for start, end in bounds:
        if end <= start:
            out.append(["empty"])
            continue
        keep = [i for i in range(start, end) if texts[i] not in _PUNCT] or list(range(start, end))
        h, f = keep[-1], keep[0]
        head = doc[h]
        root = doc[start:end].root
        hl = lowers[h]
        feats = [f"w={lowers[i]}" for i in keep]
        feats += [
            f"r={root.lower_}",
            f"rdep={root.dep_}",
            f"rh={root.head.lemma_.lower()}|{root.dep_}",
            f"h={hl}",
            f"hl={head.lemma_.lower()}",
            f"ht={head.tag_}",
            f"f={lowers[f]}",
            f"s3={hl[-3:]}",
            f"s4={hl[-4:]}",
            f"hs={head.shape_}",
            f"n={min(len(keep), 5)}",
        ]
        if len(keep) > 1:
            feats.append(f"fh={lowers[f]}|{hl}")
        text = " ".join(texts[start:end])
        words = [texts[i] for i in keep]
        if _DIGIT.search(text):
            feats.append("digit")
        if "-" in text:
            feats.append("hyphen")
        if "(" in text:
            feats.append("paren")
        alpha = [w for w in words if w.isalpha()]
        if alpha and all(w.isupper() for w in alpha):
            feats.append("upper")
        elif all(w[:1].isupper() for w in alpha):
            feats.append("title")
        elif _INNER_CAP.search(" ".join(words)):
            feats.append("mixed")
        b2, b1 = pad[start], pad[start + 1]  # pad is shifted by CONTEXT
        a1, a2 = pad[end + CONTEXT], pad[end + CONTEXT + 1]
        feats += [f"b1={b1}", f"b2={b2}", f"b12={b2}|{b1}", f"a1={a1}", f"a2={a2}", f"a12={a1}|{a2}"]
        out.append(feats)
    return out


def dense_features(doc: Doc, bounds: Sequence[tuple[int, int]]) -> np.ndarray:
    """Per span, unit-length word-vector sums (``m × 4d``): of the span, of its last token, of the
    two words before and of the two words after; zeros where no vector is known. One table lookup
    and a handful of array operations for the whole document."""
    from spacy.attrs import ORTH

    vectors = doc.vocab.vectors
    width = vectors.shape[1] if vectors.shape[0] else 0
    m = len(bounds)
    if not width or not m:
        return np.zeros((m, 4 * width), dtype=np.float32)
    rows = vectors.find(keys=doc.to_array(ORTH))
    tok = np.asarray(vectors.data)[rows]
    tok[rows < 0] = 0.0
    cum = np.zeros((len(doc) + 1, width), dtype=np.float32)
    np.cumsum(tok, axis=0, out=cum[1:])
    idx = np.array(bounds, dtype=np.int64).reshape(-1, 2)
    a, b = idx[:, 0], idx[:, 1]
    # Blocks: the span, its last token, two words before, two words after.
    lo = np.concatenate([a, np.maximum(b - 1, a), np.maximum(a - CONTEXT, 0), b])
    hi = np.concatenate([b, b, a, np.minimum(b + CONTEXT, len(doc))])
    blocks = cum[hi] - cum[lo]
    norm = np.linalg.norm(blocks, axis=1, keepdims=True)
    blocks /= np.where(norm > 0, norm, 1.0)
    return blocks.reshape(4, m, width).transpose(1, 0, 2).reshape(m, 4 * width)


@dataclass(frozen=True, slots=True)
class TypeClassifier:
    """The shipped weights: ``sparse`` (features + 1 × classes), ``dense`` (4d × classes), ``bias``."""

    classes: tuple[str, ...]
    index: dict[str, int]
    sparse: np.ndarray
    dense: np.ndarray
    bias: np.ndarray
    threshold: float

    def probabilities(self, doc: Doc, bounds: Sequence[tuple[int, int]]) -> np.ndarray:
        """Class probabilities (``m × classes``) of token spans ``bounds`` of ``doc``."""
        if not bounds:
            return np.zeros((0, len(self.classes)), dtype=np.float32)
        scores = sparse_scores(self.sparse, self.index, doc_features(doc, bounds))
        scores += dense_features(doc, bounds) @ self.dense + self.bias
        return softmax(scores)

    def retype(self, doc: Doc, bounds: Sequence[tuple[int, int]], types: Sequence[str]) -> list[str]:
        """The recognizer's ``types``, each switched to the classifier's choice when that differs
        and has probability ≥ ``threshold``."""
        probs = self.probabilities(doc, bounds)
        out = []
        for etype, (a, b), row in zip(types, bounds, probs, strict=True):
            best = int(row.argmax()) if b > a else -1
            out.append(self.classes[best] if best >= 0 and row[best] >= self.threshold else etype)
        return out


def load_classifier(model_dir: Path = MODEL_DIR) -> TypeClassifier:
    """Load the shipped span-type classifier.

    Raises:
        ConfigError: the files are missing or inconsistent.
    """
    meta, weights = read_model(
        model_dir, ("sparse", "dense", "bias"), "python -m extractors.train.entity_types"
    )
    sparse, dense, bias = weights["sparse"], weights["dense"], weights["bias"]
    features = meta["features"]
    classes = tuple(meta["classes"])
    if sparse.shape != (len(features) + 1, len(classes)) or dense.shape[1] != len(classes):
        raise ConfigError(f"{model_dir}: weights.npz does not match meta.json")
    return TypeClassifier(
        classes,
        {f: i for i, f in enumerate(features)},
        sparse.astype(np.float32),
        dense.astype(np.float32),
        bias.astype(np.float32),
        float(meta["threshold"]),
    )


@lru_cache(maxsize=1)
def shipped_classifier() -> TypeClassifier:
    """The shipped classifier, loaded once per process."""
    return load_classifier()
