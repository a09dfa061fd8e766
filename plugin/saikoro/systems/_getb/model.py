"""GOD EATER TABLE BURST: abilities, AP/ST/OP, attacks by weapon and element, guard, placement."""

from __future__ import annotations

from dataclasses import dataclass

from saikoro.scenario.model import PC, DifficultyTarget, Enemy, ScenarioModel

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
class GetbAttack(Model):
    """An attack: weapon kind, element, power, range in cells, damage dice (``None``: by kind)."""

    name: str
    weapon: str
    element: str
    power: int
    range: int | str = "0-1"
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
class GetbBullet(Model):
    """A bullet for the PC's gun: element, damage dice it adds to the gun's 1, range."""

    name: str
    element: str = "physical"
    dice: int = 0
    range: int | str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GetbPC(PC):
    """A GETB PC (``party:``)."""

    abilities: GetbAbilities
    hp: int
    ap: int
    st: int
    op: int = 0
    weapon: str = "long-blade"
    power: int = 5
    gun_power: int | None = None
    gun_range: int | str = "1-3"
    shield: str = "buckler"
    armor: int = 0
    element: str = "physical"
    bullets: tuple[GetbBullet, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GetbScenario(ScenarioModel):
    """A GETB scenario."""

    difficulty_targets: tuple[GetbTarget, ...] = ()
    enemies: tuple[GetbEnemy, ...] = ()
    party: tuple[GetbPC, ...] | None = None


MODEL = GetbScenario
"""The model of getb scenarios (its system's ``model`` part)."""
