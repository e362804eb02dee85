"""A small, linear-time reader of the LaTeX math found in abstracts.

Two jobs: :func:`tokenize` splits math (or text with bare LaTeX in it, as many scraped abstracts
have: ``O(\\logT + L_max)``) into located tokens, and :func:`to_expr` rewrites a formula into a
deterministic plain normal form with its variables::

    >>> to_expr(r"dB + d\\sqrt{T}")
    ('dB + d sqrt(T)', ('B', 'T', 'd'))

Both are single left-to-right passes with an explicit stack: no recursion (an abstract may hold
50,000 nested ``{``) and no regular expression that can backtrack.
"""

from __future__ import annotations

from dataclasses import dataclass

from extractors.canonical import read_rules

# Token kinds.
CMD = "cmd"  # \name or \<symbol>; text is the name without the backslash
OPEN = "open"  # { ( [
CLOSE = "close"  # } ) ]
CHAR = "char"  # any other single character (letters, digits, operators, Unicode)
SPACE = "space"


@dataclass(frozen=True, slots=True)
class Token:
    """One LaTeX token; ``start``/``end`` are offsets into the scanned string."""

    kind: str
    text: str
    start: int
    end: int


def tokenize(s: str, start: int = 0, end: int | None = None) -> list[Token]:
    """Split ``s[start:end]`` into tokens, keeping offsets into ``s``.

    >>> [t.text for t in tokenize(r"\\tilde{O}(d\\,T)")]
    ['tilde', '{', 'O', '}', '(', 'd', ',', 'T', ')']
    """
    end = len(s) if end is None else end
    out: list[Token] = []
    i = start
    while i < end:
        c = s[i]
        if c == "\\":
            j = i + 1
            while j < end and s[j].isascii() and s[j].isalpha():
                j += 1
            if j == i + 1:  # control symbol: \, \! \{ \| …
                j = min(i + 2, end)
            elif s[i + 1 : j] not in KNOWN_COMMANDS:
                # scraped abstracts lose the space after a command: "\logT", "\mathcalO(n)"
                name = s[i + 1 : j]
                for cut in range(len(name) - 1, max(1, len(name) - 5), -1):
                    if name[:cut] in KNOWN_COMMANDS:
                        j = i + 1 + cut
                        break
            out.append(Token(CMD, s[i + 1 : j], i, j))
            i = j
        elif c in "{([":
            out.append(Token(OPEN, c, i, i + 1))
            i += 1
        elif c in "})]":
            out.append(Token(CLOSE, c, i, i + 1))
            i += 1
        elif c.isspace() or c == "~":
            j = i + 1
            while j < end and (s[j].isspace() or s[j] == "~"):
                j += 1
            out.append(Token(SPACE, " ", i, j))
            i = j
        else:
            out.append(Token(CHAR, c, i, i + 1))
            i += 1
    return out


def match_parens(tokens: list[Token]) -> dict[int, int]:
    """Index of the matching closer for every opening token that is closed (one pass).

    Braces are TeX groups: a ``)`` never closes across a ``{`` (``[0, 1)`` and ``{b)c}`` leave the
    stray alone), and a ``}`` closes its ``{`` whatever parentheses were left open inside it.
    """
    stack: list[int] = []
    pairs: dict[int, int] = {}
    for k, tok in enumerate(tokens):
        text = tok.text
        if tok.kind == OPEN or tok.kind == CMD and text in ("{", "lbrace"):
            stack.append(k)
        elif tok.kind == CLOSE and text == "}" or tok.kind == CMD and text in ("}", "rbrace"):
            for depth in range(len(stack) - 1, -1, -1):  # amortized linear: everything above is dropped
                if tokens[stack[depth]].text in ("{", "lbrace"):
                    pairs[stack[depth]] = k
                    del stack[depth:]
                    break
        elif tok.kind == CLOSE:
            want = "(" if text == ")" else "["
            for depth in range(len(stack) - 1, max(-1, len(stack) - 8), -1):
                opener = tokens[stack[depth]].text
                if opener in ("{", "lbrace"):
                    break
                if opener == want:
                    pairs[stack[depth]] = k
                    del stack[depth:]
                    break
    return pairs


