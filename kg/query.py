"""SPARQL and Cypher over a build directory, and the named example queries in ``kg/queries/``.

- SPARQL runs on the RDF graph (``graph.ttl``) with rdflib; parameters are bound as
  ``initBindings`` (``?paper_id`` ← ``"p-…"``), never pasted into the query text.
- Cypher runs embedded on the networkx graph with grand-cypher (no server), or on a Neo4j server
  when ``neo4j_uri`` is given (``kg export neo4j`` loads it), where parameters are real driver
  parameters. grand-cypher has no parameters: a ``$name`` is replaced by a quoted literal, and
  only values of letters, digits and ``-_.:/ `` are accepted, so user text cannot change the
  query. The embedded view is the graph as ``kg export neo4j`` stores it: node labels are the
  ``kind``s and relationship types ``rel_type(predicate)`` (``labels(n)``, ``type(r)``; neither is
  a property as well), and the symmetric paper–paper links are present in both directions
  (grand-cypher cannot match undirected patterns).

A named query is ``kg/queries/NAME.rq`` and/or ``NAME.cypher`` whose leading comment lines give
``description:`` and ``param: NAME TYPE help`` (TYPE ``str`` or ``int``). A ``.rq`` file is standalone
SPARQL 1.1 that runs as it is in any store: its own ``PREFIX`` lines, and each parameter bound by
a line ``VALUES ?NAME { EXAMPLE }`` holding an example value (one string or integer). ``kg query``
drops that line and binds the ``--param`` value as ``initBindings`` in its place.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from pathlib import Path
from typing import Any, Protocol

import networkx as nx
from rdflib import Graph, Literal, URIRef, Variable
from rdflib.term import Node

from kg.errors import QueryError
from kg.vocab import DATA_NS, ENTITY_CLASSES, PAPER_PAPER_PROPERTIES, PREFIXES, rel_type

QUERIES_DIR = Path(__file__).resolve().parent / "queries"
LANGUAGES = ("sparql", "cypher")
_EXT = {"sparql": ".rq", "cypher": ".cypher"}
_COMMENT = {"sparql": "#", "cypher": "//"}
_SAFE_VALUE = re.compile(r"^[\w\-.:/ ]*$")


@dataclass(frozen=True, slots=True)
class QueryResult:
    """Rows of a query: column names and one list of plain values per row."""

    columns: list[str]
    rows: list[list[Any]]

    def to_json(self) -> list[dict[str, Any]]:
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]


@dataclass(frozen=True, slots=True)
class Param:
    """A named-query parameter; ``example`` is the value its SPARQL form's ``VALUES`` line holds."""

    name: str
    type: str  # "str" | "int"
    help: str
    example: str | None = None


@dataclass(frozen=True, slots=True)
class NamedQuery:
    """A documented example query, in one or both languages."""

    name: str
    description: str
    params: tuple[Param, ...]
    texts: dict[str, str] = field(default_factory=dict)  # language → query text


# ------------------------------------------------------------------------------------- values

_DATA_KINDS = {"paper": "paper", **{c.lower(): c for c in ENTITY_CLASSES}}


def _node_id(iri: str) -> str:
    """A resource IRI back to its graph node id; other IRIs as prefixed names."""
    if iri.startswith(DATA_NS):
        head, _, local = iri[len(DATA_NS) :].partition("/")
        if head in _DATA_KINDS:
            from urllib.parse import unquote

            return f"{_DATA_KINDS[head]}:{unquote(local)}"
        if head == "bound":
            pid, _, n = local.rpartition("-b")
            return f"bound:{pid}:{n}"
    for prefix, ns in sorted(PREFIXES.items(), key=lambda kv: -len(kv[1])):
        if iri.startswith(ns):
            return f"{prefix}:{iri[len(ns) :]}"
    return iri


def _plain(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, URIRef):
        return _node_id(str(value))
    if isinstance(value, Literal):
        py = value.toPython()
        if isinstance(py, Decimal):  # kg:weight, kg:confidence: JSON numbers, as in graph.json
            return float(py)
        return py if isinstance(py, (int, float, bool, str)) else str(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, (str, int, float, bool, list, dict)):
        return value
    return str(value)


# ------------------------------------------------------------------------------------- SPARQL


