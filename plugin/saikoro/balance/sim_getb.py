"""GETB: rounds on the dial-clock map with AP, ST and OP.

Follows ``getb.round`` and ``getb.attack``. Enemies stand on their ``placement``; PCs
start one cell from the first enemy (``close_in``) or two (``keep_range``), never in the
centre. Each round every character refills AP and ST
(:meth:`~saikoro.systems.getb.states.Combatant.round_start`); the character with the most
AP takes the next turn (:meth:`GodEaterTableBurst.initiative`, ruling ``ap_tie``) until
everyone is at 0 AP. On its turn a character picks a target by its policy; if no attack
reaches it, a ``close_in`` character makes a 〈戦闘移動〉 of one cell towards it (PCs never
through the centre). It then makes the affordable attack in range with the highest
power (blades ST1 + AP2/3/4, guns OP1 + AP1, enemy skills ST1 + AP3; an enemy with no OP
given shoots without OP), paying with :meth:`GodEaterTableBurst.pay` (ruling
``ap_shortfall``); with nothing to do it gives up its AP (〈行動放棄〉).

The attack: a chained damage check (:func:`~saikoro.systems.getb.chain.roll_chain`:
weapon dice, power + strength for blades and close skills, + intellect for guns and
ranged skills); with the ``guard`` policy and ST left the target guards (shield dice +
armour + strength), and a target that cannot is covered by an ally in its cell who can
(〈カバーリング〉, that ally takes the hit); the final damage is
:func:`~saikoro.systems.getb.damage.resolve` (rulings ``final_damage_tie``,
``damage_fumble``, ``guard_fumble``); blade hits recover OP
(:meth:`GodEaterTableBurst.op_recovered`, up to the maximum). HP 0 or less is
戦闘不能. ``win``: every enemy in ``balance.defeat`` (default: all) down within the round
limit (10 rounds when none is given); every PC down loses.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from typing import Any

from saikoro.dice import LimitError
from saikoro.systems.getb.board import CENTRE, DialClock
from saikoro.systems.getb.chain import DEFAULT_CRITICAL, DEFAULT_FUMBLE
from saikoro.systems.getb.damage import FAILED, PERFECT, resolve
from saikoro.systems.getb.damage import CheckSpec as DamageSpec
from saikoro.systems.getb.final import final_damage_odds
from saikoro.systems.getb.states import Combatant, Cost, Shield, Weapon, attack_cost

from .model import Encounter, GetbEnemy, GetbPC
from .stats import Tally
from .tactics import Policy, Tactics

__all__ = ["FLOWS", "Move", "Prepared", "Unit", "battle", "exact", "notes", "prepare"]

FLOWS = ("getb.round", "getb.attack")
"""The system flows this simulator follows."""

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
"""What an enemy's skill attack costs (the seed leaves it to the skill)."""


@dataclass(frozen=True)
class Move:
    """One attack a character can make."""

    name: str
    melee: bool
    dice: int
    modifier: int
    reach: tuple[int, int]
    cost: Cost


@dataclass(frozen=True)
class Unit:
    """A character's fixed data: side, moves, guard."""

    name: str
    pc: bool
    index: int
    moves: tuple[Move, ...]
    guard_dice: int
    guard_modifier: int
    max_op: int
    start: str
    danger: int


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


@cache
def _distance(a: str, b: str) -> int:
    return DialClock().distance(a, b)


@cache
def _neighbours(cell: str, pc: bool) -> tuple[str, ...]:
    return tuple(c for c in DialClock().neighbours(cell) if not (pc and c == CENTRE))


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
        )
    ]
    if pc.gun_power is not None:
        moves.append(
            Move(
                "射撃",
                False,
                1,
                pc.gun_power + pc.abilities["intellect"],
                pc.gun_range,
                attack_cost(Weapon.SHOOTING),
            )
        )
    shield = _SHIELDS[pc.shield]
    danger = max(m.modifier + 6 * m.dice for m in moves)
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
        moves.append(Move(a.name, melee, max(1, a.dice), a.power + ability, a.range, cost))
    dice = _SHIELDS[e.shield].dice if e.shield else 0
    danger = max(m.modifier + 6 * m.dice for m in moves)
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
    )