GREEK = frozenset(
    "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi pi rho sigma tau "
    "upsilon phi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega".split()
)
_VAR_GREEK = {
    "varepsilon": "epsilon",
    "vartheta": "theta",
    "varphi": "phi",
    "varrho": "rho",
    "varsigma": "sigma",
    "varpi": "pi",
    "varkappa": "kappa",
    "ell": "ell",
}
UNICODE_GREEK = {
    "α": "alpha",
    "β": "beta",
    "γ": "gamma",
    "δ": "delta",
    "ε": "epsilon",
    "ϵ": "epsilon",
    "ζ": "zeta",
    "η": "eta",
    "θ": "theta",
    "κ": "kappa",
    "λ": "lambda",
    "μ": "mu",
    "ν": "nu",
    "ξ": "xi",
    "π": "pi",
    "ρ": "rho",
    "σ": "sigma",
    "τ": "tau",
    "φ": "phi",
    "ϕ": "phi",
    "χ": "chi",
    "ψ": "psi",
    "ω": "omega",
    "Γ": "Gamma",
    "Δ": "Delta",
    "Θ": "Theta",
    "Λ": "Lambda",
    "Σ": "Sigma",
    "Φ": "Phi",
    "Ψ": "Psi",
    "Ω": "Omega",
    "ℓ": "ell",
}
FUNCTIONS = frozenset(
    "log ln lg exp min max sup inf lim det sin cos tan tanh sinh cosh arg argmin argmax Pr "
    "poly polylog sqrt dim rank tr Tr sgn sign var Var cov KL".split()
)
# Commands that only change size, spacing or style: dropped, their argument kept.
_IGNORED = frozenset(
    "left right l r big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr middle , ! ; : > "
    "quad qquad displaystyle textstyle scriptstyle limits nolimits rm bf it sf tt cal "
    "mathrm mathit mathbf mathsf mathtt mathcal mathbb mathfrak mathscr boldsymbol bm "
    "operatorname text textrm textit textbf textsf mbox mathnormal rlap llap".split()
)
_WORD_FONTS = frozenset("mathrm text textrm textit textbf textsf mbox operatorname".split())
_ACCENTS = frozenset("tilde widetilde hat widehat bar overline vec dot ddot check breve underline".split())
# Relations, by command and by character, in the normal form's spelling: one table for the
# expression writer here and for the bound finder (which decides which relations bound).
RELATION_COMMANDS = {
    "le": "<=",
    "leq": "<=",
    "leqslant": "<=",
    "ge": ">=",
    "geq": ">=",
    "geqslant": ">=",
    "lesssim": "<~",
    "gtrsim": ">~",
    "ll": "<<",
    "gg": ">>",
    "sim": "~",
    "simeq": "~=",
    "eqsim": "~",
    "cong": "~=",
    "approx": "~~",
    "asymp": "asymp",
    "propto": "propto",
    "lt": "<",
    "gt": ">",
    "neq": "!=",
    "ne": "!=",
    "equiv": "==",
    "in": "in",
    "notin": "notin",
    "subset": "subset",
    "subseteq": "subseteq",
    "to": "->",
    "rightarrow": "->",
    "mapsto": "->",
}
RELATION_CHARS = {
    "≤": "<=",
    "≥": ">=",
    "⩽": "<=",
    "⩾": ">=",
    "≲": "<~",
    "≳": ">~",
    "∼": "~",
    "≃": "~=",
    "≈": "~~",
    "≍": "asymp",
    "∝": "propto",
    "≠": "!=",
    "∈": "in",
    "→": "->",
    "=": "=",
    "<": "<",
    ">": ">",
}
_SYMBOLS = {
    "{": "{",
    "}": "}",
    "lbrace": "{",
    "rbrace": "}",
    "lvert": "|",
    "rvert": "|",
    "vert": "|",
    "|": "||",
    "lVert": "||",
    "rVert": "||",
    "Vert": "||",
    "mid": "|",
    "langle": "(",
    "rangle": ")",
    "lfloor": "floor(",
    "rfloor": ")",
    "lceil": "ceil(",
    "rceil": ")",
    "cdot": "*",
    "times": "*",
    "cdots": "...",
    "ldots": "...",
    "dots": "...",
    "cap": "cap",
    "cup": "cup",
    "to": "->",
    "rightarrow": "->",
    "mapsto": "->",
    "infty": "infty",
    "pm": "+-",
    "prime": "'",
    "partial": "partial",
    "nabla": "nabla",
    "sum": "sum",
    "prod": "prod",
    "int": "int",
    "%": "%",
    "#": "#",
    "&": "&",
    "_": "_",
    **RELATION_COMMANDS,
}
_UNICODE = {
    "≤": "<=",
    "≥": ">=",
    "⩽": "<=",
    "⩾": ">=",
    "≲": "<~",
    "≳": ">~",
    "∼": "~",
    "≃": "~=",
    "≈": "~~",
    "≍": "asymp",
    "∝": "propto",
    "≠": "!=",
    "·": "*",
    "×": "*",
    "⋅": "*",
    "∞": "infty",
    "−": "-",
    "∈": "in",
    "→": "->",
    "²": "^2",
    "³": "^3",
    "⁴": "^4",
    "½": "1/2",
    "…": "...",
    "√": "sqrt",
    "∑": "sum",
    "∏": "prod",
}
_STARS = frozenset(("star", "ast", "dagger", "natural"))
_OPS = frozenset(
    "+ - = < > <= >= <~ >~ << >> ~ ~= ~~ != == -> +- asymp propto in notin subset subseteq".split()
)

