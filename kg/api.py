"""kg from Python: build or load a graph, then read it, query it, rank related work, draw it, export it.

::

    import kg

    graph = kg.build("seeds/")                      # in memory; output="out/" writes a build directory
    graph = kg.load("out/")                         # a build directory, read as needed
    len(graph.papers), graph.papers[0].entities     # records: id, title, abstract, entities, bounds
    graph.rdf, graph.nx                             # an rdflib.Graph, a networkx.MultiDiGraph
    graph.related("p-9898d1ffb550", top=5)          # results with .id, .score, .explanation
    graph.query("SELECT ?t WHERE { ?p a kg:Paper ; dcterms:title ?t }").rows
    net = graph.to_pyvis(view="papers")             # a pyvis.network.Network
    graph.write_html("graph.html")                  # the offline page of ``kg export html``
    graph.to_neo4j("bolt://localhost:7687", auth=("neo4j", "secret"))

A graph loaded from a directory reads each file the first time it is needed (``graph.ttl`` for
``rdf`` and SPARQL, ``graph.json`` for ``nx`` and Cypher, ``extractions.jsonl`` for ``papers``),
so ``kg.load`` itself is instant. The ``kg`` command line is a layer over this module: each command
that builds, loads, queries, ranks or exports calls what is here. ``docs/python-api.md`` walks
through it on the seeds.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from kg.errors import ConfigError, GraphDirError
from kg.types import Extraction, Paper

if TYPE_CHECKING:
    from networkx import MultiDiGraph
    from pyvis.network import Network
    from rdflib import Graph

    from kg.assemble import LinkConfig
    from kg.builder import BuildResult
    from kg.export.cypher import CypherExport
    from kg.export.html import HtmlPage
    from kg.export.neo4j import Neo4jExport
    from kg.export.neo4j_csv import Neo4jCsvExport
    from kg.export.rdf import RdfExport
    from kg.export.tables import TableExport
    from kg.graphdir import NodeLink
    from kg.pipeline import Pipeline
    from kg.query import NamedQuery, QueryResult
    from kg.related import BridgePaper, MethodPapers, Related, RelatedIndex, RelatedWeights

Input: TypeAlias = str | Path | Mapping[str, Any] | Paper
Weights: TypeAlias = "RelatedWeights | str | Path | None"
_NAME = re.compile(r"[\w-]+")  # a bare name is a named query: no SPARQL or Cypher query is one word
_CYPHER_START = re.compile(r"^\s*(MATCH|OPTIONAL\s+MATCH|CALL|WITH|UNWIND|RETURN)\b", re.IGNORECASE)


def _inputs(inputs: Input | Iterable[Input]) -> list[Any]:
    single = isinstance(inputs, str | PathLike | Mapping | Paper)  # a Path is one
    return [inputs] if single else list(inputs)  # type: ignore[arg-type]


def build(
    inputs: Input | Iterable[Input],
    *,
    output: str | Path | None = None,
    workers: int | None = 2,
    skip_bad: bool = False,
    fmt: str | None = None,
    spacy_model: str | None = None,
    config: LinkConfig | None = None,
    progress: Callable[[int], None] | None = None,
    on_start: Callable[[int], None] | None = None,
    **options: Any,
) -> KnowledgeGraph:
    """Build the knowledge graph of ``inputs``, in memory or into the build directory ``output``.

    Args:
        inputs: a path, a glob, a directory, ``-`` (stdin), a record (a dict with ``abstract`` and
            optional ``id``, ``title``, ``authors``, ``year``, ``venue``, ``url``, or a
            :class:`kg.types.Paper`), or a list of them.
        output: the build directory to write (replaced atomically, as ``kg build -o``); None
            builds in memory and writes nothing.
        workers: extraction processes (None: both cores).
        skip_bad: skip bad records (listed in ``graph.run.report``) instead of raising.
        fmt: force the input format (``seeds``, ``jsonl``, ``json``, ``csv``, ``tsv``, ``bibtex``).
        spacy_model: the spaCy pipeline to load first.
        config: link and topic settings (:class:`kg.assemble.LinkConfig`).
        progress: called with the number of papers done; ``on_start`` once with their number.
        options: the other options of :func:`kg.builder.build_graph` (``engine``, ``scheduler``,
            ``use_cache`` with ``output`` …).

    Returns:
        The :class:`KnowledgeGraph`; ``graph.run`` says what the build did.

    Raises:
        InputError: bad input (unless ``skip_bad``), naming the file and record.
        GraphDirError: ``output`` cannot be written or is locked.
    """
    common = {"fmt": fmt, "skip_bad": skip_bad, "workers": workers, "spacy_model": spacy_model,
              "config": config, "progress": progress, "on_start": on_start, **options}
    if output is None:
        from kg.builder import build_in_memory

        run, records, nx_graph = build_in_memory(_inputs(inputs), **common)
        return KnowledgeGraph(nx_graph=nx_graph, records=records, run=run, config=config)
    from kg.builder import build_graph

    return KnowledgeGraph(output, run=build_graph(_inputs(inputs), output, **common))


def load(directory: str | Path) -> KnowledgeGraph:
    """The knowledge graph of a build directory (``kg build -o DIR``); its files are read when needed.

    Raises:
        GraphDirError: ``directory`` is not a directory.
    """
    if not Path(directory).is_dir():
        raise GraphDirError(f"{directory}: not a graph directory (run `kg build INPUT -o {directory}`)")
    return KnowledgeGraph(directory)


def update(directory: str | Path, inputs: Input | Iterable[Input], **options: Any) -> KnowledgeGraph:
    """Add the papers of ``inputs`` to a build directory without re-extracting it (``kg build
    --update``); ``options`` are :func:`kg.builder.update_graph`'s (``compact=True`` …)."""
    from kg.builder import update_graph

    return KnowledgeGraph(directory, run=update_graph(directory, _inputs(inputs), **options))


