"""Related-work discovery that explains itself: "what should I read next, and why?"

Every score is computed from the graph and comes with the evidence that produced it. For a
query paper ``q`` and a candidate ``c`` (both papers of the graph, or ``q`` an abstract read on
the fly)::

    score(q, c) = w.entity  * E(q, c) / s_E     shared entities, by rarity, type and role
                + w.terms   * W(q, c) / s_W     entities that share words, by rarity and type
                + w.bound   * B(q, c) / s_B     shared bound shapes
                + w.topic   * [topic(q) == topic(c)]
                + w.lexical * L(q, c) / s_L     TF-IDF cosine of the titles and abstracts
                + w.semantic * S(q, c) / s_S    latent semantic cosine of the same texts
                + w.encoder  * N(q, c) / s_N    sentence-encoder cosine of the same texts

with the defaults ``w.entity = 0.1, w.terms = 0.25, w.bound = 0.1, w.topic = 0,
w.lexical = 1, w.semantic = 0.25, w.encoder = 3`` (:class:`RelatedWeights` says why and how they
were chosen).

**Scales** ``s``. The signals are cosines of very different vectors: two papers' entity-word
vectors (a dozen words) meet far more often, and far higher, than their abstracts' TF-IDF vectors
(hundreds of words and word pairs). Each signal is therefore divided by its scale, the value of a
typical paper's best match under that signal: the median, over the papers that have the signal
at all, of their highest value with any other paper (computed once when the index is built, on
an evenly spaced sample of at most 1,000 papers). A signal of 1 is "as similar as a typical best
match", so the weights say how much each kind of evidence counts, whatever its raw range in this
graph. ``Related.signals`` reports the signals in these units, so ``score = Σ w · signals``.

**Entities** ``E``. Each paper is a vector over the entities it holds (its paper→entity edges).
Entry ``x_p[e] = w.types[type(e)] * idf(e)`` with ``idf(e) = ln((N + 1) / (df(e) + 1))``
(``N`` papers, ``df`` papers holding ``e``): a rare named Method outweighs a common Concept, and
an entity every paper has weighs nothing. Vectors are L2-normalized, and each shared entity adds
``x_q[e] * x_c[e] * role(q, c, e)`` where ``role`` is 1 when both papers use ``e``,
``w.proposed_used`` when one proposes what the other uses (builds on it) and
``w.both_proposed`` when both propose it (competing claims to the same thing). Without roles
``E`` is the cosine of the two vectors.

**Entity words** ``W``. Extracted entities are often long and specific ("stochastic linear
bandit", "generalized linear contextual bandit") and rarely identical across papers, yet their
words say the papers meet on "linear bandit". Each entity contributes the words and word pairs
of its canonical name (and of plain-text aliases such as the acronym "PCA"), singularized, stop
words dropped; a paper's entry for a word is the largest type weight of its entities having it,
times the word's IDF over papers. ``W`` is the cosine of these vectors; the explanation names
the entity pairs behind the strongest shared words ("similar: generalized linear contextual
bandit ≈ stochastic linear bandit"). Generic heads ("framework", "model") count only in pairs.

**Bounds** ``B``. Each claimed bound (``Bound`` nodes) yields shape features: ``(quantity, side)``
("a regret upper bound") and ``(quantity, side, variable, exponent)`` ("a regret upper bound
in √T"), where the exponent of each variable is read off the bound's plain expression by
:func:`dependence` (``d sqrt(T log T)`` → ``d: 1, T: 1/2 · log``). Tight and order-of bounds
count as both sides. The quantity is the one the bound rules name, without the qualifiers they
read ("expected regret" and "Nash regret" bounds are regret bounds:
:func:`extractors.bounds.named_quantity`). Features are IDF-weighted and L2-normalized like
entities; ``B`` is their
cosine. The explanation also says when one paper's upper bound has a smaller exponent in a
shared variable than the other's (it improves that dependence).

**Topic** is the community id the build assigns (``topic`` on paper nodes; weight 0 by default,
see :class:`RelatedWeights`, but always named in the explanation).

**Lexical** ``L`` is the cosine of TF-IDF vectors (:func:`lexical_matrix`) of each paper's title,
when it has a real one (not derived from the abstract), followed by its abstract. It counts words
and adjacent word pairs ("stochastic block", "matrix completion", "imitation learning" say more
than their words apart) that occur in at least two papers, with sublinear term frequency and English
stop words removed; LaTeX commands and PDF-extraction debris ("mathbf", "varepsilon", "cid") and
tokens with digits are not words (:func:`lexical_tokens`). The explanation names the most shared
terms, a word pair standing for its words. ``kg eval related``'s baseline is deliberately *not*
this representation but the textbook one (:func:`tfidf_matrix`: abstract words, stop words,
sublinear tf), so that the comparison measures what kg adds.

**Semantic** ``S`` is the cosine (negative values count 0) of the same texts' vectors under a
latent semantic model trained once on 22,654 ML abstracts and shipped with kg
(:mod:`kg.semantic`): papers on one subject meet there even when they share few words. Its
explanation names the candidate's words, absent from the query, that lie closest to the query's
subject ("close in meaning: arms, exploration").

**Encoder** ``N`` is the cosine (negative values count 0) of the same texts' vectors under the
sentence encoder all-MiniLM-L6-v2 (:mod:`kg.encoder`, run in numpy), which was trained on pairs of
related sentences and papers and so reads what an abstract is about rather than which words it
uses. ``S`` and ``N`` only order papers that share some evidence (an entity, an entity word, a
bound shape or a term): neither makes a result alone, and the explanation names the evidence.
Encoding is the one costly step of an index (about 0.1 s of CPU per abstract), so vectors are
kept in the saved index by each text's digest and reused when the graph changes.

Weights live in :class:`RelatedWeights`; ``kg related --weights FILE.json`` overrides any of
them. Everything is precomputed once into a :class:`RelatedIndex` (sparse matrices; an entity's
papers are its column), so one query is a few sparse products over all papers (about 10 ms on
22,654 papers). :func:`write_index` saves the index beside the graph (``related-index.npz``)
so that ``kg related`` need not read ``graph.json`` nor fit TF-IDF on each call.
"""

from __future__ import annotations

import json
import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import orjson
import scipy.sparse as sp

from extractors.bounds import named_quantity
from kg.encoder import DIMENSIONS as ENCODER_DIMENSIONS
from kg.encoder import NAME as ENCODER_NAME
from kg.encoder import load_encoder, text_key
from kg.errors import ConfigError, InputError, QueryError
from kg.graphdir import RELATED_INDEX
from kg.memory import gc_paused
from kg.semantic import load_model as load_semantic_model
from kg.types import ENTITY_TYPES as ENTITY_CLASSES
from kg.types import Bound, Extraction, Paper

if TYPE_CHECKING:
    import networkx as nx

# The order shared entities are listed in: what a researcher recognizes first.
TYPE_ORDER: tuple[str, ...] = ("Method", "Task", "Dataset", "Metric", "Concept")
PROPOSED = "proposed"
USED = "used"
# A word in at most 1 in 20 documents of the semantic model's corpus (smooth IDF ln((1+n)/(1+df))+1)
# names a subject; a commoner one ("algorithm", "bounds") does not explain a match.
_SUBJECT_IDF = math.log(20) + 1
# The score's signals, in the order of :class:`RelatedWeights` and of ``Related.signals``.
SIGNALS: tuple[str, ...] = ("entity", "terms", "bound", "topic", "lexical", "semantic", "encoder")
# Signals that order papers sharing some evidence but are never a reason alone.
_MEANING: frozenset[str] = frozenset({"semantic", "encoder"})


# ------------------------------------------------------------------------------------ weights


def _default_types() -> dict[str, float]:
    # A shared named method or task says more about what two papers do than a shared metric
    # or a generic concept ("regret", "convergence") does.
    return {"Method": 1.0, "Task": 0.8, "Dataset": 0.8, "Metric": 0.5, "Concept": 0.4}


@dataclass(frozen=True, slots=True)
class RelatedWeights:
    """The weights of the related-work score (see the module docstring for the formula).

    Each weight multiplies a signal divided by its scale (a typical best match), so the weights
    compare kinds of evidence, not the raw ranges of cosines. The defaults: the words of the
    titles and abstracts (``L``) carry the ranking; the entity words (``W``) a quarter of that;
    the exact shared entities (``E``) and bound shapes (``B``), sparse and often generic ("regret
    upper bounds", a shared "neural networks"), a tenth, enough to order near-ties and to be named
    in the explanation; the topic nothing, because the build computes topics from the very shared
    entities ``E`` already counts (it is still named in the explanation). They were chosen on 30
    query papers of the 22,616-paper corpus judged by pooling (``tests/data/
    related_judgments_corpus.jsonl``), never on the seed judgments, and checked once on 20 other
    query papers judged afterwards (``related_judgments_corpus_test.jsonl``): nDCG@5 0.681 and
    0.661 against 0.519 and 0.500 for the TF-IDF baseline. Larger entity weights helped the 50
    seed judgments a little and hurt the corpus ones more (``W`` at 0.5: seeds 0.537, corpus
    0.632). The semantic signal ``S`` came later: its weight 0.5 was chosen among 0.5, 1, 2 and 3
    on the same 30 corpus queries (with its model settings, see :mod:`kg.semantic`). The
    encoder signal ``N`` came last: ``semantic`` and ``encoder`` were chosen together on the same
    30 queries, among ``semantic`` 0, 0.25, 0.5 and ``encoder`` 0.5, 1, 2, 3, 4 (and 6), after
    the papers any of them brought into a top 5 unjudged were judged (pooled, blind to the
    system); 0.25 and 3 gave nDCG@5 0.792 there against 0.681 without ``N``. The README's
    related-work section gives what each change did on every judgment set.

    Attributes:
        entity: weight of the shared-entity similarity ``E`` (identical entities, with roles).
        terms: weight of the entity-word similarity ``W`` (entities that share words).
        bound: weight of the bound-shape similarity ``B``.
        topic: bonus when both papers are in the same topic.
        lexical: weight of the TF-IDF cosine of the titles and abstracts ``L``.
        semantic: weight of the latent semantic cosine of the same texts ``S``.
        encoder: weight of the sentence-encoder cosine of the same texts ``N`` (0 skips the
            encoder, and with it the cost of encoding the graph's abstracts).
        types: per entity type, the factor on that type's entries.
        proposed_used: role factor when one paper proposes an entity the other uses.
        both_proposed: role factor when both papers propose the entity.
    """

    entity: float = 0.1
    terms: float = 0.25
    bound: float = 0.1
    topic: float = 0.0
    lexical: float = 1.0
    semantic: float = 0.25
    encoder: float = 3.0
    types: dict[str, float] = field(default_factory=_default_types)
    proposed_used: float = 1.25
    both_proposed: float = 1.5

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any], source: str = "weights") -> RelatedWeights:
        """Weights from a mapping; keys not given keep their defaults.

        Raises:
            ConfigError: an unknown key, an unknown entity type, or a value that is not a
                non-negative number (the message names ``source`` and the key).
        """
        if not isinstance(obj, Mapping):
            raise ConfigError(f"{source}: expected a JSON object of weights")
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in obj.items():
            if key not in known:
                raise ConfigError(f"{source}: unknown weight {key!r}; known: {', '.join(sorted(known))}")
            if key == "types":
                if not isinstance(value, Mapping):
                    raise ConfigError(f"{source}: 'types' must map entity types to numbers")
                types = _default_types()
                for etype, w in value.items():
                    if etype not in ENTITY_CLASSES:
                        raise ConfigError(f"{source}: types: unknown entity type {etype!r}")
                    types[etype] = _weight(source, f"types.{etype}", w)
                values["types"] = types
            else:
                values[key] = _weight(source, key, value)
        return cls(**values)

    @classmethod
    def from_file(cls, path: str | Path) -> RelatedWeights:
        """Weights from a JSON file (``--weights FILE.json``).

        Raises:
            ConfigError: the file cannot be read, is not JSON, or holds a bad weight.
        """
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"{path}: cannot read the weights file: {exc.strerror or exc}") from None
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{path}: line {exc.lineno}: not valid JSON: {exc.msg}") from None
        return cls.from_dict(obj, source=str(path))

    def to_json(self) -> dict[str, Any]:
        """The weights as a JSON object (what ``--weights`` reads)."""
        return {
            f.name: (dict(self.types) if f.name == "types" else getattr(self, f.name)) for f in fields(self)
        }


