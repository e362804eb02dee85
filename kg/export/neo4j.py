"""Export a built graph to a running Neo4j over Bolt, with the official ``neo4j`` driver.

What is written, and how (see :mod:`kg.export.neo4j_model` for the mapping and the Cypher):

1. uniqueness constraints on ``key`` for every ontology label, ``IF NOT EXISTS``;
2. with ``replace``, this project's nodes (ontology labels only) and their relationships deleted;
3. nodes label by label, then relationships type by type, as ``UNWIND $rows … MERGE … SET`` batches,
   one managed write transaction per batch: a batch is written whole or not at all, a transient
   error (deadlock, leader switch, dropped connection) is retried by the driver within
   ``retry_seconds``, and a re-run leaves the same nodes, relationships and properties. Batches
   go out over ``sessions`` concurrent sessions (default 2), so the server commits one batch
   while it executes the next; every node batch commits before the first relationship batch
   starts (a relationship MATCHes its ends). The rows of two batches never overlap, so the
   order in which concurrent batches commit does not change what the database holds;
4. the counts per label and relationship type read back from the database.

A group this run fills from nothing is written with ``CREATE`` instead of ``MERGE``, which does
not look for an existing match first (about half the writing time on a large graph:
``docs/performance.md``): a label that held no node when the export began, and a relationship type whose
start label had none of it while both its end labels held no node (so every node it can attach
to was created by this run). A re-run after a failure finds those groups non-empty and MERGEs;
a batch whose commit went unconfirmed is resent with MERGE. Two exports into one database at
the same time are not supported: the second fails on the key constraints rather than
duplicate anything.

Every connection wait is bounded (``connect_timeout``, ``retry_seconds``, a server-side
transaction timeout), so a dead server ends the export with an :class:`~kg.errors.ExportError`
instead of a hang. The password is only handed to the driver: it is never printed, logged or put
in an exception message.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from kg.errors import ExportError
from kg.export.neo4j_model import (
    LABELS,
    REL_TYPES,
    RelBatchKey,
    batched,
    constraint_statements,
    count_label_statement,
    count_outgoing_statement,
    count_type_statement,
    create_nodes_statement,
    create_relationships_statement,
    delete_project_statement,
    expected_counts,
    merge_nodes_statement,
    merge_relationships_statement,
    node_groups,
    node_row,
    relationship_groups,
    relationship_row,
)
from kg.graphdir import NodeLink
from kg.memory import gc_paused

DEFAULT_BATCH_SIZE = 500
DEFAULT_RETRY_SECONDS = 15.0
DEFAULT_CONNECT_TIMEOUT = 10.0
# A batch of 500 rows takes well under a second; a minute means the server is stuck.
DEFAULT_TX_TIMEOUT = 60.0
# Batches in flight at once: two keep a 2-core server busy (one commits while the other runs);
# three were no faster than two (docs/performance.md).
DEFAULT_SESSIONS = 2


@dataclass(frozen=True, slots=True)
class Neo4jExport:
    """What an export did and what the database holds afterwards.

    Attributes:
        uri: the server (no credentials in it).
        database: the database name, or ``None`` for the server's default.
        nodes_written, relationships_written: rows sent (each MERGEd once).
        batches: write transactions committed.
        labels, types: nodes per ontology label and relationships per ontology type now in the
            database (only non-zero ones).
        expected_labels, expected_types: the same counts in the exported graph.
        replaced: whether this project's previous nodes were deleted first.
        seconds: wall time.
    """

    uri: str
    database: str | None
    nodes_written: int
    relationships_written: int
    batches: int
    labels: dict[str, int] = field(default_factory=dict)
    types: dict[str, int] = field(default_factory=dict)
    expected_labels: dict[str, int] = field(default_factory=dict)
    expected_types: dict[str, int] = field(default_factory=dict)
    replaced: bool = False
    seconds: float = 0.0

    @property
    def matches(self) -> bool:
        """True when the database holds exactly the graph's counts (nothing more, nothing less)."""
        return self.labels == self.expected_labels and self.types == self.expected_types

    def summary(self) -> str:
        """One paragraph: what was written and the counts in the database."""
        where = f"{self.uri}" + (f" (database {self.database})" if self.database else "")
        lines = [
            f"neo4j {where}: wrote {self.nodes_written} nodes and {self.relationships_written} "
            f"relationships in {self.batches} transactions"
            + (" after removing this project's previous nodes" if self.replaced else "")
            + f" ({self.seconds:.1f} s)",
            "  nodes in the database:         " + _counts_text(self.labels),
            "  relationships in the database: " + _counts_text(self.types),
        ]
        if not self.matches:
            graph = f"{_counts_text(self.expected_labels)}; {_counts_text(self.expected_types)}"
            lines.append(f"  note: the database holds other counts than this graph ({graph}); "
                         "use --replace to drop this project's older nodes first")
        return "\n".join(lines)


