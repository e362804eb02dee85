"""Canonical names: case, plural/lemma, hyphen/space, determiners, generic heads, aliases, acronyms."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extractors.canonical import (
    ALIASES_PATH,
    acronym_map,
    canonical_key,
    canonicalize,
    is_coined,
    load_aliases,
    singularize,
)


@pytest.mark.parametrize(
    ("text", "etype", "expected"),
    [
        ("Stochastic Gradient Descent", "Method", "stochastic gradient descent"),
        ("the stochastic-gradient descent", "Method", "stochastic gradient descent"),
        ("SGD", "Method", "stochastic gradient descent"),
        ("phased\u2011elimination algorithms", "Method", "phased elimination algorithm"),
        ("Phased-Elimination Algorithm", "Method", "phased elimination algorithm"),
        ("phased elimination algorithm", "Method", "phased elimination algorithm"),
        ("our Transformers", "Method", "transformer"),
        ("these policies", "Concept", "policy"),
        ("cross-entropy losses", "Metric", "cross entropy loss"),
        ("sensitivity analysis", "Task", "sensitivity analysis"),
        ("LLMs", "Method", "large language model"),
        ("large language models", "Method", "large language model"),
        ("GNNs", "Method", "graph neural network"),
        ("the BDC-Merge framework", "Method", "bdc merge"),
        ("BDC\u2011Merge", "Method", "bdc merge"),
        ("SN-VLM model", "Method", "sn vlm"),
        ("graph neural network", "Method", "graph neural network"),
        ("  \u201cmiddle ground\u201d ", "Concept", "middle ground"),
        ("Adam optimizer", "Method", "adam"),
        ("KL-divergence", "Metric", "kullback-leibler divergence"),
        # a counted resource and its complexity are one quantity
        ("the number of iterations", "Metric", "iteration complexity"),
        ("number of communication rounds", "Metric", "round complexity"),
        ("Number of oracle calls", "Metric", "oracle complexity"),
        ("time complexity", "Metric", "running time"),
        ("approximation factors", "Metric", "approximation ratio"),
        ("the arithmetic cost", "Metric", "arithmetic complexity"),
        ("computational costs", "Metric", "computational complexity"),
        ("memory", "Metric", "space complexity"),
        ("the memory complexity", "Metric", "space complexity"),
        ("cost per iteration", "Metric", "per-iteration cost"),
        ("per-iteration complexity", "Metric", "per-iteration cost"),
        ("space", "Metric", "space complexity"),
        ("the number of gradient evaluations", "Metric", "gradient complexity"),
        ("per-step complexity", "Metric", "per-step cost"),
        ("number of black-box calls", "Metric", "oracle complexity"),
        ("computation time", "Metric", "running time"),
        ("the computational time", "Metric", "running time"),
        ("number of comparisons", "Metric", "number of comparison"),  # no complexity of that name
        ("sample size", "Metric", "sample size"),  # a size, not always a complexity
    ],
)
def test_entities_canonicalize_folds_variants(text: str, etype: str, expected: str) -> None:
    assert canonicalize(text, etype) == expected


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("networks", "network"),
        ("policies", "policy"),
        ("losses", "loss"),
        ("processes", "process"),
        ("approaches", "approach"),
        ("analysis", "analysis"),
        ("dynamics", "dynamics"),
        ("bias", "bias"),
        ("corpus", "corpus"),
        ("data", "data"),
        ("sems", "sem"),
    ],
)
def test_entities_singularize_last_word(word: str, expected: str) -> None:
    assert singularize(word) == expected


def test_entities_acronym_map_short_to_long_canonical() -> None:
    acronyms = acronym_map(
        [("BDCorr", "Brownian Distance Correlation"), ("SEMs", "Structural Equation Models")]
    )
    assert acronyms == {"bdcorr": "brownian distance correlation", "sem": "structural equation model"}
    assert canonicalize("BDCorr", "Method", acronyms) == canonicalize(
        "Brownian Distance Correlation", "Method"
    )
    assert canonicalize("SEM", "Method", acronyms) == "structural equation model"


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("XShapeEnc", True),
        ("f-GRPO", True),
        ("BDC-Merge", True),
        ("SN-VLM", True),
        ("ADAG", True),
        ("BEAT2", True),
        ("ShiftRAG", True),
        ("Shepherd", False),
        ("Korean-to-English", False),
        ("LLMs", False),
        ("MATH", False),
        ("2B", False),
        ("state-of-the-art", False),
    ],
)
def test_entities_is_coined(word: str, expected: bool) -> None:
    assert is_coined(word) is expected


def test_entities_alias_table_ids_unique_and_self_consistent() -> None:
    rows = [
        json.loads(line) for line in ALIASES_PATH.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    ids = [row["id"] for row in rows]
    assert len(ids) == len(set(ids))
    table = load_aliases()
    for row in rows:
        assert table[canonical_key(row["canonical"])].canonical == row["canonical"]


def test_read_rules_names_the_file_and_line_of_a_bad_rule(tmp_path: Path) -> None:
    from extractors.canonical import read_rules
    from kg.errors import ConfigError

    good = tmp_path / "rules.jsonl"
    good.write_text('{"id": "a"}\n\n{"id": "b"}\n', encoding="utf-8")
    assert read_rules(good) == [{"id": "a"}, {"id": "b"}]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a"}\n[1, 2]\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"bad\.jsonl: line 2: expected a JSON object"):
        read_rules(bad)
    with pytest.raises(ConfigError, match="cannot read rule data"):
        read_rules(tmp_path / "missing.jsonl")


def test_the_tokenizer_keeps_every_head_macro_of_the_notation_table_whole() -> None:
    from extractors import latex
    from extractors.canonical import read_rules

    macros = {r["head"] for r in read_rules("bounds_notation.jsonl") if r["id"].startswith("head.macro.")}
    assert macros and macros <= latex.KNOWN_COMMANDS
    for macro in macros:
        assert [t.text for t in latex.tokenize(f"\\{macro}(n)")] == [macro, "(", "n", ")"]