def compact(directory: str | Path) -> KnowledgeGraph:
    """Fold a build directory's pending additions into its graph (``kg compact``)."""
    from kg.builder import compact_graph

    return KnowledgeGraph(directory, run=compact_graph(directory))


def remove(directory: str | Path, paper_ids: Sequence[str]) -> KnowledgeGraph:
    """Remove papers, and what only they supported, from a build directory (``kg remove``)."""
    from kg.builder import remove_papers

    return KnowledgeGraph(directory, run=remove_papers(directory, paper_ids))


@functools.cache
def _pipeline(spacy_model: str | None) -> Pipeline:
    from kg.pipeline import load_pipeline

    return load_pipeline(spacy_model)


def extract(record: str | Mapping[str, Any] | Paper, *, spacy_model: str | None = None) -> Extraction:
    """Extract one paper's entities and bounds (``kg extract`` for one record), nothing written.

    Args:
        record: an abstract's text, a dict with ``abstract`` (and optional ``id``, ``title`` …),
            or a :class:`kg.types.Paper`.
        spacy_model: the spaCy pipeline to load first (loaded once per process).

    Raises:
        InputError: a record without an abstract, or one kg cannot read.
    """
    from kg.ingest import read_papers

    if isinstance(record, str):
        record = {"abstract": record}
    paper = record if isinstance(record, Paper) else read_papers([record])[0]
    return _pipeline(spacy_model).extract_one(paper)


def named_queries() -> dict[str, NamedQuery]:
    """The named example queries of ``kg/queries/``, by name, for :meth:`KnowledgeGraph.query`."""
    from kg.query import named_queries as found

    return found()


