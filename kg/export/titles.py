"""The short title the page shows for a paper without one, and math written as Unicode in every title.

A paper read without a title gets, at ingest (:func:`kg.ingest.derive_title`), its coined system
name or its first nine words; the graph keeps that (``title_derived`` = true). The page reads a
better one from the graph, in this order:

1. a coined name the paper proposes ("BDC-Merge", "XShapeEnc"), unless it is a bare acronym of at
   most four capitals ("PCA", "SGD", "MCL": these name a field, not the paper) or a concept common
   in the corpus (``specific`` false or a large ``df``, when the graph has them);
2. the name of a method the paper proposes that says something on its own: at least two words
   that are neither generic heads (``extractors/patterns/generic.txt``) nor generic modifiers
   ("contextual cascading bandit model", not "theoretical analysis");
3. a noun phrase of the abstract's first sentences: the stock opener dropped ("In this paper, we
   study", "We propose a novel"), cut where the phrase ends (a verb, a comma, "which"), at most
   eight words and never ending on a preposition ("Predicting the maximum stable learning rate");
4. else the graph's title.

Every title passes through :func:`kg.export.mathtext.latex_to_text`: no ``$T$`` on the page.
The word lists are data (``templates/titles.json``, with where they come from).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import networkx as nx

from kg.export.mathtext import latex_to_text
from kg.ingest import is_coined

_DATA = Path(__file__).resolve().parent / "templates" / "titles.json"
_GENERIC = Path(__file__).resolve().parents[2] / "extractors" / "patterns" / "generic.txt"
MAX_WORDS = 8
# A name in more papers of the reference corpus than this names a field, not one paper's system.
COMMON_DF = 50
_TOKEN = re.compile(r"[^\s,;:()\[\]]+|[,;:()\[\]]")
_SENTENCE_END = re.compile(r"(?<=[a-z0-9)\]][.!?])\s+(?=[A-Z$\\])")


@cache
def _words() -> dict[str, Any]:
    data = json.loads(_DATA.read_text(encoding="utf-8"))
    generic = set()
    if _GENERIC.is_file():
        generic = {w.strip() for w in _GENERIC.read_text(encoding="utf-8").splitlines()
                   if w.strip() and not w.startswith("#")}
    return {key: (set(value) if isinstance(value, list) else value) for key, value in data.items()} | {
        "generic": generic | {w + "s" for w in generic}}


def _bare_acronym(name: str) -> bool:
    letters = name.replace("-", "")
    return letters.isupper() and letters.isalpha() and len(letters) <= 4


def _common(d: dict[str, Any]) -> bool:
    if d.get("specific") is False:
        return True
    df = d.get("df")
    return isinstance(df, int) and df > COMMON_DF


def _says_something(name: str) -> bool:
    w = _words()
    content = [t for t in re.split(r"[\s]+", name.lower()) if t
               and t not in w["generic"] and t not in w["generic_modifiers"] and t not in w["prepositions"]]
    return len(content) >= 2


def _capital(text: str) -> str:
    """Sentence case for a lower-case start ("contextual bandits"), never "F-GRPO" for "f-GRPO"."""
    return text[:1].upper() + text[1:] if re.match(r"[a-z]{2,}\b", text) else text


def _proposed(g: nx.MultiDiGraph, node: str) -> list[tuple[str, dict[str, Any]]]:
    """The Methods ``node`` proposes, in the order the abstract names them."""
    out = []
    for _, target, key, data in g.out_edges(node, keys=True, data=True):
        if str(data.get("predicate", key)) == "proposes":
            d = g.nodes[target]
            if d.get("kind") == "Method":
                out.append((int(data.get("start") or 0), str(target), d, str(data.get("text") or "")))
    out.sort(key=lambda x: (x[0], x[1]))
    return [(text, d) for _, _, d, text in out]


def noun_phrase(abstract: str) -> str:
    """A noun phrase naming what the abstract is about, from its first sentences ("" if none).

    >>> noun_phrase("In this paper, we study the problem of feature subsampling in greedy model search.")
    'Feature subsampling in greedy model search'
    >>> noun_phrase("Predicting the maximum stable learning rate of a neural network is hard.")
    'Predicting the maximum stable learning rate'
    >>> noun_phrase("As LLM-based agentic systems grow more complex, they fail. We present Shepherd, a tool.")
    'Shepherd'
    >>> noun_phrase("Modern foundation models are trained through multistage pipelines.")
    'Modern foundation models'
    """
    w = _words()
    text = latex_to_text(abstract).replace("~", " ")
    for sentence in _SENTENCE_END.split(text)[:3]:
        phrase = _phrase(sentence.strip().rstrip("."), w)
        if phrase:
            return phrase
    return ""


def _phrase(sentence: str, w: dict[str, Any]) -> str:
    tokens = _TOKEN.findall(sentence)
    low = [t.lower() for t in tokens]
    i = 0
    # A sentence opening on a subordinate clause ("As X grows, …"): its main clause starts after the comma.
    if low and low[0] in w["subordinators"] and "," in low:
        i = low.index(",") + 1
    # Stock openers: "In this paper, we study the problem of", "This paper proposes a novel".
    changed = True
    while changed:
        changed = False
        for group in ("openers", "opener_verbs", "opener_objects"):
            for phrase in sorted(w[group], key=lambda p: -len(p.split())):
                n = len(phrase.split())
                if low[i:i + n] == phrase.split():
                    i += n
                    changed = True
                    if i < len(low) and low[i] == ",":
                        i += 1
                    break
    words: list[str] = []
    for token, lower in zip(tokens[i:], low[i:], strict=True):
        ends = lower in w["stops"] or token in ",;:()[]" or not any(c.isalnum() for c in token)
        if ends or lower.endswith("ly") and len(lower) > 5:
            break
        words.append(token)
        if len(words) > MAX_WORDS + 4:
            break
    if len(words) > MAX_WORDS:
        words = words[:MAX_WORDS]
    if not words or words[0].lower() in w["pronouns"]:
        return ""
    if len(words) == 1 and not words[0][:1].isupper():
        return ""
    if len(words) > MAX_WORDS - 1 and len(low) - i > len(words):
        # Cut in the middle of a longer phrase: end before its last preposition, so it reads whole.
        cut = max((k for k, t in enumerate(words) if t.lower() in w["prepositions"] and k >= 2), default=0)
        if cut:
            words = words[:cut]
    while words and words[-1].lower() in w["prepositions"]:
        words.pop()
    if not words:
        return ""
    return _capital(" ".join(words).strip(" -"))


def display_title(g: nx.MultiDiGraph, node: str) -> str:
    """The title the page shows for paper ``node``: its own (math as Unicode), or a derived one.

    See the module docstring for the order of the candidates.
    """
    d = g.nodes[node]
    title = str(d.get("title") or d.get("label") or node)
    if not d.get("title_derived"):
        return latex_to_text(title) or node
    proposed = _proposed(g, node)
    coined = [text for text, ed in proposed if is_coined(text) and not _common(ed)]
    if is_coined(title):
        coined.insert(0, title)
    for name in coined:
        if not _bare_acronym(name):
            return latex_to_text(name)
    for text, ed in proposed:
        name = str(ed.get("label") or text)
        if _says_something(name) and not _common(ed):
            return _capital(latex_to_text(name))
    phrase = noun_phrase(str(d.get("abstract") or ""))
    if phrase:
        return phrase
    return latex_to_text(title) or node
