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


def test_update_on_the_dask_cluster_writes_the_pending_files_of_a_local_update(tmp_path: Path) -> None:
    import json
    import shutil

    from kg.ingest import read_papers

    base = tmp_path / "base"
    done = subprocess.run([sys.executable, "-m", "kg.cli", "build", str(REPO / "seeds"), "-o", str(base),
                           "--workers", "1"], cwd=REPO, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    new = tmp_path / "new.jsonl"
    new.write_text("".join(json.dumps({"id": f"new-{i}", "title": f"New {i}",
                                       "abstract": f"{p.abstract} Extended here."}) + "\n"
                           for i, p in enumerate(read_papers([str(REPO / "seeds")])[:3])), encoding="utf-8")
    outs = {}
    for name, extra in [("local", ["--workers", "2"]), ("dask", ["--engine", "dask", "--workers", "2"])]:
        out = tmp_path / name
        shutil.copytree(base, out)
        cmd = [sys.executable, "-m", "kg.cli", "build", "--update", str(out), str(new), *extra]
        done = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stderr[-3000:]
        outs[name] = {p.name: p.read_bytes() for p in sorted(out.iterdir())}
    assert "pending-1.json" in outs["local"] and "pending-1.jsonl" in outs["local"]
    for name in outs["local"]:
        assert outs["dask"][name] == outs["local"][name], name


def test_dask_worker_with_other_extractor_versions_is_refused() -> None:
    import pytest

    from kg.distributed import extract_papers_dask
    from kg.errors import ConfigError
    from kg.ingest import read_papers
    from kg.pipeline import load_pipeline

    ours = {**load_pipeline().versions, "bounds": "bounds.latex.v0"}  # what this kg would claim
    papers = read_papers([str(REPO / "seeds")])[:2]
    with pytest.raises(ConfigError) as info:
        list(extract_papers_dask(papers, workers=1, versions=ours))
    message = str(info.value)
    assert "bounds: " in message and "(here bounds.latex.v0)" in message
    assert "install the same kg and requirements.lock on every worker" in message
