"""Extractors: versioned components that turn a parsed paper into mentions and bounds.

Each extractor has a versioned name (``bounds.latex.v1``), takes a :class:`ParsedPaper`, yields
:class:`kg.types.Mention` or :class:`kg.types.Bound` records, and does no I/O of its own at
extraction time (rule data is read once, when the extractor is built) and no graph writes.
"""

import extractors.builtin  # noqa: F401  # registers kg's own families (entities, bounds)
from extractors.base import Extractor, ParsedPaper
from extractors.registry import available, create, register

__all__ = ["Extractor", "ParsedPaper", "available", "create", "register"]
