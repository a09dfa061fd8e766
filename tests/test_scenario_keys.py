"""Every key of a scenario is declared once, in the model (issue 33): the definitions are
made from the model's classes, and the two agree on every key.

For each system (the five, the toy of ``examples/`` registered as a plugin is, and the
shared :class:`~saikoro.scenario.model.ScenarioModel` alone), every model class inside its
model is walked beside the definition validation uses (:data:`DEFINITIONS`), and every key
compared: its name (a field for each key, no field that is not a key), its type (an
``Int`` an ``int``, a list a tuple of the item's type, a mapping a ``Mapping`` of the
value's type, a mapping of keys a model class, an optional key ``| None``) and its default
(the definition's, as the builder fills it in: ``()`` for a list, an empty mapping for a
map, the class's own defaults for a mapping of keys; ``None`` for an optional key without
one; none for a required key), so that a model constructed directly is the model the
loader builds. The comparison is written from the meaning of the definition's types, not
from the code that makes the definitions; the last tests show it fails when a name, a type
or a default differs.
"""

from __future__ import annotations

import dataclasses
import sys
import typing
from collections.abc import Iterator, Mapping
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from saikoro import systems
from saikoro.scenario import (
    DEFINITIONS,
    Bool,
    Enum,
    Field,
    Int,
    IntOrRange,
    ListOf,
    MapOf,
    Obj,
    Str,
    Type,
    scenario_root,
)
from saikoro.scenario._common import Scalar
from saikoro.scenario._schema import WinRange
from saikoro.scenario.model import Model, ScenarioModel, key, model, model_class
from saikoro.scenario.model._build import build
from saikoro.systems import SYSTEM_IDS, registry
from saikoro.systems._kegare.model import KegareEnemy, KegareSkill

TOY = Path(__file__).resolve().parents[1] / "examples" / "saikoro-toy"


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The toy system registered as an installed package registers it (its entry point)."""
    point = EntryPoint("toy", "saikoro_toy", systems.ENTRY_POINT_GROUP)
    monkeypatch.syspath_prepend(str(TOY))
    monkeypatch.setattr(
        "importlib.metadata.entry_points",
        lambda *, group: [point] if group == systems.ENTRY_POINT_GROUP else [],
    )
    registry.cache_clear()
    yield "toy"
    registry.cache_clear()
    systems._classes.pop("toy", None)
    for name in [m for m in sys.modules if m == "saikoro_toy" or m.startswith("saikoro_toy.")]:
        del sys.modules[name]


# -- the comparison ---------------------------------------------------------------------


def _split_none(hint: object) -> tuple[object, bool]:
    """``hint`` without ``None``, and whether it allowed ``None``."""
    args = typing.get_args(hint)
    if type(None) not in args:
        return hint, False
    rest = [a for a in args if a is not type(None)]
    out: object = rest[0]
    for a in rest[1:]:
        out = out | a
    return out, True


_SCALARS: tuple[tuple[type[Type], object], ...] = (
    (Bool, bool),
    (Int, int),
    (Str, str),
    (Enum, str),
    (WinRange, str),
    (IntOrRange, int | str),
    (Scalar, bool | int | str),
)
"""What each scalar type of the definitions gives: the Python type of its values."""


def _shape(hint: object, kind: Type, where: str) -> list[str]:
    """Where the annotation ``hint`` (no ``None``) is not the type of ``kind``'s values."""
    origin = typing.get_origin(hint) or hint
    args = typing.get_args(hint)
    if isinstance(kind, ListOf):
        if origin is not tuple or len(args) != 2 or args[1] is not Ellipsis:
            return [f"{where}: {hint} for a list"]
        return _shape(args[0], kind.item, f"{where}[]")
    if isinstance(kind, MapOf):
        if origin not in (Mapping, dict) or args[:1] != (str,):
            return [f"{where}: {hint} for a mapping"]
        return _shape(args[1], kind.value, f"{where}{{}}")
    if isinstance(kind, Obj):
        ok = isinstance(hint, type) and issubclass(hint, Model)
        return [] if ok else [f"{where}: {hint} for a mapping of keys"]
    python = next((p for t, p in _SCALARS if isinstance(kind, t)), None)
    if python is None:
        return [f"{where}: no Python type known for {type(kind).__name__}"]
    return [] if hint == python else [f"{where}: {hint} for {type(kind).__name__}"]


