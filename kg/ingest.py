"""Readers: seeds text, JSONL, JSON arrays, CSV/TSV and BibTeX (or records given from Python) →
:class:`kg.types.Paper`.

Every reader streams its file (a 50 MB file is read in bounded memory), validates each record
at the door and raises :class:`kg.errors.InputError` naming the file and record. With
``skip_bad=True`` a bad record is skipped instead and listed in the :class:`RunReport`.

The same abstract read from several files (or twice in one) is one paper listing all its
sources; identity is the hash of the abstract's :func:`kg.text.fingerprint_text`.
"""

from __future__ import annotations

import csv
import glob
import hashlib
import io
import json
import re
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from os import PathLike
from pathlib import Path
from typing import IO, Any

from kg.bibtex import read_bibtex
from kg.errors import InputError, KGError
from kg.text import MathError, find_math, fingerprint_text, read_math
from kg.types import Paper, RecordWarning, RunReport, SkippedRecord, Source, StrayDelimiter

FORMATS = ("seeds", "jsonl", "json", "csv", "tsv", "bibtex")
_EXTENSIONS = {
    ".txt": "seeds", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "json",
    ".csv": "csv", ".tsv": "tsv", ".bib": "bibtex", ".bibtex": "bibtex",
}
_FIELD_ALIASES = {
    "abstract": ("abstract", "summary", "paperAbstract", "abstractText", "abstract_text"),
    "title": ("title", "paperTitle", "name"),
    "id": ("id", "paperId", "paper_id", "ID", "key"),
    "authors": ("authors", "author", "creators"),
    "year": ("year", "date", "published"),
    "venue": ("venue", "booktitle", "journal", "conference"),
    "url": ("url", "link", "pdf_url", "URL"),
}
_SNIFF_BYTES = 8192
_HEADER_RE = re.compile(r"^\s*(?P<venue>.*?)\s*(?P<year>(?:19|20)\d\d)\b")
_YEAR_RE = re.compile(r"(?:19|20)\d\d")
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-\u2010\u2011][A-Za-z0-9]+)*")
# "we propose BDC-Merge", "we introduce ADAG, a …", "dubbed GRACE": a coined name has a
# capital after its first letter or a digit (BDC-Merge, f-GRPO, XShapeEnc, SN-VLM).
_SYSTEM_RE = re.compile(
    r"\b(?:propose|introduce|present|develop|dubbed|called|named|term)(?:s|d)?\s+"
    r"(?:(?:a|an|the)\s+)?(?:(?:new|novel)\s+)?"
    r"([A-Za-z][A-Za-z0-9]*(?:[-\u2010\u2011][A-Za-z0-9]+)*)"
)


@dataclass(frozen=True, slots=True)
class RawRecord:
    """A record as read, before validation: its fields and where it came from."""

    file: str
    position: int  # 1-based record number in the file
    line: int  # 1-based line where the record starts
    fields: dict[str, Any]
    defaults: dict[str, Any]  # file-level values (venue/year of a seeds header)

    @property
    def where(self) -> str:
        return f"{self.position} (line {self.line})"


def paper_id(abstract: str) -> str:
    """The derived id of an abstract: ``p-`` + 12 hex of the SHA-256 of its fingerprint.

    >>> paper_id("We study  bandits.") == paper_id("We study bandits.")
    True
    """
    return "p-" + hashlib.sha256(fingerprint_text(abstract).encode("utf-8")).hexdigest()[:12]


def derive_title(abstract: str) -> str:
    """A label for an untitled abstract: the system it introduces, else its first words.

    >>> derive_title("To do so we propose BDC-Merge, a framework for merging.")
    'BDC-Merge'
    >>> derive_title("We study stochastic linear bandits under a natural combination of batching.")
    'We study stochastic linear bandits under a natural combination…'
    """
    for match in _SYSTEM_RE.finditer(abstract):
        name = match.group(1)
        if is_coined(name):
            return name
    words = fingerprint_text(abstract).split()
    head = " ".join(words[:9]).rstrip(".,;:")
    return head + ("…" if len(words) > 9 else "")


def is_coined(name: str) -> bool:
    """A coined system name: one word, with a capital or digit after its first letter.

    >>> [is_coined(n) for n in ("BDC-Merge", "f-GRPO", "XShapeEnc", "$T$", "gradient descent (SGD)")]
    [True, True, True, False, False]
    """
    if len(name) < 2 or not _WORD_RE.fullmatch(name):
        return False
    rest = name[1:]
    return any(c.isupper() or c.isdigit() for c in rest) or (name.isupper() and len(name) > 1)