def _start_cell(anchor: str, distance: int, k: int) -> str:
    cells = [c for c in DialClock().cells() if c != CENTRE and _distance(anchor, c) == distance]
    if not cells:
        cells = [c for c in DialClock().cells() if c != CENTRE]
    return cells[k % len(cells)]


def prepare(enc: Encounter, tactics: Tactics) -> Prepared:
    """Place everyone and list their attacks."""
    enemies = [_enemy_unit(i, e) for i, e in enumerate(enc.enemies)]
    anchor = enemies[0].start if enemies else "in1"
    gap = 1 if tactics.pc.close_in else 2
    pcs = [_pc_unit(i, pc, _start_cell(anchor, gap, i)) for i, pc in enumerate(enc.party.members)]
    units = (*pcs, *enemies)
    combatants = tuple(
        Combatant(u.name, m.ap, m.st, op=u.max_op, pc=u.pc, hp=m.hp)
        for u, m in zip(units, (*enc.party.members, *enc.enemies), strict=True)
    )
    ids = frozenset(enc.defeat) or frozenset(e.id for e in enc.enemies)
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
    )


def fast_chain(
    rand: Callable[[], float], dice: int, modifier: int, critical: int = DEFAULT_CRITICAL
) -> tuple[int, bool, bool]:
    """A chained check as :func:`~saikoro.systems.getb.chain.roll_chain` rolls it, faster.

    Each die's chain runs to its end before the next die (a face at or above
    ``critical`` adds a die); returns (total, critical, fumble). A test checks it against
    ``roll_chain`` on the same faces.
    """
    total = 0
    crit = False
    fumble = True
    for _ in range(dice):
        first = True
        while True:
            face = int(rand() * 10) + 1
            total += face
            if face > DEFAULT_FUMBLE:
                fumble = False
            if face < critical:
                break
            if first:
                crit = True
            first = False
    return total + modifier, crit, fumble


_TIE_KEYS: dict[str, Callable[[int, bool], tuple[int, int]]] = {
    "max_ap": lambda max_ap, pc: (-max_ap, 0 if pc else 1),
    "pc_first": lambda max_ap, pc: (0 if pc else 1, -max_ap),
    "enemy_first": lambda max_ap, pc: (1 if pc else 0, -max_ap),
}
"""Ties of AP as :func:`~saikoro.systems.getb.states.initiative_order` breaks them."""


