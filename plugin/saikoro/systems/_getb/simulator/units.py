"""GETB: each character's fixed data (attacks, guard, start cell) and the rulings in force."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from saikoro.balance._model import Encounter
from saikoro.balance._tactics import Policy, Tactics
from saikoro.systems._getb.board import CENTRE, DialClock
from saikoro.systems._getb.states import Combatant, Cost, Shield, Weapon, attack_cost

from . import shapes
from .shapes import GetbAttack, GetbEnemy, GetbPC

__all__ = [
    "DEFAULT_ROUNDS",
    "LINK_AID_COST",
    "SKILL_COST",
    "Move",
    "Prepared",
    "Unit",
    "approach",
    "distance",
    "neighbours",
    "power",
    "prepare",
    "walk",
]

DEFAULT_ROUNDS = 10
"""Round limit when the main mission gives none."""

_WEAPONS = {
    "short-blade": Weapon.SHORT,
    "long-blade": Weapon.LONG,
    "buster-blade": Weapon.BUSTER,
    "shooting": Weapon.SHOOTING,
}
_SHIELDS = {"buckler": Shield.BUCKLER, "shield": Shield.SHIELD, "tower": Shield.TOWER}
SKILL_COST = Cost(st=1, ap=3)
"""What an enemy's skill attack costs (ruling ``getb.skill_attack``)."""
LINK_AID_COST = Cost(st=1, ap=2)
"""〈リンクエイド〉's cost (ruling ``getb.link_aid``): same cell, ST1 AP2."""


@dataclass(frozen=True)
class Move:
    """One attack a character can make."""

    name: str
    melee: bool
    dice: int
    modifier: int
    reach: tuple[int, int]
    cost: Cost
    element: str = "physical"


@dataclass(frozen=True)
class Unit:
    """A character's fixed data: side, moves, guard, weak elements."""

    name: str
    pc: bool
    index: int
    moves: tuple[Move, ...]
    guard_dice: int
    guard_modifier: int
    max_op: int
    start: str
    danger: int
    max_hp: int = 1
    weak: frozenset[str] = frozenset()

    @property
    def reaches(self) -> tuple[tuple[int, int], ...]:
        """Every attack's range."""
        return tuple(m.reach for m in self.moves)


@dataclass(frozen=True)
class Prepared:
    """Units, the system (rulings) and the tactics."""

    units: tuple[Unit, ...]
    combatants: tuple[Combatant, ...]
    defeat: frozenset[str]
    rounds: int
    rules: Any
    pc_policy: Policy
    enemy_policy: Policy
    tie: str
    ap_tie: str
    shortfall: bool
    damage_fails: bool
    guard_fails: bool
    weak_die: bool = True
    link_aid: str = "one"
    effects: tuple[str, ...] = ()


@cache
def distance(a: str, b: str) -> int:
    """Cells between ``a`` and ``b`` on the dial-clock map."""
    return DialClock().distance(a, b)


@cache
def walk(a: str, b: str) -> int:
    """Cells a PC walks from ``a`` to ``b`` (never through the centre)."""
    return DialClock().move_distance(a, b, pc=True)


@cache
def approach(cell: str, target: str, reaches: tuple[tuple[int, int], ...], pc: bool) -> int:
    """Cells a character walks from ``cell`` until one of ``reaches`` covers ``target``.

    PCs walk around the centre and never stand in it; range counts through it.
    """
    board = DialClock()
    return min(
        board.move_distance(cell, x, pc=pc)
        for x in board.cells()
        if not (pc and x == CENTRE) and any(lo <= distance(x, target) <= hi for lo, hi in reaches)
    )


@cache
def neighbours(cell: str, pc: bool) -> tuple[str, ...]:
    """Cells one step from ``cell`` (never the centre for a PC)."""
    return tuple(c for c in DialClock().neighbours(cell) if not (pc and c == CENTRE))


def power(move: Move, dice: int) -> int:
    """How strong an attack with ``dice`` damage dice is (its expected total, roughly)."""
    return move.modifier + 6 * dice


