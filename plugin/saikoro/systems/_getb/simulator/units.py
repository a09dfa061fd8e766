"""GETB: each character's fixed data read from the model (a :class:`Unit`, its attacks
and its guard as the rules page's commands take them), the map, and an attack's outcome
as one roll of its final damage (:func:`final_damage`: damage and guard check together)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache

from saikoro.dice import Dist
from saikoro.systems._getb.board import CENTRE, DialClock, parse_range
from saikoro.systems._getb.damage import CheckSpec, attack_weights
from saikoro.systems._getb.final import final_damage_odds, truncated_floor
from saikoro.systems._getb.model import GetbAttack, GetbEnemy, GetbPC
from saikoro.systems._getb.states import (
    SHIELDS,
    SKILL_ATTACK_COST,
    WEAPONS,
    Cost,
    Weapon,
    attack_cost,
)

__all__ = [
    "Move",
    "Unit",
    "approach",
    "cells",
    "distance",
    "enemy_unit",
    "final_damage",
    "mean_achievement",
    "neighbours",
    "pc_unit",
    "start_cell",
    "walk",
]


@lru_cache(maxsize=512)
def final_damage(
    attack: CheckSpec, guard: CheckSpec | None, tie: str, damage_fails: bool, guard_fails: bool
) -> tuple[Dist[int], int | None]:
    """An attack's final damage, the ``GF`` command's odds (``guard``: the defender's guard
    check, ``None``: no guard), and the least damage of the chains too long for the engine
    to follow (``None``: none is cut off). Those chains (about 10^-12 of an attack) are
    rolled as that least damage: exact wherever it downs the defender and tops up the
    attacker's OP (:meth:`~.rules.Prepared.solvable`)."""
    odds = final_damage_odds(
        attack, guard, tie=tie, damage_fumble_fails=damage_fails, guard_fumble_fails=guard_fails
    )
    odds_of = {d: p for d, p in odds.distribution.items() if isinstance(d, int)}
    floor = None
    if odds.truncated:
        floor = truncated_floor(attack, guard, guard_fumble_fails=guard_fails)
        odds_of[floor] = odds_of.get(floor, Fraction(0)) + odds.truncated
    return Dist.from_fractions(odds_of), floor


@lru_cache(maxsize=512)
def mean_achievement(spec: CheckSpec, fumble_fails: bool) -> Fraction:
    """The damage check's expected achievement (a failed attack counts 0): how strong it is."""
    weights, _ = attack_weights(spec, fumble_fails)
    return Fraction(sum(v * w for v, w in weights.items()), sum(weights.values()))


@dataclass(frozen=True)
class Move:
    """One attack a character can make.

    ``melee``: a melee attack (it recovers OP); ``gun``: made with the PC's gun, which must
    be equipped (〈変形〉); ``dice``: its damage dice before weak elements.
    """

    name: str
    melee: bool
    gun: bool
    dice: int
    modifier: int
    reach: tuple[int, int]
    cost: Cost
    element: str = "physical"


@dataclass(frozen=True)
class Unit:
    """A character's fixed data.

    ``key``: the enemy id (a PC's name) that names its actions; ``index``: its place among
    the party or the enemies; ``guard``: its guard check (``None``: it has no shield).
    """

    name: str
    key: str
    pc: bool
    index: int
    moves: tuple[Move, ...]
    guard: CheckSpec | None
    max_hp: int
    max_ap: int
    max_st: int
    max_op: int
    start: str
    weak: frozenset[str] = frozenset()


@cache
def distance(a: str, b: str) -> int:
    """Cells between ``a`` and ``b`` on the dial-clock map (ranges count through the centre)."""
    return DialClock().distance(a, b)


@cache
def walk(a: str, b: str, pc: bool = True) -> int:
    """Cells a character walks from ``a`` to ``b`` (PCs never through the centre)."""
    return DialClock().move_distance(a, b, pc=pc)


@cache
def neighbours(cell: str, pc: bool) -> tuple[str, ...]:
    """Cells one step from ``cell`` (never the centre for a PC)."""
    return tuple(c for c in DialClock().neighbours(cell) if not (pc and c == CENTRE))


@cache
def cells(pc: bool) -> tuple[str, ...]:
    """The cells a character may stand on (PCs never the centre)."""
    return tuple(c for c in DialClock().cells() if not (pc and c == CENTRE))


@cache
def approach(cell: str, target: str, reaches: tuple[tuple[int, int], ...], pc: bool) -> int:
    """Cells a character walks from ``cell`` until one of ``reaches`` covers ``target``
    (a large number when no reach is given)."""
    found = [
        walk(cell, x, pc)
        for x in cells(pc)
        if any(lo <= distance(x, target) <= hi for lo, hi in reaches)
    ]
    return min(found, default=99)


def start_cell(anchor: str, gap: int, k: int) -> str:
    """The ``k``-th PC's cell: ``gap`` cells from ``anchor``, never the centre (tactics)."""
    near = [c for c in cells(True) if distance(anchor, c) == gap] or list(cells(True))
    return near[k % len(near)]


def _reach(value: int | str) -> tuple[int, int]:
    return (value, value) if isinstance(value, int) else parse_range(value)


def pc_unit(i: int, pc: GetbPC, cell: str) -> Unit:
    """A PC: its melee weapon, its gun (each bullet, or a plain shot) and its shield."""
    weapon, a, one = WEAPONS[pc.weapon], pc.abilities, Weapon.SHOOTING.dice
    cost, melee = attack_cost(weapon), pc.power + a.strength
    moves = [Move(pc.weapon, True, False, weapon.dice, melee, (0, 1), cost, pc.element)]
    bullets = [(b.name, one + b.dice, b.range, b.element) for b in pc.bullets or ()]
    if not bullets and pc.gun_power is not None:  # a plain shot: the gun's one die
        bullets = [("射撃", one, None, "physical")]
    shot, gun = attack_cost(Weapon.SHOOTING), (pc.gun_power or 0) + a.intellect
    for name, dice, where, element in bullets:
        reach = _reach(where if where is not None else pc.gun_range)
        moves.append(Move(name, False, True, dice, gun, reach, shot, element))
    guard = CheckSpec(SHIELDS[pc.shield].dice, pc.armor + a.strength)
    return Unit(pc.name, pc.name, True, i, tuple(moves), guard, pc.hp, pc.ap, pc.st, pc.op, cell)


def _enemy_move(e: GetbEnemy, a: GetbAttack) -> Move:
    reach = _reach(a.range)
    if a.weapon == "skill":  # ruling skill_attack: ST1 AP3; melee when its range has 0
        melee, cost, dice = reach[0] == 0, SKILL_ATTACK_COST, a.dice or 1
    else:
        weapon = WEAPONS[a.weapon]
        melee, cost, dice = weapon.melee, attack_cost(weapon), a.dice or weapon.dice
        if not melee and e.op is None:  # ruling battle_start: no OP given, no OP paid
            cost = Cost(ap=cost.ap, st=cost.st)
    ability = e.abilities.strength if melee else e.abilities.intellect
    return Move(a.name, melee, False, dice, a.power + ability, reach, cost, a.element)


def enemy_unit(i: int, e: GetbEnemy) -> Unit:
    """An enemy on its placement: its attacks and its guard."""
    g = e.guard
    guard = None if g is None else CheckSpec(SHIELDS[g.shield].dice, g.armor + e.abilities.strength)
    moves, weak = tuple(_enemy_move(e, a) for a in e.attacks), frozenset(e.weak or ())
    return Unit(
        e.name, e.id, False, i, moves, guard, e.hp, e.ap, e.st, e.op or 0, e.placement, weak
    )
