"""君ヨ、暁ノ大地ニ死スベシ: ability levels by name, specialties, awakening cards."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from saikoro.scenario.model import PC, DifficultyTarget, Enemy, ScenarioModel

__all__ = ["MODEL", "AkatsukiEnemy", "AkatsukiPC", "AkatsukiScenario", "AkatsukiTarget"]


@dataclass(frozen=True, slots=True, kw_only=True)
class AkatsukiEnemy(Enemy):
    """An akatsuki enemy: ability name -> level."""

    abilities: Mapping[str, int]
    specialties: tuple[str, ...] = ()
    cards: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class AkatsukiTarget(DifficultyTarget):
    """A check of ``ability`` with its difficulty and modifiers."""

    ability: str
    style: str | None = None
    difficulty: int = 0
    preparation: int = 0
    support: int = 0
    level: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class AkatsukiPC(PC):
    """An akatsuki PC (``party:``)."""

    abilities: Mapping[str, int]
    specialties: tuple[str, ...] = ()
    cards: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class AkatsukiScenario(ScenarioModel):
    """An akatsuki scenario."""

    difficulty_targets: tuple[AkatsukiTarget, ...] = ()
    enemies: tuple[AkatsukiEnemy, ...] = ()
    party: tuple[AkatsukiPC, ...] | None = None


MODEL = AkatsukiScenario
"""The model of akatsuki scenarios (its system's ``model`` part)."""
