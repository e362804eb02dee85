"""Typed entity mentions (Method, Task, Dataset, Metric, Concept) with roles and canonical names.

Two sources, merged per paper:

* **The SciERC model** (``scierc_ner``, trained by :mod:`extractors.train.scierc_ner`), added to the
  pipeline's one ``nlp`` by :func:`add_components`. It finds most mentions, with SciERC's boundary
  conventions; its ``Generic`` label ("this method") is dropped.
* **Precise rules**, each with an id in ``extractors/patterns/*.jsonl``: named new systems in a
  proposal context (role ``proposed``), pretrained models (``Method``, role ``used``), dataset lists
  and known benchmarks (``Dataset``) and abbreviation definitions (short and long form share one
  canonical name).

Merging: where a rule span overlaps a model span the rule wins, unless the model span contains it
with the same type ("the SN-VLM framework": the model's boundary, the rule's role); abbreviation
forms only fill spans the model left empty; a phrase the model typed once keeps that type at its
other occurrences. Within a paper one canonical name has one type (the majority) and one role.

Every mention passes the same filters: generic heads alone ("our method", "results") and math
placeholders alone are never entities; determiners, edge punctuation, unbalanced brackets, a
trailing formula and a trailing verb or adverb are trimmed. Offsets are mapped back to the original
abstract, so ``paper.abstract[m.start:m.end] == m.text``.

The model's spans are then retyped by a second-stage classifier (:mod:`extractors.entity_types`,
trained on SciERC train gold spans) where it is confident (probability ≥ 0.5, chosen on dev); rule
types are kept. Retyping comes before repeats, abbreviation forms and the per-name majority, so
those inherit the new types.

Measured (``kg eval entities``): SciERC dev strict typed micro-F1 0.587, relaxed 0.703 (0.550 and
0.655 with the recognizer's own types; untyped relaxed 0.875); on the hand-written seed gold,
key-entity recall 0.645 typed / 0.874 untyped, and 16 of 17 named proposed systems carry role
``proposed``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from extractors.abbrev import Abbreviation, find_abbreviations
from extractors.base import ParsedPaper
from extractors.canonical import (
    PATTERNS_DIR,
    acronym_map,
    canonical_key,
    canonicalize,
    is_coined,
    load_aliases,
    read_rules,
    singularize,
)
from extractors.entity_types import TypeClassifier, shipped_classifier, token_bounds
from kg.errors import ConfigError
from kg.text import MATH_PLACEHOLDER, NormalizedText
from kg.types import Mention

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

NAME = "entities.v2"
COMPONENT = "scierc_ner"
MODEL_DIR = Path(__file__).resolve().parent / "models" / COMPONENT
MODEL_EXTRACTOR = "entities.scierc_ner.v1"

# SciERC label → our type; Generic is deliberately absent (dropped).
LABEL_TO_TYPE: dict[str, str] = {
    "Method": "Method",
    "Task": "Task",
    "Material": "Dataset",
    "Metric": "Metric",
    "OtherScientificTerm": "Concept",
}
# Rules outrank the model on overlap; among rules, the more specific wins.
# Abbreviation forms rank below the model: SciERC (and a reader) take "convolutional neural networks
# (CNNs)" as one mention, so they only fill spans the model left empty.
_PRIORITY = {"abbrev": -1, "model": 0, "dataset_list": 2, "dataset": 3, "pretrained": 3, "proposed": 4}
_CONFIDENCE = {
    "model": 0.8,
    "abbrev": 0.85,
    "dataset_list": 0.85,
    "dataset": 0.95,
    "pretrained": 0.95,
    "proposed": 0.9,
}

# Modifiers that do not make a generic head specific: "the proposed method", "existing approaches".
_EMPTY_MODIFIERS = frozenset(
    """proposed novel new existing previous prior standard original same above resulting final simple
    general different other several many two three four first second various given current our their
    its this these those the a an such each both all any some more most key main overall entire
    whole underlying corresponding respective typical popular conventional classical traditional
    recent modern state-of-the-art sota unified effective efficient""".split()
)
_AFTER_OBJECT = re.compile(
    r"\b(?:based on|built (?:up)?on|using|such as|including|compared (?:to|with)|than|unlike|"
    r"instead of|rather than|inspired by|on top of|extends?|extending|over)\b",
    re.I,
)
_NAMED_DATASET = re.compile(
    r"(?<![\w\-])([A-Za-z0-9][\w\-.+]*[A-Za-z0-9+])\s+(?:dataset|data set|benchmark|corpus|suite|testbed)s?\b"
)
_OURS_BEFORE = re.compile(
    r"\b(?:our|new|novel|introduce\w*|curate\w*|release\w*|construct\w*|collect\w*)\b", re.I
)
_CLAIM_VERBS = frozenset(
    """outperform improve achieve reduce surpass beat enable mitigate preserve attain exceed match
    deliver scale generalize converge recover enjoy demonstrate yield obtain lift boost
    accelerate speed outpace""".split()
)
_DATASET_APPOSITION = re.compile(
    r"\s*(?:[,:(]\s*|\s+)(?:a|an|the)?\s*(?:[\w\-]+\s+){0,4}?"
    r"(?:dataset|data set|benchmark|corpus|suite|collection|testbed|leaderboard)s?\b",
    re.I,
)
_PRONOUNS = frozenset("it they them this these those which that we us one ones itself".split())
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-.+]*[A-Za-z0-9+]|[A-Za-z0-9]")
# Heads that stay part of a coined name: "SLE kernel", "GRACE loss". Generic heads do not.
_NAME_HEADS = frozenset(
    "kernel kernels loss estimator sampler regularizer encoder decoder attention embedding embeddings "
    "prior objective operator index test policy transform layer module head score bound".split()
)
# Capitalized words that start names less often than they start sentences or titles.
_COMMON_CAPS = frozenset(
    """We Our The This These Those In On For With By To From As At Its It Their Finally Moreover However
    Furthermore Additionally Specifically First Second Third Then Thus Hence Here Experiments Results
    Extensive Empirically Theoretically Unlike While When Although Despite Because Existing Recent
    Prior Previous Current Modern Large Deep Neural Bayesian Gaussian Markov Euclidean Riemannian
    Hilbert Lipschitz Lagrangian Hessian Fourier Monte Carlo English Chinese A An And Or Of Not No
    Both Each Across Among Using Based Given Inspired Building Motivated To Further Overall Code""".split()
)


@dataclass(frozen=True, slots=True)
class _Cand:
    """A candidate mention in normalized-text offsets, before merging."""

    start: int
    end: int
    type: str
    source: str  # model | abbrev | dataset | dataset_list | pretrained | proposed
    rule: str  # rule id for the extractor name
    role: str | None = None


@dataclass(frozen=True, slots=True)
class _Rule:
    id: str
    type: str
    regex: re.Pattern[str]




@lru_cache(maxsize=1)
def _generic_words() -> frozenset[str]:
    text = (PATTERNS_DIR / "generic.txt").read_text(encoding="utf-8")
    return frozenset(w.strip() for w in text.splitlines() if w.strip() and not w.startswith("#"))


# A name ends where the word ends, or before a hyphenated modifier ("PopQA-based", "GPT-2-style").
_NAME_END = r"(?![\w])(?!-(?!(?:based|style|like|level|scale|sized|specific|trained|generated)\b)[\w])"


def _name_rules(file: str) -> list[_Rule]:
    # A name ends as _NAME_END says; where it may start is checked by _find_names.
    return [_Rule(obj["id"], obj["type"], re.compile(r"(?:" + obj["regex"] + r")" + _NAME_END))
            for obj in read_rules(file)]


def _find_names(regex: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    r"""The matches of ``regex`` that start a word: not right after a word character or a hyphen.

    The same matches as ``finditer`` of the pattern behind ``(?<![\w\-])``, at half the cost: a
    leading look-behind keeps the regex engine from skipping ahead to a possible first letter.
    """
    pos = 0
    while (m := regex.search(text, pos)) is not None:
        start = m.start()
        if start and (text[start - 1].isalnum() or text[start - 1] in "_-"):
            pos = start + 1  # no name starts here; one may start inside this match
            continue
        yield m
        pos = m.end() if m.end() > start else start + 1


@lru_cache(maxsize=1)
def _triggers() -> dict[str, tuple[str, ...]]:
    return {obj["kind"]: tuple(obj["words"]) for obj in read_rules("triggers.jsonl")}


def _model_meta(model_dir: Path = MODEL_DIR) -> dict[str, Any]:
    meta_path = model_dir / "meta.json"
    try:
        return json.loads(meta_path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]
    except OSError as exc:
        raise ConfigError(
            f"{meta_path}: the SciERC entity model is missing ({exc.strerror}); rebuild it with "
            "`python -m extractors.train.scierc_ner`"
        ) from exc


def add_components(nlp: Language, model_dir: Path = MODEL_DIR) -> Language:
    """Add the trained SciERC recognizer to ``nlp`` (after the tagger) and drop the stock ``ner``.

    The component has its own tok2vec, so the base pipeline's components are untouched; it reads
    the base tagger's ``TAG``, which must run before it.

    Args:
        nlp: the pipeline's one spaCy ``Language`` (``en_core_web_sm`` family).
        model_dir: directory with ``meta.json`` and ``component/`` (default: the shipped model).

    Returns:
        ``nlp``, changed in place.

    Raises:
        ConfigError: the model files are missing or do not load.
    """
    if COMPONENT in nlp.pipe_names:
        return nlp
    if "ner" in nlp.pipe_names:  # OntoNotes types (PERSON, ORG …) are not ours; one less pass
        nlp.remove_pipe("ner")
    meta = _model_meta(model_dir)
    if meta.get("vectors"):
        # The recognizer's embedding reads these in-domain word vectors (the sm base pipeline has
        # none, so nothing else in it is affected; token.vector now uses them too).
        from spacy.vectors import Vectors

        try:
            nlp.vocab.vectors = Vectors().from_disk(model_dir / meta["vectors"])
        except (OSError, ValueError) as exc:
            raise ConfigError(
                f"{model_dir / meta['vectors']}: cannot load the entity vectors: {exc}"
            ) from exc
    config = {"model": meta["model"], **meta.get("config", {})}
    pipe: Any = nlp.add_pipe(meta.get("factory", "ner"), name=COMPONENT, config=config, last=True)
    try:
        pipe.from_disk(model_dir / "component", exclude=["vocab"])
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{model_dir}: cannot load the SciERC entity model: {exc}") from exc
    return nlp


def _sentence_bounds(doc: Doc) -> list[tuple[int, int]]:
    try:
        return [(s.start_char, s.end_char) for s in doc.sents]
    except ValueError:  # no parser: the whole text is one sentence
        return [(0, len(doc.text))]


def _sentence_of(bounds: list[tuple[int, int]], pos: int) -> tuple[int, int]:
    for start, end in bounds:
        if start <= pos < end:
            return start, end
    return bounds[-1] if bounds else (0, 0)


_PAIRS = {"(": ")", "[": "]", "{": "}"}
_DETERMINER = re.compile(r"(?:the|a|an|our|their|this|these|those|its|such)\s+", re.I)


def _balanced(text: str, start: int, end: int, opening: str) -> bool:
    return text.count(opening, start, end) == text.count(_PAIRS[opening], start, end)


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    """Shrink ``[start, end)`` past leading determiners, edge spaces and punctuation, and
    unbalanced edge brackets ("Polish ( SyntLex )" keeps its parentheses).

    >>> t = "the Polish ( SyntLex ) corpus."
    >>> t[slice(*_trim(t, 0, len(t)))]
    'Polish ( SyntLex ) corpus'
    """
    # "Binomial Mechanism (SN-VBM" ends one character early: take the closing bracket.
    for opening, closing in _PAIRS.items():
        if (
            end < len(text)
            and text[end] == closing
            and text.count(opening, start, end) == text.count(closing, start, end) + 1
        ):
            end += 1
    while True:
        changed = True
        while changed and start < end:
            changed = False
            first, last = text[start], text[end - 1]
            if first in " ,;:.\"'" or (first in _PAIRS and not _balanced(text, start, end, first)):
                start += 1
                changed = True
            elif last in " ,;:\"'" or (last == "." and not re.search(r"\w\.\w+\.$", text[start:end])):
                end -= 1
                changed = True
            elif last in ")]}" and not _balanced(text, start, end, "([{"[")]}".index(last)]):
                end -= 1
                changed = True
        # A trailing formula is a value or a condition, not part of the name: "error $\\le\\epsilon$".
        if end - start > len(MATH_PLACEHOLDER) + 1 and text.endswith(" " + MATH_PLACEHOLDER, start, end):
            end -= len(MATH_PLACEHOLDER) + 1
            continue
        m = _DETERMINER.match(text, start, end)
        if not m or m.end() >= end:
            return start, end
        start = m.end()


def is_generic(text: str) -> bool:
    """Whether a phrase is a generic word with empty modifiers ("the proposed method", "results"),
    a pronoun, or bare math: never an entity.

    >>> [is_generic(t) for t in ["our proposed framework", "Results", "MATH", "it", "graph neural network"]]
    [True, True, True, True, False]
    """
    words = re.findall(r"[\w\-]+", text.lower())
    content = [w for w in words if w not in _EMPTY_MODIFIERS and w != MATH_PLACEHOLDER.lower()]
    if not content:
        return True
    if len(content) == 1:
        word = content[0]
        return word in _PRONOUNS or word in _generic_words() or singularize(word) in _generic_words()
    return False


def _without_math(word: str) -> str:
    """A word without ``MATH-`` prefixes and ``-MATH`` suffixes, for the coined-name test."""
    parts = [p for p in word.split("-") if p != MATH_PLACEHOLDER]
    return "-".join(parts)


def _repair_definitions(model: list[_Cand], abbrevs: list[Abbreviation]) -> list[_Cand]:
    """A model span holding "(SHORT)" but starting inside the long form starts with the long form:
    "Equation Models (SEMs)" becomes "Structural Equation Models (SEMs)"."""
    out = []
    for c in model:
        for ab in abbrevs:
            if ab.long_start < c.start < ab.long_end and c.start < ab.short_start and ab.short_end <= c.end:
                c = replace(c, start=ab.long_start)
                break
        out.append(c)
    return out


def _with_definitions(text: str, cands: list[_Cand], abbrevs: list[Abbreviation]) -> list[_Cand]:
    """A proposed short form at its definition covers the whole name: "Sparse Landmark Embedding
    (SLE) kernel", not "SLE" alone (the head noun comes along when it is a name head)."""
    out = []
    for c in cands:
        ab = next((a for a in abbrevs if (a.short_start, a.short_end) == (c.start, c.end)), None)
        if ab is not None and ab.long_start < c.start:
            end = text.find(")", ab.short_end)
            end = end + 1 if end >= 0 else c.end
            head = re.match(r" ([A-Za-z]+)\b", text[end:])
            if head and head.group(1).lower() in _NAME_HEADS:
                end += head.end()
            c = replace(c, start=ab.long_start, end=end)
        out.append(c)
    return out


