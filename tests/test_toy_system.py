"""A sixth system from a package of its own: examples/saikoro-toy, the template of
docs/authoring/system.md, through the public CLI only.

The package is installed (``pip install --target``, as a plugin author's users would get
it, with its one entry-point line) into a folder put on ``PYTHONPATH``; every command runs
in a subprocess. It validates, builds (pages, exports, the バランス section), simulates
and starts a new book, importing only saikoro's public names.
"""

from __future__ import annotations

import ast
import html
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from test_site_support import MKDOCS
from toy_package import TOY, install_toy, toy_env

PUBLIC = (
    "saikoro",
    "saikoro.dice",
    "saikoro.systems",
    "saikoro.scenario",
    "saikoro.scenario.model",
    "saikoro.export",
    "saikoro.balance",
    "saikoro.site",
)


@pytest.fixture(scope="module")
def toy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The toy package installed into a folder (with its dist-info and entry point), built
    from a copy so that the checkout stays clean."""
    return install_toy(tmp_path_factory.mktemp("toy-source"), tmp_path_factory.mktemp("toy"))


def _run(toy: Path, *argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv, cwd=cwd, env=toy_env(toy), capture_output=True, text=True, timeout=600, check=False
    )


def _saikoro(toy: Path, *argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return _run(toy, sys.executable, "-m", "saikoro", *argv, cwd=cwd)


def test_the_toy_imports_only_public_names() -> None:
    """The template is what a plugin author can write: no private module of saikoro."""
    for path in sorted((TOY / "saikoro_toy").glob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.ImportFrom)
                and node.level == 0
                and (node.module or "").startswith("saikoro")
            ):
                assert node.module in PUBLIC, f"{path.name}: {node.module}"


def test_the_toy_is_one_folder_and_one_registration() -> None:
    text = (TOY / "pyproject.toml").read_text("utf-8")
    assert '[project.entry-points."saikoro.systems"]\ntoy = "saikoro_toy"' in text
    parts = {p.name for p in (TOY / "saikoro_toy").iterdir() if not p.name.startswith("__py")}
    assert parts == {
        "__init__.py",
        "scenario.py",
        "model.py",
        "page.py",
        "vtt.py",
        "simulator.py",
        "sample.yaml",
    }


def test_the_toy_system_is_registered_and_rolls(toy: Path) -> None:
    code = (
        "import saikoro, saikoro.systems as s; print(s.SYSTEM_IDS);"
        "print(saikoro.get_system('おもちゃ').id);"
        "print(saikoro.odds('TOY7', system='toy').success);"
        "print(saikoro.odds('TOY7', system=saikoro.get_system('toy', dice='1D12')).success)"
    )
    result = _run(toy, sys.executable, "-c", code, cwd=toy)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "('akatsuki', 'cutaction', 'getb', 'kegare', 'kokuryoku', 'toy')",
        "toy",
        "7/12",
        "1/2",
    ]


def test_the_toy_scenario_is_validated(toy: Path, tmp_path: Path) -> None:
    sample = (TOY / "saikoro_toy" / "sample.yaml").read_text("utf-8")
    (tmp_path / "good.yaml").write_text(sample, "utf-8")
    (tmp_path / "bad.yaml").write_text(sample.replace("target: 9", "target: 13"), "utf-8")
    good = _saikoro(toy, "validate", "--strict", "good.yaml", cwd=tmp_path)
    assert good.returncode == 0, good.stdout + good.stderr
    bad = _saikoro(toy, "validate", "--lang", "en", "bad.yaml", cwd=tmp_path)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert (
        "bad.yaml:10:13: error: scenario.difficulty_targets[1].target: "
        "expected an integer between 2 and 12, got 13" in bad.stdout
    )


def test_the_toy_system_is_in_the_json_schema(toy: Path) -> None:
    result = _saikoro(toy, "schema", cwd=toy)
    assert result.returncode == 0, result.stderr
    schema = json.loads(result.stdout)
    assert "toy" in schema["properties"]["system"]["enum"]
    (branch,) = [b for b in schema["allOf"] if b["if"]["properties"]["system"]["const"] == "toy"]
    assert "hp" in branch["then"]["properties"]["enemies"]["items"]["properties"]


def test_the_toy_is_simulated_and_solved(toy: Path) -> None:
    sample = TOY / "saikoro_toy" / "sample.yaml"
    result = _saikoro(
        toy, "simulate", str(sample), "--battles", "2000", "--format", "json", cwd=toy
    )
    assert result.returncode == 0, result.stderr
    (data,) = json.loads(result.stdout)
    # two PCs try each check in turn: 1 - (1 - P)^2 with the engine's odds of 2D6 >= 7, 9
    p7, p9 = 1 - (1 - 21 / 36) ** 2, 1 - (1 - 10 / 36) ** 2
    assert data["exact"] == pytest.approx(p7 * p9)
    assert data["exact_fraction"] == "18445/46656"
    assert data["win_low"] <= data["exact"] <= data["win_high"]
    assert [e["end"] for e in data["ends"]] == ["win", "failed"]
    assert data["rulings"] == [
        {"key": "toy.dice", "title": "判定のダイス", "value": "2D6", "default": True}
    ]
    assert [n["key"] for n in data["notes"]] == ["enemies"]


@pytest.mark.slow
def test_the_toy_system_is_rendered_by_a_real_build(toy: Path, tmp_path: Path) -> None:
    """A new book for the toy alone (``saikoro new --system toy``) builds with --strict:
    the sample's page with odds and the balance section, the exports, the reference pages."""
    book = tmp_path / "book"
    made = _saikoro(toy, "new", str(book), "--system", "toy", cwd=tmp_path)
    assert made.returncode == 0, made.stdout + made.stderr
    config = (book / "mkdocs.yml").read_text("utf-8")
    (book / "mkdocs.yml").write_text(
        config.replace("  - saikoro", "  - saikoro:\n      reference: true"), "utf-8"
    )
    result = _run(toy, *MKDOCS, "build", "-q", "--strict", cwd=book)
    assert result.returncode == 0, result.stderr[-4000:]
    site = book / "site"
    page = (site / "scenarios" / "toy-sample" / "index.html").read_text("utf-8")
    assert 'data-command="TOY9" data-system="toy"' in page
    assert 'data-probability="5/18"' in page  # 2D6 >= 9: 10 of 36
    assert "バランス" in page and "18445/46656" in page
    assert "スライム" in page
    home = (site / "index.html").read_text("utf-8")
    assert "toy.check" in home or "flow-toy-check" in home  # the sample flow drawn
    commands = (site / "commands" / "index.html").read_text("utf-8")
    assert "トイシステム" in commands and 'data-command="TOY7" data-system="toy"' in commands
    rulings = (site / "rulings" / "index.html").read_text("utf-8")
    assert 'id="toy-dice"' in rulings
    (attribute,) = re.findall(r'data-ccfolia="([^"]+)"', page)  # the clipboard's JSON
    character = json.loads(html.unescape(attribute))
    assert character["kind"] == "character" and "2D6>=7" in character["data"]["commands"]
    with zipfile.ZipFile(site / "scenarios" / "toy-sample" / "slime.zip") as archive:
        assert "スライム" in archive.read("data.xml").decode("utf-8")


