"""The docs inside the code point at things that exist, and the public API is honest.

* every ``:mod:`` / ``:func:`` / ``:class:`` / ``:meth:`` / ``:attr:`` / ``:data:`` /
  ``:exc:`` reference in a docstring resolves (relative ``.x`` against the module's
  package, then against the module itself; ``~`` and trailing ``()`` ignored);
* every error class in the facade's error tree can be imported from a public module;
* no module imports another package's private module (a bundle's modules are private to
  the bundle; a package's private modules to the package).
"""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import saikoro
from test_api_inventory import PUBLIC as FACADES

PACKAGE = Path(saikoro.__file__).resolve().parent
ROLE = re.compile(r":(mod|func|class|meth|attr|data|exc|obj):`~?([^`<>]+?)(?:\(\))?`")
PUBLIC = (*FACADES, "saikoro.site.vendor")


def _name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        if "vendor" in path.relative_to(PACKAGE).parts[:2] and path.name != "__init__.py":
            continue
        yield _name(path), path


def _docstrings(
    node: ast.AST, scope: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], str]]:
    """Every documenting string with the classes it is written in (innermost last)."""
    for child in ast.iter_child_nodes(node):
        if (
            isinstance(child, ast.Expr)
            and isinstance(child.value, ast.Constant)
            and isinstance(child.value.value, str)
        ):
            yield scope, child.value.value
        inner = (*scope, child.name) if isinstance(child, ast.ClassDef) else scope
        yield from _docstrings(child, inner)


def _resolve(target: str) -> bool:
    """Whether the dotted ``target`` names a module, or an attribute reachable from one."""
    parts = target.split(".")
    for cut in range(len(parts), 0, -1):
        module_name = ".".join(parts[:cut])
        try:
            obj: object = importlib.import_module(module_name)
        except ImportError:
            continue
        for attr in parts[cut:]:
            if hasattr(obj, attr):
                obj = getattr(obj, attr)
            elif isinstance(obj, type) and attr in getattr(obj, "__annotations__", {}):
                obj = None  # a dataclass field: documented, not a class attribute
            elif isinstance(obj, type) and any(
                attr in getattr(base, "__annotations__", {}) for base in obj.__mro__
            ):
                obj = None
            else:
                return False
        return True
    return False


def _candidates(
    module: str, is_package: bool, target: str, scope: tuple[str, ...] = ()
) -> list[str]:
    if not target.startswith("."):
        classes = [".".join([module, *scope[:i]]) for i in range(len(scope), 0, -1)]
        return [
            *(f"{c}.{target}" for c in classes),
            target,
            f"{module}.{target}",
            f"saikoro.{target}",
            f"builtins.{target}",
        ]
    level = len(target) - len(target.lstrip("."))
    rest = target[level:]
    base = module.split(".") if is_package else module.split(".")[:-1]
    up = base[: len(base) - (level - 1)] if level > 1 else base
    own = module.split(".")
    return [".".join([*up, rest]), ".".join([*own, rest])]


def broken_references() -> list[str]:
    out = []
    for module, path in _modules():
        tree = ast.parse(path.read_text("utf-8"))
        package = path.name == "__init__.py"
        for scope, doc in _docstrings(tree):
            for role, target in ROLE.findall(doc):
                found = _candidates(module, package, target.strip(), scope)
                if not any(_resolve(c) for c in found):
                    out.append(f"{module}: :{role}:`{target}`")
    return sorted(set(out))


def test_every_docstring_reference_resolves() -> None:
    assert broken_references() == []


def test_the_reference_check_sees_a_broken_one() -> None:
    assert _resolve("saikoro.dice.Dist.mean") and _resolve("saikoro.scenario")
    assert not _resolve("saikoro.site.profiles") and not _resolve("saikoro.dice.Nope")


def _error_tree() -> list[str]:
    doc = saikoro.__doc__ or ""
    tree = doc.split("::", 1)[1].split(">>>", 1)[0]
    return [*re.findall(r"[├└]── (\w+)", tree), "SaikoroError"]


@pytest.mark.parametrize("name", _error_tree())
def test_every_documented_error_is_public(name: str) -> None:
    homes = [m for m in PUBLIC if name in getattr(importlib.import_module(m), "__all__", ())]
    assert homes, f"{name} is in saikoro's error tree but no public module exports it"
    error = getattr(importlib.import_module(homes[0]), name)
    assert isinstance(error, type) and issubclass(error, saikoro.SaikoroError)
