"""GETB: one exchange (one PC, one Aragami, one round), solved in closed form.

From the seed (000): a damage check rolls the weapon's d10s (short 2, long 3, buster 4;
guns 1); each die at the critical value 10 adds a die, and so on; all dice at the fumble
value 1 is a fumble; the achievement is the faces + weapon power + strength (guns:
intellect). A guard (ST 1, a shield's d10s: buckler 2, shield 3, tower 4) adds armour +
strength. Final damage: the difference when the attack wins, 1 when the guard does, 0
on a critical guard. Costs: blades ST1 and AP 2/3/4. Each round every character refills
AP and ST; the one with most AP acts next.

An exploding d10 is 10 K + R with K ~ geometric (P(K = k) = 9/10 (1/10)^k) and R uniform
on 1..9, so a sum of n of them is 10 (negative-binomial) + (finite) and every tail
probability is a finite sum: the oracle is exact, with no truncation.

Rulings and policy followed (the simulator's, documented): a fumbled damage check and an
achievement of 0 or less fail; a fumbled guard counts as failed (the whole achievement
gets through); a guard achievement is never below 0; without a guard the achievement is
the damage; the equal-AP tie goes to the higher maximum AP, then the PC; guarding
(``focus``/``random`` both guard) is taken whenever the target has ST left and a shield;
an enemy's ``skill`` attack costs ST1 + AP3.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

DICE = {"short-blade": 2, "long-blade": 3, "buster-blade": 4}
SHIELD = {"buckler": 2, "shield": 3, "tower": 4}
AP_COST = {"short-blade": 2, "long-blade": 3, "buster-blade": 4}


@cache
def _k_total(n: int, k: int) -> Fraction:
    """P(the n dice's chains add k dice in all): negative binomial."""
    return comb(k + n - 1, n - 1) * Fraction(1, 10) ** k * Fraction(9, 10) ** n


@cache
def _r_sums(n: int) -> dict[int, int]:
    out: dict[int, int] = {}
    for faces in itertools.product(range(1, 10), repeat=n):
        out[sum(faces)] = out.get(sum(faces), 0) + 1
    return out


@cache
def attack_at_least(n: int, modifier: int, t: int) -> Fraction:
    """P(the damage check succeeds with an achievement of at least ``t``), ``t`` >= 1."""
    total = Fraction(0)
    rs = _r_sums(n)
    for r, w in rs.items():
        pr = Fraction(w, 9**n)
        # faces = 10 K + r; need 10 K + r + modifier >= t, and not the fumble (K = 0, r = n)
        need = -((r + modifier - t) // 10)  # smallest K with 10 K >= t - r - modifier
        need = max(0, need)
        tail = 1 - sum((_k_total(n, k) for k in range(need)), Fraction(0))
        if r == n and need == 0:
            tail -= _k_total(n, 0)  # all dice 1 and no chain: the fumble fails
        total += pr * tail
    return total


@cache
def guard_dist(n: int, modifier: int) -> dict[Any, Fraction]:
    """The guard: 'perfect' (a die at 10), 'failed' (all 1s), else the achievement (>= 0)."""
    out: dict[Any, Fraction] = {}
    unit = Fraction(1, 10**n)
    for faces in itertools.product(range(1, 11), repeat=n):
        if 10 in faces:
            key: Any = "perfect"
        elif all(f == 1 for f in faces):
            key = "failed"
        else:
            key = max(0, sum(faces) + modifier)
        out[key] = out.get(key, Fraction(0)) + unit
    return out


def p_kill(dice: int, modifier: int, guard: tuple[int, int] | None, hp: int) -> Fraction:
    """P(one attack's final damage is at least ``hp``)."""
    if guard is None:
        return attack_at_least(dice, modifier, max(1, hp))
    p = Fraction(0)
    for g, w in guard_dist(*guard).items():
        if g == "perfect":
            continue
        if g == "failed":
            p += w * attack_at_least(dice, modifier, max(1, hp))
        elif hp <= 1:
            p += w * attack_at_least(dice, modifier, 1)  # even a defended hit deals 1
        else:
            p += w * attack_at_least(dice, modifier, g + hp)
    return p


def win(data: Mapping[str, Any]) -> Fraction:
    """P(the PC downs the Aragami in the one round: one melee attack each at most)."""
    (pc,) = data["party"]
    (en,) = data["enemies"]
    (atk,) = en["attacks"]
    pc_mod = pc["power"] + pc["abilities"]["strength"]
    en_mod = atk["power"] + en["abilities"]["strength"]
    pc_guard = (SHIELD[pc["shield"]], pc["armor"] + pc["abilities"]["strength"])
    g = en.get("guard")
    en_guard = (SHIELD[g["shield"]], g.get("armor", 0) + en["abilities"]["strength"]) if g else None
    en_st = en["st"]
    pc_first = (pc["ap"], pc["ap"]) >= (en["ap"], en["ap"])  # AP, then max AP, then the PC
    pc_st = pc["st"]
    if not pc_first:
        # the Aragami strikes first; the PC guards if it has ST, which its own blade needs too
        guarded = pc_st >= 1
        pc_st -= 1 if guarded else 0
        survive = 1 - p_kill(DICE[atk["weapon"]], en_mod, pc_guard if guarded else None, pc["hp"])
        en_st -= 1
    else:
        survive = Fraction(1)
    if pc_st < 1 or pc["ap"] < AP_COST[pc["weapon"]]:
        return Fraction(0)
    kill = p_kill(DICE[pc["weapon"]], pc_mod, en_guard if en_st >= 1 else None, en["hp"])
    return survive * kill
