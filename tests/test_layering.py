"""The package's layers: no import circle, and the layers above the engine skip the facade.

``dice`` -> ``systems`` -> ``scenario`` -> ``export`` and ``balance`` -> ``tune`` ->
``site``; the facade
(``saikoro/__init__.py``) is for users. :mod:`test_dice_imports` checks that the engine
imports only the standard library; this file checks the rest from the source (module-
level imports for circles; every import for the facade rule, the layers, and the rule
that a package imports another only through its public modules).
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
        if "node_modules" not in p.parts and not {"micropython", "mermaid"} & set(p.parts)
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
    assert "saikoro.dice" in graph["saikoro.systems._flow"]
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


# -- the layers -------------------------------------------------------------------------

LAYERS: tuple[tuple[str, ...], ...] = (
    ("dice",),
    ("systems",),
    ("scenario",),
    ("export", "balance"),
    ("tune",),
    ("site",),
    ("facade",),
)
"""Bottom to top. A module imports modules of its own layer and of the layers below, never
above; the peers of one layer (export, balance) never import each other. Tuning is built on
balance (it plays versions of a scenario with balance's battles), the site on both."""

_PARTS = {
    "scenario": "scenario",
    "model": "scenario",
    "vtt": "export",
    "simulator": "balance",
    "page": "site",
}
"""A system's parts above its engine (``System.PARTS``) and the layer each belongs to."""


def _part_layers() -> dict[str, str]:
    from saikoro.systems import BUILTIN, system_class

    out: dict[str, str] = {}
    for system_id in BUILTIN:
        cls = system_class(system_id)
        assert set(cls.PARTS) == set(_PARTS), "a new kind of part needs its layer here"
        for name, layer in _PARTS.items():
            out[f"{cls.package()}.{name}"] = layer
    return out


def layer_of(module: str, parts: dict[str, str]) -> str:
    """The layer of ``module`` (a system's part belongs to the layer above its engine)."""
    for part, layer in parts.items():
        if module == part or module.startswith(part + "."):
            return layer
    if (
        module in ("saikoro", "saikoro._cli", "saikoro._start")
        or module.endswith(".__main__")
        or module.startswith(("saikoro._new", "saikoro._docs", "saikoro._simulate"))
    ):
        return "facade"  # the facade and the entry points (python -m ...)
    return module.split(".")[1]


def _rank(layer: str) -> int:
    return next(i for i, peers in enumerate(LAYERS) if layer in peers)


def layer_violations(graph: dict[str, set[str]], parts: dict[str, str]) -> list[str]:
    out = []
    for module, targets in sorted(graph.items()):
        mine = layer_of(module, parts)
        for target in sorted(targets):
            theirs = layer_of(target, parts)
            if theirs == mine:
                continue
            if _rank(theirs) >= _rank(mine):
                out.append(f"{module} ({mine}) imports {target} ({theirs})")
    return out


def test_every_module_has_a_layer() -> None:
    parts = _part_layers()
    for module in _graph():
        assert any(layer_of(module, parts) in peers for peers in LAYERS), module


def test_no_module_imports_a_layer_above_its_own() -> None:
    """Every import, inside functions too: scenario never imports balance or the site, the
    engine never imports its bundle's parts, export and balance never import each other."""
    assert layer_violations(_graph(everywhere=True), _part_layers()) == []


def test_the_layer_rule_sees_an_upward_import() -> None:
    graph = {
        "saikoro.scenario._x": {"saikoro.balance._model"},
        "saikoro.balance._y": {"saikoro.export._z", "saikoro.tune._search"},
        "saikoro.tune._w": {"saikoro.site._plugin"},
        "saikoro.systems._toy.checks": {"saikoro.systems._toy.page"},
        "saikoro.site._v": {"saikoro.tune._search"},  # the site is above tuning: fine
    }
    parts = {"saikoro.systems._toy.page": "site"}
    assert len(layer_violations(graph, parts)) == 5


# -- across packages, only the public API ----------------------------------------------

PACKAGES = ("dice", "systems", "scenario", "balance", "tune", "site", "export")
"""The packages ``saikoro.<x>``; every other module is the root's (the facade and the
command line: ``saikoro._cli``, ``saikoro._new``, ``saikoro._docs``,
``saikoro._simulate``)."""

TOY = PACKAGE.parents[1] / "examples" / "saikoro-toy" / "saikoro_toy"
"""A system outside saikoro, the template of a plugin: it may use the public API only."""


def package_of(module: str) -> str:
    """``saikoro.<x>`` for the modules of the seven packages, else ``saikoro`` (the root).

    A ``__main__`` is an entry point of the command line (``python -m saikoro.scenario``),
    so the root's, as :func:`layer_of` puts it in the facade's layer.
    """
    parts = module.split(".")
    if parts[0] != "saikoro":
        return module  # outside saikoro (a plugin): a package of its own
    if len(parts) < 2 or parts[1] not in PACKAGES or parts[-1] == "__main__":
        return "saikoro"
    return f"saikoro.{parts[1]}"


def _private(part: str) -> bool:
    return part.startswith("_") and not (part.startswith("__") and part.endswith("__"))


def private_imports(module: str, path: Path, modules: set[str]) -> list[str]:
    """``file:line`` of every import in ``module`` (inside functions too) that names a
    private module of another package (a dotted part after ``saikoro`` starting with
    ``_``: ``saikoro.scenario._schema``) or a private name of one (``from saikoro.dice
    import _api``, ``from saikoro.site import _helper``)."""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    mine = package_of(module)
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        imported: list[tuple[str, str | None]]  # (module, name imported from it)
        if isinstance(node, ast.Import):
            imported = [(a.name, None) for a in node.names]
        else:
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            imported = [(source, a.name) for a in node.names]
        for source, name in imported:
            if source.split(".")[0] != "saikoro":
                continue
            target = f"{source}.{name}" if f"{source}.{name}" in modules else source
            if package_of(target) == mine:
                continue
            dotted = target.split(".")[1:]
            if any(map(_private, dotted)) or (name is not None and _private(name)):
                shown = target if name is None or target != source else f"{source}.{name}"
                found.append(f"{path}:{node.lineno}: {module} imports {shown}")
    return found


def test_no_package_imports_another_packages_private_modules_or_names() -> None:
    """Each package's facade (and ``saikoro.scenario.model``) is its API for the others:
    a bundle builds on ``saikoro.scenario``, ``saikoro.site``, ``saikoro.export``,
    ``saikoro.balance`` and ``saikoro.dice``, the command line on what they export. Within
    one package anything goes (a bundle imports ``saikoro.systems._base``)."""
    modules = _modules()
    found = [v for m, p in sorted(modules.items()) for v in private_imports(m, p, set(modules))]
    assert found == [], "import it from the package's facade (or export it there):\n" + "\n".join(
        found
    )


def test_the_toy_plugin_imports_only_the_public_api() -> None:
    modules = set(_modules())
    found = [
        v
        for p in sorted(TOY.rglob("*.py"))
        for v in private_imports("saikoro_toy." + p.stem, p, modules)
    ]
    assert found == []
    assert len(list(TOY.rglob("*.py"))) >= 5


def test_the_private_import_rule_sees_each_form(tmp_path: Path) -> None:
    """The check above can fail: every form of a private import is found, public and
    in-package ones are not."""
    modules = set(_modules())
    bad = {
        "from saikoro.scenario._schema import Int\n": "saikoro.scenario._schema.Int",
        "from saikoro.scenario import _cli\n": "saikoro.scenario._cli",
        "import saikoro.balance._runner\n": "saikoro.balance._runner",
        "import saikoro.balance._runner as runner\n": "saikoro.balance._runner",
        "def f():\n    from saikoro.dice._poly import Poly\n": "saikoro.dice._poly.Poly",
        "from saikoro.dice import _secret\n": "saikoro.dice._secret",
        "from saikoro._cli import main\n": "saikoro._cli.main",
        "from ..site._guide import folder\n": "saikoro.site._guide.folder",
    }
    good = (
        "from saikoro.scenario import Int\nimport saikoro.dice\n",
        "from saikoro.export._palette import signed\nfrom ._memo import short_label\n",
        "from saikoro.scenario.model import Enemy\nfrom saikoro import __version__\n",
    )
    source = tmp_path / "x.py"
    for text, shown in bad.items():
        source.write_text(text, "utf-8")
        found = private_imports("saikoro.export.x", source, modules)
        assert len(found) == 1 and found[0].endswith(f"imports {shown}"), (text, found)
        assert found[0].startswith(f"{source}:"), found
    for text in good:
        source.write_text(text, "utf-8")
        assert private_imports("saikoro.export.x", source, modules) == [], text
    assert package_of("saikoro.scenario.__main__") == package_of("saikoro._cli") == "saikoro"
    assert package_of("saikoro.systems._getb.page") == "saikoro.systems"
