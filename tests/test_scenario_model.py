"""The typed scenario model (issue 11): the validated data again, as frozen dataclasses.

Every scenario that validates (the sample book, the ``saikoro new`` templates, the
fixtures) gives a model whose plain data is exactly the dict the definitions validate,
so the model cannot drop or change a validated value (``site/`` and ``export/`` read
only the model).
"""

from __future__ import annotations

import dataclasses
import functools
import operator
import types
import typing
from collections.abc import Mapping
from pathlib import Path

import pytest

from saikoro.scenario import (
    DEFINITIONS,
    Ctx,
    ListOf,
    MapOf,
    Obj,
    Scenario,
    Type,
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


def _model_in(hint: object) -> type[Model]:
    """The model class inside a field's annotation (``tuple[X, ...] | None`` -> ``X``)."""
    if isinstance(hint, type) and issubclass(hint, Model):
        return hint
    for arg in typing.get_args(hint):
        if arg is not type(None) and arg is not Ellipsis and not isinstance(arg, type | str):
            return _model_in(arg)
        if isinstance(arg, type) and issubclass(arg, Model):
            return arg
    raise AssertionError(f"no model class in {hint!r}")


def _model_classes(cls: type[Model], kind: Obj) -> list[tuple[type[Model], Obj]]:
    """(class, definition) of ``cls`` and every model class inside it."""
    out = [(cls, kind)]
    hints = typing.get_type_hints(cls)
    for field in kind.fields:
        sub: Type = field.type
        while isinstance(sub, ListOf | MapOf):
            sub = sub.item if isinstance(sub, ListOf) else sub.value
        if isinstance(sub, Obj):
            out.extend(_model_classes(_model_in(hints[field.name]), sub))
    return out


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_classes_and_definitions_name_the_same_keys(system: str) -> None:
    """A key added to a definition must be added to the model (and no key invented)."""
    from saikoro.scenario import side_facts

    own = {f.name for f in side_facts(system)}
    for cls, kind in _model_classes(model_class(system), DEFINITIONS[system]):
        held = getattr(cls, "EXTRA", "")  # SideCheck.facts: the system's own keys
        names = {f.name for f in dataclasses.fields(cls)} - {"where", held}
        defined = {f.name for f in kind.fields}
        unnamed = defined - names
        assert not unnamed or (held and unnamed <= own), (cls.__name__, unnamed)
        # Keys only other systems have (balance.defeat) default to None.
        for extra in names - defined:
            assert next(f for f in dataclasses.fields(cls) if f.name == extra).default is None


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


def _expected_hints(kind: Type) -> set[object]:
    """The Python types a model field of the definition type ``kind`` may be annotated
    with (``None`` left out)."""
    from saikoro.scenario._common import Scalar
    from saikoro.scenario._schema import Bool, Enum, Int, IntOrRange, Str, WinRange

    if isinstance(kind, Bool):
        return {bool}
    if isinstance(kind, Int):
        return {int}
    if isinstance(kind, Str | Enum | WinRange):
        return {str}
    if isinstance(kind, IntOrRange):
        return {int | str, str | int}
    if isinstance(kind, Scalar):
        return {bool | int | str, str | int | bool, int | str | bool}
    if isinstance(kind, ListOf):
        return {tuple}
    if isinstance(kind, MapOf):
        return {Mapping, dict}
    if isinstance(kind, Obj):
        return {Model}
    raise AssertionError(f"no Python type known for {type(kind).__name__}")


def _without_none(hint: object) -> object:
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if typing.get_origin(hint) in (typing.Union, types.UnionType) and type(None) in (
        typing.get_args(hint)
    ):
        return args[0] if len(args) == 1 else functools.reduce(operator.or_, args)
    return hint


def _model_default(field: dataclasses.Field[object]) -> object:
    if field.default is not dataclasses.MISSING:
        return field.default
    if field.default_factory is not dataclasses.MISSING:
        return field.default_factory()
    return dataclasses.MISSING


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_classes_and_definitions_agree_on_types_and_defaults(system: str) -> None:
    """Every key's model field has the definition's type (an ``Int`` an ``int``, a list a
    tuple, an optional key ``| None``) and its default (the definition's, ``()`` for a
    list, an empty mapping for a map, ``None`` for an optional key without one; none for
    a required key): a model constructed directly is the model the loader builds."""
    problems = []
    # a class every system shares (Scene) leaves a key some systems lack at None (the
    # builder's value for a key the definition does not have)
    defined_in: dict[type, list[set[str]]] = {}
    for other in SYSTEM_IDS:
        for cls, kind in _model_classes(model_class(other), DEFINITIONS[other]):
            defined_in.setdefault(cls, []).append({f.name for f in kind.fields})
    for cls, kind in _model_classes(model_class(system), DEFINITIONS[system]):
        hints = typing.get_type_hints(cls)
        fields = {f.name: f for f in dataclasses.fields(cls)}
        for defined in kind.fields:
            if defined.name not in fields:  # a system's own side-mission key (facts)
                continue
            where = f"{cls.__name__}.{defined.name}"
            hint = hints[defined.name]
            bare = _without_none(hint)
            origin = typing.get_origin(bare) or bare
            allowed = _expected_hints(defined.type)
            ok = bare in allowed or origin in allowed
            if Model in allowed:
                ok = isinstance(origin, type) and issubclass(origin, Model)
            if not ok:
                problems.append(f"{where}: {hint} for {type(defined.type).__name__}")
            have = _model_default(fields[defined.name])
            if cls.__name__.endswith("Scenario") and defined.name == "id":
                continue  # the file name when absent: the loader fills it in, always given
            partial = not all(defined.name in keys for keys in defined_in[cls])
            want: object
            if defined.default is dict and isinstance(defined.type, Obj):
                want = build(typing.cast("type[Model]", bare), defined.type, {})
            elif defined.default is list:
                want = ()
            elif defined.default is dict:
                want = {}
            elif callable(defined.default):
                want = defined.default()
            elif defined.default is not None:
                want = defined.default
            else:
                want = dataclasses.MISSING if defined.required else None
            if partial and have is None:
                pass  # another system's class lacks the key: None, as the builder gives
            elif have != want and not (want == {} and isinstance(have, Mapping) and not have):
                problems.append(f"{where}: default {have!r}, the definition's {want!r}")
            optional = not defined.required and defined.default is None
            if optional and bare == hint:
                problems.append(f"{where}: optional in the definition, {hint} in the model")
    assert problems == [], "\n".join(problems)