_BROWSER_ENGINE = """
import json, saikoro
from browser_engine import run
from saikoro.site._roller import engine_bundles
bundles = engine_bundles()
core = dict(bundles["core"].files)
cases = [
    ("TOY7", "toy", "", "[[6,3],[6,5]]"),
    ("TOY9", "toy", '{"dice":"1D12"}', "[[12,9]]"),
    ("TOY7", "toy", '{"dice":"3D6"}', ""),
]
cli = [
    saikoro.roll("TOY7", system="toy", dice=[(6, 3), (6, 5)]).text,
    saikoro.roll("TOY9", system=saikoro.get_system("toy", dice="1D12"), dice=[(12, 9)]).text,
]
print(json.dumps({
    "bundles": {name: [p for p, _ in b.files if not p.startswith("saikoro/")]
                for name, b in bundles.items() if name != "core"},
    "registry": core["_mp_registry.py"],
    "cli": cli,
    "browser": run(cases, systems=["toy"]),
}, ensure_ascii=False))
"""


def test_the_toy_rolls_in_the_browsers_engine(toy: Path) -> None:
    """The toy's engine package is in the site's engine archive (its own bundle, its parts
    left out) with the generated registry, and the browser's engine (MicroPython, the same
    bundles a site ships) rolls its commands to the CLI's text."""
    tests = Path(__file__).resolve().parent
    environ = toy_env(toy)
    environ["PYTHONPATH"] += os.pathsep + str(tests)
    result = subprocess.run(
        [sys.executable, "-c", _BROWSER_ENGINE],
        cwd=tests,
        env=environ,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    data = json.loads(result.stdout)
    assert data["bundles"]["toy"] == ["saikoro_toy/__init__.py"]  # no scenario.py, page.py...
    assert all(files == [] for name, files in data["bundles"].items() if name != "toy")
    assert "('toy', 'saikoro_toy')" in data["registry"]
    browser = data["browser"]
    assert [b.get("text") for b in browser[:2]] == data["cli"]
    assert data["cli"][0] == "(2D6>=7) ＞ 8[3,5] ＞ 8 ＞ 成功"
    assert browser[2] == {
        "ok": False,
        "message": "このシステムでは使えないルールオプションです"
        "（toy のオプション 'dice' は 2D6, 1D12 のどれかです）",
    }


@pytest.mark.slow
def test_editing_the_toys_simulator_re_simulates(tmp_path: Path) -> None:
    """The balance cache key covers the plugin's own code: an edit of its simulator is
    simulated again on the next build (not served from the cache), and the page shows the
    new figure."""
    toy = install_toy(tmp_path / "source", tmp_path / "installed")
    book = tmp_path / "book"
    made = _saikoro(toy, "new", str(book), "--system", "toy", cwd=tmp_path)
    assert made.returncode == 0, made.stdout + made.stderr
    page = book / "site" / "scenarios" / "toy-sample" / "index.html"

    def build() -> int:
        """The build's count of fights simulated (not served from a cache)."""
        result = _run(toy, *MKDOCS, "build", "--strict", cwd=book)
        assert result.returncode == 0, result.stderr[-4000:]
        (count,) = re.findall(r"balance: (\d+) fights simulated, \d+ from the cache", result.stderr)
        return int(count)

    assert build() == 1
    assert "18445/46656" in page.read_text("utf-8")
    assert build() == 0
    # A plugin author's edit of the simulator (here a line that changes no figure: the key
    # covers the code, whatever it computes) is simulated again on the next build.
    simulator = toy / "saikoro_toy" / "simulator.py"
    with simulator.open("a", encoding="utf-8") as out:
        out.write("\n# edited by the plugin's author\n")
    assert build() == 1
    assert build() == 0
    assert "18445/46656" in page.read_text("utf-8")
