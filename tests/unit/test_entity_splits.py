"""The frozen SciERC fold, the cross-validation folds, and the SciER reader."""

from __future__ import annotations

from pathlib import Path

import pytest

from extractors.train.scierc import SciercDoc, SciercSpan, passages, scierc_doc
from extractors.train.splits import FOLDS, FROZEN_FILE, FROZEN_SIZE, digest, fold_of, frozen_keys, read_frozen
from kg.evaluate.entities import read_keys

SCIERC = Path(__file__).resolve().parents[3] / "shared" / "data" / "scierc"


def test_splits_frozen_file_lists_sixty_keys() -> None:
    keys = read_frozen()
    assert len(keys) == FROZEN_SIZE
    assert read_keys(FROZEN_FILE) == keys


# The file was written from SciERC train + dev; without them here there is nothing to recompute.
@pytest.mark.skipif(not (SCIERC / "train.json").exists(), reason=f"SciERC not found at {SCIERC}")
def test_splits_frozen_file_is_the_hash_rule() -> None:
    from extractors.train.scierc import read_scierc

    keys = [d.key for name in ("train.json", "dev.json") for d in read_scierc(SCIERC / name)]
    assert len(keys) == 400
    assert set(frozen_keys(keys)) == read_frozen()


def test_splits_frozen_keys_are_the_smallest_digests() -> None:
    keys = [f"doc-{i}" for i in range(100)]
    frozen = frozen_keys(keys, size=10)
    assert len(frozen) == 10
    assert max(digest(k) for k in frozen) < min(digest(k) for k in keys if k not in frozen)


@pytest.mark.parametrize("key", ["H05-1041", "CVPR_2015_303_abs", "P16-1001"])
def test_splits_fold_of_is_the_digest_modulo_folds(key: str) -> None:
    assert fold_of(key) == int(digest(key), 16) % FOLDS
    assert 0 <= fold_of(key) < FOLDS


def test_scierc_reader_takes_scier_doc_id() -> None:
    record = {
        "doc_id": "53719258",
        "sentences": [["We", "use", "Kinetics", "."], ["It", "helps", "."]],
        "ner": [[[2, 2, "Dataset"]], []],
    }
    doc = scierc_doc(record, "line 1")
    assert doc.key == "53719258"
    assert doc.text == "We use Kinetics . It helps ."
    assert doc.spans == (SciercSpan(7, 15, "Dataset"),)


def test_passages_cut_at_sentences_with_spans_relative() -> None:
    text = "We use Kinetics . It helps . So does UCF101 ."
    doc = SciercDoc(
        "p",
        text,
        ((0, 17), (18, 28), (29, 45)),
        (SciercSpan(7, 15, "Dataset"), SciercSpan(37, 43, "Dataset")),
    )
    cut = passages(doc, max_chars=30)
    assert [p.key for p in cut] == ["p#0", "p#1"]
    assert [p.text for p in cut] == ["We use Kinetics . It helps .", "So does UCF101 ."]
    assert [[p.text[s.start : s.end] for s in p.spans] for p in cut] == [["Kinetics"], ["UCF101"]]
