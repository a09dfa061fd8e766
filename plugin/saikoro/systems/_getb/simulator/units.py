"""GETB: each character's fixed data, read from the model, and the tables a battle draws from.

Everything a battle needs that does not change between battles is built here once
(:func:`prepare`): the characters' attacks (dice, fixed part, range, cost) and guards as
the rules page's commands take them, the rulings in force, and, from the engine's own
functions, the tables the battle draws its checks from (:class:`Draw`, built by
:func:`~saikoro.systems._getb.damage.attack_weights` and
:func:`~saikoro.systems._getb.damage.guard_weights`, the very weights of the ``GD``,
``GG`` and ``GF`` commands), the turn order's tie keys
(:func:`~saikoro.systems._getb.states.tie_key`) and the weak elements' dice
(:func:`~saikoro.systems._getb.damage.damage_dice`).
"""

from __future__ import annotations

import bisect
import random
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache

from saikoro.balance import Encounter, Policy, Tactics
from saikoro.dice import InternalError
from saikoro.systems._getb import GodEaterTableBurst
from saikoro.systems._getb.board import CENTRE, DialClock, parse_range
from saikoro.systems._getb.damage import (
    CheckSpec,
    GuardValue,
    attack_weights,
    damage_dice,
    guard_weights,
)
from saikoro.systems._getb.model import GetbAttack, GetbEnemy, GetbPC
from saikoro.systems._getb.states import (
    SKILL_ATTACK_COST,
    Cost,
    Shield,
    Weapon,
    attack_cost,
    tie_key,
)

