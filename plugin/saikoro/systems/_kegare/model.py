"""穢れ: enemies with attack/defence/initiative, position, skills and immunities."""

from __future__ import annotations

from dataclasses import dataclass

from saikoro.scenario.model import (
    DEFINED,
    PC,
    DifficultyTarget,
    Enemy,
    Model,
    ScenarioModel,
    defaults_from,
)

from . import scenario as definition

__all__ = ["MODEL", "KegareEnemy", "KegarePC", "KegareScenario", "KegareSkill", "KegareTarget"]


@dataclass(frozen=True, slots=True, kw_only=True)
@defaults_from(definition.SKILL)
class KegareSkill(Model):
    """A skill: kind, target, range, base damage."""

    name: str
    kind: str
    target: str = DEFINED
    ranged: bool = DEFINED
    damage: int | None = None
    effect: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
@defaults_from(definition.ENEMY)
class KegareEnemy(Enemy):
    """A 穢れ enemy."""

    hp: int
    attack: int
    defence: int
    initiative: int
    position: str = DEFINED
    blessed: bool = DEFINED
    skills: tuple[KegareSkill, ...] = ()
    immune: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
@defaults_from(definition.TARGET)
class KegareTarget(DifficultyTarget):
    """A check: 2D6 + ``bonus`` against ``target``."""

    target: int
    bonus: int = DEFINED


@dataclass(frozen=True, slots=True, kw_only=True)
@defaults_from(definition.PC)
class KegarePC(PC):
    """A 穢れ PC (``party:``)."""

    hp: int
    attack: int
    defence: int
    initiative: int
    position: str = DEFINED
    damage: int = DEFINED
    ranged: bool = DEFINED
    blessed: bool = DEFINED


@dataclass(frozen=True, slots=True, kw_only=True)
class KegareScenario(ScenarioModel):
    """A 穢れ scenario."""

    difficulty_targets: tuple[KegareTarget, ...] = ()
    enemies: tuple[KegareEnemy, ...] = ()
    party: tuple[KegarePC, ...] | None = None


MODEL = KegareScenario
"""The model of kegare scenarios (its system's ``model`` part)."""
