"""Entity rules alone (no model): proposed coinages, pretrained models, datasets, abbreviations,
generic words, math masking, Unicode hyphens, and the offset contract."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from extractors.entity_spans import is_generic, trim
from kg.types import Mention

Extract = Callable[[str], list[Mention]]


def _by_text(mentions: list[Mention]) -> dict[str, tuple[str, str | None]]:
    return {m.text: (m.type, m.role) for m in mentions}


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        ("We propose BDC-Merge, a training-free model merging method.", "BDC-Merge"),
        ("In this paper we introduce XShapeEnc, an encoder for shapes.", "XShapeEnc"),
        ("We present f-GRPO, which generalizes policy optimization.", "f-GRPO"),
        ("We develop SN-VLM to ground language in sensor data.", "SN-VLM"),
        ("This paper proposes ShiftRAG for retrieval under shift.", "ShiftRAG"),
        ("We introduce GRACE, a graph contrastive estimator.", "GRACE"),
        ("We introduce Shepherd, a critic model for reasoning.", "Shepherd"),
        ("We propose VOXPERFORMER: a voxel transformer.", "VOXPERFORMER"),
        ("We propose Anchor PCA, which anchors components.", "Anchor PCA"),
        ("We introduce the SLE kernel for sequences.", "SLE kernel"),
        ("A simple recipe, dubbed SheafStain, normalizes stains.", "SheafStain"),
        ("We call our method SCDL and show it converges.", "SCDL"),
    ],
)
def test_entities_rules_named_system_proposed(rule_entities: Extract, abstract: str, name: str) -> None:
    found = _by_text(rule_entities(abstract))
    assert found[name] == ("Method", "proposed")


def test_entities_rules_name_proposed_everywhere_in_paper(rule_entities: Extract) -> None:
    mentions = rule_entities("We propose ADAG, a pruning framework. ADAG is fast.")
    assert [(m.text, m.start, m.role) for m in mentions] == [
        ("ADAG", 11, "proposed"),
        ("ADAG", 38, "proposed"),
    ]


def test_entities_rules_name_after_based_on_is_not_proposed(rule_entities: Extract) -> None:
    found = _by_text(rule_entities("We propose a new sampler based on HMC-Lite for posteriors."))
    assert "HMC-Lite" not in found


def test_entities_rules_proposed_benchmark_is_dataset(rule_entities: Extract) -> None:
    found = _by_text(rule_entities("We introduce SheafBench, a new benchmark of 40 tasks."))
    assert found["SheafBench"] == ("Dataset", "proposed")


@pytest.mark.parametrize(
    ("abstract", "names"),
    [
        ("Experiments on Avazu, Criteo, and Taobao show gains.", ["Avazu", "Criteo", "Taobao"]),
        ("We evaluate on BEAT2 and FineDance.", ["BEAT2", "FineDance"]),
        ("Results on CIFAR-5M confirm the theory.", ["CIFAR-5M"]),
        ("Accuracy improves on PopQA.", ["PopQA"]),
        ("Experiments on Foo-7 and BarSet-2 datasets", ["Foo-7", "BarSet-2"]),
    ],
)
def test_entities_rules_datasets(rule_entities: Extract, abstract: str, names: list[str]) -> None:
    mentions = [m for m in rule_entities(abstract) if m.type == "Dataset"]
    assert [m.text for m in mentions] == names
    assert {m.role for m in mentions} == {"used"}


@pytest.mark.parametrize(
    ("abstract", "names"),
    [
        ("We fine-tune GPT-2 and Llama on math problems.", ["GPT-2", "Llama"]),
        ("We compare Qwen-2B with Llama-3-8B and BERT.", ["Qwen-2B", "Llama-3-8B", "BERT"]),
        ("Prompting Qwen2.5-7B-Instruct improves recall.", ["Qwen2.5-7B-Instruct"]),
    ],
)
def test_entities_rules_pretrained_models_used(
    rule_entities: Extract, abstract: str, names: list[str]
) -> None:
    mentions = [m for m in rule_entities(abstract) if m.type == "Method"]
    assert [(m.text, m.role) for m in mentions] == [(n, "used") for n in names]


def test_entities_rules_abbreviation_forms_share_canonical(rule_entities: Extract) -> None:
    mentions = rule_entities(
        "We propose Brownian Distance Correlation Merging (BDC-Merge). BDC-Merge merges models."
    )
    # The definition is one mention, as SciERC brackets it; the later short form merges with it.
    assert [(m.text, m.canonical, m.role) for m in mentions] == [
        (
            "Brownian Distance Correlation Merging (BDC-Merge)",
            "brownian distance correlation merging",
            "proposed",
        ),
        ("BDC-Merge", "brownian distance correlation merging", "proposed"),
    ]


def test_entities_rules_proposed_definition_takes_name_head(rule_entities: Extract) -> None:
    mentions = rule_entities("We propose the Sparse Landmark Embedding (SLE) kernel. The SLE kernel is PSD.")
    assert [(m.text, m.canonical, m.role) for m in mentions][0] == (
        "Sparse Landmark Embedding (SLE) kernel",
        "sparse landmark embedding kernel",
        "proposed",
    )


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("method", True),
        ("our approach", True),
        ("the proposed model", True),
        ("the framework", True),
        ("results", True),
        ("performance", True),
        ("existing methods", True),
        ("MATH", True),
        ("it", True),
        ("graph neural network", False),
        ("regret", False),
        ("BDC-Merge", False),
    ],
)
def test_entities_generic_words_never_entities(phrase: str, expected: bool) -> None:
    assert is_generic(phrase) is expected


def test_entities_rules_math_masked_and_offsets_original(rule_entities: Extract) -> None:
    abstract = (
        r"We propose $\mathcal{A}$-BDC\u2011Merge? No: we propose BDC\u2011Merge with $O(\sqrt{T})$ regret."
    )
    abstract = abstract.replace("\\u2011", "\u2011")
    mentions = rule_entities(abstract)
    for m in mentions:
        assert abstract[m.start : m.end] == m.text
        assert "$" not in m.text
    assert ("BDC\u2011Merge", "bdc merge", "proposed") in {(m.text, m.canonical, m.role) for m in mentions}


def test_entities_rules_sentence_offsets_contain_mention(rule_entities: Extract) -> None:
    abstract = "Prior work used SGD. We propose ADAG, a pruner. ADAG wins."
    for m in rule_entities(abstract):
        assert m.sentence_start <= m.start < m.end <= m.sentence_end
        assert abstract[m.sentence_start : m.sentence_end].startswith(("Prior", "We", "ADAG"))


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        ("A live supervisor improves pass rate on CooperBench.", "CooperBench"),
        ("This lifts TerminalBench-2 from 34.2% to 39.4%.", "TerminalBench-2"),
        ("We also curate the XShapeCorpus dataset.", "XShapeCorpus"),
    ],
)
def test_entities_rules_benchmark_shaped_names_are_datasets(
    rule_entities: Extract, abstract: str, name: str
) -> None:
    assert _by_text(rule_entities(abstract))[name][0] == "Dataset"


@pytest.mark.parametrize(
    ("text", "phrase", "spans"),
    [
        ("ADAG, ADAG-based and ADAGs; ADAG- ADAG", "ADAG", [(0, 4), (28, 32), (34, 38)]),
        ("SEM and SEMs and SEM.", "SEM", [(0, 3), (17, 20)]),
        ("no match here", "ADAG", []),
    ],
)
def test_entities_occurrences_whole_words(text: str, phrase: str, spans: list[tuple[int, int]]) -> None:
    from extractors.entity_spans import occurrences

    assert occurrences(text, phrase) == spans


def test_entities_rules_background_name_not_proposed(rule_entities: Extract) -> None:
    abstract = (
        "Directed Acyclic Graphs (DAGs) are hard to learn. "
        "We introduce Attention-DAG (ADAG), a transformer for amortized DAG learning."
    )
    roles = {(m.text, m.role) for m in rule_entities(abstract)}
    assert ("Attention-DAG (ADAG)", "proposed") in roles
    assert all(role is None for text, role in roles if "DAG" in text and "ADAG" not in text)


def test_names_start_a_word_only() -> None:
    """The listed-name scan keeps a match only where no word character or hyphen precedes it,
    and looks again inside a rejected match (spans counted by hand)."""
    import re

    from extractors.entity_rules import find_names as _find_names

    regex = re.compile(r"GPT-?4")
    text = "xGPT-4, GPT-4 and -GPT4 or éGPT4 (GPT4) _GPT-4 GPT-GPT4"
    spans = [m.span() for m in _find_names(regex, text)]
    # The G of "xGPT-4" (1), "-GPT4" (19), "éGPT4" (28), "_GPT-4" (41) follows a word character
    # or a hyphen; "GPT-GPT4" has no GPT-?4 at 47, and its "GPT4" at 51 follows a hyphen.
    assert spans == [(8, 13), (34, 38)]
    lookbehind = re.compile(r"(?<![\w\-])GPT-?4")
    assert spans == [m.span() for m in lookbehind.finditer(text)]


def test_every_listed_name_rule_matches_as_with_a_look_behind() -> None:
    """Each shipped model/dataset rule finds, on the seed abstracts and on names glued to words,
    exactly what ``finditer`` finds with the look-behind ``(?<![\\w\\-])`` in front."""
    import re
    from pathlib import Path

    from extractors.canonical import read_rules
    from extractors.entity_rules import NAME_END as _NAME_END
    from extractors.entity_rules import find_names as _find_names
    from kg.ingest import read_papers

    seeds = Path(__file__).resolve().parents[2] / "seeds"
    texts = [p.abstract for p in read_papers([str(seeds)])]
    texts.append("xBERT, -CIFAR-10, ImageNet-1k, _MNIST (GPT-4) T5-base; RoBERTa-large/ImageNet")
    for obj in read_rules("pretrained.jsonl") + read_rules("datasets.jsonl"):
        ours = re.compile(r"(?:" + obj["regex"] + r")" + _NAME_END)
        theirs = re.compile(r"(?<![\w\-])(?:" + obj["regex"] + r")" + _NAME_END)
        for text in texts:
            assert [m.span() for m in _find_names(ours, text)] == [m.span() for m in theirs.finditer(text)]


@pytest.mark.parametrize(
    ("span", "name"),
    [
        ("the learning ability of", "learning ability"),
        ("Gibbs sampling and", "Gibbs sampling"),
        ("maximum size of the", "maximum size"),
        ("uncertainty quantification for,", "uncertainty quantification"),
        ("OR", "OR"),  # a name that is itself a function word keeps it
        ("vitamin A", "vitamin A"),  # a capital letter is a name's part, not an article
        ("learning to rank", "learning to rank"),  # function words inside a name stay
    ],
)
def test_trim_drops_function_words_a_name_cannot_end_on(span: str, name: str) -> None:
    start, end = trim(span, 0, len(span))
    assert span[start:end] == name
