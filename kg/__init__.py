"""kg: a typed knowledge graph of ML paper abstracts.

``kg.build(inputs)`` and ``kg.load(directory)`` give a :class:`kg.KnowledgeGraph` (:mod:`kg.api`,
walked through in ``docs/python-api.md``). Stages, in the one direction data flows: :mod:`kg.ingest`
→ :mod:`kg.text` → ``extractors`` → :mod:`kg.resolve` → :mod:`kg.assemble` → :mod:`kg.graphdir` →
:mod:`kg.export`, :mod:`kg.query`, :mod:`kg.related` (``docs/architecture.md``).
"""

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from kg.api import KnowledgeGraph, build, compact, extract, load, named_queries, remove, update

__all__ = [
    "KnowledgeGraph",
    "__version__",
    "build",
    "compact",
    "extract",
    "load",
    "named_queries",
    "remove",
    "update",
]


def __getattr__(name: str) -> Any:
    """The API's names, imported on first use so that ``import kg`` stays cheap."""
    if name in __all__:
        from kg import api

        return getattr(api, name)
    raise AttributeError(f"module 'kg' has no attribute {name!r}")
