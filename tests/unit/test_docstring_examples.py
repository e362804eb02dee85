"""The examples in the library's docstrings run and print what they say (doctest)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import extractors
import kg


def _modules() -> list[str]:
    names = []
    for package in (kg, extractors):
        names.append(package.__name__)
        names.extend(m.name for m in pkgutil.walk_packages(package.__path__, package.__name__ + "."))
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} docstring examples failed"


def test_docstring_examples_exist() -> None:
    # the parametrization above found the library's modules, and they hold examples to run
    finder = doctest.DocTestFinder()
    examples = sum(
        len(test.examples) for name in _modules() for test in finder.find(importlib.import_module(name))
    )
    assert examples >= 50
