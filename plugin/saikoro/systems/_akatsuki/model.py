"""君ヨ、暁ノ大地ニ死スベシ: ability levels by name, specialties, awakening cards."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from saikoro.scenario.model import (
    DEFINED,
    PC,
    DifficultyTarget,
    Enemy,
    ScenarioModel,
    defaults_from,
)

from . import scenario as definition

__all__ = ["MODEL", "AkatsukiEnemy", "AkatsukiPC", "AkatsukiScenario", "AkatsukiTarget"]


@dataclass(frozen=True, slots=True, kw_only=True)
@defaults_from(definition.ENEMY)
class AkatsukiEnemy(Enemy):
    """An akatsuki enemy: ability name -> level."""

    abilities: Mapping[str, int]
    specialties: tuple[str, ...] = ()
    cards: int = DEFINED


@dataclass(frozen=True, slots=True, kw_only=True)
@defaults_from(definition.TARGET)
class AkatsukiTarget(DifficultyTarget):
    """A check of ``ability`` with its difficulty and modifiers."""

    ability: str
    style: str | None = None
    difficulty: int = DEFINED
    preparation: int = DEFINED
    support: int = DEFINED
    level: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
@defaults_from(definition.PC)
class AkatsukiPC(PC):
    """An akatsuki PC (``party:``)."""

    abilities: Mapping[str, int]
    specialties: tuple[str, ...] = ()
    cards: int = DEFINED


@dataclass(frozen=True, slots=True, kw_only=True)
class AkatsukiScenario(ScenarioModel):
    """An akatsuki scenario."""

    difficulty_targets: tuple[AkatsukiTarget, ...] = ()
    enemies: tuple[AkatsukiEnemy, ...] = ()
    party: tuple[AkatsukiPC, ...] | None = None


MODEL = AkatsukiScenario
"""The model of akatsuki scenarios (its system's ``model`` part)."""