def _weight(source: str, key: str, value: Any) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or value < 0
    ):
        raise ConfigError(f"{source}: weight {key!r} must be a non-negative number, got {value!r}")
    return float(value)


# ------------------------------------------------------------------------------ bound shapes

# Variables that are small (accuracy, confidence): a larger exponent is the better dependence.
_SMALL_VARIABLES = frozenset({"epsilon", "varepsilon", "eps", "delta", "alpha", "gamma"})
_WRAPPERS = frozenset({"O", "Omega", "Theta", "o", "omega", "tilde", "poly", "polylog"})
_FUNCTIONS = _WRAPPERS | {"sqrt", "log", "ln", "loglog", "exp", "min", "max"}
_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9{}]+)?)|(.))")

Dependence = dict[str, tuple[Fraction, int]]  # variable → (polynomial exponent, log power)


class _Unparsable(Exception):
    pass


class _DependenceParser:
    """A tiny recursive-descent reader of :func:`extractors.latex.to_expr` normal forms.

    It computes, for each variable, the exponent of its dominant term: sums take the maximum,
    products add, quotients subtract, ``sqrt`` halves, ``x^p`` multiplies by a numeric ``p``
    and ``log`` turns a variable into a log power. A variable raised to a non-numeric power
    (``n^(1/(2 beta))``) or inside ``exp`` has no exponent and is dropped.
    """

    def __init__(self, expr: str, variables: Iterable[str] = ()) -> None:
        known = sorted(set(variables), key=lambda v: (-len(v), v))
        self.tokens: list[tuple[str, str]] = []
        for m in _TOKEN.finditer(expr):
            if m.group(1):
                self.tokens.append(("num", m.group(1)))
            elif m.group(2):
                self.tokens.extend(("name", part) for part in _split_name(m.group(2), known))
            elif m.group(3) and not m.group(3).isspace():
                self.tokens.append(("op", m.group(3)))
        self.i = 0
        self.dropped: set[str] = set()

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        tok = self.peek()
        if tok is None:
            raise _Unparsable
        self.i += 1
        return tok

    def parse(self) -> Dependence:
        dep, _num = self.sum()
        if self.peek() is not None:
            raise _Unparsable
        return {v: e for v, e in dep.items() if v not in self.dropped}

    def sum(self) -> tuple[Dependence, Fraction | None]:
        dep, num = self.product()
        while self.peek() in (("op", "+"), ("op", "-"), ("op", ",")):
            self.take()
            other, _ = self.product()
            for v, e in other.items():
                # The dominant term grows fastest in a large variable (T, n, d) and shrinks
                # slowest in a small one (ε, δ): 1/ε^2 dominates 1/ε.
                pick = min if _is_small(v) else max
                dep[v] = pick(dep.get(v, (Fraction(0), 0)), e)
            num = None
        return dep, num

    def product(self) -> tuple[Dependence, Fraction | None]:
        if self.peek() == ("op", "-"):
            self.take()
        dep, num = self.power()
        while True:
            tok = self.peek()
            if tok is None or tok in (("op", "+"), ("op", "-"), ("op", ","), ("op", ")")):
                return dep, num
            sign = 1
            if tok in (("op", "*"), ("op", "/")):
                self.take()
                sign = -1 if tok[1] == "/" else 1
            other, onum = self.power()
            for v, (e, lg) in other.items():
                old = dep.get(v, (Fraction(0), 0))
                dep[v] = (old[0] + sign * e, old[1] + sign * lg)
            num = (
                None
                if num is None or onum is None
                else (num * onum if sign > 0 else (num / onum if onum else None))
            )

    def power(self) -> tuple[Dependence, Fraction | None]:
        dep, num = self.atom()
        if self.peek() == ("op", "^"):
            self.take()
            negative = self.peek() == ("op", "-")
            if negative:
                self.take()
            edep, enum = self.atom()
            if negative and enum is not None:
                enum = -enum
            if enum is None:
                self.dropped.update(dep)
                self.dropped.update(edep)
                return {}, None
            dep = {v: (e * enum, lg) for v, (e, lg) in dep.items()}
            num = num ** int(enum) if num is not None and enum.denominator == 1 else None
        return dep, num

    def atom(self) -> tuple[Dependence, Fraction | None]:
        kind, text = self.take()
        if kind == "num":
            return {}, Fraction(text)
        if kind == "op" and text == "(":
            dep, num = self.sum()
            if self.take() != ("op", ")"):
                raise _Unparsable
            return dep, num
        if kind != "name":
            raise _Unparsable
        if self.peek() == ("op", "("):
            self.take()
            inner, num = self.sum()
            if self.take() != ("op", ")"):
                raise _Unparsable
            if text == "sqrt":
                return {v: (e / 2, lg) for v, (e, lg) in inner.items()}, None
            if text in ("log", "ln", "loglog", "polylog"):
                return {v: (Fraction(0), 1) for v in inner}, None
            if text == "exp":
                self.dropped.update(inner)
                return {}, None
            # O(…), Theta(…), min(…), poly(…): the argument's dependence
            return inner, (num if text in _WRAPPERS else None)
        if text in ("sqrt", "log"):  # "log T" without parentheses
            inner, _ = self.power()
            if text == "sqrt":
                return {v: (e / 2, lg) for v, (e, lg) in inner.items()}, None
            return {v: (Fraction(0), 1) for v in inner}, None
        return {text: (Fraction(1), 0)}, None


def _split_name(name: str, known: Sequence[str]) -> list[str]:
    """``dB`` → ``d``, ``B`` when both are the bound's variables (the normal form writes an
    implicit product of one-letter variables as one word); other names stay whole."""
    if not known or name in known or name in _FUNCTIONS:
        return [name]
    parts: list[str] = []
    i = 0
    while i < len(name):
        hit = next((v for v in known if name.startswith(v, i)), None)
        if hit is None:
            return [name]
        parts.append(hit)
        i += len(hit)
    return parts


def dependence(expr: str, variables: Iterable[str] = ()) -> Dependence:
    """Each variable's exponent (and log power) in the dominant term of a plain expression.

    Args:
        expr: a bound's ``expr`` (the plain normal form of its LaTeX).
        variables: the bound's variables; a word made of them (``dB``) is read as their product.

    Returns:
        variable → (exponent, log power); empty when the expression cannot be read.

    >>> dep = dependence("O(dB + d sqrt(T))", ("B", "T", "d"))
    >>> {v: (str(e), lg) for v, (e, lg) in sorted(dep.items())}
    {'B': ('1', 0), 'T': ('1/2', 0), 'd': ('1', 0)}
    >>> {v: (str(e), lg) for v, (e, lg) in sorted(dependence("t_mix^3/epsilon^2").items())}
    {'epsilon': ('-2', 0), 't_mix': ('3', 0)}
    """
    try:
        return _DependenceParser(expr, variables).parse()
    except (_Unparsable, ZeroDivisionError, OverflowError):
        return {}


def format_dependence(variable: str, exponent: Fraction, log_power: int = 0) -> str:
    """A readable growth term: ``√T``, ``d^(3/2)``, ``1/ε^2``, ``log T``.

    >>> format_dependence("T", Fraction(1, 2)), format_dependence("epsilon", Fraction(-2))
    ('√T', '1/ε^2')
    """
    name = {
        "epsilon": "ε",
        "varepsilon": "ε",
        "delta": "δ",
        "gamma": "γ",
        "alpha": "α",
        "beta": "β",
        "eta": "η",
        "lambda": "λ",
        "sigma": "σ",
        "mu": "μ",
    }.get(variable, variable)
    parts: list[str] = []
    e = exponent
    if e != 0:
        mag = abs(e)
        if mag == Fraction(1, 2):
            term = f"√{name}"
        elif mag == 1:
            term = name
        elif mag.denominator == 1:
            term = f"{name}^{mag.numerator}"
        else:
            term = f"{name}^({mag.numerator}/{mag.denominator})"
        parts.append(f"1/{term}" if e < 0 else term)
    if log_power:
        parts.append(f"log{'^' + str(log_power) if log_power > 1 else ''} {name}")
    return "·".join(parts) if parts else "constant"


