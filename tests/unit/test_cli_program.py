"""The kg executable ends without tearing down its heap: its output must still arrive whole."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _kg(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kg.cli", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=300)


def test_program_flushes_piped_output_before_it_exits() -> None:
    done = _kg("ingest", "seeds/")  # stdout is a pipe: block-buffered, not flushed line by line
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(rows) == 50 and done.stdout.endswith("\n")
    assert done.stderr.startswith("read: 50 papers")


def test_program_keeps_the_exit_codes(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "abstract": "x"}\n{"id": \n', encoding="utf-8")
    done = _kg("ingest", str(bad))
    assert done.returncode == 2 and done.stderr.startswith(f"kg: error: {bad}: record 2")
    assert _kg("no-such-command").returncode == 2  # argparse's usage error
    assert _kg("--help").returncode == 0
