"""Entity extraction through the real pipeline (base spaCy pipeline + the shipped SciERC model)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from kg.text import normalize
from kg.types import ENTITY_TYPES, Mention

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
SCIERC = REPO.parent / "shared" / "data" / "scierc"
SCIER_DEV = REPO.parent / "shared" / "data" / "scier" / "dev.jsonl"
FROZEN = REPO / "extractors" / "train" / "splits" / "scierc_frozen.txt"
Extract = Callable[[str], list[Mention]]

# Floors under the figures `kg eval entities` printed for the shipped models (docs/quality.md): on
# the frozen SciERC fold (60 abstracts never trained or tuned on), on SciER dev (Dataset/Method/
# Task) and on the seeds' key entities; a regression fails.
FROZEN_STRICT_F1_FLOOR = 0.53
FROZEN_RELAXED_F1_FLOOR = 0.64
SCIER_STRICT_F1_FLOOR = 0.42
SEED_UNTYPED_RECALL_FLOOR = 0.82
SEED_PROPOSED_SHARE_FLOOR = 0.88


# SciERC and SciER are not in the repository nor on a package registry: they are read from
# ../shared beside the checkout, and without them these tests have nothing to measure.
@pytest.mark.skipif(not (SCIERC / "train.json").exists(), reason=f"SciERC not found at {SCIERC}")
def test_entities_scierc_frozen_fold_floor(entity_pipeline) -> None:  # noqa: ANN001
    from kg.evaluate.entities import evaluate_scierc, read_keys

    scores = evaluate_scierc(
        [SCIERC / "train.json", SCIERC / "dev.json"], keys=read_keys(FROZEN), pipeline=entity_pipeline
    )
    assert scores.docs == 60
    assert scores.strict.gold == 822
    assert scores.strict.scores()["f1"] >= FROZEN_STRICT_F1_FLOOR
    assert scores.relaxed.scores()["f1"] >= FROZEN_RELAXED_F1_FLOOR


@pytest.mark.skipif(not SCIER_DEV.exists(), reason=f"SciER dev not found at {SCIER_DEV}")
def test_entities_scier_dev_floor(entity_pipeline) -> None:  # noqa: ANN001
    from kg.evaluate.entities import evaluate_scier

    scores = evaluate_scier(SCIER_DEV, pipeline=entity_pipeline)
    assert scores.strict.gold == 2234
    assert {t for t, c in scores.strict_by_type.items() if c.pred} <= {"Dataset", "Method", "Task"}
    assert scores.strict.scores()["f1"] >= SCIER_STRICT_F1_FLOOR


def test_entities_stock_ner_replaced(entity_pipeline) -> None:  # noqa: ANN001
    names = entity_pipeline.nlp.pipe_names
    assert "ner" not in names
    assert names[-1] == "scierc_ner"
    assert names.index("tagger") < names.index("scierc_ner")


def test_entities_offsets_types_and_sentences_on_seeds(entity_pipeline) -> None:  # noqa: ANN001
    from kg.ingest import read_papers

    papers = read_papers([str(REPO / "seeds")])
    assert len(papers) == 50
    total = 0
    for extraction in entity_pipeline.extract_many(papers):
        abstract = extraction.paper.abstract
        for m in extraction.mentions:
            total += 1
            assert abstract[m.start : m.end] == m.text
            assert m.type in ENTITY_TYPES
            assert m.role in (None, "proposed", "used")
            assert m.sentence_start <= m.start < m.end <= m.sentence_end
            assert m.canonical == m.canonical.lower() and m.canonical.strip()
            assert normalize(m.text).text.strip() != "MATH"  # bare math is never an entity
            assert not normalize(m.text).text.endswith(" MATH")
    assert total > 50 * 10


@pytest.mark.parametrize(
    ("abstract", "name", "etype", "role"),
    [
        (
            "We propose BDC-Merge, a training-free model merging method based on Brownian distance "
            "correlation.",
            "BDC-Merge",
            "Method",
            "proposed",
        ),
        (
            "We introduce XShapeEnc, a shape encoder that improves retrieval.",
            "XShapeEnc",
            "Method",
            "proposed",
        ),
        ("We fine-tune GPT-2 and Qwen-2B on arithmetic.", "Qwen-2B", "Method", "used"),
        (
            "Experiments on Avazu, Criteo, and Taobao show that our model improves AUC.",
            "Criteo",
            "Dataset",
            "used",
        ),
    ],
)
def test_entities_pipeline_rules_hold_with_model(
    entities_of: Extract, abstract: str, name: str, etype: str, role: str
) -> None:
    matches = [m for m in entities_of(abstract) if name in m.text]
    assert matches
    assert {(m.type, m.role) for m in matches} == {(etype, role)}


def test_entities_pipeline_generic_words_excluded(entities_of: Extract) -> None:
    abstract = (
        "Our method outperforms the existing approaches. The framework is simple, and the results "
        "show that the proposed model improves performance."
    )
    generic = {"method", "approach", "approaches", "model", "framework", "results", "performance"}
    for m in entities_of(abstract):
        assert m.canonical not in generic
        assert m.text.lower().split()[-1] not in generic or len(m.text.split()) > 2


def test_entities_pipeline_list_of_metrics_is_not_datasets(entities_of: Extract) -> None:
    abstract = "Our experiments show significant improvements in BLEU and NIST scores over the baseline."
    types = {m.text: m.type for m in entities_of(abstract)}
    assert types["BLEU"] == types["NIST"] == "Metric"


def test_entities_pipeline_abbreviation_one_canonical(entities_of: Extract) -> None:
    abstract = (
        "We study Structural Equation Models (SEMs) for causal discovery. SEMs with latent "
        "confounders are hard to identify."
    )
    canon = {m.canonical for m in entities_of(abstract) if "SEM" in m.text or "Structural" in m.text}
    assert canon == {"structural equation model"}


def test_entities_pipeline_unicode_hyphen_phrase(entities_of: Extract) -> None:
    abstract = (
        "We develop two phased\u2011elimination algorithms based on G-optimal designs and "
        "1\u2011bit mean estimation."
    )
    mentions = entities_of(abstract)
    phrase = [m for m in mentions if "phased\u2011elimination" in m.text]
    assert phrase and phrase[0].canonical.startswith("phased elimination algorithm")


def test_entities_seed_gold_recall_floor(entity_pipeline) -> None:  # noqa: ANN001
    from kg.evaluate.entities import evaluate_gold, read_gold
    from kg.ingest import read_papers

    gold = read_gold(REPO / "tests" / "data" / "seed_entities_gold.jsonl")
    scores = evaluate_gold(gold, entity_pipeline.extract_many(read_papers([str(REPO / "seeds")])))
    assert (scores.papers, scores.gold, scores.proposed) == (50, 389, 17)
    assert scores.found_untyped / scores.gold >= SEED_UNTYPED_RECALL_FLOOR
    assert scores.proposed_found / scores.proposed >= SEED_PROPOSED_SHARE_FLOOR
