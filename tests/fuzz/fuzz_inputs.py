"""Coverage-guided fuzz target (atheris) for the readers, the normalizer and the LaTeX parser.

Run with ``make fuzz`` (a fixed time budget). Any exception other than kg's own
:class:`kg.errors.KGError` is a crash: atheris stops and writes the input as ``crash-*`` into
tests/fuzz/crashers/, where tests/unit/test_fuzz_crashers.py replays it as a regression test.
"""

import sys

import atheris

with atheris.instrument_imports():
    from tests.fuzz.check import check


def main() -> None:
    atheris.Setup(sys.argv, check)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