__all__ = [
    "DEFAULT_ROUNDS",
    "Draw",
    "Move",
    "Prepared",
    "Unit",
    "approach",
    "attack_draw",
    "distance",
    "guard_draw",
    "neighbours",
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


@dataclass(frozen=True)
class Draw:
    """A check's outcomes as integer weights, drawn from in one step.

    ``values[j]`` has weight ``cumulative[j] - cumulative[j - 1]``; chains too long for
    the engine to follow (a mass of about 10^-12) are left out, so a draw is from the
    rest, renormalised.
    """

    values: tuple[GuardValue, ...]
    cumulative: tuple[int, ...]

    def sample(self, rng: random.Random) -> GuardValue:
        """One outcome, with its probability."""
        return self.values[bisect.bisect_right(self.cumulative, rng.randrange(self.cumulative[-1]))]


def _draw(weights: dict[int, int] | dict[int | str, int]) -> Draw:
    values: list[GuardValue] = []
    cumulative: list[int] = []
    total = 0
    for value, weight in weights.items():
        if weight:
            total += weight
            values.append(value)
            cumulative.append(total)
    return Draw(tuple(values), tuple(cumulative))


@lru_cache(maxsize=512)
def attack_draw(spec: CheckSpec, fumble_fails: bool) -> Draw:
    """The damage check's achievement (0: the attack failed), from the engine's weights."""
    weights, _ = attack_weights(spec, fumble_fails)
    return _draw(weights)


@lru_cache(maxsize=512)
def guard_draw(spec: CheckSpec, fumble_fails: bool) -> Draw:
    """The guard check's result (an achievement, ``perfect`` or ``failed``)."""
    weights, _ = guard_weights(spec, fumble_fails, True)
    return _draw(weights)


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

    @property
    def reaches(self) -> tuple[tuple[int, int], ...]:
        """Every attack's range."""
        return tuple(m.reach for m in self.moves)


@dataclass(frozen=True)
class Prepared:
    """Units, the rulings in force, the tactics and the tables a battle draws from.

    ``specs[(i, m, d)]``: the damage check of unit ``i``'s move ``m`` on unit ``d`` (weak
    elements counted); ``strength``: the rank of its expected achievement (higher is
    stronger, equal for equal expectations), how the attacker ranks its attacks;
    ``danger[k]``: unit ``k``'s strongest attack (the ``most_dangerous`` target).
    """

    units: tuple[Unit, ...]
    pcs: tuple[int, ...]
    enemies: tuple[int, ...]
    defeat: tuple[int, ...]
    rounds: int
    rules: GodEaterTableBurst
    pc_policy: Policy
    enemy_policy: Policy
    tie: str
    op_rounding: str
    shortfall: bool
    damage_fails: bool
    guard_fails: bool
    weak_rule: str
    link_aid: str
    guard_weapon: str
    immediate: bool
    tie_keys: tuple[tuple[int, int], ...]
    specs: dict[tuple[int, int, int], CheckSpec]
    strength: dict[tuple[int, int, int], int]
    danger: tuple[Fraction, ...]
    attacks: dict[tuple[int, int, int], Draw]
    guards: tuple[Draw | None, ...]
    effects: tuple[tuple[str, str, str], ...] = ()
    skills: tuple[str, ...] = ()
    plans: dict[tuple[object, ...], tuple[str, Cost, int] | None] = field(
        default_factory=dict, compare=False, repr=False
    )
    """The tactics' choices already made (a pure function of the key: see ``play._plan``)."""

    def policy(self, k: int) -> Policy:
        """The policy of unit ``k``'s side."""
        return self.pc_policy if self.units[k].pc else self.enemy_policy


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


def _reach(value: int | str) -> tuple[int, int]:
    return (value, value) if isinstance(value, int) else parse_range(value)


def _pc_unit(i: int, pc: GetbPC, cell: str) -> Unit:
    weapon = _WEAPONS[pc.weapon]
    a = pc.abilities
    blade = Move(
        pc.weapon,
        True,
        False,
        weapon.dice,
        pc.power + a.strength,
        (0, 1),
        attack_cost(weapon),
        pc.element,
    )
    moves = [blade]
    bullets = pc.bullets or ()
    if not bullets and pc.gun_power is not None:
        moves.append(
            Move(
                "射撃",
                False,
                True,
                Weapon.SHOOTING.dice,
                pc.gun_power + a.intellect,
                _reach(pc.gun_range),
                attack_cost(Weapon.SHOOTING),
            )
        )
    moves.extend(
        Move(
            b.name,
            False,
            True,
            Weapon.SHOOTING.dice + b.dice,  # 1 + the bullet's ability
            (pc.gun_power or 0) + a.intellect,
            _reach(b.range if b.range is not None else pc.gun_range),
            attack_cost(Weapon.SHOOTING),
            b.element,
        )
        for b in bullets
    )
    guard = CheckSpec(_SHIELDS[pc.shield].dice, pc.armor + a.strength)
    return Unit(pc.name, pc.name, True, i, tuple(moves), guard, pc.hp, pc.ap, pc.st, pc.op, cell)


def _enemy_move(e: GetbEnemy, a: GetbAttack) -> Move:
    reach = _reach(a.range)
    if a.weapon == "skill":  # ruling skill_attack: ST1 AP3; melee when its range has 0
        melee, cost, dice = reach[0] == 0, SKILL_ATTACK_COST, a.dice or 1
    else:
        weapon = _WEAPONS[a.weapon]
        melee, cost, dice = weapon.melee, attack_cost(weapon), a.dice or weapon.dice
        if not melee and e.op is None:  # ruling battle_start: no OP given, no OP paid
            cost = Cost(ap=cost.ap, st=cost.st)
    ability = e.abilities.strength if melee else e.abilities.intellect
    return Move(a.name, melee, False, dice, a.power + ability, reach, cost, a.element)


def _enemy_unit(i: int, e: GetbEnemy) -> Unit:
    guard = None
    if e.guard is not None:
        guard = CheckSpec(_SHIELDS[e.guard.shield].dice, e.guard.armor + e.abilities.strength)
    return Unit(
        e.name,
        e.id,
        False,
        i,
        tuple(_enemy_move(e, a) for a in e.attacks),
        guard,
        e.hp,
        e.ap,
        e.st,
        e.op or 0,
        e.placement,
        frozenset(e.weak or ()),
    )


def _start_cell(anchor: str, gap: int, k: int) -> str:
    """The ``k``-th PC's cell: ``gap`` cells from ``anchor``, never the centre (tactics)."""
    near = [c for c in cells(True) if distance(anchor, c) == gap] or list(cells(True))
    return near[k % len(near)]


def prepare(enc: Encounter, tactics: Tactics) -> Prepared:
    """Place everyone, list their attacks and build the tables the battles draw from."""
    rules = enc.rules
    if not isinstance(rules, GodEaterTableBurst):
        raise InternalError(f"getb: the rules are {rules!r}")
    enemies = enc.of("enemies", GetbEnemy)
    e_units = [_enemy_unit(i, e) for i, e in enumerate(enemies)]
    anchor = e_units[0].start if e_units else "in1"
    gap = 1 if tactics.pc.close_in else 2
    p_units = [
        _pc_unit(i, pc, _start_cell(anchor, gap, i))
        for i, pc in enumerate(enc.of("members", GetbPC))
    ]
    units = (*p_units, *e_units)
    opt = rules.options
    damage_fails = opt["damage_fumble"] == "fail"
    guard_fails = opt["guard_fumble"] == "fail"
    weak_rule = str(opt["weak_element"])
    specs: dict[tuple[int, int, int], CheckSpec] = {}
    for i, u in enumerate(units):
        for m, move in enumerate(u.moves):
            for d, foe in enumerate(units):
                if foe.pc != u.pc:
                    dice = damage_dice(move.dice, move.element, foe.weak, rule=weak_rule)
                    specs[(i, m, d)] = CheckSpec(dice, move.modifier)
    means = {k: mean_achievement(s, damage_fails) for k, s in specs.items()}
    levels = {v: n for n, v in enumerate(sorted(set(means.values())))}
    strength = {k: levels[v] for k, v in means.items()}
    danger = tuple(
        max(
            (mean_achievement(CheckSpec(m.dice, m.modifier), damage_fails) for m in u.moves),
            default=Fraction(0),
        )
        for u in units
    )
    wanted = set(enc.defeat) or {e.id for e in enemies}
    ap_tie = str(opt["ap_tie"])
    return Prepared(
        units=units,
        pcs=tuple(range(len(p_units))),
        enemies=tuple(range(len(p_units), len(units))),
        defeat=tuple(k for k, u in enumerate(units) if not u.pc and u.key in wanted),
        rounds=enc.round_limit or DEFAULT_ROUNDS,
        rules=rules,
        pc_policy=tactics.pc,
        enemy_policy=tactics.enemy,
        tie=str(opt["final_damage_tie"]),
        op_rounding=str(opt["op_rounding"]),
        shortfall=opt["ap_shortfall"] == "allow",
        damage_fails=damage_fails,
        guard_fails=guard_fails,
        weak_rule=weak_rule,
        link_aid=str(opt["link_aid"]),
        guard_weapon=str(opt["guard_weapon"]),
        immediate=opt["battle_end"] == "immediate",
        tie_keys=tuple(tie_key(u.max_ap, u.pc, ap_tie) for u in units),
        specs=specs,
        strength=strength,
        danger=danger,
        attacks={k: attack_draw(s, damage_fails) for k, s in specs.items()},
        guards=tuple(None if u.guard is None else guard_draw(u.guard, guard_fails) for u in units),
        effects=tuple((e.name, a.name, a.effect) for e in enemies for a in e.attacks if a.effect),
        skills=tuple(
            f"{e.name}「{a.name}」" for e in enemies for a in e.attacks if a.weapon == "skill"
        ),
    )
