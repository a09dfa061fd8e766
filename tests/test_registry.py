"""One registration per system: engine, scenario definition, page profile and VTT export.

The built-in systems' parts must agree with their registration; a toy system from a
temporary package, registered by one entry-point line, is validated, given a JSON
Schema, and rendered on the pages of a real MkDocs build.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from saikoro import systems
from saikoro.scenario._containers import Obj
from saikoro.scenario._defs import DEFINITIONS, definition
from saikoro.scenario.model import model_class
from saikoro.site._profiles import Profile, profile
from saikoro.systems import (
    BUILTIN,
    SYSTEM_IDS,
    RegistryError,
    UnknownSystemError,
    registry,
    system_class,
)
from test_site_support import MKDOCS, env


def _folder(module: str) -> Path:
    return Path(importlib.import_module(module).__file__ or "").parent


def _modules(package: str, *skip: str) -> set[str]:
    """The modules of ``package`` (its ``.py`` files but ``__init__`` and ``skip``)."""
    names = {p.stem for p in _folder(package).glob("*.py")} - {"__init__", *skip}
    return {f"{package}.{n}" for n in names}


def test_builtin_systems_are_the_registry() -> None:
    assert tuple(BUILTIN) == SYSTEM_IDS == tuple(registry())
    systems_dir = _folder("saikoro.systems")
    packages = {p for p in systems_dir.iterdir() if (p / "__init__.py").is_file()}
    assert packages == {_folder(module) for module in BUILTIN.values()}
    assert list(DEFINITIONS) == list(SYSTEM_IDS)


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_the_parts_of_a_system_agree(system_id: str) -> None:
    cls = system_class(system_id)
    assert cls.id == system_id
    root = definition(system_id)
    assert isinstance(root, Obj)
    assert root is importlib.import_module(cls.scenario_def).ROOT
    assert model_class(system_id) is importlib.import_module(cls.scenario_model).MODEL
    assert DEFINITIONS[system_id] is root
    shown = profile(system_id)
    assert isinstance(shown, Profile) and shown.system == system_id
    export = importlib.import_module(cls.vtt_export)
    assert callable(export.character) and callable(export.palette)


def test_every_part_of_a_system_is_in_its_bundle() -> None:
    """The parts above the engine sit in the system's own folder, one module each, and the
    shared packages hold none of them (no per-system module outside a bundle)."""
    for system_id, where in BUILTIN.items():
        cls = system_class(system_id)
        for part in cls.PARTS:
            module = getattr(cls, part)
            assert module.startswith(where + "."), (system_id, part, module)
            importlib.import_module(module)
        package, _, sample = cls.sample_scenario.partition(":")
        assert package == where and sample == "sample.yaml"
    shared = {
        "saikoro.scenario._defs": {"_shared", "_party", "_side"},
        "saikoro.site._profiles": {"base"},
        "saikoro.scenario.model": {"_build", "_derive", "_common"},
    }
    for package, allowed in shared.items():
        assert _modules(package) == {f"{package}.{n}" for n in allowed}, package


def test_unknown_ids_are_refused_by_every_part() -> None:
    with pytest.raises(UnknownSystemError):
        system_class("nope")
    with pytest.raises(UnknownSystemError):
        definition("nope")
    with pytest.raises(UnknownSystemError):
        profile("nope")
    with pytest.raises(UnknownSystemError):
        model_class("nope")
    with pytest.raises(KeyError):
        DEFINITIONS["nope"]
    assert "nope" not in DEFINITIONS


@pytest.fixture
def fake_entry_points(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[EntryPoint]]:
    """Entry points the registry reads instead of the installed packages'."""
    points: list[EntryPoint] = []

    def entry_points(*, group: str) -> list[EntryPoint]:
        return [p for p in points if p.group == group]

    monkeypatch.setattr("importlib.metadata.entry_points", entry_points)
    registry.cache_clear()
    yield points
    registry.cache_clear()
    systems._classes.pop("elsewhere", None)


def test_two_registrations_of_one_id_are_an_error(fake_entry_points: list[EntryPoint]) -> None:
    fake_entry_points.append(EntryPoint("getb", "somewhere_else", systems.ENTRY_POINT_GROUP))
    with pytest.raises(RegistryError, match="'getb' is registered twice"):
        registry()