def _canonical_surface(norm: NormalizedText, cand: _Cand, abbrevs: list[Abbreviation]) -> str:
    """The text a mention's canonical name is computed from.

    An inner "(SHORT)" is dropped ("convolutional neural networks (CNNs)" is named by its long
    form, so it merges with "CNN"), and a short formula is put back as its symbol ("$f$-GRPO" →
    "f-GRPO", where the parser saw "MATH-GRPO").
    """
    text = norm.text
    segments = [(cand.start, cand.end)]
    for ab in abbrevs:
        if cand.start <= ab.long_start and ab.short_end <= cand.end:
            close = text.find(")", ab.short_end, cand.end)
            segments = [(cand.start, ab.long_end), (close + 1 if close >= 0 else ab.short_end, cand.end)]
            break
    out = []
    for a, b in segments:
        piece = text[a:b]
        pos = piece.find(MATH_PLACEHOLDER)
        while pos >= 0:
            span = norm.math_at(a + pos, a + pos + len(MATH_PLACEHOLDER))
            body = norm.original[span.body_start : span.body_end] if span is not None else ""
            symbol = body.strip().lstrip("\\") if len(body.strip()) <= 3 else MATH_PLACEHOLDER.lower()
            piece = piece[:pos] + symbol + piece[pos + len(MATH_PLACEHOLDER) :]
            a -= len(symbol) - len(MATH_PLACEHOLDER)
            pos = piece.find(MATH_PLACEHOLDER, pos + len(symbol))
        out.append(piece)
    return "".join(out).strip()


