"""The whole graph of the seed abstracts, held against a reviewed Turtle file.

``tests/data/golden/seeds_graph.ttl`` is the ``graph.ttl`` of ``kg build seeds/`` run in the
checkout, reviewed when it was written. The real build of the seeds (the session fixture
``seed_graph_dir``: real readers, spaCy pipeline, extractors, resolution, assembly and writer)
must give the same RDF graph, compared by isomorphism (``rdflib.compare.isomorphic``), not by
text. On a difference the test prints the first triples only in each graph.

When the graph is meant to change, regenerate the file with one command and review its diff in
the same commit::

    make golden        # runs tools/golden_seeds.py, then: git diff tests/data/golden/
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rdflib import Graph, Literal
from rdflib.compare import graph_diff, isomorphic, to_isomorphic

from kg.graphdir import GRAPH_TTL
from kg.vocab import KG
from tests.fixtures.graph import REPO

pytestmark = pytest.mark.integration

GOLDEN = REPO / "tests" / "data" / "golden" / "seeds_graph.ttl"
SHOWN = 20


def _relative_sources(rdf_graph: Graph) -> Graph:
    """The fixture builds ``REPO/seeds``; the golden file records ``seeds/…`` as ``kg build seeds/``
    in the checkout does. Only ``kg:inputSource`` holds the input path."""
    prefix = f"{REPO}/"
    for s, p, o in list(rdf_graph.triples((None, KG.inputSource, None))):
        if isinstance(o, Literal) and str(o).startswith(prefix):
            rdf_graph.remove((s, p, o))
            rdf_graph.add((s, p, Literal(str(o)[len(prefix) :], datatype=o.datatype, lang=o.language)))
    return rdf_graph


def _lines(rdf_graph: Graph, prefixes: Graph) -> list[str]:
    return sorted(" ".join(term.n3(prefixes.namespace_manager) for term in t) for t in rdf_graph)


def test_golden_seeds_graph_is_the_reviewed_one(seed_graph_dir: Path) -> None:
    built = _relative_sources(Graph().parse(seed_graph_dir / GRAPH_TTL, format="turtle"))
    golden = Graph().parse(GOLDEN, format="turtle")
    if isomorphic(built, golden):
        return
    _both, only_built, only_golden = graph_diff(to_isomorphic(built), to_isomorphic(golden))
    report = [f"the seeds graph differs from {GOLDEN.relative_to(REPO)} "
              f"({len(built)} triples built, {len(golden)} golden); if meant, run `make golden` and "
              f"review the diff"]
    for name, diff in (("only in the build", only_built), ("only in the golden file", only_golden)):
        lines = _lines(diff, golden)
        shown = f", the first {SHOWN}" if len(lines) > SHOWN else ""
        report.append(f"{name}: {len(lines)} triples{shown}:")
        report.extend(f"  {line}" for line in lines[:SHOWN])
    pytest.fail("\n".join(report), pytrace=False)
