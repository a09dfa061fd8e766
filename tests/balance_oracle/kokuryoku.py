"""国力: the middle-phase checks, then the final phase's gauge battle, as a Markov chain.

From the seed (001): a middle-phase check is one starter's ability + die, then the
other PCs' support checks (any ability + die) added until the target is reached; the
nation gains the full amount on success, half rounded down on failure. In the final
phase national power is the gauge; each round the side with more power goes first; an
attack is the attacker's ability + die (plus its supporters') against the defender's
ability + die (plus its supporters'), ties to the attacker, then damage = the attacker's
attack power + die - (the defender's defence power + die); a declined reaction makes the
defence 0; a gauge at 0 loses at once.

Rulings and policy followed (the simulator's, documented on the rulings page and in
the author guide's balance page): 1D10 unless ``rulings: die``; damage never below 0
(``damage_floor``); equal power: the PCs first (``equal_power``: ``npc`` the enemies,
``dice`` each side 1/2); a
character's checks use its highest ability; ``nation_values`` (default ``alone``): a
nation's ``attack``/``defence`` are used only by a side without characters, whose nation
then acts as one character with abilities 0 — ``add`` adds them to every character's
instead (the reading before the ruling); a party without a nation gets the reference
nation 我が国 (power 50, 2/2); every character acts once a round: with the ``guard`` tactic
(the default ``focus``) each side keeps half its characters (rounded down, best defence
first) to defend, the others attack in order of attack power; attack i meets defender i,
attacks beyond the defenders go unopposed, and defenders beyond the attacks add their
checks to the defence checks (the first spare one to the first attack, and so on); the
middle-phase starter is the PC best at the target's ability, the supporters the rest.
The battle ends as ``win`` (the enemy gauge at 0), ``fallen`` (the PCs' gauge at 0) or
``timeout`` (the round limit: the main mission's ``rounds``, 3 by default).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache
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

Unit = tuple[int, int, int]
"""(best ability, attack power, defence power)."""

Reaction = tuple[tuple[int, ...], int] | None
"""The defence check's abilities (defender first, then supporters) and defence power."""


def _best(c: Mapping[str, Any]) -> int:
    return max(c.get("abilities", {}).values(), default=0)


def _side(
    members: Sequence[Mapping[str, Any]], nation_values: str
) -> tuple[int, list[Unit], list[Unit]]:
    """(gauge, attackers, defenders) of one side."""
    nation = next(m for m in members if m.get("kind") == "nation")
    na, nd = nation.get("attack", 0), nation.get("defence", 0)
    chars = [m for m in members if m.get("kind", "character") == "character"]
    if chars:
        bonus = (na, nd) if nation_values == "add" else (0, 0)
        units = [
            (_best(c), c.get("attack", 0) + bonus[0], c.get("defence", 0) + bonus[1]) for c in chars
        ]
    else:
        units = [(0, na, nd)]  # the nation acting alone
    keep = len(units) // 2
    by_def = sorted(range(len(units)), key=lambda i: (-units[i][2], -units[i][0], i))
    defenders = by_def[:keep]
    attackers = sorted(
        (i for i in range(len(units)) if i not in defenders),
        key=lambda i: (-units[i][1], -units[i][0]),
    )
    return nation["power"], [units[i] for i in attackers], [units[i] for i in defenders]


def _reactions(attacks: int, defenders: Sequence[Unit]) -> list[Reaction]:
    """The reaction meeting each attack of a round."""
    met = min(attacks, len(defenders))
    helpers: list[list[int]] = [[] for _ in range(met)]
    for k, spare in enumerate(defenders[met:]):
        if met:
            helpers[k % met].append(spare[0])
    out: list[Reaction] = []
    for i in range(attacks):
        if i < met:
            out.append(((defenders[i][0], *helpers[i]), defenders[i][2]))
        else:
            out.append(None)
    return out


def _group(abilities: Sequence[int], die: int) -> Dist:
    """The sum of every listed character's ability + 1D(die)."""
    total: Dist = {0: Fraction(1)}
    for a in abilities:
        nxt: Dist = {}
        for s, p in total.items():
            for r, q in dice_sum(1, die):
                add(nxt, s + a + r, p * q)
        total = nxt
    return total


def attack_damage(atk: Unit, reaction: Reaction, die: int) -> Dist:
    """The damage of one attack, by enumerating the checks and the two damage dice."""
    base = dice_sum(1, die)
    out: Dist = {}
    if reaction is None:
        for r, p in base:
            add(out, max(0, atk[1] + r), p)
        return out
    guards, power = reaction
    for c, pc in base:  # attack check (no support on attack)
        for g, pg in _group(guards, die).items():  # defence check with its supporters
            if g > atk[0] + c:
                add(out, 0, pc * pg)
                continue
            for h, ph in base:  # damage roll
                for d, pd in base:  # defence roll
                    add(out, max(0, atk[1] + h - power - d), pc * pg * ph * pd)
    return out