_FRACS = frozenset(("frac", "dfrac", "tfrac", "cfrac"))
# Authors' own macros for asymptotic heads (\Ot for Õ, \bigOtil, \mO for \mathcal{O}), as the
# notation table lists them: whole command names, so "\bigOtil" is not cut into "\big" and letters.
_ASYMPTOTIC_MACROS = frozenset(
    row["head"] for row in read_rules("bounds_notation.jsonl") if row["id"].startswith("head.macro.")
)
KNOWN_COMMANDS = frozenset(
    GREEK
    | set(_VAR_GREEK)
    | FUNCTIONS
    | _IGNORED
    | _WORD_FONTS
    | _ACCENTS
    | set(_SYMBOLS)
    | _STARS
    | _FRACS
    | {"sqrt", "textsc", "emph", "underbrace", "overbrace", "not", "leqslant", "geqslant"}
    | _ASYMPTOTIC_MACROS
)
_SWITCHES = frozenset(("rm", "it", "bf", "sf", "tt"))  # {\rm BO}: the rest of the group is a label

# Atom kinds produced by the converter before joining.
_VAR, _NUM, _FUNC, _OP, _PUNCT, _OPEN, _CLOSE, _WORD, _SCRIPT = range(9)
_GROUP = 9  # an opening parenthesis that groups a factor, apart from a name before it: "K (xy)^(1/3)"


@dataclass(slots=True)
class _Frame:
    """An open ``{`` group: what to emit when it closes."""

    role: str  # "plain" | "drop" | "sqrt" | "frac1" | "frac2" | "script" | "accent" | "word"
    mark: int  # atom index where the group's content starts
    index: tuple[Token, ...] = ()  # the root index of ``\\sqrt[d]{…}``