def _nested(hint: object, kind: Type) -> Iterator[tuple[type[Model], Obj]]:
    """The (model class, definition) pairs inside a key's annotation and type."""
    bare, _ = _split_none(hint)
    if isinstance(kind, ListOf):
        yield from _nested(typing.get_args(bare)[0], kind.item)
    elif isinstance(kind, MapOf):
        yield from _nested(typing.get_args(bare)[1], kind.value)
    elif isinstance(kind, Obj) and isinstance(bare, type) and issubclass(bare, Model):
        yield bare, kind


def _model_default(field: dataclasses.Field[object]) -> object:
    if field.default is not dataclasses.MISSING:
        return field.default
    if field.default_factory is not dataclasses.MISSING:
        return field.default_factory()
    return dataclasses.MISSING


def _shown(default: object) -> str:
    return "none" if default is dataclasses.MISSING else repr(default)


def _wanted(cls: type[Model], hint: object, defined: Field) -> object:
    """The default the class's field must have: the value the builder gives a key the data
    leaves out."""
    if defined.required:
        return dataclasses.MISSING
    if defined.default is None:
        return None
    if defined.default is list:
        return ()
    if defined.default is dict and isinstance(defined.type, Obj):
        bare, _ = _split_none(hint)
        return build(typing.cast("type[Model]", bare), defined.type, {})
    if defined.default is dict:
        return {}
    if callable(defined.default):
        return defined.default()
    return defined.default


def disagreements(
    cls: type[Model], kind: Obj, lacking: frozenset[tuple[type, str]] = frozenset()
) -> list[str]:
    """Where the model class ``cls`` (and every class inside it) and its definition ``kind``
    disagree on a key's name, type or default. ``lacking``: (class, key) of a shared class
    whose key some system's definition does not have (its field is ``None`` there)."""
    problems: list[str] = []
    hints = typing.get_type_hints(cls)
    held = getattr(cls, "EXTRA", "")  # SideCheck.facts: the system's own keys, by key
    fields = {f.name: f for f in dataclasses.fields(cls) if f.name not in {"where", held}}
    defined = {f.name: f for f in kind.fields}
    if not held:
        problems += [
            f"{cls.__name__}: the key {name!r} has no field"
            for name in sorted(defined.keys() - fields.keys())
        ]
    problems += [  # a key only other systems have (balance.defeat) is None here
        f"{cls.__name__}.{name}: not a key, and its default is not None"
        for name in sorted(fields.keys() - defined.keys())
        if _model_default(fields[name]) is not None
    ]
    for name in sorted(defined.keys() & fields.keys()):
        where = f"{cls.__name__}.{name}"
        field, hint = defined[name], hints[name]
        bare, optional = _split_none(hint)
        problems += _shape(bare, field.type, where)
        if issubclass(cls, ScenarioModel) and name == "id":
            continue  # optional in the file, always in the model: the loader fills it in
        if not field.required and field.default is None and not optional:
            problems.append(f"{where}: optional in the definition, {hint} in the model")
        if field.required and optional:
            problems.append(f"{where}: required in the definition, {hint} in the model")
        have, want = _model_default(fields[name]), _wanted(cls, hint, field)
        empty = want == {} and isinstance(have, Mapping) and not have
        elsewhere = have is None and (cls, name) in lacking  # a key some systems lack
        if have != want and not empty and not elsewhere:
            problems.append(f"{where}: default {_shown(have)}, the definition's {_shown(want)}")
        for inner, inner_kind in _nested(hint, field.type):
            problems += disagreements(inner, inner_kind, lacking)
    return problems


