"""Every exception class saikoro defines is a SaikoroError and keeps its standard base.

What a user can cause is raised as one of them (never a bare ``ValueError``); a broken
invariant is an :class:`~saikoro.dice.InternalError`, which nothing in saikoro catches.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from collections.abc import Callable
from pathlib import Path

import pytest

import saikoro
from saikoro import DiceError, SaikoroError
from saikoro.dice import Dist, DistributionError, InternalError, LimitError, ParseError
from saikoro.systems import OptionError, RulesError, UnknownSystemError


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
        ("saikoro.dice._errors.DiceError", ValueError),
        ("saikoro.dice._arith.ArithZeroDivisionError", ValueError),
        ("saikoro.systems.OptionError", ValueError),
        ("saikoro.systems.UnknownSystemError", ValueError),
        ("saikoro.systems._flow.FlowError", ValueError),
        ("saikoro.systems._cutaction.errors.CutActionError", DiceError),
        ("saikoro.systems._getb.board.BoardError", ValueError),
        ("saikoro.systems._getb.states.CostError", ValueError),
        ("saikoro.systems._akatsuki.cards.CardError", ValueError),
        ("saikoro.systems._akatsuki.checks.CheckSpecError", ValueError),
        ("saikoro.scenario._loader.LoadError", ValueError),
        ("saikoro.site._roller.RollerAssetError", ValueError),
        ("saikoro.site.vendor.VendorError", RuntimeError),
        ("saikoro._new.BookExistsError", FileExistsError),
        ("saikoro._new.BookError", ValueError),
        ("saikoro.dice.DistributionError", ValueError),
        ("saikoro.dice.InternalError", AssertionError),
        ("saikoro.systems.RulesError", ValueError),
        ("saikoro.systems._getb.board.BoardError", RulesError),
        ("saikoro.systems._getb.states.CostError", RulesError),
        ("saikoro.systems._akatsuki.cards.CardError", RulesError),
        ("saikoro.systems._akatsuki.checks.CheckSpecError", RulesError),
        ("saikoro.balance.BalanceError", ValueError),
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
        (lambda: Dist.die(0), DistributionError),
        (lambda: saikoro.get_system("getb", final_damage_tie="coin"), OptionError),
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


def _modules() -> list[tuple[str, ast.Module]]:
    """Every module of the package (vendored files left out), parsed."""
    root = Path(saikoro.__file__).resolve().parent
    return [
        (
            ".".join(path.relative_to(root.parent).with_suffix("").parts),
            ast.parse(path.read_text("utf-8")),
        )
        for path in sorted(root.rglob("*.py"))
        # vendored files, and the browser's files: the MicroPython stand-ins for the standard
        # library raise and catch what the standard library does (ValueError, BaseException)
        if "vendor" not in path.relative_to(root).parts
        and path.relative_to(root).parts[:2] != ("site", "assets")
    ]


def _names(node: ast.expr | None) -> set[str]:
    if node is None:
        return {"<bare except>"}
    if isinstance(node, ast.Tuple):
        return {n for e in node.elts for n in _names(e)}
    if isinstance(node, ast.Attribute):
        return {node.attr}
    return {node.id} if isinstance(node, ast.Name) else {ast.unparse(node)}


BUG_REPORTS = {
    # module -> why it may catch everything: it reports the bug loudly, never as "valid".
    "saikoro.scenario._cli": "saikoro validate prints 'internal error' and the traceback",
    "saikoro.export._room_cli": "saikoro room prints 'internal error' and the traceback "
    "(exit 3) and writes no room",
    "saikoro.site._fences": "a fence that fails is an error at its line and stops the build "
    "(superfences would show it as plain code, silently)",
}
BROAD = {"<bare except>", "BaseException", "Exception", "AssertionError", "SaikoroError"}


def test_nothing_catches_an_internal_error() -> None:
    caught = [
        f"{name}:{handler.lineno}: except {', '.join(sorted(_names(handler.type) & BROAD))}"
        for name, tree in _modules()
        if name not in BUG_REPORTS
        for handler in ast.walk(tree)
        if isinstance(handler, ast.ExceptHandler)
        and _names(handler.type) & (BROAD | {"InternalError"})
    ]
    assert caught == []
    assert set(BUG_REPORTS) <= {name for name, _ in _modules()}


LOCAL_VALUE_ERRORS = {
    # module -> why a bare ValueError is raised there: it never leaves the module.
    "saikoro.scenario._schema": "IntOrRange.bounds, caught by IntOrRange.check",
}


def test_no_bare_value_error_reaches_a_user() -> None:
    bare = [
        f"{name}:{node.lineno}"
        for name, tree in _modules()
        if name not in LOCAL_VALUE_ERRORS
        for node in ast.walk(tree)
        if isinstance(node, ast.Raise)
        and isinstance(node.exc, ast.Call)
        and isinstance(node.exc.func, ast.Name)
        and node.exc.func.id == "ValueError"
    ]
    assert bare == [], "raise a SaikoroError subclass (or InternalError for a broken invariant)"


def test_the_internal_error_is_raised_where_callers_break_an_invariant() -> None:
    from saikoro.dice._chains import chain_sum

    with pytest.raises(InternalError, match="faces must number the sides"):
        chain_sum([6], [1], 6, 2)
    assert not issubclass(InternalError, ValueError)