@dataclass(slots=True)
class _State:
    """Where an export is, for error messages: the current step and the batches committed."""

    step: str = "connecting"
    batches: int = 0


def _counts_text(counts: dict[str, int]) -> str:
    return ", ".join(f"{name} {n}" for name, n in counts.items()) or "none"


class _Secret:
    """Scrubs a password from any text that leaves this module (driver messages included)."""

    def __init__(self, password: str | None) -> None:
        self._password = password or None

    def scrub(self, text: str) -> str:
        return text.replace(self._password, "***") if self._password else text


@gc_paused()  # grouping and converting 10^6 rows: see kg.memory
def export_neo4j(
    nx_graph: nx.MultiDiGraph | NodeLink,
    uri: str,
    *,
    user: str | None = None,
    password: str | None = None,
    database: str | None = None,
    replace: bool = False,
    batch_size: int = DEFAULT_BATCH_SIZE,
    retry_seconds: float = DEFAULT_RETRY_SECONDS,
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
    tx_timeout: float = DEFAULT_TX_TIMEOUT,
    progress: Callable[[int], None] | None = None,
    sessions: int = DEFAULT_SESSIONS,
) -> Neo4jExport:
    """Write ``nx_graph`` into the Neo4j at ``uri``: constraints, then MERGE batches, then counts.

    Args:
        nx_graph: a graph following the graph contract (``kind`` on nodes, ``predicate`` on edges),
            or its :class:`~kg.graphdir.NodeLink` items.
        uri: ``bolt://``, ``neo4j://``, ``bolt+s://`` or ``neo4j+s://`` address.
        user, password: credentials; no password means no authentication.
        database: the database to write (default: the server's default database).
        replace: first delete every node carrying an ontology label (and its relationships).
        batch_size: rows per write transaction.
        retry_seconds: how long the driver retries a batch on transient errors before failing.
        connect_timeout: seconds to open one connection.
        tx_timeout: server-side limit of one batch's transaction, in seconds.
        progress: called with the number of rows after each committed batch.
        sessions: batches written at once, each in its own session (1: one after the other).

    Returns:
        What was written and the counts read back from the database.

    Raises:
        ExportError: bad URI, unreachable server, failed authentication, a batch that failed
            after retries (that batch is not written; earlier ones are, and a re-run completes
            the export), or a graph that does not follow the contract.
    """
    import neo4j
    from neo4j.exceptions import (
        AuthError,
        DriverError,
        IncompleteCommit,
        Neo4jError,
        ServiceUnavailable,
        SessionExpired,
    )

    if batch_size < 1:
        raise ExportError(f"batch size must be at least 1, got {batch_size}")
    if sessions < 1:
        raise ExportError(f"sessions must be at least 1, got {sessions}")
    _check_uri(uri)
    secret = _Secret(password)
    started = time.perf_counter()
    items = NodeLink.of(nx_graph)
    nodes = node_groups(items)
    rels = relationship_groups(items)
    expected_labels, expected_types = expected_counts(nodes, rels)
    sizes = [len(r) for r in nodes.values()] + [len(r) for r in rels.values()]
    total_batches = sum(-(-n // batch_size) for n in sizes)

    try:
        driver = neo4j.GraphDatabase.driver(
            uri,
            auth=(user or "neo4j", password) if password else None,
            connection_timeout=connect_timeout,
            connection_acquisition_timeout=connect_timeout + retry_seconds,
            max_transaction_retry_time=retry_seconds,
            user_agent="kg-export",
        )
    except (ValueError, DriverError) as exc:
        raise ExportError(f"neo4j: bad server address {uri!r}: {secret.scrub(str(exc))}") from None

    state = _State()

    @contextmanager
    def failures() -> Iterator[None]:
        """Turn driver errors into one clear ExportError naming the server and the step."""
        try:
            yield
        except AuthError:
            raise ExportError(
                f"neo4j {uri}: authentication failed for user {user or 'neo4j'!r} "
                "(check NEO4J_USER / NEO4J_PASSWORD)") from None
        except (ServiceUnavailable, SessionExpired, OSError) as exc:
            last = ("its commit was sent but not confirmed, so it may or may not be written"
                    if isinstance(exc, IncompleteCommit) else "the failed batches were not written")
            raise ExportError(
                f"neo4j {uri}: server unavailable while {state.step} "
                f"({state.batches} of {total_batches} batches committed; {last}; "
                f"re-run the export once the server is back, it is idempotent): "
                f"{secret.scrub(_first_line(exc))}") from None
        except (Neo4jError, DriverError) as exc:
            code = getattr(exc, "code", None) or type(exc).__name__
            raise ExportError(
                f"neo4j {uri}: {code} while {state.step} "
                f"({state.batches} of {total_batches} batches committed): "
                f"{secret.scrub(_first_line(exc))}") from None

    @neo4j.unit_of_work(timeout=tx_timeout)
    def write(tx: Any, statement: str, rows: list[dict[str, Any]]) -> None:
        tx.run(statement, rows=rows).consume()

    @neo4j.unit_of_work(timeout=tx_timeout)
    def delete_some(tx: Any, statement: str) -> int:
        record = tx.run(statement).single()
        return int(record["deleted"]) if record is not None else 0

    def write_batch(session: Any, statement: str, rows: list[dict[str, Any]], merge: str) -> None:
        """One batch in one managed transaction; the driver retries transient errors itself."""
        deadline = time.monotonic() + retry_seconds
        while True:
            try:
                session.execute_write(write, statement, rows)
                return
            except IncompleteCommit:
                # The connection dropped after COMMIT was sent. The driver cannot know whether a
                # transaction may run twice; the MERGE form of ours can (MERGE + SET), so send
                # that until the deadline (a CREATE might have landed already).
                if time.monotonic() >= deadline:
                    raise
                statement = merge
                time.sleep(1.0)

    session_kwargs: dict[str, Any] = {"database": database} if database else {}
    try:
        with _quiet_driver_log(), failures():
            driver.verify_connectivity()
            with driver.session(**session_kwargs) as session:
                state.step = "creating constraints"
                for statement in constraint_statements():
                    session.run(statement).consume()
                if replace:
                    state.step = "removing this project's previous nodes"
                    while session.execute_write(delete_some, delete_project_statement()):
                        pass
                state.step = "reading which labels and types the database holds"
                fresh_labels, fresh_rels = _fresh_groups(session, nodes, rels)

                def jobs() -> Iterator[Job]:
                    """(phase, step, statement, its MERGE form, rows) per batch, rows converted here."""
                    for label, node_items in nodes.items():
                        merge = merge_nodes_statement(label)
                        statement = create_nodes_statement(label) if label in fresh_labels else merge
                        for i, node_batch in enumerate(batched(node_items, batch_size), 1):
                            yield ("nodes", f"writing {label} nodes (batch {i})", statement, merge,
                                   [node_row(item) for item in node_batch])
                    for key, edge_items in rels.items():
                        merge = merge_relationships_statement(key)
                        statement = create_relationships_statement(key) if key in fresh_rels else merge
                        what = f"{key.rel_type} relationships {key.start_label}->{key.end_label}"
                        for i, edge_batch in enumerate(batched(edge_items, batch_size), 1):
                            yield ("relationships", f"writing {what} (batch {i})", statement, merge,
                                   [relationship_row(item) for item in edge_batch])

                _run_batches(driver, session_kwargs, jobs(), write_batch, state, progress, sessions)
                state.step = "counting"
                labels = _count(session, LABELS, count_label_statement)
                types = _count(session, REL_TYPES, count_type_statement)
    finally:
        driver.close()

    return Neo4jExport(
        uri=uri,
        database=database,
        nodes_written=sum(len(r) for r in nodes.values()),
        relationships_written=sum(len(r) for r in rels.values()),
        batches=state.batches,
        labels=labels,
        types=types,
        expected_labels=expected_labels,
        expected_types=expected_types,
        replaced=replace,
        seconds=time.perf_counter() - started,
    )


# (phase: "nodes" or "relationships", step, statement, its MERGE form, rows)
Job = tuple[str, str, str, str, list[dict[str, Any]]]


def _run_batches(
    driver: Any,
    session_kwargs: dict[str, Any],
    jobs: Iterator[Job],
    write_batch: Callable[[Any, str, list[dict[str, Any]], str], None],
    state: _State,
    progress: Callable[[int], None] | None,
    sessions: int,
) -> None:
    """Write the batches of ``jobs`` in order, up to ``sessions`` at a time (one session per thread).

    The batches of the "nodes" phase all commit before the first relationship batch is
    sent. Rows are built here, in the calling thread, while the sessions wait on the server.
    The first failure stops the sending: batches not yet sent are dropped, those in flight are
    waited for, and the failure is raised with ``state.step`` naming the failed batch.
    """
    import threading
    from concurrent.futures import ALL_COMPLETED, FIRST_COMPLETED, Future, ThreadPoolExecutor, wait

    local = threading.local()
    opened: list[Any] = []
    guard = threading.Lock()

    def run(step: str, statement: str, merge: str, rows: list[dict[str, Any]]) -> None:
        session = getattr(local, "session", None)
        if session is None:
            session = local.session = driver.session(**session_kwargs)
            with guard:
                opened.append(session)
        write_batch(session, statement, rows, merge)
        with guard:
            state.batches += 1
            if progress:
                progress(len(rows))

    steps: dict[Future[None], str] = {}

    def settle(futures: set[Future[None]], until: str) -> set[Future[None]]:
        done, rest = wait(futures, return_when=until)
        for future in sorted(done, key=lambda f: f.exception() is None):
            if future.exception() is not None:
                with guard:
                    state.step = steps[future]
                future.result()  # re-raises the batch's failure here
            del steps[future]
        return rest

    pending: set[Future[None]] = set()
    phase: str | None = None
    with ThreadPoolExecutor(sessions, thread_name_prefix="kg-neo4j") as pool:
        try:
            for kind, step, statement, merge, rows in jobs:
                if kind != phase:
                    pending = settle(pending, ALL_COMPLETED)
                    phase = kind
                while len(pending) >= sessions:
                    pending = settle(pending, FIRST_COMPLETED)
                with guard:
                    state.step = step
                future = pool.submit(run, step, statement, merge, rows)
                steps[future] = step
                pending.add(future)
            settle(pending, ALL_COMPLETED)
        except BaseException:
            for future in pending:
                future.cancel()
            wait(pending)
            raise
        finally:
            for session in opened:
                session.close()


BOLT_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")


def _check_uri(uri: str) -> None:
    """Accept only Bolt addresses with a host (the driver would also try http:// as a preview)."""
    from urllib.parse import urlsplit

    if "@" in uri:  # checked first: such a URI may hold a password, so it is not echoed
        raise ExportError("neo4j: bad server address: put no credentials in the URI "
                          "(use NEO4J_USER / NEO4J_PASSWORD)")
    try:
        parts = urlsplit(uri)
        host, _port = parts.hostname, parts.port
    except ValueError as exc:
        raise ExportError(f"neo4j: bad server address {uri!r}: {exc}") from None
    if parts.scheme not in BOLT_SCHEMES or not host:
        raise ExportError(f"neo4j: bad server address {uri!r}: expected SCHEME://HOST[:PORT] with SCHEME "
                          f"one of {', '.join(BOLT_SCHEMES)}")


@contextmanager
def _quiet_driver_log() -> Iterator[None]:
    """Silence the driver's retry chatter on stderr unless the caller configured logging.

    With no handler anywhere, Python prints the driver's warnings ("Transaction failed and will
    be retried …", one per attempt) on stderr; kg reports the outcome itself, in one line.
    """
    logger = logging.getLogger("neo4j")
    configured = logger.handlers or logging.getLogger().handlers
    old = logger.level
    if not configured:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(old)


def export_rows_total(nx_graph: nx.MultiDiGraph | NodeLink) -> int:
    """How many rows (nodes + relationships) an export sends: the progress bar's total."""
    if isinstance(nx_graph, NodeLink):
        return len(nx_graph)
    return int(nx_graph.number_of_nodes() + nx_graph.number_of_edges())


def _count_one(session: Any, statement: str) -> int:
    record = session.run(statement).single()
    return int(record["count"]) if record is not None else 0


def _fresh_groups(
    session: Any, nodes: Mapping[str, Any], rels: Mapping[RelBatchKey, Any]
) -> tuple[set[str], set[RelBatchKey]]:
    """The node labels and relationship groups this export may CREATE (see the module docstring)."""
    labels = {label for label in nodes if _count_one(session, count_label_statement(label)) == 0}
    outgoing: dict[tuple[str, str], int] = {}
    fresh: set[RelBatchKey] = set()
    for key in rels:
        if key.start_label not in labels or key.end_label not in labels:
            continue
        group = (key.rel_type, key.start_label)
        if group not in outgoing:
            outgoing[group] = _count_one(session, count_outgoing_statement(key))
        if outgoing[group] == 0:
            fresh.add(key)
    return labels, fresh


def _count(session: Any, names: tuple[str, ...], statement: Callable[[str], str]) -> dict[str, int]:
    counts = {name: _count_one(session, statement(name)) for name in names}
    return dict(sorted((name, n) for name, n in counts.items() if n))


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]
