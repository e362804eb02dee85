"""kg's own extractor families, registered: importing this module puts them in the registry.

It stands above the extractors and the registry alike, so that neither imports the other: the
registry knows families only by what registers them, and an extractor module knows no registry.
"""

from __future__ import annotations

from extractors.bounds import create_bounds_extractor
from extractors.entities import entity_extractor
from extractors.registry import register
from extractors.relations import relation_extractor

register("entities")(entity_extractor)
register("bounds")(create_bounds_extractor)
register("relations")(relation_extractor)
