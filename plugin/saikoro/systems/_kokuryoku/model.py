"""国力: nations and characters, power or love as the gauge, four abilities, skills."""

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

__all__ = [
    "MODEL",
    "KokuryokuAbilities",
    "KokuryokuEnemy",
    "KokuryokuPC",
    "KokuryokuScenario",
    "KokuryokuSkill",
    "KokuryokuTarget",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class KokuryokuAbilities(Model):
    """The four abilities, each optional."""

    force: int | None = None
    perception: int | None = None
    charisma: int | None = None
    luck: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class KokuryokuSkill(Model):
    """A skill: name, timing, effect."""

    name: str
    timing: str | None = None
    effect: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
@defaults_from(definition.ENEMY)
class KokuryokuEnemy(Enemy):
    """A nation (``power``) or character (``love``)."""

    kind: str = DEFINED
    power: int | None = None
    love: int | None = None
    abilities: KokuryokuAbilities = KokuryokuAbilities()
    attack: int = DEFINED
    defence: int = DEFINED
    skills: tuple[KokuryokuSkill, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class KokuryokuTarget(DifficultyTarget):
    """A check reaching ``target`` gains ``gain`` power."""

    target: int
    gain: int
    ability: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
@defaults_from(definition.PC)
class KokuryokuPC(PC):
    """A kokuryoku PC (``party:``)."""

    kind: str = DEFINED
    power: int | None = None
    love: int | None = None
    abilities: KokuryokuAbilities = KokuryokuAbilities()
    attack: int = DEFINED
    defence: int = DEFINED


@dataclass(frozen=True, slots=True, kw_only=True)
class KokuryokuScenario(ScenarioModel):
    """A kokuryoku scenario."""

    difficulty_targets: tuple[KokuryokuTarget, ...] = ()
    enemies: tuple[KokuryokuEnemy, ...] = ()
    party: tuple[KokuryokuPC, ...] | None = None


MODEL = KokuryokuScenario
"""The model of kokuryoku scenarios (its system's ``model`` part)."""