def _word_char(c: str) -> bool:
    return c.isalnum() or c == "_"


def occurrences(text: str, phrase: str) -> list[tuple[int, int]]:
    """Whole-word occurrences of ``phrase``: not inside a longer word or hyphenated compound.

    (``str.find`` rather than a regex per phrase: compiling one per mention cost more than the
    rest of the extractor on the corpus.)

    >>> occurrences("ADAG, ADAG-based and ADAGs; ADAG- ADAG", "ADAG")
    [(0, 4), (28, 32), (34, 38)]
    """
    out = []
    n = len(text)
    i = text.find(phrase)
    while i >= 0:
        j = i + len(phrase)
        ok = i == 0 or not (_word_char(text[i - 1]) or text[i - 1] == "-")
        k = j
        while k < n and text[k] == "-":
            k += 1
        if k < n and _word_char(text[k]):
            ok = False
        if ok and phrase:
            out.append((i, j))
        i = text.find(phrase, i + 1) if phrase else -1
    return out


def _repeats(text: str, model: list[_Cand]) -> list[_Cand]:
    """Other occurrences of a phrase the model typed, where the model found nothing.

    An abstract names its terms more than once and the model sometimes types only some of the
    occurrences ("word sense disambiguation (WSD)" … "WSD" … "verb WSD"); a term keeps its type.
    """
    out: list[_Cand] = []
    taken = [(c.start, c.end) for c in model]
    for cand in model:
        phrase = text[cand.start : cand.end]
        if len(phrase) < 3 or is_generic(phrase):
            continue
        for a, b in occurrences(text, phrase):
            if not any(x < b and a < y for x, y in taken):
                taken.append((a, b))
                out.append(replace(cand, start=a, end=b))
    return out


