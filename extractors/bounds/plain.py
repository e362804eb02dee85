"""Bounds written outside math, as scraped abstracts write them: ``Õ(dB + d√T)``,
``O(n log n)``, ``Ω(√T)``, ``\\mathcalO(n^r)``, ``n^O(1/θ^2)``, ``an Omega(ln(k)) lower bound``.

Every ``(`` of the text between math spans is a candidate: the head is read backwards from it (a
lone head letter, a head word, or a few LaTeX tokens), then its argument must look like a formula,
not prose or a size ("O(10k) instances"). One pass of parenthesis matching over each region keeps
the scan linear whatever the nesting.
"""

from __future__ import annotations

import re

from extractors import latex
from extractors.bounds.lexicon import Lexicon
from extractors.bounds.notation import COMBINING_TILDE, Piece, expression_piece, read_head
from extractors.bounds.words import WORD

MAX_BARE_ARG = 240  # characters in the argument of a bound written outside math
# The last character of a head read with its LaTeX: "\\tilde{O}", "Omega", "Theta", a combining tilde.
_HEAD_ENDINGS = frozenset(("}", "a", "*", COMBINING_TILDE))
_INLINE_SPACES = frozenset(" \xa0\u2009\u202f")
# Written out before a bare head: a tilde command and a space ("\widetilde O(\sqrtT)"), and a
# symbol with a relation ("K=ω(…)", "∆ = O(\log n)", "R_T ≤ O(√T)"), the symbol maybe a command
# ("\ell = O(k/ε)").
_BARE_TILDE = re.compile(r"\\(?:widetilde|tilde)\s+")
_BARE_LHS = re.compile(
    r"(?:\\[A-Za-z]+|[A-Za-zΑ-Ωα-ω∆][A-Za-z0-9]?)(?:_\{?[A-Za-z0-9]+\}?)?\s*(?:=|≤|≥|<|>)\s*"
)


