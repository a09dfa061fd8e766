"""GOD EATER TABLE BURST: abilities, AP/ST/OP, attacks by weapon and element, guard, placement."""

from __future__ import annotations

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

__all__ = [
    "MODEL",
    "GetbAbilities",
    "GetbAttack",
    "GetbBullet",
    "GetbEnemy",
    "GetbGuard",
    "GetbPC",
    "GetbScenario",
    "GetbTarget",
]

from saikoro.scenario.model import Model


@dataclass(frozen=True, slots=True, kw_only=True)
class GetbAbilities(Model):
    """筋力・敏捷・知力・耐久."""

    strength: int
    agility: int
    intellect: int
    endurance: int


@dataclass(frozen=True, slots=True, kw_only=True)
@defaults_from(definition.ATTACK)
class GetbAttack(Model):
    """An attack: weapon kind, element, power, range in cells, damage dice (``None``: by kind)."""

    name: str
    weapon: str
    element: str
    power: int
    range: int | str = DEFINED
    dice: int | None = None
    effect: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GetbGuard(Model):
    """The guard: shield kind and armour."""

    shield: str
    armor: int


@dataclass(frozen=True, slots=True, kw_only=True)
class GetbEnemy(Enemy):
    """A GETB enemy on the dial-clock map."""

    abilities: GetbAbilities
    hp: int
    ap: int
    st: int
    op: int | None = None
    placement: str
    attacks: tuple[GetbAttack, ...]
    guard: GetbGuard | None = None
    weak: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GetbTarget(DifficultyTarget):
    """A check: 1D10 + ``check`` ability against ``target``."""

    check: str
    target: int


@dataclass(frozen=True, slots=True, kw_only=True)
@defaults_from(definition.BULLET)
class GetbBullet(Model):
    """A bullet for the PC's gun: element, damage dice it adds to the gun's 1, range."""

    name: str
    element: str = DEFINED
    dice: int = DEFINED
    range: int | str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
@defaults_from(definition.PC)
class GetbPC(PC):
    """A GETB PC (``party:``)."""

    abilities: GetbAbilities
    hp: int
    ap: int
    st: int
    op: int = DEFINED
    weapon: str = DEFINED
    power: int = DEFINED
    gun_power: int | None = None
    gun_range: int | str = DEFINED
    shield: str = DEFINED
    armor: int = DEFINED
    element: str = DEFINED
    bullets: tuple[GetbBullet, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GetbScenario(ScenarioModel):
    """A GETB scenario."""

    difficulty_targets: tuple[GetbTarget, ...] = ()
    enemies: tuple[GetbEnemy, ...] = ()
    party: tuple[GetbPC, ...] | None = None


MODEL = GetbScenario
"""The model of getb scenarios (its system's ``model`` part)."""
