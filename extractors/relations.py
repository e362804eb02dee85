"""Typed relations between the entity mentions of one sentence (SciERC's seven types).

The ``relations`` family runs after ``entities`` in the pipeline's one pass: it reads the mentions
the entity extractor found (:attr:`extractors.base.ParsedPaper.mentions`) and the spaCy parse
already made, and pairs every two arguments of a sentence: its mentions and its generic references
(:mod:`extractors.generic_refs`: "this method", "it"; never two of those). Each unordered pair
(``a`` before ``b`` in the text) is classified by a multinomial logistic regression into ``NONE``
or a relation type with its direction (``USED-FOR>``: ``a`` is the head; ``USED-FOR<``: ``b`` is),
over sparse features of the pair (:func:`pair_features`): the two entity types, the words between
them, their distance, the head lemmas of both spans, the dependency path between their syntactic
heads (with the lemma where the path turns) and the words just outside the pair; and dense
features (:func:`pair_dense`): the in-domain word vectors the entity recognizer loads (unit
length) of both heads and of the words between. A pair becomes a relation when its best relation
class has probability at least ``threshold``; that probability is the relation's confidence.

Types (Luan et al., EMNLP 2018): ``USED-FOR``, ``FEATURE-OF``, ``HYPONYM-OF``, ``PART-OF``,
``COMPARE``, ``CONJUNCTION``, ``EVALUATE-FOR``; head and tail as SciERC annotates them ("A
USED-FOR B": A is used for B; "A EVALUATE-FOR B": the metric or dataset A evaluates B; "A
HYPONYM-OF B": A is a kind of B).

Trained by :mod:`extractors.train.relations` on the gold entities (Generic spans as the generic
references) and relations of SciERC train + dev outside the frozen fold; the weights ship as
``models/relations/weights.npz`` and ``meta.json`` (feature names, classes, threshold), read with
no pickle.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from extractors.base import ParsedPaper
from extractors.entities import NESTED_EXTRACTOR
from extractors.entity_spans import sentence_bounds, sentence_of
from extractors.generic_refs import GenericModel, TokenArrays
from extractors.generic_refs import shipped_model as generic_model
from extractors.linear import softmax, sparse_scores
from kg.errors import ConfigError
from kg.fileio import read_model
from kg.types import EntityRelation, Mention, TextSpan

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

NAME = "relations.pairs.v4"
MODEL_DIR = Path(__file__).resolve().parent / "models" / "relations"
RELATION_TYPES: tuple[str, ...] = (
    "USED-FOR",
    "FEATURE-OF",
    "HYPONYM-OF",
    "PART-OF",
    "COMPARE",
    "CONJUNCTION",
    "EVALUATE-FOR",
)
NONE = "NONE"
GENERIC = "Generic"  # the type of a generic reference as a relation argument (SciERC's label)
MAX_GAP = 30  # tokens between two mentions beyond which a pair is not classified
_MAX_PATH = 6  # dependency arcs; a longer path is one feature "long"

# A pair: token [start, end) and entity type of the first mention, then of the second.
Pair = tuple[int, int, str, int, int, str]


def _bucket(n: int) -> str:
    if n <= 2:
        return str(n)
    if n <= 4:
        return "3-4"
    if n <= 7:
        return "5-7"
    if n <= 12:
        return "8-12"
    return "13+"


def _span_head(heads: Sequence[int], start: int, end: int) -> int:
    """The syntactic head of tokens ``[start, end)``: the first whose head is outside them."""
    for i in range(start, end):
        h = heads[i]
        if h == i or not start <= h < end:
            return i
    return end - 1


def _chain(heads: Sequence[int], i: int) -> list[int]:
    out = [i]
    while heads[i] != i and len(out) < 40:
        i = heads[i]
        out.append(i)
    return out


def pair_features(
    words: Sequence[str],
    lemmas: Sequence[str],
    deps: Sequence[str],
    heads: Sequence[int],
    pair: Pair,
    between_mentions: int = 0,
) -> list[str]:
    """The sparse features of one pair of mentions (the first before the second in the text).

    ``words``, ``lemmas``, ``deps`` and ``heads`` are the document's per-token lower-cased words,
    lemmas, dependency labels and head indices.

    >>> w = "cnn is used for image classification .".split()
    >>> heads = [2, 2, 2, 2, 5, 3, 2]
    >>> deps = ["nsubjpass", "auxpass", "ROOT", "prep", "compound", "pobj", "punct"]
    >>> f = pair_features(w, w, deps, heads, (0, 1, "Method", 4, 6, "Task"))
    >>> [x for x in f if x.startswith(("T=", "bs=", "p="))]
    ['T=Method|Task', 'bs=is used for', 'p=nsubjpass^/prep_pobj_']
    """
    a0, a1, ta, b0, b1, tb = pair
    types = f"{ta}|{tb}"
    gap = max(b0 - a1, 0)
    ha = _span_head(heads, a0, a1)
    hb = _span_head(heads, b0, b1)
    feats = [
        "T=" + types,
        "ta=" + ta,
        "tb=" + tb,
        "d=" + _bucket(gap),
        "Td=" + types + "|" + _bucket(gap),
        "ha=" + lemmas[ha],
        "hb=" + lemmas[hb],
        "hab=" + lemmas[ha] + "|" + lemmas[hb],
        "Tha=" + tb + "|" + lemmas[ha],
        "Thb=" + ta + "|" + lemmas[hb],
        "ne=" + str(min(between_mentions, 2)),
        "b1=" + (words[a0 - 1] if a0 > 0 else "<s>"),
        "a1=" + (words[b1] if b1 < len(words) else "</s>"),
    ]
    between = lemmas[a1:b0]
    if between:
        feats.append("bf=" + between[0])
        feats.append("bl=" + between[-1])
        feats.extend("bw=" + w for w in set(between))
        if gap <= 4:
            joined = " ".join(words[a1:b0])
            feats.append("bs=" + joined)
            feats.append("Tbs=" + types + "|" + joined)
    else:
        feats.append("bs=")
    up = _chain(heads, ha)
    down = _chain(heads, hb)
    on_up = {t: k for k, t in enumerate(up)}
    lca = next((t for t in down if t in on_up), -1)
    if lca < 0:
        feats.append("p=none")
        return feats
    up_part = up[: on_up[lca]]
    down_part = down[: down.index(lca)]
    if len(up_part) + len(down_part) > _MAX_PATH:
        feats.append("p=long")
        return feats
    path = "_".join(deps[t] for t in up_part) + "^/" + "_".join(deps[t] for t in reversed(down_part)) + "_"
    feats.append("p=" + path)
    feats.append("pl=" + path + "|" + lemmas[lca])
    feats.append("Tp=" + types + "|" + path)
    feats.append("lca=" + lemmas[lca])
    return feats


def doc_vectors(doc: Doc, width: int) -> np.ndarray:
    """The word vector of each token of ``doc`` (``len(doc) × width``; zeros for a word without
    one, and everywhere when the vocabulary's vectors are not ``width`` wide)."""
    from spacy.attrs import ORTH

    vectors = doc.vocab.vectors
    if not width or not vectors.shape[0] or vectors.shape[1] != width:
        return np.zeros((len(doc), width), dtype=np.float64)
    rows = vectors.find(keys=doc.to_array(ORTH))
    tok = np.asarray(vectors.data)[rows].astype(np.float64)  # the rows only, not the whole table
    tok[rows < 0] = 0.0
    return tok  # type: ignore[no-any-return]


def pair_dense(tok: np.ndarray, heads: Sequence[int], pair: Pair) -> np.ndarray:
    """The dense features of one pair: unit-length vectors of the first head, the second head and
    the sum of the words between (``3 × width``)."""
    return pairs_dense(tok, heads, [pair])[0]


def pairs_dense(tok: np.ndarray, heads: Sequence[int], pairs: Sequence[Pair]) -> np.ndarray:
    """:func:`pair_dense` of every pair (``pairs × 3·width``), in one array."""
    width = tok.shape[1]
    out = np.zeros((len(pairs), 3, width), dtype=np.float64)
    if not width:
        return out.reshape(len(pairs), 0)
    out[:, 0] = tok[[_span_head(heads, a0, a1) for a0, a1, _ta, _b0, _b1, _tb in pairs]]
    out[:, 1] = tok[[_span_head(heads, b0, b1) for _a0, _a1, _ta, b0, b1, _tb in pairs]]
    for k, (_a0, a1, _ta, b0, _b1, _tb) in enumerate(pairs):
        if b0 > a1:
            out[k, 2] = tok[a1:b0].sum(axis=0)
    rows = out.reshape(-1, width)
    for v in rows:
        n = math.sqrt(v.dot(v))  # as numpy.linalg.norm computes a vector's norm
        if n > 0:
            v /= n
    return out.reshape(len(pairs), 3 * width)


def sentence_pairs(spans: Sequence[tuple[int, int, str, int]]) -> list[tuple[int, int, int]]:
    """The index pairs ``(i, j, mentions between)`` to classify among token spans
    ``(start, end, type, sentence)`` sorted by start: same sentence, ``i`` before ``j``, not
    overlapping, at most :data:`MAX_GAP` tokens apart."""
    out = []
    for i, (_a0, a1, _ta, sa) in enumerate(spans):
        for j in range(i + 1, len(spans)):
            b0, b1, _tb, sb = spans[j]
            if sb != sa or b0 - a1 > MAX_GAP:
                break
            if b0 >= a1:
                out.append((i, j, sum(1 for k in range(i + 1, j) if spans[k][0] >= a1 and spans[k][1] <= b0)))
    return out


class RelationModel:
    """The shipped weights: ``weights`` (features + 1 spare row × classes), ``dense`` (3 × vector
    width × classes; none wide without vectors), ``bias``, ``threshold``."""

    def __init__(
        self,
        classes: Sequence[str],
        features: Sequence[str],
        weights: np.ndarray,
        bias: np.ndarray,
        threshold: float,
        dense: np.ndarray | None = None,
    ) -> None:
        self.classes = tuple(classes)
        self.index = {f: i for i, f in enumerate(features)}
        self.weights = weights
        self.bias = bias
        self.threshold = threshold
        self.dense = dense if dense is not None else np.zeros((0, len(self.classes)), dtype=np.float32)

    @property
    def width(self) -> int:
        """The word-vector width the dense weights read (0: none)."""
        return self.dense.shape[0] // 3

    def probabilities(
        self, feature_lists: Sequence[Sequence[str]], dense: np.ndarray | None = None
    ) -> np.ndarray:
        """Class probabilities (``pairs × classes``) of each pair's features (and dense rows)."""
        if not feature_lists:
            return np.zeros((0, len(self.classes)), dtype=np.float32)
        scores = sparse_scores(self.weights, self.index, feature_lists) + self.bias
        if dense is not None and self.dense.shape[0]:
            scores += dense @ self.dense
        return softmax(scores)

    def decide(
        self, probs: np.ndarray, threshold: float | None = None
    ) -> list[tuple[str, bool, float] | None]:
        """Per pair: ``(type, first mention is the head, probability)`` of its best relation class
        when that reaches the threshold, else ``None``."""
        limit = self.threshold if threshold is None else threshold
        rel = [k for k, c in enumerate(self.classes) if c != NONE]
        out: list[tuple[str, bool, float] | None] = []
        for row in probs:
            k = max(rel, key=lambda c: row[c])
            if row[k] < limit:
                out.append(None)
                continue
            name = self.classes[k]
            out.append((name[:-1], name.endswith(">"), float(row[k])))
        return out


def load_model(model_dir: Path = MODEL_DIR) -> RelationModel:
    """Load the relation classifier.

    Raises:
        ConfigError: the files are missing or inconsistent.
    """
    meta, arrays = read_model(model_dir, ("weights", "dense", "bias"), "python -m extractors.train.relations")
    weights, dense, bias = arrays["weights"], arrays["dense"], arrays["bias"]
    features, classes = meta["features"], meta["classes"]
    if (
        weights.shape != (len(features) + 1, len(classes))
        or bias.shape != (len(classes),)
        or dense.shape != (3 * int(meta.get("vector_width", 0)), len(classes))
    ):
        raise ConfigError(f"{model_dir}: weights.npz does not match meta.json")
    # float64: a float32 sum's last bits follow memory alignment, and a confidence rounded to four
    # places must not move when nothing but the layout did
    return RelationModel(
        classes,
        features,
        weights.astype(np.float64),
        bias.astype(np.float64),
        float(meta["threshold"]),
        dense.astype(np.float64),
    )


@lru_cache(maxsize=1)
def shipped_model() -> RelationModel:
    """The shipped relation classifier, loaded once per process."""
    return load_model()


def mention_tokens(parsed: ParsedPaper, mentions: Sequence[Mention]) -> list[tuple[int, int]]:
    """Token ``[start, end)`` of each mention in ``parsed.doc`` (tokens whose original span
    overlaps the mention's); ``(0, 0)`` when none does."""
    import bisect

    from spacy.attrs import IDX, LENGTH

    norm, doc = parsed.norm, parsed.doc
    starts = []
    ends = []
    for idx, length in doc.to_array([IDX, LENGTH]).tolist():
        s, e = norm.to_original(idx, idx + length)
        starts.append(s)
        ends.append(e)
    out = []
    for m in mentions:
        a = bisect.bisect_right(ends, m.start)  # first token ending after the mention starts
        b = bisect.bisect_left(starts, m.end)  # first token starting at or after its end
        out.append((a, b) if a < b else (0, 0))
    return out


class RelationExtractor:
    """The ``relations`` family: typed relations between the mentions of one sentence, and between
    a mention and a generic reference (:mod:`extractors.generic_refs`)."""

    name = NAME
    reads_mentions = True

    def __init__(
        self, model: RelationModel | None = None, generic: GenericModel | None | bool = True
    ) -> None:
        """``generic``: the generic-reference classifier (``True``: the shipped one; ``None``:
        find none, and read mentions of type ``Generic`` as the references instead)."""
        self.model = model or shipped_model()
        self.generic = generic_model() if generic is True else generic or None

    def setup(self, nlp: Language) -> None:
        """Nothing to add: the relation step reads the base parse."""

    def extract(self, parsed: ParsedPaper) -> Iterable[EntityRelation]:
        mentions = [m for m in parsed.mentions if m.end > m.start]
        # A proposal named by what it is for ("an algorithm for learning decision trees") holds its
        # own arguments: the relation step reads its parts, the generic "algorithm" and the task.
        mentions = [m for m in mentions if m.extractor != NESTED_EXTRACTOR]
        if not mentions:
            return []
        doc, norm = parsed.doc, parsed.norm
        bounds = mention_tokens(parsed, mentions)
        arrays = TokenArrays(doc)
        args = [
            (
                a,
                b,
                m.type,
                m.sentence_start,
                k,
                _Arg(m.start, m.end, m.sentence_start, m.sentence_end, m.type == GENERIC),
            )
            for k, (m, (a, b)) in enumerate(zip(mentions, bounds, strict=True))
            if b > a
        ]
        if self.generic is not None:
            covered = [False] * len(doc)
            for a, b, *_rest in args:
                covered[a:b] = [True] * (b - a)
            refs = self.generic.find(arrays, covered)
            if refs:
                sents = sentence_bounds(doc)
                for i in refs:
                    idx = doc[i].idx
                    start, end = norm.to_original(idx, idx + len(doc[i]))
                    s_start, s_end = norm.to_original(*sentence_of(sents, idx))
                    args.append(
                        (
                            i,
                            i + 1,
                            GENERIC,
                            s_start,
                            len(mentions) + i,
                            _Arg(start, end, s_start, s_end, True),
                        )
                    )
        args.sort(key=lambda x: x[:5])
        keyed = [(a, b, t, s) for a, b, t, s, _k, _arg in args]
        pairs = [p for p in sentence_pairs(keyed) if keyed[p[0]][2] != GENERIC or keyed[p[1]][2] != GENERIC]
        if not pairs:
            return []
        words, lemmas, deps, heads = arrays.words, arrays.lemmas, arrays.deps, arrays.heads
        tuples: list[Pair] = [(*keyed[i][:3], *keyed[j][:3]) for i, j, _n in pairs]  # type: ignore[misc]
        feats = [
            pair_features(words, lemmas, deps, heads, t, between)
            for t, (_i, _j, between) in zip(tuples, pairs, strict=True)
        ]
        dense = None
        if self.model.width:
            tok = doc_vectors(doc, self.model.width)
            dense = pairs_dense(tok, heads, tuples)
        out = []
        abstract = parsed.paper.abstract
        decisions = self.model.decide(self.model.probabilities(feats, dense))
        for (i, j, _n), decision in zip(pairs, decisions, strict=True):
            if decision is None:
                continue
            rtype, first_is_head, prob = decision
            first, second = args[i][5], args[j][5]
            head, tail = (first, second) if first_is_head else (second, first)
            out.append(
                EntityRelation(
                    type=rtype,
                    head=TextSpan(head.start, head.end, abstract[head.start : head.end], head.generic),
                    tail=TextSpan(tail.start, tail.end, abstract[tail.start : tail.end], tail.generic),
                    confidence=round(prob, 4),
                    extractor=NAME,
                    sentence_start=first.sentence_start,
                    sentence_end=first.sentence_end,
                )
            )
        return out


class _Arg(NamedTuple):
    """A relation argument: a mention's or a generic reference's span in the original abstract."""

    start: int
    end: int
    sentence_start: int
    sentence_end: int
    generic: bool


def relation_extractor() -> RelationExtractor:
    """The current ``relations`` extractor (weights read once, here)."""
    return RelationExtractor()
