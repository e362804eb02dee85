"""The bounds extractor: the stages run in order over one abstract.

1. read the math (:mod:`.notation` for math spans, :mod:`.plain` for bounds written outside math)
   into formulas of pieces;
2. cut the abstract into words and sentences (:mod:`.words`), a :class:`~.text.Text`;
3. find the bound statements, the conditions and the formula-free claims (:mod:`.statements`);
4. read each statement's kind (:mod:`.kind`), quantity (:mod:`.quantity`), subject (:mod:`.subject`)
   and attribution (:mod:`.attribution`), in text order, each bound seeing the ones before it
   through an :class:`~.earlier.Earlier` record;
5. attach each condition to the bound nearest it in its sentence.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable
from typing import Any

from extractors.base import ParsedPaper
from extractors.bounds.attribution import attribute
from extractors.bounds.earlier import Earlier, Made
from extractors.bounds.features import attribution_features
from extractors.bounds.kind import refine_kind
from extractors.bounds.lexicon import Lexicon, lexicon
from extractors.bounds.notation import Formula, read_math
from extractors.bounds.plain import read_plain
from extractors.bounds.quantity import name_quantity
from extractors.bounds.statements import Condition, Statement, find_statements, find_verbal
from extractors.bounds.subject import subject_of
from extractors.bounds.text import SPAN, Text
from extractors.bounds.words import sentence_ids, tokenize
from kg.text import NormalizedText, find_math
from kg.types import Bound, MathSpan, Mention

NAME = "bounds.latex.v46"

_CONFIDENCE = {"head": 0.95, "rel": 0.8, "cue": 0.7}  # by the kind of rule that made the bound
_VERBAL_CONFIDENCE = 0.6


class BoundsExtractor:
    """Find claimed bounds in one parsed paper; see the module docstring."""

    def __init__(self) -> None:
        self.name: str = NAME

    def setup(self, nlp: Any) -> None:
        """Nothing to add: the bounds rules read the base pipeline's parse."""

    def extract(self, parsed: ParsedPaper) -> Iterable[Mention | Bound]:
        """The bounds of ``parsed``, in text order (the spaCy parse only names subjects)."""
        return extract_bounds(
            parsed.paper.abstract, parsed.norm.math, doc=parsed.doc, norm=parsed.norm, extractor=self.name
        )


def create_bounds_extractor() -> BoundsExtractor:
    """Factory of the current ``bounds`` extractor."""
    return BoundsExtractor()


def read_formulas(abstract: str, spans: Iterable[MathSpan], lex: Lexicon) -> list[Formula]:
    """The formulas of ``abstract`` in text order: each math span, and each bound written outside math."""
    formulas: list[Formula] = []
    pos = 0
    for span in spans:
        for piece in read_plain(abstract, pos, span.start, lex):
            formulas.append(Formula(piece.start, piece.end, (piece,)))
        formulas.append(Formula(span.start, span.end, read_math(abstract, span, lex)))
        pos = span.end
    for piece in read_plain(abstract, pos, len(abstract), lex):
        formulas.append(Formula(piece.start, piece.end, (piece,)))
    return formulas


def read_text(
    abstract: str, math: Iterable[MathSpan] | None = None, doc: Any = None, norm: NormalizedText | None = None
) -> Text:
    """``abstract`` as the rules read it: formulas, words, sentences and parse (``doc`` needs ``norm``)."""
    lex = lexicon()
    formulas = read_formulas(abstract, find_math(abstract) if math is None else math, lex)
    words = tokenize(abstract, [(f.start, f.end) for f in formulas])
    formula_word = {w.formula: k for k, w in enumerate(words) if w.formula >= 0}
    return Text(
        abstract,
        words,
        sentence_ids(abstract, words, lex.sentence_abbreviations),
        formulas,
        formula_word,
        lex,
        doc if norm is not None else None,
        norm,
    )


