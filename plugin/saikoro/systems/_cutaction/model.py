"""カットアクション: body/head success values, rows of the battle area, cover, attacks."""

from __future__ import annotations

from dataclasses import dataclass

from saikoro.scenario.model._build import Model
from saikoro.scenario.model._common import PC, DifficultyTarget, Enemy, ScenarioModel

__all__ = [
    "MODEL",
    "CutactionAttack",
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
class CutactionEnemy(Enemy):
    """A cut-action enemy."""

    body: int
    head: int
    hp: int
    area: str = "enemy"
    cover: str = "none"
    attacks: tuple[CutactionAttack, ...] = ()
    vehicle: str | None = None
    blockade: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class CutactionTarget(DifficultyTarget):
    """A body or head check against ``target`` (``kind``: action, chase ...)."""

    check: str
    target: int
    kind: str = "action"


@dataclass(frozen=True, slots=True, kw_only=True)
class CutactionPC(PC):
    """A cut-action PC (``party:``)."""

    body: int
    head: int
    hp: int
    area: str = "home"
    attack: str = "shooting"
    damage: int = 4


@dataclass(frozen=True, slots=True, kw_only=True)
class CutactionScenario(ScenarioModel):
    """A cut-action scenario."""

    difficulty_targets: tuple[CutactionTarget, ...] = ()
    enemies: tuple[CutactionEnemy, ...] = ()
    party: tuple[CutactionPC, ...] | None = None


MODEL = CutactionScenario
"""The model of cutaction scenarios (named by :attr:`saikoro.systems.System.scenario_model`)."""