@dataclass(frozen=True, slots=True)
class BoundShape:
    """What a bound says, reduced to what two papers can share.

    Attributes:
        quantity: the bounded quantity's name ("regret"), or "" when unknown.
        sides: "upper" and/or "lower" (tight and order-of bounds are both).
        dependence: variable → (exponent, log power).
        latex: the bound as written, for the explanation.
        attribution: "this" (the paper's own claim) or "prior".
    """

    quantity: str
    sides: tuple[str, ...]
    dependence: tuple[tuple[str, Fraction, int], ...]
    latex: str
    attribution: str

    def features(self) -> list[str]:
        """The shape features of this bound (see the module docstring)."""
        out = []
        for side in self.sides:
            out.append(f"{self.quantity}|{side}")
            out.extend(f"{self.quantity}|{side}|{v}|{e}|{lg}" for v, e, lg in self.dependence)
        return out

    def phrase(self, side: str) -> str:
        noun = self.quantity or "a quantity"
        return f"{noun} {side} bounds"


def bound_shape(
    kind: str,
    expr: str,
    quantity: str | None,
    latex: str = "",
    attribution: str = "this",
    variables: Iterable[str] = (),
) -> BoundShape:
    """The :class:`BoundShape` of a bound's fields (graph node attributes or a :class:`Bound`)."""
    sides = {"upper": ("upper",), "lower": ("lower",)}.get(kind, ("upper", "lower"))
    dep = dependence(expr or "", [v for v in variables if v not in _FUNCTIONS])
    return BoundShape(
        # "expected regret" and "Nash regret" bounds share the shape of a regret bound
        quantity=named_quantity(quantity or ""),
        sides=sides,
        dependence=tuple(sorted((v, e, lg) for v, (e, lg) in dep.items())),
        latex=latex,
        attribution=attribution or "this",
    )


def compare_shapes(a: BoundShape, b: BoundShape) -> list[tuple[int, str]]:
    """Why two bounds are alike: (strength, phrase) pairs, strongest first.

    ``a`` is the query's bound, ``b`` the candidate's. "both claim regret upper bounds in √T"
    (the same exponent in a shared variable, strength 3) beats "both claim regret upper bounds"
    (strength 1); when both are upper bounds on the same quantity and one has the better
    exponent in shared variables, a phrase says which (strength 2): "improves the query's
    regret upper bound in d (d vs d^(3/2))".
    """
    if a.quantity != b.quantity:
        return []
    out: list[tuple[int, str]] = []
    da = {v: (e, lg) for v, e, lg in a.dependence}
    db = {v: (e, lg) for v, e, lg in b.dependence}
    for side in sorted(set(a.sides) & set(b.sides), key=lambda s: s != "upper"):
        same = sorted(v for v in set(da) & set(db) if da[v] == db[v])
        if same:
            terms = ", ".join(format_dependence(v, *da[v]) for v in same)
            out.append((3, f"both claim {a.phrase(side)} in {terms}"))
        else:
            out.append((1, f"both claim {a.phrase(side)}"))
        if side != "upper":
            continue
        noun = f"{a.quantity} upper bound" if a.quantity else "upper bound"
        theirs: list[str] = []
        ours: list[str] = []
        for v in sorted(set(da) & set(db)):
            if da[v] == db[v]:
                continue
            q, c = format_dependence(v, *da[v]), format_dependence(v, *db[v])
            if _better(v, da[v], db[v]):
                ours.append(f"{v} ({q} vs {c})")
            else:
                theirs.append(f"{v} ({c} vs {q})")
        if theirs:
            out.append((2, f"improves the query's {noun} in {', '.join(theirs)}"))
        if ours:
            out.append((2, f"the query's {noun} is better in {', '.join(ours)}"))
    out.sort(key=lambda x: -x[0])
    return out


def _is_small(variable: str) -> bool:
    return variable.split("_")[0].lower() in _SMALL_VARIABLES


def _better(variable: str, a: tuple[Fraction, int], b: tuple[Fraction, int]) -> bool:
    """True when ``a`` is the better upper-bound dependence on ``variable`` than ``b``."""
    if _is_small(variable):
        return a > b  # 1/ε is better than 1/ε^2
    return a < b


# ---------------------------------------------------------------------------- entity words

_WORD = re.compile(r"[a-z][a-z0-9]*")
# Placeholder and LaTeX words that name no idea ("$O(\\sqrt{T})$ regret" → "regret").
_NOT_WORDS = frozenset(
    {
        "math",
        "mathcal",
        "mathbb",
        "mathbf",
        "mathrm",
        "tilde",
        "widetilde",
        "sqrt",
        "log",
        "frac",
        "left",
        "right",
        "lvert",
        "rvert",
        "lbrace",
        "rbrace",
        "textit",
        "textbf",
        "emph",
        "cdot",
        "le",
        "leq",
        "ge",
        "geq",
        "mid",
        "big",
        "bigr",
        "bigl",
        "operatorname",
        "varepsilon",
        "epsilon",
        "delta",
        "top",
    }
)


# Scholarly boilerplate that heads many entity names ("… framework", "… model", "… algorithm")
# without saying what a paper is about. In a large graph IDF discounts them; in a small one
# (50 seeds) it cannot, and they would make every paper look related to every other.
_GENERIC = frozenset(
    {
        "algorithm",
        "analysis",
        "approach",
        "architecture",
        "based",
        "baseline",
        "data",
        "design",
        "effective",
        "efficient",
        "existing",
        "framework",
        "function",
        "general",
        "high",
        "large",
        "learning",
        "level",
        "low",
        "mechanism",
        "method",
        "model",
        "modeling",
        "new",
        "novel",
        "performance",
        "problem",
        "procedure",
        "process",
        "result",
        "scheme",
        "setting",
        "simple",
        "strategy",
        "structure",
        "study",
        "system",
        "task",
        "technique",
        "theory",
        "time",
        "tool",
        "work",
    }
)


# A shared abstract word worth naming: letters only ("t_" and "2d" come from math markup).
_EXPLAINING_WORD = re.compile(r"[a-z]{3,}")


def _singular(word: str) -> str:
    # "bandits" → "bandit", "squares" → "square"; keep "loss", "lasso", "analysis", "gaussian"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def entity_terms(names: Iterable[str]) -> tuple[str, ...]:
    """The words and adjacent word pairs of an entity's names: what ``W`` matches on.

    Names holding LaTeX (``$…$`` or a backslash) are skipped; stop words and LaTeX words are
    dropped, plurals folded; generic words ("model", "framework") count only inside a pair
    ("language model").

    >>> entity_terms(["stochastic linear bandits", "SLB"])
    ('bandit', 'linear', 'linear bandit', 'slb', 'stochastic', 'stochastic linear')
    """
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    out: dict[str, None] = {}
    for name in names:
        if "$" in name or "\\" in name:
            continue
        words = [
            _singular(w)
            for w in _WORD.findall(name.lower())
            if w not in ENGLISH_STOP_WORDS and w not in _NOT_WORDS and len(w) > 1
        ]
        for w in words:
            if w not in _GENERIC:
                out.setdefault(w, None)
        for a, b in zip(words, words[1:], strict=False):
            if a not in _GENERIC or b not in _GENERIC:
                out.setdefault(f"{a} {b}", None)
    return tuple(sorted(out))


# --------------------------------------------------------------------------------- lexical


def tfidf_vectorizer() -> Any:
    """The TF-IDF configuration of ``kg eval related``'s baseline (not kg's lexical signal)."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    # English stop words and sublinear tf: the textbook setup of a TF-IDF cosine baseline.
    return TfidfVectorizer(stop_words="english", sublinear_tf=True, dtype=np.float64)


def tfidf_matrix(abstracts: Sequence[str]) -> tuple[Any, sp.csr_matrix]:
    """Fit :func:`tfidf_vectorizer` on ``abstracts``; return it and the L2-normalized rows."""
    return _fit(tfidf_vectorizer(), abstracts)


def _fit(vectorizer: Any, texts: Sequence[str]) -> tuple[Any, sp.csr_matrix]:
    if not texts or not any(t.strip() for t in texts):
        return vectorizer, sp.csr_matrix((len(texts), 0))
    try:
        matrix = vectorizer.fit_transform(texts)
    except ValueError:  # only stop words, or no term in two texts
        return vectorizer, sp.csr_matrix((len(texts), 0))
    return vectorizer, sp.csr_matrix(matrix)


_LEXICAL_TOKEN = re.compile(r"(?u)\b\w\w+\b")
# Markup that abstracts carry as words: LaTeX commands and the "(cid:173)" debris of PDF
# extraction. Two theory abstracts share "mathbf" and "varepsilon" whatever they are about.
_MARKUP = _NOT_WORDS | {"cid", "emph", "textit", "mathit", "boldsymbol", "hat", "bar", "cal", "bm"}


def lexical_tokens(text: str) -> list[str]:
    """The words kg's lexical signal counts: letters only, no stop word, no markup.

    >>> lexical_tokens("We bound the regret by $O(\\\\sqrt{T})$ with (cid:173) 2-layer nets")
    ['bound', 'regret', 'layer', 'nets']
    """
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return [
        t
        for t in _LEXICAL_TOKEN.findall(text.lower())
        if t.isalpha() and t not in _MARKUP and t not in ENGLISH_STOP_WORDS
    ]


def lexical_vectorizer() -> Any:
    """The TF-IDF configuration of kg's lexical signal ``L`` (see the module docstring)."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    return TfidfVectorizer(
        tokenizer=lexical_tokens,
        token_pattern=None,
        lowercase=False,
        ngram_range=(1, 2),
        min_df=2,
        sublinear_tf=True,
        dtype=np.float64,
    )


def encoder_vectors(
    texts: Sequence[str],
    saved: Mapping[str, np.ndarray] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> np.ndarray:
    """The sentence encoder's unit vectors of ``texts`` (:mod:`kg.encoder`), as float64."""
    return np.asarray(load_encoder().vectors(texts, saved, progress), dtype=np.float64)


def paper_text(title: str, abstract: str, title_derived: bool = False) -> str:
    """What ``L`` reads of a paper: its title (when it has a real one) and its abstract."""
    return f"{title}. {abstract}" if title and not title_derived else abstract


def lexical_matrix(texts: Sequence[str]) -> tuple[Any, sp.csr_matrix]:
    """Fit :func:`lexical_vectorizer` on ``texts``; return it and the L2-normalized rows."""
    return _fit(lexical_vectorizer(), texts)


# ------------------------------------------------------------------------------------ results


@dataclass(frozen=True, slots=True)
class SharedEntity:
    """An entity both papers hold, and what each does with it."""

    type: str
    canonical: str
    label: str
    roles: tuple[str, str]  # (query's role, candidate's role): "proposed" | "used"
    contribution: float

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "canonical": self.canonical,
            "label": self.label,
            "roles": list(self.roles),
            "contribution": round(self.contribution, 6),
        }

    def phrase(self) -> str:
        q, c = self.roles
        if q == PROPOSED and c == PROPOSED:
            return f"{self.label} (both propose)"
        if q == PROPOSED:
            return f"{self.label} (uses the query's)"
        if c == PROPOSED:
            return f"{self.label} (proposed here)"
        return self.label


