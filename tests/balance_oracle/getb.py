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

Rulings and tactics followed (documented on the rulings page and in the guide,
plugin/saikoro/site/_guide/balance.md): a fumbled damage check and an achievement of 0 or less fail;
a fumbled guard counts as failed (the whole achievement gets through); a guard achievement
is never below 0; without a guard the achievement is the damage; HP 0 or less is down and
the battle ends at once (``battle_end: immediate``); the equal-AP tie goes to the higher
maximum AP, then the PC (``ap_tie``, other options read from ``rulings``); an enemy's
``skill`` attack costs ST1 + AP3. A character attacks on its turn when it can pay, else
gives up (AP 0). The target guards (ST1) when it has a shield and ST, unless it could
still attack this round (ST and AP for its attack) and guarding would leave it too little
ST for that attack.

A gun (the PC's ``gun_power``: 1 die + gun power + intellect, OP1 AP1) and an enemy's
shooting attack (its dice + power + intellect, OP1 AP1, no OP when the enemy has none)
also reach the next cell. A character makes its strongest payable attack (the expected
faces plus the fixed part), so a buster beats a gun. A PC that shoots holds its gun and
cannot guard until it takes its blade again (guard only with a melee weapon equipped;
``guard_weapon: any`` lifts that); an enemy with a guard always may.

Both stand within each other's reach (the PC starts next to the enemy), so within a round
the order of attacks and guards depends only on AP, ST and OP, the same every round as
long as no melee hit recovers OP that is not full (checked: such a case is refused);
HP decides only when the fight ends.
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


def _attack(
    dice: int, modifier: int, *, st: int, op: int, ap: int, gun: bool = False
) -> dict[str, Any]:
    # the strength an attacker ranks its attacks by: the expected faces of chained d10s
    # (55/9 a die) plus the fixed part; the cases keep their attacks far apart
    return {
        "dice": dice,
        "modifier": modifier,
        "st": st,
        "op": op,
        "ap": ap,
        "gun": gun,
        "melee": op == 0 and not gun and st >= 1,
        "rank": Fraction(55, 9) * dice + modifier,
    }


def _pc(who: Mapping[str, Any]) -> dict[str, Any]:
    a = who["abilities"]
    weapon = who.get("weapon", "long-blade")
    attacks = [
        _attack(DICE[weapon], who.get("power", 5) + a["strength"], st=1, op=0, ap=AP_COST[weapon])
    ]
    if who.get("gun_power") is not None:  # one plain bullet: 1 die, OP1 AP1, intellect
        attacks.append(_attack(1, who["gun_power"] + a["intellect"], st=0, op=1, ap=1, gun=True))
    shield = SHIELD[who.get("shield", "buckler")]
    return {
        "pc": True,
        "hp": who["hp"],
        "ap": who["ap"],
        "st": who["st"],
        "op": who.get("op", 0),
        "max_op": who.get("op", 0),
        "attacks": attacks,
        "guard": (shield, who.get("armor", 0) + a["strength"]),
    }


def _enemy(who: Mapping[str, Any]) -> dict[str, Any]:
    a = who["abilities"]
    attacks = []
    for atk in who["attacks"]:
        weapon = atk["weapon"]
        if weapon == "shooting":  # OP1 AP1 (no OP paid when the enemy has none), intellect
            op = 1 if who.get("op") is not None else 0
            attacks.append(
                _attack(atk.get("dice") or 1, atk["power"] + a["intellect"], st=0, op=op, ap=1)
            )
        else:  # blades, and skills as ST1 AP3
            dice = atk.get("dice") or DICE.get(weapon, 1)
            attacks.append(
                _attack(dice, atk["power"] + a["strength"], st=1, op=0, ap=AP_COST[weapon])
            )
    g = who.get("guard")
    return {
        "pc": False,
        "hp": who["hp"],
        "ap": who["ap"],
        "st": who["st"],
        "op": who.get("op") or 0,
        "max_op": who.get("op") or 0,
        "attacks": attacks,
        "guard": (SHIELD[g["shield"]], g.get("armor", 0) + a["strength"]) if g else None,
    }


def _schedule(
    pc: dict[str, Any], en: dict[str, Any], tie: str, any_weapon: bool
) -> list[tuple[int, int, bool]]:
    """One round's attacks in order: (attacker 0 = PC / 1 = enemy, its attack, whether the
    target guards). Both start the round with full AP and ST; OP carries over (``op``)."""
    sides = [pc, en]
    ap = [pc["ap"], en["ap"]]
    st = [pc["st"], en["st"]]
    op = [pc["op"], en["op"]]
    gun = [False, False]  # the PC holds its melee weapon until it shoots

    def payable(k: int, st_k: int) -> list[int]:
        return [
            j
            for j, x in enumerate(sides[k]["attacks"])
            if st_k >= x["st"] and op[k] >= x["op"] and ap[k] >= x["ap"]
        ]

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
        can = payable(k, st[k])
        if not can:
            ap[k] = 0  # gives up
            continue
        j = max(can, key=lambda j: sides[k]["attacks"][j]["rank"])
        x = sides[k]["attacks"][j]
        shoots = any(y["op"] for y in sides[k]["attacks"])
        # a melee hit recovers OP (damage / 10): only where it cannot change what follows
        assert not (x["melee"] and shoots and op[k] < sides[k]["max_op"]), "beyond the oracle"
        st[k] -= x["st"]
        op[k] -= x["op"]
        ap[k] = max(0, ap[k] - x["ap"])
        gun[k] = x["gun"]
        t = 1 - k
        keeps = not payable(t, st[t]) or bool(payable(t, st[t] - 1))
        armed = any_weapon or not gun[t]
        guards = sides[t]["guard"] is not None and st[t] >= 1 and keeps and armed
        st[t] -= guards
        events.append((k, j, guards))
    pc["op"], en["op"] = op
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
    pc, en = _pc(pc_data), _enemy(en_data)
    rounds = data.get("missions", {}).get("main", {}).get("rounds") or 10
    rulings = data.get("rulings", {})
    tie = rulings.get("ap_tie", "max_ap")
    any_weapon = rulings.get("guard_weapon", "melee") == "any"
    schedules = [_schedule(pc, en, tie, any_weapon) for _ in range(rounds)]
    # (PC HP, enemy HP) -> probability, among fights still going
    states: dict[tuple[int, int], Fraction] = {(pc["hp"], en["hp"]): Fraction(1)}
    won = Fraction(0)
    for events in schedules:
        for attacker, j, guarded in events:
            nxt: dict[tuple[int, int], Fraction] = {}
            a, t = (pc, en) if attacker == 0 else (en, pc)
            x = a["attacks"][j]
            guard = t["guard"] if guarded else None
            for (hp_pc, hp_en), p in states.items():
                hp = hp_en if attacker == 0 else hp_pc
                for d, q in _damage(x["dice"], x["modifier"], guard, hp).items():
                    left = hp - d
                    if left <= 0:
                        won += p * q if attacker == 0 else 0  # else: the PC is down
                        continue
                    key = (hp_pc, left) if attacker == 0 else (left, hp_en)
                    nxt[key] = nxt.get(key, Fraction(0)) + p * q
            states = nxt
    return won