class KnowledgeGraph:
    """A kg graph: its paper records, its RDF and networkx forms, and what can be done with them.

    Made by :func:`build` or :func:`load`. ``directory`` is the build directory (None for a graph
    built in memory); ``run`` is what the build that made it did (a :class:`kg.builder.BuildResult`
    with the run report; None for a loaded graph).
    """

    def __init__(
        self,
        directory: str | Path | None = None,
        *,
        nx_graph: MultiDiGraph | None = None,
        records: Sequence[Extraction] | None = None,
        run: BuildResult | None = None,
        config: LinkConfig | None = None,
    ) -> None:
        if directory is None and (nx_graph is None or records is None):
            raise ConfigError("a KnowledgeGraph needs a build directory, or a graph and its records")
        self.directory = Path(directory) if directory is not None else None
        self.run = run
        self._nx = nx_graph
        self._papers = list(records) if records is not None else None
        self._config = config
        self._rdf: Graph | None = None
        self._node_link: NodeLink | None = None
        self._indexes: dict[str, RelatedIndex] = {}

    def __repr__(self) -> str:
        where = f"in {self.directory}" if self.directory is not None else "in memory"
        return f"<KnowledgeGraph {where}>"

    # ----------------------------------------------------------------------------- the graph

    @property
    def papers(self) -> list[Extraction]:
        """Every paper's record, sorted by id: ``.id``, ``.title``, ``.abstract``, ``.paper`` (venue,
        year, authors …), ``.entities`` (typed mentions with their spans) and ``.bounds``."""
        if self._papers is None:
            from kg.graphdir import load_extractions

            self._papers = load_extractions(self._dir())
        return self._papers

    @property
    def nx(self) -> MultiDiGraph:
        """The networkx graph: nodes ``paper:<id>``, ``<Type>:<slug>``, ``bound:<id>:<n>`` with a
        ``kind``; edges keyed by their ontology property (``predicate``)."""
        if self._nx is None:
            from kg.graphdir import load_nx

            self._nx = load_nx(self._dir())
        return self._nx

    @property
    def rdf(self) -> Graph:
        """The RDF graph (rdflib), on the ontology of ``schema/ontology.ttl``."""
        if self._rdf is None:
            if self.directory is not None:
                from kg.graphdir import load_rdf

                self._rdf = load_rdf(self.directory)
            else:
                from kg.assemble import to_rdflib

                self._rdf = to_rdflib(self.nx)
        return self._rdf

    def stats(self, top: int = 10) -> dict[str, Any]:
        """Counts per type, the top entities, bounds, topics (``kg stats``: :func:`kg.stats.graph_stats`)."""
        from kg.assemble import LinkConfig
        from kg.stats import graph_stats

        manifest: dict[str, Any] = {}
        if self.directory is not None:
            from kg.graphdir import load_manifest

            manifest = load_manifest(self.directory)
        config = self._config or LinkConfig(**manifest.get("links", {}))
        stats = graph_stats(self.nx, top=top, config=config)
        stats["pending"] = int((manifest.get("pending") or {}).get("papers", 0))
        return stats

    def _dir(self) -> Path:
        if self.directory is None:
            raise ConfigError("this graph was built in memory: it has no build directory")
        return self.directory

    # ----------------------------------------------------------------------------- queries

    def query(
        self,
        text: str,
        /,
        *,
        language: str | None = None,
        params: Mapping[str, Any] | None = None,
        neo4j: str | None = None,
        auth: tuple[str, str] | None = None,
        database: str | None = None,
        **values: Any,
    ) -> QueryResult:
        """Run a SPARQL or Cypher query, or a named query, over the graph: its rows.

        Args:
            text: a SPARQL query (the ontology prefixes are declared), a Cypher query, or the name
                of a query in :func:`named_queries` (``"regret-lower-bounds"``; a single word is
                always taken for a name).
            language: ``sparql`` or ``cypher``; by default a named query's SPARQL form, a query
                starting with MATCH, OPTIONAL MATCH, CALL, WITH, UNWIND or RETURN is Cypher, any
                other SPARQL.
            params, values: the query's parameters (``?name`` in SPARQL, ``$name`` in Cypher),
                bound as parameters, never pasted into the text; ``params`` for names this
                method takes itself.
            neo4j, auth, database: run Cypher on this Neo4j server instead of embedded.

        Returns:
            A :class:`kg.query.QueryResult`: ``columns`` and ``rows`` (``to_json()``: one dict per row).

        Raises:
            QueryError: the query does not parse or fails, or a parameter is missing or unsafe.
        """
        from kg.query import run_named, run_query

        bound = {**(params or {}), **values}
        server = {"neo4j_uri": neo4j, "neo4j_user": auth[0] if auth else None,
                  "neo4j_password": auth[1] if auth else None, "neo4j_database": database}
        if _NAME.fullmatch(text.strip()):
            raw = {k: str(v) for k, v in bound.items()}
            return run_named(self, text.strip(), raw, language, **server)
        lang = language or ("cypher" if _CYPHER_START.match(text) else "sparql")
        return run_query(self, lang, text, bound, **server)

    # ----------------------------------------------------------------------------- related work

    def related_index(self, weights: Weights = None,
                      progress: Callable[[int, int], None] | None = None) -> RelatedIndex:
        """The related-work index (:class:`kg.related.RelatedIndex`), made once per weights.

        A build directory's saved index is used when it holds (:func:`kg.related.load_index`);
        ``progress(done, total)`` is called while the sentence encoder runs.
        """
        from kg.related import RelatedWeights, build_index, load_index

        chosen = weights if isinstance(weights, RelatedWeights) else (
            RelatedWeights.from_file(weights) if weights else RelatedWeights())
        key = json.dumps(chosen.to_json(), sort_keys=True)
        if key not in self._indexes:
            if self.directory is not None:
                self._indexes[key] = load_index(self.directory, chosen, progress)
            else:
                self._indexes[key] = build_index(self.nx, chosen, progress=progress)
        return self._indexes[key]

    def write_related_index(self, weights: Weights = None,
                            progress: Callable[[int, int], None] | None = None) -> Path:
        """Save the related-work index beside the graph (``kg related --write-index``): its path."""
        from kg.related import RelatedWeights, write_index

        chosen = weights if isinstance(weights, RelatedWeights) or weights is None else (
            RelatedWeights.from_file(weights))
        return write_index(self._dir(), chosen, progress)

    def related(self, paper: str | Paper | Extraction | Mapping[str, Any], top: int = 10, *,
                weights: Weights = None, spacy_model: str | None = None) -> list[Related]:
        """The ``top`` papers most related to ``paper``, best first, each with why.

        Args:
            paper: a paper of the graph (its id, ``paper:`` node id, a title substring, or its
                record from :attr:`papers`), or a record of a paper not in it (a
                :class:`kg.types.Paper`, a dict with ``abstract``, an :func:`extract` result),
                ranked by :meth:`related_text`.
            top: how many results.
            weights: :class:`kg.related.RelatedWeights`, or a JSON file of them.
            spacy_model: the spaCy pipeline for a paper not in the graph.

        Returns:
            :class:`kg.related.Related` results: ``.id``, ``.title``, ``.score``, ``.signals``
            and the evidence, read as one phrase by ``.explanation``.

        Raises:
            QueryError: ``paper`` names no paper of the graph, or several.
            ConfigError: ``top`` is below 1, or bad weights.
        """
        index = self._ranking(top, weights)
        if isinstance(paper, str):
            return index.related(paper, top)
        pid = paper.get("id") if isinstance(paper, Mapping) else paper.id
        if pid in index.row_of:
            return index.related(str(pid), top)
        return self.related_text(paper, top, weights=weights, spacy_model=spacy_model)

    def related_text(self, abstract: str | Paper | Extraction | Mapping[str, Any], top: int = 10, *,
                     weights: Weights = None, spacy_model: str | None = None) -> list[Related]:
        """The ``top`` papers of the graph most related to an abstract taken as NOT in it (even when
        it is: the paper itself is never a result), extracted here and not added (``kg related
        --text``). ``abstract`` is its text or a record, as :func:`extract` takes it."""
        index = self._ranking(top, weights)
        if not isinstance(abstract, Extraction):
            abstract = extract(abstract, spacy_model=spacy_model)
        return index.related_text(abstract, top)

    def _ranking(self, top: int, weights: Weights) -> RelatedIndex:
        if top < 1:
            raise ConfigError(f"related: top must be at least 1, got {top}")
        return self.related_index(weights)

    def related_all(self, top: int = 10, *, weights: Weights = None) -> Iterator[tuple[str, list[Related]]]:
        """Every paper's id with its ``top`` related papers, in id order (``kg related --all``)."""
        return self.related_index(weights).related_all(top)

    def method_papers(self, name: str, *, weights: Weights = None) -> MethodPapers:
        """The papers that propose, then use, a Method (``kg related --method``)."""
        return self.related_index(weights).by_method(name)

    def bridge(self, a: str, b: str, top: int = 10, *, weights: Weights = None) -> list[BridgePaper]:
        """Papers linking two topics (``topic:N``) or entities (``kg related --bridge``)."""
        return self.related_index(weights).bridge(a, b, top)

    # ----------------------------------------------------------------------------- drawing

    def to_pyvis(self, **options: Any) -> Network:
        """One view of the graph as a :class:`pyvis.network.Network` (:func:`kg.export.pyvis.to_network`:
        ``view``, ``max_nodes``, ``max_edges`` and pyvis's own ``height``, ``width``, ``notebook`` …)."""
        from kg.export.pyvis import to_network

        return to_network(self.nx, **options)

    def write_html(self, path: str | Path, **options: Any) -> HtmlPage:
        """Write the offline, self-contained page (``kg export html``; ``view``, ``max_nodes``,
        ``max_edges``): what it drew."""
        from kg.export.html import export_html, write_html

        if self.directory is not None and self._nx is None:
            return export_html(self.directory, path, **options)
        return write_html(self.nx, path, **options)

    # ----------------------------------------------------------------------------- exports

    def to_neo4j(self, uri: str, auth: tuple[str, str] | None = None, **options: Any) -> Neo4jExport:
        """Write the graph into the Neo4j at ``uri`` (MERGE: a re-run changes nothing).

        ``auth`` is ``(user, password)`` (None: no authentication); ``options`` are
        :func:`kg.export.neo4j.export_neo4j`'s (``database``, ``replace``, ``batch_size``,
        ``sessions``, ``progress`` …). Returns what was written and the counts read back.
        """
        from kg.export.neo4j import export_neo4j

        user, password = auth if auth else (None, None)
        return export_neo4j(self.items(), uri, user=user, password=password, **options)

    def write_rdf(self, path: str | Path | None, format: str = "turtle") -> tuple[RdfExport, bytes]:
        """The RDF graph as Turtle, N-Triples, JSON-LD or RDF/XML (``kg export rdf``), written to
        ``path`` (None: only returned): what was written, and the bytes when ``path`` is None."""
        from kg.export.rdf import export_rdf

        return export_rdf(self.rdf, None if path is None else str(path), format)

    def write_graphml(self, path: str | Path) -> TableExport:
        """GraphML for Gephi, yEd or Cytoscape (``kg export graphml``)."""
        from kg.export.tables import export_graphml

        return export_graphml(self.nx, path)

    def write_gexf(self, path: str | Path) -> TableExport:
        """GEXF 1.2 for Gephi (``kg export gexf``)."""
        from kg.export.tables import export_gexf

        return export_gexf(self.nx, path)

    def write_csv(self, directory: str | Path) -> TableExport:
        """``nodes.csv`` and ``edges.csv`` in ``directory`` (``kg export csv``)."""
        from kg.export.tables import export_csv

        return export_csv(self.nx, directory)

    def write_cypher(self, path: str | Path, **options: Any) -> CypherExport:
        """A parameterized Cypher script for ``cypher-shell -f`` (``kg export cypher``)."""
        from kg.export.cypher import export_cypher

        return export_cypher(self.nx, path, **options)

    def write_neo4j_csv(self, directory: str | Path, **options: Any) -> Neo4jCsvExport:
        """CSV files for ``neo4j-admin database import full``, and its command (``kg export neo4j-csv``)."""
        from kg.export.neo4j_csv import export_neo4j_csv

        return export_neo4j_csv(self.nx, directory, **options)

    def items(self) -> NodeLink | MultiDiGraph:
        """The graph's nodes and edges for an exporter that only streams them out: the networkx
        graph when it is in hand, else :class:`kg.graphdir.NodeLink` lists read straight from
        ``graph.json`` (a third less time than building networkx's adjacency on a large graph)."""
        if self._nx is not None or self.directory is None:
            return self.nx
        if self._node_link is None:
            from kg.graphdir import load_node_link

            self._node_link = load_node_link(self.directory)
        return self._node_link
