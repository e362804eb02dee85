"""The HTML export's page content, without a browser: views, folding, tooltips, escaping, offline markup."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg.cli import main
from kg.errors import ConfigError, ExportError
from kg.export.html import (
    COOCCURS,
    DEFAULT_MAX_NODES,
    _inline,
    export_html,
    fold_least_connected,
    fold_weakest_edges,
    page_data,
    render_html,
    select_view,
)
from kg.export.mathtext import latex_to_text
from tests.fixtures.html_graphs import XSS_IMG, XSS_SCRIPT, tiny_graph, xss_graph


class _Markup(HTMLParser):
    """Every start tag with its attributes, and the text of each <script> element."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self._in_script: dict[str, str | None] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._in_script = dict(attrs)
            self.scripts.append((self._in_script, ""))

    def handle_data(self, data: str) -> None:
        if self._in_script is not None:
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = None


def _markup(html: str) -> _Markup:
    parser = _Markup()
    parser.feed(html)
    parser.close()
    return parser


def _csp(markup: _Markup) -> str:
    (content,) = [a["content"] for t, a in markup.tags
                  if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    return content or ""


def _embedded_data(html: str) -> dict:
    (text,) = [t for attrs, t in _markup(html).scripts if attrs.get("id") == "kg-data"]
    return json.loads(text)


@pytest.mark.parametrize(
    ("view", "nodes", "edges", "kinds"),
    [
        ("full", 11, 13,
         {"Paper": 4, "Method": 2, "Task": 1, "Dataset": 1, "Metric": 1, "Concept": 1, "Bound": 1}),
        ("papers", 4, 3, {"Paper": 4}),
        ("entities", 6, 12, {"Method": 2, "Task": 1, "Dataset": 1, "Metric": 1, "Concept": 1}),
    ],
)
def test_export_html_view_counts(view: str, nodes: int, edges: int, kinds: dict[str, int]) -> None:
    data = page_data(tiny_graph(), view)
    assert (len(data["nodes"]), len(data["edges"])) == (nodes, edges)
    assert {item["kind"]: item["count"] for item in data["legend"]} == kinds
    assert data["folded"] == 0


@pytest.mark.parametrize(
    ("node", "size"),
    # 8 + 22 * sqrt(degree / 7): p1 has the most edges (7), p4 none, transformer 2, bleu 1.
    [("paper:p1", 30.0), ("paper:p4", 8.0), ("Method:transformer", 19.8), ("Metric:bleu", 16.3)],
)
def test_export_html_node_size_grows_with_degree(node: str, size: float) -> None:
    nodes = {n["id"]: n for n in page_data(tiny_graph(), "full")["nodes"]}
    assert nodes[node]["size"] == size


def test_export_html_papers_view_edges_are_labelled_with_shared_entities() -> None:
    data = page_data(tiny_graph(), "papers")
    assert [(e["from"], e["to"], e["predicate"], e["label"]) for e in data["edges"]] == [
        ("paper:p1", "paper:p2", "sharesConceptWith", "self attention"),
        ("paper:p1", "paper:p2", "sharesTechniqueWith", "transformer"),
        ("paper:p2", "paper:p3", "sharesTechniqueWith", "adam"),
    ]


def test_export_html_entities_view_links_entities_used_together() -> None:
    view = select_view(tiny_graph(), "entities")
    edge = view.get_edge_data("Concept:self-attention", "Method:transformer")[COOCCURS]
    assert (edge["papers"], edge["weight"]) == (["paper:p1", "paper:p2"], 2)
    assert not view.has_edge("Method:transformer", "Concept:self-attention")
    assert view.get_edge_data("Dataset:wmt-2014", "Method:adam") is None


def test_export_html_parallel_edges_are_numbered_per_node_pair() -> None:
    edges = page_data(tiny_graph(), "papers")["edges"]
    assert [(e["id"], e["parallel"]) for e in edges] == [
        ("paper:p1|paper:p2|sharesConceptWith", 0),
        ("paper:p1|paper:p2|sharesTechniqueWith", 1),
        ("paper:p2|paper:p3|sharesTechniqueWith", 0),
    ]


def test_export_html_edge_ids_are_unique_even_when_node_ids_contain_the_separator() -> None:
    g = nx.MultiDiGraph()
    g.add_nodes_from(["a", "a|b", "b|c", "c"], kind="Concept")
    g.add_edge("a|b", "c", key="mentions", predicate="mentions")
    g.add_edge("a", "b|c", key="mentions", predicate="mentions")
    assert [e["id"] for e in page_data(g, "full")["edges"]] == ["a|b|c|mentions", "a|b|c|mentions#2"]


@pytest.mark.parametrize(
    ("max_nodes", "kept", "edges"),
    [
        # p4 (0 edges) goes, then the 1-edge nodes, then self-attention, adam and p3 as their links go.
        (3, ["Method:transformer", "paper:p1", "paper:p2"], 4),
        (5, ["Method:adam", "Method:transformer", "paper:p1", "paper:p2", "paper:p3"], 7),
        (11, None, 13),
        (DEFAULT_MAX_NODES, None, 13),
    ],
)
def test_export_html_folds_least_connected_nodes(max_nodes: int, kept: list[str] | None, edges: int) -> None:
    g = tiny_graph()
    shown = fold_least_connected(select_view(g, "full"), max_nodes)
    assert sorted(shown.nodes) == (kept if kept is not None else sorted(g.nodes))
    assert shown.number_of_edges() == edges
    data = page_data(g, "full", max_nodes)
    assert (data["total_nodes"], data["folded"]) == (11, 11 - len(shown))
    assert (data["total_edges"], data["folded_edges"]) == (13, 13 - edges)


@pytest.mark.parametrize(
    ("view", "max_nodes", "max_edges", "note"),
    [
        ("full", 1500, 5000, ""),
        ("full", 3, 5000, "Showing the 3 most interlinked of 11 nodes (8 less connected folded away; "
                          "[--max-nodes 3]) and 4 of 13 edges (9 folded away with their nodes). "
                          "Export with larger limits to show more."),
        ("entities", 1500, 7, "Showing 7 of 12 edges (5 folded away as the weakest; [--max-edges 7]). "
                              "Export with larger limits to show more."),
        ("full", 5, 2, "Showing the 5 most interlinked of 11 nodes (6 less connected folded away; "
                       "[--max-nodes 5]) and 2 of 13 edges (11 folded away with their nodes or as the "
                       "weakest; [--max-edges 2]). Export with larger limits to show more."),
    ],
)
def test_export_html_note_says_what_was_folded_and_by_which_limit(
        view: str, max_nodes: int, max_edges: int, note: str) -> None:
    parts = page_data(tiny_graph(), view, max_nodes, max_edges)["note"]
    assert "".join(f"[{text}]" if kind == "option" else text for kind, text in parts) == note


def test_export_html_folds_weakest_edges_keeping_one_edge_per_node() -> None:
    # Strength 1 (mentions) for the paper-entity edges, 0.5/0.25 for the share links; a plain cut of
    # the first 9 would keep p2->transformer and strand the bound, covering first keeps p3's bound.
    shown = fold_weakest_edges(select_view(tiny_graph(), "full"), 9)
    assert sorted(f"{u}|{v}|{k}" for u, v, k in shown.edges(keys=True)) == [
        "paper:p1|Concept:self-attention|mentions", "paper:p1|Dataset:wmt-2014|evaluatesOn",
        "paper:p1|Method:transformer|proposes", "paper:p1|Metric:bleu|measures",
        "paper:p1|Task:machine-translation|addresses", "paper:p2|Concept:self-attention|mentions",
        "paper:p2|Method:adam|uses", "paper:p3|Method:adam|proposes", "paper:p3|bound:p3:0|claimsBound",
    ]
    assert shown.number_of_nodes() == 11


@pytest.mark.parametrize(
    ("max_edges", "kept"),
    [
        (1, [("Concept:self-attention", "Method:transformer")]),
        (7, [("Concept:self-attention", "Dataset:wmt-2014"), ("Concept:self-attention", "Method:adam"),
             ("Concept:self-attention", "Method:transformer"), ("Concept:self-attention", "Metric:bleu"),
             ("Concept:self-attention", "Task:machine-translation"),
             ("Dataset:wmt-2014", "Method:transformer"), ("Dataset:wmt-2014", "Metric:bleu")]),
    ],
)
def test_export_html_entities_view_keeps_the_most_shared_cooccurrences(
        max_edges: int, kept: list[tuple[str, str]]) -> None:
    edges = page_data(tiny_graph(), "entities", max_edges=max_edges)["edges"]
    assert sorted((e["from"], e["to"]) for e in edges) == kept


@pytest.mark.parametrize(
    ("view", "max_nodes", "max_edges"),
    [("everything", 10, 10), ("papers", 0, 10), ("full", -3, 10), ("entities", 10, -1)],
)
def test_export_html_rejects_bad_options(view: str, max_nodes: int, max_edges: int) -> None:
    with pytest.raises(ConfigError):
        render_html(tiny_graph(), view, max_nodes, max_edges)


def test_export_html_paper_tooltip_has_title_venue_year_authors_and_snippet() -> None:
    nodes = {n["id"]: n for n in page_data(tiny_graph(), "full")["nodes"]}
    assert nodes["paper:p1"]["tip"] == [
        ["title", "Attention Is All You Need"],
        ["meta", "NeurIPS 2017 · Ashish Vaswani, Noam Shazeer, Niki Parmar et al."],
        ["body", "We propose the Transformer, based solely on attention mechanisms. It reaches 28.4 BLEU on "
                 "WMT 2014 English-to-German translation."],
        ["meta", "Paper · p1"],
    ]


def test_export_html_paper_tooltip_snippet_is_clipped() -> None:
    g = tiny_graph()
    g.nodes["paper:p4"]["abstract"] = "word " * 200
    nodes = {n["id"]: n for n in page_data(g, "full")["nodes"]}
    (snippet,) = [text for cls, text in nodes["paper:p4"]["tip"] if cls == "body"]
    assert len(snippet) == 300 and snippet.endswith("word…")


def test_export_html_entity_tooltip_has_aliases_and_papers() -> None:
    nodes = {n["id"]: n for n in page_data(tiny_graph(), "full")["nodes"]}
    assert nodes["Method:transformer"]["tip"] == [
        ["title", "Transformer"],
        ["meta", "Method · 2 papers"],
        ["body", "aliases: transformers"],
        ["list", "papers: Attention Is All You Need; "
                 "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding"],
    ]


def test_export_html_edge_tooltips_show_shared_entities_or_evidence() -> None:
    edges = {e["id"]: e for e in page_data(tiny_graph(), "full")["edges"]}
    assert edges["paper:p2|paper:p3|sharesTechniqueWith"]["tip"] == [
        ["title", "shares technique with"], ["body", "shared: adam"], ["meta", "weight 0.5"],
    ]
    assert edges["paper:p1|Dataset:wmt-2014|evaluatesOn"]["tip"] == [
        ["title", "evaluates on"],
        ["body", "It reaches 28.4 BLEU on WMT 2014."],
        ["meta", "“WMT 2014” · entities.rules.v1 · confidence 0.90 · 1 mention"],
    ]


def test_export_html_markup_requests_nothing() -> None:
    markup = _markup(render_html(tiny_graph(), "full").html)
    names = [tag for tag, _ in markup.tags]
    assert not {"link", "img", "iframe", "object", "embed", "base", "audio", "video", "source"} & set(names)
    assert [attrs.get("src") for tag, attrs in markup.tags if tag == "script"] == [None, None, None]
    urls = [v for _, attrs in markup.tags for v in attrs.values()
            if v and re.search(r"\b(https?|ftp|wss?):", v)]
    assert urls == []
    assert _csp(markup).startswith("default-src 'none'; script-src 'sha256-")


def test_export_html_csp_allows_exactly_the_inline_scripts() -> None:
    markup = _markup(render_html(tiny_graph(), "papers").html)
    allowed = set(re.findall(r"'sha256-([^']+)'", _csp(markup)))
    code = [text for attrs, text in markup.scripts if attrs.get("type") != "application/json"]
    assert len(code) == 2
    assert {base64.b64encode(hashlib.sha256(c.encode()).digest()).decode() for c in code} == allowed


def test_export_html_escapes_payloads_and_keeps_them_verbatim_as_data() -> None:
    html = render_html(xss_graph(), "full").html
    for raw in (XSS_SCRIPT, XSS_IMG, "<script>alert", "<img src=x", "</script><!--"):
        assert raw not in html
    markup = _markup(html)
    assert [tag for tag, _ in markup.tags].count("script") == 3
    assert not [attrs for _, attrs in markup.tags if any(k.startswith("on") for k in attrs)]
    data = _embedded_data(html)
    nodes = {n["id"]: n for n in data["nodes"]}
    assert nodes["paper:px"]["tip"][0] == ["title", f"Title {XSS_SCRIPT}"]
    assert nodes["paper:px"]["tip"][1] == ["meta", f"</script><!-- 2024 · Eve {XSS_IMG}"]
    assert nodes["Method:payload"]["label"].startswith(XSS_SCRIPT)
    assert ["body", f"aliases: {XSS_IMG}, \"}}]);alert(3);//"] in nodes["Method:payload"]["tip"]


@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=60), name=st.text(min_size=1, max_size=30))
def test_export_html_any_text_stays_data(text: str, name: str) -> None:
    # Any Unicode (lone surrogates, NUL, U+2028, "</script>", "<!--") in a title and an entity name:
    # the page stays three script elements, encodes as UTF-8, and the JSON gives the text back exactly.
    g = nx.MultiDiGraph()
    g.add_node("paper:x", kind="Paper", title=text, abstract=text, venue=text, year=2024, authors=[text])
    g.add_node("Method:x", kind="Method", label=name, aliases=[text], papers=1)
    g.add_edge("paper:x", "Method:x", key="uses", predicate="uses", sentence=text, text=name)
    html = render_html(g, "full").html
    html.encode("utf-8")
    markup = _markup(html)
    assert [tag for tag, _ in markup.tags].count("script") == 3
    (data_text,) = [t for attrs, t in markup.scripts if attrs.get("id") == "kg-data"]
    assert "<" not in data_text and ">" not in data_text and "&" not in data_text
    nodes = {n["id"]: n for n in json.loads(data_text)["nodes"]}
    # Titles and names are shown with their LaTeX written as Unicode (kg.export.mathtext).
    assert nodes["paper:x"]["tip"][0] == ["title", latex_to_text(text) or "paper:x"]
    assert nodes["Method:x"]["tip"][0] == ["title", latex_to_text(name) or "Method:x"]