def extract_bounds(
    abstract: str,
    math: Iterable[MathSpan] | None = None,
    *,
    doc: Any = None,
    norm: NormalizedText | None = None,
    extractor: str = NAME,
    collect: list[tuple[int, int, list[str], str]] | None = None,
) -> list[Bound]:
    """Every bound claimed in ``abstract``, in text order.

    Args:
        abstract: the original abstract.
        math: its math spans (from :func:`kg.text.normalize`); located here when omitted.
        doc: the spaCy parse of the normalized text, used to name subjects; may be None.
        norm: the normalized text ``doc`` was parsed from (needed with ``doc``).
        extractor: the versioned name recorded on each bound.
        collect: when a list, receives ``(start, end, features, rule decision)`` for every formula
            bound: the inputs :mod:`extractors.train.bounds_attribution` cross-validates.

    Returns:
        The bounds, sorted by offset; formula bounds satisfy ``abstract[b.start:b.end] == b.latex``.

    >>> [(b.kind, b.notation, b.expr) for b in extract_bounds("It has $O(n \\\\log n)$ regret.")]
    [('upper', 'O', 'n log n')]
    """
    text = read_text(abstract, math, doc, norm)
    statements, conditions = find_statements(text)
    found: list[tuple[int, Bound]] = []  # (formula word, bound)
    written = Counter(abstract[s.piece.start : s.piece.end] for s in statements)
    earlier = Earlier(
        bound_words=frozenset(s.word for s in statements),
        repeated=frozenset(latex for latex, n in written.items() if n > 1),
    )
    for statement in statements:
        bound, made = _read_statement(text, statement, earlier, extractor, collect)
        found.append((statement.word, bound))
        earlier = earlier.after(made, bound.latex)
    found = _attach_conditions(text, found, conditions)
    for claim in find_verbal(text):
        bound = Bound(
            form="verbal",
            kind=claim.kind,
            notation="verbal",
            soft=False,
            latex=abstract[claim.start : claim.end],
            expr="",
            variables=(),
            quantity=claim.quantity,
            subject=_subject(text, claim.word),
            attribution=attribute(text, claim.word, earlier),
            condition=None,
            start=claim.start,
            end=claim.end,
            confidence=_VERBAL_CONFIDENCE,
            extractor=extractor,
        )
        found.append((claim.word, bound))
    return sorted((bound for _, bound in found), key=lambda b: (b.start, b.end))


def _read_statement(
    text: Text,
    statement: Statement,
    earlier: Earlier,
    extractor: str,
    collect: list[tuple[int, int, list[str], str]] | None,
) -> tuple[Bound, Made]:
    """The bound a statement makes, its fields read with what the bounds before it settled."""
    piece, wk = statement.piece, statement.word
    latex_text = text.abstract[piece.start : piece.end]
    quantity = _in_expectation(text, wk, name_quantity(text, wk, latex_text, earlier))
    attribution = attribute(text, wk, earlier)
    bound = Bound(
        form="formula",
        kind=refine_kind(text, wk, piece, statement.kind),
        notation=statement.notation,
        soft=piece.soft,
        latex=latex_text,
        expr=piece.expr,
        variables=piece.variables,
        quantity=quantity,
        subject=_subject(text, wk),
        attribution=attribution,
        condition=None,
        start=piece.start,
        end=piece.end,
        confidence=_CONFIDENCE.get(statement.rule.split(".")[0], 0.7),
        extractor=extractor,
    )
    if collect is not None:  # inputs of a learned attribution, for its cross-validation
        collect.append(
            (piece.start, piece.end, attribution_features(text, wk, attribution, earlier), attribution)
        )
    return bound, Made(wk, quantity, attribution)


def _in_expectation(text: Text, wk: int, quantity: str | None) -> str | None:
    """ "a regret bound of $X$ in expectation" bounds the expected regret: an expectation right
    after the formula qualifies a regret, risk, error, loss or cost it bounds, as "expected"
    before it does ("samples in expectation" stay a sample complexity)."""
    if (
        quantity is None
        or quantity.split(" ")[-1] not in text.lex.expectable
        or quantity.startswith("expected ")
        or not text.at(wk + 1, ("in", "expectation"))
        or text.sentences[wk + 2] != text.sentences[wk]
    ):
        return quantity
    return "expected " + quantity


def _subject(text: Text, wk: int) -> str | None:
    if text.doc is None or text.norm is None:
        return None
    return subject_of(text.doc, text.norm, text.words[wk].start)


def _attach_conditions(
    text: Text, found: list[tuple[int, Bound]], conditions: list[Condition]
) -> list[tuple[int, Bound]]:
    """A regime qualifies the nearest bound before it in its sentence, else the next one."""
    out = list(found)
    by_sentence: dict[int, list[int]] = {}  # sentence -> indices into out
    for i, (wk, _) in enumerate(out):
        by_sentence.setdefault(text.sentences[wk], []).append(i)
    for condition in conditions:
        candidates = by_sentence.get(condition.sentence, [])[:SPAN]
        before = [i for i in candidates if out[i][0] < condition.word]
        target = before[-1] if before else next((i for i in candidates if out[i][0] > condition.word), None)
        if target is not None and out[target][1].condition is None:
            wk, bound = out[target]
            out[target] = (wk, dataclasses.replace(bound, condition=condition.text))
    return out


def count_formula_bound_papers(bounds_by_paper: Iterable[Iterable[Bound]]) -> int:
    """How many papers claim at least one formula bound (the figure ``kg stats`` reports).

    Args:
        bounds_by_paper: each paper's bounds, e.g. ``(x.bounds for x in extractions)``.

    >>> papers = [extract_bounds("It has $O(n)$ regret."), [], extract_bounds("a linear rate")]
    >>> count_formula_bound_papers(papers)
    1
    """
    return sum(1 for bounds in bounds_by_paper if any(b.form == "formula" for b in bounds))