def to_expr(latex: str) -> tuple[str, tuple[str, ...]]:
    """Normal form and sorted variables of a LaTeX (or Unicode) formula.

    Sizing and spacing commands are dropped, fonts unwrapped (``\\mathcal{A}`` → ``A``),
    ``\\sqrt{x}`` → ``sqrt(x)``, ``\\frac{a}{b}`` → ``a/b``, Greek commands and letters to
    their names, relations to ASCII (``\\le`` → ``<=``, ``\\sim`` → ``~``). Adjacent one-letter
    variables stay joined (``dB``), words are separated by one space.

    >>> to_expr(r"B\\min \\lbrace d,\\log\\lvert \\mathcal{A} \\rvert \\rbrace")
    ('B min{d, log |A|}', ('A', 'B', 'd'))
    >>> to_expr(r"t_{\\mathrm{mix}}^3/\\varepsilon^2")
    ('t_mix^3/epsilon^2', ('epsilon', 't_mix'))
    """
    atoms: list[tuple[int, str]] = []
    stack: list[_Frame] = []
    pending: list[str] = []  # role for the next "{": set by \sqrt, \frac, ^, _, fonts, accents
    root_index: tuple[Token, ...] = ()  # the index of the \sqrt[d] whose argument comes next
    word_depth = 0  # inside \text{…}: letters form words
    tokens = _merge_function_words(tokenize(latex))
    n = len(tokens)
    k = 0
    while k < n:
        tok = tokens[k]
        k += 1
        kind, text = tok.kind, tok.text
        if kind == SPACE:
            if word_depth and atoms and atoms[-1][0] == _WORD:
                atoms[-1] = (_WORD, atoms[-1][1] + " ")
            continue
        if kind == OPEN and text == "{":
            role = pending.pop() if pending else "plain"
            if role == "word":
                word_depth += 1
            stack.append(_Frame(role, len(atoms), root_index if role == "sqrt" else ()))
            if role == "sqrt" and root_index:
                atoms.append((_GROUP, "("))  # \sqrt[d]{x} -> (x)^(1/d)
                root_index = ()
            elif role == "sqrt":
                atoms.append((_FUNC, "sqrt"))
                atoms.append((_OPEN, "("))
            elif role in ("frac1", "frac2"):
                atoms.append((_OPEN, "("))
            continue
        if kind == CLOSE and text == "}":
            if not stack:
                continue
            frame = stack.pop()
            if frame.role == "word":
                word_depth -= 1
                if atoms and atoms[-1][0] == _WORD:
                    atoms[-1] = (_WORD, atoms[-1][1].strip())
            elif frame.role == "sqrt":
                atoms.append((_CLOSE, ")"))
                if frame.index:
                    if len(atoms) - frame.mark == 3:
                        atoms[frame.mark : frame.mark + 3] = [atoms[frame.mark + 1]]  # one atom: x^(1/d)
                    _emit_root_power(atoms, frame.index)
            elif frame.role == "frac1":
                atoms.append((_CLOSE, ")"))
                atoms.append((_OP, "/"))
                pending.append("frac2")
            elif frame.role == "frac2":
                atoms.append((_CLOSE, ")"))
            elif frame.role == "script" and len(atoms) - frame.mark > 1 and not _wrapped(atoms, frame.mark):
                atoms.insert(frame.mark, (_OPEN, "("))
                atoms.append((_CLOSE, ")"))
            elif frame.role == "accent" and len(atoms) - frame.mark > 1:
                atoms.insert(frame.mark, (_OPEN, "("))
                atoms.append((_CLOSE, ")"))
            continue
        if pending and not (kind == CMD and text in _IGNORED):
            # a command that takes a braced argument got a bare token instead: \sqrt T, x^2
            role = pending.pop()
            if role == "sqrt":
                index, root_index = root_index, ()
                if index:
                    _emit_token(atoms, tok, word_depth)  # \sqrt[4]T -> T^(1/4)
                    _emit_root_power(atoms, index)
                    continue
                atoms.append((_FUNC, "sqrt"))
                atoms.append((_OPEN, "("))
                _emit_token(atoms, tok, word_depth)
                atoms.append((_CLOSE, ")"))
                continue
        if kind == CMD:
            if text in ("sqrt",):
                pending.append("sqrt")
                # \sqrt[3]{x}: the optional root index makes a power, (x)^(1/3)
                if k < n and tokens[k].text == "[":
                    start = k + 1
                    while k < n and tokens[k].text != "]":
                        k += 1
                    root_index = tuple(t for t in tokens[start:k] if t.kind != SPACE)
                    k += 1
            elif text in _FRACS:
                pending.append("frac1")
            elif text in _WORD_FONTS:
                pending.append("word")
            elif text in _ACCENTS:
                pending.append("accent")
            elif text in _SWITCHES and stack and stack[-1].role in ("plain", "script"):
                stack[-1].role = "word"
                word_depth += 1
            elif text in _IGNORED:
                if k < n and tokens[k].text == "{":
                    pending.append("drop")
            else:
                _emit_token(atoms, tok, word_depth)
            continue
        if kind == CHAR and text in "^_":
            atoms.append((_SCRIPT, text))
            pending.append("script")
            continue
        if kind == CHAR and text == "√":
            pending.append("sqrt")
            continue
        _emit_token(atoms, tok, word_depth)
    return _join(atoms), _variables(atoms)


