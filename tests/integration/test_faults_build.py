"""Faults during a build, with the real pipeline: Ctrl-C, a full disk, an unwritable target,
two updates at once. In every case the previous build directory survives byte for byte, the
error is one line, and nothing half-written is left behind.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kg.ingest import read_papers

REPO = Path(__file__).resolve().parents[2]
SEEDS = REPO / "seeds"
KG = [sys.executable, "-m", "kg.cli"]


def kg(*args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*KG, *args], cwd=REPO, capture_output=True, text=True, timeout=600,
                          **kwargs)  # type: ignore[call-overload]


def snapshot(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


def leftovers(parent: Path, name: str) -> list[str]:
    """Temp or half-written entries beside the build directory ``name``."""
    return sorted(p.name for p in parent.iterdir()
                  if p.name.startswith(f".{name}.") and not p.name.endswith(".lock"))


@pytest.fixture(scope="module")
def seed_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("faults") / "graph"
    done = kg("build", str(SEEDS), "-o", str(out), "--workers", "1")
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="module")
def many_abstracts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Eight distinct variants of each seed abstract: a build long enough to interrupt."""
    path = tmp_path_factory.mktemp("many") / "many.jsonl"
    papers = read_papers([str(SEEDS)])
    with open(path, "w", encoding="utf-8") as out:
        for k in range(8):
            for paper in papers:
                abstract = f"{paper.abstract} Variant {k} of this study."
                out.write(json.dumps({"id": f"{paper.id}-v{k}", "title": paper.title,
                                      "abstract": abstract}) + "\n")
    return path


def copy_build(src: Path, dst: Path) -> Path:
    dst.mkdir(parents=True)
    for p in src.iterdir():
        (dst / p.name).write_bytes(p.read_bytes())
    return dst


def test_faults_sigint_keeps_the_directory_and_the_rerun_resumes(
        seed_build: Path, many_abstracts: Path, tmp_path: Path) -> None:
    graph = copy_build(seed_build, tmp_path / "graph")
    before = snapshot(graph)
    journal = Path(str(graph) + ".journal.jsonl")
    proc = subprocess.Popen([*KG, "build", str(many_abstracts), "-o", str(graph), "--workers", "2"],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if journal.exists() and journal.read_text(encoding="utf-8").count("\n") > 65:
            break
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.2)
    else:
        proc.kill()
        pytest.fail("the build journaled nothing within 300 s")
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C on a terminal does: the whole group
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("kg: interrupted;")
    assert snapshot(graph) == before
    assert [n for n in leftovers(graph.parent, "graph") if ".tmp-" in n or ".old-" in n] == []
    kept = journal.read_text(encoding="utf-8").count("\n") - 1
    assert kept >= 64

    rerun = kg("build", str(many_abstracts), "-o", str(graph), "--workers", "2")
    assert rerun.returncode == 0, rerun.stderr
    reused = int(rerun.stderr.split(" reused from the cache")[0].rsplit(" ", 1)[-1])
    assert reused >= kept
    assert not journal.exists()
    lines = (graph / "extractions.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 400


def test_faults_disk_full_keeps_the_previous_build(seed_build: Path, tmp_path: Path) -> None:
    graph = copy_build(seed_build, tmp_path / "graph")
    before = snapshot(graph)
    limit = 1024 * 1024  # the journal and graph.json fit; graph.ttl (about 2 MB) does not

    def small_disk() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    assert len(before["graph.ttl"]) > limit
    done = kg("build", str(SEEDS), "-o", str(graph), "--workers", "1", "--no-cache",
              preexec_fn=small_disk)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    (line,) = [ln for ln in done.stderr.splitlines() if ln.startswith("kg: error:")]
    assert "cannot write the build directory" in line and "File too large" in line
    assert snapshot(graph) == before
    assert leftovers(graph.parent, "graph") == []


@pytest.mark.parametrize("case", ["parent-is-a-file", "target-is-a-file"])
def test_faults_unwritable_output_is_one_clear_error(tmp_path: Path, case: str) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("not a directory\n", encoding="utf-8")
    target = blocker / "graph" if case == "parent-is-a-file" else blocker
    done = kg("build", str(SEEDS), "-o", str(target), "--workers", "1")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    (line,) = [ln for ln in done.stderr.splitlines() if ln.startswith("kg: error:")]
    assert str(target) in line or str(blocker) in line
    assert blocker.read_text(encoding="utf-8") == "not a directory\n"


def test_faults_two_updates_at_once_both_land_and_the_graph_is_whole(
        seed_build: Path, tmp_path: Path) -> None:
    graph = copy_build(seed_build, tmp_path / "graph")
    papers = read_papers([str(SEEDS)])
    news = []
    for k in range(2):
        path = tmp_path / f"new{k}.jsonl"
        path.write_text("".join(
            json.dumps({"id": f"new{k}-{i}", "title": f"New {k}.{i}",
                        "abstract": f"{p.abstract} Extended in part {k}."}) + "\n"
            for i, p in enumerate(papers[k * 5 : k * 5 + 5])), encoding="utf-8")
        news.append(path)
    procs = [subprocess.Popen([*KG, "build", "--update", str(graph), str(path), "--workers", "1"],
                              cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for path in news]
    results = [(p.wait(timeout=600), p.communicate()[1]) for p in procs]
    # The lock serializes them: one waits for the other, and both land.
    assert [rc for rc, _ in results] == [0, 0], results
    ids = [json.loads(line)["id"] for line in (graph / "extractions.jsonl").read_text().splitlines()]
    assert len(ids) == 60 and len(set(ids)) == 60
    assert {f"new{k}-{i}" for k in range(2) for i in range(5)} <= set(ids)
    assert leftovers(graph.parent, "graph") == []