def read_plain(abstract: str, lo: int, hi: int, lex: Lexicon) -> list[Piece]:
    """Asymptotic heads in plain text ``abstract[lo:hi]`` (outside math), found from each ``(``."""
    pieces: list[Piece] = []
    # one pass of parenthesis matching over the region: O(length), whatever the nesting
    stack: list[int] = []
    close_of: dict[int, int] = {}
    opens: list[int] = []
    pos = abstract.find("(", lo, hi)
    if pos < 0:
        return _bare_expressions(abstract, lo, hi, lex, pieces)
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
        sizing = next(
            (c for c in lex.sizing_before_paren if abstract.endswith(c, max(lo, q - len(c)), q)), None
        )
        if sizing is not None:
            q -= len(sizing)  # "\\tildeO\\left(…\\right)" written out
        if q > lo and abstract[q - 1] in _INLINE_SPACES:
            q -= 1
        star = q > lo + 1 and abstract[q - 1] in "∗*" and abstract[q - 2] in "OÕ"
        if star:
            q -= 1  # "O∗(nT)": the starred O hides log factors, like Õ
        if (
            q <= lo
            or not abstract[q - 1 : q]
            or not (
                abstract[q - 1] in lex.bare_letters
                or abstract[q - 1] in _HEAD_ENDINGS
                or abstract[q - 1] in lex.ocr_heads
            )
        ):
            continue
        letter = abstract[q - 1]
        word = abstract[max(lo, q - 5) : q]
        if letter in lex.bare_letters and (q - 1 == lo or abstract[q - 2] in " \t\n,;:([/^"):
            # the common case, "O(n log n)", "Õ(dB)": a lone head letter, no LaTeX to read
            head, soft, head_start = letter, letter == "Õ" or star, q - 1
        elif (
            letter in lex.bare_letters
            and abstract[q - 2] == "~"
            and (q - 2 == lo or abstract[q - 3] in " \t\n,;:([/")
        ):
            head, soft, head_start = letter, True, q - 2  # "~O(1/gamma)": a tilde typed before the head
        elif letter in lex.ocr_heads and _ocr_head(abstract, lo, q, close_of.get(p)):
            head, soft, head_start = lex.ocr_heads[letter], False, q - 1  # "0 ( n)" in a scan
        elif word in lex.bare_words and word in lex.heads and (q - 5 == lo or not abstract[q - 6].isalnum()):
            head, soft, head_start = word, False, q - 5  # "an Omega(ln(k)) lower bound"
        else:
            toks = latex.tokenize(abstract, max(lo, q - 32), q)
            n_toks = len(toks)
            toks.append(latex.Token(latex.OPEN, "(", p, p + 1))
            found = None
            for s in range(n_toks - 1, -1, -1):
                tok = toks[s]
                if tok.kind == latex.SPACE:
                    break
                if not (
                    tok.text in lex.heads
                    or tok.text in lex.font_wrappers
                    or tok.text in lex.soft_wrappers
                    or tok.text == "{"
                ):
                    continue  # a head starts at its letter, at a wrapper command or at a group
                cand = read_head(toks, s, lex)
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
        if close is None or close - p > MAX_BARE_ARG:
            continue
        arg = abstract[p + 1 : close]
        if not _plausible_argument(arg):
            continue
        notation, kind, soft_head, rule = lex.heads[head]
        expr, variables = latex.to_expr(arg)
        if base is not None:
            # "n^O(1/θ^2) time", "2^O(1/ε^2) variables": the power is the bound, as "$n^{O(…)}$"
            base_expr, base_variables = latex.to_expr(abstract[base : head_start - 1])
            expr = f"{base_expr}^({notation}({expr}))"
            variables = tuple(sorted({*variables, *base_variables}))
            head_start = base
        tilde = _BARE_TILDE.search(abstract, max(lo, head_start - 12), head_start)
        if tilde is not None and tilde.end() == head_start and base is None:
            head_start, soft = tilde.start(), True  # "\widetilde O(\sqrtT)" written out
        has_lhs = False
        lhs = _BARE_LHS.search(abstract, max(lo, head_start - 16), head_start)
        if lhs is not None and lhs.end() == head_start:
            if lhs.start() == lo or not abstract[lhs.start() - 1].isalnum():
                # "If K=ω(n/\log n), …": the size of a symbol, a regime or a claim
                head_start, has_lhs = lhs.start(), True
        pieces.append(
            Piece(
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
    return _bare_expressions(abstract, lo, hi, lex, pieces)


# A token of plain text that is math: a TeX command, a power, an index, a root, a relation, or a
# quotient of symbols or numbers ("\\sqrtKT", "K^1/4\\sqrtT", "k/SNR^2", "1/(Nt)", "∆/λ"), not of
# words ("and/or", "input/output").
_MATH_MARK = re.compile(r"\^|√|[A-Za-z0-9)}]_|[≤≥≲≳]")
_COMMAND = re.compile(r"\\([A-Za-z]+)")
_PROSE = re.compile(r"[A-Za-z]{4,}")
_WORD_PAIR = re.compile(r"[A-Z]/[A-Z]")
# The commands that make a token math: roots, fractions, functions, operators and Greek letters,
# not the text commands around words ("\\emph{tight}", "\\citet{…}", "\\textsc{…}").
_MATH_COMMANDS = (
    latex.FUNCTIONS
    | latex.GREEK
    | frozenset(
        "frac tfrac dfrac cdot times le leq ge geq lesssim gtrsim ll gg varepsilon vartheta varphi".split()
    )
)
_QUOTIENT = re.compile(r"(?:^|[^\w\\])(?:[^\W\d_]|\d[\d.]*|\([^()]*\))/\(?[\w\\]")
_NOT_MATH = re.compile(r"https?:|www\.|@|://|\.(?:com|org|net|io)\b")
_JOINERS = frozenset(("+", "-", "−", "⋅", "·", "\\cdot", "×", "\\times", "log", "ln", "\\log", "\\ln"))
_FUNCTION_END = re.compile(r"(?:\\?log|\\?ln)$")  # "\\sqrtT\\ln K": the operand is the next token
_TRAIL = ".,;:"


def _bare_expressions(abstract: str, lo: int, hi: int, lex: Lexicon, taken: list[Piece]) -> list[Piece]:
    """``taken`` (the heads read in ``abstract[lo:hi]``) and the expressions written outside math
    around them, in text order: a run of tokens of which the first is math by its marks ("\\sqrtKT",
    "K^1/4\\sqrtT", "1/M"), joined by operators and logarithms to the tokens after it ("\\sqrtT\\ln
    K"). Like a bare expression in math, one is a bound only when words claim it
    (:mod:`extractors.bounds.statements`)."""
    out = list(taken)
    tokens = [(m.start(), m.end()) for m in re.finditer(r"\S+", abstract[lo:hi])]
    i = 0
    while i < len(tokens):
        start, end = lo + tokens[i][0], lo + tokens[i][1]
        word = abstract[start:end]
        i += 1
        if _NOT_MATH.search(word) or lex.bare_head.search(word) or not _math_token(word):
            continue  # a head the head reader did not take is no bare expression either
        if i < len(tokens) and _FUNCTION_END.search(word) and tokens[i][1] - tokens[i][0] <= 4:
            end = lo + tokens[i][1]
            i += 1
        while i + 1 < len(tokens) and abstract[lo + tokens[i][0] : lo + tokens[i][1]] in _JOINERS:
            nxt = abstract[lo + tokens[i + 1][0] : lo + tokens[i + 1][1]].rstrip(_TRAIL)
            if not nxt or len(nxt) > 4 and not _MATH_MARK.search(nxt):
                break  # "\\sqrtT - which …": a dash before words
            end = lo + tokens[i + 1][1]
            i += 2
        while end > start and abstract[end - 1] in _TRAIL:
            end -= 1
        while (
            end > start
            and abstract[end - 1] == ")"
            and abstract.count("(", start, end) < abstract.count(")", start, end)
        ):
            end -= 1  # "(1/K)": the parenthesis of the sentence, not of the formula
        while (
            start < end
            and abstract[start] == "("
            and abstract.count("(", start, end) > abstract.count(")", start, end)
        ):
            start += 1
        if abstract[start] == "(" and abstract[end - 1] == ")":
            toks = latex.tokenize(abstract, start, end)
            if latex.match_parens(toks).get(0) == len(toks) - 1:
                start, end = start + 1, end - 1  # "(1/K)": a formula set in parentheses
        if end <= start or any(p.start < end and start < p.end for p in taken):
            continue
        piece = expression_piece(abstract, start, end, lex, bare=True)
        if piece is not None:
            out.append(piece)
    out.sort(key=lambda p: (p.start, p.end))
    return out


def _math_token(word: str) -> bool:
    """Whether a token of plain text is math by its marks (see ``_MATH_MARK``, ``_QUOTIENT``)."""
    if word[:1] in "∈≤≥<>=":
        return False  # "∈\\mathbbZ_+": the end of a membership, not a formula
    commands = _COMMAND.findall(word)
    if commands and not any(_math_command(c) for c in commands):
        return False
    if any(w not in latex.FUNCTIONS for w in _PROSE.findall(_COMMAND.sub(" ", word))):
        return False  # "n^αwhere", "2^p-dimensional": a formula glued to a word
    if _WORD_PAIR.fullmatch(word.strip(_TRAIL + "()")):
        return False  # "I/O examples": two capitals, a pair of words
    return bool(_MATH_MARK.search(word) or _QUOTIENT.search(word) or commands)


def _math_command(name: str) -> bool:
    """``\\sqrtKT`` and ``\\lnK`` lost their space: a math command may run into a symbol."""
    return any(name[:cut] in _MATH_COMMANDS for cut in range(len(name), 1, -1))


def _ocr_head(abstract: str, lo: int, q: int, close: int | None) -> bool:
    """Whether the character before ``q`` stands for a head an OCR misread ("0 ( n)"): alone,
    after a word or an opening parenthesis (not after a number, an arrow or an operator), before
    a parenthesis that holds a formula rather than a word ("from 0 (arbitrarily bad) to 1")."""
    if close is None or q - 1 > lo and abstract[q - 2] not in " \t\n(":
        return False
    j = q - 2
    while j >= lo and abstract[j] in " \t\n":
        j -= 1
    if j >= lo and not (abstract[j].isalpha() or abstract[j] == "("):
        return False
    arg = abstract[abstract.index("(", q) + 1 : close]
    return bool(arg.strip()) and not any(w.isalpha() and len(w) > 3 for w in arg.split())


def _exponent_base(abstract: str, lo: int, head_start: int) -> int | None:
    """The start of the base of a power whose exponent is the head at ``head_start`` ("n^O(…)",
    "2^Ω(…)"): one letter or a number right before the ``^``, after a word boundary; else None."""
    end = head_start - 1  # the "^"
    start = end
    if start > lo and abstract[start - 1] == ")":
        # "(1/ε)^O(\\log(1/ε))": a parenthesized base
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
    for w in WORD.findall(text):
        if len(w) >= 4 and w.isalpha() and w not in latex.FUNCTIONS and w not in latex.GREEK:
            i = text.find(w)
            if i > 0 and text[i - 1] in "\\{_":
                continue
            prose += 1
    return prose < 2 and any(c.isalpha() for c in text) or text == "1"
