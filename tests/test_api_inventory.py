"""The public surface: the ``__all__`` of the facade and the public subpackages, checked in.

Every name the facade and the subpackages export (and the public members of each
exported class) is listed, with its kind, in ``tests/data/api_inventory.txt``, and so is
every module whose dotted name has no part starting with ``_`` (the private modules are
exactly those that have one: ``saikoro.dice._lexer``, ``saikoro.systems._getb.checks``).
A change to that surface fails here with a diff, so it is made on purpose: after an
intended change, regenerate the file with ``.venv/bin/python tests/test_api_inventory.py``
and commit it with the change (and a CHANGELOG line).
"""

from __future__ import annotations

import difflib
import enum
import importlib
import inspect
import pkgutil
import sys
from pathlib import Path

INVENTORY = Path(__file__).resolve().parent / "data" / "api_inventory.txt"
PUBLIC = (
    "saikoro",
    "saikoro.dice",
    "saikoro.systems",
    "saikoro.scenario",
    "saikoro.scenario.model",
    "saikoro.export",
    "saikoro.balance",
    "saikoro.tune",
    "saikoro.site",
)
"""The modules whose ``__all__`` is the public API (everything else is internal)."""


def _kind(value: object) -> str:
    if inspect.isclass(value):
        if issubclass(value, BaseException):
            return "exception"
        if issubclass(value, enum.Enum):
            return "enum"
        return "class"
    if inspect.ismodule(value):
        return "module"
    if callable(value):
        return "function"
    return "data"


def _member_kind(raw: object) -> str:
    if isinstance(raw, property):
        return "property"
    if isinstance(raw, (staticmethod, classmethod)) or inspect.isfunction(raw):
        return "method"
    return "attribute"


def _members(cls: type) -> list[tuple[str, str]]:
    """The public names a class defines itself: methods, properties, fields, enum members."""
    own: dict[str, str] = {}
    for name in getattr(cls, "__annotations__", {}):
        if name in vars(cls).get("__annotations__", {}):
            own[name] = "attribute"
    for name, raw in vars(cls).items():
        own[name] = _member_kind(raw)
    return sorted((n, k) for n, k in own.items() if not n.startswith("_"))


def public_modules() -> list[str]:
    """Every module of the package whose dotted name has no private (``_``) part."""
    import saikoro

    names = [info.name for info in pkgutil.walk_packages(saikoro.__path__, "saikoro.")]
    return sorted(
        ["saikoro", *(n for n in names if not any(p.startswith("_") for p in n.split(".")))]
    )


def inventory() -> list[str]:
    """One line per public name: ``module.name kind`` (class members indented by name)."""
    lines: list[str] = [f"{name} public-module" for name in public_modules()]
    for module_name in PUBLIC:
        module = importlib.import_module(module_name)
        exported = getattr(module, "__all__", None)
        if exported is None:
            raise AssertionError(f"{module_name} has no __all__")
        for name in sorted(exported):
            value = getattr(module, name)  # a name in __all__ that is missing fails here
            kind = _kind(value)
            lines.append(f"{module_name}.{name} {kind}")
            if kind in {"class", "enum", "exception"}:
                lines.extend(
                    f"{module_name}.{name}.{member} {member_kind}"
                    for member, member_kind in _members(value)
                )
    return lines


def test_the_public_surface_is_the_checked_in_inventory() -> None:
    expected = INVENTORY.read_text("utf-8").splitlines()
    found = inventory()
    diff = "\n".join(
        difflib.unified_diff(expected, found, "api_inventory.txt", "the package", lineterm="")
    )
    assert found == expected, (
        "the public API changed (- was, + is). If that is intended, run "
        f"`.venv/bin/python tests/test_api_inventory.py` and commit the file:\n{diff}"
    )


def test_the_inventory_sees_a_change() -> None:
    # A test that compared the inventory with itself would always pass.
    import saikoro

    before = inventory()
    saikoro.__all__.append("get_system_for_test")
    saikoro.get_system_for_test = saikoro.get_system  # type: ignore[attr-defined]
    try:
        assert "saikoro.get_system_for_test function" in set(inventory()) - set(before)
    finally:
        saikoro.__all__.remove("get_system_for_test")
        del saikoro.get_system_for_test  # type: ignore[attr-defined]


def test_the_public_packages_are_public_modules() -> None:
    assert set(PUBLIC) <= set(public_modules())


def test_every_public_module_names_only_what_it_has() -> None:
    for module_name in PUBLIC:
        module = importlib.import_module(module_name)
        missing = [n for n in module.__all__ if not hasattr(module, n)]
        assert missing == [], module_name
        assert len(set(module.__all__)) == len(module.__all__), module_name


if __name__ == "__main__":
    INVENTORY.write_text("\n".join(inventory()) + "\n", "utf-8")
    print(f"wrote {INVENTORY} ({len(inventory())} lines)", file=sys.stderr)
