"""The controlled vocabulary of bounded quantities: ``extractors/patterns/quantities.jsonl``.

One entry per quantity a bound may be on ("regret", "dynamic regret", "sample complexity",
"running time" …), with the other names it goes by and the broader quantity it is a kind of
("dynamic regret" -> "regret", "gradient complexity" -> "oracle complexity"). Every quantity the
bounds rules name from their tables is the name or an alias of an entry, and the concept
hierarchy reads the same file. This module imports nothing of the extractor::

    >>> by_id = {q.id: q for q in load_quantities()}
    >>> by_id["dynamic-regret"].broader, by_id["regret"].broader
    ('regret', None)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kg.errors import ConfigError

QUANTITIES_FILE = Path(__file__).resolve().parents[1] / "patterns" / "quantities.jsonl"


@dataclass(frozen=True, slots=True)
class Quantity:
    """A bounded quantity: its id, its name, the other names it goes by, the id of the broader
    quantity it is a kind of (None at the top) and a note on what it measures."""

    id: str
    name: str
    aliases: tuple[str, ...]
    broader: str | None
    comment: str


def load_quantities(path: Path | str | None = None) -> tuple[Quantity, ...]:
    """The quantities of ``path`` (default: the shipped vocabulary), in file order.

    Raises:
        ConfigError: the file cannot be read, a line is not an entry (file and line named), an id
            repeats, or a ``broader`` names no entry.
    """
    return _load(str(QUANTITIES_FILE if path is None else path))


@lru_cache(maxsize=4)
def _load(path: str) -> tuple[Quantity, ...]:
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the quantity vocabulary: {exc.strerror}") from exc
    out: list[Quantity] = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            quantity = Quantity(
                str(row["id"]),
                str(row["name"]),
                tuple(map(str, row["aliases"])),
                row["broader"],
                str(row["comment"]),
            )
        except (ValueError, KeyError, TypeError) as exc:
            expected = '{"id", "name", "aliases": [...], "broader": id|null, "comment"}'
            raise ConfigError(f"{path}: line {n}: expected {expected} ({exc})") from None
        out.append(quantity)
    ids = [q.id for q in out]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise ConfigError(f"{path}: id {twice[0]!r} appears twice")
    unknown = sorted(q.broader for q in out if q.broader is not None and q.broader not in ids)
    if unknown:
        raise ConfigError(f"{path}: broader {unknown[0]!r} is no entry's id")
    return tuple(out)
