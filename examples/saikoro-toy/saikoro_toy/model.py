"""The toy system's typed scenario model: what validation builds from a valid file."""

from __future__ import annotations

from dataclasses import dataclass

from saikoro.scenario.model import PC, DifficultyTarget, Enemy, ScenarioModel

__all__ = ["MODEL", "ToyEnemy", "ToyPC", "ToyScenario", "ToyTarget"]


@dataclass(frozen=True, slots=True, kw_only=True)
class ToyTarget(DifficultyTarget):
    """A check: the dice must reach ``target``."""

    target: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ToyEnemy(Enemy):
    """An enemy with hit points."""

    hp: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ToyPC(PC):
    """A PC of ``party:`` (its name only)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ToyScenario(ScenarioModel):
    """A toy scenario."""

    difficulty_targets: tuple[ToyTarget, ...] = ()
    enemies: tuple[ToyEnemy, ...] = ()
    party: tuple[ToyPC, ...] | None = None


MODEL = ToyScenario