def test_a_registration_must_lead_to_its_own_class(fake_entry_points: list[EntryPoint]) -> None:
    fake_entry_points.append(
        EntryPoint("elsewhere", "saikoro.systems._getb", systems.ENTRY_POINT_GROUP)
    )
    assert "elsewhere" in registry()
    with pytest.raises(RegistryError, match="the class of 'getb', not 'elsewhere'"):
        system_class("elsewhere")


# A sixth system as a package of its own: engine, scenario definition, page profile
# and VTT export side by side, registered by the one line of entry_points.txt.
TOY_ENGINE = """
from saikoro.dice import DiceSource, Odds, Roll, odds, roll
from saikoro.systems import CommandDoc, System


class Toy(System):
    id = "toy"
    scenario_def = "saikoro_toy.scenario"
    scenario_model = "saikoro_toy.model"
    page_profile = "saikoro_toy.profile"
    vtt_export = "saikoro_toy.export"
    name = "トイシステム"
    aliases = ("おもちゃ",)
    commands = (CommandDoc("TOY[目標値]", "2D6で目標値以上なら成功。", ("TOY7", "TOY10")),)

    def roll_command(self, command: str, source: DiceSource) -> Roll | None:
        if not command.startswith("TOY") or not command[3:].isdigit():
            return None
        dice = source.roll_many(2, 6)
        return roll(f"2D6>={command[3:]}", dice=[(6, d) for d in dice])

    def odds_command(self, command: str) -> Odds | None:
        if not command.startswith("TOY") or not command[3:].isdigit():
            return None
        return odds(f"2D6>={command[3:]}")


SYSTEM = Toy
"""

TOY_SCENARIO = """
from saikoro.scenario import Field, Int, enemy_obj, scenario_root, target_obj

TARGET = target_obj(Field("target", Int(2, 12), required=True, ja="目標値", en="target"))
ENEMY = enemy_obj(Field("hp", Int(1, 99), required=True, ja="HP", en="hit points"))
ROOT = scenario_root("toy", TARGET, ENEMY)
"""

TOY_MODEL = """
from dataclasses import dataclass

from saikoro.scenario.model import DifficultyTarget, Enemy, ScenarioModel


@dataclass(frozen=True, slots=True, kw_only=True)
class ToyTarget(DifficultyTarget):
    target: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ToyEnemy(Enemy):
    hp: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ToyScenario(ScenarioModel):
    difficulty_targets: tuple[ToyTarget, ...] = ()
    enemies: tuple[ToyEnemy, ...] = ()


MODEL = ToyScenario
"""

TOY_PROFILE = """
from saikoro.site import Grid, Profile


class ToyProfile(Profile):
    system = "toy"

    def target_command(self, target):
        return f"TOY{int(target.target)}"

    def target_grid(self, target):
        return Grid("トイ判定", ("2D6",), (("成功率", (f"TOY{int(target.target)}",)),))


PROFILE = ToyProfile()
"""

TOY_EXPORT = """
from saikoro.export import Character, PaletteLine


def palette(enemy, system=None):
    return [PaletteLine("2D6>=7", "攻撃", "", system_command="TOY7")]


def character(enemy):
    return Character(name=str(enemy.name), status=(("HP", enemy.hp, enemy.hp),))
"""

TOY_BOOK = """system: toy
id: toy-trial
title: トイの試練
difficulty_targets:
  - name: 扉を開ける
    target: 9
enemies:
  - id: slime
    name: スライム
    hp: 12
"""


