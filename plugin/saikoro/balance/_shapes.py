"""The simulators' own shapes of PCs, enemies and targets, one block per system.

:mod:`saikoro.balance._model` fills them from the typed scenario model; the simulators
read only these (a simulator wants, say, a GETB attack's range as two numbers).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = [
    "AkatsukiPC",
    "AkatsukiTarget",
    "CutAttack",
    "CutEnemy",
    "CutPC",
    "GetbAttack",
    "GetbEnemy",
    "GetbPC",
    "KegareEnemy",
    "KegarePC",
    "KegareSkill",
    "KokuryokuMember",
    "KokuryokuTarget",
]


# -- akatsuki ---------------------------------------------------------------------------


@dataclass(frozen=True)
class AkatsukiPC:
    """A PC of 君ヨ、暁ノ大地ニ死スベシ: ability levels, specialties, awakening cards."""

    name: str
    abilities: Mapping[str, int]
    specialties: tuple[str, ...] = ()
    cards: int = 0


@dataclass(frozen=True)
class AkatsukiTarget:
    """A difficulty target: ability, style, base difficulty, preparation, NPC support."""

    name: str
    ability: str
    style: str | None
    difficulty: int
    preparation: int
    support: int
    level: int | None


# -- kokuryoku --------------------------------------------------------------------------


@dataclass(frozen=True)
class KokuryokuMember:
    """A nation (with a power gauge) or a character (abilities, attack, defence)."""

    name: str
    kind: str
    power: int | None
    abilities: Mapping[str, int]
    attack: int
    defence: int
    skills: tuple[str, ...] = ()
    """The names of its skills (their effects are text)."""

    @property
    def best(self) -> int:
        """The highest ability (checks may use any ability)."""
        return max(self.abilities.values(), default=0)


@dataclass(frozen=True)
class KokuryokuTarget:
    """A middle-phase check: target, power gained, the starting ability (if set)."""

    name: str
    target: int
    gain: int
    ability: str | None


# -- kegare -----------------------------------------------------------------------------


@dataclass(frozen=True)
class KegareSkill:
    """A skill: base damage, ranged, single or all, the status it names, kind, effect text."""

    name: str
    damage: int
    ranged: bool = False
    area: bool = False
    status: str | None = None
    kind: str = "attack"
    effect: str | None = None


@dataclass(frozen=True)
class KegarePC:
    """A 穢れ PC: HP, attack, defence, initiative, position, its attack."""

    name: str
    hp: int
    attack: int
    defence: int
    initiative: int
    position: str = "near"
    damage: int = 5
    ranged: bool = False
    blessed: bool = False


@dataclass(frozen=True)
class KegareEnemy:
    """A 穢れ enemy with its attack skills and immunities."""

    id: str
    name: str
    hp: int
    attack: int
    defence: int
    initiative: int
    position: str
    blessed: bool
    skills: tuple[KegareSkill, ...]
    immune: frozenset[str]
    other_skills: tuple[KegareSkill, ...] = ()
    """Support, defence and always-on skills (the attack skills are ``skills``)."""


# -- getb -------------------------------------------------------------------------------


@dataclass(frozen=True)
class GetbAttack:
    """An attack: weapon kind, power, range, damage dice, element, effect text."""

    name: str
    weapon: str
    power: int
    range: tuple[int, int]
    dice: int
    element: str = "physical"
    effect: str | None = None


@dataclass(frozen=True)
class GetbPC:
    """A God Eater: abilities, HP, AP, ST, OP, a melee weapon, maybe a gun, a shield."""

    name: str
    abilities: Mapping[str, int]
    hp: int
    ap: int
    st: int
    op: int
    weapon: str
    power: int
    gun_power: int | None
    gun_range: tuple[int, int]
    shield: str
    armor: int
    element: str = "physical"
    bullets: tuple[GetbAttack, ...] = ()


@dataclass(frozen=True)
class GetbEnemy:
    """An Aragami: abilities, HP, AP, ST, OP, placement, attacks, guard."""

    id: str
    name: str
    abilities: Mapping[str, int]
    hp: int
    ap: int
    st: int
    op: int | None
    placement: str
    attacks: tuple[GetbAttack, ...]
    shield: str | None
    armor: int
    weak: frozenset[str] = frozenset()


# -- cutaction --------------------------------------------------------------------------


@dataclass(frozen=True)
class CutAttack:
    """An attack: melee or shooting, damage, effect text."""

    name: str
    kind: str
    damage: int
    effect: str | None = None


@dataclass(frozen=True)
class CutPC:
    """A cut-action PC: body and head success values, stamina, row, attack."""

    name: str
    body: int
    head: int
    hp: int
    area: str
    attack: CutAttack


@dataclass(frozen=True)
class CutEnemy:
    """A cut-action enemy: success values, stamina, row, cover, attacks, vehicle, blockade."""

    id: str
    name: str
    body: int
    head: int
    hp: int
    area: str
    cover: str
    attacks: tuple[CutAttack, ...]
    vehicle: str | None
    blockade: bool
