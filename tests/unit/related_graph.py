"""Tiny hand-built graphs of the graph contract, for the related-work tests."""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx

from kg.vocab import entity_node


class GraphBuilder:
    """Papers, entities, paper→entity edges and bounds, following the graph contract."""

    def __init__(self) -> None:
        self.g = nx.MultiDiGraph()
        self.bounds: dict[str, int] = {}

    def paper(self, pid: str, title: str, abstract: str = "", topic: int = -1) -> GraphBuilder:
        self.g.add_node(
            f"paper:{pid}",
            kind="Paper",
            id=pid,
            title=title,
            label=title,
            title_derived=False,
            venue=None,
            year=2026,
            abstract=abstract,
            url=None,
            authors=[],
            topic=topic,
        )
        return self

    def holds(
        self,
        pid: str,
        etype: str,
        canonical: str,
        predicate: str = "uses",
        aliases: Sequence[str] = (),
        label: str | None = None,
    ) -> GraphBuilder:
        enode = entity_node(etype, canonical)
        if enode not in self.g:
            self.g.add_node(
                enode,
                kind=etype,
                canonical=canonical,
                label=label or canonical,
                aliases=list(aliases),
                papers=0,
            )
        self.g.add_edge(
            f"paper:{pid}",
            enode,
            key=predicate,
            predicate=predicate,
            start=0,
            end=1,
            text=canonical,
            sentence="",
            extractor="test",
            confidence=1.0,
            mentions=1,
        )
        return self

    def bound(
        self, pid: str, kind: str, expr: str, variables: Sequence[str], quantity: str | None, latex: str = ""
    ) -> GraphBuilder:
        n = self.bounds.get(pid, 0)
        self.bounds[pid] = n + 1
        bnode = f"bound:{pid}:{n}"
        self.g.add_node(
            bnode,
            kind="Bound",
            label=latex or expr,
            form="formula",
            bound_kind=kind,
            notation="O",
            soft=False,
            latex=latex or expr,
            expr=expr,
            variables=list(variables),
            quantity=quantity,
            subject=None,
            attribution="this",
            condition=None,
            start=0,
            end=1,
            confidence=1.0,
            extractor="test",
        )
        self.g.add_edge(f"paper:{pid}", bnode, key="claimsBound", predicate="claimsBound")
        return self


def filler(n: int, prefix: str = "filler") -> list[tuple[str, str]]:
    """``n`` unrelated papers (ids, abstracts) so IDF is not degenerate in a tiny graph."""
    return [(f"{prefix}{i:02d}", f"unrelated{i} topic{i} words{i}") for i in range(n)]


def pca_and_bandits(method: str = "phased elimination") -> GraphBuilder:
    """Two PCA papers (topic 0) and two linear-bandit papers (topic 1) that share a ``method``
    (proposed by p-ccc, used by p-ddd), a task and regret bounds in √T (p-ccc's better in d)."""
    gb = GraphBuilder()
    gb.paper("p-aaa", "Anchor PCA for multi-domain data", "pca across domains", topic=0)
    gb.paper("p-bbb", "Attention performs PCA", "attention layers learn pca", topic=0)
    gb.paper("p-ccc", "Linear bandits with one bit", "linear bandits regret with one bit", topic=1)
    gb.paper("p-ddd", "Private linear bandits", "private linear bandits regret", topic=1)
    gb.holds("p-aaa", "Method", "principal component analysis", aliases=["PCA"], label="PCA")
    gb.holds("p-bbb", "Method", "principal component analysis")
    gb.holds("p-ccc", "Method", method, "proposes").holds("p-ddd", "Method", method)
    gb.holds("p-ccc", "Task", "linear bandits").holds("p-ddd", "Task", "linear bandits")
    gb.bound("p-ccc", "upper", "O(d sqrt(T))", ["T", "d"], "regret")
    gb.bound("p-ddd", "upper", "O(d^(3/2) sqrt(T))", ["T", "d"], "regret")
    return gb
