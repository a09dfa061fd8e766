"""穢れ: whole small battles (turn order, attacks, recovery, 穢れ) as a Markov chain.

From the seed (002): positions far/mid/near give -4/-2/0 to the attacks of and against
a PC (ranged attacks ignore them); the order each turn is by initiative, PCs first on
ties; an attack is 2D6 + attack against 2D6 + defence, the damage shifted by the
difference; a tie is 完全防御 (no damage), a defence 10+ higher is 回避 (none), a natural
12 is a critical (no defence roll, damage +12), a natural 2 a fumble (nothing). HP 0 or
less is 戦闘不能; at the turn's end those down may make a recovery check (1D6 HP back), then
加護 raises 穢れ by 2. 穢れ: from 3 a down adds 2; 4+ recovery -3; 5+ every check -1;
7+ initiative 0; 9+ attack and defence halved; 10 down for good.

Rulings and policy followed (the simulator's, documented): damage never below 0
(``min_damage``); of the attacker's and the target's positions the worse counts
(``position_stack: max``); a down adds 1 穢れ below 3; the 穢れ table's effects apply to PCs
only (``corruption_effects: pcs``; with ``all`` to enemies too: an enemy's 穢れ still
rises); the recovery check and the end-of-turn defeat check apply to enemies too; a
recovery check is always made; the PCs' ``focus``: attack the enemy with the least HP
and, with ``close_in``, step one position nearer before attacking; the enemies'
``random``: a PC chosen uniformly among those standing; a skill whose effect names 毒
poisons at level 1 (1D6-2 at the turn's end, before the recovery checks, the fallen
included), cured by a status-recovery check of 2D6 >= 9 (10 - one status) made by those
standing. The battle is won when every enemy is down at a turn's end (after the recovery
checks and the 穢れ rise), lost when every PC is.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

PENALTY = {"far": -4, "mid": -2, "near": 0}
NEARER = {"far": "mid", "mid": "near", "near": "near"}

REFERENCE: tuple[dict[str, Any], ...] = (
    {
        "name": "前衛",
        "hp": 34,
        "attack": 5,
        "defence": 4,
        "initiative": 5,
        "position": "near",
        "damage": 7,
    },
    {
        "name": "射手",
        "hp": 26,
        "attack": 4,
        "defence": 2,
        "initiative": 7,
        "position": "mid",
        "damage": 5,
        "ranged": True,
    },
    {
        "name": "祓い手",
        "hp": 28,
        "attack": 4,
        "defence": 3,
        "initiative": 6,
        "position": "near",
        "damage": 6,
        "blessed": True,
    },
    {
        "name": "斥候",
        "hp": 24,
        "attack": 3,
        "defence": 3,
        "initiative": 9,
        "position": "mid",
        "damage": 5,
    },
)
"""The documented reference party (saikoro/_guide/balance.md), written again here."""


@dataclass(frozen=True)
class Who:
    """A character's fixed data."""

    pc: bool
    attack: int
    defence: int
    initiative: int
    damage: int
    ranged: bool
    blessed: bool
    poison: bool = False
    """Its attack's effect names 毒 (level 1): a hit poisons unless fumbled or evaded."""
    feels: bool = True
    """The 穢れ table's effects apply to it (PCs; enemies only with ``corruption_effects:
    all``: by default an enemy's 穢れ rises but changes nothing)."""

    def felt(self, k: int) -> int:
        """The 穢れ whose effects this character suffers."""
        return k if self.feels else 0


Char = tuple[int, int, str, bool]
"""(HP, 穢れ, position, poisoned) of one character."""
State = tuple[Char, ...]


def _eff(value: int, k: int) -> int:
    return value // 2 if k >= 9 else value


def _pen(k: int) -> int:
    return -1 if k >= 5 else 0


_TWO_D6 = {t: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == t) for t in range(2, 13)}


@cache
def attack(bonus: int, defence: int, damage: int) -> tuple[tuple[tuple[int, bool], int], ...]:
    """(damage, effect lands) of one attack, as weights out of 36 x 36: every pair of 2D6.

    A fumble and an evasion cancel the effect too; 完全防御 cancels only the damage.
    """
    out: dict[tuple[int, bool], int] = {}
    for a, wa in _TWO_D6.items():
        if a in (2, 12):  # fumble: nothing; critical: no defence roll, damage +12
            key = (0, False) if a == 2 else (max(0, damage + 12), True)
            out[key] = out.get(key, 0) + wa * 36
            continue
        for d, wd in _TWO_D6.items():
            diff = (a + bonus) - (d + defence)
            key = (0, diff == 0) if diff == 0 or diff <= -10 else (max(0, damage + diff), True)
            out[key] = out.get(key, 0) + wa * wd
    return tuple(sorted(out.items()))


def _hit(who: Sequence[Who], s: State, i: int, j: int) -> list[tuple[State, int]]:
    a, d = who[i], who[j]
    _, ka, pa, _ = s[i]
    hp_d, kd, pd, poisoned = s[j]
    ka, fd = a.felt(ka), d.felt(kd)
    pos = 0 if a.ranged else min(PENALTY[pa], PENALTY[pd])
    bonus = _eff(a.attack, ka) + pos + _pen(ka)
    defence = _eff(d.defence, fd) + _pen(fd)
    out = []
    for (dmg, lands), p in attack(bonus, defence, a.damage):
        hp2, k2 = hp_d - dmg, kd
        if dmg > 0 and hp_d > 0 and hp2 <= 0:
            k2 += _on_down(fd)
        t = list(s)
        t[j] = (hp2, k2, pd, poisoned or (lands and a.poison))
        out.append((tuple(t), p))
    return out


def _on_down(k: int) -> int:
    return 2 if k >= 3 else 1