def test_export_html_output_is_deterministic_whatever_the_insertion_order() -> None:
    g = tiny_graph()
    shuffled = nx.MultiDiGraph()
    shuffled.add_nodes_from(reversed(list(g.nodes(data=True))))
    shuffled.add_edges_from(reversed(list(g.edges(keys=True, data=True))))
    assert render_html(g, "full").html == render_html(shuffled, "full").html


@pytest.mark.parametrize(
    ("code", "element"),
    [("x = '</script>'", "script"), ("x = '</SCRIPT '", "script"), ("// <!-- x", "script"),
     ("a { b: '</style>' }", "style")],
)
def test_export_html_refuses_assets_that_would_end_their_element(code: str, element: str) -> None:
    with pytest.raises(ExportError):
        _inline(code, "asset.js", element)


def _graph_dir(tmp_path: Path, g: nx.MultiDiGraph) -> Path:
    graph_dir = tmp_path / "graph"
    graph_dir.mkdir()
    (graph_dir / "graph.json").write_text(json.dumps(nx.node_link_data(g, edges="edges")), encoding="utf-8")
    return graph_dir


def test_export_html_writes_the_page_of_a_graph_dir(tmp_path: Path) -> None:
    out = tmp_path / "site" / "graph.html"
    page = export_html(_graph_dir(tmp_path, tiny_graph()), out, view="papers", max_nodes=2)
    assert (page.view, page.nodes, page.edges, page.total_nodes, page.folded) == ("papers", 2, 2, 4, 2)
    assert (page.total_edges, page.folded_edges) == (3, 1)
    assert out.read_text(encoding="utf-8") == page.html
    assert [p.name for p in out.parent.iterdir()] == ["graph.html"]


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--view", "papers"], 0, "wrote {out}: papers view, 4 nodes, 3 edges\n"),
        (["--max-nodes", "3", "--view", "full"], 0,
         "wrote {out}: full view, 3 nodes, 4 edges (folded: 8 of 11 nodes, 9 of 13 edges)\n"),
        (["--max-edges", "0", "--view", "entities"], 0,
         "wrote {out}: entities view, 6 nodes, 0 edges (folded: 0 of 6 nodes, 12 of 12 edges)\n"),
        (["--max-edges", "-1"], 2, "kg: error: --max-edges must be at least 0, got -1\n"),
        (["--max-nodes", "0"], 2, "kg: error: --max-nodes must be at least 1, got 0\n"),
    ],
)
def test_export_html_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], code: int,
                         message: str) -> None:
    out = tmp_path / "graph.html"
    graph_dir = _graph_dir(tmp_path, tiny_graph())
    assert main(["export", "html", "-g", str(graph_dir), "-o", str(out), *args]) == code
    assert capsys.readouterr().err == message.format(out=out)
    assert out.exists() == (code == 0)


def test_export_html_cli_reports_a_missing_graph_dir(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "html", "-g", str(tmp_path / "nope"), "-o", str(tmp_path / "g.html")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"kg: error: {tmp_path / 'nope'}: ") and err.count("\n") == 1
