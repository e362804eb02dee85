"""The ``bounds`` family: claimed asymptotic and explicit bounds, rates and complexities.

Where a bound is found:

* inside math spans (``$…$`` and friends, as located by :mod:`kg.text`): asymptotic notation
  (``O``, ``\\mathcal{O}``, ``\\tilde{O}``, ``\\Omega``, ``\\Theta``, ``o``, ``\\omega``),
  inequalities bounding a named quantity (``\\le``, ``<``, ``\\ge``, ``\\lesssim``) and orders
  (``\\sim``, ``\\simeq``, ``\\asymp``); a bare expression (``t_{\\mathrm{mix}}^3/\\varepsilon^2``)
  counts only when the words around it claim it ("of order", "scales as", "prior best", "at most");
* in the text outside math, where scraped abstracts write Unicode or bare LaTeX:
  ``Õ(dB + d√T)``, ``O(n log n)``, ``Ω(√T)``, ``\\mathcalO(n^r)``;
* verbal claims without a formula ("linear convergence rate", "polynomial-time algorithm").

The words around a bound decide its ``kind`` refinements (tight, order), its ``attribution``
(prior work or this paper), its ``quantity`` and its ``condition`` ("when $|A| = \\exp(\\Omega(d))$"
qualifies the bound before it and is not a bound). All rules live in
``extractors/patterns/bounds_*.jsonl``, one id per rule.

The ``quantity`` is the noun phrase the math is attached to, in order of evidence: a symbol the
abstract defines ("$n = \\Omega(d)$" where "$n$ is the number of samples"), adjacent after ("$X$
regret"), what the formula is said to bound right after it ("$X$ lower bound on the regret", "$X$
stochastic gradient and Hessian-vector products" → oracle complexity) or the subject of a rate verb
before it ("the loss converges as $X$"), adjacent before ("regret of $X$", "in time $X$", "a
sample of size $X$", "gradient (i.e., SFO) complexity of $X$"), a counted plural right after ("$X$
tests" → "number of tests"), what a bound is said to be on earlier in the sentence ("their bound on
the estimation error … is $X$", "bounds on the number of states"), then the sentence; a vague
"rate" or "complexity" with nothing more specific in its sentence is the quantity of the bound
before (two sentences back at most), then the previous bound and the abstract's first quantity.
"where" clauses that define symbols, quantity words used as modifiers ("loss function") and
"number of" phrases naming a variable ("polynomial in the number of states") are skipped. The
``attribution`` is ``prior`` on earlier-work cues (words, citations such as "(Name, 2018)" or "[UAI
2020]", a reference named right before the math: "analogous to the", "matching the", "the standard";
"suffers", unless any method or this paper's does; "$X$ is known"; "$X$ of SAGA" when the abstract
does not introduce SAGA), read in the clause of the formula (a semicolon closes one).

Structure before lists (v4): a generic head noun ("complexity", "violation", "divergence",
"distance", "discrepancy", "radius") takes the noun modifying it, whatever it is ("teaching
complexity", "constraint violation"), so quantities no table lists are still named; formulas joined
by "and"/"or" share the quantity named after the last; a formula opening a parenthesis restates the
noun phrase before it ("polynomial time ($X$)"); a repeated formula keeps its first quantity unless
a specific one follows it. A clause with no subject of its own (in the parse) continues the clause
of the bound before and keeps its attribution ("…, both of which achieved $X$, and achieved $Y$").

Clauses and predicates (v5), for what v4 still named from the nearest noun or the last cue word:
the subject of a predicate stating a size ("the worst-case sample complexity of our algorithm … is
upper bounded by $X$", a relative clause's antecedent: "running time that is $X$", a coordinated
complement: "its regret is at most $A$ …, and at most $B$") names the quantity, even of a repeated
formula; "improves <quantity> … from $A$ to $B$" bounds the verb's object; a unit after a formula
("$X$ bits") measures a quantity named right before it ("information complexity at least $X$
bits"); a formula between commas restates the phrase before it ("near linear time, $X$,");
"converging at a rate of $X$" is a convergence rate; modifiers may sit before a counted noun
("$X$ random projections"); a plural quantity word counts next to a formula ("runtimes $X$").
Cues of a predicate coordinated before the formula's own speak of that predicate ("… improves upon
the state of the art and achieves $X$"); the object of an improving verb is prior ("improves the
sublinear rate $X$"); a bound stated with no cue before the abstract first speaks of itself is
background (prior); "prior to this work" is prior, "in this case" and "if $Q$ is known" are no cues;
"the $X$ lower bound established in this paper" is this paper's.

One grain for quantities (v6): a rule phrase that names itself ("regret", "error", "sample
complexity") keeps the words the parse attaches to it as modifiers that say which quantity it is
("Nash regret", "expected regret", "Bayesian regret", "calibration error", "full swap regret", a
qualifier in parentheses: "optimal (dynamic) regret"); words that describe the bound or its regime
instead ("optimal", "minimax", "worst-case", "high-probability", "gap-dependent", "private",
"$T$-round") are skipped ("worst case regret" is regret), a
symbol between qualifiers is skipped and never named ("expected $\\ell_2$ error"), and the formula
itself is never a qualifier ("attains $X$ regret"). A convergence rate keeps none (its modifiers,
"accelerated", "last-iterate", describe the method). Without a parse the rule's quantity stays.
"$X$ bits of space" (memory, storage) is a space complexity and "of communication" a
communication complexity; a resource noun naming a bound before the formula names its quantity
("communication lower bounds of $X$", "our space lower bound is $X$"). "expected regret",
"pseudo-regret" and "expected reward" name themselves; a mistake count is a "mistake bound".

v7: a phrase names itself up to hyphens, plurals and a unit after it ("sample complexities",
"error rate" for error), so it takes qualifiers too, also those the parse hangs on the noun after it
("an expected regret bound"); a two-word phrase written hyphenated is the phrase
("iteration-complexity"); a lone "complexity" with no bound before it to refer to is the
complexity the abstract named last ("we analyze the sample complexity … we require $X$
complexity"); "$X$-competitive" and "competitiveness" are a competitive ratio.

v8, tuned on batch K: the object of an improving verb before "to" names the formula after it ("we
reduce the space to $X$ and the time to $Y$"); a resource word right before a formula ("requires
space $X$ or $Y$ time") outranks the quantity formulas joined by "or" share; a phrase followed by a
one-symbol formula names that symbol ("a VC dimension $d$ class", "total variation distance
$\alpha$") and is passed over in the sentence; "convergence" right after a formula is a
convergence rate ("$O(1/T)$ average-iterate convergence").

v9: a "number of" phrase ends at a verb or a modal ("the number of neurons must be at least $X$");
a hyphenated word whose first part describes the bound is skipped ("best-known regret"); "$X$
mistakes" counts a number of mistakes.

v10, kind: a bound is tight when the next sentence opens on a reference to the bounds before it
and calls them tight, unhedged ("… of order $X$. Those rates are optimal in the sense that they
cannot be improved"; "This bound is nearly tight" is no cue), and "known to be tight" after the
formula is a tight cue.

v11, tuned on batch M: a starred head (``O^*``, ``O^\\ast``, ``\\Omega^{*}``) hides
polylogarithmic factors as a tilde does (soft); "necessary and sufficient" after a formula makes
it tight; "converge(s) as $X$" states an order; "the first known" claims rather than cites, and a
formula right before "conjecture" is prior; "in expectation" right after a bound on a regret,
risk, error, loss or cost makes it the expected one ("samples in expectation" stay a sample
complexity); "total variation distance" is one name ("total" otherwise describes the bound).

v12, tuned on batch N: a sized plural is named in the singular ("networks of size $X$" bound the
network size); "$X$ approximation(s)" bounds an approximation ratio; "so long as" opens a regime.

v13, tuned on batch O: an acronym the abstract defines names the quantity a bound on it bounds
("the recursive teaching dimension (RTD) … $\\mathrm{RTD}(\\mathcal C) = O(d^2)$").

v14, tuned on batch Q: gradients counted alone ("$X$ stochastic gradient evaluations", "gradient
computations", "gradient complexity") are a gradient complexity, as the gold names them; a
Hessian, a function value or an oracle among the counted things, or calls and queries, keep the
oracle complexity. "duality gap", "primal-dual gap", "strong gap" and "weak gap" are quantities
("gap" alone is not: on the gold it took the regret bounds of abstracts about an arm's gap), and
a noun before "dimension" names one ("Natarajan dimension"). A reference to the bound later in its
own sentence that calls it tight makes it tight ("…, and that this bound is tight"). "sub-linear"
describes the bound. A growth word between a resource verb and its
resource still names the resource ("in nearly-linear time $X$"). "an upper bound of $X$ on the
loss" bounds the loss. "from a rate of $A$ to $B$": $A$ is the earlier rate.

v15, tuned on batch R: a resource before "at least" or "at most" still names the formula after
("takes time at least $X$"); "$X$-robustness" bounds a robustness ("$X$-consistency" does not
name one: in "$\\sqrt{n}$-consistency" it states a statistical rate); "aligned with the" and
"consistent with the" before a formula point to a reference bound, as "matching the" does; "from
$A$ for PC-PG to $B$": the earlier value may be followed by what it belongs to.

v16, tuned on batch T (the first records of the other venues): authors' macros for the heads
(``\\Ot``, ``\\Otil``, ``\\bigOtil``, ``\\tlO`` for Õ; ``\\O``, ``\\mO``, ``\\OM`` for O;
``\\bigomega``) and a tilde whose O was dropped ("$\\widetilde(\\sqrt{kT})$") are heads; "is lower
bounded by $X$" is no improvement amount; a matrix or Lie group ("the $SO(3)$ space") is no formula.
A count of parameters, variables or constraints is a quantity ("$O(1)$ parameters"), "comparisons"
are a number of comparisons, "sample transitions" a sample complexity, and "the $O(N \\log N)$ FFT
algorithm" states a running time; "$X$ per-step cost" is a per-step cost. Attaining a known value is
a claim ("SGD can achieve the fastest known $X$"); a later item of an enumeration ("…: (i) … $A$,
and (ii) … $B$") keeps the attribution of the item before; "…, and show that this is the best
possible", and a next sentence opening on "A matching … lower bound", make the bound tight;
"exceeding $X$" states a lower bound.

v17, tuned on batch U: the lower-case macros ``\\otilde`` and ``\\otil`` (Õ) and ``\\order`` (O) are
heads, and a tilde whose brace never closes before the parenthesis
("$\\widetilde{O(m/\\epsilon^2)$") still reads as Õ.

v18, tuned on batches V and W: ``\\l(`` … ``\\r)`` are an author's ``\\left(`` … ``\\right)``; a
participle after a comma ("… improves upon the original regret bound …, achieving a regret of $X$")
opens the clause the attribution reads, so the earlier work named before it does not make $X$ prior;
"a rate of $O(X)$ is not (generally) attainable" bounds the rate from below.

v19, tuned on batch X: a math span listing symbols with an ellipsis item ("$f^1, f^2, \\ldots,
f^n$", "$X_1,X_2,\\ldots$"; none of the 43 such spans of the gold is a bound, a sum "$n_1 + \\cdots
+ n_k$" still is) and a word set in math ("given $iid$ observations") are no bounds.

The extractor reads ``parsed.paper.abstract`` and ``parsed.norm.math``; ``parsed.doc`` (the spaCy
parse) names the ``subject``, tells plural nouns from verbs after a formula ("$X$ tests" vs
"$X$ holds") and noun modifiers from adjectives, and finds clause subjects; it may be ``None`` (a
word-shape test replaces it, and clauses are not continued). Every scan is linear: tokens are
visited once, parentheses matched with a stack, and no regular expression can backtrack.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from extractors import latex
from extractors.base import ParsedPaper
from extractors.canonical import acronym_singular, read_rules, singularize
from kg.text import MATH_PLACEHOLDER, NormalizedText, find_math
from kg.types import Bound, MathSpan, Mention

NAME = "bounds.latex.v31"

# Wrappers that may surround the letter of an asymptotic head: \mathcal{O}, \widetilde{\Omega} …
_FONT_WRAPPERS = frozenset(
    "mathcal mathrm mathbf mathsf mathit operatorname cal rm text boldsymbol bm mc smash mathstrut".split()
)
_SOFT_WRAPPERS = frozenset(("tilde", "widetilde", "Tilde", "Widetilde"))
# ("\\l(" … "\\r)": an author's short macros for \\left( … \\right), v18)
_HEAD_SKIP = frozenset("left l big Big bigg Bigg bigl Bigl biggl Biggl , ! ; : displaystyle mleft lp".split())
_MAX_WRAPPERS = 4  # \widetilde{\mathcal{O}} has two; a cap keeps adversarial nesting linear
_COMBINING_TILDE = "\u0303"
# Norm and function-space names: "$L^p$ error", "$\ell_2$ boundedness" are not formulas.
_SPACE_NAMES = frozenset(("L", "ell", "l", "H", "W", "C"))
# Matrix and Lie group names applied to a dimension: SO(3), SU(2), SE(3), GL(n), Sp(2n).
_GROUP_NAME = re.compile(r"(?:SO|SU|SE|GL|SL|PSL|PGL|Sp|Spin)\(\w{1,3}\)$")
_MAX_BARE_ARG = 240  # characters in the argument of a bound written outside math
# A word of text: letters (with inner hyphens/apostrophes), a number, or one other character.
_WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*[A-Za-z]|[A-Za-z]|[0-9]+(?:\.[0-9]+)?|\S")
_TEXT_ONLY = re.compile(r"\\(?:textit|textbf|text|emph|mathrm|textrm)\{[A-Za-z][A-Za-z \-]*\}")
_HYPHENS = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2019": "'"})
_QUANTITY_SYMBOLS = (
    "R_",
    "R(",
    "\\mathrm{Reg",
    "\\text{Reg",
    "\\operatorname{Reg",
    "Reg",
    "\\mathcal{R}",
    "\\mathbb{E}",
    "\\mathbb E",
    "\\|",
    "\\lVert",
    "\\mathcal{E}",
    "\\mathcal{L}",
    "\\mathrm{err",
    "\\operatorname{err",
    "\\text{err",
    "\\mathrm{KL",
    "\\mathrm{TV",
    "\\mathsf{Reg",
    "\\textsc{Reg",
    "\\mathfrak{R",
    "\\mathrm{Risk",
    "\\mathcal{E}",
)
_SENTENCE_ABBREV = frozenset(
    ("al", "e.g", "i.e", "eg", "ie", "etc", "vs", "cf", "fig", "eq", "resp", "approx")
)


Phrase = tuple[str, ...]


class _Phrases:
    """Word phrases indexed by their first and last word: a lookup costs O(1) per position.

    Matching every phrase at every word would make a 100 kB abstract take seconds; the index keeps
    the scan linear in the number of words.
    """

    def __init__(self, phrases: Iterable[Phrase]) -> None:
        by_first: dict[str, list[Phrase]] = {}
        by_last: dict[str, list[Phrase]] = {}
        for phrase in sorted(set(phrases), key=lambda p: (-len(p), p)):
            by_first.setdefault(phrase[0], []).append(phrase)
            by_last.setdefault(phrase[-1], []).append(phrase)
        self.by_first = by_first
        self.by_last = by_last

    def at(self, words: list[_Word], k: int, keep: Callable[[Phrase], bool] | None = None) -> Phrase | None:
        """The longest phrase starting at ``words[k]`` (that ``keep`` accepts)."""
        if k < 0 or k >= len(words):
            return None
        for phrase in self.by_first.get(words[k].text, ()):
            if _match_at(words, k, phrase) and (keep is None or keep(phrase)):
                return phrase
        return None

    def ending(
        self, words: list[_Word], end: int, lo: int = 0, keep: Callable[[Phrase], bool] | None = None
    ) -> Phrase | None:
        """The longest phrase ending just before ``words[end]`` and starting at or after ``lo``."""
        if end - 1 < max(lo, 0) or end - 1 >= len(words):
            return None
        for phrase in self.by_last.get(words[end - 1].text, ()):
            if _ends_with(words, end, phrase, lo) and (keep is None or keep(phrase)):
                return phrase
        return None


_NO_PHRASES = _Phrases(())


@dataclass(frozen=True, slots=True)
class _Rules:
    heads: dict[str, tuple[str, str, bool, str]]  # head → (notation, kind, soft, rule id)
    relations: dict[str, tuple[str, str, str]]  # expr relation → (notation, kind, rule id)
    cues: dict[tuple[str, str], _Phrases]  # (role, where) → phrases
    quantities: _Phrases
    quantity_of: dict[Phrase, tuple[str, str]]  # phrase → (quantity, rule id)
    after_only: frozenset[Phrase]  # phrases that name a quantity only right after a formula
    adjacent_only: frozenset[Phrase]  # … only right after or at most three words before
    name_only: frozenset[Phrase]  # phrases that name a quantity but never make a formula a claim
    sentence_first: frozenset[Phrase]  # "rate": the rate of what the sentence names, if it names one
    verbal: _Phrases
    verbal_of: dict[Phrase, tuple[str, str | None, str]]  # phrase → (kind, quantity, rule id)
    vague_ids: frozenset[str]  # rule ids of the sentence_first phrases: a quantity that names nothing
    families: dict[str, str]  # quantity name → its family ("expected regret" → "regret"), else itself

    def cue(self, role: str, where: str = "before") -> _Phrases:
        return self.cues.get((role, where), _NO_PHRASES)


def _words(phrase: str) -> tuple[str, ...]:
    return tuple(w.lower() for w in _WORD.findall(phrase.translate(_HYPHENS)))


@lru_cache(maxsize=1)
def rules() -> _Rules:
    """The rule tables, read once from ``extractors/patterns/bounds_*.jsonl``."""
    heads: dict[str, tuple[str, str, bool, str]] = {}
    relations: dict[str, tuple[str, str, str]] = {}
    for row in read_rules("bounds_notation.jsonl"):
        if "head" in row:
            heads[row["head"]] = (row["notation"], row["kind"], bool(row.get("soft", False)), row["id"])
        else:
            relations[row["relation"]] = (row["notation"], row["kind"], row["id"])
    cue_lists: dict[tuple[str, str], list[Phrase]] = {}
    for row in read_rules("bounds_cues.jsonl"):
        cue_lists.setdefault((row["role"], row["where"]), []).append(_words(row["phrase"]))
    rows = read_rules("bounds_quantities.jsonl")
    quantity_of = {_words(r["phrase"]): (r["quantity"], r["id"]) for r in rows}
    for phrase, value in list(quantity_of.items()):
        # "iteration-complexity", "sample-size": a two-word phrase hyphenated is one word
        if len(phrase) == 2:
            quantity_of.setdefault(("-".join(phrase),), value)
    after_only = frozenset(_words(r["phrase"]) for r in rows if r.get("after_only"))
    adjacent_only = frozenset(_words(r["phrase"]) for r in rows if r.get("adjacent_only"))
    name_only = frozenset(_words(r["phrase"]) for r in rows if r.get("name_only"))
    sentence_first = frozenset(_words(r["phrase"]) for r in rows if r.get("sentence_first"))
    families = {r["quantity"].lower(): r["quantity"].lower() for r in rows}
    families.update((r["quantity"].lower(), r["family"].lower()) for r in rows if "family" in r)
    verbal_of = {
        _words(r["phrase"]): (r["kind"], r.get("quantity"), r["id"])
        for r in read_rules("bounds_verbal.jsonl")
    }
    return _Rules(
        heads,
        relations,
        {key: _Phrases(v) for key, v in cue_lists.items()},
        _Phrases(quantity_of),
        quantity_of,
        after_only,
        adjacent_only,
        name_only,
        sentence_first,
        _Phrases(verbal_of),
        verbal_of,
        frozenset(quantity_of[p][1] for p in sentence_first),
        families,
    )


# --------------------------------------------------------------------------------------------
# Words of the abstract, with every formula (math span or bare bound) as one opaque word.


@dataclass(slots=True)
class _Word:
    text: str  # lowercased, hyphens unified; "\x00" for a formula
    start: int
    end: int
    formula: int = -1  # index into the formula list, or -1


def _tokenize_words(abstract: str, opaque: list[tuple[int, int]]) -> list[_Word]:
    """Words of ``abstract`` with each ``opaque`` span (sorted, disjoint) as one formula word."""
    words: list[_Word] = []
    # An ASCII abstract (most) has no hyphen to unify and lowers character by character, so it
    # is lowered once; otherwise word by word (case rules such as a final sigma see one word).
    low = abstract.lower() if abstract.isascii() else None

    def add(lo: int, hi: int) -> None:
        for m in _WORD.finditer(abstract, lo, hi):
            a, b = m.span()
            words.append(_Word(low[a:b] if low is not None else m.group().translate(_HYPHENS).lower(), a, b))

    pos = 0
    for idx, (start, end) in enumerate(opaque):
        add(pos, start)
        words.append(_Word("\x00", start, end, idx))
        pos = end
    add(pos, len(abstract))
    return words


def _sentence_ids(abstract: str, words: list[_Word]) -> list[int]:
    """Sentence number of every word: a break after . ? ! before a capital, a formula or the end."""
    ids: list[int] = []
    sent = 0
    for k, w in enumerate(words):
        ids.append(sent)
        if w.text in (".", "?", "!") and k + 1 < len(words):
            nxt = words[k + 1]
            prev = words[k - 1].text if k > 0 else ""
            if prev in _SENTENCE_ABBREV:
                continue
            if len(prev) == 1 and prev.isalpha() and prev != "a":
                # an initial ("J. Smith") or the end of "i.e." / "e.g."; but a variable written
                # out ends a sentence: "depend only on the rank d. For the stochastic model" (v25)
                initial = abstract[words[k - 1].start].isupper()
                if initial or (k >= 2 and words[k - 2].text == "."):
                    continue
            first = abstract[nxt.start]
            if first.isupper() or nxt.formula >= 0 or first.isdigit() and w.text == ".":
                sent += 1
    return ids


def _match_at(words: list[_Word], k: int, phrase: tuple[str, ...]) -> bool:
    if k < 0 or k + len(phrase) > len(words):
        return False
    return all(words[k + i].text == p for i, p in enumerate(phrase))


def _ends_with(words: list[_Word], end: int, phrase: tuple[str, ...], lo: int) -> bool:
    """Whether ``phrase`` occupies ``words[end-len(phrase):end]`` at or after ``lo``."""
    start = end - len(phrase)
    return start >= lo and _match_at(words, start, phrase)


# --------------------------------------------------------------------------------------------
# Formulas: candidate bounds found in math spans and in the bare text.


@dataclass(slots=True)
class _Formula:
    start: int  # the located text: a math span's delimiters, or a bare bound
    end: int
    pieces: list[_Piece] = field(default_factory=list)

    @property
    def has_bound(self) -> bool:
        """Whether a piece is a bound (not only a condition such as "$d>1$")."""
        return any(p.role == "bound" for p in self.pieces)


@dataclass(slots=True)
class _Piece:
    """One segment of a formula: a bound, a condition, or an expression that words may claim."""

    role: str  # "bound" | "condition" | "expression" | "relation"
    start: int  # offsets of the segment in the original abstract (trimmed)
    end: int
    notation: str = ""
    kind: str = ""
    soft: bool = False
    expr: str = ""
    variables: tuple[str, ...] = ()
    rule: str = ""
    has_lhs: bool = False
    quantity_symbol: bool = False
    formula_like: bool = False
    bare: bool = False


def _read_head(
    tokens: list[latex.Token], k: int, heads: dict[str, Any], pairs: dict[int, int] | None = None
) -> tuple[str, bool, int] | None:
    """Parse an asymptotic head at ``tokens[k]``: ``(head, soft, index of its "(")`` or None.

    Accepts wrappers with or without braces (``\\widetilde{\\mathcal{O}}``, ``\\tilde O``,
    ``\\mathcal O``), a subscript (``O_P``), sizing commands and a combining tilde (``Ω̃``).
    """
    n = len(tokens)
    soft = False
    opened = 0
    j = k
    while (
        j < n
        and j - k < 3 * _MAX_WRAPPERS
        and tokens[j].kind == latex.CMD
        and (tokens[j].text in _FONT_WRAPPERS or tokens[j].text in _SOFT_WRAPPERS)
    ):
        soft = soft or tokens[j].text in _SOFT_WRAPPERS
        j += 1
        while j < n and tokens[j].kind == latex.SPACE:
            j += 1
        if j < n and tokens[j].kind == latex.OPEN and tokens[j].text == "{":
            opened += 1
            j += 1
    if j >= n:
        return None
    tok = tokens[j]
    if soft and j > k and tok.kind == latex.OPEN and tok.text == "(" and not opened:
        return "Õ", soft, j  # "\\widetilde(\\max\\{…\\})": the O dropped under its tilde (v16)
    head = tok.text if tok.kind in (latex.CHAR, latex.CMD) else ""
    if head not in heads or head == "omega" and tok.kind != latex.CMD:
        return None
    if head in ("o", "Õ", "Ω", "Θ", "ω") and tok.kind != latex.CHAR:
        return None
    j += 1
    if j < n and tokens[j].text == _COMBINING_TILDE:
        soft = True
        j += 1
    while opened and j < n and tokens[j].kind == latex.CLOSE and tokens[j].text == "}":
        opened -= 1
        j += 1
    if opened and not (j < n and tokens[j].text == "(" and tokens[j].kind == latex.OPEN):
        return None  # but "\\widetilde{O(m/\\epsilon^2)$", its brace never closed, still reads (v17)
    # O^*(…), O^{\ast}(…): the star hides polylogarithmic factors, as the tilde does (v11)
    star = _star_superscript(tokens, j)
    if star:
        soft = True
        j += star
    # O_P(1), O_{\mathbb{P}}(…): skip one subscript
    if j < n and tokens[j].text == "_":
        j += 1
        if j < n and tokens[j].kind == latex.OPEN and tokens[j].text == "{":
            if pairs is None or j not in pairs:
                return None
            j = pairs[j] + 1
        else:
            j += 1
    while j < n and (
        tokens[j].kind == latex.SPACE or tokens[j].kind == latex.CMD and tokens[j].text in _HEAD_SKIP
    ):
        j += 1
    if j < n and tokens[j].kind == latex.OPEN and tokens[j].text in ("(", "["):
        return head, soft, j
    if j < n and tokens[j].kind == latex.CMD and tokens[j].text in ("lbrace", "{"):
        return head, soft, j
    return None


def _star_superscript(tokens: list[latex.Token], j: int) -> int:
    """How many tokens a star superscript at ``tokens[j]`` spans (``^*``, ``^\\ast``, ``^{*}``,
    ``^{\\ast}``, ``^\\star``), 0 for none."""
    n = len(tokens)
    if j + 1 >= n or tokens[j].text != "^":
        return 0
    if _is_star(tokens[j + 1]):
        return 2
    braced = tokens[j + 1].kind == latex.OPEN and tokens[j + 1].text == "{"
    if braced and j + 3 < n and _is_star(tokens[j + 2]) and tokens[j + 3].kind == latex.CLOSE:
        return 4
    return 0


def _is_star(tok: latex.Token) -> bool:
    return tok.kind == latex.CHAR and tok.text == "*" or tok.kind == latex.CMD and tok.text in ("ast", "star")


def _is_letter(tok: latex.Token) -> bool:
    return tok.kind == latex.CHAR and tok.text.isalnum()


def _analyse_math(abstract: str, span: MathSpan, r: _Rules) -> list[_Piece]:
    """Split a math span into top-level segments and classify each (one pass over its tokens)."""
    tokens = latex.tokenize(abstract, span.body_start, span.body_end)
    pairs = latex.match_parens(tokens)
    n = len(tokens)
    segments: list[
        tuple[
            int,
            int,
            list[tuple[int, int, int, str, bool]],
            list[tuple[int, str]],
            list[tuple[str, bool, bool]],
        ]
    ] = []
    heads: list[tuple[int, int, int, str, bool]] = []  # (head tok, open tok, close tok, head, soft)
    relations: list[tuple[int, str]] = []  # (token index, normal-form relation)
    nested: list[tuple[str, bool, bool]] = []  # heads inside groups: (head, soft, in a negative exponent)
    seg_start = 0
    k = 0
    depth_until: list[int] = []  # close indices of open groups
    while k < n:
        while depth_until and k > depth_until[-1]:
            depth_until.pop()
        tok = tokens[k]
        top = not depth_until
        if (
            tok.kind == latex.CMD
            and (tok.text in _FONT_WRAPPERS or tok.text in _SOFT_WRAPPERS)
            or tok.kind in (latex.CHAR, latex.CMD)
            and tok.text in r.heads
        ):
            prev_ok = k == 0 or not _is_letter(tokens[k - 1]) or tokens[k - 1].end != tok.start
            found = _read_head(tokens, k, r.heads, pairs) if prev_ok else None
            if found is not None and top:
                head, soft, open_k = found
                close_k = pairs.get(open_k, n)
                heads.append((k, open_k, close_k, head, soft))
                k = close_k + 1
                continue
            if found is not None:
                # n^{O(1)}, 2^{n^{\Omega(1)}}: a head inside a group; n^{-\Omega(x)} bounds from above
                j = k - 1
                while j >= 0 and tokens[j].kind == latex.SPACE:
                    j -= 1
                nested.append((found[0], found[1], j >= 0 and tokens[j].text == "-"))
        if top:
            rel = _relation(tokens, k)
            if rel is not None:
                relations.append((k, rel[0]))
                k = rel[1]
                continue
            connective = (
                tok.kind == latex.CMD
                and tok.text in ("text", "textrm", "mbox")
                and _is_text_connective(abstract, tokens, k, pairs)
            )
            if (
                connective
                or tok.kind == latex.CHAR
                and tok.text in ",;"
                or tok.kind == latex.CMD
                and tok.text in ("quad", "qquad")
            ):
                segments.append((seg_start, k, heads, relations, nested))
                heads, relations, nested = [], [], []
                k = pairs.get(k + 1, k) + 1 if connective else k + 1
                seg_start = k
                continue
        if tok.kind == latex.OPEN or tok.kind == latex.CMD and tok.text in ("{", "lbrace"):
            close = pairs.get(k)
            if close is not None:
                depth_until.append(close)
        k += 1
    segments.append((seg_start, n, heads, relations, nested))
    pieces = []
    for a, b, seg_heads, seg_rels, seg_nested in segments:
        piece = _classify_segment(abstract, tokens, a, b, seg_heads, seg_rels, seg_nested, r)
        if piece is not None:
            pieces.append(piece)
    return pieces


def _is_text_connective(abstract: str, tokens: list[latex.Token], k: int, pairs: dict[int, int]) -> bool:
    """``\\text{ and }`` / ``\\text{ for }`` inside math separates two statements."""
    if k + 1 >= len(tokens) or tokens[k + 1].text != "{":
        return False
    close = pairs.get(k + 1)
    if close is None:
        return False
    words = abstract[tokens[k + 1].end : tokens[close].start].strip().lower()
    return words in ("and", "or", "for", "when", "if", "where", "while", "with", "and for", "for all")


def _relation(tokens: list[latex.Token], k: int) -> tuple[str, int] | None:
    """The relation at ``tokens[k]`` and the index after it, or None."""
    tok = tokens[k]
    if tok.kind == latex.CMD and tok.text in latex.RELATION_COMMANDS:
        return latex.RELATION_COMMANDS[tok.text], k + 1
    if tok.kind == latex.CHAR and tok.text in latex.RELATION_CHARS:
        rel = latex.RELATION_CHARS[tok.text]
        if rel in ("<", ">") and k + 1 < len(tokens) and tokens[k + 1].text == "=":
            return rel + "=", k + 2
        return rel, k + 1
    return None


def _trim(tokens: list[latex.Token], a: int, b: int) -> tuple[int, int]:
    """Token range without surrounding spaces, spacing commands and stray punctuation."""
    while a < b and (
        tokens[a].kind == latex.SPACE
        or tokens[a].kind == latex.CMD
        and tokens[a].text in (",", "!", ";", ":", "quad", "qquad", "displaystyle")
    ):
        a += 1
    while b > a and (
        tokens[b - 1].kind == latex.SPACE
        or tokens[b - 1].text in (".", ",", ";")
        or tokens[b - 1].kind == latex.CMD
        and tokens[b - 1].text in (",", "!", ";", ":", "quad")
    ):
        b -= 1
    return a, b


def _classify_segment(
    abstract: str,
    tokens: list[latex.Token],
    a: int,
    b: int,
    heads: list[tuple[int, int, int, str, bool]],
    rels: list[tuple[int, str]],
    nested: list[tuple[str, bool, bool]],
    r: _Rules,
) -> _Piece | None:
    a, b = _trim(tokens, a, b)
    if a >= b:
        return None
    start, end = tokens[a].start, tokens[b - 1].end
    kept_rels = [(k, rel) for k, rel in rels if rel not in ("->",)]
    member = [(k, rel) for k, rel in kept_rels if rel in ("in", "notin", "subset", "subseteq", "!=")]
    if member and not (len(member) == 1 and member[0][1] == "in" and any(h[0] > member[0][0] for h in heads)):
        return None  # membership and ranges define variables: $\alpha \in [0,1]$
    # …but $H(f)/h(f) \in \Theta(1)$ places a quantity in an asymptotic class: a bound
    first_rel = kept_rels[0] if kept_rels else None
    has_lhs = first_rel is not None and _trim(tokens, a, first_rel[0])[0] < first_rel[0]
    if heads:
        # the head after the last relation states the bound: R_T = \tilde O(…), n \ge \Omega(…)
        after = [h for h in heads if first_rel is None or h[0] > kept_rels[-1][0]] or heads
        hk, open_k, close_k, head, soft_wrap = after[0]
        notation, kind, soft, rule = r.heads[head]
        soft = soft or soft_wrap
        j = hk - 1
        while j > a and tokens[j].kind == latex.SPACE:
            j -= 1
        lead = first_rel[0] + 1 if first_rel is not None and first_rel[0] < hk else a
        if kind == "upper" and j > lead and tokens[j].text == "-":
            kind = "lower"  # $\mu T - o(T)$: a main term minus a lower-order one bounds from below
        if len(heads) == 1 and close_k >= b - 1 and open_k + 1 < len(tokens):
            arg_end = tokens[close_k].start if close_k < len(tokens) else tokens[b - 1].end
            arg = abstract[tokens[open_k].end : arg_end]
        else:
            arg = abstract[tokens[hk].start : end]
        expr, variables = latex.to_expr(arg)
        if not _has_variable(variables) and expr != "1":
            return None  # "the $\tilde O(\cdot)$ notation hides …" names the notation, claims nothing
        return _Piece(
            "bound",
            start,
            end,
            notation,
            kind,
            soft,
            expr,
            variables,
            rule,
            has_lhs,
            _lhs_is_quantity(abstract, tokens, a, first_rel[0]) if first_rel else False,
            True,
        )
    if first_rel is not None:
        rel = first_rel[1]
        rhs_start = first_rel[0] + 1
        while rhs_start < b and tokens[rhs_start].text in ("=",):
            rhs_start += 1
        rhs = abstract[tokens[rhs_start].start : end] if rhs_start < b else ""
        expr, variables = latex.to_expr(rhs)
        if rel not in r.relations:
            return _Piece("relation", start, end, expr=expr, variables=variables, has_lhs=has_lhs)
        notation, kind, rule = r.relations[rel]
        if rel in ("~", "~=") and _is_distribution(rhs):
            return None  # $\xi \sim \mathcal{N}(0,1)$: a draw, not a scaling
        if not _has_variable(variables):
            return None  # u < +\infty, t \ge 0, \beta > 1/2: ranges and assumptions
        chain = {rel, kept_rels[1][1]} if len(kept_rels) >= 2 else set()
        if chain and (chain <= {"<", "<="} or chain <= {">", ">="}):
            lhs_expr, lhs_vars = latex.to_expr(abstract[tokens[a].start : tokens[first_rel[0]].start])
            if lhs_expr and not _has_variable(lhs_vars):
                return None  # $0<\delta<1/2$: a constant on the left, a range of a parameter
        lhs_q = _lhs_is_quantity(abstract, tokens, a, first_rel[0])
        return _Piece(
            "relation",
            start,
            end,
            notation,
            kind,
            False,
            expr,
            variables,
            rule,
            has_lhs,
            lhs_q,
            _formula_like(expr, variables),
        )
    if nested:
        head, soft, negative = nested[0]
        notation, kind, soft_head, rule = r.heads[head]
        if negative:
            kind = {"upper": "lower", "lower": "upper"}.get(kind, kind)
        expr, variables = latex.to_expr(abstract[start:end])
        return _Piece(
            "bound",
            start,
            end,
            notation,
            kind,
            soft or soft_head or any(x[1] for x in nested),
            expr,
            variables,
            rule + ".nested",
            False,
            False,
            True,
        )
    if _TEXT_ONLY.fullmatch(abstract, start, end):
        return None  # "$\textit{or}$": a word typeset in math mode
    expr, variables = latex.to_expr(abstract[start:end])
    if not _has_variable(variables):
        return None
    return _Piece(
        "expression", start, end, expr=expr, variables=variables, formula_like=_formula_like(expr, variables)
    )


# An optional subscript of a symbol: "_0", "_{in}".
_SUBSCRIPT = r"(?:\s*_\s*(?:\{[A-Za-z0-9]+\}|[A-Za-z0-9]))?"
# "$n = \Theta(q\log p)$", "$n \ge \Omega(d)$": a single symbol on the left of a relation
_LHS_SYMBOL = re.compile(
    r"\s*([A-Za-z]" + _SUBSCRIPT + r")\s*"
    r"(?:=|<|>|\\(?:leq?|geq?|lesssim|gtrsim|sim|asymp|approx)(?![A-Za-z]))"
)
# A left side naming a quantity by an acronym: "\mathrm{RTD}(\mathcal C) = O(d^2)", "VCD = O(d)"
_LHS_ACRONYM = re.compile(
    r"\s*(?:\\(?:mathrm|text|operatorname|textsf|mathsf)\s*\{\s*)?([A-Z][A-Z0-9]{1,7})(?![A-Za-z])\s*\}?\s*"
    r"(?:\([^()=]*\))?\s*(?:=|\\(?:leq?|geq?|lesssim|gtrsim)(?![A-Za-z])|<|>)"
)
# A symbol as a math span of its own: "$n$", "$d_{in}$", "$T_0$"
_SYMBOL = re.compile(r"[A-Za-z]" + _SUBSCRIPT)
# "\cN(0, \sigma^2)", "\cD": a calligraphic letter written with a paper's own macro
_CAL_MACRO = re.compile(r"\\c[A-Z](?![A-Za-z])")
_DIST_PREFIXES = (
    "\\mathcal",
    "\\mathrm",
    "\\operatorname",
    "\\text",
    "\\mathsf",
    "\\mathbb",
    "\\mathbf",
    "\\mathscr",
    "\\cal",
    "\\rm",
)


def _is_distribution(rhs: str) -> bool:
    """Whether the right side of ``\\sim`` names a distribution: ``\\mathcal{N}(0,1)``, ``Ber(p)``."""
    text = rhs.strip()
    if text.startswith(_DIST_PREFIXES) or _CAL_MACRO.match(text):
        return True
    i = 0
    while i < len(text) and text[i].isalpha():
        i += 1
    word = text[:i]
    rest = text[i:].lstrip()
    return (
        bool(word) and word not in latex.FUNCTIONS and (rest[:1] in ("(", "[") or len(word) > 1 and not rest)
    )


def _has_variable(variables: tuple[str, ...]) -> bool:
    return any(v not in ("infty",) for v in variables)


def _formula_like(expr: str, variables: tuple[str, ...]) -> bool:
    """More than one symbol: an operator, a function, or two variables (not ``L^p``, ``\\ell_2``)."""
    if expr.startswith("(") and expr.endswith(")") and "," in expr:
        return False  # a tuple of symbols: "the cumulative rates $(\\Lambda^A_t, \\Lambda^B_t)$"
    base = expr.split("^", 1)[0].split("_", 1)[0]
    if base in _SPACE_NAMES and len(expr) <= len(base) + 4:
        return False
    if _GROUP_NAME.match(expr):
        return False  # "the rotational group $SO(3)$", "$\\mathrm{GL}(n)$": a group, not a size (v16)
    if expr.replace(".", "").replace(" ", "") in _MATH_WORDS:
        return False  # "given $iid$ observations": a word set in math, not a product (v19)
    if any(op in expr for op in ("+", "/", "sqrt", "log", "exp", "*", "(", "^")):
        return True
    return len(variables) >= 2


def _lhs_is_quantity(abstract: str, tokens: list[latex.Token], a: int, rel_k: int) -> bool:
    """Whether the left side names a bounded quantity: ``R_T``, ``\\mathrm{Reg}``, ``\\|x - x^*\\|``."""
    if rel_k <= a:
        return False
    lhs = abstract[tokens[a].start : tokens[rel_k - 1].end].strip()
    return lhs.startswith(_QUANTITY_SYMBOLS) or "\\mathbb{E}" in lhs or "\\|" in lhs


# --------------------------------------------------------------------------------------------
# Bounds written outside math.


_BARE_LETTERS = frozenset("OoÕΩΘω\u2126")  # U+2126, the ohm sign, stands for Ω in some PDFs
# The last character of a head read with its LaTeX: "\\tilde{O}", "Omega", "Theta", a combining tilde.
_HEAD_ENDINGS = frozenset(("}", "a", _COMBINING_TILDE))
# Heads spelled out in plain text, five letters before their parenthesis (v24).
_BARE_WORDS = frozenset(("Omega", "Theta", "omega"))
# Sizing commands written out between a bare head and its parenthesis, and the spaces that may
# stand there ("\tildeO\left(…", "O\xa0( n^2 d )") (v26).
_SIZING_BEFORE_PAREN = ("\\left", "\\bigl", "\\Bigl", "\\big", "\\Big")
_INLINE_SPACES = frozenset(" \xa0\u2009\u202f")
# Written out before a bare head: a tilde command and a space ("\widetilde O(\sqrtT)"), and a
# symbol with a relation ("K=ω(…)", "∆ = O(\log n)", "R_T ≤ O(√T)") (v25), the symbol maybe a
# command ("\ell = O(k/ε)", v27).
_BARE_TILDE = re.compile(r"\\(?:widetilde|tilde)\s+")
_BARE_LHS = re.compile(
    r"(?:\\[A-Za-z]+|[A-Za-zΑ-Ωα-ω∆][A-Za-z0-9]?)(?:_\{?[A-Za-z0-9]+\}?)?\s*(?:=|≤|≥|<|>)\s*"
)


def _bare_pieces(abstract: str, lo: int, hi: int, r: _Rules) -> list[_Piece]:
    """Asymptotic heads in plain text ``abstract[lo:hi]`` (outside math), found from each ``(``."""
    pieces: list[_Piece] = []
    # one pass of parenthesis matching over the region: O(length), whatever the nesting
    stack: list[int] = []
    close_of: dict[int, int] = {}
    opens: list[int] = []
    pos = abstract.find("(", lo, hi)
    if pos < 0:
        return pieces
    for i in range(pos, hi):
        c = abstract[i]
        if c == "(":
            stack.append(i)
            opens.append(i)
        elif c == ")" and stack:
            close_of[stack.pop()] = i
    taken_until = lo
    for p in opens:
        if p < taken_until:
            continue
        q = p
        sizing = next((c for c in _SIZING_BEFORE_PAREN if abstract.endswith(c, max(lo, q - len(c)), q)), None)
        if sizing is not None:
            q -= len(sizing)  # "\\tildeO\\left(…\\right)" written out (v26)
        if q > lo and abstract[q - 1] in _INLINE_SPACES:
            q -= 1
        star = q > lo + 1 and abstract[q - 1] in "∗*" and abstract[q - 2] in "OÕ"
        if star:
            q -= 1  # "O∗(nT)": the starred O hides log factors, like Õ (v26)
        if (
            q <= lo
            or not abstract[q - 1 : q]
            or not (abstract[q - 1] in _BARE_LETTERS or abstract[q - 1] in _HEAD_ENDINGS)
        ):
            continue
        letter = abstract[q - 1]
        word = abstract[max(lo, q - 5) : q]
        if letter in _BARE_LETTERS and (q - 1 == lo or abstract[q - 2] in " \t\n,;:([/^"):
            # the common case, "O(n log n)", "Õ(dB)": a lone head letter, no LaTeX to read
            head, soft, head_start = letter, letter == "Õ" or star, q - 1
        elif word in _BARE_WORDS and word in r.heads and (q - 5 == lo or not abstract[q - 6].isalnum()):
            head, soft, head_start = word, False, q - 5  # "an Omega(ln(k)) lower bound" (v24)
        else:
            toks = latex.tokenize(abstract, max(lo, q - 32), q)
            n_toks = len(toks)
            toks.append(latex.Token(latex.OPEN, "(", p, p + 1))
            found = None
            for s in range(n_toks - 1, -1, -1):
                tok = toks[s]
                if tok.kind == latex.SPACE:
                    break
                if not (tok.text in r.heads or tok.text in _FONT_WRAPPERS or tok.text in _SOFT_WRAPPERS):
                    continue  # a head starts at its letter or at a wrapper command
                cand = _read_head(toks, s, r.heads)
                if cand is not None and cand[2] == n_toks:
                    found = (s, cand)
            if found is None:
                continue
            s, (head, soft, _) = found
            head_start = toks[s].start
        before = abstract[head_start - 1] if head_start > lo else " "
        base = _exponent_base(abstract, lo, head_start) if before == "^" else None
        if base is None and (before.isalnum() or before in "\\_^"):
            continue
        close = close_of.get(p)
        if close is None or close - p > _MAX_BARE_ARG:
            continue
        arg = abstract[p + 1 : close]
        if not _plausible_argument(arg):
            continue
        notation, kind, soft_head, rule = r.heads[head]
        expr, variables = latex.to_expr(arg)
        if base is not None:
            # "n^O(1/θ^2) time", "2^O(1/ε^2) variables": the power is the bound, as "$n^{O(…)}$" (v24)
            base_expr, base_variables = latex.to_expr(abstract[base : head_start - 1])
            expr = f"{base_expr}^({notation}({expr}))"
            variables = tuple(sorted({*variables, *base_variables}))
            head_start = base
        tilde = _BARE_TILDE.search(abstract, max(lo, head_start - 12), head_start)
        if tilde is not None and tilde.end() == head_start and base is None:
            head_start, soft = tilde.start(), True  # "\widetilde O(\sqrtT)" written out (v25)
        has_lhs = False
        lhs = _BARE_LHS.search(abstract, max(lo, head_start - 16), head_start)
        if lhs is not None and lhs.end() == head_start:
            if lhs.start() == lo or not abstract[lhs.start() - 1].isalnum():
                # "If K=ω(n/\log n), …": the size of a symbol, a regime or a claim (v25)
                head_start, has_lhs = lhs.start(), True
        pieces.append(
            _Piece(
                "bound",
                head_start,
                close + 1,
                notation,
                kind,
                soft or soft_head,
                expr,
                variables,
                rule,
                has_lhs,
                False,
                True,
                True,
            )
        )
        taken_until = close + 1
    return pieces


def _exponent_base(abstract: str, lo: int, head_start: int) -> int | None:
    """The start of the base of a power whose exponent is the head at ``head_start`` ("n^O(…)",
    "2^Ω(…)"): one letter or a number right before the ``^``, after a word boundary; else None."""
    end = head_start - 1  # the "^"
    start = end
    if start > lo and abstract[start - 1] == ")":
        # "(1/ε)^O(\\log(1/ε))": a parenthesized base (v26)
        depth = 0
        for j in range(start - 1, max(lo, start - 40) - 1, -1):
            depth += {")": 1, "(": -1}.get(abstract[j], 0)
            if depth == 0:
                if j > lo and (abstract[j - 1].isalnum() or abstract[j - 1] in "\\_^"):
                    return None
                return j
        return None
    while start > lo and end - start < 4 and abstract[start - 1].isdigit():
        start -= 1
    if start == end and start > lo and abstract[start - 1].isalpha():
        start -= 1
    if start == end or (start > lo and (abstract[start - 1].isalnum() or abstract[start - 1] in "\\_^")):
        return None
    return start


def _plausible_argument(arg: str) -> bool:
    """A formula, not prose or a size: ``n log n`` and ``1`` yes; ``10k``, ``see below`` no."""
    text = arg.strip()
    if not text:
        return False
    if text.replace(".", "", 1).isdigit():
        return text == "1"
    if text[:1].isdigit() and text.rstrip("kKMB").replace(".", "", 1).isdigit():
        return False  # O(10k) instances: a size
    prose = 0
    for w in _WORD.findall(text):
        if len(w) >= 4 and w.isalpha() and w not in latex.FUNCTIONS and w not in latex.GREEK:
            i = text.find(w)
            if i > 0 and text[i - 1] in "\\{_":
                continue
            prose += 1
    return prose < 2 and any(c.isalpha() for c in text) or text == "1"


# --------------------------------------------------------------------------------------------
# The extractor.


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
    r = rules()
    spans = list(find_math(abstract) if math is None else math)
    formulas: list[_Formula] = []
    pos = 0
    for span in spans:
        for piece in _bare_pieces(abstract, pos, span.start, r):
            formulas.append(_Formula(piece.start, piece.end, [piece]))
        formulas.append(_Formula(span.start, span.end, _analyse_math(abstract, span, r)))
        pos = span.end
    for piece in _bare_pieces(abstract, pos, len(abstract), r):
        formulas.append(_Formula(piece.start, piece.end, [piece]))
    words = _tokenize_words(abstract, [(f.start, f.end) for f in formulas])
    sentences = _sentence_ids(abstract, words)
    ctx = _Context(abstract, words, sentences, formulas, r, doc if norm is not None else None, norm)
    ctx.collect = collect
    return ctx.run(extractor)


@dataclass(slots=True)
class _Context:
    """One abstract's words, sentences and formulas, and the rules that read them.

    Every look-around is bounded (a window of words, a sentence capped at ``_SPAN`` words either
    side, at most ``_BACK_SENTENCES`` earlier sentences), so a bound costs O(1) word visits.
    """

    abstract: str
    words: list[_Word]
    sentences: list[int]
    formulas: list[_Formula]
    r: _Rules
    doc: Any
    norm: NormalizedText | None
    formula_word: dict[int, int] = field(default_factory=dict)
    made: list[dict[str, Any]] = field(default_factory=list)
    bound_words: set[int] = field(default_factory=set)  # formula words that made a bound
    improvement_words: set[int] = field(default_factory=set)  # formulas read as improvement amounts
    quantity_by_latex: dict[str, str] = field(default_factory=dict)
    last_quantity: str | None = None
    first_quantity: list[str | None] = field(default_factory=list)  # computed once, lazily
    rate_of: list[str | None] = field(default_factory=list)  # computed once, lazily
    number_spans: dict[int, tuple[int, str]] | None = None  # "number of …" phrases, lazily
    token_starts: dict[int, Any] | None = None  # parse tokens by original offset, lazily
    word_starts: list[int] | None = None  # word start offsets, for parse token → word, lazily
    first_this: list[int | None] = field(default_factory=list)  # the abstract's first "we" word, lazily
    symbols: dict[str, str] | None = None  # symbols defined as a quantity, lazily
    acronyms: dict[str, str] | None = None  # acronyms the abstract defines, lazily
    own_names: frozenset[str] | None = None  # method names the abstract introduces, lazily
    collect: list[tuple[int, int, list[str], str]] | None = None  # learned-attribution inputs

    def run(self, extractor: str) -> list[Bound]:
        for k, w in enumerate(self.words):
            if w.formula >= 0:
                self.formula_word[w.formula] = k
        found: list[dict[str, Any]] = []
        conditions: list[tuple[int, int, str]] = []  # (word index, sentence, text)
        for fi, formula in enumerate(self.formulas):
            wk = self.formula_word[fi]
            if self._not_a_bound(wk) or _ENUMERATION.search(self.abstract, formula.start, formula.end):
                continue  # (v19: "samples $f^1, f^2, \\ldots, f^n$" names symbols, it bounds nothing)
            opening = self._opening_condition(wk)
            for piece in formula.pieces:
                cond_cue = self._condition_cue(wk) or opening
                regime = cond_cue is not None and (
                    piece.has_lhs or cond_cue[1] in _REGIME_CUES or opening is not None
                )
                if (
                    cond_cue is not None
                    and cond_cue[1] == ("with",)
                    and (self._quantity_after(wk) is not None or self._count_noun_after(wk) is not None)
                ):
                    # "with $m=\\Theta(N)$ neurons": a resource claimed, not a regime (unless the
                    # sentence opens on a condition that holds it)
                    cond_cue = opening
                    regime = opening is not None
                if (
                    piece.role in ("bound", "relation")
                    and cond_cue is not None
                    and (piece.has_lhs or piece.role == "bound" and regime)
                ):
                    assert cond_cue is not None
                    conditions.append(
                        (wk, self.sentences[wk], self._condition_text(cond_cue[0], formula.end))
                    )
                    continue
                if piece.role == "bound":
                    found.append(self._bound(piece, wk, piece.kind, piece.notation, piece.rule))
                elif piece.role == "relation" and piece.notation:
                    if (
                        piece.kind == "order"
                        and piece.formula_like
                        or piece.quantity_symbol
                        or (not piece.has_lhs and self._quantity_near(wk) is not None)
                        or piece.has_lhs
                        and self._quantity_adjacent(wk) is not None
                        and piece.formula_like
                    ):
                        found.append(self._bound(piece, wk, piece.kind, piece.notation, piece.rule))
                elif piece.role == "expression":
                    claimed = self._claim(wk, piece)
                    if claimed is not None:
                        kind, notation, rule = claimed
                        found.append(self._bound(piece, wk, kind, notation, rule))
        self._attach_conditions(found, conditions)
        found.extend(self._verbal())
        bounds = []
        for b in sorted(found, key=lambda b: (b["start"], b["end"])):
            b.pop("_word")
            bounds.append(Bound(extractor=extractor, **b))
        return bounds

    def _attach_conditions(self, found: list[dict[str, Any]], conditions: list[tuple[int, int, str]]) -> None:
        """A regime qualifies the nearest bound before it in its sentence, else the next one."""
        by_sentence: dict[int, list[dict[str, Any]]] = {}
        for b in found:
            by_sentence.setdefault(self.sentences[b["_word"]], []).append(b)
        for wk, sent, text in conditions:
            candidates = by_sentence.get(sent, [])
            before = [b for b in candidates[:_SPAN] if b["_word"] < wk]
            target = before[-1] if before else next((b for b in candidates[:_SPAN] if b["_word"] > wk), None)
            if target is not None and target["condition"] is None:
                target["condition"] = text

    # -- words around a formula --------------------------------------------------------------

    def _window_before(self, wk: int, limit: int = 10, through_symbols: bool = False) -> int:
        """First word index of the window before ``wk``: same sentence, after the previous formula.

        With ``through_symbols``, only a formula that made a bound ends the window: "$k$-junta" or
        "$\\epsilon$-approximate" read as words between a cue and its bound.
        """
        lo = wk
        sent = self.sentences[wk]
        while lo > 0 and wk - lo < limit and self.sentences[lo - 1] == sent:
            before = self.words[lo - 1]
            if before.formula >= 0 and not (through_symbols and lo - 1 not in self.bound_words):
                break
            lo -= 1
        return lo

    def _sentence_span(self, wk: int) -> tuple[int, int]:
        """Word range of ``wk``'s sentence, capped at ``_SPAN`` words either side of it."""
        sent = self.sentences[wk]
        lo = wk
        while lo > 0 and wk - lo < _SPAN and self.sentences[lo - 1] == sent:
            lo -= 1
        hi = wk
        while hi < len(self.words) and hi - wk < _SPAN and self.sentences[hi] == sent:
            hi += 1
        return lo, hi

    def _ends_before(
        self, wk: int, role: str, where: str = "before", lo: int | None = None, gap: int = 0
    ) -> Phrase | None:
        """The ``role`` cue ending right before word ``wk`` (allowing ``gap`` words between)."""
        lo = self._window_before(wk) if lo is None else lo
        phrases = self.r.cue(role, where)
        for skip in range(gap + 1):
            hit = phrases.ending(self.words, wk - skip, lo)
            if hit is not None:
                return hit
        return None

    def _condition_cue(self, wk: int) -> tuple[int, Phrase] | None:
        """A condition cue ("when", "if", "for", "such as") just before the formula word ``wk``."""
        lo = self._window_before(wk, 4)
        phrases = self.r.cue("condition")
        for skip in range(0, 3):
            end = wk - skip
            if not all(self.words[j].text in _CONDITION_FILLERS for j in range(end, wk)):
                break
            hit = phrases.ending(self.words, end, lo)
            if hit is not None:
                return end - len(hit), hit
        return None

    def _opening_condition(self, wk: int) -> tuple[int, Phrase] | None:
        """The opener of a conditional clause that starts the sentence and holds the formula: "When
        we have polynomial eigen-decay ($\\mu_j \\le O(j^{-\\beta})$), we find …", "Provided the
        chain mixes fast, i.e., the relaxation time is at most $X$, estimation is …" (v20).

        The clause ends at the first comma that no "i.e." or "e.g." continues; a main clause must
        follow it, or the sentence is the condition's own claim."""
        lo, hi = self._sentence_span(wk)
        if lo > 0 and self.sentences[lo - 1] == self.sentences[lo]:
            return None  # the sentence starts beyond the look-around
        first = lo
        while first < wk and self.words[first].text.startswith("\\"):
            first += 1  # "\\item Provided …"
        opener = self.words[first].text.lower() if first < wk else ""
        if opener not in _CLAUSE_OPENERS:
            return None
        for k in range(first + 1, hi - 1):
            if first + 1 < k < wk and self.words[k].text in _MAIN_CLAUSE_OPENERS:
                return None  # "When the data lies in $R^D$ we obtain a rate of $X$, which …" (v22)
            if self.words[k].text != ",":
                continue
            if self._continued_past(k):
                continue
            return (first, (opener,)) if wk < k else None
        return None

    def _continued_past(self, k: int) -> bool:
        """Whether the comma ``words[k]`` opens or closes an "i.e." or "e.g." that goes on with
        the clause (the words split "i.e." into "i . e .")."""
        after = [w.text for w in self.words[k + 1 : k + 4]]
        before = [w.text for w in self.words[max(0, k - 3) : k]]
        return (
            after[:3] in (["i", ".", "e"], ["e", ".", "g"])
            or after[:1] == ["namely"]
            or before[-2:] in ([".", "e"], [".", "g"], ["e", "."], ["g", "."])
        )

    def _not_a_bound(self, wk: int) -> bool:
        """ "by a factor of $X$", "the extra $\\sqrt{\\gamma_n}$ factor": a ratio, not a bound."""
        if self._ends_before(wk, "not-bound", lo=self._window_before(wk, 3)):
            return True
        if self._improvement_amount(wk):
            return True
        after = self.r.cue("not-bound", "after").at(self.words, wk + 1)
        if after is None:
            return False
        # "an $\epsilon$-approximation" names a parameter, but "an $O(1)$-approximation" bounds the
        # approximation ratio: the asymptotic head makes it a claim (v27)
        return not (after[0] == "-" and after[-1].startswith("approximat") and self._asymptotic(wk))

    def _asymptotic(self, wk: int) -> bool:
        """Whether the formula at ``words[wk]`` is an O/Ω/Θ expression standing alone (no left side,
        not one coordinate of a pair: "an $(\\epsilon, O(\\epsilon^{0.5}))$-approximate minimum")."""
        w = self.words[wk]
        text = self.abstract[w.start : w.end].strip("$ ")
        if text.startswith("(") and "," in text:
            return False
        pieces = self.formulas[w.formula].pieces
        return any(
            p.role == "bound" and p.notation in ("O", "Omega", "Theta") and not p.has_lhs and p.formula_like
            for p in pieces
        )

    def _improvement_amount(self, wk: int) -> bool:
        """ "improves the sample complexity by $X$ and $Y$": amounts of improvement, not bounds."""
        k = wk - 1
        while (
            k >= 0
            and wk - k <= 3
            and self.words[k].text in ("and", ",", "or")
            or k >= 0
            and self.words[k].formula >= 0
            and k in self.improvement_words
        ):
            k -= 1
        if k < 0 or self.words[k].text != "by":
            return False
        if k > 0 and self.words[k - 1].text in _BOUNDING_PARTICIPLES:
            return False  # "(i) decreases as …, and (ii) is always capped by $X$" states a bound (v27)
        s_lo, _ = self._sentence_span(wk)
        if any(
            self.words[j].text.startswith(_IMPROVE_VERBS)
            and not (self.words[j].text == "lower" and self.words[j + 1].text.startswith("bound"))
            for j in range(max(s_lo, k - 15), k)
        ):  # "is lower bounded by $X$" states a bound (v16)
            self.improvement_words.add(wk)
            return True
        return False

    def _condition_text(self, word_start: int, end: int) -> str:
        """The regime as written: from its cue word to the end of its formula (delimiters included)."""
        return self.abstract[self.words[word_start].start : end].strip()

    # -- quantities ------------------------------------------------------------------------------

    def _abstract_rate_of(self) -> str | None:
        """What a vague "rate" is the rate of in an abstract that never speaks of convergence: the
        first regret or estimation error it names ("OFW achieves a faster rate of $X$" in an
        abstract on regret; "we obtain a rate of $X$" after "the estimation error", v31)."""
        if not self.rate_of:
            found = None
            for k in range(len(self.words)):
                if self.words[k].text.startswith(("converge", "convergence")):
                    found = None
                    break
                if found is None:
                    at = self._q_at(k, self._general)
                    if at is not None and named_quantity(at[0][0]) in ("regret", "estimation error"):
                        found = at[0][0]
            self.rate_of.append(found)
        return self.rate_of[0]

    def _general(self, phrase: Phrase) -> bool:
        """A quantity phrase usable away from the formula ("time" and "rate" are not)."""
        return phrase not in self.r.after_only and phrase not in self.r.adjacent_only

    def _modifier_use(self, k: int) -> bool:
        """Whether the word at ``k`` makes the quantity before it a modifier ("loss function")."""
        return k < len(self.words) and self.words[k].text in _MODIFIED_NOUNS

    def _q_at(
        self, k: int, keep: Callable[[Phrase], bool] | None = None, naming: bool = False
    ) -> tuple[tuple[str, str], int] | None:
        """The quantity phrase starting at ``words[k]``: ``((quantity, rule id), length)`` or None.

        Rule phrases first (not used as a modifier: "loss function", "risk minimization"); with
        ``naming``, also "number of <nouns>" ("the number of states $S$").
        """
        hit = self.r.quantities.at(
            self.words, k, lambda p: (keep is None or keep(p)) and (naming or p not in self.r.name_only)
        )
        if hit is not None and not self._modifier_use(k + len(hit)):
            return self._compound(k, k + len(hit)) or self._qualified(k, k + len(hit), hit), len(hit)
        compound = self._compound(k, k + 1)
        if compound is not None and (keep is None or keep((self.words[k].text,))):
            return compound, 1
        if naming and k in self._number_spans():
            end, quantity = self._number_spans()[k]
            return (quantity, "q.number-of"), end - k
        return None

    def _q_ending(
        self, end: int, lo: int, keep: Callable[[Phrase], bool] | None = None, naming: bool = False
    ) -> tuple[str, str] | None:
        """The quantity phrase ending just before ``words[end]``, starting at or after ``lo``."""
        hit = self.r.quantities.ending(
            self.words, end, lo, lambda p: (keep is None or keep(p)) and (naming or p not in self.r.name_only)
        )
        if hit is not None and not self._modifier_use(end):
            return self._compound(end - len(hit), end) or self._qualified(end - len(hit), end, hit)
        compound = self._compound(end - 1, end) if end - 1 >= lo else None
        if compound is not None and (keep is None or keep((self.words[end - 1].text,))):
            return compound
        if naming:
            for start, (stop, quantity) in self._number_spans().items():
                if stop == end and start >= lo:
                    return quantity, "q.number-of"
        return None

    def _singular_phrase(
        self, end: int, lo: int, keep: Callable[[Phrase], bool] | None = None
    ) -> tuple[str, str] | None:
        """A rule phrase written in the plural before ``words[end]``: "all have runtimes $X$"."""
        last = self.words[end - 1].text if lo <= end - 1 < len(self.words) else ""
        if len(last) < 4 or not last.endswith("s") or last.endswith(_NOT_PLURAL) or self._modifier_use(end):
            return None
        for n in (3, 2, 1):
            if end - n < lo:
                continue
            phrase = tuple(w.text for w in self.words[end - n : end - 1]) + (last[:-1],)
            if phrase in self.r.quantity_of and (keep is None or keep(phrase)):
                return self.r.quantity_of[phrase]
        return None

    def _coordinated_quantity(self, wk: int) -> tuple[str, str] | None:
        """The quantity after the next formula when "and"/"or" joins them: "$X$ upper-level and $Y$
        lower-level projection complexity" bounds one quantity twice; but "$X$ questions and $Y$
        bits" counts a noun of its own (v20)."""
        sent = self.sentences[wk]
        nxt = wk + 1
        if nxt < len(self.words) and self.sentences[nxt] == sent and self._counted_plural(nxt, False):
            return None
        for k in range(wk + 1, min(wk + 4, len(self.words))):
            w = self.words[k]
            if self.sentences[k] != sent or w.formula >= 0:
                return None
            if w.text in ("and", "or"):
                nxt = k + 1
                if nxt < len(self.words) and self.sentences[nxt] == sent and self.words[nxt].formula >= 0:
                    return self._quantity_after(nxt, naming=True)
                return None
            if w.text in _NOT_MODIFIERS or not (w.text[:1].isalpha() or w.text == "-"):
                return None
        return None

    def _apposition(self, wk: int) -> str | None:
        """The quantity a parenthesised formula restates: "polynomial time ($O(n^2e)$)".

        A formula opening a parenthesis gives the size of the noun phrase just before it; any
        quantity phrase there (even "time", which counts only next to a formula) names it, and
        one head noun after that phrase may close it ("a polynomial time algorithm ($X$, …)").
        """
        if wk < 2 or self.sentences[wk - 1] != self.sentences[wk]:
            return None
        if self.words[wk - 1].text == "," and wk + 1 < len(self.words):
            # "runs in near linear time, $X$, and …": a formula set off by commas restates too
            closed = self.words[wk + 1].text in (",", ".", ";")
            if not closed and self.sentences[wk + 1] == self.sentences[wk]:
                return None
        elif self.words[wk - 1].text != "(":
            return None
        for end in (wk - 1, wk - 2):
            if end < 1 or self.words[end - 1].formula >= 0:
                return None
            hit = self.r.quantities.ending(self.words, end, max(0, end - 4))
            if hit is not None and not (end == wk - 1 and self._modifier_use(end)):
                return self.r.quantity_of[hit][0]
        return None

    def _qualified(self, start: int, end: int, hit: Phrase) -> tuple[str, str]:
        """The quantity of rule phrase ``hit`` at ``words[start:end]``, with the qualifiers before it.

        A phrase that names its quantity ("regret", "sample complexities", "error rate" for error)
        takes the words the parse attaches to it as modifiers that say which quantity it is ("Nash
        regret", "expected regret", "full swap regret"), also when the parse made the phrase a
        modifier of the noun after it ("expected regret bound", "single-user cumulative regret
        scaling"); words that describe the bound or its regime instead ("optimal", "worst-case",
        "high-probability", "$T$-round") are skipped. A phrase a rule maps to another name ("time"
        → running time) and text without a parse keep the rule's quantity.
        """
        quantity, rule = self.r.quantity_of[hit]
        if quantity == "convergence rate" and _names_itself(hit, quantity) and start > 0:
            # the words before a convergence rate describe the method ("accelerated", "last-iterate"),
            # but an expected or ergodic one is another quantity (v20)
            before = self.words[start - 1].text
            if before in _RATE_QUALIFIERS and self.sentences[start - 1] == self.sentences[start]:
                return f"{before} {quantity}", "q.qualified"
        if not _names_itself(hit, quantity) or quantity == "convergence rate" or self.doc is None:
            return quantity, rule
        if start >= 2 and self.words[start - 1].text == "expected" and self.words[start - 2].formula >= 0:
            # "it has $O(k)$ expected running time": the small parser reads "expected" as a verb (v29)
            return f"expected {quantity}", "q.qualified"
        head = self._token_at(self.words[end - 1].start)
        if head is None:
            return quantity, rule
        inside = {head.i}
        for w in self.words[start : end - 1]:
            tok = self._token_at(w.start)
            if tok is not None:
                inside.add(tok.i)
        if head.dep_ == "compound" and head.head.i == head.i + 1:
            inside.add(head.head.i)  # "an expected regret bound": the parse's head is "bound"
        taken: list[int] = []
        k = start - 1
        while k >= 0 and start - k <= 5 and self.sentences[k] == self.sentences[start]:
            w = self.words[k]
            opened = None
            if w.text == ")" and k >= 2 and self.words[k - 2].text == "(":
                opened, k = k - 2, k - 1  # "an optimal (dynamic) regret"
                w = self.words[k]
            # a hyphenated word is read by its last part ("per-action regret")
            tok = self._token_at(w.start + w.text.rfind("-") + 1 if w.formula < 0 else w.start)
            if tok is None or self._attached(k) or tok.tag_ not in _QUALIFIER_TAGS:
                break
            if tok.dep_ not in _QUALIFIER_DEPS or tok.head.i not in inside:
                break
            if w.formula >= 0:
                # "an expected $\ell_2$ error": a symbol between qualifiers is skipped, never named
                # (a formula with no qualifier before it is the bound: "attains $X$ regret")
                if not self._symbol_between_qualifiers(k, inside | {tok.i}):
                    break
            elif _bound_describing(w.text):
                pass  # "cumulative achievable regret", "worst case regret": skipped
            elif _QUALIFIER_WORD.fullmatch(w.text):
                taken.append(k)
            else:
                break
            inside.add(tok.i)
            k = (opened if opened is not None else k) - 1
        if not taken:
            return quantity, rule
        words: list[str] = []
        for j in sorted(taken):
            written = self.abstract[self.words[j].start : self.words[j].end]
            # a name keeps its capital ("Nash", "Bayesian"); a sentence's first word does not
            first = j == 0 or self.sentences[j - 1] != self.sentences[j]
            words.append(written if written[:1].isupper() and not first else self.words[j].text)
        return " ".join([*words, quantity]), "q.qualified"

    def _is_verb(self, k: int) -> bool:
        """Whether the parse tags ``words[k]`` a finite verb or a modal ("must", "grows"; not the
        participles of "labeled examples"); False without a parse."""
        tok = self._token_at(self.words[k].start)
        return tok is not None and tok.tag_ in _FINITE_VERB_TAGS

    def _is_symbol(self, k: int) -> bool:
        """Whether ``words[k]`` is a formula that is one symbol ("$\\alpha$", "$d_1$"), not a bound."""
        w = self.words[k]
        if w.formula < 0:
            return False
        body = self.abstract[w.start : w.end].strip("$ ")
        return bool(_ONE_SYMBOL.fullmatch(body))

    def _symbol_between_qualifiers(self, k: int, inside: set[int]) -> bool:
        """Whether the formula ``words[k]`` is a symbol after a qualifier ("expected $\\ell_2$ error")."""
        if k < 1 or not self._is_symbol(k):
            return False
        before = self.words[k - 1]
        tok = self._token_at(before.start)
        return (
            before.formula < 0
            and tok is not None
            and tok.dep_ in _QUALIFIER_DEPS
            and tok.tag_ in _QUALIFIER_TAGS
            and tok.head.i in inside
            and bool(_QUALIFIER_WORD.fullmatch(before.text))
            and not _bound_describing(before.text)
        )

    def _attached(self, k: int) -> bool:
        """Whether ``words[k]`` continues a formula or hyphen written against it ("$T$-round")."""
        prev = self.words[k - 1] if k > 0 else None
        if prev is None or prev.end != self.words[k].start:
            return False
        return prev.formula >= 0 or prev.text == "-"

    def _compound(self, start: int, end: int) -> tuple[str, str] | None:
        """An open-vocabulary quantity: a noun modifier and a generic head noun ("teaching complexity").

        ``words[start:end]`` is a one-word head of :data:`_OPEN_HEADS` ("complexity", "violation",
        "divergence" …); the noun right before it names which one ("projection complexity",
        "constraint violation"), whatever the noun, so quantities the rule tables never listed
        are still named. A determiner, adjective, number or formula before the head names none.
        """
        if end - start != 1 or start < 1:
            return None
        head = self.words[start]
        if head.text not in _OPEN_HEADS or self._modifier_use(end):
            return None
        k = start - 1
        mod = self.words[k]
        if mod.formula >= 0 or self.sentences[k] != self.sentences[start] or not self._noun_modifier(k):
            return None
        text = mod.text.lower()
        named = self.r.quantity_of.get((text, _OPEN_HEADS[head.text]))
        if named is not None:
            return named  # "time complexities": the tables' "time complexity", a running time (v31)
        return f"{text} {_OPEN_HEADS[head.text]}", "q.open-compound"

    def _noun_modifier(self, k: int) -> bool:
        """Whether ``words[k]`` is a noun modifying the next word: the parse decides when there is one."""
        text = self.words[k].text
        if not re.fullmatch(r"[A-Za-z][A-Za-z\-]*[A-Za-z]", text) or "-" in text:
            return False
        if text.lower() in _NOT_MODIFIERS or text.lower() in _NOT_NOUN_MODIFIERS:
            return False
        tok = self._token_at(self.words[k].start)
        if tok is not None:
            return bool(tok.tag_ in ("NN", "NNS", "NNP", "VBG") and tok.dep_ in ("compound", "amod", "nmod"))
        return not text.lower().endswith(_ADJECTIVE_ENDINGS)

    def _number_spans(self) -> dict[int, tuple[int, str]]:
        """Every "number of <nouns>" phrase: start word → (end word, quantity), computed once.

        A rule phrase inside names the quantity ("the number of communication rounds" → round
        complexity); otherwise the phrase itself does ("number of states", "number of neurons").
        """
        if self.number_spans is not None:
            return self.number_spans
        spans: dict[int, tuple[int, str]] = {}
        n = len(self.words)
        for k in range(n - 2):
            if self.words[k].text != "number" or self.words[k + 1].text != "of":
                continue
            b = self._before_number(k)
            if b >= 0 and b < k - 1 and (self.words[b].formula >= 0 or self.words[b].text in _DEFINING):
                continue  # "where $T$ is the number of rounds", "$K$ the number of processes"
            if self._variable_number(k):
                continue  # "polynomial in the number of states": a variable the bound depends on
            j = k + 2
            while j < n and self.words[j].text in ("the", "a", "an", "all", "total"):
                j += 1
            nouns: list[str] = []
            quantity = None
            while j < n and len(nouns) < 4:
                text = self.words[j].text
                hit = self.r.quantities.at(self.words, j)
                if hit is not None and not self._modifier_use(j + len(hit)):
                    quantity = self.r.quantity_of[hit][0]
                    j += len(hit)
                    break
                if not text.isalpha() or text in _NOT_MODIFIERS:
                    break
                if text.endswith(("ed", "ing", "ly")) and not (nouns == [] and self._noun_follows(j)):
                    break  # "number of rounds needed", but "number of training environments"
                if text in _CLAUSE_VERBS or self._is_verb(j):
                    break  # "the number of neurons must be at least $X$"
                nouns.append(text)
                j += 1
            if quantity is None and nouns:
                quantity = "number of " + " ".join(nouns) + self._and_counted(j)
                j += 2 if quantity.count(" and ") else 0
            if quantity is not None:
                spans[k] = (j, quantity)
        self.number_spans = spans
        return spans

    def _noun_follows(self, j: int) -> bool:
        """Whether ``words[j]`` is a participle modifying the noun after it ("training environments")."""
        if j + 1 >= len(self.words) or self.sentences[j + 1] != self.sentences[j]:
            return False
        text = self.words[j + 1].text
        return (
            text.isalpha()
            and len(text) > 2
            and text not in _NOT_MODIFIERS
            and not text.endswith(("ed", "ing", "ly"))
        )

    def _quantity_after(self, wk: int, naming: bool = False) -> tuple[str, str] | None:
        """A quantity phrase right after the formula (``$X$ regret``), skipping a few modifiers.

        Without ``naming`` (when the phrase decides whether a formula is a claim at all), phrases
        that only name a quantity ("$L \\times K$ mean reward matrix") do not count.
        """
        sent = self.sentences[wk]
        for skip in (1, 2, 3):
            k = wk + skip
            if k >= len(self.words) or self.sentences[k] != sent or self.words[k].formula >= 0:
                return None
            text = self.words[k].text
            if text == "per" or text.startswith("per-"):
                # "$X$ per-step cost", "$X$ per step complexity": a cost per unit (v16)
                return self._per_unit_cost(k) if naming else None
            hit = self._q_at(k, naming=naming)
            if hit is not None:
                return hit[0]
            # "$X$ random linear measurements", "$X$ problem-dependent regret": modifiers in between
            if not text[:1].isalpha() and text != "-" or text in _NOT_MODIFIERS:
                return None
        return None

    def _per_unit_cost(self, k: int) -> tuple[str, str] | None:
        """ "per-step cost" / "per step complexity" at word ``k``: "per-step cost", as written."""
        if self.words[k].text == "per":
            if k + 2 >= len(self.words) or not self.words[k + 1].text.isalpha():
                return None
            unit, at = self.words[k + 1].text, k + 2
        else:
            unit, at = self.words[k].text[4:], k + 1
        if at >= len(self.words) or not unit.isalpha():
            return None
        if self.words[at].text in ("cost", "complexity"):
            return f"per-{unit} {self.words[at].text}", "q.per-unit-cost"
        hit = self._q_at(at, naming=True)  # "$X$ per-iteration time and space": the running time
        return hit[0] if hit is not None else None

    def _quantity_before(self, wk: int, limit: int = 10, naming: bool = False) -> tuple[str, str] | None:
        """A quantity phrase ending at most ``limit`` words before the formula ("regret of $X$")."""
        lo = self._window_before(wk, limit)
        # a phrase ending in the window may start a little before it: "the estimation error is of order"
        lo_start = self._window_before(wk, limit + 3)
        for end in range(wk, lo, -1):
            near = wk - end <= 3  # "rate", "complexity" count only this close
            if end < wk and self._counted_variable(end - 1, wk):
                continue  # "$O(1/\sqrt{n})$ after $n$ iterations, and of $O(1/n)$ …" (v20)

            def usable(p: Phrase, near: bool = near) -> bool:
                return p not in self.r.after_only and (near or p not in self.r.adjacent_only)

            hit = self._q_ending(end, lo_start, usable, naming)
            if hit is None and near:
                hit = self._singular_phrase(end, lo_start, usable)  # "all have runtimes $X$"
            if hit is not None:
                return hit
        return None

    def _quantity_adjacent(self, wk: int) -> tuple[str, str] | None:
        return self._quantity_after(wk) or self._quantity_before(wk, 4)

    def _quantity_near(self, wk: int, naming: bool = False) -> tuple[str, str] | None:
        return self._quantity_after(wk, naming) or self._quantity_before(wk, 6, naming)

    def _token_at(self, offset: int) -> Any:
        """The spaCy token starting at original ``offset``, when the abstract was parsed."""
        if self.doc is None or self.norm is None:
            return None
        if self.token_starts is None:
            starts: dict[int, Any] = {}
            for tok in self.doc:
                start, _ = self.norm.to_original(tok.idx, tok.idx + len(tok))
                starts.setdefault(start, tok)
            self.token_starts = starts
        return self.token_starts.get(offset)

    def _word_of(self, tok: Any) -> int | None:
        """The index of the word a parse token starts in (None when it maps to no word)."""
        if self.norm is None:
            return None
        start, _ = self.norm.to_original(tok.idx, tok.idx + len(tok))
        if self.word_starts is None:
            self.word_starts = [w.start for w in self.words]
        k = bisect.bisect_right(self.word_starts, start) - 1
        return k if k >= 0 and start < self.words[k].end else None

    def _improved_from_to(self, wk: int) -> str | None:
        """ "improves the sample complexity for realizing logarithmic regrets from $A$ to $B$": both
        formulas bound the object of the improving verb, the first quantity after it."""
        k = wk - 1
        if k >= 2 and self.words[k].text == "to" and self.words[k - 1].formula >= 0:
            k -= 2  # "… from $A$ to $B$": back to the "from" of $A$
        if k < 0 or self.words[k].text != "from":
            return None
        lo = self._window_before(k, 16, through_symbols=True)
        for v in range(k - 1, lo - 1, -1):
            if self.words[v].text in (";", ":"):
                return None
            if self.words[v].text.startswith(_IMPROVE_VERBS):
                for j in range(v + 1, k):
                    hit = self._q_at(j, naming=True)
                    if hit is not None and j + hit[1] <= k:
                        return hit[0][0]
                return None
        return None

    def _improved_to(self, wk: int) -> str | None:
        """ "we reduce the space to $X$ and the time to $Y$": the object of the improving verb
        before "to" ("space" and "time" count here, as the object named)."""
        if wk < 3 or self.words[wk - 1].text != "to":
            return None
        lo = self._window_before(wk, 8)
        for v in range(wk - 2, lo - 1, -1):
            w = self.words[v]
            if w.formula >= 0 or w.text in (";", ":", ","):
                return None
            if w.text.startswith(_IMPROVE_VERBS) or w.text in ("and", "or"):
                for j in range(v + 1, wk - 1):
                    hit = self._q_at(j, naming=True)
                    if hit is not None and j + hit[1] == wk - 1:
                        return None if hit[0][1] in self.r.vague_ids else hit[0][0]
                return None
        return None

    def _resource_right_before(self, wk: int) -> str | None:
        """The quantity a resource word right before the formula names, after a resource verb:
        "runs in time $O(n^5)$", "requires space $X$" (words that count only next to a formula),
        also with the growth the formula states in words between: "in nearly-linear time $X$"."""
        end = wk
        if wk >= 3 and (self.words[wk - 2].text, self.words[wk - 1].text) in _AT_MOST_LEAST:
            end = wk - 2  # "takes time at least $X$"
        verb = end - 2
        while verb >= 0 and end - verb <= 4 and _GROWTH_WORD.fullmatch(self.words[verb].text):
            verb -= 1
        if verb < 0 or self.words[verb].text not in _RESOURCE_VERBS:
            return None
        hit = self.r.quantities.ending(self.words, end, end - 1)
        return self.r.quantity_of[hit][0] if hit is not None and hit in self.r.after_only else None

    def _predicate_subject(self, wk: int) -> str | None:
        """The quantity the subject of a bounding predicate names: "the worst-case sample complexity
        of our algorithm to learn … is upper bounded by $X$", "its regret is at most $A$ …, and at
        most $B$", "running time that is $X$".

        From the formula, the parse is climbed through prepositions, complements and coordinated
        complements (never through a noun, which would own the formula: "regret of $X$") to a verb
        that states a size (be, become, bound, scale, grow, decay, converge …); its subject (the
        antecedent of a relative pronoun; a coordinated or passive verb's head's subject) is read
        as a quantity phrase ending at the subject's head word. Needs the parse; a vague subject
        ("the rate is …") names nothing.
        """
        tok = self._token_at(self.words[wk].start)
        if tok is None:
            return None
        cur, verb = tok, None
        for _ in range(6):
            head = cur.head
            if head is cur or cur.dep_ not in _PATH_DEPS and not self._second_subject(cur):
                return None
            if head.pos_ in ("VERB", "AUX"):
                verb = head
                break
            if head.pos_ not in ("ADP", "ADV", "ADJ", "SCONJ", "CCONJ", "PART") and head.lower_ != "order":
                return None  # a noun owns the formula, but "is on the order of $X$" does not
            cur = head
        if verb is None or not _sizing_verb(verb):
            return None
        subjects: list[Any] = []
        for _ in range(3):
            subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
            if subjects or verb.dep_ not in ("acomp", "xcomp", "conj") or verb.head is verb:
                break
            verb = verb.head
        if not subjects:
            return None
        subj = subjects[0]
        if subj.tag_ == "WDT" and verb.dep_ == "relcl":
            subj = verb.head  # "running time that is $X$": the relative clause's antecedent
        if verb.lemma_ == "scale" and _names_method(subj):
            return "running time"  # "the FACS algorithm only scales as $O(k \log k)$" (v31)
        if subj.pos_ not in ("NOUN", "PROPN"):
            return None
        k = self._word_of(subj)
        if k is None or k >= wk or self.sentences[k] != self.sentences[wk]:
            return None
        if self._counted_variable(k, wk):
            return None  # "The error … after $t$ iterations scales like $\\beta/t$" (v23)
        if k in self._number_spans():
            return self._number_spans()[k][1]  # "the number of tests … is at most $X$"
        lo = max(self._sentence_span(k)[0], k - 4)
        found = self._q_ending(k + 1, lo, naming=True)
        if found is None and subj.tag_ == "NNS" and subj.lemma_.lower() != self.words[k].text:
            # "their $L_\infty$/$L_2$ ratios are upperbounded by $X$": the singular names it
            singular = subj.lemma_.lower()
            for n in (3, 2, 1):
                phrase = tuple(w.text for w in self.words[max(lo, k - n + 1) : k]) + (singular,)
                if len(phrase) == n and phrase in self.r.quantity_of:
                    found = self.r.quantity_of[phrase]
                    break
        if found is not None and found[0] == _VAGUE_COMPLEXITY and found[1] in self.r.vague_ids:
            # "the complexity of SCSG to reach a stationary point … is $X$": the complexity the
            # abstract named before, else a computational one (v22)
            return self._named_before(k, "complexity", "complexities") or found[0]
        if found is None or found[1] in self.r.vague_ids:
            return None
        return found[0]

    @staticmethod
    def _second_subject(tok: Any) -> bool:
        """Whether the parse made the formula token a second subject of its verb, after the real
        one ("For a matrix D, the complexity of … is $X$": "complexity" and the formula both nsubj);
        the formula is then the verb's complement (v28)."""
        if tok.dep_ != "nsubj" or tok.head.pos_ not in ("VERB", "AUX"):
            return False
        return any(c.dep_ in ("nsubj", "nsubjpass") and c.i < tok.head.i < tok.i for c in tok.head.children)

    def _count_noun_after(self, wk: int) -> str | None:
        """ "number of tests" from "$X$ tests": a plural noun right after the formula counts a resource.

        The parse decides what is a plural noun when there is one ("$X$ holds" is a verb); without
        it, a plural-looking word that is not a common verb ending.
        """
        k = wk + 1
        if k >= len(self.words) or self.sentences[k] != self.sentences[wk]:
            return None
        w = self.words[k]
        acronym = None
        if w.formula < 0 and 2 <= w.end - w.start <= 6 and self.abstract[w.start : w.end].isupper():
            # "$O(\\log T)$ OL instances": an acronym naming what is counted sits between
            acronym = self._token_at(w.start)
            k += 1
            if k >= len(self.words) or self.sentences[k] != self.sentences[wk] or self.words[k].formula >= 0:
                return None
            w = self.words[k]
        text = self._counted_plural(k, False, acronym)
        if text is not None:
            return "number of " + text + self._and_counted(k + 1)
        if acronym is not None:
            return None
        # "$o(\\log p)$ random projections": one or two singular modifiers before the counted noun
        mods: list[str] = []
        while len(mods) < 2 and k + 1 < len(self.words):
            if self.sentences[k + 1] != self.sentences[wk] or self.words[k + 1].formula >= 0:
                return None
            text = self.words[k].text
            if not text.isalpha() or text.endswith("s") or text in _NOT_MODIFIERS:
                return None
            mods.append(text)
            k += 1
            counted = self._counted_plural(k, True)
            if counted is not None:
                return "number of " + " ".join(mods) + " " + counted
        return None

    def _and_counted(self, k: int) -> str:
        """ " and constraints" when ``words[k:k+2]`` join a second counted noun that closes the
        phrase ("$X$ variables and constraints", "the number of variables and constraints"; v20),
        else ""."""
        if k + 1 >= len(self.words) or self.words[k].text != "and":
            return ""
        if self.sentences[k + 1] != self.sentences[k]:
            return ""
        if not self.words[k - 1].text.endswith("s"):
            return ""
        counted = self._counted_plural(k + 1, False, conjunct=True)
        if counted is None or self._noun_follows(k + 1):
            return ""  # "variables and constraints matrices": the second noun modifies another
        return " and " + counted

    def _problem_class(self, k: int) -> bool:
        """Whether ``words[k]`` ends a class of problems, not a quantity: a loss or objective that
        "for" or "with" makes convex, smooth or Lipschitz ("for strongly convex loss", "with
        smooth losses"; v20)."""
        if self.words[k].text not in _CLASS_NOUNS:
            return False
        j = k - 1
        while j >= 0 and k - j <= 3 and self.words[j].text.lower() in _CLASS_ADJECTIVES:
            j -= 1
        return j < k - 1 and j >= 0 and self.words[j].text in ("for", "with", "of")

    def _counted_variable(self, k: int, wk: int) -> bool:
        """Whether ``words[k]`` counts a symbol of the formula ``words[wk]`` ("$O(1/N)$ for $N$
        iterations"): the count is the bound's variable, not what it bounds (v20)."""
        if k < 1 or self.words[k].formula >= 0:
            return False
        at = k - 1
        if not self._names_symbol(at) and self._is_noun(k):
            # "$O(n^2)$ complexity for $n$ data samples", "$n$ training data points" (v31)
            while at > 0 and k - at <= 2 and self._noun_modifier_word(at):
                at -= 1
        if at < 0 or not self._names_symbol(at):
            return False
        symbol = self.abstract[self.words[at].start : self.words[at].end].strip("$ ")
        formula = self.abstract[self.words[wk].start : self.words[wk].end]
        return re.search(r"(?<![A-Za-z\\])" + re.escape(symbol) + r"(?![A-Za-z])", formula) is not None

    def _names_symbol(self, k: int) -> bool:
        """A one-symbol formula, or a lone letter standing for one in math written without TeX
        ("over n data points"; not the article "a" nor "I")."""
        text = self.words[k].text
        return self._is_symbol(k) or (len(text) == 1 and text.isalpha() and text not in "aAI")

    def _is_noun(self, k: int) -> bool:
        """Whether ``words[k]`` may be a noun: not a verb form in s, and a noun to the parse if any."""
        if self.words[k].text in _VERBS_IN_S:
            return False  # the small model reads "after $t$ iterations converges" as two nouns
        tok = self._token_at(self.words[k].start)
        return tok is None or bool(tok.tag_ in ("NN", "NNS"))

    def _noun_modifier_word(self, k: int) -> bool:
        """A word that may modify the noun after it: lower-case letters, not a function word."""
        text = self.words[k].text
        return text.isalpha() and text.islower() and len(text) > 2 and text not in _NOT_MODIFIERS

    def _variable_count(self, k: int) -> bool:
        """Whether ``words[k]`` ends the nouns of an "in the number of <nouns>" that a bound depends
        on ("quadratic in the number of observations $n$"), which :meth:`_number_spans` leaves out
        as a quantity (v31)."""
        j = k
        while j > 0 and k - j < 3 and self._noun_modifier_word(j - 1) and self.words[j - 1].text != "of":
            j -= 1
        if j < 3 or self.words[j - 1].text != "of" or self.words[j - 2].text != "number":
            return False
        return self._variable_number(j - 2)

    def _before_number(self, k: int) -> int:
        """The word before the "number" at ``k``, past "the", "total", "overall" (-1 at the start)."""
        b = k - 1
        while b >= 0 and self.words[b].text in ("the", "total", "overall"):
            b -= 1
        return b

    def _variable_number(self, k: int) -> bool:
        """Whether the "number of …" at ``k`` is one a bound depends on: "polynomial in the number
        of states", "linear in the total number of …"."""
        b = self._before_number(k)
        return 0 <= b < k - 1 and self.words[b].text in ("in", "to")

    def _sized_algorithm(self, wk: int) -> bool:
        """ "the $O(N \\log N)$ Cooley-Tukey FFT algorithm": an asymptotic formula between a
        determiner and, at most three words on, the algorithm it sizes is that algorithm's running
        time (v16); words that describe the algorithm may stand before the formula ("an efficient
        $O(n \\log n)$ algorithm", "the previous $O(n^2)$ algorithm", v20)."""
        k = wk - 1
        while k >= 0 and wk - k <= 2 and _describes_algorithm(self.words[k].text):
            k -= 1
        if k < 0 or self.words[k].text not in ("the", "a", "an"):
            return False
        pieces = self.formulas[self.words[wk].formula].pieces
        if not any(p.role == "bound" and p.notation in ("O", "Theta") and not p.has_lhs for p in pieces):
            return False
        for k in range(wk + 1, min(wk + 5, len(self.words))):
            w = self.words[k]
            if w.formula >= 0 or self.sentences[k] != self.sentences[wk] or not w.text[:1].isalpha():
                return False  # "$O(\\log n)$-competitive algorithm" sizes another quantity
            if w.text in _SIZED_NOUNS:
                return True
        return False

    def _counted_plural(
        self, k: int, modified: bool, acronym: Any = None, conjunct: bool = False
    ) -> str | None:
        """``words[k]`` when it is a plural noun counting a resource, else None.

        The parse decides what is a plural noun when there is one ("$X$ holds" is a verb); without
        it, a plural-looking word that is not a common verb ending. After a modifier (``modified``)
        a nominal suffix also decides, since the parse may read "random projections" as a verb. A
        noun joined to a counted one by "and" (``conjunct``) may be one that alone counts nothing
        ("$X$ variables and constraints").
        """
        w = self.words[k]
        text = w.text
        if not text.isalpha() or len(text) < 4 or not text.endswith("s") or text.endswith(_NOT_PLURAL):
            return None
        if text in _NOT_MODIFIERS or (text in _NOT_COUNTED and not conjunct) or self._modifier_use(k + 1):
            return None
        tok = self._token_at(w.start)
        if acronym is not None and tok is not None and acronym.head == tok and acronym.dep_ == "compound":
            pass  # the acronym modifies it: a noun, however the parse tagged it
        elif modified and text.endswith(_NOUN_PLURAL_SUFFIXES):
            pass
        elif tok is not None:
            if tok.tag_ not in ("NNS", "NNPS"):
                return None
        elif text in _VERBS_IN_S:
            return None
        return text

    def _bound_on(self, wk: int) -> tuple[str, str] | None:
        """The quantity of "a bound on the X …" / "guarantees for X" earlier in the sentence.

        "their bound on the estimation error of any … algorithm on $n$ samples … is $X$": the
        quantity the bound is said to be on outranks nouns nearer to the formula.
        """
        lo, _ = self._sentence_span(wk)
        for k in range(wk - 2, lo - 1, -1):
            if self.words[k].text not in _BOUND_NOUNS or self.words[k + 1].text not in ("on", "for"):
                continue
            j = k + 2
            while j < wk and self.words[j].text in _BOUND_ON_FILLERS:
                j += 1
            hit = self._q_at(j, self._general, naming=True)
            if hit is not None and j + hit[1] <= wk:
                return hit[0]
        return None

    def _bound_on_after(self, wk: int) -> str | None:
        """ "$X$ lower bound on the regret", "$X$ guarantees for the excess risk", "an upper bound of
        $X$ on the loss": the bounded noun."""
        sent = self.sentences[wk]
        k = wk + 1
        while k < len(self.words) and k <= wk + 3 and self.words[k].text in _BOUND_SIDES:
            k += 1
        if (
            wk >= 2
            and self.words[wk - 1].text == "of"
            and self.words[wk - 2].text in _BOUND_NOUNS
            and k == wk + 1
            and k < len(self.words)
            and self.sentences[k] == sent
            and self.words[k].text == "on"
        ):
            # "a worst-case upper bound of $X$ on the loss after $T$ rounds" ("regret bounds of $X$
            # for suboptimality gap $\Delta_i$" names a parameter, not what is bounded)
            j = k + 1
        elif (
            k + 1 >= len(self.words)
            or self.sentences[k + 1] != sent
            or self.words[k].text not in _BOUND_NOUNS | _REQUIREMENT_NOUNS
            or self.words[k + 1].text not in ("on", "for")
        ):
            return None
        else:
            j = k + 2
        while j < len(self.words) and self.words[j].text in _BOUND_ON_FILLERS:
            j += 1
        if j < len(self.words) and self.words[j].formula >= 0:
            # "the $\widetilde{\Omega}(\kappa d)$ requirement on $n$", $n$ the number of samples
            symbol = self.abstract[self.words[j].start : self.words[j].end].strip("$ ").replace(" ", "")
            return self._symbol_quantities().get(symbol)
        hit = self._q_at(j, self._general, naming=True) if j < len(self.words) else None
        return hit[0][0] if hit is not None else None

    def _oracle_count_after(self, wk: int) -> str | None:
        """ "$X$ stochastic gradient and Hessian-vector product computations" count oracle calls.

        A counted resource (computations, products, evaluations, costs, calls, queries) after the
        formula whose modifiers name a gradient, a Hessian, a function or an oracle is an oracle
        complexity, whatever the head noun alone would say ("computations", "queries"); gradients
        alone, evaluated, computed or paid for, are a gradient complexity ("$X$ stochastic
        gradient evaluations").
        """
        sent = self.sentences[wk]
        named: set[str] = set()
        for k in range(wk + 1, min(wk + 9, len(self.words))):
            w = self.words[k]
            if self.sentences[k] != sent or w.formula >= 0:
                return None
            if w.text in _ORACLE_COUNTS:
                if not named:
                    return None
                gradient = named <= _GRADIENT_WORDS and w.text not in _ORACLE_ONLY_COUNTS
                return "gradient complexity" if gradient else "oracle complexity"
            if w.text in _ORACLE_WORDS:
                named.add(w.text)
            elif not (w.text in ("and", "or", "/", "-") or w.text.isalpha() and w.text not in _NOT_MODIFIERS):
                return None
        return None

    def _rate_subject(self, wk: int) -> str | None:
        """The quantity that "converges as", "decays like" or "is bounded by" the formula.

        "the loss converges as $O(1/t)$", "the regret of the method grows as $X$": the subject of
        the verb names what is bounded ("the weight vector converges …" names nothing).
        """
        lo = self._window_before(wk, 8)
        verb = next((k for k in range(wk - 1, lo - 1, -1) if self.words[k].text in _RATE_VERBS), None)
        if verb is None or any(self.words[k].text in (",", ";", "and") for k in range(verb, wk)):
            return None
        k = verb
        while k > lo and self.words[k - 1].text in _SUBJECT_SKIP:
            k -= 1
        found = self._q_ending(k, max(lo, k - 4), naming=True)
        if found is not None and self._counted_variable(k - 1, wk):
            # "The error … after $t$ iterations scales like $\\beta/t$": the count is the bound's
            # variable; the subject is the quantity named before it in the sentence (v23)
            s_lo = self._sentence_span(wk)[0]
            found = next(
                (
                    hit
                    for end in range(k - 2, s_lo, -1)
                    if (hit := self._q_ending(end, max(s_lo, end - 4), naming=True)) is not None
                ),
                None,
            )
        if found is None:
            # "the $\\ell_2$-error of our estimator decays": the noun before an "of" phrase
            of = next((j for j in range(k - 1, max(lo, k - 5) - 1, -1) if self.words[j].text == "of"), None)
            if of is not None:
                found = self._q_ending(of, max(lo, of - 4), naming=True)
        if found is None or found[1] in self.r.vague_ids:
            return None
        return found[0]

    def _measured_before(self, wk: int) -> str | None:
        """The specific quantity ending right before the formula, through linking words only
        ("regret of", "complexity at least", "regret"): what a unit after the formula measures."""
        k = wk
        lo = self._window_before(wk, 4)
        while k > lo and self.words[k - 1].text in _MEASURE_LINKS:
            k -= 1
        found = self._q_ending(k, max(0, k - 4))
        if found is None or found[1] in self.r.vague_ids:
            return None
        return found[0]

    def _bits_of(self, wk: int) -> str | None:
        """The resource counted in bits after the formula: "$X$ bits of space" is a space complexity,
        and so are "$X$ words of space" and "$X$ bits to store" (v20)."""
        sent = self.sentences[wk]
        for k in range(wk + 1, min(wk + 4, len(self.words) - 2)):
            if self.sentences[k + 2] != sent:
                return None
            if self.words[k].text in _MEMORY_UNITS and self.words[k + 1].text in ("of", "to"):
                return _BIT_RESOURCES.get(self.words[k + 2].text)
        return None

    def _resource_bound_before(self, wk: int) -> str | None:
        """ "communication lower bounds of $X$", "our space lower bound is $X$": a resource noun
        naming the bound before the formula names the quantity (the noun alone may name none)."""
        k = wk
        lo = self._window_before(wk, 6)
        while k > lo and self.words[k - 1].text in _MEASURE_LINKS:
            k -= 1
        if k - 1 <= lo or self.words[k - 1].text not in _BOUND_NOUNS:
            return None
        k -= 1
        while k > lo and self.words[k - 1].text in _BOUND_SIDES:
            k -= 1
        if k - 1 < lo or self.words[k - 1].formula >= 0:
            return None
        found = self._q_ending(k, max(lo, k - 4))
        if found is not None:
            return None if found[1] in self.r.vague_ids else found[0]  # "cumulative regret bound of"
        noun = self.words[k - 1].text
        hit = self.r.quantity_of.get((noun, "complexity")) or self.r.quantity_of.get((noun,))
        if hit is None or hit[1] in self.r.vague_ids or (noun,) in self.r.name_only:
            return None
        return hit[0]

    def _named_before(self, wk: int, head: str, plural: str) -> str | None:
        """The last specific quantity named before word ``wk`` whose name ends in ``head`` (written
        ``head`` or ``plural``): "the sample complexity of …" for a vague complexity (v22), "the
        per-iteration cost" for a bare "$X$ cost" (v29). A bare or vague phrase names nothing, nor
        one the rules rename ("time complexity" is a running time)."""
        for k in range(wk, 0, -1):
            if not self.words[k - 1].text.endswith((head, plural)):
                continue  # named as such, not counted ("output labels")
            found = self._q_ending(k, max(0, k - 4), self._general)
            if found is not None and found[1] not in self.r.vague_ids and found[0].endswith(head):
                return found[0]
        return None

    def _converging_rate(self, wk: int) -> bool:
        """Whether "rate" right before the formula (or right after it, "converge at a $X$ rate") is
        governed by a converging verb ("converges at a rate of $X$", "converging at rate $X$"): a
        convergence rate, whatever else the sentence names."""
        lo = self._window_before(wk, 6)
        rate = next((k for k in range(wk - 1, lo - 1, -1) if self.words[k].text in ("rate", "rates")), None)
        if rate is None:
            if _match_at(self.words, wk + 1, ("rate",)) or _match_at(self.words, wk + 1, ("rates",)):
                # "converge to the optimum at a $O(1/t^2)$ rate" (v23)
                lo = self._window_before(wk, 8)
                return any(self.words[k].text.startswith("converg") for k in range(lo, wk))
            return False
        return any(self.words[k].text.startswith("converg") for k in range(max(lo, rate - 4), rate))

    def _recent(self, k: int, wk: int) -> bool:
        """Whether word ``k`` is in ``wk``'s sentence or one of the two before: what "the rate" refers to."""
        return self.sentences[wk] - self.sentences[k] <= 2

    def _modifier_before_parenthesis(self, wk: int) -> str | None:
        """ "gradient (i.e., stochastic first-order oracle, SFO) complexity of $X$" → oracle complexity:
        the parenthesis names an oracle, or else the phrase before it names the quantity."""
        for h in range(wk - 1, max(wk - 4, 0), -1):
            if self.words[h].text not in ("complexity", "complexities", "rate", "rates"):
                continue
            if self.words[h - 1].text != ")":
                return None
            depth = 0
            for p in range(h - 1, max(h - 16, 0), -1):
                text = self.words[p].text
                depth += (text == ")") - (text == "(")
                if depth == 0:
                    if any(w.text in _ORACLE_NAMES for w in self.words[p + 1 : h - 1]):
                        return "oracle complexity"  # the parenthesis says it counts oracle calls
                    for n in (2, 1):
                        phrase = tuple(w.text for w in self.words[max(p - n, 0) : p]) + (self.words[h].text,)
                        hit = self.r.quantity_of.get(phrase)
                        if hit is not None and phrase not in self.r.sentence_first:
                            return hit[0]
                    return None
            return None
        return None

    def _computed_in(self, wk: int) -> bool:
        """ "runs in $O(nd)$.", "we can compute $A$ in $X$, such that …": time, named by the verb."""
        if wk < 2 or self.words[wk - 1].text != "in":
            return False
        nxt = self.words[wk + 1].text if wk + 1 < len(self.words) else "."
        if self.sentences[min(wk + 1, len(self.words) - 1)] != self.sentences[wk] or nxt in (",", ";", "."):
            lo = self._window_before(wk, 8, through_symbols=True)
            return any(self.words[k].text in _COMPUTE_VERBS for k in range(lo, wk - 1))
        return False

    def _symbol_quantities(self) -> dict[str, str]:
        """Symbols the abstract defines as a quantity, computed once: symbol → quantity.

        "$n$ is the number of samples", "$m$ the number of neurons", "the number of samples $n$",
        "sample size $n$", "$n$ samples": a bound on the symbol ("$n = \\Omega(d)$") bounds that.
        """
        if self.symbols is not None:
            return self.symbols
        symbols: dict[str, str] = {}
        n = len(self.words)
        for k, w in enumerate(self.words):
            if w.formula < 0:
                continue
            body = self.abstract[w.start : w.end].strip("$ ")
            if not _SYMBOL.fullmatch(body):
                continue
            sym = body.replace(" ", "")
            if sym in symbols:
                continue
            j = k + 1
            while j < n and self.words[j].text in _DEFINING_FILLERS:
                j += 1
            hit = self._q_at(j, self._general, naming=True) if j < n and j > k + 1 else None
            if hit is None and k + 1 < n:
                hit = self._q_at(k + 1, self._general)  # "$n$ samples"
            before = k - 1 if k > 0 and self.words[k - 1].text == "(" else k
            named = hit[0][0] if hit is not None else None
            if named is None and before > 0:
                found = self._q_ending(before, max(0, before - 6), self._general, naming=True)
                named = found[0] if found is not None else None
            if named is not None and self.sentences[min(j, n - 1)] == self.sentences[k]:
                symbols[sym] = named
        self.symbols = symbols
        return symbols

    def _acronyms(self) -> dict[str, str]:
        """Acronyms the abstract defines ("recursive teaching dimension (RTD)"): short → long form,
        as written ("Rademacher complexity (RC)"), lower-cased when every word is capitalized."""
        if self.acronyms is None:
            from extractors.abbrev import find_abbreviations

            self.acronyms = {}
            for abbr in find_abbreviations(self.abstract):
                long = abbr.long
                if all(w[:1].isupper() for w in long.split()):
                    long = long.lower()  # "Recursive Teaching Dimension (RTD)": title case
                self.acronyms.setdefault(abbr.short, long)
        return self.acronyms

    def _in_where_clause(self, k: int) -> bool:
        """Whether ``words[k]`` follows a "where" of its sentence (8 words back): a symbol's definition."""
        sent = self.sentences[k]
        for j in range(k - 1, max(k - 9, -1), -1):
            if self.sentences[j] != sent or self.words[j].text in (";", ":"):
                return False
            if self.words[j].text == "where":
                return True
        return False

    def _quantity(self, wk: int, latex_text: str) -> str | None:
        """What the formula bounds, in order of evidence:

        a quantity phrase adjacent to it ("$X$ regret", "regret of $X$", "in time $X$"), a counted
        plural noun right after it ("$X$ tests"), the quantity a bound is said to be "on" earlier in
        the sentence, a quantity near it, else in its sentence (not from a "where" clause defining
        symbols), else the quantity of the bound before, else the abstract's first quantity.
        """
        if latex_text in self.quantity_by_latex:
            # the same formula again: the same claim, unless a quantity right after it names
            # another ("$X$ regret and $X$ hard constraint violation"; "the $X$ rate" is no other)
            after = self._quantity_after(wk, naming=True)
            if after is not None and after[1] not in self.r.vague_ids:
                return after[0]
            resource = self._resource_right_before(wk) or self._improved_from_to(wk)
            if resource is not None:
                # "using $X$ samples and in linear time $X$"; "improves the time from $A$ to $X$ and
                # reduces the memory requirement from $X$ to $B$" (v31)
                return resource
            # "… on $2^{O(1/\epsilon^2)}$ nodes. … running time that is $2^{O(1/\epsilon^2)}$": the
            # subject of the predicate makes it another claim
            return self._predicate_subject(wk) or self.quantity_by_latex[latex_text]
        lhs = _LHS_SYMBOL.match(latex_text)
        if lhs is not None and lhs.group(1).replace(" ", "") in self._symbol_quantities():
            # "$n = \widetilde{\Omega}(\kappa d)$, where $n$ is the number of samples"
            return self._symbol_quantities()[lhs.group(1).replace(" ", "")]
        acronym = _LHS_ACRONYM.match(latex_text)
        if acronym is not None and acronym.group(1) in self._acronyms():
            # "the recursive teaching dimension (RTD) … $\mathrm{RTD}(\mathcal C) = O(d^2)$" (v13)
            return self._acronyms()[acronym.group(1)]

        def vague(q: tuple[str, str] | None) -> bool:
            return q is not None and q[1] in self.r.vague_ids

        resource = self._resource_right_before(wk)  # "runs in time $O(n^5)$", "uses memory $X$"

        q = self._quantity_after(wk, naming=True)
        if q is not None and q[1] == "q.cost":
            # "the per-iteration cost … a superlinear rate with $O(d^2)$ cost": the cost the abstract
            # named before (v29)
            named = self._named_before(wk, "cost", "costs")
            if named is not None:
                return named
        if q is None and resource is None:
            # "$X$ upper-level and $Y$ lower-level projection complexity"; but "requires space $X$
            # or $Y$ time" names the first formula's quantity right before it
            q = self._coordinated_quantity(wk)
        if q is not None and q[0] in ("number of bits", "number of words", "number of bytes"):
            # "must use $X$ bits of space": the resource the bits are of names the quantity
            resource = self._bits_of(wk)
            if resource is not None:
                return resource
        if q is not None and q[0].startswith("number of"):
            # "information complexity at least $X$ bits", "a regret of $X$ bits": a unit after the
            # formula measures the quantity named right before it
            measured = self._measured_before(wk)
            if measured is not None:
                return measured
        if q is None:
            # "$X$ lower bound on the regret", "$X$ stochastic gradient and Hessian-vector products",
            # "the loss converges as $X$": what the formula is said to bound, before nearer nouns
            named = (
                self._improved_from_to(wk)
                or self._improved_to(wk)
                or self._bound_on_after(wk)
                or self._resource_bound_before(wk)
                or self._oracle_count_after(wk)
                or self._predicate_subject(wk)
                or self._rate_subject(wk)
            )
            if named is not None:
                return named
            if resource is not None:
                return resource  # "$X$ samples in super-linear time $Y$" (v31)
            # "the optimal rate of convergence with only $O(\log T)$ projections": what the formula
            # counts (v31); but "a regret of $X$ facing strategic buyers" still bounds the regret
            tied = wk > 0 and self.words[wk - 1].text in _MEASURE_LINKS
            counted = None if tied else self._count_noun_after(wk)
            if counted is not None and counted not in ("number of words", "number of bytes"):
                return counted
            q = self._quantity_before(wk, 4, naming=True)
        if q is not None and not vague(q):
            return q[0]
        if q is not None:
            # "gradient (i.e., SFO) complexity of $X$": the modifier before a parenthesis
            named = self._modifier_before_parenthesis(wk)
            if named is not None:
                return named
            if self._converging_rate(wk):
                return "convergence rate"  # "while converging at a rate of $X$": the verb says which
        if q is None:
            named = self._apposition(wk)
            if named is not None:
                return named
        if q is None and (self._computed_in(wk) or _match_at(self.words, wk - 2, ("runs", "in"))):
            # "we can compute $A$ in $\widetilde{O}(m n^2)$, such that …"; "a parallel algorithm
            # which runs in $O(\log^3 d)$ when …" (v31: here, not in _computed_in, which also
            # decides whether a formula is a claim at all)
            return "running time"
        if resource is not None:
            return resource
        if q is None and wk >= 3 and _match_at(self.words, wk - 2, ("of", "size")):
            # "a uniform sample of size $X$", "a coreset of size $X$": the sized thing names it
            noun = self.words[wk - 3]
            if noun.text.isalpha() and noun.text not in _NOT_MODIFIERS:
                sized = self.r.quantity_of.get((noun.text, "size"))
                name = self.abstract[noun.start : noun.end]  # "GGMs of size $X$" keeps its case
                # "networks of size $X$" bound the network size, "GGMs of size $X$" the GGM size
                name = singularize(name) if name.islower() else acronym_singular(name)
                return sized[0] if sized is not None else f"{name} size"
        if q is None:
            counted = self._count_noun_after(wk)
            if counted in ("number of words", "number of bytes"):
                return self._bits_of(wk) or counted  # "$X$ words of space" (v20)
            if counted is not None:
                return counted
            if self._sized_algorithm(wk):
                return "running time"  # "it recovers the $O(N \\log N)$ Cooley-Tukey FFT algorithm"
        on = self._bound_on(wk)
        if on is not None and not vague(on):
            return on[0]
        q = q or self._quantity_near(wk, naming=True)
        if q is not None and not vague(q):
            return q[0]
        lo, hi = self._sentence_span(wk)
        for k in range(wk - 1, lo - 1, -1):
            if k + 1 < wk and self._is_symbol(k + 1):
                continue  # "up to total variation distance $\alpha$ is $X$": the phrase names $\alpha$
            if self._problem_class(k) or self._counted_variable(k, wk) or self._variable_count(k):
                continue  # "for strongly convex loss, it achieves the optimal rate of $X$" (v20)
            found = self._q_ending(k + 1, lo, self._general, naming=True)
            if found is not None:
                return found[0]
        for k in range(wk + 1, hi):
            if self.words[k].text == "where":
                break  # "…, where $m$ is the per-task sample size" defines symbols
            at = self._q_at(k, self._general, naming=True)
            if at is None or self._problem_class(k + at[1] - 1) or self._counted_variable(k, wk):
                continue  # "a rate of $O(1/N)$ for $N$ iterations": $N$ is the bound's variable (v20)
            if self._variable_count(k + at[1] - 1):
                continue  # "… scale as $O(n^3)$ in the number of data points" (v31)
            return at[0][0]
        if q is not None:
            before = self.made[-1] if self.made else None
            if before is not None and before["quantity"] is not None and self._recent(before["_word"], wk):
                return str(before["quantity"])  # "the above rate recovers …": the rate of the bound before
            if q[1] in ("q.rate", "q.rates"):
                rate_of = self._abstract_rate_of()
                if rate_of is not None:
                    return rate_of
            if q[0] == _VAGUE_COMPLEXITY:
                # "We analyze the sample complexity of … we require $X$ complexity": the complexity
                # the abstract named last
                named = self._named_before(wk, "complexity", "complexities")
                if named is not None:
                    return named
            return q[0]  # "achieves a rate of $X$", and the sentence names nothing more specific
        if self.last_quantity is not None:
            return self.last_quantity
        if not self.first_quantity:
            first = None
            for k in range(len(self.words)):
                at = self._q_at(k, self._general)
                if at is None or self._in_where_clause(k) or self._variable_count(k + at[1] - 1):
                    continue  # a symbol's definition, or a count the bound depends on (v31)
                first = at[0][0]
                break
            self.first_quantity.append(first)
        return self.first_quantity[0]

    # -- kind ------------------------------------------------------------------------------------

    def _claim(self, wk: int, piece: _Piece) -> tuple[str, str, str] | None:
        """Words that make a bare expression a bound: "of order $X$", "prior best $X$" …"""
        if not piece.formula_like:
            return None  # a lone symbol ("at least $\\varepsilon$") is a parameter, not a claim
        lo = self._window_before(wk, 8)
        if self._ends_before(wk, "order", lo=lo, gap=1):
            # "an upper bound on the regret …, of order $X$": the sentence says which side
            side = self._bound_side_before(wk)
            if side is not None:
                return side, "le" if side == "upper" else "ge", "cue.order+" + side
            return "order", "order", "cue.order"
        if self._ends_before(wk, "lower", lo=lo, gap=1):
            return "lower", "ge", "cue.lower"
        if self._ends_before(wk, "upper", lo=lo, gap=2):
            return "upper", "le", "cue.upper"
        s_lo, _ = self._sentence_span(wk)
        if _match_at(self.words, wk - 1, ("to",)) and any(
            self.words[j].text.startswith(_IMPROVE_VERBS) for j in range(max(s_lo, wk - 15), wk)
        ):
            return "upper", "le", "cue.improve-to"
        if _match_at(self.words, wk - 1, ("from",)) and _match_at(self.words, wk + 1, ("to",)):
            return "upper", "le", "cue.from-to"
        if self._kind(wk, piece, "order") == "tight":
            return "tight", "order", "cue.tight"
        if self._ends_before(wk, "copula", lo=lo) and self._quantity_before(wk, 8):
            s_lo, s_hi = self._sentence_span(wk)
            if any(
                self.words[k].text in ("bound", "bounds", "guarantee", "guarantees")
                for k in range(s_lo, s_hi)
            ):
                return "upper", "le", "cue.copula"
            return "order", "order", "cue.copula"
        if self._quantity_after(wk) is not None:
            return "upper", "le", "cue.quantity-after"
        if self._quantity_before(wk, 1) is not None and any(
            op in piece.expr for op in ("+", "/", "sqrt", "log", "^")
        ):
            return "upper", "le", "cue.quantity-before"  # "small iteration complexity $\\log_{2\\sqrt{2}}n$"
        return None

    def _unattainable_after(self, wk: int) -> bool:
        """ "a rate of $O(1/k^{1+\\epsilon})$ is not generally attainable": the formula's own
        predicate denies it can be reached, which bounds the quantity from below (v18)."""
        k = wk + 1
        if k + 1 < len(self.words) and self.words[k].text in _RESOURCE_NOUNS:
            k += 1  # "$\\poly(1/\\gamma)$ time is impossible" (v21)
        if any(_match_at(self.words, k, (verb, "not", "suffice")) for verb in ("do", "does")):
            return True  # "even $O(n^{1.499}/\\epsilon^2)$ examples do not suffice" (v22)
        if not (k < len(self.words) and self.words[k].text in ("is", "are")):
            return False
        k += 1
        while k < len(self.words) and k - wk <= 4 and self.words[k].text in _HEDGE_ADVERBS:
            k += 1
        if k < len(self.words) and self.words[k].text in ("impossible", "unachievable", "unattainable"):
            return True
        if not _match_at(self.words, k, ("not",)):
            return False
        k += 1
        while k < len(self.words) and k - wk <= 6 and self.words[k].text in _HEDGE_ADVERBS:
            k += 1
        return k < len(self.words) and self.words[k].text in _UNATTAINABLE

    def _lower_bound_after(self, wk: int) -> bool:
        """Whether a "lower-override" cue right after the formula names it ("an $O(d/T)$ lower
        bound", "$O(d/T)$-lower bound")."""
        k = wk + 1
        if k < len(self.words) and self.words[k].text == "-":
            k += 1
        return self.r.cue("lower-override", "after").at(self.words, k) is not None

    def _impossible_before(self, wk: int) -> bool:
        lo, _ = self._sentence_span(wk)
        phrases = self.r.cue("impossible", "sentence")
        for k in range(wk - 1, lo - 1, -1):
            if self.words[k].text in _CONTRASTS and k > lo and self.words[k - 1].text == ",":
                return False  # "… time is impossible, while learning is possible in time $X$" (v21)
            if phrases.at(self.words, k) is not None:
                return True
        return False

    def _bound_side_before(self, wk: int) -> str | None:
        """ "upper" or "lower" when "upper bound"/"lower bound" is said earlier in the sentence."""
        lo, _ = self._sentence_span(wk)
        for k in range(wk - 1, max(lo, wk - 25, 0), -1):
            if self.words[k].text in ("bound", "bounds") and self.words[k - 1].text in ("upper", "lower"):
                return self.words[k - 1].text
        return None

    def _kind(self, wk: int, piece: _Piece, kind: str) -> str:
        """Refine ``kind``: a bound the abstract calls tight, unimprovable or matching is ``tight``."""
        if kind == "tight":
            return kind
        if (
            kind == "upper"
            and piece.rule.startswith("head.")
            and self._ends_before(wk, "lower-override", lo=self._window_before(wk, 4), gap=1)
        ):
            return "lower"  # "a lower bound of $\\mathcal{O}(Km\\log T)$": the words say which side
        if kind == "upper" and piece.rule.startswith("head.") and self._lower_bound_after(wk):
            return "lower"  # "an $O(d/T)$ lower bound on the excess risk" (v27)
        if kind == "upper" and piece.notation in ("o", "O") and (
            self._impossible_before(wk) or self._unattainable_after(wk)
        ):
            return "lower"  # "impossible … with $o(\\log n)$ rounds" states a lower bound
        lo = self._window_before(wk, 4)
        before = self._ends_before(wk, "tight", lo=lo, gap=3)
        if before is not None:
            k = next((k for k in range(wk - 1, lo - 1, -1) if self.words[k].text == before[0]), wk)
            # "This lower bound is best possible, as $O(d^2)$ samples suffice": a cue that a comma
            # parts from the formula is about another bound (v27)
            parted = any(self.words[j].text in (",", ";") for j in range(k, wk))
            if not parted and self.r.cue("tight-hedge").ending(self.words, k, lo) is None:
                return "tight"  # but "almost tight", "nearly tight" are not
        sent = self.sentences[wk]
        after = self.r.cue("tight", "after")
        k = wk + 1
        # the clause after the formula: up to a comma, semicolon, another formula or the sentence end
        while (
            k < len(self.words)
            and k <= wk + 16
            and self.sentences[k] == sent
            and (self.words[k].text not in (",", ";") or _match_at(self.words, k, (",", "which")))
            and self.words[k].formula < 0
        ):
            # "…, which is also tight": a relative clause about the bound continues the clause
            phrase = after.at(self.words, k)
            if phrase is not None:
                if self._limited(phrase, k + len(phrase)):
                    return kind  # "tight up to log factors", "tight within polylog factors": not tight
                return "tight"
            k += 1
        end = k
        _, s_hi = self._sentence_span(wk)
        while end < s_hi and not self._bound_formula(end):
            end += 1  # "…, when $d>1$, and show that this bound is tight": a condition is passed (v20)
        if self._referred_tight(k, end) or self._called_tight_next(wk) or self._both_called_tight(end):
            return "tight"
        return kind

    def _both_called_tight(self, k: int) -> bool:
        """ "achieving loss $A$ when $d=1$ and $B$ when $d>1$, and show that both bounds are tight":
        the bounds of a sentence that later calls them all tight ("both bounds", "these rates";
        v20). ``k`` is the word after the clause of the first formula."""
        if k >= len(self.words):
            return False
        _, last = self._sentence_span(k)
        for j in range(k, last):
            if self._bound_formula(j):
                k = j + 1
        plural = any(
            self.words[j].text in ("both", "these", "all") and self.words[j + 1].text.endswith("s")
            and self.words[j + 1].text in _RESULT_NOUNS
            for j in range(k, last - 1)
        )
        return plural and self._referred_tight(k, last)

    def _bound_formula(self, k: int) -> bool:
        """Whether ``words[k]`` is a formula with a bound in it (not a condition such as "$d>1$")."""
        w = self.words[k]
        return w.formula >= 0 and self.formulas[w.formula].has_bound

    def _called_tight_next(self, wk: int) -> bool:
        """Whether the next sentence calls the bounds of this one tight: "… rate of order $X$. Those
        rates are optimal in the sense that they cannot be improved", "This bound is tight."

        The next sentence must open on a reference to them ("this bound", "these rates", "both
        results") and hold a tight cue after it, not hedged ("is nearly tight" is no cue) nor
        limited ("tight up to log factors").
        """
        sent = self.sentences[wk]
        _, k = self._sentence_span(wk)
        if k < len(self.words) and self.sentences[k] == sent:
            return False  # the sentence goes on past the look-around
        lo = k
        hi = k
        while hi < len(self.words) and hi - lo < _SPAN and self.sentences[hi] == sent + 1:
            hi += 1
        return self._referred_tight(lo, hi, opening=True) or self._matching_lower_next(lo, hi)

    def _matching_lower_next(self, lo: int, hi: int) -> bool:
        """ "… using $X$ samples. A matching information-theoretic lower bound is proved": a next
        sentence opening on a matching lower bound makes the bounds before it tight (v16)."""
        j = lo + (lo < hi and self.words[lo].text in ("a", "the"))
        if not _match_at(self.words, j, ("matching",)):
            return False
        return any(
            _match_at(self.words, m, ("lower", "bound")) or _match_at(self.words, m, ("lower", "bounds"))
            for m in range(j + 1, min(j + 4, hi - 1))
        )

    def _referred_tight(self, lo: int, hi: int, opening: bool = False) -> bool:
        """Whether ``words[lo:hi]`` refers to a bound ("this bound", "these rates") and calls it
        tight after that, unhedged and unlimited: "…, and that this bound is tight". With
        ``opening``, the reference must be among the first five words (a sentence's opening)."""
        after = self.r.cue("tight", "after")
        ref = next(
            (
                j
                for j in range(lo, min(lo + 5, hi - 1) if opening else hi - 1)
                if self.words[j].text in _REFERRING
                and (
                    self.words[j + 1].text in _RESULT_NOUNS
                    # "This sample complexity is shown to be optimal" (v21)
                    or opening
                    and self.words[j].text in ("this", "these")
                    and self.r.quantities.at(self.words, j + 1) is not None
                    # "…, and show that this is the best possible" (v16)
                    or self.words[j].text == "this"
                    and self.words[j + 1].text == "is"
                    and after.at(self.words, j + 1) is not None
                )
            ),
            None,
        )
        if ref is None:
            return False
        for j in range(ref + 1, hi):
            if self._bound_formula(j):
                return False  # a formula of its own: the words are about that one
            phrase = after.at(self.words, j)
            if phrase is not None:
                return not self._limited(phrase, j + len(phrase))
        return False

    def _limited(self, phrase: Phrase, end: int) -> bool:
        """Whether the tight cue ``phrase`` ending before ``words[end]`` is limited: "tight up to log
        factors", "within polylog factors", or in one variable only ("optimal in $n$", v21)."""
        return (
            phrase[-1] == "up"
            or _match_at(self.words, end, ("up", "to"))
            or _match_at(self.words, end, ("within",))
            or _match_at(self.words, end, ("in",))
            and end + 1 < len(self.words)
            and self.words[end + 1].formula >= 0
        )

    # -- attribution -----------------------------------------------------------------------------

    def _cue_state(self, lo: int, hi: int, where: str = "before") -> str | None:
        """The last attribution cue in ``words[lo:hi]``: ``prior``, ``this`` or None.

        ``where="after"`` uses the narrower earlier-work cues that may follow a bound ("…, recent
        work has …"); "improving over the state of the art" after a bound does not make it prior.
        """
        state = None
        prior, this = self.r.cue("prior", where), self.r.cue("this")
        not_prior = self.r.cue("prior-not-before", "after")
        k = lo
        while k < hi:
            if self._citation_at(k):
                state = "prior"  # "Chen and Li (2016)", "[NIPS 2017]", "\\cite{…}"
                k += 1
                continue
            hit = prior.at(self.words, k)
            # "prior knowledge", "prior distribution": the Bayesian prior, not earlier work
            if (
                hit is not None
                and k + len(hit) <= hi
                and not_prior.at(self.words, k + len(hit)) is None
                and not self._bounding_than(k, hit)
                and not self._suffered_by_any(k, hit)
                and not self._known_as_given(k, hit)
                and not self._known_attained(k, hit)
            ):
                state = "prior"
                k += len(hit)
                continue
            hit = this.at(self.words, k)
            nxt = k + len(hit) if hit is not None else hi
            setting = nxt < hi and self.words[nxt].text in _SETTING_NOUNS
            if hit in (("our",), ("in", "this")) and setting:
                hit = None  # "benchmarks in our task including $X$", "in this case": the setting
            if hit is not None and k + len(hit) <= hi and self._before_this(k):
                state = "prior"  # "Prior to this work, other methods required $X$"
                k += len(hit)
                continue
            if hit is not None and k + len(hit) <= hi:
                state = "this"
                k += len(hit)
                continue
            k += 1
        return state

    def _continued_clause(self, wk: int) -> str | None:
        """The attribution of the bound before when this one's clause has no subject of its own.

        "…, both of which achieved error $O(1/T)$, but only in expectation, and achieved … $X$":
        from the previous bound of the sentence to this one, no subject ("we", a noun before a
        verb in the parse) and no attribution cue intervene, so whoever claimed the first bound
        claims this one too. Needs the parse; without it, None.
        """
        if self.doc is None or not self.made:
            return None
        prev = self.made[-1]["_word"]
        if self.sentences[prev] != self.sentences[wk] or wk - prev > _SPAN:
            return None
        for k in range(prev + 1, wk):
            w = self.words[k]
            if w.formula >= 0 or w.text in (";", ".", "we", "our", "us", "i"):
                return None
            tok = self._token_at(w.start)
            if tok is not None and tok.dep_ in ("nsubj", "nsubjpass", "expl"):
                return None  # a clause with its own subject
        return str(self.made[-1]["attribution"])

    def _of_other_method(self, wk: int) -> bool:
        """Whether "of <a method>" right after the formula names a method this paper does not propose.

        "the complexity $X$ of SAGA", "the rate $X$ of first-order methods": a named method other
        than the ones the abstract introduces ("We develop an algorithm ADSAGA"), or a plural class
        of methods, owns the bound.
        """
        k = wk + 1
        if k >= len(self.words) or self.words[k].text != "of" or self.sentences[k] != self.sentences[wk]:
            return False
        k += 1
        if k < len(self.words) and self.words[k].text == "the":
            k += 1
        if k >= len(self.words) or self.words[k].formula >= 0:
            return False
        w = self.words[k]
        name = self.abstract[w.start : w.end]
        if _is_method_name(name):
            return name not in self._own_names()
        for j in range(k, min(k + 4, len(self.words))):
            text = self.words[j].text
            if text in _OWN_MARKS or not (text.isalpha() or "-" in text):
                return False
            if text.endswith("s") and text[:-1] in _METHOD_NOUNS:
                return True
        return False

    def _own_names(self) -> frozenset[str]:
        """Method names the abstract introduces: the first name after "we propose/develop/…" or "our"."""
        if self.own_names is not None:
            return self.own_names
        names = set()
        for k, w in enumerate(self.words):
            if w.text not in _INTRODUCING:
                continue
            for j in range(k + 1, min(k + 6, len(self.words))):
                name = self.abstract[self.words[j].start : self.words[j].end]
                if _is_method_name(name):
                    names.add(name)
                    break
        self.own_names = frozenset(names)
        return self.own_names

    def _citation_at(self, k: int) -> bool:
        """Whether ``words[k]`` is a citation: a year closing a reference, or ``\\cite``."""
        w = self.words[k]
        if w.text in ("cite", "citep", "citet") and k > 0 and self.words[k - 1].text == "\\":
            return True
        if len(w.text) != 4 or not w.text.isdigit() or not w.text.startswith(("19", "20")):
            return False
        nxt = self.words[k + 1].text if k + 1 < len(self.words) else ""
        if len(nxt) == 1 and nxt in "abcdef" and k + 2 < len(self.words):
            nxt = self.words[k + 2].text  # "(Li, 2009a)": an author's second paper that year
        prev = self.words[k - 1].text if k > 0 else ""
        # "(2016)", "(Feldman and Vondrak, 2018)", "[WWW 2020]", "[Hu and Evans, UAI 2020]"
        return nxt in (")", "]", ";") or prev in ("(", "[")

    def _cited_after(self, wk: int) -> bool:
        """Whether a citation follows the formula ("$X$ (Cai et al., 2022)", "$X$ by Lee et al.
        2020", "$X$ in \\cite{…}"), before any other formula or the clause's end (v22)."""
        k = wk + 1
        if k < len(self.words) and self.words[k].text in ("in", "by", "of", "from"):
            k += 1
        if k >= len(self.words):
            return False
        first = self.abstract[self.words[k].start : self.words[k].start + 1]
        if not (self.words[k].text in ("(", "[", "\\") or first.isupper()):
            return False  # a reference opens on a bracket, \\cite or an author's name
        sent = self.sentences[wk]
        for j in range(k, min(k + 9, len(self.words))):
            w = self.words[j]
            if self.sentences[j] != sent or w.formula >= 0 or w.text == ";":
                return False
            if self._citation_at(j):
                return True
        return False

    def _bounding_than(self, k: int, hit: Phrase) -> bool:
        """ "never larger than $X$", "no more than $X$": ``than`` stating a bound, not a comparison."""
        if hit != ("than",):
            return False
        return any(self.words[j].text in ("no", "not", "never") for j in range(max(0, k - 2), k))

    def _before_this(self, k: int) -> bool:
        """Whether the this-paper cue at ``k`` is the object of "prior to" / "before": earlier work."""
        return k >= 1 and self.words[k - 1].text == "before" or _match_at(self.words, k - 2, ("prior", "to"))

    def _known_as_given(self, k: int, hit: Phrase) -> bool:
        """ "if $Q$ is known, the sample complexity becomes $X$": "known" said of a given input in a
        condition clause (if, when, unless …) means given, not known from earlier work."""
        if hit != ("known",) or k < 2 or self.words[k - 1].text not in ("is", "are", "be", "been"):
            return False
        lo = self._sentence_span(k)[0]
        for j in range(k - 2, lo - 1, -1):
            if self.words[j].text in (",", ";", ":"):
                return False  # the clause began without a condition
            if self.words[j].text in _GIVEN_OPENERS:
                return True
        return False

    def _known_attained(self, k: int, hit: Phrase) -> bool:
        """ "SGD can achieve the fastest known $X$", "reach the best known complexity of $X$": the
        subject attains the known value, so the bound is its own claim (v16)."""
        if hit[-1] not in ("known", "best-known"):
            return False
        j = k - 1
        while j >= 0 and k - j <= 3 and self.words[j].text in _KNOWN_FILLERS:
            j -= 1
        return j >= 0 and self.words[j].text.startswith(_ATTAIN_VERBS)

    def _suffered_by_any(self, k: int, hit: Phrase) -> bool:
        """ "any algorithm must suffer $X$", "our method suffers only $X$": a claim, not a baseline.

        "suffers" points to earlier work ("Stress Majorization suffers from high complexity
        $X$") unless a lower bound over every method or this paper's method is the subject.
        """
        if not hit[0].startswith("suffer"):
            return False
        if any(self.words[j].text in _SUFFER_CLAIMS for j in range(max(0, k - 3), k)):
            return True
        # "We show … that the algorithm suffers $\Omega(T^{2/3})$": a result of this paper
        lo, _ = self._sentence_span(k)
        return any(self.words[j].text in ("we", "our", "us") for j in range(lo, k))

    def _cue_state_any(self, lo: int, hi: int, where: str = "before") -> str | None:
        """``this`` if any "we"/"our" cue is in ``words[lo:hi]``, else ``prior`` if any earlier-work cue."""
        found = {
            self._cue_state(k, min(hi, k + 4), where) for k in range(lo, hi) if self.words[k].formula < 0
        }
        if "this" in found:
            return "this"
        return "prior" if "prior" in found else None

    def _attribution(self, wk: int) -> str:
        """``prior`` when the words before the formula point to earlier work, else ``this``.

        The cues since the previous formula of the sentence decide; without any, the words after
        it ("To address the prohibitive $O(n^3)$ cost, recent work …"), and without any there
        either, the nearest earlier sentence that has one.
        """
        lo = self._window_before(wk, _SPAN, through_symbols=True)
        # "… improve upon the state of the art; in particular, it is the first to achieve $X$": a
        # semicolon closes the clause whose cues spoke of earlier work
        lo = next((k + 1 for k in range(wk - 1, lo - 1, -1) if self.words[k].text == ";"), lo)
        # "… improves upon the original regret bound …, achieving a regret of $X$": the participle
        # after a comma states what the subject reaches, not the earlier work just named (v18)
        lo = next(
            (
                k + 1
                for k in range(wk - 1, lo, -1)
                if self.words[k].text in _REACHING_PARTICIPLES and self.words[k - 1].text == ","
            ),
            lo,
        )
        if self._from_before(wk) and self._to_formula_after(wk):
            # "improves from $A$ to $B$", "accelerates from a rate of $A$ to $B$", "from $A$ for
            # PC-PG to $B$ for COPOE"
            return "prior"
        if self._to_end_of_from(wk):
            return "this"  # "reduced from the typical $A$ complexity to merely $B$": the new value (v28)
        if self.r.cue("prior-right-after", "after").at(self.words, wk + 1) is not None:
            return "prior"  # "a lower bound of $X$ is known", "$X$ was conjectured"
        if self._cited_after(wk):
            return "prior"  # "improving the one with overhead $X$ in \\cite{BHPQ17}" (v22)
        if self._claimed_here_after(wk):
            return "this"  # "matching the $X$ lower bound established in this paper"
        if self._ends_before(
            wk, "prior-adjacent", lo=self._window_before(wk, 6), gap=3
        ) is not None and not self._resource_preposition_before(wk):
            return "prior"  # "analogous to the $X$ optimistic rate", "matching the $X$ lower bound"
        if self._improved_object(wk):
            return "prior"  # "which substantially improves the sublinear rate $X$ of …"
        conj = self._earlier_conjunct(wk)
        if conj is not None and lo < conj[1]:
            # "… a novel algorithm that improves upon the state of the art and achieves $X$": the
            # cues of the predicate coordinated before speak of that predicate only
            state = self._cue_state(conj[1], wk)
            if state is None and lo < conj[0]:
                state = self._cue_state(lo, conj[0])
        else:
            state = self._cue_state(lo, wk)
        if state is not None:
            return state
        if _match_at(self.words, wk - 1, ("to",)):
            return "this"  # "sharpens the prior best $A$ … to $B$": the improved value
        item = self._enumerated_item(wk)
        if item is not None:
            return item
        if wk - lo <= 3 and self.made and self.made[-1]["_word"] == lo - 1:
            return str(self.made[-1]["attribution"])  # a list: "$O(n^3)$, $O(n^2)$ and $n^2$"
        same_clause = self._continued_clause(wk)
        if same_clause is not None:
            return same_clause
        first, last = self._sentence_span(wk)
        if self._cue_state(first, min(wk, first + 3)) == "prior" and self._cue_state_any(first, wk) != "this":
            return "prior"  # "Existing guarantees …: in offline bounds …, the penalty is $X$"
            # (but "In contrast, we show that …, as long as $X$" speaks of this paper)
        hi = wk + 1
        while hi < last and self.words[hi].formula < 0:
            hi += 1
        state = self._cue_state_any(wk + 1, hi, "after")
        if state is None and self._of_other_method(wk):
            return "prior"  # "the complexity $X$ of SAGA without delays", "… of first-order methods"
        if state is not None:
            return state
        if self._cue_state_any(first, wk) == "this":
            return "this"  # "We give two applications: …, and … with $X$"
        k = first - 1
        for _ in range(_BACK_SENTENCES):
            if k < 0:
                break
            s_lo, s_hi = self._sentence_span(k)
            state = self._cue_state_any(s_lo, s_hi)
            if state is not None:
                return state
            k = s_lo - 1
        first_this = self._first_this()
        if first_this is not None and first_this > wk:
            # "Most kernel methods … require $O(n^2)$ time. … In this paper, we …": a bound stated
            # with no cue before the abstract first speaks of itself is the background
            return "prior"
        return "this"

    def _resource_preposition_before(self, wk: int) -> bool:
        """ "can recover the tensor exactly from $X$ samples": a preposition right before the formula
        introduces what the verb needs, so the verb's object is no earlier value (v23)."""
        return wk > 0 and self.words[wk - 1].text in ("from", "using", "with", "within")

    def _enumerated_item(self, wk: int) -> str | None:
        """The attribution of the bound in the item before when the formula sits in a later item
        of an enumeration ("generalizes previous known bounds: (i) … $A$, and (ii) … with regret
        $B$"), with no cue of its own between its marker and it (v16)."""
        lo, _ = self._sentence_span(wk)
        for m in range(wk - 1, max(lo, wk - _SPAN) - 1, -1):
            w = self.words[m]
            if w.formula >= 0:
                return None  # another formula before any marker: the item has its own
            if w.text in _LATER_ITEMS and m + 1 < wk and self.words[m + 1].text == ")":
                before = self.made[-1] if self.made else None
                if (
                    before is None
                    or self.sentences[before["_word"]] != self.sentences[wk]
                    or before["_word"] >= m
                    or self._cue_state(m + 2, wk) is not None
                ):
                    return None
                return str(before["attribution"])
        return None

    def _first_this(self) -> int | None:
        """The first word of a this-paper cue ("we", "our", "this paper") in the abstract, computed once."""
        if not self.first_this:
            this = self.r.cue("this")
            self.first_this.append(next((k for k in range(len(self.words)) if this.at(self.words, k)), None))
        return self.first_this[0]

    def _earlier_conjunct(self, wk: int) -> tuple[int, int] | None:
        """``(verb word, conjunct start word)`` when the formula is in a predicate coordinated after
        another ("… improves upon X and achieves $Y$"): the words from the first predicate's verb up
        to the second predicate belong to the first only. Needs the parse."""
        tok = self._token_at(self.words[wk].start)
        if tok is None:
            return None
        for anc in (tok, *tok.ancestors):
            if anc.dep_ == "conj" and anc.pos_ in ("VERB", "AUX") and anc.head.i < anc.i:
                verb, start = self._word_of(anc.head), self._word_of(anc.left_edge)
                if verb is not None and start is not None and verb < start <= wk:
                    return verb, start
                return None
        return None

    def _from_before(self, wk: int) -> bool:
        """Whether "from" opens the phrase the formula ends: "from $A$", "from a rate of $A$"."""
        for k in range(wk - 1, max(wk - 5, -1), -1):
            text = self.words[k].text
            if text == "from":
                return True
            if text not in _FROM_FILLERS:
                return False
        return False

    def _to_end_of_from(self, wk: int) -> bool:
        """Whether the formula ends a "from $A$ … to $B$" chain as its $B$ (v28)."""
        j = wk - 1
        while j >= 0 and wk - j <= 4 and self.words[j].text in _TO_FILLERS and self.words[j].text != "to":
            j -= 1
        if j < 0 or self.words[j].text != "to":
            return False
        prev = next((i for i in range(j - 1, max(j - 8, -1), -1) if self.words[i].formula >= 0), None)
        return prev is not None and self._from_before(prev) and self._to_formula_after(prev)

    def _to_formula_after(self, wk: int) -> bool:
        """Whether "to" and another formula follow within the clause: "$A$ to $B$", "$A$ for
        PC-PG to up to $B$" (not "from $A$ to learn"; no comma between); a parenthesis after the
        formula is passed over ("from $A$ (no similarity matrix) to $B$", v20)."""
        sent = self.sentences[wk]
        start = wk + 1
        if start < len(self.words) and self.words[start].text == "(":
            stop = min(start + 8, len(self.words))
            close = next((j for j in range(start + 1, stop) if self.words[j].text == ")"), None)
            if close is None:
                return False
            start = close + 1
        for k in range(start, min(start + 4, len(self.words) - 1)):
            w = self.words[k]
            if self.sentences[k] != sent or w.formula >= 0 or w.text in (",", ";", "."):
                return False
            if w.text == "to":
                j = k + 1
                while j < len(self.words) and j <= k + 3 and self.words[j].text in _TO_FILLERS:
                    j += 1
                return j < len(self.words) and self.words[j].formula >= 0
        return False

    def _improved_object(self, wk: int) -> bool:
        """Whether the formula is in the object of an improving verb ("improves the sublinear rate
        $X$", "we improve the best known $X$ regret bound … to $Y$"): the value improved upon.

        The parse path from the formula to the verb goes through nouns only (compound, apposition,
        modifier, the object itself); "improves the regret to $X$" or "by $X$" is another path.
        Needs the parse.
        """
        tok = self._token_at(self.words[wk].start)
        if tok is None:
            return False
        cur = tok
        for _ in range(4):
            if cur.dep_ == "dobj":
                lemma = cur.head.lemma_.lower()
                if lemma in _REDUCING_LEMMAS:
                    # "reduce the complexity $X$ of … to $Y$" reduces $X$; "reduce the sample
                    # complexity …, i.e., $X$" restates what it reduces to (v20)
                    verb = self._word_of(cur.head)
                    return verb is not None and not any(
                        self.words[j].text in (",", ";", "i.e.") for j in range(verb, wk)
                    )
                return lemma in _IMPROVING_LEMMAS
            if cur.dep_ not in ("compound", "appos", "nmod", "amod", "nummod") or cur.head is cur:
                return False
            cur = cur.head
        return False

    def _claimed_here_after(self, wk: int) -> bool:
        """ "the $X$ lower bound established in this paper": a participle after the bound noun that
        names this paper as the source."""
        k = wk + 1
        while k < len(self.words) and k <= wk + 3 and self.words[k].text in _BOUND_SIDES:
            k += 1
        if k + 2 >= len(self.words) or self.words[k].text not in _BOUND_NOUNS:
            return False
        if self.sentences[k + 2] != self.sentences[wk]:
            return False
        if not self.words[k + 1].text.endswith(_PARTICIPLE_ENDINGS):
            return False
        this = self.r.cue("this")
        return any(this.at(self.words, j) is not None for j in range(k + 2, min(k + 4, len(self.words))))

    def _attribution_features(self, wk: int, rule: str) -> list[str]:
        """Inputs of a learned attribution for the formula word ``wk``, sorted.

        Only :mod:`extractors.train.bounds_attribution` reads them (the model did not beat the
        rules under grouped cross-validation, so extraction never computes them). ``rule`` is the
        rule-based decision (:meth:`_attribution`). Words are lowercased and
        alphabetic; the clause before is the window :meth:`_attribution` reads (12 words at most,
        back to the previous bound or a semicolon), the words after stop at the next formula.
        """
        words = self.words
        first, last = self._sentence_span(wk)
        feats = {"rule:" + rule}
        lo = self._window_before(wk, 12, through_symbols=True)
        lo = next((k + 1 for k in range(wk - 1, lo - 1, -1) if words[k].text == ";"), lo)
        before = [w.text for w in words[lo:wk] if w.formula < 0 and _feature_word(w.text)]
        hi = wk + 1
        while hi < last and hi - wk <= 8 and words[hi].formula < 0:
            hi += 1
        after = [w.text for w in words[wk + 1 : hi] if _feature_word(w.text)]
        feats.update("b:" + t for t in before)
        feats.update(f"bb:{a}_{b}" for a, b in zip(before, before[1:], strict=False))
        feats.update("a:" + t for t in after)
        sentence = [w.text for w in words[first:last] if w.formula < 0]
        feats.update("s:" + t for t in sentence if _feature_word(t))
        if any(t in _WE for t in sentence):
            feats.add("s_we")
        if any(t in _WE for t in before):
            feats.add("b_we")
        if any(w.text in _WE for w in words[:first]):
            feats.add("earlier_we")
        if any(a == "this" and b in _PAPER_NOUNS for a, b in zip(sentence, sentence[1:], strict=False)):
            feats.add("s_this_paper")
        if any(self._citation_at(k) for k in range(first, last)) or any(
            a == "et" and b == "al" for a, b in zip(sentence, sentence[1:], strict=False)
        ):
            feats.add("s_cite")
        sent = self.sentences[wk]
        n_sent = self.sentences[-1] + 1 if self.sentences else 1
        feats.add(f"pos:{min(sent, 3)}")
        feats.add(f"third:{min(2, 3 * sent // n_sent)}")
        if not self.made:
            feats.add("first_bound")
        elif self.sentences[self.made[-1]["_word"]] == sent:
            feats.add("prev_in_sentence:" + str(self.made[-1]["attribution"]))
        for k in range(lo, wk):
            tok = self._token_at(words[k].start)
            if tok is not None and tok.tag_ in _VERB_TAGS:
                feats.add("bt:" + tok.tag_)
        for k in range(first, last):
            tok = self._token_at(words[k].start)
            if tok is not None and tok.tag_ in _VERB_TAGS:
                feats.add("st:" + tok.tag_)
        return sorted(feats)

    # -- records ---------------------------------------------------------------------------------

    def _bound(self, piece: _Piece, wk: int, kind: str, notation: str, rule: str) -> dict[str, Any]:
        latex_text = self.abstract[piece.start : piece.end]
        quantity = self._in_expectation(wk, self._quantity(wk, latex_text))
        if quantity is not None:
            self.quantity_by_latex.setdefault(latex_text, quantity)
            self.last_quantity = quantity
        out = {
            "form": "formula",
            "kind": self._kind(wk, piece, kind),
            "notation": notation,
            "soft": piece.soft,
            "latex": latex_text,
            "expr": piece.expr,
            "variables": piece.variables,
            "quantity": quantity,
            "subject": self._subject(wk),
            "attribution": self._attribution(wk),
            "condition": None,
            "start": piece.start,
            "end": piece.end,
            "confidence": _CONFIDENCE.get(rule.split(".")[0], 0.7),
            "_word": wk,
        }
        if self.collect is not None:  # inputs of a learned attribution, for its cross-validation
            rule_decision = str(out["attribution"])
            features = self._attribution_features(wk, rule_decision)
            self.collect.append((piece.start, piece.end, features, rule_decision))
        self.made.append(out)
        self.bound_words.add(wk)
        return out

    def _in_expectation(self, wk: int, quantity: str | None) -> str | None:
        """"a regret bound of $X$ in expectation" bounds the expected regret (v11): an expectation
        right after the formula qualifies a regret, risk, error, loss or cost it bounds, as "expected"
        before it does ("samples in expectation" stay a sample complexity)."""
        if (
            quantity is None
            or quantity.split(" ")[-1] not in _EXPECTABLE
            or quantity.startswith("expected ")
            or not _match_at(self.words, wk + 1, ("in", "expectation"))
            or self.sentences[wk + 2] != self.sentences[wk]
        ):
            return quantity
        return "expected " + quantity

    def _subject(self, wk: int) -> str | None:
        if self.doc is None or self.norm is None:
            return None
        return subject_of(self.doc, self.norm, self.words[wk].start)

    def _verbal(self) -> Iterator[dict[str, Any]]:
        """Formula-free claims from ``bounds_verbal.jsonl``, longest phrase first, never overlapping."""
        k = 0
        n = len(self.words)
        while k < n:
            phrase = self.r.verbal.at(self.words, k)
            if phrase is None:
                k += 1
                continue
            kind, quantity, _ = self.r.verbal_of[phrase]
            start, end = self.words[k].start, self.words[k + len(phrase) - 1].end
            yield {
                "form": "verbal",
                "kind": kind,
                "notation": "verbal",
                "soft": False,
                "latex": self.abstract[start:end],
                "expr": "",
                "variables": (),
                "quantity": quantity,
                "subject": self._subject(k),
                "attribution": self._attribution(k),
                "condition": None,
                "start": start,
                "end": end,
                "confidence": 0.6,
                "_word": k,
            }
            k += len(phrase)


_SPAN = 80  # words either side of a formula that its sentence may contribute
_WE = frozenset(("we", "our", "us", "ours"))
_PAPER_NOUNS = frozenset(("paper", "work", "article", "note", "study"))
_VERB_TAGS = frozenset(("VBD", "VBN", "VBZ", "VBP", "VBG", "VB", "MD"))


def _feature_word(text: str) -> bool:
    return text.isalpha() or "-" in text and any(c.isalpha() for c in text)


_BACK_SENTENCES = 3  # earlier sentences an attribution may be inherited from
_CONDITION_FILLERS = frozenset(("the", "that", "all", "a", "regime", "case", "some"))
# Condition cues that make even a bare asymptotic formula a regime ("when $X$", "assumed to be $X$").
_REGIME_CUES = frozenset((("such", "as"), ("when",), ("if",), ("whenever",), ("assumed", "to", "be")))
# Words opening a sentence's conditional clause (v20).
_CLAUSE_OPENERS = frozenset("when if whenever provided assuming unless".split())
# Words that start the main clause after a condition written without a comma (v22).
_MAIN_CLAUSE_OPENERS = frozenset(("we", "then", "our", "one"))
_IMPROVE_VERBS = ("improv", "sharpen", "reduc", "tighten", "lower", "decreas")
# Participles that bound what comes "by" them: "capped by $X$" is no amount of improvement.
_BOUNDING_PARTICIPLES = frozenset(("capped", "bounded", "dominated", "majorized", "upper-bounded"))
# Markers of a later item of an enumeration: "(ii)", "(b)", "(2)".
_LATER_ITEMS = frozenset(("ii", "iii", "iv", "v", "vi", "b", "c", "d", "2", "3", "4", "5"))
# Words set in math that are no product of symbols: "given $iid$ observations".
_MATH_WORDS = frozenset(("iid", "whp"))  # not "st": "$st$ samples" is a product
# A list of symbols with an ellipsis item: "$x_1, \\ldots, x_n$", "$X_1,X_2,\\ldots$" (a sum
# "$n_1 + \\cdots + n_k$" is not one).
_ENUMERATION = re.compile(r",[\s;~]*\\(?:ldots|dots|dotsc|cdots)\b")
# "a rate of $X$ is not (generally) attainable": the adverbs allowed around "not", and the words.
_HEDGE_ADVERBS = frozenset(("generally", "always", "in", "general", "even", "possibly", "then"))
_UNATTAINABLE = frozenset(("attainable", "achievable", "possible", "attained", "achieved"))
# The resource a formula may count before its predicate ("$X$ time is impossible"), and the words
# after a comma that open a contrasting clause (v21).
_RESOURCE_NOUNS = frozenset(
    ("time", "space", "memory", "samples", "examples", "queries", "rounds", "regret", "measurements")
)
_CONTRASTS = frozenset(("while", "whereas", "but"))
# "…, achieving a regret of $X$": participles that open the clause of what the subject reaches.
_REACHING_PARTICIPLES = frozenset(("achieving", "attaining", "obtaining", "yielding", "reaching"))
# "the $O(N \\log N)$ FFT algorithm": nouns whose running time a formula before them states.
_SIZED_NOUNS = frozenset(("algorithm", "algorithms", "method", "procedure"))
# A loss or objective these make a class of problems ("for strongly convex losses", v20).
_CLASS_NOUNS = frozenset("loss losses objective objectives function functions".split())
_CLASS_ADJECTIVES = frozenset(
    "convex strongly non-convex nonconvex concave smooth non-smooth nonsmooth lipschitz general "
    "quadratic exp-concave uniformly strictly self-concordant".split()
)
# The qualifiers that make a convergence rate another quantity (v20).
_RATE_QUALIFIERS = frozenset(("expected", "ergodic"))
# Words that describe an algorithm, not its cost, before the formula that sizes it (v20).
_ALGORITHM_ADJECTIVES = frozenset("simple naive classical randomized deterministic greedy practical".split())
# Verbs whose subject attains a known value ("achieves the best known $X$"), and the words between.
_ATTAIN_VERBS = ("achiev", "attain", "reach", "enjoy", "has", "have", "having")
_KNOWN_FILLERS = frozenset(("the", "fastest", "best", "same", "optimal"))


# Words that end a run of modifiers between a formula and its quantity noun.
_NOT_MODIFIERS = frozenset(
    "and or for of to in on with by the a an is are that which whose where when if as at from "
    "up than while whereas after over within under using via before until".split()
)
# Generic head nouns a modifier before them specialises ("teaching complexity", "constraint
# violation", "Hellinger distance"): head word -> the head as named in a quantity.
_OPEN_HEADS = {
    "complexity": "complexity",
    "complexities": "complexity",
    "violation": "violation",
    "violations": "violation",
    "divergence": "divergence",
    "distance": "distance",
    "discrepancy": "discrepancy",
    "radius": "radius",
    "dimension": "dimension",
    "accuracy": "accuracy",
}
# Words before a head noun that qualify the bound, not the quantity ("total complexity").
_NOT_NOUN_MODIFIERS = frozenset(
    "this these that its their our his her total overall optimal best same worst average expected "
    "improved new low high small large lower upper tight near minimax such further its any each "
    "both whose overall computational".split()
)
# Dependency labels and tags of a word that qualifies a quantity noun ("Nash regret", "expected
# regret", "calibration error"), and the words that qualify the bound instead ("optimal regret",
# "worst-case regret", "high-probability regret", "PAC sample complexity").
_QUALIFIER_DEPS = frozenset(("compound", "amod", "nmod"))
_QUALIFIER_TAGS = frozenset(("JJ", "NN", "NNS", "NNP", "NNPS", "VBN", "VBG"))
_QUALIFIER_WORD = re.compile(r"[A-Za-z][A-Za-z\-]*[A-Za-z]")
_BOUND_DESCRIBING = frozenset(
    "optimal near-optimal nearly-optimal minimax tight tighter best better improved previous prior "
    "known new standard existing sublinear sub-linear superlinear super-linear logarithmic "
    "polylogarithmic polynomial exponential linear quadratic constant order-optimal rate-optimal "
    "worst worst-case case "
    "high-probability probability high low small large lower upper data-dependent instance-dependent "
    "gap-dependent problem-dependent distribution-dependent asymptotic non-asymptotic nonasymptotic "
    "total overall such same any each both further final resulting corresponding following pac "
    "bounded unbounded finite infinite first second main desired target matching available "
    "achievable attainable possible guaranteed established obtained stated claimed sharp sharper "
    "global optimality dependent independent free state-of-the-art exact precise explicit "
    "probabilistic comparable suitable appropriate trivial non-trivial nontrivial private "
    "non-private differentially fast faster slow efficient proposed additional extra online offline".split()
)
# "variance-adaptive regret", "gap-dependent regret", "horizon-free regret": the bound's regime.
_DESCRIBING_SUFFIXES = frozenset(
    "dependent independent free optimal adaptive aware sensitive based time".split()
)


def named_quantity(quantity: str) -> str:
    """The rule tables' quantity a quantity name ends in, without the qualifiers v6 reads, and
    that quantity's family where the tables give one ("Nash regret" → "regret", "expected
    cumulative regret" → "cumulative regret", "expected regret" → "regret"); a name ending in none
    is returned as it is (lower-cased).

    >>> named_quantity("Maximum stable learning rate")
    'learning rate'
    >>> named_quantity("expected regret"), named_quantity("teaching complexity")
    ('regret', 'teaching complexity')
    """
    words = quantity.lower().split()
    families = rules().families
    for i in range(len(words)):
        tail = " ".join(words[i:])
        if tail in families:
            return families[tail]
    return " ".join(words)


def _names_itself(phrase: Phrase, quantity: str) -> bool:
    """Whether a rule phrase names its quantity, up to hyphens, plurals and a unit after it:
    "regret", "sample complexities", "simple-regret", "error rate" (error); not "time" (running
    time) or "test error" (error)."""
    words = " ".join(phrase).replace("-", " ").split()
    wanted = quantity.lower().split()
    if len(words) < len(wanted):
        return False
    return all(w == q or w == q + "s" for w, q in zip(words, wanted, strict=False))


def _describes_algorithm(word: str) -> bool:
    """A word before the formula sizing an algorithm that describes the algorithm ("efficient",
    "previous", "naive"; v20)."""
    return _bound_describing(word) or word in _ALGORITHM_ADJECTIVES


def _bound_describing(word: str) -> bool:
    """A modifier that describes the bound or its regime, not the quantity ("$T$-round", "minimax",
    "best-known")."""
    low = word.lower()
    if low in _BOUND_DESCRIBING:
        return True
    first, _, rest = low.partition("-")
    return bool(rest) and (len(first) == 1 or rest in _DESCRIBING_SUFFIXES or first in _BOUND_DESCRIBING)


_ADJECTIVE_ENDINGS = ("al", "ed", "ive", "ous", "able", "ible", "ic", "ar", "ly", "est", "ful", "less")
_CONFIDENCE = {"head": 0.95, "rel": 0.8, "cue": 0.7}
# A quantity word followed by one of these is a modifier, not what is bounded: "loss function",
# "regularized loss minimization", "reward distribution", "regret minimization strategies".
_MODIFIED_NOUNS = frozenset(
    "function functions minimization minimisation minimizing minimizer distribution distributions "
    "model models matrix signal oracle oracles reduction".split()
)
# "bound on the X", "guarantees for the X": the nouns and the words allowed before X.
_BOUND_NOUNS = frozenset("bound bounds guarantee guarantees".split())
_BOUND_ON_FILLERS = frozenset("the a an its their our total expected overall".split())
# "$X$ (matching) lower bound on …": words allowed between a formula and its bound noun.
_REQUIREMENT_NOUNS = frozenset(("requirement", "requirements"))
_BOUND_SIDES = frozenset("upper lower tight matching minimax worst-case high-probability".split())
# "$X$ stochastic gradient and Hessian-vector product computations": an oracle, counted.
_ORACLE_WORDS = frozenset(
    "gradient gradients subgradient subgradients hessian hessian-vector first-order zeroth-order "
    "second-order oracle sfo ifo function".split()
)
_ORACLE_COUNTS = frozenset("computations products evaluations calls queries accesses costs".split())
# Words naming an oracle in "gradient (i.e., stochastic first-order oracle, SFO) complexity".
_ORACLE_NAMES = frozenset("oracle oracles sfo ifo".split())
# Gradients alone, evaluated or computed, count a gradient complexity; calls, queries and accesses
# are made to an oracle, and a Hessian or a zeroth-order oracle makes the count an oracle complexity.
_GRADIENT_WORDS = frozenset("gradient gradients subgradient subgradients".split())
_ORACLE_ONLY_COUNTS = frozenset("calls queries accesses".split())
# Verbs whose subject is what the formula after them bounds: "the loss converges as $X$".
_RATE_VERBS = frozenset(
    "converges converge decays decay vanishes vanish grows grow scales scale decreases decrease "
    "shrinks shrink bounded".split()
)
# Dependencies a formula's parse path may climb to the verb whose subject it bounds.
_PATH_DEPS = frozenset(
    "pobj attr acomp oprd prep agent conj npadvmod advmod amod quantmod pcomp appos".split()
)
# Verbs (lemmas) that state the size of their subject: "is", "is upper bounded by", "scales as".
_SIZING_LEMMAS = frozenset(
    "be become remain bound upperbound lowerbound scale grow decay decrease increase converge "
    "behave vanish shrink".split()
)


def _sizing_verb(verb: Any) -> bool:
    """Whether a parse verb states the size of its subject ("is", "bounded", "decays")."""
    lemma = verb.lemma_.lower()
    return lemma in _SIZING_LEMMAS or verb.lower_ in _RATE_VERBS or verb.lower_.endswith("bounded")


# "$n$ is the number of samples", "$n$ denotes the sample size": words before the defining noun.
_DEFINING_FILLERS = frozenset("is denotes denoting being be the total".split())
# "in our setting", "under our assumptions": the paper's setting, which claims no bound by itself.
_SETTING_NOUNS = frozenset(
    "task tasks setting settings problem problems case cases assumption assumptions".split()
)
# "any algorithm must suffer …", "our method suffers …": who suffers a bound that is claimed here.
_SUFFER_CLAIMS = frozenset("any every all must necessarily inevitably will would we our ours".split())
# Words between a subject and its verb: "the loss also converges", "the regret is upper bounded".
_SUBJECT_SKIP = frozenset("also only then still provably now is are can be will upper".split())
# "runs in $X$", "can compute $A$ in $X$": verbs whose "in $X$" is a running time.
_COMPUTE_VERBS = frozenset(
    "run runs compute computes computed computing solve solves solved implemented executed "
    "performed evaluated".split()
)
# "runs in time $X$", "uses memory $X$", "with space $X$": a resource word right before a formula.
_RESOURCE_VERBS = frozenset("in with using uses use requires require takes take and or total".split())
_AT_MOST_LEAST = frozenset((("at", "least"), ("at", "most")))
# The growth a resource's formula states in words, before the resource: "in nearly-linear time $X$".
_GROWTH_WORD = re.compile(
    r"(?:(?:nearly|near|almost|quasi|sub|super)-?)?(?:linear|polynomial|quadratic|cubic|logarithmic|"
    r"polylogarithmic|exponential|constant)"
)
# Words that introduce a definition of a symbol: "$n$ is the number of samples".
_DEFINING = frozenset("is are being denotes denote denoting be as".split())
# Words ending in s that are not plural nouns counting a resource after a formula.
_NOT_PLURAL = ("ss", "us", "is", "ous", "ics")
# Plural nouns after a formula that describe it rather than count a resource ("$O(1/m)$ bounds").
_NOT_COUNTED = frozenset(
    "bounds guarantees results rates terms factors constraints conditions assumptions regimes "
    "settings cases errors losses times".split()
)
# Words between a quantity and the formula measuring it: "regret of", "complexity at least".
_MEASURE_LINKS = frozenset("of at least most is are".split())
# One symbol, a letter or a macro, possibly subscripted: "d", "T_0", "\alpha", "\ell_2" (a symbol
# definition, :data:`_SYMBOL`, takes letters only).
_ONE_SYMBOL = re.compile(r"(?:[A-Za-z]|\\[A-Za-z]+)(?:" + _SUBSCRIPT + r"|_\\[A-Za-z]+)")
_FINITE_VERB_TAGS = frozenset(("MD", "VBZ", "VBP", "VBD"))
# Quantities that "in expectation" after their bound makes expected ones (v11).
_EXPECTABLE = frozenset(("regret", "risk", "error", "loss", "cost"))
# "This bound is tight.", "Those rates cannot be improved": a sentence about the bounds before it.
_REFERRING = frozenset("this these those both such".split())
_RESULT_NOUNS = frozenset("bound bounds rate rates result results guarantee guarantees".split())
# Verbs that end a "number of <nouns>" phrase, also without a parse.
_CLAUSE_VERBS = frozenset("is are was were be been must can could should would may might will shall".split())
# What a lone "complexity" names (the rule table's q.complexity), which an earlier one specifies.
_VAGUE_COMPLEXITY = "computational complexity"
# What "$X$ bits of …" counts.
_BIT_RESOURCES = {
    "space": "space complexity",
    "memory": "space complexity",
    "storage": "space complexity",
    "communication": "communication complexity",
    "store": "space complexity",
}
# Units a space or a message is counted in ("$X$ words of space", v20).
_MEMORY_UNITS = frozenset(("bits", "words", "bytes"))
# Verbs whose object is the earlier value a result improves upon: "improves the rate $X$".
# Words between "from" and the formula it starts from: "from a rate of $A$ to $B$".
# Adjectives of the earlier value may stand there too: "from the typical $A$ complexity" (v28).
_FROM_FILLERS = frozenset("a an the rate rates of typical usual standard previous existing naive".split())
# Words between "to" and the formula it goes to: "to up to $B$", "to only $B$", "to merely $B$".
_TO_FILLERS = frozenset("up to only just about roughly a an the rate of merely".split())
_IMPROVING_LEMMAS = frozenset("improve outperform surpass beat sharpen tighten reduce decrease".split())
# Verbs whose object is the value reduced from, when nothing sets the formula apart (v20).
_REDUCING_LEMMAS = frozenset(("reduce", "decrease"))
# Words opening a condition clause, in which "is known" means given: "if $Q$ is known".
_GIVEN_OPENERS = frozenset("if when whenever unless provided assuming once".split())
# Participles after a bound noun that name its source: "established in this paper".
_PARTICIPLE_ENDINGS = ("ed", "en", "wn")
# Plural endings only nouns have: "projections", "measurements", "queries" are never verbs.
_NOUN_PLURAL_SUFFIXES = ("tions", "sions", "ments", "ities", "ances", "ences", "ries")
_VERBS_IN_S = frozenset(
    "holds suffices implies requires yields gives shows matches improves achieves attains guarantees "
    "scales grows depends becomes remains means does has was is converges vanishes decays "
    "follows exists applies hides ensures leads makes obtains reduces".split()
)


# Words after "of" that make the method this paper's: "the regret $X$ of our algorithm".
_OWN_MARKS = frozenset("our ours proposed new this these".split())
# Words that introduce the abstract's own method: "We develop an algorithm ADSAGA", "our LinMED".
_INTRODUCING = frozenset(
    "propose proposes introduce introduces present presents develop develops design designs call "
    "called name named dub dubbed term termed our".split()
)


def _is_method_name(name: str) -> bool:
    """An acronym or coined name: "SAGA", "ADSAGA", "LinMED", "UCB-V" (not "The", not "GD's")."""
    letters = [c for c in name if c.isalpha()]
    if len(letters) < 2 or not name[:1].isupper() or not all(c.isalnum() or c == "-" for c in name):
        return False
    return sum(c.isupper() for c in letters) >= 2


def _names_method(tok: Any) -> bool:
    """Whether a subject token names a method: an algorithm noun or a coined name ("it" may be
    the quantity: "a regime in which it scales as $n^{-1}$")."""
    return tok.lemma_.lower() in _METHOD_NOUNS or _is_method_name(tok.text)


_METHOD_NOUNS = frozenset(
    "algorithm method estimator policy procedure scheme learner approach variant protocol "
    "optimizer backpropagation mechanism model network sampler solver rule strategy "
    "framework heuristic tester classifier predictor".split()
)
_ORDINALS = frozenset(("first", "second", "third", "fourth", "former", "latter"))
_COUNTS = frozenset(("two", "three", "four", "2", "3", "4"))
_NO_SUBJECT = frozenset(
    ("we", "it", "this", "that", "which", "they", "these", "those", "he", "she", "i", "one")
)


def subject_of(doc: Any, norm: NormalizedText, offset: int) -> str | None:
    """The method a bound is about, from the parse: the subject of the verb governing the formula.

    Pronouns ("we", "it", "this") name no method; "The first"/"the second" is resolved to the
    numbered noun introduced before ("We develop two phased-elimination algorithms" →
    "the first phased-elimination algorithm").
    """
    token = None
    for tok in doc:
        start, end = norm.to_original(tok.idx, tok.idx + len(tok))
        if start <= offset < end:
            token = tok
            break
    if token is None:
        return None
    verb = token
    for _ in range(20):  # climb to the governing verb
        if verb.pos_ in ("VERB", "AUX") or verb.head is verb:
            break
        verb = verb.head
    subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
    for _ in range(3):  # "… the second incorporates … to obtain $X$ regret": the purpose clause's verb
        if subjects or verb.dep_ not in ("xcomp", "advcl", "relcl", "ccomp") or verb.head is verb:
            break
        verb = verb.head
        subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
    if not subjects:
        return None
    subj = subjects[0]
    if subj.lower_ in _NO_SUBJECT or subj.pos_ == "PRON" and subj.lower_ not in _ORDINALS:
        return None
    first = subj.left_edge.i
    for i in range(subj.left_edge.i, subj.i):  # "More precisely, dense backpropagation": after the comma
        if doc[i].text in (",", ";", ":", "(", ")"):
            first = i + 1
    words = list(doc[first : subj.i + 1])
    if token.i in range(first, subj.i + 1) or any(t.text == MATH_PLACEHOLDER for t in words):
        return None  # the formula is itself the subject: "$\Omega(…)$ regret is unavoidable"
    if len(words) <= 2 and words[-1].lower_ in _ORDINALS:
        named = _numbered_noun(doc, subj.i)
        if named is not None:
            return f"the {words[-1].lower_} {named}"
        return None
    # a method: a name, or a noun that names an algorithm ("the proposed estimator")
    if subj.pos_ == "PROPN" or subj.lemma_.lower() in _METHOD_NOUNS:
        return doc[first : subj.i + 1].text
    return None


def _numbered_noun(doc: Any, before: int) -> str | None:
    """ "phased-elimination algorithm" from "… two phased-elimination algorithms …" before ``before``."""
    for i in range(before - 1, -1, -1):
        tok = doc[i]
        if (
            tok.lower_ in _COUNTS
            and tok.head.pos_ == "NOUN"
            and tok.head.lower_.endswith("s")
            and tok.head.i > tok.i
        ):
            noun = tok.head
            phrase = doc[tok.i + 1 : noun.i].text
            head = noun.text[:-1] if noun.text.endswith("s") else noun.text
            return f"{phrase} {head}".strip()
    return None


def count_formula_bound_papers(bounds_by_paper: Iterable[Iterable[Bound]]) -> int:
    """How many papers claim at least one formula bound (the figure ``kg stats`` reports).

    Args:
        bounds_by_paper: each paper's bounds, e.g. ``(x.bounds for x in extractions)``.

    >>> papers = [extract_bounds("It has $O(n)$ regret."), [], extract_bounds("a linear rate")]
    >>> count_formula_bound_papers(papers)
    1
    """
    return sum(1 for bounds in bounds_by_paper if any(b.form == "formula" for b in bounds))
