"""GETB: one battle, round by round (the hot path: plain lists, no objects per roll)."""

from __future__ import annotations

import random
from collections.abc import Callable

from saikoro.balance._stats import Tally
from saikoro.systems._getb.chain import DEFAULT_CRITICAL, DEFAULT_FUMBLE
from saikoro.systems._getb.damage import FAILED, PERFECT, resolve
from saikoro.systems._getb.states import Cost

from .units import (
    LINK_AID_COST,
    Move,
    Prepared,
    approach,
    distance,
    neighbours,
    power,
    walk,
)

__all__ = ["TIE_KEYS", "aid_hp", "battle", "dice_against", "fast_chain", "refill"]


def fast_chain(
    rand: Callable[[], float], dice: int, modifier: int, critical: int = DEFAULT_CRITICAL
) -> tuple[int, bool, bool]:
    """A chained check as :func:`~saikoro.systems._getb.chain.roll_chain` rolls it, faster.

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


TIE_KEYS: dict[str, Callable[[int, bool], tuple[int, int]]] = {
    "max_ap": lambda max_ap, pc: (-max_ap, 0 if pc else 1),
    "pc_first": lambda max_ap, pc: (0 if pc else 1, -max_ap),
    "enemy_first": lambda max_ap, pc: (1 if pc else 0, -max_ap),
}
"""Ties of AP as :func:`~saikoro.systems._getb.states.initiative_order` breaks them."""


def refill(value: int, maximum: int) -> int:
    """AP or ST after the round start, as
    :meth:`~saikoro.systems._getb.states.Combatant.round_start` refills it (no penalty)."""
    return max(value, min(maximum, value + maximum))


def aid_hp(rule: str, rescuer_hp: int, max_hp: int) -> int:
    """The HP a rescued ally stands up with (ruling ``link_aid``).

    >>> aid_hp("transfer", 9, 40), aid_hp("one", 9, 40), aid_hp("half", 9, 41)
    (4, 1, 20)
    """
    if rule == "transfer":
        return max(1, rescuer_hp // 2)
    return 1 if rule == "one" else max(1, max_hp // 2)


def dice_against(move: Move, weak: frozenset[str], weak_die: bool) -> int:
    """The damage dice of ``move`` against a target weak to ``weak`` (ruling ``weak_element``)."""
    return move.dice + 1 if weak_die and move.element in weak else move.dice


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
    max_st = [c.max_st for c in start]
    pcs = [u.pc for u in units]
    tie_key = TIE_KEYS[prep.ap_tie]
    # who acts first among equal AP never changes: rank everyone once (lower acts first)
    ranked = sorted(range(n), key=lambda k: (*tie_key(max_ap[k], pcs[k]), k))
    rank = [0] * n
    for place, k in enumerate(ranked):
        rank[k] = n - place  # higher is earlier
    cells = [u.start for u in units]
    downed = [False] * tally.pcs
    shortfall = prep.shortfall
    weak_die = prep.weak_die
    aid_cost = LINK_AID_COST
    dealt = taken = rescues = 0
    win = False
    rnd = 0
    while rnd < prep.rounds:
        rnd += 1
        for k in range(n):
            if hp[k] > 0:
                ap[k] = refill(ap[k], max_ap[k])
                st[k] = refill(st[k], max_st[k])
            else:
                ap[k] = 0
        while True:
            i, best = -1, 0
            for k in range(n):  # the most AP acts; ties by rank (ruling ap_tie)
                if ap[k] > 0 and hp[k] > 0:
                    score = ap[k] * (n + 1) + rank[k]
                    if score > best:
                        i, best = k, score
            if i < 0:
                break
            unit = units[i]
            policy = prep.pc_policy if unit.pc else prep.enemy_policy
            foes = [k for k in range(n) if hp[k] > 0 and pcs[k] != unit.pc]
            if not foes:
                break
            # 〈リンクエイド〉: a guarding PC first rescues a downed ally it can reach this turn
            if unit.pc and policy.guard and st[i] >= aid_cost.st:
                down = [k for k in range(n) if pcs[k] and hp[k] <= 0]
                if down:
                    k = min(down, key=lambda k: (walk(cells[i], cells[k]), k))
                    steps = walk(cells[i], cells[k])
                    # one cell is a 〈戦闘移動〉; more a 〈全力移動〉 (ST1, one AP a cell)
                    run = Cost(st=1, ap=steps) if steps > 1 else Cost()
                    left = ap[i] - run.ap
                    if (
                        left >= 0
                        and (prep.link_aid != "transfer" or hp[i] >= 2)
                        and st[i] >= aid_cost.st + run.st
                        and (left >= aid_cost.ap or (shortfall and left >= 1))
                    ):
                        cells[i] = cells[k]
                        st[i] -= aid_cost.st + run.st
                        ap[i] = max(0, left - aid_cost.ap)
                        hp[k] = aid_hp(prep.link_aid, hp[i], units[k].max_hp)
                        if prep.link_aid == "transfer":
                            hp[i] -= hp[k]
                        rescues += 1
                        continue
            if policy.target == "random":
                t = foes[int(rand() * len(foes))]
            elif policy.target == "most_dangerous":
                t = max(foes, key=lambda k: (units[k].danger, -k))
            else:
                t = min(foes, key=lambda k: (hp[k], k))
            dist = distance(cells[i], cells[t])
            usable = [m for m in unit.moves if m.reach[0] <= dist <= m.reach[1]]
            if not usable and policy.close_in and dist > 0:
                goal, reaches = cells[t], unit.reaches
                step = min(
                    neighbours(cells[i], unit.pc),
                    key=lambda c: (approach(c, goal, reaches, unit.pc), distance(c, goal)),
                )
                cells[i] = step
                dist = distance(step, cells[t])
                usable = [m for m in unit.moves if m.reach[0] <= dist <= m.reach[1]]
            usable = [
                m
                for m in usable
                if st[i] >= m.cost.st
                and op[i] >= m.cost.op
                and (ap[i] >= m.cost.ap or (shortfall and ap[i] >= 1))
            ]
            if not usable:
                ap[i] = 0  # 〈行動放棄〉
                continue
            weak = units[t].weak
            move = max(usable, key=lambda m: (power(m, dice_against(m, weak, weak_die)), m.melee))
            cost = move.cost
            st[i] -= cost.st
            op[i] -= cost.op
            ap[i] = max(0, ap[i] - cost.ap)
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
            dice = dice_against(move, units[target].weak, weak_die)
            total, _, fumble = fast_chain(rand, dice, move.modifier)
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
                elif was_up and hp[target] <= 0:
                    tally.fallen.append(units[target].index)
        if all(hp[k] <= 0 for k, u in enumerate(units) if not u.pc and u.name in prep.defeat):
            win = True
            break
        if all(hp[k] <= 0 for k in range(n) if pcs[k]):
            break
    if rescues:
        tally.sums["link_aid"] += rescues
    tally.record(win=win, rounds=rnd, downed=downed, dealt=dealt, taken=taken)
