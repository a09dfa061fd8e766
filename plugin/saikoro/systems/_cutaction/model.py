"""カットアクション: body/head success values, rows of the battle area, cover, attacks, chases."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from saikoro.scenario.model import (
    DEFINED,
    PC,
    ChaseEntry,
    ChaseTable,
    DifficultyTarget,
    Enemy,
    Model,
    ScenarioModel,
    defaults_from,
)

from . import scenario as definition

__all__ = [
    "MODEL",
    "CutactionAttack",
    "CutactionChaseEntry",
    "CutactionChaseTable",
    "CutactionEnemy",
    "CutactionPC",
    "CutactionScenario",
    "CutactionTarget",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class CutactionAttack(Model):
    """An attack: melee or shooting, fixed damage."""

    name: str
    kind: str
    damage: int
    effect: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
@defaults_from(definition.ENEMY)
class CutactionEnemy(Enemy):
    """A cut-action enemy (``reaction``: the 防御/回避 success value, ``None``: its body)."""

    body: int
    head: int
    hp: int
    reaction: int | None = None
    area: str = DEFINED
    cover: str = DEFINED
    attacks: tuple[CutactionAttack, ...] = ()
    vehicle: str | None = None
    blockade: bool = DEFINED


@dataclass(frozen=True, slots=True, kw_only=True)
@defaults_from(definition.TARGET)
class CutactionTarget(DifficultyTarget):
    """A body or head check against ``target`` (``kind``: action, resist, chase).

    A ``kind: chase`` target is the chase: ``flees`` (``party``, the default when ``None``,
    or ``enemies``), ``runners`` (enemy ids in the chase; ``None``: those with a vehicle,
    else every enemy) and ``table`` (the scenario's chase table it rolls, by name).
    """

    check: str
    target: int
    kind: str = DEFINED
    flees: str | None = None
    runners: tuple[str, ...] | None = None
    table: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
@defaults_from(definition.PC)
class CutactionPC(PC):
    """A cut-action PC (``party:``; ``reaction``: ``None`` is its body value)."""

    body: int
    head: int
    hp: int
    reaction: int | None = None
    area: str = DEFINED
    attack: str = DEFINED
    damage: int = DEFINED


@dataclass(frozen=True, slots=True, kw_only=True)
class CutactionChaseEntry(ChaseEntry):
    """An entry of a chase table (``event``: the rule book's event it works as, by name)."""

    event: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class CutactionChaseTable(ChaseTable):
    """A chase table whose entries may name the rule book's event they work as."""

    entries: Mapping[str, CutactionChaseEntry]


@dataclass(frozen=True, slots=True, kw_only=True)
class CutactionScenario(ScenarioModel):
    """A cut-action scenario."""

    difficulty_targets: tuple[CutactionTarget, ...] = ()
    enemies: tuple[CutactionEnemy, ...] = ()
    party: tuple[CutactionPC, ...] | None = None
    chase_tables: tuple[CutactionChaseTable, ...] = ()


MODEL = CutactionScenario
"""The model of cutaction scenarios (its system's ``model`` part)."""
