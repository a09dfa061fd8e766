"""The typed scenario model (issue 11): the validated data again, as frozen dataclasses.

Every scenario that validates (the sample book, the ``saikoro new`` templates, the
fixtures) gives a model whose plain data is exactly the dict the definitions validate,
so the model cannot drop or change a validated value (``site/`` and ``export/`` read
only the model).
"""

from __future__ import annotations

import dataclasses
import typing
from pathlib import Path

import pytest

from saikoro.scenario import (
    DEFINITIONS,
    Ctx,
    ListOf,
    Obj,
    Scenario,
    load_scenario,
    validate_text,
)
from saikoro.scenario._loader import load_yaml
from saikoro.scenario.model import (
    NOWHERE,
    Model,
    Position,
    enemy_model,
    model_class,
    to_data,
)
from saikoro.scenario.model._build import build
from saikoro.systems import SYSTEM_IDS
from saikoro.systems import get as get_system
from saikoro.systems._getb.model import GetbEnemy, GetbScenario
from saikoro.systems._kegare.model import KegareEnemy
from saikoro.systems._kokuryoku.model import KokuryokuEnemy

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = (
    "scenarios/*.yaml",
    "plugin/saikoro/systems/_*/sample.yaml",
    "tests/data/scenarios/*.yaml",
)


def _files() -> list[Path]:
    return [p for pattern in FOLDERS for p in sorted(ROOT.glob(pattern))]


def _valid() -> list[Scenario]:
    return [r.scenario for r in map(load_scenario, _files()) if r.scenario is not None]


def test_enough_scenarios_validate() -> None:
    """The checks below mean something: every system, samples and fixtures."""
    found = _valid()
    assert len(found) >= 15
    assert {s.system for s in found} == set(SYSTEM_IDS)


def _validated(scenario: Scenario) -> dict[str, object]:
    """The file's data as the definitions validate it (defaults filled, the id too)."""
    ctx = Ctx(str(scenario.path), [])
    ctx.system = scenario.system
    ctx.options = {**get_system(scenario.system).options, **scenario.model.rulings}
    root = load_yaml(scenario.path.read_bytes(), str(scenario.path))
    value = DEFINITIONS[scenario.system].check(root, "scenario", ctx)
    assert isinstance(value, dict) and not [p for p in ctx.problems if p.severity == "error"]
    return {"id": scenario.id, **value}


@pytest.mark.parametrize("scenario", _valid(), ids=lambda s: s.path.name)
def test_model_round_trips_to_the_validated_data(scenario: Scenario) -> None:
    data = to_data(scenario.model)
    assert isinstance(data, dict)
    assert data == _validated(scenario)


@pytest.mark.parametrize("scenario", _valid(), ids=lambda s: s.path.name)
def test_system_subclass_is_chosen_by_system(scenario: Scenario) -> None:
    model = scenario.model
    assert type(model) is model_class(scenario.system)
    assert model.system == scenario.system and model.id == scenario.id
    enemy_type = typing.get_args(typing.get_type_hints(type(model))["enemies"])[0]
    assert all(type(e) is enemy_type for e in model.enemies)


def _objects(value: object) -> list[Model]:
    """Every model object inside ``value`` (itself included)."""
    out: list[Model] = []
    if isinstance(value, Model):
        out.append(value)
        for f in dataclasses.fields(value):
            if f.name != "where":
                out.extend(_objects(getattr(value, f.name)))
    elif isinstance(value, tuple):
        for v in value:
            out.extend(_objects(v))
    elif isinstance(value, typing.Mapping):
        for v in value.values():
            out.extend(_objects(v))
    return out


@pytest.mark.parametrize("scenario", _valid(), ids=lambda s: s.path.name)
def test_every_object_knows_its_place(scenario: Scenario) -> None:
    objects = _objects(scenario.model)
    assert len(objects) > 1
    for obj in objects:
        assert obj.where.file == str(scenario.path), obj
        assert obj.where.line >= 1 and obj.where.column >= 1, obj


def test_positions_point_at_the_value() -> None:
    text = (
        "system: kegare\ntitle: t\nenemies:\n"
        "  - id: a\n    name: A\n    hp: 9\n    attack: 1\n    defence: 1\n    initiative: 3\n"
        "    skills:\n      - {name: 火, kind: attack}\n"
    )
    sc = validate_text(text, "p.yaml").scenario
    assert sc is not None
    enemy = sc.model.enemies[0]
    assert enemy.where == Position("p.yaml", 4, 5)
    assert isinstance(enemy, KegareEnemy)
    assert enemy.skills[0].where == Position("p.yaml", 11, 9)
    assert str(sc.model.where) == "p.yaml:1:1"


