"""The package's layers: no import circle, and the layers above the engine skip the facade.

``dice`` -> ``systems`` -> ``scenario`` -> ``site`` and ``export``; the facade
(``saikoro/__init__.py``) is for users. :mod:`test_dice_imports` checks that the engine
imports only the standard library; this file checks the rest from the source (module-
level imports for circles; every import for the facade rule).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "plugin" / "saikoro"


def _name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {
        _name(p): p
        for p in PACKAGE.rglob("*.py")
        if "node_modules" not in p.parts and not {"pyodide", "mermaid"} & set(p.parts)
    }


def _statements(body: list[ast.stmt]) -> list[ast.Import | ast.ImportFrom]:
    """The imports run when the module is imported (not those in functions)."""
    found: list[ast.Import | ast.ImportFrom] = []
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, ast.If):
            typing_only = isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
            if not typing_only:
                found += _statements(node.body)
            found += _statements(node.orelse)
        elif isinstance(node, ast.Try):
            found += _statements(node.body) + _statements(node.orelse)
            found += _statements(node.finalbody)
            for handler in node.handlers:
                found += _statements(handler.body)
    return found


def _targets(
    module: str, path: Path, modules: dict[str, Path], *, everywhere: bool = False
) -> set[str]:
    """The package's modules ``module`` imports when imported (``everywhere``: at all)."""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    tree = ast.parse(path.read_text("utf-8"))
    nodes = (
        [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
        if everywhere
        else _statements(tree.body)
    )
    out: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in modules)
            continue
        if node.level:
            base = package[: len(package) - (node.level - 1)]
            target = ".".join([*base, node.module] if node.module else base)
        else:
            target = node.module or ""
        for alias in node.names:
            sub = f"{target}.{alias.name}"
            if sub in modules:
                out.add(sub)
            elif target in modules:
                out.add(target)
    out.discard(module)
    return out


def _graph(*, everywhere: bool = False) -> dict[str, set[str]]:
    modules = _modules()
    return {m: _targets(m, p, modules, everywhere=everywhere) for m, p in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_the_layers() -> None:
    graph = _graph()
    assert len(graph) > 100
    assert "saikoro.dice._errors" in graph["saikoro.systems._flow"]
    assert "saikoro.scenario._defs" in graph["saikoro.scenario._validate"]


def test_no_import_circle() -> None:
    assert cycles(_graph()) == []


def test_scenario_site_and_export_import_the_engine_not_the_facade() -> None:
    graph = _graph(everywhere=True)
    importers = {
        m
        for m, targets in graph.items()
        if m.startswith(("saikoro.scenario", "saikoro.site", "saikoro.export"))
        and "saikoro" in targets
    }
    assert importers == set(), "import saikoro.dice._api / saikoro.systems, not the facade"


def test_the_facade_rule_sees_a_facade_import(tmp_path: Path) -> None:
    """The check above can fail: ``import saikoro`` and ``from saikoro import odds`` count."""
    modules = {"saikoro": PACKAGE / "__init__.py", "saikoro.site.x": tmp_path / "x.py"}
    for source in ("import saikoro\n", "def f():\n    from saikoro import odds\n"):
        (tmp_path / "x.py").write_text(source, "utf-8")
        assert "saikoro" in _targets("saikoro.site.x", tmp_path / "x.py", modules, everywhere=True)