# --------------------------------------------------------------------------- file access


def expand_inputs(inputs: Iterable[str]) -> list[str]:
    """Files, directories (their readable files, sorted), globs and ``-`` → a list of paths."""
    out: list[str] = []
    for item in inputs:
        if item == "-":
            out.append("-")
            continue
        path = Path(item)
        if path.is_dir():
            files = sorted(
                str(p) for p in path.iterdir()
                if p.is_file() and not p.name.startswith(".") and p.suffix.lower() in _EXTENSIONS
            )
            if not files:
                raise InputError(item, None, "directory holds no readable input files "
                                 f"(expected one of {', '.join(sorted(_EXTENSIONS))})")
            out.extend(files)
        elif path.exists():
            out.append(item)
        elif any(ch in item for ch in "*?["):
            matches = sorted(glob.glob(item, recursive=True))
            if not matches:
                raise InputError(item, None, "glob matches no file")
            out.extend(m for m in matches if Path(m).is_file())
        else:
            raise InputError(item, None, "no such file or directory")
    return out


def _open_binary(file: str) -> IO[bytes]:
    if file == "-":
        return sys.stdin.buffer
    try:
        return open(file, "rb")  # noqa: SIM115 - closed by the caller
    except OSError as exc:
        raise InputError(file, None, f"cannot open: {exc.strerror}") from None


def _lines(file: str, stream: IO[bytes]) -> Iterator[tuple[int, str]]:
    """Decode ``stream`` line by line as UTF-8 (BOM allowed), naming the line that is not.

    A line that is not UTF-8 is yielded as an :class:`InputError` in place of its text, so a
    line-per-record reader can skip just that record; other readers raise it.
    """
    for lineno, raw in enumerate(stream, 1):
        if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        if b"\x00" in raw:
            raise InputError(file, f"line {lineno}", "binary data (NUL byte): not a text file")
        try:
            yield lineno, raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield lineno, InputError(  # type: ignore[misc]
                file, f"line {lineno}",
                f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at column {exc.start + 1}); "
                "re-encode the file as UTF-8",
            )


def _strict(lines: Iterator[tuple[int, Any]]) -> Iterator[tuple[int, str]]:
    """Lines for readers whose records span lines: an undecodable line stops the file."""
    for lineno, line in lines:
        if isinstance(line, InputError):
            raise line
        yield lineno, line


def detect_format(file: str, head: bytes) -> str:
    """The reader for ``file``: by extension, else by sniffing its first bytes."""
    fmt = _EXTENSIONS.get(Path(file).suffix.lower()) if file != "-" else None
    if fmt == "json":
        stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
        if stripped.startswith(b"{"):
            return "jsonl"  # one object per line, named .json
        return "json"
    if fmt:
        return fmt
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text.startswith(b"["):
        return "json"
    if text.startswith(b"{"):
        return "jsonl"
    if text.startswith(b"@"):
        return "bibtex"
    first = text.split(b"\n", 1)[0].lower()
    if b"abstract" in first or b"summary" in first:
        if b"\t" in first:
            return "tsv"
        if b"," in first:
            return "csv"
    return "seeds"


# --------------------------------------------------------------------------- readers


def _read_seeds(file: str, lines: Iterator[tuple[int, str]]) -> Iterator[RawRecord]:
    """A header line naming the list (``NeurIPS 2026 Papers``), then blank-line blocks."""
    defaults: dict[str, Any] = {}
    block: list[str] = []
    start = 0
    position = 0
    first_block = True

    def flush() -> Iterator[RawRecord]:
        nonlocal position, first_block, defaults
        text = " ".join(s.strip() for s in block).strip()
        if not text:
            return
        if first_block:
            first_block = False
            header = _parse_header(text) if len(block) == 1 else None
            if header is not None:
                defaults = header
                return
        position += 1
        yield RawRecord(file, position, start, {"abstract": text}, defaults)

    for lineno, line in lines:
        if line.strip():
            if not block:
                start = lineno
            block.append(line.rstrip("\r\n"))
        elif block:
            yield from flush()
            block = []
    if block:
        yield from flush()


def _parse_header(line: str) -> dict[str, Any] | None:
    """Venue and year from a list header; ``None`` when the line is not a header."""
    if len(line) > 120 or line.rstrip().endswith("."):
        return None
    match = _HEADER_RE.match(line)
    if not match:
        return {"venue": line.strip()} if len(line.split()) <= 8 else None
    venue = match.group("venue").strip(" -–:,") or None
    return {"venue": venue, "year": int(match.group("year"))}


