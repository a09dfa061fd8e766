"""穢れ: enemies with attack/defence/initiative, position, skills and immunities."""

from __future__ import annotations

from dataclasses import dataclass

from saikoro.scenario.model import PC, DifficultyTarget, Enemy, Model, ScenarioModel

__all__ = ["MODEL", "KegareEnemy", "KegarePC", "KegareScenario", "KegareSkill", "KegareTarget"]


@dataclass(frozen=True, slots=True, kw_only=True)
class KegareSkill(Model):
    """A skill: kind, target, range, base damage."""

    name: str
    kind: str
    target: str = "single"
    ranged: bool = False
    damage: int | None = None
    effect: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class KegareEnemy(Enemy):
    """A 穢れ enemy."""

    hp: int
    attack: int
    defence: int
    initiative: int
    position: str = "near"
    blessed: bool = False
    skills: tuple[KegareSkill, ...] = ()
    immune: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class KegareTarget(DifficultyTarget):
    """A check: 2D6 + ``bonus`` against ``target``."""

    target: int
    bonus: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class KegarePC(PC):
    """A 穢れ PC (``party:``)."""

    hp: int
    attack: int
    defence: int
    initiative: int
    position: str = "near"
    damage: int = 5
    ranged: bool = False
    blessed: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class KegareScenario(ScenarioModel):
    """A 穢れ scenario."""

    difficulty_targets: tuple[KegareTarget, ...] = ()
    enemies: tuple[KegareEnemy, ...] = ()
    party: tuple[KegarePC, ...] | None = None


MODEL = KegareScenario
"""The model of kegare scenarios (its system's ``model`` part)."""
