"""The typed scenario model: frozen, slotted dataclasses built from a validated scenario.

:func:`build_model` turns validated scenario data into its system's
:class:`ScenarioModel` subclass (chosen by ``system:``); validation does it for every
valid file (:attr:`saikoro.scenario.Scenario.model`). Every object knows ``where`` it is written
(:class:`Position`, not part of equality or ``repr``); defaults are filled in.

The classes are where a scenario's keys are declared: each field of a :func:`model` class
made with :func:`key` is a key, its annotation the value's Python type, its default the
key's, and :func:`key` gives the rest (the ``kind`` of value, its words, a list's sizes).
The scenario definitions (:mod:`saikoro.scenario._defs`) are made from them
(:func:`saikoro.scenario.scenario_root`), so a key's name, type and default are written
once; :func:`choices_of` makes an :class:`~saikoro.scenario.Enum`'s choices of a class's
keys (a check that names an ability).

>>> from saikoro.scenario import validate_text
>>> sc = validate_text("system: kegare\\ntitle: t\\nenemies:\\n"
...     "  - {id: a, name: A, hp: 9, attack: 1, defence: 1, initiative: 3}\\n", "t.yaml").scenario
>>> m = sc.model
>>> type(m).__name__, m.enemies[0].position, str(m.enemies[0].where)
('KegareScenario', 'near', 't.yaml:4:5')
"""

from __future__ import annotations

import typing
from collections.abc import Mapping

from saikoro.scenario._containers import ListOf, Obj
from saikoro.systems import RegistryError, system_class

from ._build import NOWHERE, Model, Position, build, hints_of, to_data
from ._common import (
    PC,
    Balance,
    Branch,
    ChaseEntry,
    ChaseTable,
    DifficultyTarget,
    Enemy,
    Handout,
    Image,
    MainMission,
    Missions,
    Npc,
    ScenarioModel,
    Scene,
    SideCheck,
    SideMission,
)
from ._keys import KeyOptions, choices_of, key, model

__all__ = [
    "NOWHERE",
    "PC",
    "Balance",
    "Branch",
    "ChaseEntry",
    "ChaseTable",
    "DifficultyTarget",
    "Enemy",
    "Handout",
    "Image",
    "KeyOptions",
    "MainMission",
    "Missions",
    "Model",
    "Npc",
    "Position",
    "ScenarioModel",
    "Scene",
    "SideCheck",
    "SideMission",
    "build_model",
    "choices_of",
    "enemy_model",
    "key",
    "model",
    "model_class",
    "pc_model",
    "to_data",
]


def model_class(system_id: str) -> type[ScenarioModel]:
    """The model class of ``system_id``'s scenarios: the ``MODEL`` of its ``model`` part
    (:meth:`saikoro.systems.System.part`).

    Raises:
        UnknownSystemError: no system is registered as ``system_id``.
        RegistryError: the system has no model, or its ``MODEL`` is not a
            :class:`ScenarioModel` subclass.
    """
    module = system_class(system_id).part("model")
    made = getattr(module, "MODEL", None)
    if not (isinstance(made, type) and issubclass(made, ScenarioModel)):
        raise RegistryError(
            f"system {system_id!r}: {module.__name__}.MODEL is not a ScenarioModel subclass"
        )
    return made


def build_model(
    system_id: str,
    data: Mapping[str, object],
    *,
    file: str = "",
    positions: Mapping[str, tuple[int, int]] | None = None,
) -> ScenarioModel:
    """The model of validated scenario ``data`` of ``system_id``."""
    from saikoro.scenario._defs import DEFINITIONS

    return build(
        model_class(system_id), DEFINITIONS[system_id], data, file=file, positions=positions
    )


def _item(system_id: str, name: str, data: Mapping[str, object]) -> Model:
    """One entry of the list ``name`` of ``system_id``'s scenarios, built from its data."""
    from saikoro.scenario._defs import DEFINITIONS

    items = DEFINITIONS[system_id].field(name).type
    if not isinstance(items, ListOf) or not isinstance(items.item, Obj):
        raise TypeError(f"{system_id}: {name} is not a list of mappings")
    hint = hints_of(model_class(system_id))[name]
    while not (isinstance(hint, type) and issubclass(hint, Model)):
        args = [a for a in typing.get_args(hint) if a is not type(None) and a is not Ellipsis]
        if not args:
            raise TypeError(f"{system_id}: the model's {name} are not model objects")
        hint = args[0]
    return build(hint, items.item, data, path=f"scenario.{name}")


def enemy_model(system_id: str, enemy: Mapping[str, object]) -> Enemy:
    """One enemy of ``system_id`` from its validated data (defaults filled in), no position."""
    found = _item(system_id, "enemies", enemy)
    if not isinstance(found, Enemy):
        raise TypeError(f"{system_id}: the model's enemies are not Enemy objects")
    return found


def pc_model(system_id: str, pc: Mapping[str, object]) -> PC:
    """One PC of ``system_id`` (``party:`` format, defaults filled in), no position."""
    found = _item(system_id, "party", pc)
    if not isinstance(found, PC):
        raise TypeError(f"{system_id}: the model's party are not PC objects")
    return found