@dataclass(frozen=True, slots=True)
class SimilarEntity:
    """A candidate's entity sharing a word with a different entity of the query."""

    type: str
    canonical: str
    query: str  # the query's entity
    term: str  # the shared word or word pair

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "canonical": self.canonical, "query": self.query, "term": self.term}

    def phrase(self) -> str:
        return f"{self.canonical} ≈ {self.query}"


@dataclass(frozen=True, slots=True)
class Related:
    """One related paper: its score, the score's parts, and the evidence for it."""

    id: str
    title: str
    score: float
    signals: dict[str, float]
    shared: tuple[SharedEntity, ...] = ()
    similar: tuple[SimilarEntity, ...] = ()
    bounds: tuple[str, ...] = ()
    topic: int | None = None
    terms: tuple[str, ...] = ()
    close: tuple[str, ...] = ()  # the candidate's words nearest the query's subject (``S``)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "score": round(self.score, 6),
            "signals": {k: round(v, 6) for k, v in self.signals.items()},
            "shared": [s.to_json() for s in self.shared],
            "similar": [s.to_json() for s in self.similar],
            "bounds": list(self.bounds),
            "topic": self.topic,
            "terms": list(self.terms),
            "close": list(self.close),
        }

    @property
    def explained(self) -> bool:
        """Whether the result carries any explanation at all."""
        return bool(
            self.shared or self.similar or self.bounds or self.topic is not None or self.terms or self.close
        )

    def explanation(self) -> str:
        """The evidence as one readable phrase: entities by type (Method first), bounds, topic,
        terms, words close in meaning."""
        parts: list[str] = []
        by_type: dict[str, list[SharedEntity]] = defaultdict(list)
        for s in self.shared:
            by_type[s.type].append(s)
        for etype in TYPE_ORDER:
            if by_type.get(etype):
                noun = {
                    "Method": "methods",
                    "Task": "tasks",
                    "Dataset": "datasets",
                    "Metric": "metrics",
                    "Concept": "concepts",
                }[etype]
                parts.append(f"{noun}: " + ", ".join(s.phrase() for s in by_type[etype]))
        if self.similar:
            parts.append("similar: " + ", ".join(s.phrase() for s in self.similar))
        parts.extend(self.bounds)
        if self.topic is not None:
            parts.append(f"same topic {self.topic}")
        if self.terms:
            parts.append("terms: " + ", ".join(self.terms))
        if self.close:
            parts.append("close in meaning: " + ", ".join(self.close))
        return "; ".join(parts)


@dataclass(frozen=True, slots=True)
class MethodPapers:
    """The papers that propose or use one Method entity."""

    node: str
    canonical: str
    label: str
    proposed: tuple[tuple[str, str], ...]  # (paper id, title)
    used: tuple[tuple[str, str], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.node,
            "canonical": self.canonical,
            "label": self.label,
            "proposed": [{"id": i, "title": t} for i, t in self.proposed],
            "used": [{"id": i, "title": t} for i, t in self.used],
        }


@dataclass(frozen=True, slots=True)
class BridgePaper:
    """A paper linking two sides (topics or entities), with its best link to each side."""

    id: str
    title: str
    score: float
    links: tuple[tuple[str, str, tuple[str, ...]], tuple[str, str, tuple[str, ...]]]
    # per side: (side name, linked paper id or "member", shared canonical names)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "score": round(self.score, 6),
            "links": [{"side": s, "via": via, "shared": list(shared)} for s, via, shared in self.links],
        }

    def explanation(self) -> str:
        parts = []
        for side, via, shared in self.links:
            if via == "member":
                parts.append(f"in {side}")
            else:
                parts.append(f"to {side} via {via}" + (f" ({', '.join(shared)})" if shared else ""))
        return "; ".join(parts)


# -------------------------------------------------------------------------------------- index


@dataclass(slots=True)
class _Query:
    """A query paper as vectors: a row of the index, or an abstract extracted on the fly."""

    row: int  # -1 for a paper not in the graph
    used: sp.csr_matrix
    proposed: sp.csr_matrix
    words: sp.csr_matrix
    bounds: sp.csr_matrix
    lexical: sp.csr_matrix
    semantic: np.ndarray  # (k,) unit vector, or zeros
    encoder: np.ndarray  # (384,) unit vector, or zeros
    topic: int
    shapes: tuple[BoundShape, ...]
    # (type, canonical, words) of an abstract's own entities, graph entities or not
    names: tuple[tuple[str, str, tuple[str, ...]], ...] = ()


