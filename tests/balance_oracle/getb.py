"""GETB: a fight of one PC against one Aragami, solved in closed form.

From the seed (000): a damage check rolls the weapon's d10s (short 2, long 3, buster 4);
each die at the critical value 10 adds a die, and so on; all dice at the fumble value 1
is a fumble; the achievement is the faces + weapon power + strength. A guard (ST 1, a
shield's d10s: buckler 2, shield 3, tower 4) adds armour + strength. Final damage: the
difference when the attack wins, 1 when the guard does, 0 on a critical guard. Costs:
blades ST1 and AP 2/3/4. Each round every character recovers AP and ST by its maximum
(never above it: so both are full at every round start); the one with the most AP takes
the next turn, until everyone is at 0 AP.

An exploding d10 is 10 K + R with K ~ geometric (P(K = k) = 9/10 (1/10)^k) and R uniform
on 1..9, so a sum of n of them is 10 (negative-binomial) + (finite) and every tail
probability is a finite sum: the oracle is exact, with no truncation.

Rulings and tactics followed (documented on the rulings page and in
docs/authoring/balance.md): a fumbled damage check and an achievement of 0 or less fail;
a fumbled guard counts as failed (the whole achievement gets through); a guard achievement
is never below 0; without a guard the achievement is the damage; HP 0 or less is down and
the battle ends at once (``battle_end: immediate``); the equal-AP tie goes to the higher
maximum AP, then the PC (``ap_tie``, other options read from ``rulings``); an enemy's
``skill`` attack costs ST1 + AP3. A character attacks on its turn when it can pay, else
gives up (AP 0). The target guards (ST1) when it has a shield and ST, unless it could
still attack this round (ST and AP for its attack) and guarding would leave it too little
ST for that attack.

Both stand within each other's reach (blades, range 0-1: the PC starts next to the
enemy), so within a round the order of attacks and guards depends only on AP and ST, the
same every round; HP decides only when the fight ends.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

DICE = {"short-blade": 2, "long-blade": 3, "buster-blade": 4}
SHIELD = {"buckler": 2, "shield": 3, "tower": 4}
AP_COST = {"short-blade": 2, "long-blade": 3, "buster-blade": 4, "skill": 3}


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


@cache
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


def _side(who: Mapping[str, Any], attack: Mapping[str, Any], pc: bool) -> dict[str, Any]:
    weapon = attack["weapon"]
    dice = attack.get("dice") or DICE.get(weapon, 1)
    g = (
        who.get("guard")
        if not pc
        else {"shield": who.get("shield", "buckler"), "armor": who.get("armor", 0)}
    )
    strength = who["abilities"]["strength"]
    return {
        "pc": pc,
        "hp": who["hp"],
        "ap": who["ap"],
        "st": who["st"],
        "cost": AP_COST[weapon],
        "dice": dice,
        "modifier": attack["power"] + strength,
        "guard": (SHIELD[g["shield"]], g.get("armor", 0) + strength) if g else None,
    }


def _schedule(pc: dict[str, Any], en: dict[str, Any], tie: str) -> list[tuple[int, bool]]:
    """One round's attacks in order: (attacker 0 = PC / 1 = enemy, whether the target guards)."""
    sides = [pc, en]
    ap = [pc["ap"], en["ap"]]
    st = [pc["st"], en["st"]]

    def can_attack(k: int, st_k: int) -> bool:
        return st_k >= 1 and ap[k] >= sides[k]["cost"]

    def order(k: int) -> tuple[int, ...]:
        s = sides[k]
        keys = {
            "max_ap": (-s["ap"], 0 if s["pc"] else 1),
            "pc_first": (0 if s["pc"] else 1, -s["ap"]),
            "enemy_first": (1 if s["pc"] else 0, -s["ap"]),
        }
        return (-ap[k], *keys[tie])

    events = []
    while any(a > 0 for a in ap):
        k = min((j for j in (0, 1) if ap[j] > 0), key=order)
        if not can_attack(k, st[k]):
            ap[k] = 0  # gives up
            continue
        st[k] -= 1
        ap[k] = max(0, ap[k] - sides[k]["cost"])
        t = 1 - k
        keeps = not can_attack(t, st[t]) or can_attack(t, st[t] - 1)
        guards = sides[t]["guard"] is not None and st[t] >= 1 and keeps
        st[t] -= guards
        events.append((k, guards))
    return events


def _damage(
    dice: int, modifier: int, guard: tuple[int, int] | None, cap: int
) -> dict[int, Fraction]:
    """P(final damage = d) for d < cap, and P(final damage >= cap) at ``cap``."""
    tails = [p_kill(dice, modifier, guard, t) for t in range(1, cap + 1)]
    out = {0: 1 - tails[0]}
    for d in range(1, cap):
        out[d] = tails[d - 1] - tails[d]
    out[cap] = tails[cap - 1]
    return out


_CACHE: dict[str, Fraction] = {}


def win(data: Mapping[str, Any]) -> Fraction:
    """P(the PC downs the Aragami within the round limit); computed once per case."""
    key = json.dumps(data, sort_keys=True, ensure_ascii=False)
    if key not in _CACHE:
        _CACHE[key] = _win(data)
    return _CACHE[key]


def _win(data: Mapping[str, Any]) -> Fraction:
    (pc_data,) = data["party"]
    (en_data,) = data["enemies"]
    (atk,) = en_data["attacks"]
    blade = {"weapon": pc_data["weapon"], "power": pc_data["power"]}
    pc = _side(pc_data, blade, True)
    en = _side(en_data, atk, False)
    rounds = data.get("missions", {}).get("main", {}).get("rounds") or 10
    tie = data.get("rulings", {}).get("ap_tie", "max_ap")
    events = _schedule(pc, en, tie)
    # (PC HP, enemy HP) -> probability, among fights still going
    states: dict[tuple[int, int], Fraction] = {(pc["hp"], en["hp"]): Fraction(1)}
    won = Fraction(0)
    for _ in range(rounds):
        for attacker, guarded in events:
            nxt: dict[tuple[int, int], Fraction] = {}
            a, t = (pc, en) if attacker == 0 else (en, pc)
            guard = t["guard"] if guarded else None
            for (hp_pc, hp_en), p in states.items():
                hp = hp_en if attacker == 0 else hp_pc
                for d, q in _damage(a["dice"], a["modifier"], guard, hp).items():
                    left = hp - d
                    if left <= 0:
                        won += p * q if attacker == 0 else 0  # else: the PC is down
                        continue
                    key = (hp_pc, left) if attacker == 0 else (left, hp_en)
                    nxt[key] = nxt.get(key, Fraction(0)) + p * q
            states = nxt
    return won
