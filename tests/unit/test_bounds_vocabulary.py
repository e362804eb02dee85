"""The bounds vocabulary as data: the quantity vocabulary, the rule files, and the lists the rules read."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from extractors.bounds import quantities
from extractors.bounds.lexicon import lexicon
from extractors.bounds.quantities import QUANTITIES_FILE, Quantity, load_quantities
from kg.errors import ConfigError

PATTERNS = Path(__file__).resolve().parents[2] / "extractors" / "patterns"
BOUNDS_FILES = sorted(PATTERNS.glob("bounds_*.jsonl"))
# Quantities the rules name in code, where a construction says which ("runs in $X$").
NAMED_IN_CODE = ("running time", "oracle complexity", "gradient complexity", "convergence rate")


def names() -> dict[str, Quantity]:
    out: dict[str, Quantity] = {}
    for q in load_quantities():
        for name in (q.name, *q.aliases):
            out[name.lower()] = q
    return out


def test_bounds_quantities_have_unique_names_and_a_broader_chain_without_cycles() -> None:
    quantities = load_quantities()
    by_id = {q.id: q for q in quantities}
    assert len(by_id) == len(quantities)
    every_name = [n.lower() for q in quantities for n in (q.name, *q.aliases)]
    assert len(every_name) == len(set(every_name))  # no name stands for two quantities
    for q in quantities:
        seen = {q.id}
        up = q.broader
        while up is not None:
            assert up not in seen, f"{q.id}: broader cycle through {up}"
            seen.add(up)
            up = by_id[up].broader
        assert q.comment


@pytest.mark.parametrize(
    ("child", "parent"),
    [
        ("dynamic-regret", "regret"),
        ("gradient-complexity", "oracle-complexity"),
        ("excess-risk", "risk"),
        ("label-complexity", "sample-complexity"),
    ],
)
def test_bounds_quantities_broader(child: str, parent: str) -> None:
    assert {q.id: q.broader for q in load_quantities()}[child] == parent


def test_bounds_every_quantity_the_rules_name_is_in_the_vocabulary() -> None:
    lex = lexicon()
    known = names()
    named = {q for q, _ in lex.quantity_of.values()}
    named |= {q for _, q, _ in lex.verbal_of.values() if q is not None}
    named |= set(lex.bit_resources.values()) | set(NAMED_IN_CODE)
    assert sorted(n for n in named if n.lower() not in known) == []


def test_bounds_quantities_loader_depends_on_nothing_of_the_extractor() -> None:
    """The vocabulary's loader reads the data file with the standard library and kg's errors
    alone, so a reader of the vocabulary (the concept hierarchy) depends on no rule of the
    extractor."""
    source = Path(quantities.__file__).read_text(encoding="utf-8")
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
    assert imported == {"__future__", "json", "dataclasses", "functools", "pathlib", "kg.errors"}


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", "line 1: expected"),
        ('{"id": "a", "name": "a", "aliases": [], "comment": "x"}', "line 1: expected"),
        ('{"id": "a", "name": "a", "aliases": [], "broader": "b", "comment": "x"}', "broader 'b'"),
    ],
)
def test_bounds_quantities_bad_file_names_the_line(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=message):
        load_quantities(path)


def test_bounds_quantities_file_is_the_shipped_one() -> None:
    assert QUANTITIES_FILE == PATTERNS / "quantities.jsonl"


@pytest.mark.parametrize("path", [*BOUNDS_FILES, PATTERNS / "quantities.jsonl"], ids=lambda p: p.name)
def test_bounds_rule_data_has_an_id_and_a_note_per_entry(path: Path) -> None:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    ids = [row["id"] for row in rows]
    assert len(ids) == len(set(ids))
    assert [row["id"] for row in rows if not (row.get("comment") or row.get("example"))] == []


def test_bounds_word_lists_are_read_into_the_lexicon() -> None:
    lex = lexicon()
    assert "for" in lex.not_modifiers and lex.open_heads["complexities"] == "complexity"
    assert ("at", "least") in lex.at_most_least and "improv" in lex.improve_verbs
    assert lex.growth_word.fullmatch("nearly-linear") and not lex.growth_word.fullmatch("linearly")
    assert lex.group_name.match("SO(3)") and lex.memory_counts >= {"number of bits"}