def _read_jsonl(file: str, lines: Iterator[tuple[int, str]]) -> Iterator[RawRecord | InputError]:
    position = 0
    for lineno, line in lines:
        if isinstance(line, InputError):
            position += 1
            yield line
            continue
        if not line.strip():
            continue
        position += 1
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            yield InputError(file, f"{position} (line {lineno})",
                             f"invalid JSON: {exc.msg} at column {exc.pos + 1}")
            continue
        if not isinstance(obj, dict):
            yield InputError(file, f"{position} (line {lineno})",
                             f"expected a JSON object, found {type(obj).__name__}")
            continue
        yield RawRecord(file, position, lineno, obj, {})


def _read_json_array(file: str, stream: IO[bytes]) -> Iterator[RawRecord | InputError]:
    """Stream the objects of a top-level JSON array without loading the whole file."""
    decoder = json.JSONDecoder()
    reader = io.TextIOWrapper(stream, encoding="utf-8-sig", errors="strict")
    buf = ""
    consumed_lines = 1
    pos = 0
    eof = False
    position = 0

    def fill() -> bool:
        nonlocal buf, eof, pos, consumed_lines
        if eof:
            return False
        try:
            chunk = reader.read(1 << 20)
        except UnicodeDecodeError:
            raise InputError(file, f"after line {consumed_lines}",
                             "not UTF-8 text; re-encode the file as UTF-8") from None
        if not chunk:
            eof = True
            return False
        if "\x00" in chunk:
            raise InputError(file, None, "binary data (NUL byte): not a text file")
        consumed_lines += buf.count("\n", 0, pos)
        buf = buf[pos:] + chunk
        pos = 0
        return True

    def skip_ws() -> None:
        nonlocal pos
        while True:
            while pos < len(buf) and buf[pos] in " \t\r\n":
                pos += 1
            if pos < len(buf) or not fill():
                return

    fill()
    skip_ws()
    if pos >= len(buf) or buf[pos] != "[":
        raise InputError(file, None, "expected a JSON array of records")
    pos += 1
    while True:
        skip_ws()
        if pos >= len(buf):
            raise InputError(file, None, "JSON array is not closed")
        if buf[pos] == "]":
            return
        if position and buf[pos] == ",":
            pos += 1
            skip_ws()
        line = consumed_lines + buf.count("\n", 0, pos)
        while True:
            try:
                obj, end = decoder.raw_decode(buf, pos)
                break
            except json.JSONDecodeError as exc:
                if not fill():
                    raise InputError(file, f"{position + 1} (line {line})",
                                     f"invalid JSON: {exc.msg}") from None
        position += 1
        pos = end
        if not isinstance(obj, dict):
            yield InputError(file, f"{position} (line {line})",
                             f"expected a JSON object, found {type(obj).__name__}")
            continue
        yield RawRecord(file, position, line, obj, {})


def _read_delimited(file: str, lines: Iterator[tuple[int, str]], delimiter: str) -> Iterator[RawRecord]:
    csv.field_size_limit(1 << 26)
    line_numbers: list[int] = []

    def text_lines() -> Iterator[str]:
        for lineno, line in lines:
            line_numbers.append(lineno)
            yield line

    reader = csv.reader(text_lines(), delimiter=delimiter)
    try:
        header = next(reader)
    except StopIteration:
        return
    except csv.Error as exc:
        raise InputError(file, "line 1", f"bad CSV header: {exc}") from None
    header = [h.strip() for h in header]
    if not any(h in _FIELD_ALIASES["abstract"] for h in header):
        raise InputError(file, "line 1",
                         f"header names no abstract column (expected one of "
                         f"{', '.join(_FIELD_ALIASES['abstract'])}); found {', '.join(header)}")
    position = 0
    start_line = 2
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise InputError(file, f"{position + 1} (line {start_line})", f"bad CSV row: {exc}") from None
        line_here = start_line
        start_line = (line_numbers[-1] + 1) if line_numbers else start_line
        if not any(cell.strip() for cell in row):
            continue
        position += 1
        if len(row) != len(header):
            raise InputError(file, f"{position} (line {line_here})",
                             f"expected {len(header)} columns, found {len(row)}")
        yield RawRecord(file, position, line_here, dict(zip(header, row, strict=True)), {})


# --------------------------------------------------------------------------- records → papers


def _field(fields: dict[str, Any], name: str) -> Any:
    for alias in _FIELD_ALIASES[name]:
        value = fields.get(alias)
        if value not in (None, ""):
            return value
    return None