def battle(prep: Prepared, rng: random.Random, tally: Tally) -> None:
    """One battle, round by round."""
    rules = prep.rules
    rand = rng.random
    units = prep.units
    n = len(units)
    start = prep.combatants
    ap = [0] * n
    st = [c.st for c in start]
    op = [c.op for c in start]
    hp = [c.hp for c in start]
    max_ap = [c.max_ap for c in start]
    pcs = [u.pc for u in units]
    tie_key = _TIE_KEYS[prep.ap_tie]
    ties = [tie_key(max_ap[k], pcs[k]) for k in range(n)]
    cells = [u.start for u in units]
    downed = [False] * tally.pcs
    dealt = taken = 0
    win = False
    rnd = 0
    while rnd < prep.rounds:
        rnd += 1
        for k in range(n):
            if hp[k] > 0:
                b = start[k]
                c = Combatant(b.name, b.max_ap, b.max_st, ap[k], st[k], op[k], 0, b.pc, hp[k])
                c = c.round_start()
                ap[k], st[k] = c.ap, c.st
            else:
                ap[k] = 0
        while True:
            ready = [k for k in range(n) if ap[k] > 0 and hp[k] > 0]
            if not ready:
                break
            i = min(ready, key=lambda k: (-ap[k], *ties[k], k))
            unit = units[i]
            policy = prep.pc_policy if unit.pc else prep.enemy_policy
            foes = [k for k in range(n) if hp[k] > 0 and pcs[k] != unit.pc]
            if not foes:
                break
            if policy.target == "random":
                t = foes[int(rand() * len(foes))]
            elif policy.target == "most_dangerous":
                t = max(foes, key=lambda k: (units[k].danger, -k))
            else:
                t = min(foes, key=lambda k: (hp[k], k))
            dist = _distance(cells[i], cells[t])
            usable = [m for m in unit.moves if m.reach[0] <= dist <= m.reach[1]]
            if not usable and policy.close_in and dist > 0:
                step = min(_neighbours(cells[i], unit.pc), key=lambda c: _distance(c, cells[t]))
                cells[i] = step
                dist = _distance(step, cells[t])
                usable = [m for m in unit.moves if m.reach[0] <= dist <= m.reach[1]]
            usable = [
                m
                for m in usable
                if st[i] >= m.cost.st
                and op[i] >= m.cost.op
                and (ap[i] >= m.cost.ap or (prep.shortfall and ap[i] >= 1))
            ]
            if not usable:
                ap[i] = 0  # 〈行動放棄〉
                continue
            move = max(usable, key=lambda m: (m.modifier + 6 * m.dice, m.melee))
            b = start[i]
            me = Combatant(b.name, b.max_ap, b.max_st, ap[i], st[i], op[i], 0, b.pc, hp[i])
            paid = rules.pay(me, move.cost)
            ap[i], st[i], op[i] = paid.ap, paid.st, paid.op
            # response: guard, or an ally in the cell covers
            target = t
            guarded = False
            side_guards = (prep.pc_policy if pcs[t] else prep.enemy_policy).guard
            if side_guards and st[t] >= 1 and units[t].guard_dice:
                guarded = True
            elif side_guards:
                for k in range(n):
                    if (
                        k != t
                        and hp[k] > 0
                        and pcs[k] == pcs[t]
                        and cells[k] == cells[t]
                        and st[k] >= 1
                        and units[k].guard_dice
                    ):
                        target, guarded = k, True
                        break
            if guarded:
                st[target] -= 1
            total, _, fumble = fast_chain(rand, move.dice, move.modifier)
            attack_value: int | None = None if (fumble and prep.damage_fails) else total
            guard: int | str | None = None
            if guarded and attack_value is not None and attack_value > 0:
                g_total, g_crit, g_fumble = fast_chain(
                    rand, units[target].guard_dice, units[target].guard_modifier
                )
                if g_crit:
                    guard = PERFECT
                elif g_fumble and prep.guard_fails:
                    guard = FAILED
                else:
                    guard = max(0, g_total)
            dmg, _ = resolve(attack_value, guard, tie=prep.tie)
            if dmg > 0:
                was_up = hp[target] > 0
                hp[target] -= dmg
                if move.melee:
                    op[i] = min(unit.max_op, op[i] + rules.op_recovered(dmg))
                if unit.pc:
                    dealt += dmg
                else:
                    taken += dmg
                    tally.actions[f"{unit.name}:{move.name}"] += dmg
                if was_up and hp[target] <= 0 and pcs[target]:
                    downed[units[target].index] = True
        if all(hp[k] <= 0 for k, u in enumerate(units) if not u.pc and u.name in prep.defeat):
            win = True
            break
        if all(hp[k] <= 0 for k in range(n) if pcs[k]):
            break
    tally.record(win=win, rounds=rnd, downed=downed, dealt=dealt, taken=taken)


def policy_guard(prep: Prepared, unit: Unit) -> bool:
    """Whether ``unit``'s side guards when able."""
    return (prep.pc_policy if unit.pc else prep.enemy_policy).guard


def _choice(unit: Unit, c: Combatant, dist: int, allow: bool) -> Move | None:
    usable = [
        m
        for m in unit.moves
        if m.reach[0] <= dist <= m.reach[1] and c.can_pay(m.cost, allow_ap_shortfall=allow)
    ]
    return max(usable, key=lambda m: (m.modifier + 6 * m.dice, m.melee)) if usable else None


