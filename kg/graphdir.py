"""The build directory: write it atomically, lock it, read it back.

Layout (the graph contract)::

    DIR/graph.ttl          RDF (ontology terms), Turtle in a fixed layout: a block per subject
    DIR/extractions.jsonl  one Extraction.to_json() per paper, sorted by paper id
    DIR/graph.json         networkx node-link JSON (edges="edges")
    DIR/manifest.json      input hashes, extractor versions, counts per type, run report
    DIR/pending-<g>.jsonl  records an update added since the last full assembly (kg.pending)
    DIR/pending-<g>.json   their delta graph (node-link), laid over graph.json by every reader

A build writes everything into a sibling temp directory and renames it into place, so a crash
never leaves half a graph; an update that only adds papers writes the two pending files of the
next generation ``g`` and then replaces the manifest, which names the generation, so a crash
before that leaves the previous state (the readers ignore files of another generation).
``DIR.lock`` (a sibling, since ``DIR`` itself is replaced) serializes concurrent writers
(``kg build --update``, ``kg remove``, ``kg compact``). Nothing here depends on the time or the
machine: the same graph gives the same bytes.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import os
import re
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import networkx as nx
import orjson
from rdflib import BNode, Graph, Literal, URIRef

from kg.assemble import Text, decimal_lexical
from kg.errors import GraphDirError
from kg.memory import gc_paused
from kg.nodelink import node_items, write_node_link
from kg.pending import BaseGraph, overlay
from kg.types import Extraction
from kg.vocab import PREFIXES, XSD

GRAPH_TTL = "graph.ttl"
EXTRACTIONS = "extractions.jsonl"
GRAPH_JSON = "graph.json"
MANIFEST = "manifest.json"
# The related-work index kg.related saves beside the graph. A rewrite of the directory keeps it
# (CARRIED): it is stale once the graph changes, but the sentence-encoder vectors it holds are
# reused for every paper whose text did not change, and encoding is the costly part of an index.
RELATED_INDEX = "related-index.npz"
CARRIED = (RELATED_INDEX,)
FILES: tuple[str, ...] = (GRAPH_TTL, EXTRACTIONS, GRAPH_JSON, MANIFEST)
_PENDING_FILE = re.compile(r"^pending-\d+\.jsonl?$")
FORMAT_VERSION = 1

# ------------------------------------------------------------------------------ Turtle writing

# Namespace → prefix (see _iri_text for why one lookup finds a term's).
_PREFIX_OF = {ns: prefix for prefix, ns in PREFIXES.items()}
_PN_LOCAL = re.compile(r"^[A-Za-z0-9_](?:[A-Za-z0-9_\-.]*[A-Za-z0-9_\-])?$")
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
_NEEDS_ESCAPE = re.compile(r'[\\"\n\r\t\b\f\x00-\x1f\x7f]')


def _escape_char(match: re.Match[str]) -> str:
    c = match.group(0)
    return _ESCAPES.get(c) or f"\\u{ord(c):04X}"


def _iri_text(term: str) -> str:
    """The Turtle form of IRI ``term``: a prefixed name where one fits, else ``<…>``.

    Every namespace of :data:`kg.vocab.PREFIXES` ends in "/" or "#" and a prefixed name's local
    part holds neither, so the one namespace that can fit is the term up to its last "/" or "#":
    a dictionary lookup instead of a test of every namespace.
    """
    cut = max(term.rfind("/"), term.rfind("#")) + 1
    prefix = _PREFIX_OF.get(term[:cut])
    if prefix is not None and _PN_LOCAL.match(local := term[cut:]):
        return f"{prefix}:{local}"
    return "<" + term.replace(">", "%3E").replace(" ", "%20") + ">"


# Objects repeat (an entity is the object of each of its mentions), subjects do not: each is
# rendered once, uncached, by turtle_lines. A cache of every IRI of the 22k-paper graph held
# 10^6 strings (a quarter of a gigabyte) for subjects never seen again.
_iri = functools.lru_cache(maxsize=1 << 18)(_iri_text)


def _string(text: str) -> str:
    return '"' + _NEEDS_ESCAPE.sub(_escape_char, text) + '"'


def _term(term: Any) -> str:
    """Turtle for an object of :func:`kg.assemble.rdf_triples` (plain ``str`` = IRI) or an rdflib term."""
    kind = type(term)
    # exact-type checks first: millions of calls, and isinstance on rdflib's ABCs is slow
    if kind is str:
        return _iri(term)
    if kind is Text:  # a string literal
        return _string(term)
    if kind is int:
        return str(term)
    if kind is float:  # a Turtle DECIMAL, the literal's exact digits (kg.assemble.decimal_lexical)
        return decimal_lexical(term)
    if kind is bool:
        return "true" if term else "false"
    if isinstance(term, URIRef):
        return _iri(str(term))
    if isinstance(term, Literal):
        lex = _string(str(term))
        if term.language:
            return f"{lex}@{term.language}"
        dt = term.datatype
        if dt is None or dt == XSD.string:
            return lex
        if dt in (XSD.integer, XSD.boolean):
            return str(term)
        return f"{lex}^^{_iri(str(dt))}"
    if isinstance(term, str):
        return _string(term)
    if isinstance(term, tuple) and len(term) == 2:  # kg.assemble.TypedLiteral
        return f"{_string(term[0])}^^{_iri(str(term[1]))}"
    if isinstance(term, BNode):
        raise GraphDirError(f"blank node {term!r} in the graph: every node must have an IRI")
    raise GraphDirError(f"not an RDF term: {term!r}")


def turtle_lines(triples: Iterable[tuple[Any, Any, Any]]) -> Iterator[str]:
    """Turtle in a fixed layout, streamed: the prefix block, then one block per run of triples
    with the same subject (its predicate–object pairs in triple order, duplicates once).

    The same triples in the same order give the same bytes. ``kg.assemble.rdf_triples`` yields
    in graph order (sorted by node id), each subject's triples together, so there is neither a
    global sort of millions of lines nor the whole file in memory.
    """
    for prefix, ns in sorted(PREFIXES.items()):
        yield f"@prefix {prefix}: <{ns}> .\n"
    subject: str | None = None
    block: dict[str, None] = {}
    last: Any = None
    this = ""
    for s, p, o in triples:
        if s != last:  # a subject's triples come together: render it once
            last = s
            this = _iri_text(s if type(s) is str else str(s))
        if this != subject:
            if subject is not None:
                yield f"\n{subject}\n    " + " ;\n    ".join(block) + " .\n"
            subject, block = this, {}
        block[f"{_iri(p if type(p) is str else str(p))} {_term(o)}"] = None
    if subject is not None:
        yield f"\n{subject}\n    " + " ;\n    ".join(block) + " .\n"


# ------------------------------------------------------------------------------ atomic writes


@contextlib.contextmanager
def lock(directory: str | Path, wait: bool = True) -> Iterator[None]:
    """Hold the exclusive lock of the graph directory ``directory`` (file ``DIR.lock``).

    Raises:
        GraphDirError: when ``wait`` is false and another process holds the lock.
    """
    path = Path(str(Path(directory)) + ".lock")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a+")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise GraphDirError(f"{directory}: cannot create the build directory's lock {path}: "
                            f"{exc.strerror or exc}") from None
    with handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            raise GraphDirError(f"{directory}: locked by another kg process ({path})") from None
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _dump_json(obj: Any) -> bytes:
    return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n"


Triples = Iterable[tuple[Any, Any, Any]]


def write_graph_dir(
    directory: str | Path,
    extractions: Iterable[Extraction],
    nx_graph: nx.MultiDiGraph,
    triples: Triples,
    manifest: dict[str, Any],
    counts: dict[str, dict[str, int]] | None = None,
) -> Path:
    """Write a complete build directory atomically (temp dir + rename).

    Args:
        directory: the build directory; replaced as a whole if it exists.
        extractions: the per-paper records (written sorted by paper id).
        nx_graph: the assembled graph (written as node-link JSON).
        triples: its RDF triples (written as canonical Turtle, streamed).
        manifest: the manifest; ``counts`` (nodes per kind, edges per predicate) is added here.
        counts: :func:`graph_counts` of ``nx_graph`` when the caller has it (computed otherwise).

    Returns:
        The directory path.

    Raises:
        GraphDirError: when the directory cannot be written.
    """
    target = Path(directory)
    if target.exists() and not target.is_dir():
        raise GraphDirError(f"{target}: exists and is not a directory")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.tmp-", dir=target.parent))
    except OSError as exc:
        raise GraphDirError(f"{target}: cannot create the build directory: {exc}") from exc
    try:
        counts = counts or graph_counts(nx_graph)
        with open(tmp / EXTRACTIONS, "wb") as fh:
            for ext in sorted(extractions, key=lambda e: e.paper.id):
                fh.write(orjson.dumps(ext.to_json()) + b"\n")
        with open(tmp / GRAPH_JSON, "wb") as fh:
            write_node_link(fh, nx_graph)
        # One process: a forked renderer shares this one's pages, and a process tree holding the
        # assembled graph twice over was the build's peak memory.
        with open(tmp / GRAPH_TTL, "w", encoding="utf-8") as fh:
            fh.writelines(turtle_lines(triples))
        full = dict(manifest)
        full["format"] = FORMAT_VERSION
        full["counts"] = counts
        full["bytes"] = {name: (tmp / name).stat().st_size for name in (EXTRACTIONS, GRAPH_JSON, GRAPH_TTL)}
        (tmp / MANIFEST).write_bytes(_dump_json(full))
        os.chmod(tmp, 0o755)
        _carry_over(target, tmp)
        old = None
        if target.exists():
            old = target.with_name(f".{target.name}.old-{os.getpid()}")
            os.rename(target, old)
        os.rename(tmp, target)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise GraphDirError(f"{target}: cannot write the build directory: {exc}") from exc
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return target


def _carry_over(target: Path, tmp: Path) -> None:
    """Link the :data:`CARRIED` files of the directory being replaced into its replacement (a
    cache only: a file that cannot be linked or copied is left behind)."""
    for name in CARRIED:
        source = target / name
        if not source.is_file():
            continue
        try:
            os.link(source, tmp / name)
        except OSError:
            with contextlib.suppress(OSError):
                shutil.copyfile(source, tmp / name)


def graph_counts(nx_graph: nx.MultiDiGraph) -> dict[str, dict[str, int]]:
    """Nodes per kind and edges per predicate, sorted by name."""
    nodes = Counter(d["kind"] for _n, d in nx_graph.nodes(data=True))
    edges = Counter(k for _u, _v, k in nx_graph.edges(keys=True))
    return {"nodes": dict(sorted(nodes.items())), "edges": dict(sorted(edges.items()))}


def rdf_counts(rdf_graph: Graph) -> dict[str, dict[str, int]]:
    """Like :func:`graph_counts`, read from an RDF graph: resources per node class (Paper,
    entities, Bound) and triples per object property of the graph contract.

    For the agreement check: ``rdf_counts(load_rdf(d)) == graph_counts(load_nx(d))``.
    """
    from rdflib import RDF

    from kg.vocab import CLASSES, EDGE_PROPERTIES, class_iri, prop_iri

    nodes = {}
    for cls in CLASSES:
        if cls == "Mention":
            continue
        count = len(set(rdf_graph.subjects(RDF.type, class_iri(cls))))
        if count:
            nodes[cls] = count
    edges = {}
    for prop in EDGE_PROPERTIES:
        count = sum(1 for _ in rdf_graph.triples((None, prop_iri(prop), None)))
        if count:
            edges[prop] = count
    return {"nodes": dict(sorted(nodes.items())), "edges": dict(sorted(edges.items()))}


# ------------------------------------------------------------------------------------ reading


def _require(directory: str | Path, name: str) -> Path:
    path = Path(directory) / name
    if not Path(directory).is_dir():
        raise GraphDirError(f"{directory}: not a graph directory (run `kg build INPUT -o {directory}`)")
    if not path.is_file():
        raise GraphDirError(f"{directory}: incomplete graph directory, {name} is missing")
    return path


def _whole(directory: str | Path, name: str, manifest: dict[str, Any] | None = None) -> Path:
    """A data file of a build directory, of the byte size its manifest (read here unless given)
    records, when it records one: a copy cut short between two Turtle statements still parses,
    and would answer queries from part of the graph."""
    path = _require(directory, name)
    if manifest is None:
        if not (Path(directory) / MANIFEST).is_file():
            return path  # a graph file written alone (a test fixture, a hand-made graph.json)
        manifest = load_manifest(directory)
    expected = (manifest.get("bytes") or {}).get(name)
    size = path.stat().st_size
    if isinstance(expected, int) and size != expected:
        raise GraphDirError(f"{path}: {size} bytes, but the manifest records {expected}: the file was cut "
                            f"short or changed; rebuild the graph from its inputs")
    return path


def _read_json(path: Path) -> Any:
    try:
        return orjson.loads(path.read_bytes())
    except orjson.JSONDecodeError as exc:
        raise GraphDirError(f"{path}: not valid JSON: {exc}") from exc
    except OSError as exc:
        raise GraphDirError(f"{path}: cannot read: {exc.strerror or exc}") from None


def load_manifest(directory: str | Path) -> dict[str, Any]:
    """The manifest of a build directory."""
    data: dict[str, Any] = _read_json(_require(directory, MANIFEST))
    return data


def _read_node_link(path: Path) -> nx.MultiDiGraph:
    data = _read_json(path)
    try:
        g = nx.node_link_graph(data, directed=True, multigraph=True, edges="edges")
    except (KeyError, TypeError, AttributeError, nx.NetworkXError) as exc:
        raise GraphDirError(f"{path}: not node-link JSON of a multigraph: {exc!r}") from None
    if not isinstance(g, nx.MultiDiGraph):
        raise GraphDirError(f"{path}: not a directed multigraph")
    # node-link JSON keeps the node id under "id", which hides a paper's own `id` attribute:
    # restore it from the node id (``paper:<id>``).
    for node, attrs in g.nodes(data=True):
        if attrs.get("kind") == "Paper":
            attrs["id"] = node.partition(":")[2]
    return g


def pending_generation(directory: str | Path) -> int:
    """The generation of the pending additions the manifest names (0: none, or no manifest: a
    graph written by hand or an exporter's test needs only the file it reads)."""
    if not (Path(directory) / MANIFEST).is_file():
        return 0
    return int((load_manifest(directory).get("pending") or {}).get("generation", 0))


def _pending_path(directory: str | Path, generation: int, suffix: str) -> Path:
    path = Path(directory) / f"pending-{generation}{suffix}"
    if not path.is_file():
        raise GraphDirError(f"{directory}: incomplete graph directory, {path.name} (named by the "
                            f"manifest) is missing")
    return path


def load_delta(directory: str | Path) -> nx.MultiDiGraph | None:
    """The delta graph of a build directory's pending additions (:mod:`kg.pending`), if any."""
    generation = pending_generation(directory)
    return _read_node_link(_pending_path(directory, generation, ".json")) if generation else None


@gc_paused()
def load_base(directory: str | Path) -> Any:
    """What an update reads of a build directory's own ``graph.json`` (no pending delta): a
    :class:`kg.pending.BaseGraph`."""
    path = _whole(directory, GRAPH_JSON)
    data = _read_json(path)
    try:
        return BaseGraph.from_node_link(data)
    except (KeyError, TypeError, AttributeError) as exc:
        raise GraphDirError(f"{path}: not node-link JSON of the graph contract: {exc!r}") from None


@gc_paused()
def load_nx(directory: str | Path, pending: bool = True) -> nx.MultiDiGraph:
    """The networkx graph of a build directory: ``graph.json`` with the pending additions'
    delta laid over it (unless ``pending`` is false: the base graph alone)."""
    g = _read_node_link(_whole(directory, GRAPH_JSON))
    delta = load_delta(directory) if pending else None
    if delta is not None:
        overlay(g, delta)
    return g


@dataclass(frozen=True, slots=True)
class NodeLink:
    """A graph's nodes and edges as plain lists, without networkx (what the exporters read).

    ``nodes`` holds ``(node id, attributes)`` and ``edges`` ``(source, target, key, attributes)``,
    in graph order. :meth:`of` views a networkx graph this way; :func:`load_node_link` reads
    ``graph.json`` straight into it, which skips building networkx's adjacency dicts (a third
    of the load time of a 22k-paper graph) when all a command does is stream the items out.
    """

    nodes: list[tuple[str, dict[str, Any]]]
    edges: list[tuple[str, str, str, dict[str, Any]]]

    @classmethod
    def of(cls, graph: nx.MultiDiGraph | NodeLink) -> NodeLink:
        if isinstance(graph, NodeLink):
            return graph
        return cls(list(graph.nodes(data=True)), list(graph.edges(keys=True, data=True)))

    def __len__(self) -> int:
        return len(self.nodes) + len(self.edges)


@gc_paused()
def load_node_link(directory: str | Path) -> NodeLink:
    """The nodes and edges of a build directory's ``graph.json`` (same attributes as :func:`load_nx`)."""
    path = _require(directory, GRAPH_JSON)
    data = _read_json(path)
    try:
        nodes = node_items(data)
        edges = [(a.pop("source"), a.pop("target"), a.pop("key"), a) for a in data["edges"]]
    except (KeyError, TypeError, AttributeError) as exc:
        raise GraphDirError(f"{path}: not node-link JSON of a multigraph: {exc!r}") from None
    delta = load_delta(directory)
    if delta is not None:
        position = {node: i for i, (node, _a) in enumerate(nodes)}
        for node, attrs in delta.nodes(data=True):
            if node in position:
                nodes[position[node]] = (node, attrs)
            else:
                nodes.append((node, attrs))
        edges.extend(delta.edges(keys=True, data=True))
    return NodeLink(nodes, edges)


@gc_paused()
def load_rdf(directory: str | Path) -> Graph:
    """The RDF graph of a build directory (``graph.ttl``), ontology prefixes bound."""
    path = _whole(directory, GRAPH_TTL)
    rdf_graph = Graph(bind_namespaces="none")
    try:
        rdf_graph.parse(path, format="turtle")
    except Exception as exc:  # rdflib raises assorted parser errors
        raise GraphDirError(f"{path}: cannot parse the RDF graph: {exc}") from exc
    delta = load_delta(directory)
    if delta is not None:
        from kg.assemble import rdf_triples, to_term
        from kg.vocab import node_iri

        # A base node the delta holds is there with all its attributes (some changed): its
        # literals are replaced by the delta's; its links to other resources stay.
        for node in delta.nodes:
            subject = node_iri(node)
            for _s, p, o in list(rdf_graph.triples((subject, None, None))):
                if isinstance(o, Literal):
                    rdf_graph.remove((subject, p, o))
        rdf_graph.addN((URIRef(s), URIRef(p), to_term(o), rdf_graph) for s, p, o in rdf_triples(delta))
    return rdf_graph


def _read_records(path: Path) -> list[Extraction]:
    out: list[Extraction] = []
    with open(path, "rb") as fh:
        for line_no, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                out.append(Extraction.from_json(orjson.loads(line)))
            except (orjson.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
                raise GraphDirError(f"{path}: line {line_no}: bad extraction record: {exc}") from exc
    return out


def _counted_records(path: Path, expected: Any) -> list[Extraction]:
    """The records of ``path``, which must be as many as the manifest counts: a file cut short at a
    line end (a copy that stopped, a disk repaired) would otherwise lose papers silently, and a
    compaction or update would write the loss into the graph."""
    out = _read_records(path)
    if isinstance(expected, int) and len(out) != expected:
        raise GraphDirError(f"{path}: {len(out)} extraction record(s), but the manifest counts {expected}: "
                            f"the file was cut short or changed; rebuild the graph from its inputs")
    return out


def load_pending(directory: str | Path, manifest: dict[str, Any] | None = None) -> list[Extraction]:
    """The pending records of a build directory (papers an update added or gave new sources);
    ``manifest`` when the caller has read it."""
    pending = (load_manifest(directory) if manifest is None else manifest).get("pending") or {}
    generation = int(pending.get("generation", 0))
    if not generation:
        return []
    return _counted_records(_pending_path(directory, generation, ".jsonl"), pending.get("records"))


@gc_paused()
def load_extractions(directory: str | Path, pending: bool = True) -> list[Extraction]:
    """The per-paper extraction records of a build directory, sorted by paper id: the base's
    with the pending ones in place of the same papers' (unless ``pending`` is false).

    Raises:
        GraphDirError: a record that does not parse, or fewer or more records than the manifest
            counts papers.
    """
    manifest = load_manifest(directory)
    counts = (manifest.get("pending") or {}).get("base_counts") or manifest.get("counts") or {}
    out = _counted_records(_whole(directory, EXTRACTIONS, manifest), (counts.get("nodes") or {}).get("Paper"))
    extra = load_pending(directory, manifest) if pending else []
    if extra:
        replaced = {e.paper.id: e for e in extra}
        out = sorted([e for e in out if e.paper.id not in replaced] + extra, key=lambda e: e.paper.id)
    return out


def write_pending(
    directory: str | Path, records: Iterable[Extraction], delta: nx.MultiDiGraph, manifest: dict[str, Any]
) -> None:
    """Write the pending additions of a build directory: the records and delta graph of the next
    generation, then the manifest naming it (atomic replace), then drop the older generation.

    Args:
        directory: a complete build directory (its lock held by the caller).
        records: every pending record (the earlier generation's included).
        delta: their delta graph (:func:`kg.pending.assemble_pending`).
        manifest: the complete new manifest; the generation and the number of records are added
            to its ``pending``.

    Raises:
        GraphDirError: a file cannot be written; the directory is then as it was.
    """
    target = Path(directory)
    generation = pending_generation(target) + 1
    paths = [target / f"pending-{generation}.jsonl", target / f"pending-{generation}.json"]
    records = sorted(records, key=lambda e: e.paper.id)
    full = dict(manifest)
    full["format"] = FORMAT_VERSION
    sizes = load_manifest(target).get("bytes")
    if sizes is not None:
        full["bytes"] = sizes  # the graph files stay as they are
    full["pending"] = {
        **(manifest.get("pending") or {}),
        "generation": generation,
        "records": len(records),
    }
    try:
        for path, write in ((paths[0], lambda fh: fh.writelines(orjson.dumps(e.to_json()) + b"\n"
                                                                for e in records)),
                            (paths[1], lambda fh: write_node_link(fh, delta)),
                            (target / MANIFEST, lambda fh: fh.write(_dump_json(full)))):
            tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
            with open(tmp, "wb") as fh:
                write(fh)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
    except OSError as exc:
        for path in paths:
            path.unlink(missing_ok=True)
            path.with_name(f".{path.name}.tmp-{os.getpid()}").unlink(missing_ok=True)
        (target / f".{MANIFEST}.tmp-{os.getpid()}").unlink(missing_ok=True)
        raise GraphDirError(f"{target}: cannot write the pending additions: {exc}") from exc
    for stale in target.iterdir():
        if _PENDING_FILE.match(stale.name) and stale not in paths:
            stale.unlink(missing_ok=True)


def validate_rdf(rdf_graph: Graph, *, ontology: bool = True) -> tuple[bool, str]:
    """Validate an RDF graph against ``schema/shapes.ttl`` with pySHACL.

    Args:
        rdf_graph: the data graph.
        ontology: mix ``schema/ontology.ttl`` into the data graph first, as a SHACL engine given
            both files would; a kg graph conforms with it and without it.

    Returns:
        ``(conforms, report text)``; the text lists every violation when it does not conform.
    """
    import pyshacl

    from kg.vocab import SCHEMA_DIR

    shapes = Graph().parse(SCHEMA_DIR / "shapes.ttl", format="turtle")
    ont_graph = Graph().parse(SCHEMA_DIR / "ontology.ttl", format="turtle") if ontology else None
    conforms, _report_graph, text = pyshacl.validate(
        rdf_graph,
        shacl_graph=shapes,
        ont_graph=ont_graph,
        inference="none",
        advanced=False,
        allow_warnings=False,
    )
    return bool(conforms), str(text)