def _authors(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, list):
        names = [a.get("name", "") if isinstance(a, dict) else str(a) for a in value]
    else:
        text = str(value)
        sep = " and " if " and " in text else (";" if ";" in text else None)
        names = text.split(sep) if sep else [text]
    return tuple(n.strip() for n in names if n and n.strip())


def _year(record: RawRecord, value: Any, warnings: list[RecordWarning] | None) -> int | None:
    """The year of ``value`` (an int, or the first 19xx/20xx in it); one that holds no year is an
    :class:`InputError`, or, given ``warnings``, a warning and no year."""
    if value is None or value == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    match = _YEAR_RE.search(str(value))
    if not match:
        if warnings is None:
            raise InputError(record.file, record.where, f"year {value!r} is not a year")
        warnings.append(RecordWarning(record.file, record.where, f"year {value!r} is not a year; left out"))
        return None
    return int(match.group())


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _stray_message(stray: Sequence[StrayDelimiter]) -> str:
    """``'$' at offset 1343 opens no math: read as text`` (offsets listed when there are several)."""
    offsets: dict[str, list[int]] = {}
    for d in stray:
        offsets.setdefault(d.delimiter, []).append(d.offset)
    parts = [f"{delimiter!r} at offset{'s' if len(at) > 1 else ''} {', '.join(map(str, at))}"
             for delimiter, at in offsets.items()]
    verb = "opens" if len(stray) == 1 else "open"
    return f"{'; '.join(parts)} {verb} no math: read as text"


def record_to_paper(record: RawRecord, warnings: list[RecordWarning] | None = None) -> Paper:
    """Validate one raw record and make its :class:`Paper`; :class:`InputError` if unusable.

    A record that can be read is a paper: a ``$`` that opens no math (a price, a stray or
    unbalanced ``$``, an abstract cut off inside a formula) is read as text and a year field that
    holds no year is left out, each noted in ``warnings``. Without ``warnings`` (``--strict``)
    both are refused with an :class:`InputError` instead.
    """
    fields = record.fields
    abstract = _field(fields, "abstract")
    if not isinstance(abstract, str) or not abstract.strip():
        raise InputError(record.file, record.where,
                         "record has no abstract (expected a non-empty 'abstract' or 'summary' field)")
    abstract = abstract.strip()
    for name, value in fields.items():
        if isinstance(value, str) and not _encodable(value):
            raise InputError(record.file, record.where,
                             f"field {name!r} holds a lone UTF-16 surrogate; not valid Unicode text")
    if warnings is None:
        try:
            find_math(abstract, strict=True)
        except MathError as exc:
            raise InputError(record.file, record.where, str(exc)) from None
    else:
        stray = read_math(abstract).stray
        if stray:
            warnings.append(RecordWarning(record.file, record.where, _stray_message(stray)))
    given_id = _field(fields, "id")
    pid = str(given_id).strip() if given_id not in (None, "") else paper_id(abstract)
    title = _field(fields, "title")
    title = " ".join(str(title).split()) if title else None
    venue = _field(fields, "venue") or record.defaults.get("venue")
    year = _year(record, _field(fields, "year"), warnings) or record.defaults.get("year")
    url = _field(fields, "url")
    return Paper(
        id=pid,
        title=title or derive_title(abstract),
        title_derived=not title,
        abstract=abstract,
        venue=str(venue) if venue else None,
        year=year,
        authors=_authors(_field(fields, "authors")),
        url=str(url) if url else None,
        sources=(Source(record.file, record.position),),
    )


