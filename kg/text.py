"""Normalization of abstract text, with a map back to the original offsets.

Abstracts arrive with TeX and typographic habits that break a parser: Unicode hyphens
("phased‑elimination" with U+2011), TeX quotes (````middle ground''``), ``\\textit{…}``, ``\\&``,
Markdown ``**bold**`` and inline math. :func:`normalize` rewrites these into plain text for the
parser, replaces every math span by one placeholder token, and keeps for every output character
the original span it came from, so any span found in the normalized text maps back exactly.

The scan is a single left-to-right pass with ``str.find`` jumps: linear in the input, with no
regular expression that could backtrack on adversarial input.
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from dataclasses import dataclass

from kg.errors import KGError
from kg.types import MathScan, MathSpan, StrayDelimiter

MATH_PLACEHOLDER = "MATH"

# Markup commands whose argument is kept and whose braces are dropped.
_MARKUP = frozenset(
    {
        "textit", "emph", "textsc", "textbf", "texttt", "textrm", "textsf", "textup",
        "textsl", "underline", "mbox", "text", "textnormal", "mathrm", "mathit",
    }
)
_ESCAPES = {"&": "&", "%": "%", "_": "_", "#": "#", "{": "{", "}": "}", "$": "$", " ": " "}
_SINGLE = {
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2212": "-",
    "\u2014": " - ", "\u2015": " - ",
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u00ab": '"', "\u00bb": '"',
    "\u00a0": " ", "\u2002": " ", "\u2003": " ", "\u2009": " ", "\u200a": " ", "\u202f": " ",
    "\u205f": " ", "\u3000": " ", "\n": " ", "\r": " ", "\t": " ", "~": " ",
}
# Zero-width and bidirectional controls: dropped, they only split words invisibly.
_DROP = frozenset("\u200b\u200c\u200d\u200e\u200f\u2060\ufeff\u202a\u202b\u202c\u202d\u202e"
                  "\u2066\u2067\u2068\u2069\u00ad")


# Every character the loop of :func:`normalize` treats specially; the rest is copied in runs.
_SPECIAL = re.compile(
    "[" + re.escape("\\{}`'-*" + "".join(_SINGLE) + "".join(_DROP))
    + "\x00-\x1f\x7f-\x9f\ud800-\udfff]"
)

_TEXT_ONLY_MATH = re.compile(r"\s*\\(textit|textbf|text|emph|mathrm|textrm)\{([A-Za-z][A-Za-z \-]*)\}\s*$")


class MathError(KGError):
    """Unbalanced math delimiters; ``offset`` is where the unclosed span opens."""

    def __init__(self, offset: int, delimiter: str) -> None:
        self.offset = offset
        super().__init__(f"unbalanced math: {delimiter!r} opened at offset {offset} is never closed")


@dataclass(frozen=True, slots=True)
class NormalizedText:
    """Parser-ready text with, per character, the original span it stands for."""

    original: str
    text: str
    starts: array
    ends: array
    math: tuple[MathSpan, ...]

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """Map a half-open span of :attr:`text` to the original string.

        >>> n = normalize("a \\\\emph{b} c")
        >>> n.text
        'a b c'
        >>> n.to_original(2, 3)
        (8, 9)
        """
        if end <= start:
            pos = self.starts[start] if start < len(self.starts) else len(self.original)
            return pos, pos
        return self.starts[start], self.ends[end - 1]

    def math_at(self, start: int, end: int) -> MathSpan | None:
        """The math span whose placeholder overlaps normalized ``[start, end)``, if any."""
        o_start, o_end = self.to_original(start, end)
        for span in self.math:
            if span.start < o_end and o_start < span.end:
                return span
        return None


def _skip_group(s: str, i: int) -> int:
    """Index just past the balanced ``{…}`` group opening at ``s[i] == '{'`` (or len(s))."""
    depth = 0
    n = len(s)
    while i < n:
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def find_math(s: str, *, strict: bool = False) -> list[MathSpan]:
    """Locate ``$…$``, ``$$…$$``, ``\\(…\\)`` and ``\\[…\\]`` spans.

    An escaped dollar ``\\$`` is text, not a delimiter. A delimiter that opens no math (a stray or
    unbalanced ``$``, a currency sign) is text too (:func:`read_math` says which); with
    ``strict`` it raises :class:`MathError` at the first one instead.

    >>> [(m.start, m.end) for m in find_math("cost $O(n)$ and \\\\$5")]
    [(5, 11)]
    >>> [(m.start, m.end) for m in find_math("$\\\\sim 10% accuracy gain, and $\\\\sim$ 2x")]
    [(29, 35)]
    """
    if strict:
        return _pair_in_order(s)
    return list(read_math(s).spans)


def read_math(s: str) -> MathScan:
    """The math spans of ``s`` and the delimiters read as text; never raises.

    When every delimiter pairs in order (the usual case) the spans are those of a strict
    left-to-right reading. Otherwise one delimiter went astray (a stray ``$`` in
    ``$\\\\sim$\\\\textbf{1.91x}``, a currency sign, an abstract cut off inside math) and every
    later pair would be off by one, wrapping the prose between two formulas as math. The reading
    kept then is the cheapest one: each delimiter read as text costs 1 (a ``$`` before a digit,
    a price, 1/2), each pair whose body reads as prose (two plain words in a row) costs 3.

    >>> scan = read_math("up to $\\\\sim 10% accuracy gain, and $\\\\sim$ 2x")
    >>> [(m.start, m.end) for m in scan.spans], [(d.offset, d.delimiter) for d in scan.stray]
    ([(35, 41)], [(6, '$')])
    """
    prices: list[StrayDelimiter] = []
    try:
        return MathScan(tuple(_pair_in_order(s, prices)), tuple(prices))
    except MathError:
        return _recover(s)


def _pair_in_order(s: str, prices: list[StrayDelimiter] | None = None) -> list[MathSpan]:
    """Each opening delimiter closed by the next closing one, in order; :class:`MathError` at the
    first one nothing closes, but a ``$`` before a digit with no ``$`` after it, which is a price
    (text; added to ``prices``)."""
    spans: list[MathSpan] = []
    i, n = 0, len(s)
    while True:
        d = s.find("$", i)
        b = s.find("\\", i)
        if d < 0 and b < 0:
            break
        if b >= 0 and (d < 0 or b < d):
            nxt = s[b + 1 : b + 2]
            if nxt in ("(", "["):
                close = "\\)" if nxt == "(" else "\\]"
                j = s.find(close, b + 2)
                if j < 0:
                    raise MathError(b, "\\" + nxt)
                spans.append(MathSpan(b, j + 2, b + 2, j))
                i = j + 2
            else:
                i = b + 2
            continue
        if s.startswith("$$", d):
            j = _find_unescaped(s, "$$", d + 2)
            if j < 0:
                raise MathError(d, "$$")
            spans.append(MathSpan(d, j + 2, d + 2, j))
            i = j + 2
        else:
            j = _find_unescaped(s, "$", d + 1)
            if j < 0:
                if s[d + 1 : d + 2].isdigit():  # a currency sign: "under $15 per model"
                    if prices is not None:
                        prices.append(StrayDelimiter(d, "$"))
                    i = d + 1
                    continue
                raise MathError(d, "$")
            spans.append(MathSpan(d, j + 1, d + 1, j))
            i = j + 1
        if i > n:
            break
    return spans


# A body that reads as prose: two plain words in a row ("accuracy improvement", "regret bound,
# where"), not a command name (``\log n``) and not inside ``\text{…}``.
_PROSE = re.compile(r"[A-Za-z][a-z]+[,;:]?\s+[a-z]{2,}(?![\w{(])")
_WORD_START = re.compile(r"(?<![\\\w])[A-Za-z]")
_TEXT_GROUP = re.compile(r"\\(?:text[a-z]*|mbox|mathrm|operatorname|emph)\s*\{[^{}]*\}")
# Costs of a reading, in halves: a delimiter read as text, a "$" before a digit (a price) read as
# text, a pair whose body is prose.
_STRAY_COST = 2
_PRICE_COST = 1
_PROSE_COST = 6


class _Prose:
    """Answers "does ``s[a:b]`` hold two plain words in a row?" in O(log n) after one linear pass."""

    def __init__(self, s: str) -> None:
        groups = [(m.start(), m.end()) for m in _TEXT_GROUP.finditer(s)]
        g = 0
        self.starts: list[int] = []
        ends: list[int] = []
        for word in _WORD_START.finditer(s):
            match = _PROSE.match(s, word.start())
            if match is None:
                continue
            while g < len(groups) and groups[g][1] <= match.start():
                g += 1
            if g < len(groups) and groups[g][0] < match.end():
                continue  # words of \text{…}: prose typeset in math
            self.starts.append(match.start())
            ends.append(match.end())
        # the earliest end of a match starting at or after each listed start
        self.first_end = ends + [len(s) + 1]
        for k in range(len(ends) - 2, -1, -1):
            self.first_end[k] = min(self.first_end[k], self.first_end[k + 1])

    def within(self, a: int, b: int) -> bool:
        import bisect

        return self.first_end[bisect.bisect_left(self.starts, a)] <= b


def _recover(s: str) -> MathScan:
    """The cheapest reading of ``s``'s delimiters as pairs or text (see :func:`read_math`).

    A reading scans left to right outside math, so its states are the opening delimiters; each
    is read as text (the scan goes on just past it) or paired with what closes it (the scan goes
    on after the closer). A dynamic program over the openers, right to left: linear in the
    length of ``s`` but for a bisection per opener.
    """
    import bisect

    n = len(s)
    openers: list[int] = []  # unescaped "$", "\(" and "\[", in order
    dollars: list[int] = []  # unescaped "$"
    i = 0
    while i < n:
        c = s[i]
        if c == "\\":
            if s[i + 1 : i + 2] in ("(", "["):
                openers.append(i)
            i += 2
            continue
        if c == "$":
            openers.append(i)
            dollars.append(i)
        i += 1
    closers = {
        "$": dollars,
        "$$": [d for d in dollars if s[d + 1 : d + 2] == "$"],
        "\\(": [m.start() for m in re.finditer(r"\\\)", s)],
        "\\[": [m.start() for m in re.finditer(r"\\\]", s)],
    }
    prose = _Prose(s)

    def delimiter_at(o: int) -> str:
        return s[o : o + 2] if s[o] == "\\" or s.startswith("$$", o) else "$"

    def span_at(o: int) -> MathSpan | None:
        """The span opening at ``o`` as a strict reading would close it; None if nothing does."""
        delimiter = delimiter_at(o)
        found = closers[delimiter]
        k = bisect.bisect_left(found, o + len(delimiter))
        if k == len(found):
            return None
        return MathSpan(o, found[k] + len(delimiter), o + len(delimiter), found[k])

    # best[k]: the cost of the cheapest reading from openers[k] on, and its span there (None: text)
    best: list[tuple[int, MathSpan | None]] = [(0, None)] * (len(openers) + 1)
    for k in range(len(openers) - 1, -1, -1):
        o = openers[k]
        price = s[o] == "$" and s[o + 1 : o + 2].isdigit()
        past = o + (2 if s[o] == "\\" else 1)
        cost = (_PRICE_COST if price else _STRAY_COST) + best[bisect.bisect_left(openers, past, k + 1)][0]
        choice: tuple[int, MathSpan | None] = (cost, None)
        span = span_at(o)
        if span is not None:
            cost = (_PROSE_COST if prose.within(span.body_start, span.body_end) else 0) \
                + best[bisect.bisect_left(openers, span.end, k + 1)][0]
            if cost <= choice[0]:
                choice = (cost, span)
        best[k] = choice
    spans: list[MathSpan] = []
    stray: list[StrayDelimiter] = []
    k = 0
    while k < len(openers):
        o = openers[k]
        span = best[k][1]
        if span is None:
            stray.append(StrayDelimiter(o, "$" if s[o] == "$" else s[o : o + 2]))
            k = bisect.bisect_left(openers, o + (2 if s[o] == "\\" else 1), k + 1)
        else:
            spans.append(span)
            k = bisect.bisect_left(openers, span.end, k + 1)
    return MathScan(tuple(spans), tuple(stray))


def _find_unescaped(s: str, needle: str, i: int) -> int:
    while True:
        j = s.find(needle, i)
        if j < 0:
            return -1
        # count backslashes right before j: an odd number escapes the delimiter
        k = j
        while k > 0 and s[k - 1] == "\\":
            k -= 1
        if (j - k) % 2 == 0:
            return j
        i = j + 1


def normalize(s: str) -> NormalizedText:
    """Normalize ``s`` for parsing; a math delimiter that opens no math is text (:func:`read_math`).

    >>> normalize("phased\\u2011elimination ``middle ground'' $O(\\\\sqrt{T})$ regret").text
    'phased-elimination "middle ground" MATH regret'
    """
    math = find_math(s)
    out: list[str] = []
    starts = array("q")
    ends = array("q")

    def emit(t: str, a: int, b: int) -> None:
        out.append(t)
        starts.extend([a] * len(t))
        ends.extend([b] * len(t))

    markup_braces: list[bool] = []  # per open '{' outside math: is it a markup group?
    n = len(s)
    i = 0
    mi = 0
    while i < n:
        if mi < len(math) and i == math[mi].start:
            span = math[mi]
            words = _TEXT_ONLY_MATH.match(s, span.body_start, span.body_end)
            if words:  # "$\\textit{or}$" is emphasis typeset in math mode, not math
                for k in range(words.start(2), words.end(2)):
                    emit(s[k], k, k + 1)
            else:
                emit(MATH_PLACEHOLDER, span.start, span.end)
            i = span.end
            mi += 1
            continue
        c = s[i]
        if c == "\\":
            nxt = s[i + 1 : i + 2]
            if nxt in _ESCAPES:
                emit(_ESCAPES[nxt], i, i + 2)
                i += 2
                continue
            j = i + 1
            while j < n and s[j].isascii() and s[j].isalpha():
                j += 1
            name = s[i + 1 : j]
            if name in _MARKUP and j < n and s[j] == "{":
                markup_braces.append(True)
                i = j + 1
                continue
            if name == "\\" or nxt == "\\":  # forced line break
                emit(" ", i, i + 2)
                i += 2
                continue
            emit(s[i:j] if j > i + 1 else c, i, j if j > i + 1 else i + 1)
            i = j if j > i + 1 else i + 1
            continue
        if c == "{":
            markup_braces.append(False)
            emit(c, i, i + 1)
            i += 1
            continue
        if c == "}":
            if markup_braces and markup_braces.pop():
                i += 1
                continue
            emit(c, i, i + 1)
            i += 1
            continue
        if c == "`" and s.startswith("``", i):
            emit('"', i, i + 2)
            i += 2
            continue
        if c == "'" and s.startswith("''", i):
            emit('"', i, i + 2)
            i += 2
            continue
        if c == "-" and s.startswith("---", i):
            emit(" - ", i, i + 3)
            i += 3
            continue
        if c == "-" and s.startswith("--", i):
            emit("-", i, i + 2)
            i += 2
            continue
        if c == "*" and s.startswith("**", i):
            i += 2
            continue
        if c in _SINGLE:
            emit(_SINGLE[c], i, i + 1)
            i += 1
            continue
        if c in _DROP:
            i += 1
            continue
        o = ord(c)
        if o < 32 or 0x7F <= o < 0xA0 or 0xD800 <= o <= 0xDFFF:
            emit(" ", i, i + 1)
            i += 1
            continue
        # a run of plain characters up to the next special one or math span, in one piece
        stop = math[mi].start if mi < len(math) else n
        special = _SPECIAL.search(s, i + 1, stop)
        j = special.start() if special else stop
        out.append(s[i:j])
        starts.extend(range(i, j))
        ends.extend(range(i + 1, j + 1))
        i = j
    return NormalizedText(s, "".join(out), starts, ends, tuple(math))


def fingerprint_text(s: str) -> str:
    """The form of an abstract that identity is computed on: NFKC, whitespace collapsed.

    Two copies of one abstract that differ only in line wrapping or Unicode composition
    get the same paper id.
    """
    return " ".join(unicodedata.normalize("NFKC", s).split())
