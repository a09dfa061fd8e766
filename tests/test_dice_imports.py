"""The browser-shipped modules import only the standard library (and systems: saikoro.dice)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "plugin" / "saikoro"


def _imports(path: Path) -> list[tuple[str, int]]:
    """``(module, level)`` for every import statement (level > 0: relative)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((alias.name, 0) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.append((node.module or "", node.level))
    return found


def _relative_target(path: Path, module: str, level: int) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    base = parts[: len(parts) - level]
    return ".".join([*base, module] if module else base)


def _problems(paths: list[Path], allowed_saikoro: tuple[str, ...]) -> list[str]:
    problems = []
    for path in paths:
        for module, level in _imports(path):
            target = _relative_target(path, module, level) if level else module
            top = target.split(".")[0]
            if top == "saikoro":
                if not target.startswith(allowed_saikoro):
                    problems.append(f"{path.relative_to(PACKAGE)}: {target}")
            elif top not in sys.stdlib_module_names:
                problems.append(f"{path.relative_to(PACKAGE)}: {target}")
    return problems


def test_dice_imports_only_the_standard_library() -> None:
    paths = sorted((PACKAGE / "dice").rglob("*.py"))
    assert paths
    assert _problems(paths, ("saikoro.dice",)) == []


def test_package_init_imports_only_dice_and_systems() -> None:
    assert _problems([PACKAGE / "__init__.py"], ("saikoro.dice", "saikoro.systems")) == []


def _parts() -> set[str]:
    """The modules of every built-in system's parts above the engine (and their packages)."""
    from saikoro.systems import BUILTIN, system_class

    return {m for s in BUILTIN for m in system_class(s).part_modules()}


def _is_part(path: Path, parts: set[str]) -> bool:
    name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    name = name.removesuffix(".__init__")
    return any(name == p or name.startswith(p + ".") for p in parts)


def test_systems_import_only_the_standard_library_and_dice() -> None:
    """The engine of every bundle (all but its parts above the engine) is stdlib-only, and
    never imports those parts (they import the rest of saikoro)."""
    parts = _parts()
    paths = sorted(p for p in (PACKAGE / "systems").rglob("*.py") if not _is_part(p, parts))
    assert len(paths) > 40
    assert _problems(paths, ("saikoro.dice", "saikoro.systems")) == []
    reaching = [
        f"{path.relative_to(PACKAGE)}: {target}"
        for path in paths
        for module, level in _imports(path)
        for target in [_relative_target(path, module, level) if level else module]
        if any(target == p or target.startswith(p + ".") for p in parts)
    ]
    assert reaching == []


def test_every_bundle_has_its_parts_beside_its_engine() -> None:
    """Each built-in system has all its parts, inside its own folder."""
    from saikoro.systems import BUILTIN, system_class

    for system_id, where in BUILTIN.items():
        cls = system_class(system_id)
        assert len(cls.part_modules()) == len(cls.PARTS), system_id
        for module in cls.part_modules():
            assert module.startswith(where + "."), (system_id, module)
        for name in cls.PARTS:
            assert cls.part(name).__name__ == f"{where}.{name}"
