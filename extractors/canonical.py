"""Canonical names for entity mentions: the key that merges surface variants, within and across papers.

``canonicalize("the Stochastic Gradient Descent", "Method")``, ``canonicalize("SGD", "Method")`` and
``canonicalize("stochastic-gradient descents", "Method")`` all give ``"stochastic gradient descent"``.
The steps, in order:

1. Unicode folding (NFKC; every dash and hyphen to ``-``), whitespace collapsed, edge punctuation and
   quotes stripped.
2. Leading determiners and possessives dropped ("the", "a", "our", "their", "this" …).
3. Case folded; hyphens, slashes and underscores become spaces ("phased-elimination" ==
   "phased elimination"); spaces around ``.``-free tokens normalized.
4. The last word singularized ("networks" → "network", "SEMs" → "sem", "policies" → "policy"),
   with an exception list for words that end in s but are singular ("loss", "analysis", "dynamics").
5. The curated alias table (``patterns/aliases.jsonl``) maps the key to a preferred name
   ("sgd" → "stochastic gradient descent", "bert" stays "bert").
6. Acronyms defined in the same paper ("Brownian Distance Correlation (BDCorr)") map through the
   ``acronyms`` argument (short-form key → long-form canonical), built by :func:`acronym_map`.

:func:`resolve`-side code (``kg/resolve.py``) calls :func:`canonicalize` and :func:`load_aliases`.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from kg.errors import ConfigError

PATTERNS_DIR = Path(__file__).resolve().parent / "patterns"
ALIASES_PATH = PATTERNS_DIR / "aliases.jsonl"


def read_rules(name: str | Path) -> list[dict[str, Any]]:
    """The JSON objects of a rule file, one per non-blank line: ``name`` under ``patterns/``, or a path.

    Raises:
        ConfigError: the file cannot be read, or a line is not a JSON object (file and line named).
    """
    path = name if isinstance(name, Path) else PATTERNS_DIR / name
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read rule data: {exc.strerror}") from exc
    out = []
    for lineno, line in enumerate(lines, 1):
        if line.strip():
            try:
                obj = json.loads(line)
            except ValueError as exc:
                raise ConfigError(f"{path}: line {lineno}: expected a JSON object: {exc}") from exc
            if not isinstance(obj, dict):
                raise ConfigError(f"{path}: line {lineno}: expected a JSON object")
            out.append(obj)
    return out

DETERMINERS = frozenset(
    "the a an our their this these those that its his her my your we such each every any some "
    "both either neither several various".split()
)
_DASHES = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff0d"), "-")
_DASHES.update(dict.fromkeys(map(ord, "\u201c\u201d\u201e\u00ab\u00bb"), '"'))
_DASHES.update(dict.fromkeys(map(ord, "\u2018\u2019\u201a\u2032"), "'"))
_EDGE = " \t\n\"'`.,;:!?()[]{}<>*"
# Singular words that end in "s": never stripped.
_S_SINGULAR = frozenset(
    """loss bias analysis basis class process series species gas lens atlas chaos corpus status
    consensus radius focus bonus calculus virus locus nexus genus apparatus thesis hypothesis synthesis
    diagnosis prognosis emphasis axis crisis parenthesis this its less news physics dynamics statistics
    mathematics robotics graphics kinematics economics ethics linguistics genomics proteomics semantics
    pragmatics optics mechanics electronics acoustics informatics logistics analytics heuristics
    metrics forensics aerodynamics thermodynamics hydrodynamics cross plus minus across various
    gauss bayes adas sars covid ks mos os ios us""".split()
)
_WORD = re.compile(r"[a-z]+")
# Heads that only say what kind of thing a coined name is: "BDC-Merge framework" is BDC-Merge.
GENERIC_HEADS = frozenset(
    "framework method model algorithm approach architecture system pipeline module network technique "
    "scheme strategy procedure toolkit library package tool dataset benchmark corpus suite".split()
)
# Stock acronyms that are not coined system names.
STOCK_ACRONYMS = frozenset(
    """MATH AI ML NLP CV RL LLM VLM GPU CPU TPU API SOTA IID OOD ID US UK EU USA PhD MSE KL AUC ROC
    ODE PDE SDE MDP DNN CNN RNN GNN MLP SGD GD QA RAG CoT IoT XAI HCI EHR DNA RNA MRI CT FLOP FLOPs
    MRF IR OCR ASR TTS MT NER POS""".split()
)


@dataclass(frozen=True, slots=True)
class Alias:
    """One curated alias rule: every name in ``names`` canonicalizes to ``canonical``."""

    id: str
    canonical: str
    type: str
    names: tuple[str, ...]


def fold(text: str) -> str:
    """Unicode-fold ``text``: NFKC, dashes to ``-``, whitespace collapsed, edges stripped.

    >>> fold("  phased\\u2011elimination  algorithms. ")
    'phased-elimination algorithms'
    """
    text = unicodedata.normalize("NFKC", text).translate(_DASHES)
    text = " ".join(text.split())
    return text.strip(_EDGE)


def drop_determiners(text: str) -> str:
    """Drop leading determiners and possessives ("the", "our", "this" …), repeatedly.

    >>> drop_determiners("the our method")
    'method'
    """
    words = text.split(" ")
    while len(words) > 1 and words[0].lower() in DETERMINERS:
        words = words[1:]
    return " ".join(words)


def singularize(word: str) -> str:
    """Singular of one (lowercase) English word or acronym plural ("sems" from "SEMs" → "sem").

    >>> [singularize(w) for w in ["networks", "policies", "losses", "analysis", "sems", "data"]]
    ['network', 'policy', 'loss', 'analysis', 'sem', 'data']
    """
    if not _WORD.fullmatch(word) or word in _S_SINGULAR or len(word) < 3:
        return word
    if word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes", "zzes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("'s"):
        return word[:-1]
    return word


def acronym_singular(word: str) -> str:
    """``SEMs`` → ``SEM``: an uppercase acronym with a lowercase plural s."""
    if len(word) >= 3 and word.endswith("s") and word[:-1].isupper() and word[:-1].isalpha():
        return word[:-1]
    return word


def is_coined(word: str) -> bool:
    """Whether one word is a coined system name: a hyphen part with an inner capital ("XShapeEnc",
    "BDC-Merge", "f-GRPO") or a capital with digits ("BEAT2") — not a stock acronym ("LLMs").

    >>> [is_coined(w) for w in ["XShapeEnc", "f-GRPO", "ADAG", "Shepherd", "LLMs", "Korean-to-English"]]
    [True, True, True, False, False, False]
    """
    if word in STOCK_ACRONYMS or word.rstrip("s") in STOCK_ACRONYMS:
        return False
    if sum(c.isalpha() for c in word) < 2 or not re.fullmatch(r"[A-Za-z0-9]+(?:[-.+][A-Za-z0-9]+)*", word):
        return False
    for part in re.split(r"[-.+]", word):
        if len(part) >= 2 and (
            any(c.isupper() for c in part[1:]) or (part[0].isupper() and any(c.isdigit() for c in part))
        ):
            return True
    return False


def drop_generic_head(text: str) -> str:
    """Drop a trailing generic head after a coined name: "the BDC-Merge framework" → "the BDC-Merge".

    >>> drop_generic_head("SN-VLM framework"), drop_generic_head("graph neural network")
    ('SN-VLM', 'graph neural network')
    """
    words = text.split(" ")
    if (
        len(words) >= 2
        and singularize(words[-1].lower()) in GENERIC_HEADS
        and any(is_coined(w) for w in words[:-1])
    ):
        return " ".join(words[:-1])
    return text


@lru_cache(maxsize=1 << 18)  # ~30 mentions per abstract, most names seen before
def canonical_key(text: str) -> str:
    """The variant-folded key of a name, before aliases: steps 1-4 of the module doc.

    >>> canonical_key("The Phased\\u2011Elimination Algorithms")
    'phased elimination algorithm'
    >>> canonical_key("SEMs")
    'sem'
    """
    text = drop_generic_head(drop_determiners(fold(text)))
    words = text.split(" ")
    if words and words[-1]:
        words[-1] = acronym_singular(words[-1])
    text = " ".join(words).lower()
    # Hyphen/space/underscore/slash variants are one name; "'s" possessives are dropped.
    text = re.sub(r"'s\b", "", text)
    text = re.sub(r"[\s\-_/$()\[\]]+", " ", text).strip()
    words = text.split(" ")
    if words and words[-1]:
        words[-1] = singularize(words[-1])
    return " ".join(words)


@lru_cache(maxsize=1)
def load_aliases(path: str | None = None) -> dict[str, Alias]:
    """The curated alias table: canonical key of every listed name → its :class:`Alias`.

    Args:
        path: an ``aliases.jsonl`` file (default: the shipped one). Each line is
            ``{"id", "canonical", "type", "names": [...]}``.

    Returns:
        Key → alias rule. Later lines do not override earlier ones.
    """
    table: dict[str, Alias] = {}
    for obj in read_rules(Path(path) if path else ALIASES_PATH):
        alias = Alias(obj["id"], obj["canonical"], obj["type"], tuple(obj["names"]))
        for name in (alias.canonical, *alias.names):
            table.setdefault(canonical_key(name), alias)
    return table


def canonicalize(text: str, type: str = "", acronyms: Mapping[str, str] | None = None) -> str:  # noqa: A002
    """The canonical name of a mention of ``type`` (the merge key, lowercase).

    Args:
        text: the surface form, as written.
        type: the entity type (``Method``…); reserved for type-specific aliases, which win.
        acronyms: short-form key → long-form canonical for acronyms defined in the same paper
            (from :func:`acronym_map`).

    Returns:
        The canonical name.

    >>> canonicalize("SGD", "Method")
    'stochastic gradient descent'
    >>> canonicalize("BDCorr", "Method", {"bdcorr": "brownian distance correlation"})
    'brownian distance correlation'
    >>> canonicalize("the Transformers", "Method")
    'transformer'
    """
    key = canonical_key(text)
    if acronyms and key in acronyms:
        return acronyms[key]
    if acronyms and key not in acronyms.values():
        # "SLE kernel" with SLE defined in the paper: "sparse landmark embedding kernel"
        key = " ".join(acronyms.get(word, word) for word in key.split(" "))
    alias = load_aliases().get(key)
    if alias is not None:
        return alias.canonical
    return key


def acronym_map(pairs: Iterable[tuple[str, str]], type: str = "") -> dict[str, str]:  # noqa: A002
    """Short-form key → long-form canonical for ``(short, long)`` pairs found in one paper.

    >>> acronym_map([("SEMs", "Structural Equation Models")])
    {'sem': 'structural equation model'}
    """
    out: dict[str, str] = {}
    for short, long in pairs:
        out.setdefault(canonical_key(short), canonicalize(long, type))
    return out
