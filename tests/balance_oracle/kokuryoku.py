"""国力: the middle-phase checks, then the final phase's gauge battle, as a Markov chain.

From the seed (001): a middle-phase check is one starter's ability + die, then the
other PCs' support checks (any ability + die) added until the target is reached; the
nation gains the full amount on success, half rounded down on failure. In the final
phase national power is the gauge; each round the side with more power goes first; an
attack is ability + die against the defender's ability + die (ties to the attacker),
then damage = attack power + die - (defence power + die); a declined reaction makes
the defence 0; a gauge at 0 loses.

Rulings and policy followed (the simulator's, documented on the rulings page and in
its module): 1D10 unless ``rulings: die``; damage never below 0 (``damage_floor``); equal
power: the PCs first; a character's checks use its highest ability; a nation's
``attack``/``defence`` add to its characters'; every character acts once a round: with
the ``guard`` tactic (the default ``focus``) each side keeps half its characters
(rounded down, best defence first) to defend, the others attack in order of attack
power; attack i meets defender i, and attacks beyond the defenders go unopposed; the
middle-phase starter is the PC best at the target's ability, the supporters the rest; a
side without characters is its nation acting alone (abilities 0, its own attack).
``win`` = the enemy gauge reaches 0 within the round limit (3 by default).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from .common import Dist, add, dice_sum

REFERENCE: tuple[dict[str, Any], ...] = (
    {
        "name": "将軍",
        "abilities": {"charisma": 2, "force": 4, "luck": 1, "perception": 2},
        "attack": 5,
        "defence": 3,
        "love": 12,
    },
    {
        "name": "宰相",
        "abilities": {"charisma": 4, "force": 1, "luck": 2, "perception": 3},
        "attack": 2,
        "defence": 5,
        "love": 10,
    },
    {
        "name": "密偵",
        "abilities": {"charisma": 1, "force": 2, "luck": 3, "perception": 4},
        "attack": 3,
        "defence": 3,
        "love": 10,
    },
    {
        "name": "豪商",
        "abilities": {"charisma": 3, "force": 1, "luck": 4, "perception": 2},
        "attack": 2,
        "defence": 4,
        "love": 10,
    },
)
"""The documented reference characters; the nation 我が国 (power 50, 2/2) always joins."""

NATION: dict[str, Any] = {
    "name": "我が国",
    "kind": "nation",
    "power": 50,
    "attack": 2,
    "defence": 2,
}

Unit = tuple[int, int]
"""(best ability, attack or defence power with the nation's)."""


def _best(c: Mapping[str, Any]) -> int:
    return max(c.get("abilities", {}).values(), default=0)


def _side(members: Sequence[Mapping[str, Any]]) -> tuple[int, list[Unit], list[Unit]]:
    nation = next(m for m in members if m.get("kind") == "nation")
    chars = [m for m in members if m.get("kind", "character") == "character"]
    chars = chars or [{"abilities": {}, "attack": 0, "defence": 0}]  # the nation alone
    keep = len(chars) // 2
    by_def = sorted(
        range(len(chars)), key=lambda i: (-chars[i].get("defence", 0), -_best(chars[i]))
    )
    defenders = by_def[:keep]
    attackers = sorted(
        (i for i in range(len(chars)) if i not in defenders),
        key=lambda i: (-chars[i].get("attack", 0), -_best(chars[i])),
    )
    na, nd = nation.get("attack", 0), nation.get("defence", 0)
    return (
        nation["power"],
        [(_best(chars[i]), chars[i].get("attack", 0) + na) for i in attackers],
        [(_best(chars[i]), chars[i].get("defence", 0) + nd) for i in defenders],
    )


def attack_damage(atk: Unit, dfn: Unit | None, die: int, count: int = 1) -> Dist:
    """The damage of one attack, by enumerating every die of the four rolls."""
    base = dice_sum(count, die)
    out: Dist = {}
    if dfn is None:
        for r, p in base:
            add(out, max(0, atk[1] + r), p)
        return out
    for c, pc in base:  # attack check
        for g, pg in base:  # defence check
            if dfn[0] + g > atk[0] + c:
                add(out, 0, pc * pg)
                continue
            for h, ph in base:  # damage roll
                for d, pd in base:  # defence roll
                    add(out, max(0, atk[1] + h - dfn[1] - d), pc * pg * ph * pd)
    return out


def middle(chars: Sequence[Mapping[str, Any]], t: Mapping[str, Any], die: int) -> Fraction:
    """P(a middle-phase check reaches its target): starter, then every supporter."""
    ability = t.get("ability")

    def score(c: Mapping[str, Any]) -> int:
        return int(c["abilities"].get(ability, 0)) if ability else _best(c)

    order = sorted(range(len(chars)), key=lambda i: -score(chars[i]))
    mods = [score(chars[order[0]])] + [_best(chars[i]) for i in order[1:]]
    sums: Dist = {0: Fraction(1)}
    for m in mods:  # the total only grows, so reaching the target = the full sum reaches it
        nxt: Dist = {}
        for s, p in sums.items():
            for r, q in dice_sum(1, die):
                add(nxt, s + m + r, p * q)
        sums = nxt
    return sum((p for s, p in sums.items() if s >= t["target"]), Fraction(0))


def win(data: Mapping[str, Any]) -> Fraction:
    """P(the enemy nation's gauge reaches 0 within the round limit)."""
    die = int(data.get("rulings", {}).get("die", 10))
    party = data.get("party") or [NATION, *(REFERENCE[i % 4] for i in range(data["players"]))]
    power, pc_atk, pc_def = _side(party)
    epower, en_atk, en_def = _side(data["enemies"])
    chars = [m for m in party if m.get("kind", "character") == "character"]
    start: Dist = {power: Fraction(1)}
    for t in data.get("difficulty_targets", []):
        p = middle(chars, t, die)
        nxt: Dist = {}
        for k, w in start.items():
            add(nxt, k + t["gain"], w * p)
            add(nxt, k + t["gain"] // 2, w * (1 - p))
        start = nxt
    mine = [attack_damage(a, pc_def_or(en_def, i), die) for i, a in enumerate(pc_atk)]
    theirs = [attack_damage(a, pc_def_or(pc_def, i), die) for i, a in enumerate(en_atk)]
    rounds = data.get("missions", {}).get("main", {}).get("rounds", 3)
    alive: dict[tuple[int, int], Fraction] = {(k, epower): w for k, w in start.items()}
    won = Fraction(0)
    for _ in range(rounds):
        nxt2: dict[tuple[int, int], Fraction] = {}
        for (m, e), w in alive.items():
            steps = [(True, d) for d in mine] + [(False, d) for d in theirs]
            if e > m:
                steps = steps[len(mine) :] + steps[: len(mine)]
            states = {(m, e): w}
            for ours, dist in steps:
                after: dict[tuple[int, int], Fraction] = {}
                for (m1, e1), w1 in states.items():
                    for dmg, p in dist.items():
                        m2, e2 = (m1, e1 - dmg) if ours else (m1 - dmg, e1)
                        if e2 <= 0:
                            won += w1 * p
                        elif m2 > 0:
                            add(after, (m2, e2), w1 * p)
                states = after
            for key, w1 in states.items():
                add(nxt2, key, w1)
        alive = nxt2
    return won


def pc_def_or(defenders: Sequence[Unit], i: int) -> Unit | None:
    """The defender that meets the i-th attack of a round (none beyond the defenders)."""
    return defenders[i] if i < len(defenders) else None