def _emit_root_power(atoms: list[tuple[int, str]], index: tuple[Token, ...]) -> None:
    """The power ``^(1/d)`` that the root index ``d`` of ``\\sqrt[d]{…}`` makes, ``^(1/(k+1))``
    for an index of several tokens."""
    atoms.extend(((_SCRIPT, "^"), (_OPEN, "("), (_NUM, "1"), (_OP, "/")))
    if len(index) > 1:
        atoms.append((_OPEN, "("))
    for tok in index:
        _emit_token(atoms, tok, 0)
    if len(index) > 1:
        atoms.append((_CLOSE, ")"))
    atoms.append((_CLOSE, ")"))


def _wrapped(atoms: list[tuple[int, str]], mark: int) -> bool:
    """Whether ``atoms[mark:]`` is already one parenthesised group: ``^{(-2 d)}``."""
    if atoms[mark] != (_OPEN, "(") or atoms[-1] != (_CLOSE, ")"):
        return False
    depth = 0
    for k in range(mark, len(atoms)):
        depth += atoms[k][0] == _OPEN
        depth -= atoms[k][0] == _CLOSE
        if depth == 0 and k < len(atoms) - 1:
            return False
    return True


def _merge_function_words(tokens: list[Token]) -> list[Token]:
    """Plain-text formulas spell functions without a backslash: ``O(n log n)``, ``sqrt(T)``."""
    out: list[Token] = []
    k, n = 0, len(tokens)
    while k < n:
        tok = tokens[k]
        if (
            tok.kind == CHAR
            and tok.text.isascii()
            and tok.text.isalpha()
            and not (out and out[-1].kind == CHAR and out[-1].end == tok.start and out[-1].text.isalpha())
        ):
            j = k
            while (
                j + 1 < n
                and tokens[j + 1].kind == CHAR
                and tokens[j + 1].text.isascii()
                and tokens[j + 1].text.isalpha()
                and tokens[j + 1].start == tokens[j].end
            ):
                j += 1
            word = "".join(t.text for t in tokens[k : j + 1])
            if j > k and (word in FUNCTIONS or word in GREEK):
                out.append(Token(CMD, word, tok.start, tokens[j].end))
                k = j + 1
                continue
        out.append(tok)
        k += 1
    return out