class RelatedIndex:
    """Everything a related-work query needs, precomputed once from the graph.

    Build it with :func:`build_index`; then :meth:`related`, :meth:`related_text`,
    :meth:`related_all`, :meth:`by_method` and :meth:`bridge` answer queries.
    """

    def __init__(
        self,
        nx_graph: nx.MultiDiGraph,
        weights: RelatedWeights | None = None,
        *,
        titles: bool = True,
        saved_vectors: Mapping[str, np.ndarray] | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        self.weights = weights or RelatedWeights()
        # False: L reads the abstracts only, as for untitled input (``kg eval related --no-titles``)
        self.lexical_titles = titles
        w = self.weights
        papers = sorted(n for n, d in nx_graph.nodes(data=True) if d.get("kind") == "Paper")
        self.ids: list[str] = [str(nx_graph.nodes[n].get("id") or n.partition(":")[2]) for n in papers]
        self.titles: list[str] = [
            str(nx_graph.nodes[n].get("title") or nx_graph.nodes[n].get("label") or "") for n in papers
        ]
        self.row_of: dict[str, int] = {pid: i for i, pid in enumerate(self.ids)}
        self.topics = np.array([_topic(nx_graph.nodes[n].get("topic")) for n in papers], dtype=np.int64)
        n_papers = len(papers)
        row_of_node = {n: i for i, n in enumerate(papers)}

        # --- entities: paper → entity edges, one role per (paper, entity)
        holdings: dict[str, dict[int, str]] = defaultdict(dict)
        for u, v, key in nx_graph.edges(keys=True):
            if u in row_of_node and nx_graph.nodes[v].get("kind") in ENTITY_CLASSES:
                role = PROPOSED if key == "proposes" else USED
                if holdings[v].get(row_of_node[u]) != PROPOSED:
                    holdings[v][row_of_node[u]] = role
        self.entities: list[str] = sorted(holdings)
        self.entity_col: dict[str, int] = {e: j for j, e in enumerate(self.entities)}
        self.entity_type: list[str] = [nx_graph.nodes[e]["kind"] for e in self.entities]
        self.entity_canonical: list[str] = [
            str(nx_graph.nodes[e].get("canonical") or nx_graph.nodes[e].get("label") or e)
            for e in self.entities
        ]
        self.entity_label: list[str] = [
            str(nx_graph.nodes[e].get("label") or c)
            for e, c in zip(self.entities, self.entity_canonical, strict=True)
        ]
        self.entity_idf = np.array(
            [math.log((n_papers + 1) / (len(holdings[e]) + 1)) for e in self.entities], dtype=np.float64
        )
        self.entity_weight = self.entity_idf * np.array(
            [w.types.get(t, 0.0) for t in self.entity_type], dtype=np.float64
        )
        self._lazy: dict[str, Any] = {}
        name_map: dict[tuple[str, str], int] = {}
        for j, e in enumerate(self.entities):
            names = [
                self.entity_canonical[j],
                self.entity_label[j],
                *(nx_graph.nodes[e].get("aliases") or []),
            ]
            for name in names:
                name_map.setdefault((self.entity_type[j], slug(str(name))), j)
            name_map.setdefault((self.entity_type[j], e.partition(":")[2]), j)
        self._names_map: dict[tuple[str, str], int] | None = name_map
        self._holders: list[dict[int, str]] | None = [holdings[e] for e in self.entities]
        u_rows: list[int] = []
        u_cols: list[int] = []
        p_rows: list[int] = []
        p_cols: list[int] = []
        for j, e in enumerate(self.entities):
            for i, role in holdings[e].items():
                (p_rows if role == PROPOSED else u_rows).append(i)
                (p_cols if role == PROPOSED else u_cols).append(j)
        m = len(self.entities)
        used = _weighted(u_rows, u_cols, self.entity_weight, (n_papers, m))
        proposed = _weighted(p_rows, p_cols, self.entity_weight, (n_papers, m))
        self.used, self.proposed = _normalize_pair(used, proposed)

        # --- entity words
        self.entity_terms: list[tuple[str, ...]] = []
        for j, e in enumerate(self.entities):
            names = [
                self.entity_canonical[j],
                self.entity_label[j],
                *(str(a) for a in nx_graph.nodes[e].get("aliases") or []),
            ]
            self.entity_terms.append(entity_terms(names))
        term_weight: list[dict[str, float]] = [{} for _ in papers]
        for j, terms in enumerate(self.entity_terms):
            tw = w.types.get(self.entity_type[j], 0.0)
            for i in self.holders[j]:
                row = term_weight[i]
                for t in terms:
                    if row.get(t, -1.0) < tw:
                        row[t] = tw
        term_df: dict[str, int] = defaultdict(int)
        for row in term_weight:
            for t in row:
                term_df[t] += 1
        self.term_names: list[str] = sorted(term_df)
        self.term_col: dict[str, int] = {t: k for k, t in enumerate(self.term_names)}
        self.term_idf = np.array(
            [math.log((n_papers + 1) / (term_df[t] + 1)) for t in self.term_names], dtype=np.float64
        )
        self.words = _l2(self._term_rows(term_weight))

        # --- bounds
        shapes: list[list[BoundShape]] = [[] for _ in papers]
        for u, v, key in nx_graph.edges(keys=True):
            if key == "claimsBound" and u in row_of_node:
                d = nx_graph.nodes[v]
                quantity = d.get("quantity")
                for _b, q, qkey in nx_graph.out_edges(v, keys=True):
                    if qkey == "boundsQuantity":
                        quantity = nx_graph.nodes[q].get("canonical") or quantity
                shapes[row_of_node[u]].append(
                    bound_shape(
                        str(d.get("bound_kind") or "upper"),
                        str(d.get("expr") or ""),
                        quantity,
                        str(d.get("latex") or d.get("label") or ""),
                        str(d.get("attribution") or "this"),
                        [str(x) for x in d.get("variables") or ()],
                    )
                )
        self._shapes: list[tuple[BoundShape, ...]] | None = [
            tuple(sorted(s, key=lambda b: (b.quantity, b.latex))) for s in shapes
        ]
        feature_papers: dict[str, set[int]] = defaultdict(set)
        for i, paper_shapes in enumerate(self.shapes):
            for shape in paper_shapes:
                for f in shape.features():
                    feature_papers[f].add(i)
        self.bound_features: list[str] = sorted(feature_papers)
        self.bound_col: dict[str, int] = {f: j for j, f in enumerate(self.bound_features)}
        self.bound_idf = np.array(
            [math.log((n_papers + 1) / (len(feature_papers[f]) + 1)) for f in self.bound_features],
            dtype=np.float64,
        )
        b_rows, b_cols = [], []
        for f, rows in feature_papers.items():
            for i in rows:
                b_rows.append(i)
                b_cols.append(self.bound_col[f])
        self.bounds = _l2(_weighted(b_rows, b_cols, self.bound_idf, (n_papers, len(self.bound_features))))

        # --- lexical: the title (a real one, not derived from the abstract) and the abstract
        texts = [
            paper_text(
                str(nx_graph.nodes[n].get("title") or "") if titles else "",
                str(nx_graph.nodes[n].get("abstract") or ""),
                bool(nx_graph.nodes[n].get("title_derived")),
            )
            for n in papers
        ]
        self.vectorizer, self.lexical = lexical_matrix(texts)
        self.terms = (
            np.array(self.vectorizer.get_feature_names_out(), dtype=object)
            if self.lexical.shape[1]
            else np.array([], dtype=object)
        )
        self.lexical_idf = (
            np.asarray(self.vectorizer.idf_, dtype=np.float64) if self.lexical.shape[1] else np.zeros(0)
        )

        # --- semantic: the same texts under the shipped latent semantic model
        model = load_semantic_model()
        self.semantic_model = model.name
        self.semantic = model.vectors(texts)

        # --- encoder: the same texts under the sentence encoder (none when its weight is 0)
        self.text_keys = [text_key(t) for t in texts]
        self.encoder = (
            encoder_vectors(texts, saved_vectors, progress)
            if w.encoder > 0
            else np.zeros((len(texts), ENCODER_DIMENSIONS))
        )
        self._finish()
        self.scales = self._signal_scales()

    def _finish(self) -> None:
        """The derived matrices queries multiply against (rebuilt after loading a saved index)."""
        w = self.weights
        self.row_of = {pid: i for i, pid in enumerate(self.ids)}
        self.entity_col = {e: j for j, e in enumerate(self.entities)}
        self.term_col = {t: k for k, t in enumerate(self.term_names)}
        self.bound_col = {f: j for j, f in enumerate(self.bound_features)}
        # score = U_q·(U_c + r_pu P_c) + P_q·(r_pu U_c + r_pp P_c)   (see the module docstring)
        self._against_used = sp.csr_matrix((self.used + w.proposed_used * self.proposed).T)
        self._against_proposed = sp.csr_matrix(
            (w.proposed_used * self.used + w.both_proposed * self.proposed).T
        )
        self._words_t = sp.csr_matrix(self.words.T)
        self._bounds_t = sp.csr_matrix(self.bounds.T)
        self._lexical_t = sp.csr_matrix(self.lexical.T)
        # each lexical term's column in the semantic model (-1: a word pair or an unknown word)
        model = load_semantic_model()
        model_col = {t: k for k, t in enumerate(model.terms)}
        self._semantic_col = np.array([model_col.get(str(t), -1) for t in self.terms], dtype=np.int64)
        self._loadings = model.loadings()
        self._semantic_idf = model.idf

    def _signal_scales(self, sample: int = 1000, chunk: int = 100) -> np.ndarray:
        """Each signal's scale: its value for a typical paper's best match (see the module doc).

        The median, over the papers having the signal at all, of their highest value with any
        other paper; on an evenly spaced sample of ``sample`` papers, so that a 22k-paper graph
        costs a second. 1 when no paper has the signal.
        """
        n = len(self.ids)
        rows = np.unique(np.linspace(0, max(n - 1, 0), min(n, sample)).astype(np.int64))
        products = {
            "lexical": lambda r: self.lexical[r] @ self._lexical_t,
            "terms": lambda r: self.words[r] @ self._words_t,
            "entity": lambda r: self.used[r] @ self._against_used + self.proposed[r] @ self._against_proposed,
            "bound": lambda r: self.bounds[r] @ self._bounds_t,
            "semantic": lambda r: sp.csr_matrix(np.maximum(self.semantic[r] @ self.semantic.T, 0.0)),
            "encoder": lambda r: sp.csr_matrix(np.maximum(self.encoder[r] @ self.encoder.T, 0.0)),
        }
        scales = np.ones(len(SIGNALS), dtype=np.float64)
        for k, name in enumerate(SIGNALS):
            if name not in products:
                continue  # the topic is 0 or 1 already
            best: list[float] = []
            for start in range(0, len(rows), chunk):
                r = rows[start : start + chunk]
                m = sp.coo_matrix(products[name](r))
                keep = (r[m.row] != m.col) & (m.data > 0)  # a paper is not its own match
                top = np.zeros(len(r))
                np.maximum.at(top, m.row[keep], m.data[keep])
                best.extend(top[top > 0].tolist())
            if best:
                scales[k] = float(np.median(best))
        return scales

    @property
    def _names(self) -> dict[tuple[str, str], int]:
        """(entity type, slug of a name or alias) → entity column."""
        if self._names_map is None:
            self._names_map = {(t, n): int(j) for t, n, j in self._lazy["names"]}
        return self._names_map

    @property
    def holders(self) -> list[dict[int, str]]:
        """Per entity column: paper row → role ("proposed" or "used")."""
        if self._holders is None:
            self._holders = [{int(i): str(r) for i, r in h} for h in self._lazy["holders"]]
        return self._holders

    @property
    def shapes(self) -> list[tuple[BoundShape, ...]]:
        """Per paper row: the shapes of its bounds."""
        if self._shapes is None:
            self._shapes = [tuple(_shape_from_json(b) for b in shapes) for shapes in self._lazy["shapes"]]
        return self._shapes

    def _vectorizer(self) -> Any:
        """The fitted TF-IDF vectorizer (rebuilt from the saved vocabulary and IDF after a load)."""
        if self.vectorizer is None:
            vectorizer = lexical_vectorizer()
            vectorizer.set_params(vocabulary={str(t): k for k, t in enumerate(self.terms)})
            vectorizer.fit(["x"])  # fixes the vocabulary; the IDF is then replaced by the saved one
            vectorizer.idf_ = self.lexical_idf
            self.vectorizer = vectorizer
        return self.vectorizer

    # --------------------------------------------------------------------------- saving

    _MATRICES = ("used", "proposed", "words", "bounds", "lexical")
    _ARRAYS = (
        "topics", "entity_idf", "entity_weight", "term_idf", "bound_idf", "lexical_idf", "scales", "semantic",
        "encoder",
    )

    def save(self, path: str | Path, graph_key: Mapping[str, Any]) -> None:
        """Write the index to ``path`` (one ``.npz``, no pickles), atomically.

        Args:
            path: the file to write.
            graph_key: what identifies the graph it was built from; :func:`load_index` uses the
                file only when the graph still has this key.
        """
        from kg.fileio import atomic_write

        arrays: dict[str, np.ndarray] = {name: getattr(self, name) for name in self._ARRAYS}
        arrays["encoder"] = self.encoder.astype(np.float32)  # the encoder's own precision: lossless
        for name in self._MATRICES:
            matrix = sp.csr_matrix(getattr(self, name))
            arrays[f"{name}.data"] = matrix.data
            arrays[f"{name}.indices"] = matrix.indices
            arrays[f"{name}.indptr"] = matrix.indptr
            arrays[f"{name}.shape"] = np.array(matrix.shape, dtype=np.int64)
        meta = {
            "format": INDEX_FORMAT,
            "graph": dict(graph_key),
            "weights": self.weights.to_json(),
            "lexical_titles": self.lexical_titles,
            "semantic_model": self.semantic_model,
            "encoder_model": ENCODER_NAME,
            "text_keys": self.text_keys,
            "ids": self.ids,
            "titles": self.titles,
            "entities": self.entities,
            "entity_type": self.entity_type,
            "entity_canonical": self.entity_canonical,
            "entity_label": self.entity_label,
            "entity_terms": [list(t) for t in self.entity_terms],
            "names": [[t, n, j] for (t, n), j in sorted(self._names.items())],
            "holders": [sorted(h.items()) for h in self.holders],
            "term_names": self.term_names,
            "bound_features": self.bound_features,
            "shapes": [[_shape_json(b) for b in shapes] for shapes in self.shapes],
            "terms": [str(t) for t in self.terms],
        }
        arrays["meta"] = np.frombuffer(orjson.dumps(meta), dtype=np.uint8)
        with atomic_write(path, "wb") as out:
            np.savez(out, **arrays)  # type: ignore[arg-type]  # numpy stubs type **kwds as its options

    @classmethod
    def load(
        cls, path: str | Path, graph_key: Mapping[str, Any], weights: RelatedWeights
    ) -> RelatedIndex | None:
        """The index saved at ``path`` if it was built from this graph with these weights, else None."""
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = orjson.loads(bytes(data["meta"]))
                if (
                    meta.get("format") != INDEX_FORMAT
                    or meta.get("graph") != dict(graph_key)
                    or meta.get("weights") != weights.to_json()
                    or meta.get("lexical_titles", True) is not True
                    or meta.get("semantic_model") != load_semantic_model().name
                    or meta.get("encoder_model") != ENCODER_NAME
                ):
                    return None
                index = cls.__new__(cls)
                index.weights = weights
                index.lexical_titles = True
                index.semantic_model = meta["semantic_model"]
                for name in cls._ARRAYS:
                    setattr(index, name, np.array(data[name]))
                index.encoder = index.encoder.astype(np.float64)
                for name in cls._MATRICES:
                    shape = tuple(int(x) for x in data[f"{name}.shape"])
                    matrix = sp.csr_matrix(
                        (data[f"{name}.data"], data[f"{name}.indices"], data[f"{name}.indptr"]), shape=shape
                    )
                    setattr(index, name, matrix)
        except (OSError, KeyError, ValueError, UnicodeDecodeError, orjson.JSONDecodeError):
            return None  # unreadable or from another version: rebuild from the graph
        index.ids = meta["ids"]
        index.text_keys = meta["text_keys"]
        index.titles = meta["titles"]
        index.entities = meta["entities"]
        index.entity_type = meta["entity_type"]
        index.entity_canonical = meta["entity_canonical"]
        index.entity_label = meta["entity_label"]
        index.entity_terms = [tuple(t) for t in meta["entity_terms"]]
        # Built on first use: a paper query needs none of them but its results' bound shapes.
        index._lazy = {"names": meta["names"], "holders": meta["holders"], "shapes": meta["shapes"]}
        index._names_map = index._holders = index._shapes = None
        index.term_names = meta["term_names"]
        index.bound_features = meta["bound_features"]
        index.terms = np.array(meta["terms"], dtype=object)
        index.vectorizer = None
        index._finish()
        return index

    def _term_rows(self, term_weight: Sequence[Mapping[str, float]]) -> sp.csr_matrix:
        rows, cols, data = [], [], []
        for i, row in enumerate(term_weight):
            for t, tw in row.items():
                k = self.term_col.get(t)
                if k is not None:
                    rows.append(i)
                    cols.append(k)
                    data.append(tw * self.term_idf[k])
        matrix = sp.csr_matrix(
            (data, (rows, cols)), shape=(len(term_weight), len(self.term_names)), dtype=np.float64
        )
        matrix.eliminate_zeros()
        return matrix

    # ------------------------------------------------------------------------------- lookup

    def __len__(self) -> int:
        return len(self.ids)

    def find_paper(self, query: str) -> str:
        """The paper id a query names: an id, a ``paper:`` node id, or a title substring.

        Raises:
            QueryError: no paper matches, or a title substring matches several (they are listed).
        """
        q = query.strip()
        pid = q.partition(":")[2] if q.startswith("paper:") else q
        if pid in self.row_of:
            return pid
        needle = q.casefold()
        if not needle:
            raise QueryError("empty paper query: give a paper id or a title substring")
        exact = [i for i, t in enumerate(self.titles) if t.casefold() == needle]
        hits = exact or [i for i, t in enumerate(self.titles) if needle in t.casefold()]
        if len(hits) == 1:
            return self.ids[hits[0]]
        if not hits:
            raise QueryError(
                f"no paper with id or title matching {query!r} in the graph ({len(self.ids)} papers)"
            )
        listed = "; ".join(f"{self.ids[i]} {self.titles[i]!r}" for i in hits[:5])
        more = f" and {len(hits) - 5} more" if len(hits) > 5 else ""
        raise QueryError(
            f"{query!r} matches {len(hits)} paper titles: {listed}{more}; "
            f"give a paper id or a longer title substring"
        )

    def find_entity(self, name: str, types: Iterable[str] = ENTITY_CLASSES) -> int:
        """The entity column a name denotes (canonical name, label, alias or node id).

        Raises:
            QueryError: no entity of ``types`` has that name, or several do.
        """
        types = tuple(types)
        key = slug(name.partition(":")[2] if name.partition(":")[0] in ENTITY_CLASSES else name)
        hits = sorted({self._names[(t, key)] for t in types if (t, key) in self._names})
        if not hits:
            hits = sorted(
                j
                for j, (t, c) in enumerate(zip(self.entity_type, self.entity_canonical, strict=True))
                if t in types and key and key in slug(c)
            )
        if len(hits) == 1:
            return hits[0]
        what = "/".join(types) if len(types) < len(ENTITY_CLASSES) else "entity"
        if not hits:
            raise QueryError(f"no {what} named {name!r} in the graph")
        listed = ", ".join(self.entities[j] for j in hits[:8])
        raise QueryError(f"{name!r} names {len(hits)} {what} entities: {listed}; be more specific")

    # ------------------------------------------------------------------------------ queries

    def _query_row(self, row: int) -> _Query:
        return _Query(
            row,
            self.used[row],
            self.proposed[row],
            self.words[row],
            self.bounds[row],
            self.lexical[row],
            self.semantic[row],
            self.encoder[row],
            int(self.topics[row]),
            self.shapes[row],
        )

    def _scores(self, q: _Query) -> dict[str, np.ndarray]:
        entity = q.used @ self._against_used + q.proposed @ self._against_proposed
        bound = q.bounds @ self._bounds_t
        lexical = q.lexical @ self._lexical_t if q.lexical.shape[1] else sp.csr_matrix((1, len(self)))
        topic = (self.topics == q.topic).astype(np.float64) if q.topic >= 0 else np.zeros(len(self))
        return {
            "semantic": np.maximum(self.semantic @ q.semantic, 0.0),
            "encoder": np.maximum(self.encoder @ q.encoder, 0.0),
            "entity": _dense(entity),
            "terms": _dense(q.words @ self._words_t),
            "bound": _dense(bound),
            "topic": topic,
            "lexical": _dense(lexical),
        }

    def _rank(self, q: _Query, top: int) -> list[Related]:
        if top <= 0 or not len(self):
            return []
        w = self.weights
        raw = self._scores(q)
        # Each signal in units of its scale (a typical best match), so that the weights say how
        # much each counts, not how large its cosines happen to run in this graph.
        parts = {name: raw[name] / self.scales[k] for k, name in enumerate(SIGNALS)}
        evidence = np.zeros(len(self))
        for name in SIGNALS:
            if name not in _MEANING:
                evidence += getattr(w, name) * parts[name]
        total = evidence + sum(getattr(w, name) * parts[name] for name in sorted(_MEANING))
        if q.row >= 0:
            total[q.row] = 0.0
        # Rounded before ranking so ties (broken by paper id) do not depend on float noise.
        total = np.round(total, 9)
        # S orders the papers that share some evidence; alone it explains nothing, so a paper
        # close in meaning only (no shared entity, word, bound) is not a result.
        candidates = np.flatnonzero((total > 0) & (np.round(evidence, 9) > 0))
        if candidates.size > top:
            cut = np.partition(-total[candidates], top - 1)[top - 1]
            candidates = candidates[-total[candidates] <= cut]
        order = candidates[np.lexsort((candidates, -total[candidates]))][:top]
        return [
            self._explain(q, int(c), float(total[c]), {k: float(v[c]) for k, v in parts.items()})
            for c in order
        ]

    def _explain(self, q: _Query, c: int, score: float, signals: dict[str, float]) -> Related:
        w = self.weights
        shared: list[SharedEntity] = []
        q_roles: dict[int, str] = {}
        for mat, role in ((q.used, USED), (q.proposed, PROPOSED)):
            for j, x in zip(mat.indices, mat.data, strict=True):
                if x > 0:
                    q_roles[int(j)] = role
        # Raw CSR rows: slicing a scipy row costs more than the whole explanation otherwise.
        c_used, c_prop = _row(self.used, c), _row(self.proposed, c)
        c_weight = dict(zip(c_used[0].tolist(), c_used[1].tolist(), strict=True))
        c_roles = {j: USED for j in c_weight}
        for j, x in zip(c_prop[0].tolist(), c_prop[1].tolist(), strict=True):
            c_weight[j] = x
            c_roles[j] = PROPOSED
        q_weight = {
            int(j): float(x)
            for mat in (q.used, q.proposed)
            for j, x in zip(mat.indices, mat.data, strict=True)
        }
        for j in sorted(set(q_roles) & set(c_roles)):
            roles = (q_roles[j], c_roles[j])
            factor = (
                w.both_proposed
                if roles == (PROPOSED, PROPOSED)
                else w.proposed_used
                if PROPOSED in roles
                else 1.0
            )
            contribution = q_weight[j] * c_weight[j] * factor * w.entity / self.scales[0]
            if contribution <= 0:
                continue
            shared.append(
                SharedEntity(
                    self.entity_type[j], self.entity_canonical[j], self.entity_label[j], roles, contribution
                )
            )
        rank = {t: i for i, t in enumerate(TYPE_ORDER)}
        shared.sort(key=lambda s: (rank.get(s.type, 9), -s.contribution, s.canonical))
        similar = self._similar(q, c, {s.canonical for s in shared}) if w.terms > 0 else []
        bounds = _bound_phrases(q.shapes, self.shapes[c]) if w.bound > 0 else []
        topic = int(self.topics[c]) if q.topic >= 0 and self.topics[c] == q.topic else None
        terms: tuple[str, ...] = ()
        if w.lexical > 0 and q.lexical.shape[1]:
            shared_terms = sorted(
                _products((q.lexical.indices, q.lexical.data), _row(self.lexical, c)),
                key=lambda x: (-x[0], self.terms[x[1]]),
            )
            terms = _explaining_terms(str(self.terms[j]) for _x, j in shared_terms)
        close = self._close_words(q, c, terms) if w.semantic > 0 else ()
        return Related(
            self.ids[c],
            self.titles[c],
            score,
            signals,
            tuple(shared),
            tuple(similar),
            tuple(bounds),
            topic,
            terms,
            close,
        )

    def _close_words(self, q: _Query, c: int, named: Sequence[str], limit: int = 3) -> tuple[str, ...]:
        """The candidate's subject words, absent from the query, that add most to ``S``.

        ``S`` is the cosine of the two papers' projections; a candidate word's share is its weight
        in the candidate's text times the projection of that word's direction on the query's
        vector. Named are words the query does not use itself (in any number: shared words are
        ``terms``) and that are rare enough to name a subject: in at most 1 in 20 abstracts of the
        model's corpus ("bandit", "exploration"), not "algorithm" or "bounds".
        """
        if not q.semantic.any() or not self.lexical.shape[1]:
            return ()
        cols, weights = _row(self.lexical, c)
        model_cols = self._semantic_col[cols]
        keep = model_cols >= 0
        keep[keep] = self._semantic_idf[model_cols[keep]] >= _SUBJECT_IDF
        if not keep.any():
            return ()
        shares = weights[keep] * (self._loadings[model_cols[keep]] @ q.semantic)
        skip = {_singular(str(self.terms[j])) for j in q.lexical.indices.tolist()}
        skip |= {_singular(t) for phrase in named for t in phrase.split()}
        ranked = sorted(
            ((float(x), str(self.terms[j])) for x, j in zip(shares, cols[keep], strict=True) if x > 0),
            key=lambda p: (-p[0], p[1]),
        )
        out: list[str] = []
        for _x, word in ranked:
            if _singular(word) not in skip:
                skip.add(_singular(word))
                out.append(word)
        return tuple(out[:limit])

    def _similar(self, q: _Query, c: int, exact: set[str], limit: int = 3) -> list[SimilarEntity]:
        """The entity pairs behind the strongest shared entity words (not identical entities)."""
        products = _products((q.words.indices, q.words.data), _row(self.words, c))
        if not products:
            return []
        ranked = sorted(products, key=lambda x: (-x[0], self.term_names[x[1]]))
        q_cols = sorted(set(q.used.indices.tolist()) | set(q.proposed.indices.tolist()))
        q_names = q.names or tuple(
            (self.entity_type[j], self.entity_canonical[j], self.entity_terms[j]) for j in q_cols
        )
        c_names = [
            (self.entity_type[j], self.entity_canonical[j], self.entity_terms[j])
            for j in self._entity_cols(c)
        ]
        out: list[SimilarEntity] = []
        seen: set[tuple[str, str]] = set()
        rank = {t: i for i, t in enumerate(TYPE_ORDER)}
        for _x, k in ranked:
            term = self.term_names[k]
            pick = [(rank.get(t, 9), len(n), t, n) for t, n, terms in c_names if term in terms]
            mine = [(rank.get(t, 9), len(n), n) for t, n, terms in q_names if term in terms]
            if not pick or not mine:
                continue
            _r, _l, etype, name = min(pick)
            query_name = min(mine)[2]
            if name == query_name or name in exact or (query_name, name) in seen:
                continue
            seen.add((query_name, name))
            out.append(SimilarEntity(etype, name, query_name, term))
            if len(out) >= limit:
                break
        return out

    def related(self, paper: str, top: int = 10) -> list[Related]:
        """The ``top`` papers most related to a paper of the graph, best first, explained.

        Args:
            paper: a paper id, ``paper:`` node id or title substring (:meth:`find_paper`).
            top: how many results.

        Raises:
            QueryError: when ``paper`` names no paper or several.
        """
        return self._rank(self._query_row(self.row_of[self.find_paper(paper)]), top)

    def related_text(self, extraction: Extraction, top: int = 10) -> list[Related]:
        """The ``top`` papers most related to an abstract NOT in the graph (nothing is added).

        The extraction's mentions are matched to the graph's entities by type and canonical
        name (or alias), then by name under another type: one abstract's extraction may call
        "principal component analysis" a Task where the graph has it as a Method, and it is
        still the same thing. Its bounds and abstract give the other signals. It has no topic.
        """
        m = len(self.entities)
        roles: dict[int, str] = {}
        for mention in extraction.mentions:
            keys = [slug(mention.canonical or mention.text), slug(mention.text)]
            types = [mention.type, *(t for t in TYPE_ORDER if t != mention.type)]
            j = next((self._names[(t, k)] for t in types for k in keys if (t, k) in self._names), None)
            if j is None:
                continue
            if mention.role == PROPOSED or roles.get(j) != PROPOSED:
                roles[j] = PROPOSED if mention.role == PROPOSED else roles.get(j, USED)
        u = [j for j, r in sorted(roles.items()) if r == USED]
        p = [j for j, r in sorted(roles.items()) if r == PROPOSED]
        used = _weighted([0] * len(u), u, self.entity_weight, (1, m))
        proposed = _weighted([0] * len(p), p, self.entity_weight, (1, m))
        used, proposed = _normalize_pair(used, proposed)
        # Entity words come from every mention, in the graph or not: a new abstract's
        # "contextual dueling bandit" still meets the graph's bandits on "bandit".
        names: dict[tuple[str, str], tuple[str, ...]] = {}
        term_weight: dict[str, float] = {}
        for mention in extraction.mentions:
            if mention.type not in ENTITY_CLASSES:
                continue
            canonical = mention.canonical or mention.text
            terms = entity_terms([canonical, mention.text])
            names.setdefault((mention.type, canonical), terms)
            tw = self.weights.types.get(mention.type, 0.0)
            for t in terms:
                term_weight[t] = max(term_weight.get(t, 0.0), tw)
        words = _l2(self._term_rows([term_weight]))
        shapes = tuple(sorted((_shape_of(b) for b in extraction.bounds), key=lambda b: (b.quantity, b.latex)))
        cols = sorted({self.bound_col[f] for s in shapes for f in s.features() if f in self.bound_col})
        bounds = _l2(_weighted([0] * len(cols), cols, self.bound_idf, (1, len(self.bound_features))))
        text = paper_text(
            extraction.paper.title if self.lexical_titles else "",
            extraction.paper.abstract,
            extraction.paper.title_derived,
        )
        lexical = (
            sp.csr_matrix(self._vectorizer().transform([text]))
            if self.lexical.shape[1]
            else sp.csr_matrix((1, 0))
        )
        row = self.row_of.get(extraction.paper.id, -1)  # the same abstract: do not return itself
        query = _Query(
            row,
            used,
            proposed,
            words,
            bounds,
            lexical,
            load_semantic_model().vectors([text])[0],
            load_encoder().vectors([text])[0] if self.weights.encoder > 0 else np.zeros(ENCODER_DIMENSIONS),
            -1,
            shapes,
            tuple((t, n, terms) for (t, n), terms in sorted(names.items())),
        )
        return self._rank(query, top)

    def related_all(self, top: int = 10) -> Iterator[tuple[str, list[Related]]]:
        """``(paper id, related)`` for every paper of the graph, in paper id order."""
        for row, pid in enumerate(self.ids):
            yield pid, self._rank(self._query_row(row), top)

    def by_method(self, name: str) -> MethodPapers:
        """The papers that propose, then those that use, the Method ``name`` (by id order).

        Raises:
            QueryError: when no Method (or several) has that name.
        """
        j = self.find_entity(name, ("Method",))
        holders = self.holders[j]
        proposed = tuple((self.ids[i], self.titles[i]) for i in sorted(holders) if holders[i] == PROPOSED)
        used = tuple((self.ids[i], self.titles[i]) for i in sorted(holders) if holders[i] == USED)
        return MethodPapers(self.entities[j], self.entity_canonical[j], self.entity_label[j], proposed, used)

    def side(self, name: str) -> tuple[str, set[int]]:
        """A bridge side: ``topic:N`` (or a bare number) → that topic's papers; else an entity's
        holders.

        Raises:
            QueryError: when the topic is empty or the entity is unknown or ambiguous.
        """
        text = name.strip()
        number = text.partition(":")[2] if text.lower().startswith("topic:") else text
        if number.isdigit():
            rows = {int(i) for i in np.flatnonzero(self.topics == int(number))}
            if not rows:
                raise QueryError(
                    f"topic {number} has no papers (topics run 0–{int(self.topics.max(initial=-1))})"
                )
            return f"topic {number}", rows
        j = self.find_entity(text)
        return self.entities[j], set(self.holders[j])

    def bridge(self, a: str, b: str, top: int = 10) -> list[BridgePaper]:
        """Papers linking two sides (topics or entities), best first.

        A paper's link to a side is 1 when it belongs to it, else its best entity similarity
        ``E`` to a paper of that side; the bridge score is the product of its two links, so a
        paper must reach both sides. Papers inside both sides come first.

        Raises:
            QueryError: when a side is unknown or empty.
        """
        name_a, rows_a = self.side(a)
        name_b, rows_b = self.side(b)
        if not len(self):
            return []
        links: list[tuple[np.ndarray, np.ndarray]] = []
        for rows in (rows_a, rows_b):
            members = np.array(sorted(rows), dtype=np.int64)
            sims = (self.used + self.proposed) @ sp.csr_matrix(
                (self.used[members] + self.proposed[members]).T
            )
            sims = sp.csr_matrix(sims)
            best = np.asarray(sims.max(axis=1).todense()).ravel()
            arg = np.asarray(sims.argmax(axis=1)).ravel()
            best[members] = 1.0
            links.append((best, members[arg]))
        score = np.round(links[0][0] * links[1][0], 9)
        candidates = np.flatnonzero(score > 0)
        order = candidates[np.lexsort((candidates, -score[candidates]))][:top]
        out = []
        for c in order:
            per_side: list[tuple[str, str, tuple[str, ...]]] = []
            for (_best, via), (side_name, rows) in zip(
                links, ((name_a, rows_a), (name_b, rows_b)), strict=True
            ):
                if int(c) in rows:
                    per_side.append((side_name, "member", ()))
                else:
                    other = int(via[c])
                    shared = sorted(set(self._entity_cols(int(c))) & set(self._entity_cols(other)))
                    per_side.append(
                        (side_name, self.ids[other], tuple(self.entity_canonical[j] for j in shared[:5]))
                    )
            out.append(BridgePaper(self.ids[c], self.titles[c], float(score[c]), (per_side[0], per_side[1])))
        return out

    def _entity_cols(self, row: int) -> list[int]:
        return sorted(_row(self.used, row)[0].tolist() + _row(self.proposed, row)[0].tolist())


@gc_paused()  # ~10^6 live objects of the index: see kg.memory (20 -> 17 s on the 22k graph)
def build_index(
    nx_graph: nx.MultiDiGraph,
    weights: RelatedWeights | None = None,
    *,
    titles: bool = True,
    saved_vectors: Mapping[str, np.ndarray] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> RelatedIndex:
    """Precompute the related-work index of a graph (see :class:`RelatedIndex`).

    ``titles=False`` makes the lexical signal ``L`` read the abstracts only, as it does for
    papers without a real title (an ablation: ``kg eval related --no-titles``).
    ``saved_vectors`` (text key → vector, :func:`saved_encoder_vectors`) spares the encoder the
    texts an earlier index of the graph already encoded; ``progress(done, total)`` follows it.

    >>> import networkx as nx
    >>> g = nx.MultiDiGraph()
    >>> for p in ("a", "b"):
    ...     g.add_node(f"paper:{p}", kind="Paper", id=p, title=p.upper(), abstract="bandits", topic=0)
    ...     _ = g.add_edge(f"paper:{p}", "Method:ucb", key="uses", predicate="uses")
    >>> g.add_node("Method:ucb", kind="Method", label="UCB", canonical="ucb")
    >>> g.add_node("paper:c", kind="Paper", id="c", title="C", abstract="graphs", topic=1)
    >>> [r.id for r in build_index(g).related("a")]
    ['b']
    """
    return RelatedIndex(nx_graph, weights, titles=titles, saved_vectors=saved_vectors, progress=progress)


def saved_encoder_vectors(path: str | Path) -> dict[str, np.ndarray]:
    """The encoder vectors a saved index holds, by text key (empty when there are none to reuse).

    An index goes stale when its graph changes (an update, a compaction, a rebuild); most of its
    papers' texts are still there, and encoding is the one costly part of building an index.
    """
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = orjson.loads(bytes(data["meta"]))
            if meta.get("encoder_model") != ENCODER_NAME or not meta.get("weights", {}).get("encoder"):
                return {}
            vectors = np.array(data["encoder"], dtype=np.float32)
            keys = meta["text_keys"]
    except (OSError, KeyError, ValueError, UnicodeDecodeError, orjson.JSONDecodeError):
        return {}
    if vectors.shape != (len(keys), ENCODER_DIMENSIONS):
        return {}
    return dict(zip(keys, vectors, strict=True))


# ------------------------------------------------------------------------------ entry points


INDEX_FILE = RELATED_INDEX  # kept through rewrites of the directory (kg.graphdir.CARRIED)
# Bump when what the saved index holds, or how any part of it is computed, changes: a file of
# another format is ignored and the index rebuilt from the graph.
# 2: L reads titles and word pairs, signals divided by scales; 3: S; 4: named quantities; 5: N
INDEX_FORMAT = 5


def _graph_key(directory: str | Path) -> dict[str, Any]:
    """What identifies a build's graph: the size and modification time of graph.json and of the
    manifest (a rebuild replaces the directory, an update with pending additions the manifest)."""
    from kg.graphdir import GRAPH_JSON, MANIFEST

    try:
        stat = (Path(directory) / GRAPH_JSON).stat()
        manifest = (Path(directory) / MANIFEST).stat()
    except OSError:
        return {}
    return {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns,
            "manifest_size": manifest.st_size, "manifest_mtime_ns": manifest.st_mtime_ns}


def write_index(
    directory: str | Path,
    weights: RelatedWeights | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Path:
    """Precompute the related-work index of a build directory into ``DIR/related-index.npz``.

    ``kg related`` then loads it instead of reading ``graph.json`` and fitting TF-IDF on every
    call (a build may call this before publishing its directory). It holds one set of weights;
    a query with other weights builds its index from the graph instead.

    Raises:
        GraphDirError: the directory is not a complete build.
        OutputError: the file cannot be written.
    """
    from kg.graphdir import load_nx

    path = Path(directory) / INDEX_FILE
    index = build_index(
        load_nx(directory), weights, saved_vectors=saved_encoder_vectors(path), progress=progress
    )
    index.save(path, _graph_key(directory))
    return path


def load_index(
    directory: str | Path,
    weights_file: str | Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> RelatedIndex:
    """The related-work index of a build directory, with weights from ``weights_file`` if given.

    Uses ``DIR/related-index.npz`` (:func:`write_index`) when it was built from this graph with
    these weights, else builds the index from ``graph.json`` and, with the default weights, saves
    it there for the next call (a directory that cannot be written is only slower: nothing is
    saved and nothing fails).

    Raises:
        GraphDirError: the directory is not a complete build.
        ConfigError: the weights file is bad.
    """
    from kg.errors import OutputError
    from kg.graphdir import load_nx

    weights = RelatedWeights.from_file(weights_file) if weights_file else RelatedWeights()
    saved = Path(directory) / INDEX_FILE
    key = _graph_key(directory)
    if saved.is_file() and key:
        index = RelatedIndex.load(saved, key, weights)
        if index is not None:
            return index
    index = build_index(
        load_nx(directory), weights, saved_vectors=saved_encoder_vectors(saved), progress=progress
    )
    if weights == RelatedWeights() and key:
        try:
            index.save(saved, key)
        except (OSError, OutputError):
            pass  # a read-only build directory: the next call builds the index again
    return index


def read_query_text(source: str) -> Paper:
    """The abstract of ``kg related --text FILE|-`` as a paper (not added to any graph).

    Raises:
        InputError: the file cannot be read or holds no text.
    """
    import sys

    from kg.ingest import derive_title, paper_id

    name = "<stdin>" if source == "-" else source
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(name, None, f"cannot read the abstract: {exc}") from None
    abstract = " ".join(text.split())
    if not abstract:
        raise InputError(name, None, "no abstract text to find related work for")
    return Paper(id=paper_id(abstract), title=derive_title(abstract), abstract=abstract, title_derived=True)


def render_line(rank: int, result: Related, title_width: int = 60) -> str:
    """One readable line per result: rank, score, id, title and the explanation."""
    title = result.title if len(result.title) <= title_width else result.title[: title_width - 1] + "…"
    why = result.explanation() or "no shared evidence"
    return f"{rank:>2}. {result.score:.3f}  {result.id}  {title} — {why}"


# ------------------------------------------------------------------------------------ helpers


def _row(matrix: sp.csr_matrix, i: int) -> tuple[np.ndarray, np.ndarray]:
    """Row ``i`` of a CSR matrix as (column indices, values), without building a matrix."""
    start, end = matrix.indptr[i], matrix.indptr[i + 1]
    return matrix.indices[start:end], matrix.data[start:end]


def _products(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> list[tuple[float, int]]:
    """(a[k] * b[k], k) for the columns ``k`` two sparse rows share."""
    common, ia, ib = np.intersect1d(a[0], b[0], assume_unique=True, return_indices=True)
    return list(zip((a[1][ia] * b[1][ib]).tolist(), common.tolist(), strict=True))


def _shape_json(shape: BoundShape) -> list[Any]:
    dependence = [[v, e.numerator, e.denominator, lg] for v, e, lg in shape.dependence]
    return [shape.quantity, list(shape.sides), dependence, shape.latex, shape.attribution]


def _shape_from_json(obj: Sequence[Any]) -> BoundShape:
    quantity, sides, dependence, latex, attribution = obj
    return BoundShape(
        str(quantity),
        tuple(sides),
        tuple((str(v), Fraction(int(n), int(d)), int(lg)) for v, n, d, lg in dependence),
        str(latex),
        str(attribution),
    )


def slug(name: str) -> str:
    """:func:`kg.vocab.slug`, imported on first use: kg.vocab loads rdflib, which a query
    answered from a saved index never needs (it would add a fifth of a second to each call)."""
    from kg.vocab import slug as vocab_slug

    return vocab_slug(name)


def _topic(value: Any) -> int:
    try:
        return int(value) if value is not None else -1
    except (TypeError, ValueError):
        return -1


def _shape_of(bound: Bound) -> BoundShape:
    return bound_shape(
        bound.kind, bound.expr, bound.quantity, bound.latex, bound.attribution, bound.variables
    )


def _weighted(
    rows: Sequence[int], cols: Sequence[int], weight: np.ndarray, shape: tuple[int, int]
) -> sp.csr_matrix:
    data = weight[np.asarray(cols, dtype=np.int64)] if len(cols) else np.zeros(0)
    matrix = sp.csr_matrix(
        (data, (np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64))),
        shape=shape,
        dtype=np.float64,
    )
    matrix.sum_duplicates()
    matrix.eliminate_zeros()
    return matrix


def _row_norms(matrix: sp.csr_matrix) -> np.ndarray:
    return np.sqrt(np.asarray(matrix.multiply(matrix).sum(axis=1)).ravel())


def _l2(matrix: sp.csr_matrix) -> sp.csr_matrix:
    norms = _row_norms(matrix)
    norms[norms == 0] = 1.0
    return sp.csr_matrix(sp.diags(1.0 / norms) @ matrix)


def _normalize_pair(used: sp.csr_matrix, proposed: sp.csr_matrix) -> tuple[sp.csr_matrix, sp.csr_matrix]:
    """Scale both role matrices by the norm of their sum (one vector per paper, split by role)."""
    norms = np.sqrt(_row_norms(used) ** 2 + _row_norms(proposed) ** 2)
    norms[norms == 0] = 1.0
    scale = sp.diags(1.0 / norms)
    return sp.csr_matrix(scale @ used), sp.csr_matrix(scale @ proposed)


def _dense(matrix: Any) -> np.ndarray:
    if sp.issparse(matrix):
        return np.asarray(matrix.todense()).ravel()
    return np.asarray(matrix).ravel()


def _explaining_terms(ranked: Iterable[str], limit: int = 3) -> tuple[str, ...]:
    """The strongest shared terms worth naming; a word pair stands for its words.

    >>> _explaining_terms(["block", "stochastic block", "xy", "community", "stochastic", "model"])
    ('stochastic block', 'community', 'model')
    """
    out: list[str] = []
    for term in ranked:
        words = term.split()
        if not all(_EXPLAINING_WORD.fullmatch(w) for w in words):
            continue
        if len(words) > 1:  # "stochastic block" replaces an earlier "block"
            out = [t for t in out if not set(t.split()) <= set(words)]
        if set(words) <= {w for t in out for w in t.split()}:
            continue
        out.append(term)
        if len(out) == limit:
            break
    return tuple(out)


def _bound_phrases(a: Sequence[BoundShape], b: Sequence[BoundShape], limit: int = 3) -> list[str]:
    """The bound evidence of a pair: the shared shapes first (strongest), then improvements."""
    found: dict[str, int] = {}
    for x in a:
        for y in b:
            for strength, phrase in compare_shapes(x, y):
                found[phrase] = max(found.get(phrase, 0), strength)
    shared = sorted((p for p, s in found.items() if s != 2), key=lambda p: (-found[p], p))
    # "both claim regret upper bounds" adds nothing once "… in √T" is said.
    kept = [p for p in shared if not any(o.startswith(p + " in ") for o in shared)]
    # One improvement phrase per direction: a candidate with three bounds would repeat itself.
    improvements: list[str] = []
    for prefix in ("improves the query's", "the query's"):
        first = sorted(p for p, s in found.items() if s == 2 and p.startswith(prefix))[:1]
        improvements.extend(first)
    return (kept[:2] + improvements)[:limit]


def paper_ids(nx_graph: nx.MultiDiGraph) -> list[str]:
    """The paper ids of a graph, sorted."""
    return sorted(
        str(d.get("id") or n.partition(":")[2])
        for n, d in nx_graph.nodes(data=True)
        if d.get("kind") == "Paper"
    )


__all__ = [
    "BoundShape",
    "BridgePaper",
    "MethodPapers",
    "Related",
    "RelatedIndex",
    "RelatedWeights",
    "SharedEntity",
    "SimilarEntity",
    "bound_shape",
    "build_index",
    "compare_shapes",
    "dependence",
    "entity_terms",
    "format_dependence",
    "load_index",
    "paper_ids",
    "read_query_text",
    "render_line",
    "tfidf_matrix",
    "write_index",
    "tfidf_vectorizer",
]