def test_defaults_are_filled_from_the_definitions() -> None:
    text = (
        "system: kegare\ntitle: t\nenemies:\n"
        "  - {id: a, name: A, hp: 9, attack: 1, defence: 1, initiative: 3,"
        " skills: [{name: 火, kind: attack}]}\n"
    )
    sc = validate_text(text, "d.yaml").scenario
    assert sc is not None
    enemy = sc.model.enemies[0]
    assert isinstance(enemy, KegareEnemy)
    assert (enemy.position, enemy.blessed, enemy.immune) == ("near", False, ())
    assert (enemy.skills[0].target, enemy.skills[0].ranged, enemy.skills[0].damage) == (
        "single",
        False,
        None,
    )
    assert sc.model.chase_tables == () and dict(sc.model.rulings) == {}
    assert sc.model.missions is None and sc.model.party is None
    # Also when the model is built from data that leaves them out (the definition's
    # default, not the class's, wins).
    made = enemy_model("kokuryoku", {"id": "k", "name": "K"})
    assert isinstance(made, KokuryokuEnemy)
    assert (made.kind, made.attack, made.abilities.force, made.skills) == ("character", 0, None, ())


def test_model_is_frozen_and_hashable_where_it_can_be() -> None:
    sc = validate_text(
        "system: getb\ntitle: t\nenemies:\n  - id: o\n    name: O\n    hp: 4\n    ap: 1\n"
        "    st: 1\n    placement: out1\n"
        "    abilities: {strength: 1, agility: 1, intellect: 1, endurance: 1}\n"
        "    attacks: [{name: a, weapon: long-blade, element: fire, power: 1}]\n",
        "f.yaml",
    ).scenario
    assert sc is not None
    model = sc.model
    assert isinstance(model, GetbScenario)
    enemy = model.enemies[0]
    assert isinstance(enemy, GetbEnemy)
    with pytest.raises(dataclasses.FrozenInstanceError):
        enemy.hp = 5  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):
        enemy.extra = 1  # type: ignore[attr-defined]  # slotted: no new attributes
    with pytest.raises(TypeError):
        model.rulings["x"] = 1  # type: ignore[index]  # read-only mapping
    assert hash(enemy) == hash(dataclasses.replace(enemy, where=NOWHERE))
    assert enemy == dataclasses.replace(enemy, where=NOWHERE)  # the position is not compared
    assert "where" not in repr(enemy)


def test_a_class_missing_a_key_is_a_model_error() -> None:
    from saikoro.scenario.model import Enemy

    kind = DEFINITIONS["kegare"].field("enemies").type
    assert isinstance(kind, ListOf) and isinstance(kind.item, Obj)
    with pytest.raises(TypeError, match="lacks the defined keys"):
        build(Enemy, kind.item, {"id": "a", "name": "A"})


def test_exports_are_byte_identical_to_the_base_commit() -> None:
    """Every enemy's ココフォリア JSON and ユドナリウム XML, as before the typed model.

    ``tests/data/export_snapshot.txt`` was written by ``tests/export_snapshot.py`` at the
    commit before the model; re-run the script at any commit to compare by hand.
    """
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "export_snapshot", ROOT / "tests" / "export_snapshot.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    expected = (ROOT / "tests" / "data" / "export_snapshot.txt").read_text(encoding="utf-8")
    got: str = module.snapshot()
    assert got.count("\n") >= 20
    assert got == expected


@pytest.mark.parametrize("scenario", _valid(), ids=lambda s: s.path.name)
def test_simulator_party_is_the_same_from_the_model_and_from_data(scenario: Scenario) -> None:
    """The simulator's adapter reads the model; party files still arrive as data."""
    from saikoro.balance import encounter, parse_party

    enc = encounter(scenario)
    assert len(enc.enemies) == len(scenario.model.enemies)
    if scenario.model.party:
        party = _validated(scenario)["party"]
        assert isinstance(party, list)
        from_data = parse_party(scenario.system, party, "scenario")
        assert parse_party(scenario.system, scenario.model.party, "scenario") == from_data
        assert enc.party == from_data
