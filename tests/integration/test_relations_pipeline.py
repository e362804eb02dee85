"""Relation extraction through the real pipeline (base spaCy pipeline, SciERC recognizer, the
shipped relation classifier): the output contract of ``kg extract`` records, and the Rel floors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extractors.entities import NESTED_EXTRACTOR
from extractors.relations import RELATION_TYPES
from kg.types import Extraction, Paper

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
SCIERC = REPO.parent / "shared" / "data" / "scierc"
FROZEN = REPO / "extractors" / "train" / "splits" / "scierc_frozen.txt"

# Floors just under what `kg eval entities --scierc … --keys …scierc_frozen.txt` printed for the
# shipped models (docs/quality.md): Rel F1 on the 60 frozen abstracts, end to end and with gold
# entities.
FROZEN_REL_F1_FLOOR = 0.28
FROZEN_REL_GOLD_ENTITIES_F1_FLOOR = 0.50

ABSTRACT = (
    "We propose a convolutional neural network for image classification with $O(\\sqrt{T})$ regret. "
    "The \\emph{model} is evaluated on the ImageNet dataset, where it outperforms support vector machines. "
    "Accuracy and F1 score are used to evaluate the method."
)


@pytest.fixture(scope="module")
def pipeline():  # noqa: ANN201
    from kg.pipeline import load_pipeline

    return load_pipeline(None)


@pytest.fixture(scope="module")
def record(pipeline) -> Extraction:  # noqa: ANN001
    return pipeline.extract_one(Paper(id="p-rel", title="A title", abstract=ABSTRACT))


def test_relations_run_by_default_after_the_entities(pipeline) -> None:  # noqa: ANN001
    assert pipeline.families[-1] == "relations"
    assert pipeline.families.index("entities") < pipeline.families.index("relations")
    assert pipeline.versions["relations"].startswith("relations.")


def test_relations_output_contract(record: Extraction) -> None:
    assert record.relations, "no relation in an abstract that states several"
    # a proposal named by what it is for ("an algorithm for learning decision trees") contains
    # other mentions; the relation step reads its parts instead
    spans = {(m.start, m.end) for m in record.mentions if m.extractor != NESTED_EXTRACTOR}
    for rel in record.relations:
        assert rel.type in RELATION_TYPES
        assert 0.0 <= rel.confidence <= 1.0
        assert not (rel.head.generic and rel.tail.generic)
        for arg in (rel.head, rel.tail):
            assert ABSTRACT[arg.start : arg.end] == arg.text  # offsets into the abstract as given
            if arg.generic:  # a generic reference: one word outside every mention
                assert " " not in arg.text
                assert not any(a < arg.end and arg.start < b for a, b in spans)
            else:
                assert (arg.start, arg.end) in spans  # an extracted mention
        assert (rel.head.start, rel.head.end) != (rel.tail.start, rel.tail.end)
        # both in the one sentence the relation names
        assert rel.sentence_start <= min(rel.head.start, rel.tail.start)
        assert max(rel.head.end, rel.tail.end) <= rel.sentence_end


def test_relations_find_what_the_sentence_says(record: Extraction) -> None:
    found = {(r.head.text, r.type, r.tail.text) for r in record.relations}
    assert ("convolutional neural network", "USED-FOR", "image classification") in found


def test_relations_reach_generic_references(record: Extraction) -> None:
    # "The model is evaluated on the ImageNet dataset": SciERC annotates "model" as Generic
    found = {(r.head.text, r.type, r.tail.text, r.tail.generic) for r in record.relations}
    assert ("ImageNet dataset", "EVALUATE-FOR", "model", True) in found


def test_relations_read_a_proposal_named_by_what_it_is_for_through_its_parts(pipeline) -> None:  # noqa: ANN001
    abstract = "We present an algorithm for learning decision trees using stochastic gradient information."
    record = pipeline.extract_one(Paper(id="p-nested", title="", abstract=abstract))
    nested = [(m.start, m.end) for m in record.mentions if m.extractor == NESTED_EXTRACTOR]
    assert nested, "the proposal is a mention of its own"
    args = {(arg.start, arg.end) for rel in record.relations for arg in (rel.head, rel.tail)}
    assert not args & set(nested)
    found = {(r.head.text, r.type, r.tail.text) for r in record.relations}
    assert ("algorithm", "USED-FOR", "learning decision trees") in found  # the generic head, as before


def test_kg_extract_json_carries_relations(record: Extraction) -> None:
    obj = json.loads(json.dumps(record.to_json()))
    assert obj["relations"]
    generic = 0
    for rel in obj["relations"]:
        assert set(rel) >= {"type", "head", "tail", "confidence"}
        for arg in (rel["head"], rel["tail"]):
            assert set(arg) in ({"start", "end", "text"}, {"start", "end", "text", "generic"})
            generic += arg.get("generic", False)
    assert generic  # written only when true
    assert Extraction.from_json(obj) == record


def test_relations_cache_key_changes_with_the_relation_extractor(pipeline) -> None:  # noqa: ANN001
    from kg.pipeline import Pipeline

    other = type(pipeline.extractors[-1])(pipeline.extractors[-1].model)
    other.name = "relations.pairs.v0"
    changed = Pipeline(pipeline.nlp, pipeline.nlp_name, pipeline.families, [*pipeline.extractors[:-1], other])
    assert changed.versions != pipeline.versions
    assert changed.versions["relations"] == "relations.pairs.v0"


@pytest.mark.skipif(not (SCIERC / "train.json").exists(), reason=f"SciERC not found at {SCIERC}")
def test_relations_scierc_frozen_fold_floor(pipeline) -> None:  # noqa: ANN001
    from extractors.train.scierc import read_scierc
    from kg.evaluate.entities import evaluate_scierc, read_keys
    from kg.evaluate.relations import score_gold_entities

    keys = read_keys(FROZEN)
    scores = evaluate_scierc([SCIERC / "train.json", SCIERC / "dev.json"], keys=keys, pipeline=pipeline)
    assert scores.relations is not None and scores.relations.docs == 60
    assert scores.relations.all.scores()["f1"] >= FROZEN_REL_F1_FLOOR
    docs = [d for name in ("train.json", "dev.json") for d in read_scierc(SCIERC / name) if d.key in keys]
    gold_mode = score_gold_entities(docs, pipeline)
    assert gold_mode.all.scores()["f1"] >= FROZEN_REL_GOLD_ENTITIES_F1_FLOOR
