"""The simulator's own shapes of cutaction PCs, enemies and targets, read from the scenario model.

Interim: the encounter holds the scenario model's objects; :func:`members` and the others give
the simulator its frozen shapes (a GETB attack's range as two numbers, and so on).
"""

from __future__ import annotations

from dataclasses import dataclass

from saikoro.balance import Encounter
from saikoro.dice import InternalError
from saikoro.systems._cutaction import model as sm


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


def _member(pc: sm.CutactionPC) -> CutPC:
    return CutPC(pc.name, pc.body, pc.head, pc.hp, pc.area, CutAttack("攻撃", pc.attack, pc.damage))


def _enemy(e: sm.CutactionEnemy) -> CutEnemy:
    return CutEnemy(
        e.id,
        e.name,
        e.body,
        e.head,
        e.hp,
        e.area,
        e.cover,
        tuple(CutAttack(a.name, a.kind, a.damage, a.effect) for a in e.attacks),
        e.vehicle,
        e.blockade,
    )


def members(enc: Encounter) -> tuple[CutPC, ...]:
    """The party, in the simulator's shapes."""
    out = []
    for pc in enc.party.members:
        if not isinstance(pc, sm.CutactionPC):
            raise InternalError(f"cutaction: {pc!r} is not a CutactionPC")
        out.append(_member(pc))
    return tuple(out)


def enemies(enc: Encounter) -> tuple[CutEnemy, ...]:
    """The enemies, in the simulator's shapes."""
    out = []
    for e in enc.enemies:
        if not isinstance(e, sm.CutactionEnemy):
            raise InternalError(f"cutaction: {e!r} is not a CutactionEnemy")
        out.append(_enemy(e))
    return tuple(out)
