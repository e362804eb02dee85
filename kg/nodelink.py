"""The node-link JSON form of the graph (``graph.json`` and the pending delta): written as a
stream, its nodes read back with each paper's own ``id``."""

from __future__ import annotations

from typing import Any

import networkx as nx
import orjson


def write_node_link(fh: Any, nx_graph: nx.MultiDiGraph) -> None:
    """Write ``networkx.node_link_data(nx_graph, edges="edges")`` as JSON (keys sorted), streamed.

    The same bytes as ``orjson.dumps(node_link_data(...), option=OPT_SORT_KEYS)`` without
    building the whole copy of the graph in memory first.
    """
    opt = orjson.OPT_SORT_KEYS
    fh.write(b'{"directed":true,"edges":[')
    for i, (u, v, key, data) in enumerate(nx_graph.edges(keys=True, data=True)):
        fh.write(
            (b"," if i else b"") + orjson.dumps({**data, "source": u, "target": v, "key": key}, option=opt)
        )
    fh.write(b'],"graph":' + orjson.dumps(nx_graph.graph, option=opt) + b',"multigraph":true,"nodes":[')
    for i, (node, data) in enumerate(nx_graph.nodes(data=True)):
        fh.write((b"," if i else b"") + orjson.dumps({**data, "id": node}, option=opt))
    fh.write(b"]}\n")


def node_items(data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """``(node id, attributes)`` of parsed node-link JSON, its dicts taken over. Node-link keeps
    the node id under "id", which hides a paper's own ``id`` attribute: it is restored from the
    node id (``paper:<id>``)."""
    out = []
    for attrs in data["nodes"]:
        node = attrs.pop("id")
        if attrs.get("kind") == "Paper":
            attrs["id"] = node.partition(":")[2]
        out.append((node, attrs))
    return out
