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
# As a relation argument, SciERC's Generic spans are kg's generic references (extractors.generic_refs),
# whose type there, extractors.relations.GENERIC, keeps SciERC's name.
SCIERC_TO_ARG_TYPE: dict[str, str] = {**SCIERC_TO_TYPE, "Generic": "Generic"}

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
class SciercRelation:
    """A gold relation: the char spans of its head and tail (into :attr:`SciercDoc.text`) and its
    SciERC type (``USED-FOR`` …)."""

    head: tuple[int, int]
    tail: tuple[int, int]
    label: str


@dataclass(frozen=True, slots=True)
class SciercDoc:
    """One SciERC abstract as text, with sentence, gold entity and gold relation char spans."""

    key: str
    text: str
    sentences: tuple[tuple[int, int], ...]
    spans: tuple[SciercSpan, ...]
    relations: tuple[SciercRelation, ...] = ()


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
    relations = [
        SciercRelation((starts[int(h0)], ends[int(h1)]), (starts[int(t0)], ends[int(t1)]), str(label))
        for sent_rel in obj.get("relations") or ()
        for h0, h1, t0, t1, label in sent_rel
    ]
    relations.sort(key=lambda r: (r.head, r.tail, r.label))
    # SciERC names a record ``doc_key``, SciER ``doc_id``; the layout is otherwise the same.
    name = obj.get("doc_key", obj.get("doc_id", key))
    return SciercDoc(str(name), "".join(parts), tuple(sentences), tuple(spans), tuple(relations))


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


def passages(doc: SciercDoc, max_chars: int = 1500) -> list[SciercDoc]:
    """Cut a long document (a SciER paper's full text) into passages of whole sentences.

    Each passage is at most ``max_chars`` long (a sentence longer than that is a passage of its
    own), about an abstract's length, which is what the extractor is built for; gold spans keep
    their offsets relative to the passage, and a span crossing a sentence boundary (none in SciER)
    would be dropped. Passage keys are ``KEY#N``.

    >>> d = SciercDoc("p", "A b. C d.", ((0, 4), (5, 9)), (SciercSpan(5, 6, "Task"),))
    >>> [(x.key, x.text, x.spans) for x in passages(d, max_chars=5)]
    [('p#0', 'A b.', ()), ('p#1', 'C d.', (SciercSpan(start=0, end=1, label='Task'),))]
    """
    groups: list[list[tuple[int, int]]] = []
    for sent in doc.sentences:
        if groups and sent[1] - groups[-1][0][0] <= max_chars:
            groups[-1].append(sent)
        else:
            groups.append([sent])
    out = []
    for n, group in enumerate(groups):
        lo, hi = group[0][0], group[-1][1]
        spans = tuple(
            SciercSpan(s.start - lo, s.end - lo, s.label) for s in doc.spans if lo <= s.start and s.end <= hi
        )
        sentences = tuple((a - lo, b - lo) for a, b in group)
        out.append(SciercDoc(f"{doc.key}#{n}", doc.text[lo:hi], sentences, spans))
    return out
