"""The BibTeX reader of :mod:`kg.ingest`: entries streamed line by line, ``@string`` macros,
quoted and braced values, ``#`` concatenation, case-protecting braces dropped outside math.

Errors are :class:`kg.errors.InputError` naming the file and the entry's first line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from kg.errors import InputError


def read_bibtex(file: str, lines: Iterator[tuple[int, str]]) -> Iterator[tuple[int, int, dict[str, str]]]:
    """Stream BibTeX entries as ``(position, line, fields)``: an ``@type{key,`` line starts one;
    braces balance it; ``@string`` macros expand, ``@comment`` and ``@preamble`` are skipped;
    the entry key is the ``id`` field unless the entry has one."""
    position = 0
    entry: list[str] = []
    depth = 0
    start = 0
    macros: dict[str, str] = {}
    for lineno, line in lines:
        if not entry:
            stripped = line.lstrip()
            if not stripped.startswith("@"):
                continue
            start = lineno
        entry.append(line)
        depth += _brace_delta(line)
        if depth <= 0 and entry:
            text = "".join(entry)
            entry = []
            depth = 0
            kind, key, fields = _parse_bib_entry(file, start, text, macros)
            if kind in ("comment", "preamble"):
                continue
            if kind == "string":
                macros.update(fields)
                continue
            position += 1
            fields.setdefault("id", key)
            yield position, start, fields
    if entry:
        raise InputError(file, f"line {start}", "BibTeX entry is not closed (unbalanced braces)")


def _brace_delta(line: str) -> int:
    delta = 0
    escaped = False
    for ch in line:
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == "{":
            delta += 1
        elif ch == "}":
            delta -= 1
    return delta


_BIB_HEAD_RE = re.compile(r"\s*@\s*([A-Za-z]+)\s*[{(]\s*")


def _parse_bib_entry(file: str, line: int, text: str, macros: dict[str, str]
                     ) -> tuple[str, str, dict[str, str]]:
    match = _BIB_HEAD_RE.match(text)
    if not match:
        raise InputError(file, f"line {line}", "expected a BibTeX entry '@type{key, …}'")
    kind = match.group(1).lower()
    i = match.end()
    n = len(text)
    if kind in ("comment", "preamble"):
        return kind, "", {}
    key = ""
    if kind != "string":
        comma = text.find(",", i)
        if comma < 0:
            raise InputError(file, f"line {line}", "BibTeX entry has no key")
        key = text[i:comma].strip()
        i = comma + 1
    fields: dict[str, str] = {}
    while i < n:
        while i < n and text[i] in " \t\r\n,":
            i += 1
        if i >= n or text[i] in "})":
            break
        eq = text.find("=", i)
        if eq < 0:
            raise InputError(file, f"line {line}", f"BibTeX entry {key!r}: field without '='")
        name = text[i:eq].strip().lower()
        i = eq + 1
        parts: list[str] = []
        while True:
            while i < n and text[i] in " \t\r\n":
                i += 1
            if i >= n:
                break
            if text[i] == "{":
                depth, j = 0, i
                while j < n:
                    if text[j] == "\\":
                        j += 2
                        continue
                    if text[j] == "{":
                        depth += 1
                    elif text[j] == "}":
                        depth -= 1
                        if depth == 0:
                            break
                    j += 1
                parts.append(text[i + 1 : j])
                i = j + 1
            elif text[i] == '"':
                j = i + 1
                depth = 0
                while j < n and not (text[j] == '"' and depth == 0):
                    if text[j] == "\\":
                        j += 2
                        continue
                    depth += {"{": 1, "}": -1}.get(text[j], 0)
                    j += 1
                parts.append(text[i + 1 : j])
                i = j + 1
            else:
                j = i
                while j < n and text[j] not in ",}#) \t\r\n":
                    j += 1
                word = text[i:j]
                parts.append(macros.get(word.lower(), word))
                i = j
            while i < n and text[i] in " \t\r\n":
                i += 1
            if i < n and text[i] == "#":
                i += 1
                continue
            break
        fields[name] = _strip_protective_braces(" ".join("".join(parts).split()))
    return kind, key, fields


def _strip_protective_braces(value: str) -> str:
    """Drop BibTeX case-protecting braces (``{Bandits}``) but keep math and command groups.

    >>> _strip_protective_braces("Batched {Bandits} in $O({n})$")
    'Batched Bandits in $O({n})$'
    """
    out: list[str] = []
    keep: list[bool] = []
    in_math = False
    i, n = 0, len(value)
    while i < n:
        c = value[i]
        if c == "\\" and i + 1 < n:
            j = i + 1
            while j < n and value[j].isalpha():
                j += 1
            out.append(value[i : max(j, i + 2)])
            i = max(j, i + 2)
            if not in_math and i < n and value[i] == "{":
                keep.append(True)
                out.append("{")
                i += 1
            continue
        if c == "$":
            in_math = not in_math
        elif not in_math and c == "{":
            keep.append(False)
            i += 1
            continue
        elif not in_math and c == "}" and keep:
            if not keep.pop():
                i += 1
                continue
        out.append(c)
        i += 1
    return "".join(out)