def _pc_unit(i: int, pc: GetbPC, cell: str) -> Unit:
    weapon = _WEAPONS[pc.weapon]
    moves = [
        Move(
            pc.weapon,
            True,
            weapon.dice,
            pc.power + pc.abilities["strength"],
            (0, 1),
            attack_cost(weapon),
            pc.element,
        )
    ]
    bullets: tuple[GetbAttack, ...] = pc.bullets
    if not bullets and pc.gun_power is not None:
        bullets = (GetbAttack("射撃", "shooting", pc.gun_power, pc.gun_range, 1),)
    moves.extend(
        Move(
            b.name,
            False,
            b.dice,
            b.power + pc.abilities["intellect"],
            b.range,
            attack_cost(Weapon.SHOOTING),
            b.element,
        )
        for b in bullets
    )
    shield = _SHIELDS[pc.shield]
    danger = max(power(m, m.dice) for m in moves)
    return Unit(
        pc.name,
        True,
        i,
        tuple(moves),
        shield.dice,
        pc.armor + pc.abilities["strength"],
        pc.op,
        cell,
        danger,
        pc.hp,
    )


def _enemy_unit(i: int, e: GetbEnemy) -> Unit:
    moves = []
    for a in e.attacks:
        if a.weapon == "skill":
            melee = a.range[0] == 0
            cost = SKILL_COST
        else:
            weapon = _WEAPONS[a.weapon]
            melee = weapon.melee
            cost = attack_cost(weapon)
            if not melee and e.op is None:
                cost = replace(cost, op=0)
        ability = e.abilities["strength"] if melee else e.abilities["intellect"]
        moves.append(
            Move(a.name, melee, max(1, a.dice), a.power + ability, a.range, cost, a.element)
        )
    dice = _SHIELDS[e.shield].dice if e.shield else 0
    danger = max(power(m, m.dice) for m in moves)
    return Unit(
        e.id,
        False,
        i,
        tuple(moves),
        dice,
        e.armor + e.abilities["strength"],
        e.op or 0,
        e.placement,
        danger,
        e.hp,
        e.weak,
    )


def _start_cell(anchor: str, gap: int, k: int) -> str:
    cells = [c for c in DialClock().cells() if c != CENTRE and distance(anchor, c) == gap]
    if not cells:
        cells = [c for c in DialClock().cells() if c != CENTRE]
    return cells[k % len(cells)]


def _effects(enc: Encounter) -> tuple[str, ...]:
    """The enemies' attack effects, as written (not simulated)."""
    return tuple(
        f"{e.name}「{a.name}」: {a.effect}"
        for e in shapes.enemies(enc)
        for a in e.attacks
        if a.effect
    )


def prepare(enc: Encounter, tactics: Tactics) -> Prepared:
    """Place everyone and list their attacks."""
    enemies = [_enemy_unit(i, e) for i, e in enumerate(shapes.enemies(enc))]
    anchor = enemies[0].start if enemies else "in1"
    gap = 1 if tactics.pc.close_in else 2
    pcs = [_pc_unit(i, pc, _start_cell(anchor, gap, i)) for i, pc in enumerate(shapes.members(enc))]
    units = (*pcs, *enemies)
    stats: tuple[GetbPC | GetbEnemy, ...] = (*shapes.members(enc), *shapes.enemies(enc))
    combatants = tuple(
        Combatant(u.name, m.ap, m.st, op=u.max_op, pc=u.pc, hp=m.hp)
        for u, m in zip(units, stats, strict=True)
    )
    ids = frozenset(enc.defeat) or frozenset(e.id for e in shapes.enemies(enc))
    return Prepared(
        units=units,
        combatants=combatants,
        defeat=ids,
        rounds=enc.round_limit or DEFAULT_ROUNDS,
        rules=enc.rules,
        pc_policy=tactics.pc,
        enemy_policy=tactics.enemy,
        tie=str(enc.options["final_damage_tie"]),
        ap_tie=str(enc.options["ap_tie"]),
        shortfall=enc.options["ap_shortfall"] == "allow",
        damage_fails=enc.options["damage_fumble"] == "fail",
        guard_fails=enc.options["guard_fumble"] == "fail",
        weak_die=enc.options["weak_element"] == "die",
        link_aid=str(enc.options["link_aid"]),
        effects=_effects(enc),
    )
