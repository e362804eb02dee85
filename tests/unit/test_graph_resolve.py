"""Resolution: canonical entities across papers, acronym ↔ long-form merging, aliases."""

from __future__ import annotations

import pytest

from kg.resolve import abbreviates, is_acronym, resolve_entities
from kg.types import Extraction, Mention, Paper


def _ext(pid: str, abstract: str, *mentions: tuple[str, str]) -> Extraction:
    """A paper with one mention per (type, text), located at the text's first occurrence."""
    out = []
    for etype, text in mentions:
        start = abstract.index(text)
        out.append(Mention(etype, text, start, start + len(text), text.lower() if " " in text else text))
    return Extraction(Paper(pid, pid, abstract), tuple(out))


def test_resolve_defined_acronym_merges_across_papers() -> None:
    a = _ext(
        "p1", "We run stochastic gradient descent (SGD) on it.", ("Method", "stochastic gradient descent")
    )
    b = _ext("p2", "SGD with momentum converges.", ("Method", "SGD"))
    res = resolve_entities([a, b])
    assert res.of_mention[("p1", 0)] == "Method:stochastic-gradient-descent"
    assert res.of_mention[("p2", 0)] == "Method:stochastic-gradient-descent"
    entity = res.entities["Method:stochastic-gradient-descent"]
    assert (entity.canonical, entity.label, entity.aliases) == (
        "stochastic gradient descent",
        "stochastic gradient descent",
        ("SGD",),
    )


def test_resolve_undefined_acronym_merges_with_unique_long_form() -> None:
    a = _ext("p1", "Brownian distance correlation is used.", ("Concept", "Brownian distance correlation"))
    b = _ext("p2", "We estimate BDC quickly.", ("Concept", "BDC"))
    res = resolve_entities([a, b])
    assert res.of_mention[("p2", 0)] == "Concept:brownian-distance-correlation"


def test_resolve_ambiguous_acronym_stays_apart() -> None:
    a = _ext("p1", "A graph attention network here.", ("Method", "graph attention network"))
    b = _ext("p2", "A generative adversarial network there.", ("Method", "generative adversarial network"))
    c = _ext("p3", "We train a GAN.", ("Method", "GAN"))
    res = resolve_entities([a, b, c])
    assert res.of_mention[("p3", 0)] == "Method:gan"
    assert len(res.entities) == 3


def test_resolve_acronym_of_other_type_stays_apart() -> None:
    a = _ext("p1", "We study stochastic gradient descent (SGD).", ("Method", "stochastic gradient descent"))
    b = _ext("p2", "The SGD task.", ("Task", "SGD"))
    res = resolve_entities([a, b])
    assert res.of_mention[("p2", 0)] == "Task:sgd"


def test_resolve_label_is_most_frequent_surface() -> None:
    exts = [
        Extraction(
            Paper("p1", "t", "Transformer"), (Mention("Method", "Transformer", 0, 11, "transformer"),)
        ),
        Extraction(
            Paper("p2", "t", "transformers"), (Mention("Method", "transformers", 0, 12, "transformer"),)
        ),
        Extraction(
            Paper("p3", "t", "Transformer"), (Mention("Method", "Transformer", 0, 11, "transformer"),)
        ),
    ]
    entity = resolve_entities(exts).entities["Method:transformer"]
    # the canonical name is its own attribute, not repeated among the aliases
    assert (entity.label, entity.canonical, entity.aliases) == (
        "Transformer",
        "transformer",
        ("transformers",),
    )


def test_resolve_is_independent_of_record_order() -> None:
    a = _ext(
        "p1", "We run stochastic gradient descent (SGD) on it.", ("Method", "stochastic gradient descent")
    )
    b = _ext("p2", "SGD with momentum converges.", ("Method", "SGD"))
    c = _ext("p3", "Adam and SGD.", ("Method", "Adam"), ("Method", "SGD"))
    assert resolve_entities([a, b, c]) == resolve_entities([c, b, a])


def test_resolve_bound_quantity_is_a_metric() -> None:
    from kg.types import Bound

    bound = Bound("formula", "upper", "O", False, "$O(T)$", "T", ("T",), "Regret", None, "this", None, 0, 6)
    ext = Extraction(
        Paper("p1", "t", "$O(T)$ regret"), (Mention("Metric", "regret", 7, 13, "regret"),), (bound,)
    )
    res = resolve_entities([ext])
    assert res.of_quantity[("p1", 0)] == res.of_mention[("p1", 0)] == "Metric:regret"


@pytest.mark.parametrize(
    ("short", "long", "expected"),
    [
        ("SGD", "stochastic gradient descent", True),
        ("BDCorr", "Brownian Distance Correlation", True),
        ("ADAG", "Attention-DAG", True),
        ("SEMs", "Structural Equation Models", True),
        ("SGD", "Adam optimizer", False),
        ("GD", "stochastic gradient", False),
    ],
)
def test_resolve_abbreviates(short: str, long: str, expected: bool) -> None:
    assert abbreviates(short, long) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("SGD", True), ("GPT-2", True), ("ViT", True), ("Adam", False), ("deep learning", False)],
)
def test_resolve_is_acronym(text: str, expected: bool) -> None:
    assert is_acronym(text) is expected


def test_resolve_label_prefers_the_spelled_out_form_on_a_tie() -> None:
    abstract = "stochastic gradient descent (SGD)"
    mentions = (
        Mention("Method", "stochastic gradient descent", 0, 27, "stochastic gradient descent"),
        Mention("Method", "SGD", 29, 32, "stochastic gradient descent"),
    )
    entity = resolve_entities([Extraction(Paper("p1", "t", abstract), mentions)]).entities[
        "Method:stochastic-gradient-descent"
    ]
    assert (entity.label, entity.aliases) == ("stochastic gradient descent", ("SGD",))


def test_resolve_merged_entity_is_named_after_its_most_used_long_form() -> None:
    # The extractor already reads "PCA" as principal component analysis; one paper defines PCA by a
    # misspelled long form, which merges with it: the entity is named as most papers write it.
    text = "We use principle component analysis (PCA) here."
    start = text.index("principle")
    name = "principle component analysis"
    mention = Mention("Method", name, start, start + len(name), name)
    misspelled = Extraction(Paper("p1", "p1", text), (mention,))
    expanded = Mention("Method", "PCA", 0, 3, "principal component analysis")
    acronym = [Extraction(Paper(f"q{i}", f"q{i}", "PCA is fast."), (expanded,)) for i in range(3)]
    res = resolve_entities([misspelled, *acronym])
    nodes = {res.of_mention[(e.paper.id, 0)] for e in (misspelled, *acronym)}
    assert nodes == {"Method:principal-component-analysis"}
    entity = res.entities["Method:principal-component-analysis"]
    assert entity.canonical == "principal component analysis" and entity.label == "PCA"
    assert "principle component analysis" in entity.aliases