def middle(chars: Sequence[Mapping[str, Any]], t: Mapping[str, Any], die: int) -> Fraction:
    """P(a middle-phase check reaches its target): starter, then every supporter."""
    ability = t.get("ability")

    def score(c: Mapping[str, Any]) -> int:
        return int(c["abilities"].get(ability, 0)) if ability else _best(c)

    order = sorted(range(len(chars)), key=lambda i: -score(chars[i]))
    mods = [score(chars[order[0]])] + [_best(chars[i]) for i in order[1:]]
    sums = _group(mods, die)  # the total only grows: reaching it = the full sum reaching it
    return sum((p for s, p in sums.items() if s >= t["target"]), Fraction(0))


@cache
def _ends(key: str) -> dict[str, Fraction]:
    data = json.loads(key)
    rulings = data.get("rulings", {})
    die = int(rulings.get("die", 10))
    values = rulings.get("nation_values", "alone")
    tie = rulings.get("equal_power", "pc")
    party = data.get("party") or [NATION, *(REFERENCE[i % 4] for i in range(data["players"]))]
    if not any(m.get("kind") == "nation" for m in party):
        party = [NATION, *party]
    power, pc_atk, pc_def = _side(party, values)
    epower, en_atk, en_def = _side(data["enemies"], values)
    chars = [m for m in party if m.get("kind", "character") == "character"]
    start: Dist = {power: Fraction(1)}
    for t in data.get("difficulty_targets", []):
        if not chars:
            break
        p = middle(chars, t, die)
        nxt: Dist = {}
        for k, w in start.items():
            add(nxt, k + t["gain"], w * p)
            add(nxt, k + t["gain"] // 2, w * (1 - p))
        start = nxt
    pc_reactions = _reactions(len(pc_atk), en_def)
    en_reactions = _reactions(len(en_atk), pc_def)
    mine = [attack_damage(a, r, die) for a, r in zip(pc_atk, pc_reactions, strict=True)]
    theirs = [attack_damage(a, r, die) for a, r in zip(en_atk, en_reactions, strict=True)]
    rounds = data.get("missions", {}).get("main", {}).get("rounds", 3)
    alive: dict[tuple[int, int], Fraction] = {(k, epower): w for k, w in start.items()}
    ends = {"win": Fraction(0), "fallen": Fraction(0), "timeout": Fraction(0)}
    for _ in range(rounds):
        nxt2: dict[tuple[int, int], Fraction] = {}
        for (m, e), w in alive.items():
            pc_steps = [(True, d) for d in mine]
            npc_steps = [(False, d) for d in theirs]
            if m > e:
                orders = [(Fraction(1), pc_steps + npc_steps)]
            elif m < e:
                orders = [(Fraction(1), npc_steps + pc_steps)]
            elif tie == "dice":  # both roll, the higher first, equal rolls again: 1/2 each
                half = Fraction(1, 2)
                orders = [(half, pc_steps + npc_steps), (half, npc_steps + pc_steps)]
            elif tie == "npc":
                orders = [(Fraction(1), npc_steps + pc_steps)]
            else:
                orders = [(Fraction(1), pc_steps + npc_steps)]
            for q, steps in orders:
                states = {(m, e): w * q}
                for ours, dist in steps:
                    after: dict[tuple[int, int], Fraction] = {}
                    for (m1, e1), w1 in states.items():
                        for dmg, p in dist.items():
                            m2, e2 = (m1, e1 - dmg) if ours else (m1 - dmg, e1)
                            if e2 <= 0:
                                ends["win"] += w1 * p
                            elif m2 <= 0:
                                ends["fallen"] += w1 * p
                            else:
                                add(after, (m2, e2), w1 * p)
                    states = after
                for pair, w1 in states.items():
                    add(nxt2, pair, w1)
        alive = nxt2
    ends["timeout"] = sum(alive.values(), Fraction(0))
    return ends


def ends(data: Mapping[str, Any]) -> dict[str, Fraction]:
    """P(each end): ``win``, ``fallen`` (the PCs' gauge at 0), ``timeout``; solved once per
    scenario per test session."""
    return dict(_ends(json.dumps(data, sort_keys=True, ensure_ascii=False)))


def win(data: Mapping[str, Any]) -> Fraction:
    """P(the enemy nation's gauge reaches 0 within the round limit)."""
    return ends(data)["win"]
