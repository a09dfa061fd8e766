"""One system, one bundle: no module outside a bundle (and the registry) names a built-in system.

Shared code reads a system's registration (``System`` attributes, its parts' attributes)
and never compares a system id, so a sixth system, built in or from an installed package,
is handled by the same code. The check reads every string in the code of every module
outside ``systems/_<id>/`` and ``systems/__init__.py`` (docstrings and doctests excluded:
they may use a system as an example) and every import.
"""

from __future__ import annotations

import ast
from pathlib import Path

from saikoro.systems import BUILTIN

PACKAGE = Path(__file__).resolve().parents[1] / "plugin" / "saikoro"
IDS = tuple(BUILTIN)


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string nodes that document (docstrings and the strings under an
    attribute): a bare string statement does nothing but document."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }


def names_a_system(text: str) -> bool:
    """Whether a string of code names a built-in system: its id (alone, as a key prefix
    ``getb.`` or ``getb-``) or its bundle's module (``_getb``)."""
    for system_id in IDS:
        if text == system_id or text.startswith((f"{system_id}.", f"{system_id}-")):
            return True
        if f"_{system_id}" in text or f"/{system_id}." in text:
            return True
    return False


def naming(path: Path) -> list[str]:
    tree = ast.parse(path.read_text("utf-8"))
    docs = _docstrings(tree)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docs and names_a_system(node.value):
                out.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {node.value!r:.60}")
        elif isinstance(node, ast.ImportFrom) and node.module and names_a_system(node.module):
            out.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: import {node.module}")
        elif isinstance(node, ast.Import):
            out += [
                f"{path.relative_to(PACKAGE)}:{node.lineno}: import {a.name}"
                for a in node.names
                if names_a_system(a.name)
            ]
    return out


def _shared_modules() -> list[Path]:
    bundles = [PACKAGE / "systems" / f"_{s}" for s in IDS]
    return [
        p
        for p in sorted(PACKAGE.rglob("*.py"))
        if "vendor" not in p.parts
        and not any(b in p.parents for b in bundles)
        and p != PACKAGE / "systems" / "__init__.py"
    ]


def test_no_shared_module_names_a_builtin_system() -> None:
    modules = _shared_modules()
    assert len(modules) > 100
    found = [line for path in modules for line in naming(path)]
    assert found == []


def test_the_check_sees_a_system_named(tmp_path: Path) -> None:
    assert names_a_system("getb") and names_a_system("kegare.attack")
    assert names_a_system("saikoro.systems._cutaction.page") and not names_a_system("target")
    probe = PACKAGE / "_probe_for_test.py"
    try:
        probe.write_text('"""Doc: getb is fine here."""\nX = {"kokuryoku": 1}\n', "utf-8")
        assert [line.split(": ", 1)[1] for line in naming(probe)] == ["'kokuryoku'"]
    finally:
        probe.unlink()
