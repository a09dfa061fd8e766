"""The typed scenario model: frozen, slotted dataclasses built from a validated scenario.

:func:`build_model` turns validated scenario data into its system's
:class:`ScenarioModel` subclass (chosen by ``system:``); validation does it for every
valid file (:attr:`saikoro.scenario.Scenario.model`). Every object knows ``where`` it is written
(:class:`Position`, not part of equality or ``repr``); defaults come from the scenario
definitions (:mod:`saikoro.scenario.defs`), filled once.

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

from saikoro.scenario.containers import ListOf, Obj
from saikoro.scenario.defs import DEFINITIONS

from ._build import NOWHERE, Model, Position, build, to_data
from ._derive import derived_scenario
from .akatsuki import AkatsukiEnemy, AkatsukiPC, AkatsukiScenario, AkatsukiTarget
from .common import (
    PC,
    Balance,
    ChaseEntry,
    ChaseTable,
    DifficultyTarget,
    Enemy,
    MainMission,
    Missions,
    ScenarioModel,
    SideMission,
)
from .cutaction import (
    CutactionAttack,
    CutactionEnemy,
    CutactionPC,
    CutactionScenario,
    CutactionTarget,
)
from .getb import (
    GetbAbilities,
    GetbAttack,
    GetbBullet,
    GetbEnemy,
    GetbGuard,
    GetbPC,
    GetbScenario,
    GetbTarget,
)
from .kegare import KegareEnemy, KegarePC, KegareScenario, KegareSkill, KegareTarget
from .kokuryoku import (
    KokuryokuAbilities,
    KokuryokuEnemy,
    KokuryokuPC,
    KokuryokuScenario,
    KokuryokuSkill,
    KokuryokuTarget,
)

__all__ = [
    "MODELS",
    "NOWHERE",
    "PC",
    "AkatsukiEnemy",
    "AkatsukiPC",
    "AkatsukiScenario",
    "AkatsukiTarget",
    "Balance",
    "ChaseEntry",
    "ChaseTable",
    "CutactionAttack",
    "CutactionEnemy",
    "CutactionPC",
    "CutactionScenario",
    "CutactionTarget",
    "DifficultyTarget",
    "Enemy",
    "GetbAbilities",
    "GetbAttack",
    "GetbBullet",
    "GetbEnemy",
    "GetbGuard",
    "GetbPC",
    "GetbScenario",
    "GetbTarget",
    "KegareEnemy",
    "KegarePC",
    "KegareScenario",
    "KegareSkill",
    "KegareTarget",
    "KokuryokuAbilities",
    "KokuryokuEnemy",
    "KokuryokuPC",
    "KokuryokuScenario",
    "KokuryokuSkill",
    "KokuryokuTarget",
    "MainMission",
    "Missions",
    "Model",
    "Position",
    "ScenarioModel",
    "SideMission",
    "build_model",
    "enemy_model",
    "model_class",
    "pc_model",
    "to_data",
]

MODELS: Mapping[str, type[ScenarioModel]] = {
    "akatsuki": AkatsukiScenario,
    "cutaction": CutactionScenario,
    "getb": GetbScenario,
    "kegare": KegareScenario,
    "kokuryoku": KokuryokuScenario,
}
"""System id -> its scenario model class."""


_DERIVED: dict[str, type[ScenarioModel]] = {}


def model_class(system_id: str) -> type[ScenarioModel]:
    """The model class of ``system_id``'s scenarios.

    A registered system without a model here (a plugin's, a test's toy) gets classes
    derived from its scenario definition (:mod:`._derive`).
    """
    found = MODELS.get(system_id) or _DERIVED.get(system_id)
    if found is None:
        found = _DERIVED[system_id] = derived_scenario(system_id, DEFINITIONS[system_id])
    return found


def build_model(
    system_id: str,
    data: Mapping[str, object],
    *,
    file: str = "",
    positions: Mapping[str, tuple[int, int]] | None = None,
) -> ScenarioModel:
    """The model of validated scenario ``data`` of ``system_id``."""
    return build(
        model_class(system_id), DEFINITIONS[system_id], data, file=file, positions=positions
    )


def _item(system_id: str, key: str, data: Mapping[str, object], *, complete: bool = True) -> Model:
    """One entry of the list ``key`` of ``system_id``'s scenarios, built from its data."""
    items = DEFINITIONS[system_id].field(key).type
    if not isinstance(items, ListOf) or not isinstance(items.item, Obj):
        raise TypeError(f"{system_id}: {key} is not a list of mappings")
    hint = typing.get_type_hints(model_class(system_id))[key]
    while not (isinstance(hint, type) and issubclass(hint, Model)):
        args = [a for a in typing.get_args(hint) if a is not type(None) and a is not Ellipsis]
        if not args:
            raise TypeError(f"{system_id}: the model's {key} are not model objects")
        hint = args[0]
    return build(hint, items.item, data, path=f"scenario.{key}", complete=complete)


def enemy_model(system_id: str, enemy: Mapping[str, object], *, complete: bool = True) -> Enemy:
    """One enemy of ``system_id`` from its validated data (defaults filled in), no position.

    ``complete=False`` is TRANSITIONAL (see :func:`~._build.build`).
    """
    found = _item(system_id, "enemies", enemy, complete=complete)
    if not isinstance(found, Enemy):
        raise TypeError(f"{system_id}: the model's enemies are not Enemy objects")
    return found


def pc_model(system_id: str, pc: Mapping[str, object]) -> PC:
    """One PC of ``system_id`` (``party:`` format, defaults filled in), no position."""
    found = _item(system_id, "party", pc)
    if not isinstance(found, PC):
        raise TypeError(f"{system_id}: the model's party are not PC objects")
    return found
