"""No rule may backtrack or recurse without end on hostile input: each 50–100 kB abstract of
``tests/fixtures/adversarial.py`` is read to its end, in a fresh subprocess.

The subprocess runs under a watchdog (``WATCHDOG_S``) only so that a catastrophic regex or scan
fails the run instead of hanging it; how fast each case goes, against an ordinary abstract of the
same size, is measured by ``bench/bench_adversarial.py`` (the documented bound is 2 s per 100 kB),
not asserted here.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.fixtures.adversarial import CASES

WATCHDOG_S = 120  # minutes-long backtracking, not a speed target

SCRIPT = """
from kg.text import normalize
from extractors.bounds import extract_bounds
abstract = {expr}
assert len(abstract) >= 50_000
math = normalize(abstract).math
bounds = extract_bounds(abstract, math)
assert all(0 <= b.start < b.end <= len(abstract) for b in bounds)
print(len(bounds))
"""


@pytest.mark.parametrize("name", sorted(CASES))
def test_bounds_adversarial_input_is_read_to_the_end(name: str) -> None:
    code = SCRIPT.format(expr=CASES[name])
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=WATCHDOG_S)
    assert done.returncode == 0, done.stderr[-2000:]
    found = int(done.stdout.strip().splitlines()[-1])
    if name == "many-spans":
        assert found == 2_500  # every one of the 2,500 stated regret bounds, none lost on the way
