"""The simulator's own shapes of getb PCs, enemies and targets, read from the scenario model.

Interim: the encounter holds the scenario model's objects; :func:`members` and the others give
the simulator its frozen shapes (a GETB attack's range as two numbers, and so on).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from saikoro.balance import Encounter
from saikoro.dice import InternalError
from saikoro.scenario.model import to_data
from saikoro.systems._getb import model as sm


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


def _range(value: int | str) -> tuple[int, int]:
    if isinstance(value, int):
        return value, value
    low, _, high = str(value).partition("-")
    return int(low), int(high or low)


_BLADE_DICE = {"short-blade": 2, "long-blade": 3, "buster-blade": 4}
"""Damage dice by weapon when an attack gives none (``dice: 0`` too); others roll 1."""


def _abilities(value: sm.GetbAbilities) -> dict[str, int]:
    """A model's abilities as name -> value (those given, in the definition's order)."""
    data = to_data(value)
    if not isinstance(data, dict):
        raise InternalError(f"abilities are not an object: {value!r}")
    return {str(k): int(v) for k, v in data.items()}


def _member(pc: sm.GetbPC) -> GetbPC:
    return GetbPC(
        pc.name,
        _abilities(pc.abilities),
        pc.hp,
        pc.ap,
        pc.st,
        pc.op,
        pc.weapon,
        pc.power,
        pc.gun_power,
        _range(pc.gun_range),
        pc.shield,
        pc.armor,
        pc.element,
        tuple(
            GetbAttack(
                b.name,
                "shooting",
                pc.gun_power or 0,
                _range(b.range if b.range is not None else pc.gun_range),
                1 + b.dice,
                b.element,
            )
            for b in pc.bullets or ()
        ),
    )


def _enemy(e: sm.GetbEnemy) -> GetbEnemy:
    return GetbEnemy(
        e.id,
        e.name,
        _abilities(e.abilities),
        e.hp,
        e.ap,
        e.st,
        e.op,
        e.placement,
        tuple(
            GetbAttack(
                a.name,
                a.weapon,
                a.power,
                _range(a.range),
                a.dice or _BLADE_DICE.get(a.weapon, 1),
                a.element,
                a.effect,
            )
            for a in e.attacks
        ),
        e.guard.shield if e.guard else None,
        e.guard.armor if e.guard else 0,
        frozenset(e.weak or ()),
    )


def members(enc: Encounter) -> tuple[GetbPC, ...]:
    """The party, in the simulator's shapes."""
    out = []
    for pc in enc.party.members:
        if not isinstance(pc, sm.GetbPC):
            raise InternalError(f"getb: {pc!r} is not a GetbPC")
        out.append(_member(pc))
    return tuple(out)


def enemies(enc: Encounter) -> tuple[GetbEnemy, ...]:
    """The enemies, in the simulator's shapes."""
    out = []
    for e in enc.enemies:
        if not isinstance(e, sm.GetbEnemy):
            raise InternalError(f"getb: {e!r} is not a GetbEnemy")
        out.append(_enemy(e))
    return tuple(out)
