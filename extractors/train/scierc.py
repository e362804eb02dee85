"""Reading SciERC (Luan et al., EMNLP 2018) in the DyGIE json layout, as plain text with char spans.

Each line of a split is one abstract: ``sentences`` (token lists with PTB escapes such as
``-LRB-``) and ``ner`` (per sentence, ``[start_tok, end_tok_inclusive, label]`` with document-level
token indices). The training script and ``kg eval entities --scierc`` both read through
:func:`read_scierc`, so the text the model is trained on and the text it is scored on are built the
same way: tokens unescaped and joined by single spaces.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from kg.errors import InputError

# SciERC label -> our entity type; "Generic" ("this method") is deliberately absent.
SCIERC_TO_TYPE: dict[str, str] = {
    "Method": "Method",
    "Task": "Task",
    "Material": "Dataset",
    "Metric": "Metric",
    "OtherScientificTerm": "Concept",
}

_PTB_UNESCAPE = {
    "-LRB-": "(",
    "-RRB-": ")",
    "-LSB-": "[",
    "-RSB-": "]",
    "-LCB-": "{",
    "-RCB-": "}",
    "``": '"',
    "''": '"',
    "`": "'",
}


@dataclass(frozen=True, slots=True)
class SciercSpan:
    """A gold span: char offsets into :attr:`SciercDoc.text` and the SciERC label."""

    start: int
    end: int
    label: str


@dataclass(frozen=True, slots=True)
class SciercDoc:
    """One SciERC abstract as text, with sentence and gold entity char spans."""

    key: str
    text: str
    sentences: tuple[tuple[int, int], ...]
    spans: tuple[SciercSpan, ...]


def unescape_token(token: str) -> str:
    """Undo PTB escapes (``-LRB-`` → ``(``) and TeX quotes in one SciERC token.

    >>> unescape_token("-LRB-"), unescape_token("``"), unescape_token("CRF")
    ('(', '"', 'CRF')
    """
    return _PTB_UNESCAPE.get(token, token)


def scierc_doc(obj: dict, key: str) -> SciercDoc:
    """Build a :class:`SciercDoc` from one parsed DyGIE json record.

    Args:
        obj: the record (``sentences``, ``ner``, ``doc_key``).
        key: the record's name for error messages when it has no ``doc_key``.

    Returns:
        The document with tokens joined by single spaces and gold spans as char offsets.

    Raises:
        KeyError, IndexError, TypeError, ValueError: on a malformed record (the caller names it).
    """
    starts: list[int] = []
    ends: list[int] = []
    sentences: list[tuple[int, int]] = []
    parts: list[str] = []
    pos = 0
    for sent in obj["sentences"]:
        first = len(starts)
        for token in sent:
            if parts:
                parts.append(" ")
                pos += 1
            word = unescape_token(str(token))
            starts.append(pos)
            parts.append(word)
            pos += len(word)
            ends.append(pos)
        if len(starts) > first:
            sentences.append((starts[first], pos))
    spans = []
    for sent_ner in obj["ner"]:
        for tok_start, tok_end, label in sent_ner:
            spans.append(SciercSpan(starts[int(tok_start)], ends[int(tok_end)], str(label)))
    spans.sort(key=lambda s: (s.start, s.end, s.label))
    return SciercDoc(str(obj.get("doc_key", key)), "".join(parts), tuple(sentences), tuple(spans))


def read_scierc(path: str | Path) -> list[SciercDoc]:
    """Read a SciERC split (one DyGIE json record per line).

    Args:
        path: the ``.json`` (JSON lines) file.

    Returns:
        The documents in file order.

    Raises:
        InputError: the file is missing, or a line is not a valid SciERC record (names the line).
    """
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(str(path), None, f"cannot read SciERC split: {exc.strerror}") from exc
    docs = []
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            docs.append(scierc_doc(json.loads(line), f"line {lineno}"))
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise InputError(
                str(path), f"line {lineno}", f"expected a DyGIE json record with sentences and ner: {exc}"
            ) from exc
    return docs
