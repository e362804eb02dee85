"""The distributed path: a Dask LocalCluster of two workers builds the same graph, byte for byte."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_build_dask_local_cluster_equals_single_process(tmp_path: Path) -> None:
    outs = {}
    for name, extra in [("local", ["--workers", "1"]), ("dask", ["--engine", "dask", "--workers", "2"])]:
        out = tmp_path / name
        done = subprocess.run([sys.executable, "-m", "kg.cli", "build", str(REPO / "seeds"), "-o", str(out),
                               *extra], cwd=REPO, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stderr[-3000:]
        outs[name] = {p.name: p.read_bytes() for p in sorted(out.iterdir())}
    assert sorted(outs["local"]) == ["extractions.jsonl", "graph.json", "graph.ttl", "manifest.json"]
    for name in outs["local"]:
        assert outs["dask"][name] == outs["local"][name], name
