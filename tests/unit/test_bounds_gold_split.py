"""The bounds gold's dev/test split is the one written down before the rules were tuned on it.

``tools/bounds_split.py`` decides it by a hash of the doc id (the blind gold's halves by another);
the shipped gold records it in each line's ``split`` field, and a change to either would let the
frozen test part be tuned on.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))

from bounds_split import half_of, split_of, with_split  # noqa: E402

GOLD = REPO / "tests" / "data" / "bounds_gold.jsonl"
BLIND = REPO / "tests" / "data" / "bounds_gold_blind.jsonl"


def test_bounds_gold_split_field_follows_the_hash_of_the_doc_id() -> None:
    records = [json.loads(line) for line in GOLD.read_text(encoding="utf-8").splitlines() if line]
    assert [r["split"] for r in records] == [split_of(r["doc"]) for r in records]
    assert sum(r["split"] == "test" for r in records) == 577  # of 1835, decided before any tuning


def test_bounds_gold_blind_halves_follow_their_hash_of_the_doc_id() -> None:
    records = [json.loads(line) for line in BLIND.read_text(encoding="utf-8").splitlines() if line]
    assert [r["split"] for r in records] == [half_of(r["doc"]) for r in records]
    assert sum(r["split"] == "test" for r in records) == 116  # of 239, decided before any error was read


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('{"doc": "a", "bounds": []}', '{"doc": "a", "split": "test", "bounds": []}'),
        (
            '{"doc": "é", "bounds": [{"latex": "O(n)"}]}',
            '{"doc": "é", "split": "test", "bounds": [{"latex": "O(n)"}]}',
        ),
    ],
)
def test_bounds_gold_split_is_written_after_the_doc_id(line: str, expected: str) -> None:
    assert with_split(line, "test") == expected