def _emit_token(atoms: list[tuple[int, str]], tok: Token, word_depth: int) -> None:
    text = tok.text
    if tok.kind == CMD:
        if text in _SYMBOLS:
            sym = _SYMBOLS[text]
            if sym in ("{", "(") or sym.endswith("("):
                atoms.append((_OPEN, sym))
            elif sym in ("}", ")"):
                atoms.append((_CLOSE, sym))
            elif sym in _OPS or sym in ("*", "/"):
                atoms.append((_OP, sym))
            elif sym in ("|", "||"):
                atoms.append((_PUNCT, sym))
            elif sym in ("_",):
                atoms.append((_SCRIPT, "_"))
            else:
                atoms.append((_WORD, sym))
        elif text in _STARS:
            atoms.append((_NUM, "*"))
        elif text in _VAR_GREEK:
            atoms.append((_VAR, _VAR_GREEK[text]))
        elif text in GREEK:
            atoms.append((_VAR, text))
        elif text in FUNCTIONS:
            atoms.append((_FUNC, text))
        elif text:
            atoms.append((_WORD, text))
        return
    if tok.kind in (OPEN, CLOSE):
        atoms.append((_OPEN if tok.kind == OPEN else _CLOSE, text))
        return
    c = text
    if word_depth and (c.isalnum() or c in "-'"):
        if atoms and atoms[-1][0] == _WORD:
            atoms[-1] = (_WORD, atoms[-1][1] + c)
        else:
            atoms.append((_WORD, c))
        return
    if c in UNICODE_GREEK:
        atoms.append((_VAR, UNICODE_GREEK[c]))
    elif c in _UNICODE:
        sym = _UNICODE[c]
        if sym.startswith("^"):
            atoms.append((_SCRIPT, "^"))
            atoms.append((_NUM, sym[1:]))
        elif sym == "sqrt":
            atoms.append((_FUNC, "sqrt"))
        elif sym in _OPS or sym == "*":
            atoms.append((_OP, sym))
        else:
            atoms.append((_WORD, sym))
    elif c.isdigit() or c == ".":
        if atoms and atoms[-1][0] == _NUM and (atoms[-1][1][-1].isdigit() or atoms[-1][1][-1] == "."):
            atoms[-1] = (_NUM, atoms[-1][1] + c)
        else:
            atoms.append((_NUM, c))
    elif c.isalpha():
        atoms.append((_VAR, c))
    elif c in "+-=<>":
        if atoms and atoms[-1] in ((_OP, "<"), (_OP, ">")) and c == "=":
            atoms[-1] = (_OP, atoms[-1][1] + "=")
        else:
            atoms.append((_OP, c))
    elif c in ",;":
        atoms.append((_PUNCT, c))
    elif c == "|":
        atoms.append((_PUNCT, "|"))
    elif c == "/":
        atoms.append((_OP, "/"))
    elif c == "'":
        atoms.append((_SCRIPT, "'"))
    elif c.isprintable() and c != "$":
        atoms.append((_WORD, c))


