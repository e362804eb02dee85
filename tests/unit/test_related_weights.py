"""Configurable weights: defaults, overrides from JSON, and bad files refused with a clear line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.errors import ConfigError
from kg.related import RelatedWeights


def test_related_weights_defaults_rank_methods_over_concepts() -> None:
    w = RelatedWeights()
    assert w.types["Method"] > w.types["Concept"]
    assert w.both_proposed > w.proposed_used > 1.0
    assert RelatedWeights.from_dict(w.to_json()) == w


def test_related_weights_file_overrides_only_what_it_names(tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    path.write_text(json.dumps({"lexical": 0, "types": {"Concept": 0.9}}), encoding="utf-8")
    w = RelatedWeights.from_file(path)
    assert w.lexical == 0.0
    assert w.types == {"Method": 1.0, "Task": 0.8, "Dataset": 0.8, "Metric": 0.5, "Concept": 0.9}
    assert w.entity == RelatedWeights().entity


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"lexicall": 1}', "unknown weight 'lexicall'"),
        ('{"bound": -1}', "weight 'bound' must be a non-negative number, got -1"),
        ('{"topic": "high"}', "weight 'topic' must be a non-negative number, got 'high'"),
        ('{"entity": true}', "weight 'entity' must be a non-negative number, got True"),
        ('{"types": {"Algorithm": 1}}', "types: unknown entity type 'Algorithm'"),
        ('{"types": [1]}', "'types' must map entity types to numbers"),
        ("[1, 2]", "expected a JSON object of weights"),
        ('{"entity": 1,', "line 1: not valid JSON"),
    ],
)
def test_related_weights_bad_file_is_a_config_error(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "w.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        RelatedWeights.from_file(path)
    assert str(err.value).startswith(f"{path}: ")
    assert message in str(err.value)


def test_related_weights_missing_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read the weights file"):
        RelatedWeights.from_file(tmp_path / "nope.json")