def _exchange(prep: Prepared) -> tuple[Combatant, Combatant, Unit, Unit, bool] | None:
    """The one-exchange duel's parts, when ``prep`` is one (else ``None``)."""
    if prep.rounds != 1 or len(prep.units) != 2:
        return None
    pc, en = prep.units
    if not pc.pc or en.pc:
        return None
    dist = _distance(pc.start, en.start)
    allow = prep.rules.option("ap_shortfall") == "allow"
    cs = [c.round_start() for c in prep.combatants]
    for u, c in zip(prep.units, cs, strict=True):
        move = _choice(u, c, dist, allow)
        if move is None:
            return None
        left = prep.rules.pay(c, move.cost)
        if _choice(u, left, dist, allow) is not None:
            return None  # it could attack twice: not one exchange
    order = prep.rules.initiative(cs)
    return cs[0], cs[1], pc, en, order[0].pc


def exact(prep: Prepared) -> tuple[Fraction | None, dict[str, Fraction]]:
    """One exchange (one PC, one enemy, one round, one attack each) solved exactly.

    Uses :func:`~saikoro.systems.getb.final.final_damage_odds` for each attack.
    Whole battles are too large to solve.
    """
    parts = _exchange(prep)
    if parts is None:
        return None, {}
    c_pc, c_en, u_pc, u_en, pc_first = parts
    dist = _distance(u_pc.start, u_en.start)
    allow = prep.rules.option("ap_shortfall") == "allow"
    m_en = _choice(u_en, c_en, dist, allow)
    if not pc_first and prep.pc_policy.guard and c_pc.st >= 1 and u_pc.guard_dice:
        # the PC guards the first blow: that ST is gone before its own attack
        m_pc = _choice(u_pc, replace(c_pc, st=c_pc.st - 1), dist, allow)
        if m_pc is None and m_en is not None:
            return Fraction(0), {}
    else:
        m_pc = _choice(u_pc, c_pc, dist, allow)
    if m_pc is None or m_en is None:
        return None, {}
    damage_fails = prep.rules.option("damage_fumble") == "fail"
    guard_fails = prep.rules.option("guard_fumble") == "fail"

    def hit(move: Move, defender: Unit, st_left: int, guards: bool, hp: int) -> Fraction | None:
        """P(the final damage is ``hp`` or more); ``None`` when cut-off chains leave it open."""
        guard = (
            DamageSpec(defender.guard_dice, defender.guard_modifier)
            if guards and st_left >= 1 and defender.guard_dice
            else None
        )
        attack = DamageSpec(move.dice, move.modifier)
        odds = final_damage_odds(
            attack,
            guard,
            tie=prep.tie,
            damage_fumble_fails=damage_fails,
            guard_fumble_fails=guard_fails,
        )
        dist: Mapping[int | str, Fraction] = odds.distribution
        p = sum((q for d, q in dist.items() if isinstance(d, int) and d >= hp), Fraction(0))
        if not odds.truncated:
            return p
        # chains too long to follow reach at least cut_minimum: they kill when that beats
        # the best guard (no 10s: a 10 is a perfect guard) by hp
        top = 0 if guard is None else max(0, guard.dice * 9 + guard.modifier)
        if attack.spread().cut_minimum - top >= max(1, hp) and odds.truncated_success:
            return p + odds.truncated
        return None

    en_st = c_en.st - (m_en.cost.st if not pc_first else 0)
    try:
        p_kill = hit(m_pc, u_en, en_st, prep.enemy_policy.guard, c_en.hp)
        p_down = hit(m_en, u_pc, c_pc.st, prep.pc_policy.guard, c_pc.hp)
    except LimitError:  # too many dice to enumerate: no exact answer
        return None, {}
    if p_kill is None:
        return None, {}
    if pc_first:
        return p_kill, {"P(一撃で倒す)": p_kill}
    if p_down is None:
        return None, {}
    survive = 1 - p_down
    return survive * p_kill, {"P(一撃で倒す)": p_kill, "P(先手を耐える)": survive}


def notes(_prep: Prepared) -> tuple[str, ...]:
    """What is not modelled."""
    return (
        "スキル・アビリティ・バレットの効果、弱点属性、ジャンプ（飛行）、リンクエイド、"
        "全力移動とステップ、待機は使わない。",
    )
