"""カットアクション: a fight of one PC against one enemy in the same row, cut by cut.

From the seed (004): each cut everyone makes an initiative body check, the achievement
is the acting value, highest first; failures act after every success, the least
negative first; a fumble loses the cut; PCs first on ties. An attack is a check (melee:
body) that the target meets with its reaction (防御/回避: a contest it makes even after
acting); a hit is then met by a body resist check whose achievement reduces the damage; a
failed resist leaves 負傷 equal to the damage, which lowers the maximum 体力. At 体力 0 or
less the character is 消耗: every check but recovery fails, so it is out of the fight.

Rulings followed (the seed states no dice; the simulator's documented rulings): a check
is 1D10 rolled under the success value, the achievement = value - roll, success when
it is 0 or more, a roll of 10 (the highest) a fumble; the attack lands when it succeeds
and its achievement beats the reaction's (a fumbled reaction ranks below everything, a
tie is the target's: ``contest_rule``); the reaction's success value is the target's
``reaction``, its body when none is written (``reaction``); a failed resist reduces nothing
(``resist_failure: none``); 体力 never exceeds the maximum after 負傷. ``win`` = the enemy
is down at the end of a cut within the limit (10 by default).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from .common import add

State = tuple[int, int, int, int]
"""(PC 体力, PC 負傷, enemy 体力, enemy 負傷)."""

ROLLS = range(1, 11)


def _lands(value: int, reaction: int) -> Fraction:
    """P(an attack of success value ``value`` beats a reaction of ``reaction``)."""
    hits = 0
    for r in ROLLS:
        if r == 10 or value - r < 0:  # the attack fails: it cannot land
            continue
        for d in ROLLS:
            if d == 10 or value - r > reaction - d:  # a fumbled reaction, or beaten
                hits += 1
    return Fraction(hits, 100)


def _hit(
    value: int, damage: int, body: int, reaction: int, hp: int, *, injury: int, max_hp: int
) -> dict[tuple[int, int], Fraction]:
    """(体力, 負傷) of the target after one attack with success value ``value``."""
    out: dict[tuple[int, int], Fraction] = {}
    lands = _lands(value, reaction)
    add(out, (hp, injury), 1 - lands)
    for q in ROLLS:
        ach = body - q
        if q != 10 and ach >= 0:
            loss, inj = max(0, damage - ach), injury
        else:
            loss, inj = damage, injury + damage
        add(out, (min(hp - loss, max_hp - inj), inj), lands / 10)
    return out


def win(data: Mapping[str, Any]) -> Fraction:
    """P(the PC downs the enemy within the cut limit)."""
    (pc,) = data["party"]
    (en,) = data["enemies"]
    (atk,) = en["attacks"]
    assert pc.get("attack") == "melee" and atk["kind"] == "melee"
    assert pc.get("area", "home") == en.get("area", "enemy")
    cuts = data.get("missions", {}).get("main", {}).get("rounds", 10)
    states: dict[State, Fraction] = {(pc["hp"], 0, en["hp"], 0): Fraction(1)}
    won = Fraction(0)
    for _ in range(cuts):
        nxt: dict[State, Fraction] = {}
        for s, w in states.items():
            for r1 in ROLLS:  # initiative: the PC's, then the enemy's
                for r2 in ROLLS:
                    acting = []
                    for who, body, r in ((0, pc["body"], r1), (1, en["body"], r2)):
                        if r != 10:
                            ach = body - r
                            key = (0, -ach, who) if ach >= 0 else (1, -ach, who)
                            acting.append((key, who))
                    branches: dict[State, Fraction] = {s: w / 100}
                    for _, who in sorted(acting):
                        after: dict[State, Fraction] = {}
                        for (ph, pi, eh, ei), v in branches.items():
                            if ph <= 0 or eh <= 0:
                                add(after, (ph, pi, eh, ei), v)
                            elif who == 0:
                                dist = _hit(
                                    pc["body"],
                                    pc.get("damage", 4),
                                    en["body"],
                                    en.get("reaction", en["body"]),
                                    eh,
                                    injury=ei,
                                    max_hp=en["hp"],
                                )
                                for (h, i), p in dist.items():
                                    add(after, (ph, pi, h, i), v * p)
                            else:
                                dist = _hit(
                                    en["body"],
                                    atk["damage"],
                                    pc["body"],
                                    pc.get("reaction", pc["body"]),
                                    ph,
                                    injury=pi,
                                    max_hp=pc["hp"],
                                )
                                for (h, i), p in dist.items():
                                    add(after, (h, i, eh, ei), v * p)
                        branches = after
                    for t, v in branches.items():
                        if t[2] <= 0:
                            won += v
                        elif t[0] > 0:
                            add(nxt, t, v)
        states = nxt
    return won
