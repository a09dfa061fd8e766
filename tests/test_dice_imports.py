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


def test_systems_import_only_the_standard_library_and_dice() -> None:
    paths = sorted((PACKAGE / "systems").rglob("*.py"))
    assert paths
    assert _problems(paths, ("saikoro.dice", "saikoro.systems")) == []