def _pairs(cls: type[Model], kind: Obj) -> Iterator[tuple[type[Model], Obj]]:
    """``(cls, kind)`` and every (model class, definition) pair inside."""
    yield cls, kind
    hints = typing.get_type_hints(cls)
    for f in kind.fields:
        if f.name in hints:
            for inner, inner_kind in _nested(hints[f.name], f.type):
                yield from _pairs(inner, inner_kind)


def _lacking(definitions: Mapping[str, tuple[type[Model], Obj]]) -> frozenset[tuple[type, str]]:
    """(class, key) where some definition of a class shared by systems lacks the key."""
    keys: dict[type, list[set[str]]] = {}
    for cls, kind in definitions.values():
        for inner, inner_kind in _pairs(cls, kind):
            keys.setdefault(inner, []).append({f.name for f in inner_kind.fields})
    return frozenset(
        (cls, name)
        for cls, found in keys.items()
        for name in set[str]().union(*found) - found[0].intersection(*found[1:])
    )


def _definitions() -> dict[str, tuple[type[Model], Obj]]:
    """System id -> (its model, its definition), for every registered system and for the
    shared model alone (``shared``: no system's targets, enemies or PCs)."""
    out: dict[str, tuple[type[Model], Obj]] = {
        s: (model_class(s), DEFINITIONS[s]) for s in registry()
    }
    out["shared"] = (ScenarioModel, scenario_root("shared", ScenarioModel))
    return out


# -- the systems --------------------------------------------------------------------------


@pytest.mark.parametrize("system", [*SYSTEM_IDS, "shared"])
def test_the_model_and_the_definition_agree_on_every_key(system: str) -> None:
    definitions = _definitions()
    cls, kind = definitions[system]
    assert disagreements(cls, kind, _lacking(definitions)) == []


def test_the_toy_plugin_s_model_and_definition_agree(toy: str) -> None:
    """A system from another package, registered by its entry point, as a user has it."""
    definitions = _definitions()
    assert "toy" in definitions
    cls, kind = definitions[toy]
    assert cls.__module__ == "saikoro_toy.model"
    assert disagreements(cls, kind, _lacking(definitions)) == []


def test_the_walk_reaches_every_model_class() -> None:
    """The comparison looks inside: skills of enemies, entries of chase tables, checks of
    side missions, branches of scenes, abilities..."""
    definitions = _definitions()
    reached = {c.__name__ for cls, kind in definitions.values() for c, _ in _pairs(cls, kind)}
    assert reached >= {
        "KegareSkill",
        "GetbAbilities",
        "GetbGuard",
        "GetbBullet",
        "KokuryokuAbilities",
        "CutactionChaseEntry",
        "SideCheck",
        "Branch",
        "Balance",
        "MainMission",
        "Handout",
    }


# -- the comparison fails where they differ ----------------------------------------------


def _enemy() -> Obj:
    enemies = DEFINITIONS["kegare"].field("enemies").type
    assert isinstance(enemies, ListOf) and isinstance(enemies.item, Obj)
    return enemies.item


def _changed(kind: Obj, path: str, **change: object) -> Obj:
    """``kind`` with its field ``path`` changed (a skill's too, as ``skills.name``)."""
    head, _, rest = path.partition(".")

    def change_one(f: Field) -> Field:
        if f.name != head:
            return f
        if not rest:
            return dataclasses.replace(f, **change)  # type: ignore[arg-type]
        assert isinstance(f.type, ListOf) and isinstance(f.type.item, Obj)
        item = _changed(f.type.item, rest, **change)
        return dataclasses.replace(f, type=dataclasses.replace(f.type, item=item))

    return dataclasses.replace(kind, fields=tuple(change_one(f) for f in kind.fields))


