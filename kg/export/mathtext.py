"""LaTeX math as plain Unicode text, offline: what the HTML page shows instead of ``$\\tilde{O}(\\sqrt{T})$``.

:func:`latex_to_text` turns the math of titles, entity names and bounds into text a reader can read
without a TeX renderer: ``\\alpha`` → α, ``x^2`` → x², ``\\sqrt{T}`` → √T, ``\\tilde{O}`` → Õ,
``\\mathcal{O}`` → 𝒪, ``\\mathbb{R}`` → ℝ, ``\\frac{a}{b}`` → a/b. Math delimiters (``$…$``,
``\\(…\\)``) are dropped. Whatever command is not known loses its backslash (``\\foo`` → foo), so
the result never holds a ``$`` or a ``\\`` (a literal ``\\$`` becomes ``＄``, the fullwidth sign).
The symbol tables are data, ``templates/mathtext.json`` (Unicode names from the Unicode Standard's
Mathematical Alphanumeric Symbols and Letterlike Symbols blocks).

It is a reader's rendering, not a TeX parser: unbalanced braces are tolerated, never an error.

>>> latex_to_text(r"$\\widetilde{\\mathcal O}(\\sqrt{\\gamma_n n}+n\\varepsilon)$ regret")
'𝒪̃(√(γₙ n)+nε) regret'
>>> latex_to_text(r"$O(d^{2}\\log T / \\epsilon^2)$")
'O(d² log T / ϵ²)'
>>> latex_to_text(r"$\\frac{K-1}{2}$ and $L^p$ and $t_{\\mathrm{mix}}^5$")
'(K−1)/2 and Lᵖ and tₘᵢₓ⁵'
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import cache
from pathlib import Path
from typing import Any

_DATA = Path(__file__).resolve().parent / "templates" / "mathtext.json"
_COMMAND = re.compile(r"\\([A-Za-z]+|.)")
_SPACES = re.compile(r"\s+")
_TEXT_ACCENTS = {'"': "\u0308", "'": "\u0301", "`": "\u0300", "^": "\u0302", "~": "\u0303", "=": "\u0304"}
_FONT_SWITCHES = frozenset({"rm", "bf", "it", "cal", "sf", "tt", "em", "sl", "sc", "mathversion"})


@cache
def _tables() -> dict[str, Any]:
    return json.loads(_DATA.read_text(encoding="utf-8"))


def _group(text: str, i: int) -> tuple[str, int]:
    """The argument at ``text[i:]`` (after spaces): a ``{…}`` group, a command or one character."""
    while i < len(text) and text[i] == " ":
        i += 1
    if i >= len(text):
        return "", i
    if text[i] == "{":
        depth, j = 0, i
        while j < len(text):
            if text[j] == "\\":
                j += 2
                continue
            if text[j] == "{":
                depth += 1
            elif text[j] == "}":
                depth -= 1
                if depth == 0:
                    return text[i + 1: j], j + 1
            j += 1
        return text[i + 1:], len(text)  # unbalanced: the rest
    if text[i] == "\\":
        m = _COMMAND.match(text, i)
        if m:
            return m.group(0), m.end()
    return text[i], i + 1


def _optional(text: str, i: int) -> tuple[str | None, int]:
    """An optional ``[…]`` argument at ``text[i:]``."""
    if i < len(text) and text[i] == "[":
        j = text.find("]", i)
        if j > 0:
            return text[i + 1: j], j + 1
    return None, i


def _compound(text: str) -> bool:
    """Needs parentheses when written after √ or around /: an operator or a space in it."""
    return bool(re.search(r"[\s+\-−*/·×,=<>]", text)) and not re.fullmatch(r"\(.*\)", text)


def _script(text: str, table: dict[str, str], mark: str) -> str:
    """``text`` in super/subscript letters when every character has one, else ``mark`` + text."""
    if text and all(c in table for c in text):
        return "".join(table[c] for c in text)
    if len(text) > 1 and not (text.startswith("(") and text.endswith(")")):
        return f"{mark}({text})" if mark == "^" else f"{mark}{text}"
    return f"{mark}{text}"


def _accent(arg: str, mark: str) -> str:
    # The combining mark goes on the last character of the argument (\tilde{O} → Õ).
    return arg + mark if arg else ""


def _convert(text: str) -> str:
    t = _tables()
    out: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\":
            m = _COMMAND.match(text, i)
            if not m:
                i += 1
                continue
            name, i = m.group(1), m.end()
            if name in t["symbols"]:
                out.append(t["symbols"][name])
            elif name in t["functions"]:  # \log, \min: upright words, spaced from their neighbours
                if out and out[-1][-1:].isalnum():
                    out.append(" ")
                out.append(name + " ")
            elif name in t["spaces"]:
                out.append(" ")
            elif name in t["fonts"]:
                arg, i = _group(text, i)
                inner = _convert(arg)
                table = t["alphabets"].get(t["fonts"][name], {})
                out.append("".join(table.get(ch, ch) for ch in inner))
            elif name in t["text"]:
                arg, i = _group(text, i)
                out.append(_convert(arg))
            elif name in t["accents"]:
                arg, i = _group(text, i)
                out.append(_accent(_convert(arg), t["accents"][name]))
            elif name == "sqrt":
                index, i = _optional(text, i)
                arg, i = _group(text, i)
                inner = _convert(arg)
                root = {"3": "∛", "4": "∜"}.get((index or "").strip(), "√")
                out.append(root + (f"({inner})" if _compound(inner) else inner))
            elif name in ("frac", "dfrac", "tfrac"):
                num, i = _group(text, i)
                den, i = _group(text, i)
                a, b = _convert(num), _convert(den)
                out.append((f"({a})" if _compound(a) else a) + "/" + (f"({b})" if _compound(b) else b))
            elif name in ("left", "right", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr",
                          "displaystyle", "textstyle", "scriptstyle", "limits", "nolimits"):
                continue  # sizing: the delimiter that follows is kept as it is
            elif name in _TEXT_ACCENTS:  # Schr\"odinger
                arg, i = _group(text, i)
                out.append(_accent(_convert(arg), _TEXT_ACCENTS[name]))
            elif name in _FONT_SWITCHES:  # {\rm BO}: the old font switches
                continue
            elif len(name) == 1 and not name.isalpha():
                out.append({"$": "＄", "\\": " ", "{": "{", "}": "}", "%": "%", "&": "&", "#": "#",
                            "_": "_", ",": " ", ";": " ", ":": " ", "!": "", " ": " ",
                            "|": "‖"}.get(name, name))
            else:
                out.append(name)  # unknown command: its name, without the backslash
        elif c in "^_":
            arg, i = _group(text, i + 1)
            inner = _convert(arg)
            if c == "^":
                out.append(_script(inner, t["superscripts"], "^"))
            else:
                out.append(_script(inner, t["subscripts"], "_"))
        elif c in "{}":
            i += 1
        elif c == "$":
            i += 1
        elif c == "-" and _in_math_minus(text, i):
            out.append("−")
            i += 1
        elif c == "~":
            out.append(" ")
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _in_math_minus(text: str, i: int) -> bool:
    """A hyphen between two math operands (``K-1``), not a word hyphen (``top-k``)."""
    before = text[i - 1] if i > 0 else " "
    after = text[i + 1] if i + 1 < len(text) else " "
    return before.isalnum() and (after.isdigit() or after == "\\") and not before.isalpha() or (
        before.isupper() and after.isdigit())


_MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.DOTALL)


def latex_to_text(text: str | None) -> str:
    """``text`` with its LaTeX math (and stray LaTeX commands) written as Unicode; see the module doc.

    >>> latex_to_text("Q\\\\&A prompts, $\\\\alpha{=}1$, $\\\\ell_2$ norm, top-$k$")
    'Q&A prompts, α=1, ℓ₂ norm, top-k'
    >>> latex_to_text("$T$")
    'T'
    """
    if not text:
        return ""
    if "$" not in text and "\\" not in text and "^" not in text and "_" not in text:
        return text

    def math(m: re.Match[str]) -> str:
        body = next(g for g in m.groups() if g is not None)
        return _convert(body.replace("{=}", "="))

    out = _MATH.sub(math, text.replace("\\$", "\x00"))
    if "\\" in out or "$" in out:  # commands outside math ("Q\\&A") and unpaired dollars
        out = _convert(out.replace("$", ""))
    out = out.replace("\x00", "＄")
    # Space after an upright function only before a letter or digit ("log T", but "log(T)").
    functions = "|".join(_tables()["functions"])
    out = re.sub(rf"(\b(?:{functions})) (?=[^\w\s]|$)", r"\1", out)
    return unicodedata.normalize("NFC", _SPACES.sub(" ", out).strip())
