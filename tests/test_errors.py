"""Every exception class saikoro defines is a SaikoroError and keeps its standard base."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable

import pytest

import saikoro
from saikoro import DiceError, SaikoroError
from saikoro.dice import LimitError, ParseError
from saikoro.systems import OptionError, UnknownSystemError


def _exception_classes() -> list[type[BaseException]]:
    """Every exception class defined (not just imported) in a module of the package."""
    found: list[type[BaseException]] = []
    for info in pkgutil.walk_packages(saikoro.__path__, "saikoro."):
        if info.name.rsplit(".", 1)[-1] == "__main__":
            continue  # running it is its import
        module = importlib.import_module(info.name)
        found.extend(
            value
            for value in vars(module).values()
            if inspect.isclass(value)
            and issubclass(value, BaseException)
            and value.__module__ == module.__name__
        )
    return found


def test_the_walk_finds_the_known_classes() -> None:
    names = {cls.__qualname__ for cls in _exception_classes()}
    # A walk that found nothing would pass the next test vacuously.
    known = {"DiceError", "LoadError", "FlowError", "CutActionError", "VendorError"}
    assert known <= names
    assert len(names) >= 15


def test_every_exception_class_is_a_saikoro_error() -> None:
    strays = [
        f"{cls.__module__}.{cls.__qualname__}"
        for cls in _exception_classes()
        if not issubclass(cls, SaikoroError)
    ]
    assert strays == []


@pytest.mark.parametrize(
    ("path", "base"),
    [
        ("saikoro.dice.errors.DiceError", ValueError),
        ("saikoro.dice.arith.ArithZeroDivisionError", ValueError),
        ("saikoro.systems.OptionError", ValueError),
        ("saikoro.systems.UnknownSystemError", ValueError),
        ("saikoro.systems.flow.FlowError", ValueError),
        ("saikoro.systems.cutaction.errors.CutActionError", DiceError),
        ("saikoro.systems.getb.board.BoardError", ValueError),
        ("saikoro.systems.getb.states.CostError", ValueError),
        ("saikoro.systems.akatsuki.cards.CardError", ValueError),
        ("saikoro.systems.akatsuki.checks.CheckSpecError", ValueError),
        ("saikoro.scenario.loader.LoadError", ValueError),
        ("saikoro.site.roller.RollerAssetError", ValueError),
        ("saikoro.site.vendor.VendorError", RuntimeError),
        ("saikoro.new.BookExistsError", FileExistsError),
    ],
)
def test_standard_bases_are_kept(path: str, base: type[BaseException]) -> None:
    module_name, name = path.rsplit(".", 1)
    cls = getattr(importlib.import_module(module_name), name)
    assert issubclass(cls, base)
    assert issubclass(cls, SaikoroError)


def test_saikoro_error_is_not_a_value_error() -> None:
    # The root is neutral: a VendorError is a RuntimeError, not a ValueError.
    assert not issubclass(SaikoroError, ValueError)
    assert saikoro.SaikoroError is saikoro.dice.SaikoroError


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        (lambda: saikoro.get_system("nope"), UnknownSystemError),
        (lambda: saikoro.get_system("getb", no_such_option=True), OptionError),
        (lambda: saikoro.roll("1000000D6"), LimitError),
        (lambda: saikoro.roll("2D6", dice=[(4, 1)]), DiceError),
    ],
)
def test_one_except_catches_the_engine_and_the_registry(
    action: Callable[[], object], expected: type[SaikoroError]
) -> None:
    with pytest.raises(SaikoroError) as caught:
        action()
    assert isinstance(caught.value, expected)
    assert issubclass(ParseError, SaikoroError)


def test_the_facade_documents_the_hierarchy() -> None:
    doc = saikoro.__doc__ or ""
    for cls in _exception_classes():
        if cls.__name__.startswith("_"):
            continue
        assert cls.__name__ in doc, f"{cls.__name__} is missing from saikoro's docstring"