def test_the_comparison_sees_a_definition_that_differs() -> None:
    kind = _enemy()
    assert disagreements(KegareEnemy, kind) == []
    assert disagreements(KegareEnemy, _changed(kind, "hp", name="life")) == [
        "KegareEnemy: the key 'life' has no field",
        "KegareEnemy.hp: not a key, and its default is not None",
    ]
    assert disagreements(KegareEnemy, _changed(kind, "hp", type=Str())) == [
        "KegareEnemy.hp: <class 'int'> for Str"
    ]
    assert disagreements(KegareEnemy, _changed(kind, "immune", type=ListOf(Int(0, 9)))) == [
        "KegareEnemy.immune[]: <class 'str'> for Int"
    ]
    assert disagreements(KegareEnemy, _changed(kind, "position", default="far")) == [
        "KegareEnemy.position: default 'near', the definition's 'far'"
    ]
    assert disagreements(KegareEnemy, _changed(kind, "hp", required=False)) == [
        "KegareEnemy.hp: optional in the definition, <class 'int'> in the model",
        "KegareEnemy.hp: default none, the definition's None",
    ]
    nested = disagreements(KegareEnemy, _changed(kind, "skills.target", default="all"))
    assert nested == ["KegareSkill.target: default 'single', the definition's 'all'"]


@model
class _Retyped(KegareEnemy):
    hp: str = key(kind=Str())  # type: ignore[assignment]


@model
class _Redefaulted(KegareEnemy):
    blessed: bool = key(default=True)


@model
class _Renamed(KegareEnemy):
    life: int = key(kind=Int(1, 9), default=1)


@model
class _Skill(KegareSkill):
    ranged: bool | None = key(default=None)  # type: ignore[assignment]


@model
class _WithSkill(KegareEnemy):
    skills: tuple[_Skill, ...] = ()


def test_the_comparison_sees_a_model_that_differs() -> None:
    kind = _enemy()
    assert disagreements(_Retyped, kind) == ["_Retyped.hp: <class 'str'> for Int"]
    assert disagreements(_Redefaulted, kind) == [
        "_Redefaulted.blessed: default True, the definition's False"
    ]
    assert disagreements(_Renamed, kind) == [
        "_Renamed.life: not a key, and its default is not None"
    ]
    assert disagreements(_WithSkill, kind) == [
        "_Skill.ranged: default None, the definition's False"
    ]


# -- a key declared wrongly is refused when its definition is made --------------------------


@model
class _IntAsText(Model):
    hp: str = key(kind=Int(1, 9))


@model
class _NoKind(Model):
    hp: int = key(ja="HP")


@model
class _NoKeys(Model):
    levels: Mapping[str, int] = key(kind=Int(1, 9))


@model
class _RequiredNone(Model):
    hp: int | None = key(kind=Int(1, 9))


@pytest.mark.parametrize(
    ("cls", "said"),
    [
        (_IntAsText, "_IntAsText.hp: annotated str, but its kind Int holds int"),
        (_NoKind, "_NoKind.hp: a key of int needs a kind"),
        (_NoKeys, "_NoKeys.levels: a mapping key needs the type of its keys"),
        (_RequiredNone, "_RequiredNone.hp: a required key cannot be None"),
    ],
)
def test_a_key_declared_wrongly_is_refused(cls: type[Model], said: str) -> None:
    """A plugin author's mistake in a model is an error at import, naming the field."""
    from saikoro.scenario.model._keys import fields_of

    with pytest.raises(TypeError) as caught:
        fields_of(cls)
    assert str(caught.value).startswith(said)


def test_key_refuses_an_option_it_does_not_know() -> None:
    with pytest.raises(TypeError, match=r"unknown options \['maxitems'\]"):
        key(maxitems=3)  # type: ignore[call-overload]


def test_checks_for_a_class_the_scenario_does_not_hold_are_refused() -> None:
    """A check given for a class the model never holds would never run: refused."""
    from saikoro.systems._getb.model import GetbAttack
    from saikoro.systems._kegare.model import KegareScenario

    with pytest.raises(TypeError, match=r"kegare: checks for \['GetbAttack'\]"):
        scenario_root("kegare", KegareScenario, checks={GetbAttack: ()})