def _join(atoms: list[tuple[int, str]]) -> str:
    """Join atoms with the spacing rules of the normal form."""
    out: list[str] = []
    prev: tuple[int, str] | None = None
    before_prev: tuple[int, str] | None = None
    bars_open = False  # inside |…|: the closing bar hugs its content
    for kind, text in atoms:
        if not text:
            continue
        group = kind == _GROUP
        if group:
            kind = _OPEN
        sep = ""
        if prev is not None:
            pk, pt = prev
            if kind == _OP and text in ("*", "/") or pk == _OP and pt in ("*", "/"):
                sep = " " if text == "*" or pt == "*" else ""
            elif kind == _OP and text in _OPS:
                unary = text in ("-", "+") and (pk in (_OPEN, _SCRIPT, _OP) or pt == ",")
                sep = "" if unary else " "
            elif pk == _OP and pt in _OPS:
                unary = pt in ("-", "+") and (
                    len(out) < 2 or out[-2].rstrip()[-1:] in "(^_,{" or out[-2].rstrip() in _OPS
                )
                sep = "" if unary else " "
            elif pk == _PUNCT and pt in ",;":
                sep = " "
            elif kind in (_SCRIPT, _CLOSE) or pk in (_SCRIPT, _OPEN) or kind == _PUNCT and pt in ",;":
                sep = ""
            elif kind == _PUNCT and text in ("|", "||"):
                sep = "" if bars_open or pk in (_OPEN,) else " "
            elif pk == _PUNCT and pt in ("|", "||"):
                sep = "" if bars_open else " "
            elif kind == _OPEN:
                sep = (
                    ""
                    if pk in (_FUNC, _VAR, _WORD) and text == "(" or pk == _FUNC
                    else (" " if pk == _CLOSE and text == "(" else "")
                )
                if pk == _FUNC and text == "(":
                    sep = ""
            elif pk == _VAR and kind == _VAR:
                scripted = before_prev is not None and before_prev[0] == _SCRIPT
                sep = "" if len(pt) == 1 and len(text) == 1 and not scripted else " "
            elif pk == _NUM and kind == _VAR:
                sep = ""
            elif pk in (_FUNC, _WORD, _VAR, _NUM, _CLOSE) and kind in (_FUNC, _WORD, _VAR, _NUM):
                sep = " " if not (pk == _VAR and kind == _NUM) else ""
        if group and prev is not None and prev[0] in (_VAR, _NUM, _WORD, _CLOSE):
            sep = " "  # "K (DS^2AT^2)^(1/3)", not a call of K
        if kind == _PUNCT and text in ("|", "||"):
            bars_open = not bars_open
        out.append(sep + text)
        before_prev, prev = prev, (kind, text)
    return _unwrap_atoms("".join(out).strip())


def _unwrap_atoms(expr: str) -> str:
    """Drop parentheses around one name or number that no function applies: ``(d)/(T)`` → ``d/T``."""
    out: list[str] = []
    i, n = 0, len(expr)
    while i < n:
        c = expr[i]
        if c == "(" and not (out and (out[-1][-1:].isalnum() or out[-1][-1:] in ")_^*")):
            j = i + 1
            while j < n and (expr[j].isalnum() or expr[j] in "_."):
                j += 1
            inner = expr[i + 1 : j]
            if j < n and expr[j] == ")" and inner and _is_atom(inner):
                out.append(inner)
                i = j + 1
                continue
        out.append(c)
        i += 1
    return "".join(out)


def _is_atom(s: str) -> bool:
    """A number, one letter, or one name with a subscript: what needs no parentheses."""
    if s.replace(".", "", 1).isdigit():
        return True
    head = s.split("_", 1)[0]
    return len(head) == 1 or head in GREEK or head in _VAR_GREEK.values()


def _variables(atoms: list[tuple[int, str]]) -> tuple[str, ...]:
    """Variables of a converted formula: letters, Greek names and \\text words, with subscripts."""
    found: set[str] = set()
    k, n = 0, len(atoms)
    while k < n:
        kind, text = atoms[k]
        k += 1
        if (
            kind not in (_VAR, _WORD)
            or kind == _WORD
            and (
                not text[:1].isalpha()
                or text in ("infty", "partial", "nabla", "sum", "prod", "int", "in", "notin")
            )
        ):
            continue
        if kind == _WORD and len(text) > 1 and text[0] == text[0].upper() and text in ("E", "P"):
            continue
        name = text
        if k < n and atoms[k] == (_SCRIPT, "_"):
            # subscript: one atom, or a parenthesised group the script frame wrapped
            if k + 1 < n and atoms[k + 1][0] == _OPEN:
                depth, j, parts = 0, k + 1, []
                while j < n:
                    depth += atoms[j][0] == _OPEN
                    depth -= atoms[j][0] == _CLOSE
                    if depth == 0:
                        break
                    if atoms[j][0] not in (_OPEN, _CLOSE):
                        parts.append(atoms[j][1].replace(" ", ""))
                    j += 1
                name = f"{text}_{''.join(parts)}"
                k = j + 1
            elif k + 1 < n:
                name = f"{text}_{atoms[k + 1][1]}"
                k += 2
        found.add(name)
    return tuple(sorted(found))