@pytest.fixture(scope="module")
def toy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the toy package and its one-line registration."""
    root = tmp_path_factory.mktemp("toy")
    package = root / "saikoro_toy"
    package.mkdir()
    for name, text in (
        ("__init__", TOY_ENGINE),
        ("scenario", TOY_SCENARIO),
        ("model", TOY_MODEL),
        ("profile", TOY_PROFILE),
        ("export", TOY_EXPORT),
    ):
        (package / f"{name}.py").write_text(text, "utf-8")
    meta = root / "saikoro_toy-0.1.dist-info"
    meta.mkdir()
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: saikoro-toy\nVersion: 0.1\n")
    (meta / "entry_points.txt").write_text("[saikoro.systems]\ntoy = saikoro_toy\n")
    return root


def _run(toy: Path, *argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    environ = env()
    environ["PYTHONPATH"] = os.pathsep.join([str(toy), environ.get("PYTHONPATH", "")])
    return subprocess.run(
        argv, cwd=cwd, env=environ, capture_output=True, text=True, timeout=600, check=False
    )


def test_the_toy_system_is_registered_and_rolls(toy: Path) -> None:
    code = (
        "import saikoro, saikoro.systems as s; print(s.SYSTEM_IDS);"
        "print(saikoro.get_system('おもちゃ').id);"
        "print(saikoro.odds('TOY7', system='toy').success)"
    )
    result = _run(toy, sys.executable, "-c", code, cwd=toy)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "('akatsuki', 'cutaction', 'getb', 'kegare', 'kokuryoku', 'toy')",
        "toy",
        "7/12",
    ]


def test_the_toy_scenario_is_validated(toy: Path, tmp_path: Path) -> None:
    (tmp_path / "good.yaml").write_text(TOY_BOOK, "utf-8")
    (tmp_path / "bad.yaml").write_text(TOY_BOOK.replace("target: 9", "target: 13"), "utf-8")
    good = _run(toy, sys.executable, "-m", "saikoro", "validate", "good.yaml", cwd=tmp_path)
    assert good.returncode == 0, good.stdout + good.stderr
    bad = _run(
        toy, sys.executable, "-m", "saikoro", "validate", "--lang", "en", "bad.yaml", cwd=tmp_path
    )
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert (
        "bad.yaml:6:13: error: scenario.difficulty_targets[0].target: "
        "expected an integer between 2 and 12, got 13" in bad.stdout
    )
    code = (
        "from saikoro.scenario import load_scenario;"
        "m = load_scenario('good.yaml').scenario.model;"
        "print(type(m).__name__, type(m.enemies[0]).__name__, m.enemies[0].hp, "
        "m.difficulty_targets[0].target, m.enemies[0].where)"
    )
    typed = _run(toy, sys.executable, "-c", code, cwd=tmp_path)
    assert typed.returncode == 0, typed.stderr
    assert typed.stdout.split() == ["ToyScenario", "ToyEnemy", "12", "9", "good.yaml:8:5"]


def test_the_toy_system_is_in_the_json_schema(toy: Path) -> None:
    result = _run(toy, sys.executable, "-m", "saikoro", "schema", cwd=toy)
    assert result.returncode == 0, result.stderr
    schema = json.loads(result.stdout)
    assert "toy" in schema["properties"]["system"]["enum"]
    (branch,) = [b for b in schema["allOf"] if b["if"]["properties"]["system"]["const"] == "toy"]
    enemy = branch["then"]["properties"]["enemies"]["items"]
    assert "hp" in enemy["properties"]


@pytest.mark.slow
def test_the_toy_system_is_rendered_by_a_real_build(toy: Path, tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: toy\ntheme:\n  name: material\n  font: false\n"
        "plugins:\n  - saikoro:\n      reference: true\n",
        "utf-8",
    )
    book = "---\nsystem: toy\n---\n# 本\n\n```dice\nTOY7\n```\n"
    (tmp_path / "docs" / "index.md").write_text(book, "utf-8")
    (tmp_path / "scenarios" / "toy.yaml").write_text(TOY_BOOK, "utf-8")
    result = _run(toy, *MKDOCS, "build", "-q", "--strict", cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-4000:]
    site = tmp_path / "site"
    index = (site / "scenarios" / "index.html").read_text("utf-8")
    assert 'href="toy-trial/"' in index
    page = (site / "scenarios" / "toy-trial" / "index.html").read_text("utf-8")
    assert 'data-command="TOY9" data-system="toy"' in page
    assert 'data-probability="5/18"' in page  # 2D6 >= 9: 10 of 36
    assert "スライム" in page
    home = (site / "index.html").read_text("utf-8")
    assert 'data-probability="7/12"' in home  # the book's own TOY7 fence, 2D6 >= 7
    assert '<option value="toy" selected>トイシステム' in home  # the free roller's choice
    commands = (site / "commands" / "index.html").read_text("utf-8")
    assert "トイシステム" in commands and 'data-command="TOY7" data-system="toy"' in commands
    fields = (site / "authoring" / "fields" / "index.html").read_text("utf-8")
    assert 'id="toy"' in fields
    schema = json.loads((site / "schema" / "scenario.schema.json").read_text("utf-8"))
    assert "toy" in schema["properties"]["system"]["enum"]
