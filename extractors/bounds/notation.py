"""Reading the math: each math span cut into statements, each statement read as a :class:`Piece`.

A math span (located by :mod:`kg.text`) is tokenized by :mod:`extractors.latex` and split at its
top-level separators (``,``, ``;``, ``\\quad``, ``\\text{ and }``) into segments. A segment is:

* a **bound** when it holds an asymptotic head (``O``, ``\\mathcal{O}``, ``\\tilde{O}``,
  ``\\Omega``, ``\\Theta``, ``o``, ``\\omega``, the authors' macros ``\\Ot``, ``\\bigOtil`` …), at
  top level or nested (``n^{O(1)}``);
* a **relation** when a relation of ``bounds_notation.jsonl`` (``\\le``, ``<``, ``\\ge``,
  ``\\lesssim``, ``\\sim``, ``\\asymp`` …) relates two sides; whether it is a bound is decided
  by the words around it (:mod:`extractors.bounds.statements`);
* an **expression** otherwise, which words may claim ("of order $X$");
* nothing at all for memberships and ranges (``$\\alpha \\in [0,1]$``), constant ranges
  (``$0<\\delta<1/2$``), draws (``$\\xi \\sim \\mathcal{N}(0,1)$``) and words set in math.

Each token is visited once; parentheses are matched with a stack.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from extractors import latex
from extractors.bounds.lexicon import Lexicon
from kg.types import MathSpan

MAX_WRAPPERS = 4  # \widetilde{\mathcal{O}} has two; a cap keeps adversarial nesting linear
COMBINING_TILDE = "\u0303"

# An optional subscript of a symbol: "_0", "_{in}".
SUBSCRIPT = r"(?:\s*_\s*(?:\{[A-Za-z0-9]+\}|[A-Za-z0-9]))?"
# "\cN(0, \sigma^2)", "\cD": a calligraphic letter written with a paper's own macro
_CAL_MACRO = re.compile(r"\\c[A-Z](?![A-Za-z])")

Head = tuple[int, int, int, str, bool]  # (head token, open token, close token, head, soft)


@dataclass(frozen=True, slots=True)
class Piece:
    """One statement of a formula: a bound, a condition-to-be, or an expression words may claim."""

    role: str  # "bound" | "relation" | "expression"
    start: int  # offsets of the segment in the original abstract (trimmed)
    end: int
    notation: str = ""
    kind: str = ""
    soft: bool = False
    expr: str = ""
    variables: tuple[str, ...] = ()
    rule: str = ""
    has_lhs: bool = False  # a left side before the relation: "$R_T = O(\\sqrt T)$"
    quantity_symbol: bool = False  # ... that names a bounded quantity (regret, risk, a norm)
    formula_like: bool = False  # more than one symbol (see formula_like)
    bare: bool = False  # written outside math


@dataclass(frozen=True, slots=True)
class Formula:
    """A located formula: a math span (its delimiters included) or a bound written outside math."""

    start: int
    end: int
    pieces: tuple[Piece, ...]

    @property
    def has_bound(self) -> bool:
        """Whether a piece is a bound (not only a condition such as "$d>1$")."""
        return any(p.role == "bound" for p in self.pieces)


def read_head(
    tokens: Sequence[latex.Token], k: int, lex: Lexicon, pairs: dict[int, int] | None = None
) -> tuple[str, bool, int] | None:
    """Parse an asymptotic head at ``tokens[k]``: ``(head, soft, index of its "(")`` or None.

    Accepts wrappers with or without braces (``\\widetilde{\\mathcal{O}}``, ``\\tilde O``,
    ``\\mathcal O``), a group that sets the head apart (``{O}(…)``, ``{{\\mathcal{O}}}``,
    ``{\\cal O}``), a subscript (``O_P``), sizing commands and a combining tilde (``Ω̃``).
    """
    heads = lex.heads
    n = len(tokens)
    soft = False
    opened = 0
    apart = 0  # groups opened before any wrapper: closed right after the head, or no head here
    j = k
    while j < n and j - k < MAX_WRAPPERS and tokens[j].kind == latex.OPEN and tokens[j].text == "{":
        apart += 1
        j += 1
    while (
        j < n
        and j - k < 3 * MAX_WRAPPERS
        and tokens[j].kind == latex.CMD
        and (tokens[j].text in lex.font_wrappers or tokens[j].text in lex.soft_wrappers)
    ):
        soft = soft or tokens[j].text in lex.soft_wrappers
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
        return "Õ", soft, j  # "\\widetilde(\\max\\{…\\})": the O dropped under its tilde
    head = tok.text if tok.kind in (latex.CHAR, latex.CMD) else ""
    if head not in heads or head in lex.command_heads and tok.kind != latex.CMD:
        return None
    if head in lex.char_heads and tok.kind != latex.CHAR:
        return None
    j += 1
    if j < n and tokens[j].text == COMBINING_TILDE:
        soft = True
        j += 1
    while opened and j < n and tokens[j].kind == latex.CLOSE and tokens[j].text == "}":
        opened -= 1
        j += 1
    if opened and not (j < n and tokens[j].text == "(" and tokens[j].kind == latex.OPEN):
        return None  # but "\\widetilde{O(m/\\epsilon^2)$", its brace never closed, still reads
    while apart and j < n and tokens[j].kind == latex.CLOSE and tokens[j].text == "}":
        apart -= 1
        j += 1
    if apart or opened and j < n and tokens[j].kind == latex.CLOSE:
        return None  # "\\frac{O(1)}{n}": a group holding a bound, not a head set apart
    # O^*(…), O^{\ast}(…): the star hides polylogarithmic factors, as the tilde does
    star = _star_superscript(tokens, j, lex)
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
        tokens[j].kind == latex.SPACE or tokens[j].kind == latex.CMD and tokens[j].text in lex.head_skip
    ):
        j += 1
    if j < n and tokens[j].kind == latex.OPEN and tokens[j].text in ("(", "["):
        return head, soft, j
    if j < n and tokens[j].kind == latex.CMD and tokens[j].text in ("lbrace", "{"):
        return head, soft, j
    if j + 1 < n and tokens[j].text == "{" and tokens[j + 1].kind == latex.OPEN and tokens[j + 1].text == "(":
        return head, soft, j + 1  # "\\Omega{(d^3\\log{p})}": the argument set in a group
    return None


def _set_apart(tokens: Sequence[latex.Token], k: int) -> bool:
    """Whether the group opening at ``tokens[k]`` is no argument (of a command, a power or an
    index), so it may set a head apart: "${O}(\\sqrt{T})$" but not "\\frac{O(1)}{n}"."""
    j = k - 1
    while j >= 0 and tokens[j].kind == latex.SPACE:
        j -= 1
    return j < 0 or not (tokens[j].kind == latex.CMD or tokens[j].text in ("^", "_") or tokens[j].text == "}")


def _star_superscript(tokens: Sequence[latex.Token], j: int, lex: Lexicon) -> int:
    """How many tokens a star superscript at ``tokens[j]`` spans (``^*``, ``^\\ast``, ``^{*}``,
    ``^{\\ast}``, ``^\\star``), 0 for none."""
    n = len(tokens)
    if j + 1 >= n or tokens[j].text != "^":
        return 0
    if _is_star(tokens[j + 1], lex):
        return 2
    braced = tokens[j + 1].kind == latex.OPEN and tokens[j + 1].text == "{"
    if braced and j + 3 < n and _is_star(tokens[j + 2], lex) and tokens[j + 3].kind == latex.CLOSE:
        return 4
    return 0


def _is_star(tok: latex.Token, lex: Lexicon) -> bool:
    return (
        tok.kind == latex.CHAR and tok.text == "*" or tok.kind == latex.CMD and tok.text in lex.star_commands
    )


def _is_letter(tok: latex.Token) -> bool:
    return tok.kind == latex.CHAR and tok.text.isalnum()


def read_math(abstract: str, span: MathSpan, lex: Lexicon) -> tuple[Piece, ...]:
    """Split a math span into top-level segments and read each (one pass over its tokens)."""
    tokens = latex.tokenize(abstract, span.body_start, span.body_end)
    pairs = latex.match_parens(tokens)
    n = len(tokens)
    segments: list[tuple[int, int, list[Head], list[tuple[int, str]], list[tuple[str, bool, bool]]]] = []
    heads: list[Head] = []
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
            and (tok.text in lex.font_wrappers or tok.text in lex.soft_wrappers)
            or tok.kind in (latex.CHAR, latex.CMD)
            and tok.text in lex.heads
            or tok.kind == latex.OPEN
            and tok.text == "{"
            and _set_apart(tokens, k)
        ):
            prev_ok = k == 0 or not _is_letter(tokens[k - 1]) or tokens[k - 1].end != tok.start
            found = read_head(tokens, k, lex, pairs) if prev_ok else None
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
                and tok.text in lex.text_commands
                and _is_text_connective(abstract, tokens, k, pairs, lex)
            )
            if (
                connective
                or tok.kind == latex.CHAR
                and tok.text in ",;"
                or tok.kind == latex.CMD
                and tok.text in lex.separator_commands
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
        piece = _read_segment(abstract, tokens, a, b, seg_heads, seg_rels, seg_nested, lex)
        if piece is not None:
            pieces.append(piece)
    return tuple(pieces)


def _is_text_connective(
    abstract: str, tokens: Sequence[latex.Token], k: int, pairs: dict[int, int], lex: Lexicon
) -> bool:
    """``\\text{ and }`` / ``\\text{ for }`` inside math separates two statements."""
    if k + 1 >= len(tokens) or tokens[k + 1].text != "{":
        return False
    close = pairs.get(k + 1)
    if close is None:
        return False
    words = abstract[tokens[k + 1].end : tokens[close].start].strip().lower()
    return words in lex.text_connectives


def _relation(tokens: Sequence[latex.Token], k: int) -> tuple[str, int] | None:
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


def _trim(tokens: Sequence[latex.Token], a: int, b: int, lex: Lexicon) -> tuple[int, int]:
    """Token range without surrounding spaces, spacing commands and stray punctuation."""
    while a < b and (
        tokens[a].kind == latex.SPACE or tokens[a].kind == latex.CMD and tokens[a].text in lex.trim_leading
    ):
        a += 1
    while b > a and (
        tokens[b - 1].kind == latex.SPACE
        or tokens[b - 1].text in (".", ",", ";")
        or tokens[b - 1].kind == latex.CMD
        and tokens[b - 1].text in lex.trim_trailing
    ):
        b -= 1
    return a, b


def _read_segment(
    abstract: str,
    tokens: Sequence[latex.Token],
    a: int,
    b: int,
    heads: list[Head],
    rels: list[tuple[int, str]],
    nested: list[tuple[str, bool, bool]],
    lex: Lexicon,
) -> Piece | None:
    a, b = _trim(tokens, a, b, lex)
    if a >= b:
        return None
    start, end = tokens[a].start, tokens[b - 1].end
    kept_rels = [(k, rel) for k, rel in rels if rel not in lex.ignored_relations]
    member = [(k, rel) for k, rel in kept_rels if rel in lex.membership_relations]
    if member and not (len(member) == 1 and member[0][1] == "in" and any(h[0] > member[0][0] for h in heads)):
        return None  # membership and ranges define variables: $\alpha \in [0,1]$
    # …but $H(f)/h(f) \in \Theta(1)$ places a quantity in an asymptotic class: a bound
    first_rel = kept_rels[0] if kept_rels else None
    has_lhs = first_rel is not None and _trim(tokens, a, first_rel[0], lex)[0] < first_rel[0]
    if heads:
        # the head after the last relation states the bound: R_T = \tilde O(…), n \ge \Omega(…)
        after = [h for h in heads if first_rel is None or h[0] > kept_rels[-1][0]] or heads
        hk, open_k, close_k, head, soft_wrap = after[0]
        notation, kind, soft, rule = lex.heads[head]
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
        if not has_variable(variables, lex) and expr != "1":
            return None  # "the $\tilde O(\cdot)$ notation hides …" names the notation, claims nothing
        return Piece(
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
            _lhs_is_quantity(abstract, tokens, a, first_rel[0], lex) if first_rel else False,
            True,
        )
    if first_rel is not None:
        rel = first_rel[1]
        rhs_start = first_rel[0] + 1
        while rhs_start < b and tokens[rhs_start].text in ("=",):
            rhs_start += 1
        rhs = abstract[tokens[rhs_start].start : end] if rhs_start < b else ""
        expr, variables = latex.to_expr(rhs)
        if rel not in lex.relations:
            return Piece("relation", start, end, expr=expr, variables=variables, has_lhs=has_lhs)
        notation, kind, rule = lex.relations[rel]
        if rel in lex.draw_relations and _is_distribution(rhs, lex):
            return None  # $\xi \sim \mathcal{N}(0,1)$: a draw, not a scaling
        if not has_variable(variables, lex):
            return None  # u < +\infty, t \ge 0, \beta > 1/2: ranges and assumptions
        chain = {rel, kept_rels[1][1]} if len(kept_rels) >= 2 else set()
        if chain and (chain <= {"<", "<="} or chain <= {">", ">="}):
            lhs_expr, lhs_vars = latex.to_expr(abstract[tokens[a].start : tokens[first_rel[0]].start])
            if lhs_expr and not has_variable(lhs_vars, lex):
                return None  # $0<\delta<1/2$: a constant on the left, a range of a parameter
        lhs_q = _lhs_is_quantity(abstract, tokens, a, first_rel[0], lex)
        return Piece(
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
            formula_like(expr, variables, lex),
        )
    if nested:
        head, soft, negative = nested[0]
        notation, kind, soft_head, rule = lex.heads[head]
        if negative:
            kind = {"upper": "lower", "lower": "upper"}.get(kind, kind)
        expr, variables = latex.to_expr(abstract[start:end])
        return Piece(
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
    if lex.text_only.fullmatch(abstract, start, end):
        return None  # "$\textit{or}$": a word typeset in math mode
    return expression_piece(abstract, start, end, lex)


def expression_piece(abstract: str, start: int, end: int, lex: Lexicon, bare: bool = False) -> Piece | None:
    """``abstract[start:end]`` as an expression words may claim ("of order $X$"), or None when it
    has no variable; ``bare`` when it is written outside math."""
    expr, variables = latex.to_expr(abstract[start:end])
    if not has_variable(variables, lex):
        return None
    return Piece(
        "expression",
        start,
        end,
        expr=expr,
        variables=variables,
        formula_like=formula_like(expr, variables, lex),
        bare=bare,
    )


def _is_distribution(rhs: str, lex: Lexicon) -> bool:
    """Whether the right side of ``\\sim`` names a distribution: ``\\mathcal{N}(0,1)``, ``Ber(p)``."""
    text = rhs.strip()
    if text.startswith(lex.distribution_prefixes) or _CAL_MACRO.match(text):
        return True
    i = 0
    while i < len(text) and text[i].isalpha():
        i += 1
    word = text[:i]
    rest = text[i:].lstrip()
    return (
        bool(word) and word not in latex.FUNCTIONS and (rest[:1] in ("(", "[") or len(word) > 1 and not rest)
    )


def has_variable(variables: tuple[str, ...], lex: Lexicon) -> bool:
    """Whether a formula has a variable (``\\infty`` is none)."""
    return any(v not in lex.constants for v in variables)


def formula_like(expr: str, variables: tuple[str, ...], lex: Lexicon) -> bool:
    """More than one symbol: an operator, a function, or two variables (not ``L^p``, ``\\ell_2``)."""
    if expr.startswith("(") and expr.endswith(")") and "," in expr:
        return False  # a tuple of symbols: "the cumulative rates $(\\Lambda^A_t, \\Lambda^B_t)$"
    base = expr.split("^", 1)[0].split("_", 1)[0]
    if base in lex.space_names and len(expr) <= len(base) + 4:
        return False
    if lex.group_name.match(expr):
        return False  # "the rotational group $SO(3)$", "$\\mathrm{GL}(n)$": a group, not a size
    if expr.replace(".", "").replace(" ", "") in lex.math_words:
        return False  # "given $iid$ observations": a word set in math, not a product
    if any(op in expr for op in lex.formula_operators):
        return True
    return len(variables) >= 2


def _lhs_is_quantity(abstract: str, tokens: Sequence[latex.Token], a: int, rel_k: int, lex: Lexicon) -> bool:
    """Whether the left side names a bounded quantity: ``R_T``, ``\\mathrm{Reg}``, ``\\|x - x^*\\|``."""
    if rel_k <= a:
        return False
    lhs = abstract[tokens[a].start : tokens[rel_k - 1].end].strip()
    return lhs.startswith(lex.quantity_symbols) or "\\mathbb{E}" in lhs or "\\|" in lhs