def _model_cands(doc: Doc) -> Iterator[_Cand]:
    for ent in doc.ents:
        etype = LABEL_TO_TYPE.get(ent.label_)
        if etype is None:
            continue
        end = ent.end
        # "the SLE kernel matches …", "BDC-Merge consistently": a finite verb or an adverb never
        # ends a name; the model sometimes runs on.
        while end - ent.start > 1 and doc[end - 1].tag_ in ("VBZ", "VBD", "VBP", "MD", "RB", "RBR", "RBS"):
            end -= 1
        yield _Cand(ent.start_char, doc[end - 1].idx + len(doc[end - 1]), etype, "model", COMPONENT)


class EntityExtractor:
    """The ``entities`` family: model mentions merged with precise rules; see the module doc."""

    name = NAME

    def __init__(self, classifier: TypeClassifier | None = None, *, retype: bool = True) -> None:
        """Args:
        classifier: the span-type classifier (default: the shipped one).
        retype: whether model spans are retyped by it at all (``False``: the recognizer's types).
        """
        self.classifier = (classifier or shipped_classifier()) if retype else None
        self.pretrained = _name_rules("pretrained.jsonl")
        self.datasets = _name_rules("datasets.jsonl")
        trig = _triggers()
        self.propose_re = re.compile(
            r"\b(?:we|this (?:paper|work|study)|in this (?:paper|work)|our (?:paper|work))\b[^.;]{0,80}?\b(?:"
            + "|".join(re.escape(w) for w in trig["propose_verb"])
            + r")(?:s|es|d|ed|ing)?\b",
            re.I,
        )
        self.naming_re = re.compile(
            r"\b(?:" + "|".join(re.escape(w) for w in trig["naming"]) + r")\s+(?:as\s+)?",
            re.I,
        )
        # A capitalized word right after a proposal or naming trigger, before ", a …"/"(…"/"which".
        self.named_after_re = re.compile(
            r"(?:"
            + self.propose_re.pattern
            + r"|"
            + self.naming_re.pattern
            + r")\s*(?:\w+\s+){0,2}?([A-Z][a-z]+[A-Za-z]*)(?=\s*[,:(]|\s+(?:a|an|which|that)\b)",
            re.I,
        )
        self.dataset_ctx_re = re.compile(
            r"\b(?:" + "|".join(re.escape(w) for w in trig["dataset_context"]) + r")\b", re.I
        )
        self.use_verbs = frozenset(trig["use_verb"])
        self.propose_verbs = frozenset(trig["propose_verb"])

    # -- rule candidates -------------------------------------------------------------------
    def _lexicon_cands(self, text: str) -> Iterator[_Cand]:
        for rules, source, role in (
            (self.pretrained, "pretrained", "used"),
            (self.datasets, "dataset", None),
        ):
            for rule in rules:
                for m in _find_names(rule.regex, text):
                    if m.group() == MATH_PLACEHOLDER:
                        continue
                    yield _Cand(m.start(), m.end(), rule.type, source, rule.id, role)

    def _dataset_list_cands(self, text: str, sents: list[tuple[int, int]]) -> Iterator[_Cand]:
        item = r"(?:[A-Z][\w\-.+/]*|[\w\-]*\d[\w\-.]*)(?:[ \-](?:[A-Z0-9][\w\-.+/]*))*"
        list_re = re.compile(
            r"\b(?:on|including|includes|such as|namely|like|from|across|over|in)\s+(?:the\s+)?"
            r"("
            + item
            + r")((?:\s*,\s*(?:and\s+|or\s+)?"
            + item
            + r")*)(?:,?\s+(?:and|or)\s+("
            + item
            + r"))?"
        )
        for s_start, s_end in sents:
            sentence = text[s_start:s_end]
            if not self.dataset_ctx_re.search(sentence):
                continue
            for m in list_re.finditer(sentence):
                spans = [(m.start(1), m.end(1))]
                if m.group(2):
                    for sub in re.finditer(item, m.group(2)):
                        spans.append((m.start(2) + sub.start(), m.start(2) + sub.end()))
                if m.group(3):
                    spans.append((m.start(3), m.end(3)))
                if len(spans) < 2:
                    continue
                names = [sentence[a:b] for a, b in spans]
                if any(n in _COMMON_CAPS or n == MATH_PLACEHOLDER or n.isdigit() for n in names):
                    continue
                for a, b in spans:
                    yield _Cand(s_start + a, s_start + b, "Dataset", "dataset_list", "dataset.list")

    def _coined_names(self, norm: NormalizedText, lo: int, hi: int) -> Iterator[tuple[int, int]]:
        """Coined-name spans in ``text[lo:hi]``, extended over adjacent capitalized words and a
        non-generic head noun ("Anchor PCA", "SLE kernel")."""
        text = norm.text
        words = []
        for m in _WORD.finditer(text, lo, hi):
            a, b = m.start(), m.end()
            # "$f$-GRPO" is a name of its own (MATH-GRPO); "$\\mathcal{A}(x)$-BDC-Merge" is a formula
            # in front of one: a math prefix stays only when its body is a symbol or two.
            while text.startswith(MATH_PLACEHOLDER + "-", a, b):
                span = norm.math_at(a, a + len(MATH_PLACEHOLDER))
                if span is not None and span.body_end - span.body_start <= 2:
                    break
                a += len(MATH_PLACEHOLDER) + 1
            while b - a > len(MATH_PLACEHOLDER) and text.endswith("-" + MATH_PLACEHOLDER, a, b):
                b -= len(MATH_PLACEHOLDER) + 1
            if a < b:
                words.append((a, b))
        i = 0
        while i < len(words):
            a, b = words[i]
            if not is_coined(_without_math(text[a:b])):
                i += 1
                continue
            j = i
            # Capitalized words right before: "Anchor PCA", "Sheaf Stain" — not "We", "The".
            while j > 0 and text[words[j - 1][1] : words[j][0]] == " ":
                prev = text[words[j - 1][0] : words[j - 1][1]]
                if prev[:1].isupper() and prev not in _COMMON_CAPS and prev.isalpha():
                    j -= 1
                else:
                    break
            k = i
            # At most five words: a name, not a run of capitalized title words.
            while k + 1 < len(words) and k - j < 4 and text[words[k][1] : words[k + 1][0]] == " ":
                nxt = text[words[k + 1][0] : words[k + 1][1]]
                if is_coined(_without_math(nxt)) or (
                    nxt[:1].isupper() and nxt.isalpha() and nxt not in _COMMON_CAPS
                ):
                    k += 1
                elif nxt.lower() in _NAME_HEADS:
                    k += 1
                    break
                else:
                    break
            yield words[j][0], words[k][1]
            i = k + 1

    def _proposed_cands(self, norm: NormalizedText, sents: list[tuple[int, int]]) -> Iterator[_Cand]:
        text = norm.text
        for s_start, s_end in sents:
            sentence = text[s_start:s_end]
            m = self.propose_re.search(sentence)
            lo = s_start + m.end() if m else None
            for n in self.naming_re.finditer(sentence):
                lo = min(lo, s_start + n.start()) if lo is not None else s_start + n.start()
            if lo is None:
                continue
            # The proposed thing is named soon after the verb, before what it is built on or
            # compared with: "we propose X, based on Y" proposes X, not Y.
            hi = min(s_end, lo + 160)
            stop = _AFTER_OBJECT.search(text, lo, hi)
            hi = stop.start() if stop else hi
            for a, b in self._coined_names(norm, lo, hi):
                # A name the abstract already used before this sentence is background ("DAGs are
                # foundational … we introduce ADAG … for DAG learning"), not the new system.
                # It is still a named Method, typed by this rule, without a role.
                name = text[a:b]
                if occurrences(text[:s_start], name) or occurrences(text[:s_start], name + "s"):
                    yield _Cand(a, b, "Method", "proposed", "coined", None)
                else:
                    yield _Cand(a, b, "Method", "proposed", "proposed.coined", "proposed")
            # "we introduce Shepherd, a …" / "called Shepherd": one capitalized word as the name.
            for c in self.named_after_re.finditer(sentence):
                word = c.group(1)
                if word[0].isupper() and word not in _COMMON_CAPS:
                    yield _Cand(
                        s_start + c.start(1),
                        s_start + c.end(1),
                        "Method",
                        "proposed",
                        "proposed.named",
                        "proposed",
                    )

    def _named_dataset_cands(self, text: str) -> Iterator[_Cand]:
        """A coined name right before "dataset"/"benchmark"/"corpus" ("our XShapeCorpus dataset")."""
        for m in _NAMED_DATASET.finditer(text):
            if not is_coined(m.group(1)):
                continue
            ours = _OURS_BEFORE.search(text, max(0, m.start() - 40), m.start())
            yield _Cand(
                m.start(1), m.end(1), "Dataset", "dataset", "dataset.named", "proposed" if ours else None
            )

    def _claim_subject_cands(self, doc: Doc, text: str) -> Iterator[_Cand]:
        """A coined name that is the subject of a result claim ("SN-VLM substantially reduces …",
        "VOXPERFORMER remains competitive") is this paper's own system; pretrained models and names
        in the alias table are left to their own rules."""
        for token in doc:
            if token.dep_ not in ("nsubj", "nsubjpass") or token.head.lemma_.lower() not in _CLAIM_VERBS:
                continue
            word = next(
                (
                    w
                    for w in _WORD.finditer(text, max(0, token.idx - 30), token.idx + len(token) + 30)
                    if w.start() <= token.idx < w.end()
                ),
                None,
            )
            if word is None or not is_coined(word.group()) or canonical_key(word.group()) in load_aliases():
                continue
            if any(rule.regex.fullmatch(word.group()) for rule in self.pretrained):
                continue
            yield _Cand(word.start(), word.end(), "Method", "proposed", "proposed.claim", "proposed")

    def _everywhere(self, text: str, proposed: list[_Cand]) -> list[_Cand]:
        """Every occurrence of a proposed name, not only the one after the verb ("ADAG wins")."""
        out = list(proposed)
        seen = {(c.start, c.end) for c in proposed}
        for c in proposed:
            name = text[c.start : c.end]
            for a, b in occurrences(text, name):
                if (a, b) not in seen:
                    seen.add((a, b))
                    out.append(replace(c, start=a, end=b))
        return out

    def _retype_datasets(self, text: str, cands: list[_Cand]) -> list[_Cand]:
        """A proposed name introduced as "X, a new benchmark …" is a Dataset, not a Method."""
        out = []
        for c in cands:
            if c.source == "proposed" and _DATASET_APPOSITION.match(text, c.end):
                c = replace(c, type="Dataset")
            out.append(c)
        return out

    # -- merging ---------------------------------------------------------------------------
    def _abbrev_cands(self, text: str, abbrevs: list[Abbreviation], typed: list[_Cand]) -> Iterator[_Cand]:
        """Long and short forms of each definition, typed by what the model or a rule found on
        either form anywhere in the text; untyped definitions are skipped. On SciERC dev, typing
        the rest by head word added 12 wrong mentions for 1 right one."""
        for ab in abbrevs:
            shorts = occurrences(text, ab.short)
            spans = [(ab.long_start, ab.long_end), *shorts]
            etype = None
            for cand in sorted(typed, key=lambda c: c.source == "model"):  # rules first
                if any(cand.start < b and a < cand.end for a, b in spans):
                    etype = cand.type
                    break
            if etype is None:
                continue
            yield _Cand(ab.long_start, ab.long_end, etype, "abbrev", "abbrev.long")
            for a, b in shorts:
                yield _Cand(a, b, etype, "abbrev", "abbrev.short")

    def setup(self, nlp: Language) -> None:
        """Add the SciERC recognizer and its word vectors to the pipeline's ``nlp``."""
        add_components(nlp)

    def extract(self, parsed: ParsedPaper) -> Iterable[Mention]:
        """Mentions of ``parsed``, in text order, one per span; see the module doc."""
        doc = parsed.doc
        text = parsed.norm.text
        sents = _sentence_bounds(doc)
        model = self._retype(doc, list(_model_cands(doc)))
        model += _repeats(text, model)
        rules = [
            *self._lexicon_cands(text),
            *self._dataset_list_cands(text, sents),
            *self._named_dataset_cands(text),
        ]
        proposed = list(self._proposed_cands(parsed.norm, sents))
        first = next((a for a, b in sents if self.propose_re.search(text, a, b)), None)
        for c in self._claim_subject_cands(doc, text):
            # Claims make a name proposed only when the paper introduces it (first used at or after
            # its first proposal sentence); a background name keeps the type, not the role.
            name = text[c.start : c.end]
            before = text[:first] if first is not None else text
            if first is None or occurrences(before, name) or occurrences(before, name + "s"):
                c = replace(c, rule="coined", role=None)
            proposed.append(c)
        abbrevs = find_abbreviations(text)
        model = _repair_definitions(model, abbrevs)
        proposed.sort(key=lambda c: c.role is None)  # a name's proposed occurrence copies first
        proposed = self._everywhere(text, self._retype_datasets(text, proposed))
        rules.extend(_with_definitions(text, proposed, abbrevs))
        rules.extend(self._abbrev_cands(text, abbrevs, rules + model))
        chosen = self._merge(text, doc, rules, model)
        return self._to_mentions(parsed, chosen, abbrevs, sents)

    def _retype(self, doc: Doc, model: list[_Cand]) -> list[_Cand]:
        """The recognizer's spans with the classifier's type where it is confident (one scoring of
        all spans of the document)."""
        if self.classifier is None or not model:
            return model
        bounds = token_bounds(doc, [(c.start, c.end) for c in model])
        types = self.classifier.retype(doc, bounds, [c.type for c in model])
        return [c if c.type == t else replace(c, type=t) for c, t in zip(model, types, strict=True)]

    def _merge(self, text: str, doc: Doc, rules: list[_Cand], model: list[_Cand]) -> list[_Cand]:
        """One candidate per span: rules by priority, then the model, then abbreviation forms.

        A model span that contains rule spans of its own type keeps the model's boundary and takes
        the rule's role ("the SN-VLM framework", "GPT-2 language model"), as SciERC would bracket it.
        """
        taken: list[_Cand] = []
        ordered = sorted(
            rules + model,
            key=lambda c: (-_PRIORITY[c.source], c.start, -(c.end - c.start)),
        )
        for cand in ordered:
            start, end = _trim(text, cand.start, cand.end)
            if end <= start or is_generic(text[start:end]):
                continue
            cand = replace(cand, start=start, end=end)
            clashes = [t for t in taken if t.start < end and start < t.end]
            if not clashes:
                taken.append(cand)
            elif cand.source == "model" and all(
                t.source != "model"
                and (t.type == cand.type or t.source == "proposed")
                and start <= t.start
                and t.end <= end
                and (t.start, t.end) != (start, end)
                # "Shepherd's versatility" is about the system, not the system itself.
                and not text.startswith("'s", t.end)
                for t in clashes
            ):
                role = next((t.role for t in clashes if t.role), None)
                taken = [t for t in taken if t not in clashes]
                taken.append(replace(cand, role=role))
        return sorted(taken, key=lambda c: (c.start, c.end))

    def _role(self, doc: Doc, cand: _Cand) -> str | None:
        """``used`` when a Method/Dataset is the object of a use verb ("we fine-tune Llama")."""
        if cand.role or cand.type not in ("Method", "Dataset"):
            return cand.role
        if cand.type == "Dataset":  # a paper names a dataset to train or test on, unless it proposes it
            return "used"
        span = doc.char_span(cand.start, cand.end, alignment_mode="expand")
        if span is None:
            return None
        token = span.root
        for _ in range(4):
            if token.head is token:
                break
            token = token.head
            if token.pos_ == "VERB":
                lemma = token.lemma_.lower()
                if (
                    lemma in self.propose_verbs
                    and cand.type == "Method"
                    and any(
                        c.dep_ in ("nsubj", "nsubjpass") and c.lower_ in ("we", "paper", "work")
                        for c in token.children
                    )
                ):
                    return "proposed"
                if lemma in self.use_verbs:
                    return "used"
                break
        return None

    def _to_mentions(
        self,
        parsed: ParsedPaper,
        chosen: list[_Cand],
        abbrevs: list[Abbreviation],
        sents: list[tuple[int, int]],
    ) -> list[Mention]:
        text = parsed.norm.text
        abstract = parsed.paper.abstract
        acronyms: dict[str, str] = {}
        for ab in abbrevs:
            etype = next((c.type for c in chosen if c.start == ab.long_start and c.end == ab.long_end), "")
            long_form = _canonical_surface(
                parsed.norm, _Cand(ab.long_start, ab.long_end, etype, "abbrev", ""), []
            )
            short_form = _canonical_surface(
                parsed.norm, _Cand(ab.short_start, ab.short_end, etype, "abbrev", ""), []
            )
            acronyms.update(acronym_map([(short_form, long_form)], etype))
        roles = {id(c): self._role(parsed.doc, c) for c in chosen}
        canon = {
            id(c): canonicalize(_canonical_surface(parsed.norm, c, abbrevs), c.type, acronyms) for c in chosen
        }
        # One name, one role in a paper, whatever type each occurrence was given.
        proposed = {canon[id(c)] for c in chosen if roles[id(c)] == "proposed"}
        # "the Shared-Noise Verifiable Binomial Mechanism (SN-VBM) and the … Laplace Mechanism
        # (SN-VLM)": definitions coordinated in one phrase share the role of either.
        for first, second in zip(abbrevs, abbrevs[1:], strict=False):
            between = text[first.short_end : second.long_start]
            if not re.fullmatch(r"\)?\s*(?:,|,?\s*(?:and|or))\s*(?:the\s+)?", between):
                continue
            keys = [acronyms.get(canonical_key(ab.short)) for ab in (first, second)]
            if any(k in proposed for k in keys):
                proposed.update(k for k in keys if k)
        # One name, one type in a paper: the majority type of its occurrences (rules count double).
        votes: dict[str, Counter[str]] = {}
        for c in chosen:
            votes.setdefault(canon[id(c)], Counter())[c.type] += 1 if c.source == "model" else 2
        majority = {key: max(sorted(v), key=lambda t: v[t]) for key, v in votes.items()}
        mentions = []
        for c in chosen:
            ctype = majority[canon[id(c)]] if c.source == "model" else c.type
            start, end = parsed.norm.to_original(c.start, c.end)
            s_start, s_end = parsed.norm.to_original(*_sentence_of(sents, c.start))
            role = "proposed" if canon[id(c)] in proposed else roles[id(c)]
            # A paper proposes systems, models, losses and datasets; a "proposed" Concept is the
            # model's type confusion on a new name ("… Binomial Mechanism (SN-VBM)").
            etype = "Method" if role == "proposed" and ctype == "Concept" else ctype
            extractor = MODEL_EXTRACTOR if c.source == "model" else f"entities.rule.{c.rule}.v1"
            mentions.append(
                Mention(
                    type=etype,
                    text=abstract[start:end],
                    start=start,
                    end=end,
                    canonical=canon[id(c)],
                    role=role,
                    confidence=_CONFIDENCE[c.source],
                    extractor=extractor,
                    sentence_start=s_start,
                    sentence_end=s_end,
                )
            )
        return mentions


def entity_extractor() -> EntityExtractor:
    """The current ``entities`` extractor (rule data read once, here)."""
    return EntityExtractor()