def _up(w: Who, c: Char) -> bool:
    return c[0] > 0 and w.felt(c[1]) < 10


def _turn(who: Sequence[Who], s: State, close_in: bool) -> dict[State, int]:
    """One turn from ``s``: integer weights over the common denominator :func:`scale`."""
    n = len(who)
    order = sorted(
        range(n),
        key=lambda i: (-(0 if who[i].felt(s[i][1]) >= 7 else who[i].initiative), not who[i].pc, i),
    )
    branches: dict[State, int] = {s: 1}
    lcm = math.lcm(*range(1, n + 1))
    for i in order:
        nxt: dict[State, int] = {}
        for st, w in branches.items():
            foes = [j for j in range(n) if who[j].pc != who[i].pc and _up(who[j], st[j])]
            if not _up(who[i], st[i]) or not foes:
                nxt[st] = nxt.get(st, 0) + w * 1296 * lcm
                continue
            if who[i].pc:
                if close_in:
                    hp, k, pos, ps = st[i]
                    st = (*st[:i], (hp, k, NEARER[pos], ps), *st[i + 1 :])  # noqa: PLW2901
                targets = [(min(foes, key=lambda j: (st[j][0], j)), lcm)]
            else:
                targets = [(j, lcm // len(foes)) for j in foes]
            for j, q in targets:
                for t, p in _hit(who, st, i, j):
                    nxt[t] = nxt.get(t, 0) + w * q * p
        branches = nxt
    # turn end: 毒 (1D6-2, even on the fallen: the simulator's order), recovery checks,
    # status recovery (2D6 >= 10 - 1 statuses), then the 穢れ rise of the blessed
    for i in range(n):
        nxt = {}
        for st, w in branches.items():
            hp, k, pos, ps = st[i]
            f = who[i].felt(k)
            if not ps or f >= 10:
                nxt[st] = nxt.get(st, 0) + w * 6
                continue
            for face in range(1, 7):
                dmg = max(0, face - 2)
                k2 = k + (_on_down(f) if hp > 0 >= hp - dmg else 0)
                t = (*st[:i], (hp - dmg, k2, pos, ps), *st[i + 1 :])
                nxt[t] = nxt.get(t, 0) + w
        branches = nxt
    for i in range(n):
        nxt = {}
        for st, w in branches.items():
            hp, k, pos, ps = st[i]
            f = who[i].felt(k)
            if hp > 0 or f >= 10:
                nxt[st] = nxt.get(st, 0) + w * 6
                continue
            m = (-3 if f >= 4 else 0) + _pen(f)
            for face in range(1, 7):
                t = (*st[:i], (hp + max(0, face + m), k, pos, ps), *st[i + 1 :])
                nxt[t] = nxt.get(t, 0) + w
        branches = nxt
    for i in range(n):
        nxt = {}
        for st, w in branches.items():
            hp, k, pos, ps = st[i]
            if not ps or hp <= 0:
                nxt[st] = nxt.get(st, 0) + w * 36
                continue
            cured = sum(c for t, c in _TWO_D6.items() if t + _pen(who[i].felt(k)) >= 9)
            t = (*st[:i], (hp, k, pos, False), *st[i + 1 :])
            nxt[t] = nxt.get(t, 0) + w * cured
            nxt[st] = nxt.get(st, 0) + w * (36 - cured)
        branches = nxt
    out: dict[State, int] = {}
    for st, w in branches.items():
        t = tuple(
            (hp, k + (2 if who[i].blessed else 0), pos, ps) for i, (hp, k, pos, ps) in enumerate(st)
        )
        out[t] = out.get(t, 0) + w
    return out


def scale(n: int) -> int:
    """The denominator of one turn's weights for ``n`` characters."""
    return int((1296 * math.lcm(*range(1, n + 1))) ** n * (6 * 6 * 36) ** n)


def win(data: Mapping[str, Any], *, close_in: bool = True) -> Fraction:
    """P(every enemy is down at a turn's end within the turn limit)."""
    party = data.get("party") or [REFERENCE[i % 4] for i in range(data["players"])]
    who: list[Who] = []
    start: list[Char] = []
    for p in party:
        who.append(
            Who(
                True,
                p["attack"],
                p["defence"],
                p["initiative"],
                p.get("damage", 5),
                bool(p.get("ranged", False)),
                bool(p.get("blessed", False)),
            )
        )
        start.append((p["hp"], 0, p.get("position", "near"), False))
    for e in data["enemies"]:
        (skill,) = e["skills"]
        who.append(
            Who(
                False,
                e["attack"],
                e["defence"],
                e["initiative"],
                skill["damage"],
                bool(skill.get("ranged", False)),
                bool(e.get("blessed", False)),
                "毒" in skill.get("effect", ""),
                feels=data.get("rulings", {}).get("corruption_effects", "pcs") == "all",
            )
        )
        start.append((e["hp"], 0, e.get("position", "near"), False))
    turns = data.get("missions", {}).get("main", {}).get("rounds", 20)
    states: dict[State, int] = {tuple(start): 1}
    won = Fraction(0)
    denominator = 1
    step = scale(len(who))
    for _ in range(turns):
        nxt: dict[State, int] = {}
        won_now = 0
        for s, w in states.items():
            for t, p in _turn(who, s, close_in).items():
                if all(not _up(who[i], t[i]) for i in range(len(who)) if not who[i].pc):
                    won_now += w * p
                elif any(_up(who[i], t[i]) for i in range(len(who)) if who[i].pc):
                    nxt[t] = nxt.get(t, 0) + w * p
        denominator *= step
        won += Fraction(won_now, denominator)
        g = math.gcd(*nxt.values(), denominator) if nxt else 1
        states = {t: w // g for t, w in nxt.items()}
        denominator //= g
    return won