def iter_records(file: str, fmt: str | None = None) -> Iterator[RawRecord | InputError]:
    """Stream the raw records of one file (``-`` is stdin), detecting its format.

    A record that cannot be read is yielded as its :class:`InputError`, so the caller decides
    whether to stop or skip; a file that cannot be read at all raises.
    """
    stream = _open_binary(file)
    try:
        head = stream.peek(_SNIFF_BYTES)[:_SNIFF_BYTES] if hasattr(stream, "peek") else b""
        if not head.strip(b" \t\r\n\xef\xbb\xbf"):
            raise InputError(file, None, "empty file: no records")
        if b"\x00" in head:
            raise InputError(file, None, "binary file (NUL bytes): expected text")
        fmt = fmt or detect_format(file, head)
        if fmt not in FORMATS:
            raise InputError(file, None, f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
        if fmt == "json":
            yield from _read_json_array(file, stream)
            return
        lines = _lines(file, stream)
        if fmt == "jsonl":
            yield from _read_jsonl(file, lines)
        elif fmt == "seeds":
            yield from _read_seeds(file, _strict(lines))
        elif fmt in ("csv", "tsv"):
            yield from _read_delimited(file, _strict(lines), "," if fmt == "csv" else "\t")
        else:
            for position, line, fields in read_bibtex(file, _strict(lines)):
                yield RawRecord(file, position, line, fields, {})
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def _merge(first: Paper, other: Paper) -> Paper:
    return replace(
        first,
        title=first.title if not first.title_derived or other.title_derived else other.title,
        title_derived=first.title_derived and other.title_derived,
        venue=first.venue or other.venue,
        year=first.year or other.year,
        authors=first.authors or other.authors,
        url=first.url or other.url,
        sources=first.sources + tuple(s for s in other.sources if s not in first.sources),
    )


# Where records given as objects (dicts or Paper, e.g. from Python) are said to come from.
RECORDS = "<records>"


def _record_fields(obj: Any) -> dict[str, Any]:
    """The fields of a record given as an object: a mapping as it is, a :class:`Paper` as its JSON
    (a derived title left out, so it is derived again, and its sources left out)."""
    if isinstance(obj, Paper):
        fields = obj.to_json()
        fields.pop("sources")
        if obj.title_derived:
            fields.pop("title")
        return fields
    if isinstance(obj, Mapping):
        return dict(obj)
    raise InputError(RECORDS, None, f"expected a path, a dict or a Paper, got {type(obj).__name__}")


def _sources(
    inputs: Iterable[Any], fmt: str | None
) -> Iterator[tuple[str, Iterator[RawRecord | InputError]]]:
    """Each input file with its raw records, in order; records given as objects (dicts or Paper)
    come as :data:`RECORDS`, numbered from 1 across all of them."""
    position = 0
    for item in inputs:
        if isinstance(item, (str, PathLike)):
            for file in expand_inputs([str(item)]):
                yield file, iter_records(file, fmt)
        else:
            position += 1
            yield RECORDS, iter([RawRecord(RECORDS, position, position, _record_fields(item), {})])


def read_papers(
    inputs: Iterable[str | PathLike[str] | Mapping[str, Any] | Paper],
    *,
    fmt: str | None = None,
    skip_bad: bool = False,
    report: RunReport | None = None,
    strict: bool = False,
) -> list[Paper]:
    """Read every input into papers, merging copies of one abstract, in first-seen order.

    Args:
        inputs: files, directories, globs or ``-`` (stdin); or records as dicts (the fields of
            a JSONL record) or :class:`Paper` objects, read as :data:`RECORDS`.
        fmt: force a format (one of :data:`FORMATS`) instead of detecting it.
        skip_bad: skip bad records (listed in ``report``) instead of raising.
        report: where to count records, merges, skipped records and warnings (a ``$`` read as
            text, a year left out: see :func:`record_to_paper`).
        strict: refuse what is otherwise a warning, as bad input.

    Raises:
        InputError: a bad file or record, naming both (unless ``skip_bad``).
    """
    report = report if report is not None else RunReport()
    by_id: dict[str, Paper] = {}
    id_by_text: dict[str, str] = {}
    text_hash: dict[str, str] = {}
    for file, records in _sources(inputs, fmt):
        if file != RECORDS:
            report.files.append(file)
        try:
            for record in records:
                report.records_read += 1
                try:
                    if isinstance(record, InputError):
                        raise record
                    noted: list[RecordWarning] | None = None if strict else []
                    paper = record_to_paper(record, noted)
                    report.warnings.extend(noted or ())
                    digest = paper_id(paper.abstract)
                    known = id_by_text.get(digest)
                    if known is not None:
                        by_id[known] = _merge(by_id[known], paper)
                        report.duplicates_merged += 1
                        continue
                    if paper.id in by_id:
                        if text_hash[paper.id] != digest:
                            raise InputError(file, record.where,
                                             f"duplicate id {paper.id!r} with a different abstract "
                                             f"(first read from {by_id[paper.id].sources[0].file})")
                    by_id[paper.id] = paper
                    id_by_text[digest] = paper.id
                    text_hash[paper.id] = digest
                except InputError as exc:
                    if not skip_bad:
                        raise
                    report.skipped.append(SkippedRecord(file, str(exc.record), _reason(exc)))
        except InputError as exc:
            # a whole-file problem (empty, binary, undecodable line) under --skip-bad
            if not skip_bad:
                raise
            report.skipped.append(SkippedRecord(file, str(exc.record or "-"), _reason(exc)))
    report.papers = len(by_id)
    return list(by_id.values())


def _reason(exc: KGError) -> str:
    msg = str(exc)
    return msg.split(": ", 2)[-1] if isinstance(exc, InputError) else msg
