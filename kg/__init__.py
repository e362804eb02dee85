"""kg: a typed knowledge graph of ML paper abstracts.

Stages, in the one direction data flows: :mod:`kg.ingest` → :mod:`kg.text` → ``extractors`` →
:mod:`kg.resolve` → :mod:`kg.assemble` → :mod:`kg.export`, :mod:`kg.query`, :mod:`kg.related`.
"""

__version__ = "0.1.0"
