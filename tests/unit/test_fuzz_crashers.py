"""Every input the fuzzer ever crashed on stays fixed: each file in tests/fuzz/crashers/ is replayed."""

from pathlib import Path

from tests.fuzz.check import check

CRASHERS = sorted(p for p in (Path(__file__).resolve().parents[1] / "fuzz" / "crashers").glob("*")
                  if not p.name.startswith("."))


def test_fuzz_crashers_are_fixed():
    for path in CRASHERS:  # none yet: the fuzzer has found no crash so far
        check(path.read_bytes())


def test_fuzz_seed_corpus_passes():
    corpus = sorted((Path(__file__).resolve().parents[1] / "fuzz" / "corpus").glob("*"))
    assert corpus, "the fuzz seed corpus is empty"
    for path in corpus:
        check(path.read_bytes())
