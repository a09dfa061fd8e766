"""Run the ``>>>`` examples of saikoro.scenario (not in pytest's doctest paths)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import saikoro.scenario

MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(saikoro.scenario.__path__, "saikoro.scenario.")
    if not m.name.endswith("__main__")
)


@pytest.mark.parametrize("name", ["saikoro.scenario", *MODULES])
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