def run_sparql(rdf_graph: Graph, query: str, params: Mapping[str, Any] | None = None) -> QueryResult:
    """Run a SPARQL SELECT/ASK query; ``params`` are bound as ``initBindings``.

    Raises:
        QueryError: the query does not parse or fails.
    """
    bindings: dict[str, Any] = {
        k: v if isinstance(v, Node) else Literal(v) for k, v in (params or {}).items()
    }
    ns = {prefix: ns for prefix, ns in PREFIXES.items()}
    try:
        result = rdf_graph.query(query, initNs=ns, initBindings={Variable(k): v for k, v in bindings.items()})
        if result.type == "ASK":
            return QueryResult(["ask"], [[bool(result.askAnswer)]])
        if result.type != "SELECT":
            raise QueryError(f"only SELECT and ASK queries are supported, not {result.type}")
        columns = [str(v) for v in (result.vars or [])]
        rows = [[_plain(row[i]) for i in range(len(columns))] for row in result]  # type: ignore[index]
    except QueryError:
        raise
    except Exception as exc:  # pyparsing / rdflib raise assorted errors on bad queries
        raise QueryError(f"SPARQL query failed: {_one_line(exc)}") from None
    return QueryResult(columns, rows)


# ------------------------------------------------------------------------------------- Cypher


