"""The bounds gold's theory abstracts are the first records of the documented blind order.

The order (tools/bounds_batch.py, docs/bounds-gold.md) must reproduce the shipped
papers exactly, or a next batch drawn with it would not be the next unseen one. Needs the corpus
beside the checkout (``../shared/data/ml-abstracts.jsonl``), which no registry serves: skipped,
with the path, when it is absent.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))

from bounds_batch import DEFAULT_CORPUS, VENUES, blind_order, bounded, eligible, plain_bounded  # noqa: E402

GOLD_PAPERS = REPO / "tests" / "data" / "bounds_gold_papers.jsonl"


def test_eligibility_filter() -> None:
    ok = {"venue": "COLT", "abstract": "a regret of $O(\\sqrt{T})$"}
    assert eligible(ok)
    assert not eligible({**ok, "venue": "NeurIPS"})
    assert not eligible({**ok, "abstract": "a regret of O(sqrt T)"})  # no $
    assert not eligible({**ok, "abstract": "dimension $d$ only"})  # no bound marker
    assert not eligible({"venue": "UAI", "abstract": None})
    assert not eligible({**ok, "abstract": "a regret of $O(\\sqrt{T})$ when $n"})  # kg refuses it
    # the same filter at any venue: what the order goes on with once the theory venues are used up
    assert bounded({**ok, "venue": "NeurIPS"})
    assert not bounded({**ok, "venue": "NeurIPS", "abstract": "a regret of O(sqrt T)"})
    # the order's last part: bounds written without TeX math, at any venue
    assert plain_bounded({**ok, "abstract": "a regret of O(sqrt T)"})
    assert plain_bounded({**ok, "venue": "ICML", "abstract": "a regret of Õ(√T) in T rounds"})
    assert not plain_bounded(ok)  # TeX math: the first parts
    assert not plain_bounded({**ok, "abstract": "a regret that grows slowly (see Section O)"})


@pytest.mark.skipif(not DEFAULT_CORPUS.is_file(), reason=f"corpus not found at {DEFAULT_CORPUS}")
def test_shipped_gold_papers_are_the_head_of_the_blind_order() -> None:
    shipped = [json.loads(line) for line in GOLD_PAPERS.read_text(encoding="utf-8").splitlines() if line]
    order = blind_order(DEFAULT_CORPUS)
    assert [r["id"] for r in order[: len(shipped)]] == [r["id"] for r in shipped]
    assert order[: len(shipped)] == shipped  # copied verbatim


@pytest.mark.skipif(not DEFAULT_CORPUS.is_file(), reason=f"corpus not found at {DEFAULT_CORPUS}")
def test_the_order_goes_on_with_the_other_venues_then_with_math_written_out() -> None:
    order = blind_order(DEFAULT_CORPUS)
    tex = [r for r in order if bounded(r)]
    plain = order[len(tex) :]
    assert tex == order[: len(tex)] and plain and all(plain_bounded(r) for r in plain)
    venues = [r.get("venue") in VENUES for r in tex]
    theory = venues.count(True)
    assert theory > 0 and venues == [True] * theory + [False] * (len(tex) - theory)
    assert len({r["id"] for r in order}) == len(order)
    # each text once: the corpus holds a few abstracts under two ids, which kg reads as one paper
    assert len({" ".join(str(r["abstract"]).split()) for r in order}) == len(order)
