"""Extractors keyed by family name; the default set the pipeline runs.

A family (``entities``, ``bounds``) maps to a factory building the current version; the built
extractor's ``name`` carries the version (``bounds.latex.v1``), which the build cache keys on.
The registry knows no family of its own: :mod:`extractors.builtin` registers kg's, and the
``extractors`` package imports it, so they are here whenever an extractor module is.
"""

from __future__ import annotations

from collections.abc import Callable

from extractors.base import Extractor
from kg.errors import ConfigError

_FACTORIES: dict[str, Callable[[], Extractor]] = {}
# "relations" reads the mentions "entities" found, so it comes after it.
DEFAULT_FAMILIES: tuple[str, ...] = ("entities", "bounds", "relations")


def register(family: str) -> Callable[[Callable[[], Extractor]], Callable[[], Extractor]]:
    """Register ``factory`` as the builder of extractor family ``family``."""

    def deco(factory: Callable[[], Extractor]) -> Callable[[], Extractor]:
        _FACTORIES[family] = factory
        return factory

    return deco


def available() -> list[str]:
    return sorted(_FACTORIES)


def create(family: str) -> Extractor:
    """Build the extractor of ``family``; :class:`ConfigError` when unknown."""
    try:
        return _FACTORIES[family]()
    except KeyError:
        raise ConfigError(
            f"unknown extractor family {family!r}; known: {', '.join(sorted(_FACTORIES))}"
        ) from None
