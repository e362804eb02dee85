"""Every input the fuzzer ever crashed on stays fixed: each file in tests/fuzz/crashers/ is replayed."""

from pathlib import Path

import pytest

from tests.fuzz.check import check

CRASHERS = sorted(p for p in (Path(__file__).resolve().parents[1] / "fuzz" / "crashers").glob("*")
                  if not p.name.startswith("."))


@pytest.mark.parametrize("path", CRASHERS, ids=[p.name for p in CRASHERS])
def test_fuzz_crasher_is_fixed(path):
    check(path.read_bytes())


def test_fuzz_seed_corpus_passes():
    corpus = sorted((Path(__file__).resolve().parents[1] / "fuzz" / "corpus").glob("*"))
    assert corpus, "the fuzz seed corpus is empty"
    for path in corpus:
        check(path.read_bytes())
