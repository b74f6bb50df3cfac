"""The doctests in the rules modules and the game contract run with the tests."""

import doctest
import importlib
import pkgutil

import pytest

import companion.games

MODULES = ["companion.games.base", "companion.dice"] + [
    m.name for m in pkgutil.walk_packages(companion.games.__path__, "companion.games.")
    if not m.name.endswith((".view", ".screens", ".mapdraw"))  # Flet modules hold no doctests
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