def cypher_view(nx_graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """The graph as grand-cypher sees it: ``__labels__`` on nodes and edges in place of the
    ``kind`` and ``predicate`` attributes (as in Neo4j), links both ways."""
    view = nx.MultiDiGraph()
    for node, data in nx_graph.nodes(data=True):
        view.add_node(node, __labels__={data["kind"]}, **{k: v for k, v in data.items() if k != "kind"})
    for u, v, key, data in nx_graph.edges(keys=True, data=True):
        labels = {rel_type(key)}
        props = {k: v for k, v in data.items() if k != "predicate"}
        view.add_edge(u, v, key, __labels__=labels, **props)
        if key in PAPER_PAPER_PROPERTIES:
            view.add_edge(v, u, key, __labels__=labels, **props)
    return view


def _inline_params(query: str, params: Mapping[str, Any]) -> str:
    def sub(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in params:
            raise QueryError(f"Cypher parameter ${name} has no value (give --param {name}=VALUE)")
        value = params[name]
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise QueryError(f"Cypher parameter ${name}: unsupported value {value!r}")
        if isinstance(value, (int, float)):
            return repr(value)
        if not _SAFE_VALUE.match(value):
            raise QueryError(
                f"Cypher parameter ${name}: the embedded engine accepts only letters, digits and "
                f"-_.:/ and spaces in values (use SPARQL or --neo4j for {value!r})"
            )
        return f'"{value}"'

    return re.sub(r"\$([A-Za-z_]\w*)", sub, query)


def run_cypher(nx_graph: nx.MultiDiGraph, query: str, params: Mapping[str, Any] | None = None) -> QueryResult:
    """Run a Cypher query embedded, with grand-cypher, on the graph's :func:`cypher_view`.

    Raises:
        QueryError: the query does not parse or fails, or a parameter value is unsafe.
    """
    from grandcypher import GrandCypher

    text = _inline_params(query, params or {})
    try:
        raw = GrandCypher(cypher_view(nx_graph)).run(text)
    except Exception as exc:  # lark and grand-cypher raise assorted errors
        raise QueryError(f"Cypher query failed: {_one_line(exc)}") from None
    columns = _return_order(text, [str(c) for c in raw])
    by_name = {str(c): values for c, values in raw.items()}
    length = max((len(v) for v in raw.values()), default=0)
    rows = [[_plain(by_name[c][i]) for c in columns] for i in range(length)]
    return QueryResult(columns, rows)


_RETURN = re.compile(r"\bRETURN\b(?:\s+DISTINCT\b)?(.*?)(?:\bORDER\s+BY\b|\bSKIP\b|\bLIMIT\b|$)",
                     re.IGNORECASE | re.DOTALL)
_ALIAS = re.compile(r"\s+AS\s+(\w+)\s*$", re.IGNORECASE)


def _return_order(query: str, columns: list[str]) -> list[str]:
    """``columns`` in the order of the query's RETURN items, as Neo4j gives them.

    grand-cypher lists function results (``type(r) AS role``) before the plain properties;
    when the RETURN items name exactly the columns it gave, they are put back in query order.

    >>> _return_order("MATCH (a)-[r]->(b) RETURN a.id, type(r) AS role", ["role", "a.id"])
    ['a.id', 'role']
    """
    found = _RETURN.findall(query)
    if not found:
        return columns
    items, depth, start, text = [], 0, 0, found[-1]
    for i, ch in enumerate(text):
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == "," and depth == 0:
            items.append(text[start:i])
            start = i + 1
    items.append(text[start:])
    names = []
    for item in items:
        alias = _ALIAS.search(item)
        names.append(alias.group(1) if alias else item.strip())
    return names if sorted(names) == sorted(columns) else columns


def run_cypher_neo4j(
    uri: str,
    query: str,
    params: Mapping[str, Any] | None = None,
    *,
    user: str | None = None,
    password: str | None = None,
    database: str | None = None,
) -> QueryResult:
    """Run a Cypher query on a Neo4j server with driver parameters.

    Raises:
        QueryError: the server is unreachable or the query fails.
    """
    import neo4j

    auth = (user, password or "") if user else None
    try:
        with neo4j.GraphDatabase.driver(uri, auth=auth) as driver:
            records, _summary, keys = driver.execute_query(
                query, parameters_=dict(params or {}), database_=database
            )
    except neo4j.exceptions.Neo4jError as exc:
        raise QueryError(f"Cypher query failed on {uri}: {_one_line(exc)}") from None
    except (neo4j.exceptions.DriverError, OSError) as exc:
        raise QueryError(f"cannot query Neo4j at {uri}: {_one_line(exc)}") from None
    rows = [[_plain(_neo4j_value(record[k])) for k in keys] for record in records]
    return QueryResult(list(keys), rows)


def _neo4j_value(value: Any) -> Any:
    if hasattr(value, "items") and hasattr(value, "element_id"):  # Node / Relationship
        return dict(value.items())
    return value


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text[:300] + ("…" if len(text) > 300 else "")


# ------------------------------------------------------------------------------- named queries


def _parse_header(text: str, comment: str) -> tuple[str, list[Param]]:
    description: list[str] = []
    params: list[Param] = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped.startswith(comment):
            if stripped:
                break
            continue
        body = stripped[len(comment) :].strip()
        if body.startswith("description:"):
            description.append(body[len("description:") :].strip())
        elif body.startswith("param:"):
            parts = body[len("param:") :].split(None, 2)
            if len(parts) < 2 or parts[1] not in ("str", "int"):
                raise QueryError(f"bad param line in a named query: {body!r}")
            params.append(Param(parts[0], parts[1], parts[2] if len(parts) > 2 else ""))
        elif description and body and not body.endswith(":"):
            description.append(body)
    return " ".join(description), params


def _values_line(name: str) -> re.Pattern[str]:
    """The line ``VALUES ?name { EXAMPLE }`` that binds a parameter in a standalone ``.rq`` file."""
    return re.compile(
        rf"^[ \t]*VALUES[ \t]+\?{re.escape(name)}[ \t]*\{{[ \t]*(.*?)[ \t]*\}}[ \t]*\n", re.MULTILINE
    )


def _example(name: str, param: Param, text: str) -> str:
    """The example value of ``param`` in the SPARQL text of named query ``name``, as a ``--param``
    value would give it.

    Raises:
        QueryError: no single ``VALUES ?param { … }`` line, or it holds not one plain string or integer.
    """
    found = _values_line(param.name).findall(text)
    if len(found) != 1:
        raise QueryError(
            f"named query {name!r}: parameter {param.name!r} needs exactly one line "
            f"'VALUES ?{param.name} {{ EXAMPLE }}' in {name}.rq, found {len(found)}"
        )
    value = found[0]
    pattern = r'"[^"\\\n]*"' if param.type == "str" else r"-?\d+"
    if not re.fullmatch(pattern, value):
        raise QueryError(
            f"named query {name!r}: 'VALUES ?{param.name} {{ {value} }}' must hold one "
            f"{'plain string' if param.type == 'str' else 'integer'}"
        )
    return value.strip('"')


def named_queries(directory: Path = QUERIES_DIR) -> dict[str, NamedQuery]:
    """Every named query in ``directory``, by name (sorted).

    Raises:
        QueryError: a header or a parameter's ``VALUES`` line is malformed.
    """
    found: dict[str, dict[str, str]] = {}
    for lang, ext in _EXT.items():
        for path in sorted(directory.glob(f"*{ext}")):
            found.setdefault(path.stem, {})[lang] = path.read_text(encoding="utf-8")
    out: dict[str, NamedQuery] = {}
    for name in sorted(found):
        texts = found[name]
        lang = "sparql" if "sparql" in texts else "cypher"
        description, params = _parse_header(texts[lang], _COMMENT[lang])
        if lang == "sparql":
            params = [replace(p, example=_example(name, p, texts[lang])) for p in params]
        out[name] = NamedQuery(name, description, tuple(params), texts)
    return out


def bindable_sparql(query: NamedQuery) -> str:
    """The SPARQL text of a named query without its parameters' ``VALUES`` lines, so that the
    parameters can be bound as ``initBindings`` instead of the examples."""
    text = query.texts["sparql"]
    for param in query.params:
        text = _values_line(param.name).sub("", text, count=1)
    return text


def named_query(name: str) -> NamedQuery:
    """The named query ``name``; :class:`QueryError` listing the known names when unknown."""
    queries = named_queries()
    if name not in queries:
        raise QueryError(f"unknown named query {name!r}; known: {', '.join(queries)}")
    return queries[name]


def coerce_params(query: NamedQuery, raw: Mapping[str, str]) -> dict[str, Any]:
    """Check and type the ``--param NAME=VALUE`` values of a named query.

    Raises:
        QueryError: an unknown or missing parameter, or a non-integer ``int`` value.
    """
    known = {p.name: p for p in query.params}
    unknown = sorted(set(raw) - set(known))
    if unknown:
        raise QueryError(
            f"named query {query.name!r} has no parameter {unknown[0]!r}; "
            f"its parameters: {', '.join(known) or 'none'}"
        )
    out: dict[str, Any] = {}
    for param in query.params:
        if param.name not in raw:
            raise QueryError(f"named query {query.name!r} needs --param {param.name}=VALUE ({param.help})")
        value = raw[param.name]
        if param.type == "int":
            try:
                out[param.name] = int(value)
            except ValueError:
                raise QueryError(f"--param {param.name}: expected an integer, got {value!r}") from None
        else:
            out[param.name] = value
    return out


# ------------------------------------------------------------------------------------ output


def format_result(result: QueryResult, fmt: str = "table", max_width: int = 60) -> str:
    """Render rows as an aligned text table, JSON (list of objects) or CSV."""
    if fmt == "json":
        return json.dumps(result.to_json(), ensure_ascii=False, indent=2) + "\n"
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(result.columns)
        for row in result.rows:
            writer.writerow([_cell(v, None) for v in row])
        return buf.getvalue()
    if fmt != "table":
        raise QueryError(f"unknown output format {fmt!r}; use table, json or csv")
    cells = [result.columns] + [[_cell(v, max_width) for v in row] for row in result.rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(result.columns))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.append(f"({len(result.rows)} row{'s' if len(result.rows) != 1 else ''})")
    return "\n".join(lines) + "\n"


def _cell(value: Any, max_width: int | None) -> str:
    if value is None:
        text = ""
    elif isinstance(value, (list, dict)):
        text = json.dumps(value, ensure_ascii=False)
    else:
        text = str(value)
    text = " ".join(text.split()) if max_width else text
    if max_width and len(text) > max_width:
        text = text[: max_width - 1] + "…"
    return text


class Graphs(Protocol):
    """Where a query finds the graph: anything with its RDF and networkx forms (``kg.KnowledgeGraph``)."""

    @property
    def rdf(self) -> Graph: ...

    @property
    def nx(self) -> nx.MultiDiGraph: ...


def run_query(
    graph: str | Path | Graphs,
    language: str,
    query: str,
    params: Mapping[str, Any] | None = None,
    *,
    neo4j_uri: str | None = None,
    neo4j_user: str | None = None,
    neo4j_password: str | None = None,
    neo4j_database: str | None = None,
) -> QueryResult:
    """Run ``query`` in ``language`` over ``graph``, a build directory or its :class:`Graphs`
    (or on the Neo4j at ``neo4j_uri`` for Cypher); the directory's files are read as needed."""
    from kg.graphdir import load_nx, load_rdf

    if language == "sparql":
        return run_sparql(load_rdf(graph) if isinstance(graph, (str, Path)) else graph.rdf, query, params)
    if language == "cypher":
        if neo4j_uri:
            return run_cypher_neo4j(
                neo4j_uri, query, params, user=neo4j_user, password=neo4j_password, database=neo4j_database
            )
        return run_cypher(load_nx(graph) if isinstance(graph, (str, Path)) else graph.nx, query, params)
    raise QueryError(f"unknown query language {language!r}; use sparql or cypher")


def run_named(
    directory: str | Path | Graphs,
    name: str,
    raw_params: Mapping[str, str] | None = None,
    language: str | None = None,
    **neo4j: Any,
) -> QueryResult:
    """Run the named query ``name`` (SPARQL unless ``language`` says cypher) over a build directory
    or its :class:`Graphs`."""
    query = named_query(name)
    lang = language or ("sparql" if "sparql" in query.texts else "cypher")
    if lang not in query.texts:
        raise QueryError(
            f"named query {name!r} has no {lang} form (it has: {', '.join(sorted(query.texts))})"
        )
    text = bindable_sparql(query) if lang == "sparql" else query.texts[lang]
    return run_query(directory, lang, text, coerce_params(query, raw_params or {}), **neo4j)


__all__: Sequence[str] = [
    "Graphs",
    "QueryResult",
    "NamedQuery",
    "run_sparql",
    "run_cypher",
    "run_cypher_neo4j",
    "run_query",
    "run_named",
    "named_queries",
    "named_query",
    "bindable_sparql",
    "format_result",
    "cypher_view",
]
