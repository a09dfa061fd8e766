"""穢れ: whole small battles (turn order, attacks, statuses, recovery, 穢れ) as a Markov chain.

From the seed (002): positions far/mid/near give -4/-2/0 to the attacks of and against
a PC (ranged attacks ignore them); the order each turn is by initiative (paralysis halves
it, rounded down; 穢れ 7+ makes it 0), PCs first on ties; an attack is 2D6 + attack against
2D6 + defence, the damage shifted by the difference; a tie is 完全防御 (no damage, the other
effects still land), a defence 10+ higher is 回避 (neither), an attack 10+ higher is 粉砕
(the defence skill is cancelled), a natural 12 is a critical (no defence roll, damage +12),
a natural 2 a fumble (nothing). An area attack is one attack roll against every opponent's
own defence roll. HP 0 or less is 戦闘不能, and a downed character takes no skill's
effects. At the turn's end: 毒 ((LV)D6-2), the recovery check of those down (1D6 HP back;
curse -2), the status-recovery check (2D6 against 10 - statuses: one cured), then 加護
raises 穢れ by 2. 穢れ: from 3 a down adds 2; 4+ recovery -3; 5+ every check -1; 6+ the
random status table; 7+ initiative 0; 9+ attack and defence halved; 10 down for good.

Rulings and tactics followed (the documented ones, written again here, not imported):
damage never below 0 (``min_damage``); of the attacker's and the target's positions the
worse counts; a down adds 1 穢れ below 3; the 穢れ table's effects apply to PCs only
(``corruption_effects: pcs``; ``all``: to enemies too, while an enemy's 穢れ rises either
way); the random status table (``random_status: uniform``) gives one of the seven statuses
alike (毒 LV1; nothing if immune or already had); a defence skill ``ダメージ-N`` takes N off
the damage of every attack it meets unless 粉砕, a critical or 混乱; an always-on skill
``ダメージ-N`` takes N off every damage the character takes, poison included; damage is
dealt before the effects, so a hit that downs its target gives it no status
(``downing_hit_effects: apply``: it does, and the choice of skill counts it); statuses
named in an attack's effect (``毒(LV2)``: poison level 2, else 1) land unless the target is
immune; poison ticks on the fallen too; the recovery check is made by every character down
(enemies too) and the status-recovery check by every character with a status, down or not
(``status_check_down: yes``; ``no``: standing only), curing 毒, 麻痺, 混乱, 呪い, 魅了, 脱力,
自失 in that order of preference. The PCs' ``focus``: attack the enemy with the least HP and,
with ``close_in``, step one position nearer first; the enemies' ``random``: a PC chosen
alike among those standing, then the attack skill with the most expected damage to the
party: the damage each target of the skill (the chosen PC, or every PC standing for an
area attack) expects to take, plus, for poison, the chance the effect lands on a target
it leaves standing times the rise of the expected poison tick times the ticks expected
before a status-recovery check cures it within the turns left (ties: the skill listed
first); an enemy without an attack skill passes. The battle is won when every enemy of
``defeat`` (default: all) is down at a turn's end (after the recovery checks and the 穢れ
rise), lost when every PC is.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

PENALTY = {"far": -4, "mid": -2, "near": 0}
NEARER = {"far": "mid", "mid": "near", "near": "near"}
STATUS_WORDS = {
    "毒": "poison",
    "麻痺": "paralysis",
    "脱力": "weakness",
    "自失": "daze",
    "混乱": "confusion",
    "魅了": "charm",
    "呪い": "curse",
}
GONE = -(10**9)
"""The HP of a character down for the rest of the battle (:meth:`Chain.settle`)."""
TABLE = ("poison", "paralysis", "weakness", "daze", "confusion", "charm", "curse")
CURE = ("poison", "paralysis", "confusion", "curse", "charm", "weakness", "daze")

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
"""The documented reference party (saikoro/site/_guide/balance.md), written again here."""


@dataclass(frozen=True)
class Attack:
    """One attack skill: damage, ranged, area, the statuses it names (poison's level)."""

    name: str
    damage: int
    ranged: bool = False
    area: bool = False
    poison: int = 0
    others: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Who:
    """A character's fixed data."""

    pc: bool
    attack: int
    defence: int
    initiative: int
    blessed: bool
    attacks: tuple[Attack, ...]
    guard: int = 0
    cut: int = 0
    immune: frozenset[str] = frozenset()
    feels: bool = True
    """The 穢れ table's effects apply to it (PCs; enemies only with ``all``)."""
    defeat: bool = True
    """An enemy whose defeat the main mission needs."""

    def felt(self, k: int) -> int:
        return k if self.feels else 0


Char = tuple[int, int, str, int, frozenset[str]]
"""(HP, 穢れ, position, poison level, other statuses) of one character."""
State = tuple[Char, ...]
Dist = dict[State, int]


def _eff(value: int, k: int) -> int:
    return value // 2 if k >= 9 else value


def _pen(k: int) -> int:
    return -1 if k >= 5 else 0


def _on_down(k: int) -> int:
    return 2 if k >= 3 else 1


_TWO_D6 = {t: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == t) for t in range(2, 13)}


def _outcome(a: int, d: int | None, values: tuple[int, int, int, int]) -> tuple[int, bool]:
    """(damage, effects land) for the attack dice ``a`` and defence dice ``d``; ``values``:
    the attack bonus, the defence value, the skill's damage and the defence skill's cut."""
    bonus, defence, damage, guard = values
    if a == 2:
        return 0, False
    if a == 12:
        return max(0, damage + 12), True
    assert d is not None
    diff = (a + bonus) - (d + defence)
    if diff == 0:
        return 0, True
    if diff <= -10:
        return 0, False
    if diff >= 10:
        return max(0, damage + diff), True
    return max(0, damage + diff - guard), True


def _cut(dmg: int, cut: int) -> int:
    return max(0, dmg - cut) if dmg > 0 and cut else dmg


def _bonuses(who: list[Who], s: State, i: int, j: int, skill: Attack) -> tuple[int, int, int]:
    a, d = who[i], who[j]
    ka, pa = a.felt(s[i][1]), s[i][2]
    kd, pd = d.felt(s[j][1]), s[j][2]
    pos = 0 if skill.ranged else min(PENALTY[pa], PENALTY[pd])
    bonus = _eff(a.attack, ka) + pos + _pen(ka)
    defence = _eff(d.defence, kd) + _pen(kd)
    guard = d.guard if "confusion" not in s[j][4] else 0
    return bonus, defence, guard


@cache
def _single(
    bonus: int, defence: int, damage: int, guard: int, cut: int
) -> dict[tuple[int, bool], int]:
    """(damage taken, effects land) of one attack against one target, weights out of 1296."""
    out: dict[tuple[int, bool], int] = {}
    for a, wa in _TWO_D6.items():
        rolls = [(None, 36)] if a in (2, 12) else list(_TWO_D6.items())
        for d, wd in rolls:
            dmg, lands = _outcome(a, d, (bonus, defence, damage, guard))
            key = (_cut(dmg, cut), lands)
            out[key] = out.get(key, 0) + wa * wd
    return out


@cache
def _given_roll(
    a: int, bonus: int, defence: int, damage: int, *, guard: int, cut: int
) -> dict[tuple[int, bool], int]:
    """The same for a known attack roll ``a``, weights out of 36."""
    out: dict[tuple[int, bool], int] = {}
    rolls = [(None, 36)] if a in (2, 12) else list(_TWO_D6.items())
    for d, wd in rolls:
        dmg, lands = _outcome(a, d, (bonus, defence, damage, guard))
        key = (_cut(dmg, cut), lands)
        out[key] = out.get(key, 0) + wd
    return out


@cache
def _poison_dist(level: int) -> dict[int, int]:
    out: dict[int, int] = {}
    for faces in range(6**level):
        total, n = 0, faces
        for _ in range(level):
            total += n % 6 + 1
            n //= 6
        v = max(0, total - 2)
        out[v] = out.get(v, 0) + 1
    return out


def _poison_mean(level: int) -> Fraction:
    if level == 0:
        return Fraction(0)
    d = _poison_dist(level)
    return Fraction(sum(v * w for v, w in d.items()), 6**level)


def _statuses(c: Char) -> int:
    return (1 if c[3] else 0) + len(c[4])


def _cure_chance(n: int, felt: int) -> Fraction:
    return Fraction(sum(w for t, w in _TWO_D6.items() if t + _pen(felt) >= 10 - n), 36)


def _land(c: Char, skill: Attack, immune: frozenset[str]) -> Char:
    hp, k, pos, poison, others = c
    if skill.poison and "poison" not in immune:
        poison = max(poison, skill.poison)
    return hp, k, pos, poison, others | (skill.others - immune)


def _value(
    who: list[Who],
    s: State,
    i: int,
    skill: Attack,
    targets: list[int],
    *,
    left: int,
    on_down: bool = False,
) -> Fraction:
    """Expected damage to the party of ``skill`` on ``targets`` (poison over the turns left)."""
    total = Fraction(0)
    for j in targets:
        d = who[j]
        bonus, defence, guard = _bonuses(who, s, i, j, skill)
        table = _single(bonus, defence, skill.damage, guard, d.cut)
        total += Fraction(sum(dmg * w for (dmg, _), w in table.items()), 1296)
        if skill.poison and "poison" not in d.immune:
            hp = s[j][0]
            lands = Fraction(
                sum(w for (dmg, ok), w in table.items() if ok and (on_down or dmg < hp)), 1296
            )
            after = _land(s[j], skill, d.immune)
            rise = _poison_mean(after[3]) - _poison_mean(s[j][3])
            c = _cure_chance(_statuses(after), d.felt(s[j][1]))
            ticks = sum(((1 - c) ** n for n in range(left)), Fraction(0))
            total += lands * rise * ticks
    return total


def _up(w: Who, c: Char) -> bool:
    return c[0] > 0 and w.felt(c[1]) < 10


def _hit(c: Char, result: tuple[int, bool], skill: Attack, w: Who, *, on_down: bool) -> Char:
    dmg, lands = result
    hp, k, pos, poison, others = c
    if dmg > 0:
        if hp > 0 >= hp - dmg:
            k += _on_down(w.felt(k))
        hp -= dmg
    c = (hp, k, pos, poison, others)
    if lands and (hp > 0 or on_down):
        c = _land(c, skill, w.immune)
    return c


def _set(s: State, j: int, c: Char) -> State:
    return (*s[:j], c, *s[j + 1 :])


def _add(d: Dist, s: State, w: int) -> None:
    d[s] = d.get(s, 0) + w


def _party(data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    if data.get("party"):
        return list(data["party"])
    return [REFERENCE[i % 4] for i in range(data["players"])]


_LEVEL = re.compile(r"毒\s*[(（]\s*LV\s*(\d)", re.IGNORECASE)
_MINUS = re.compile(r"ダメージ\s*-\s*(\d+)")


def _attack_of(skill: Mapping[str, Any]) -> Attack:
    text = str(skill.get("effect", ""))
    poison = 0
    if "毒" in text:
        m = _LEVEL.search(text)
        poison = int(m.group(1)) if m else 1
    others = frozenset(v for k, v in STATUS_WORDS.items() if k in text and v != "poison")
    return Attack(
        str(skill["name"]),
        int(skill.get("damage") or 0),
        bool(skill.get("ranged", False)),
        skill.get("target", "single") == "all",
        poison,
        others,
    )


def characters(data: Mapping[str, Any]) -> tuple[list[Who], State]:
    """Every character's fixed data and the starting state."""
    rules = data.get("rulings", {})
    feels = rules.get("corruption_effects", "pcs") == "all"
    defeat = set(data.get("balance", {}).get("defeat") or [e["id"] for e in data["enemies"]])
    who: list[Who] = []
    start: list[Char] = []
    for p in _party(data):
        attack = Attack("攻撃", int(p.get("damage", 5)), bool(p.get("ranged", False)))
        who.append(
            Who(True, p["attack"], p["defence"], p["initiative"], bool(p.get("blessed")), (attack,))
        )
        start.append((p["hp"], 0, p.get("position", "near"), 0, frozenset()))
    for e in data["enemies"]:
        skills = e.get("skills", [])
        attacks = tuple(_attack_of(s) for s in skills if s["kind"] == "attack")
        guard = cut = 0
        for s in skills:
            m = _MINUS.search(str(s.get("effect", "")))
            if m and s["kind"] == "defence":
                guard = max(guard, int(m.group(1)))
            elif m and s["kind"] == "passive":
                cut += int(m.group(1))
        who.append(
            Who(
                False,
                e["attack"],
                e["defence"],
                e["initiative"],
                bool(e.get("blessed")),
                attacks,
                guard,
                cut,
                frozenset(e.get("immune", [])),
                feels,
                e["id"] in defeat,
            )
        )
        start.append((e["hp"], 0, e.get("position", "near"), 0, frozenset()))
    return who, tuple(start)


Branches = list[tuple[State, int]]
"""A state's successors with integer weights (their sum is the step's own total)."""


def step(dist: dict[Any, int], branch: Any) -> tuple[dict[Any, int], int]:
    """Apply ``branch`` (state -> Branches) to every state; the weights are brought to one
    denominator for the step (the least common multiple of the states' totals), returned."""
    lists = {s: branch(s) for s in dist}
    totals = {s: sum(q for _, q in b) for s, b in lists.items()}
    den = math.lcm(*totals.values()) if totals else 1
    out: dict[Any, int] = {}
    for s, w in dist.items():
        scale = den // totals[s]
        for t, q in lists[s]:
            out[t] = out.get(t, 0) + w * q * scale
    return out, den


class Chain:
    """The battle's chain: integer weights over one growing denominator."""

    def __init__(self, data: Mapping[str, Any], close_in: bool) -> None:
        self.who, self.start = characters(data)
        rules = data.get("rulings", {})
        self.random_table = rules.get("random_status", "uniform") == "uniform"
        self.check_down = rules.get("status_check_down", "yes") == "yes"
        self.on_down = rules.get("downing_hit_effects", "none") == "apply"
        self.turns = data.get("missions", {}).get("main", {}).get("rounds", 20)
        self.close_in = close_in
        self.n = len(self.who)

    # -- turn start ------------------------------------------------------------------

    def order(self, s: State) -> tuple[int, ...]:
        def key(i: int) -> tuple[int, bool, int]:
            w = self.who[i]
            f = w.felt(s[i][1])
            ini = 0 if f >= 7 else (w.initiative // 2 if "paralysis" in s[i][4] else w.initiative)
            return -ini, not w.pc, i

        return tuple(sorted(range(self.n), key=key))

    def table(self, s: State, i: int) -> Branches:
        """The random status table of character ``i`` (7 alike)."""
        who, c = self.who[i], s[i]
        if not (self.random_table and who.feels and c[0] > 0 and 6 <= c[1] < 10):
            return [(s, 1)]
        out = []
        for name in TABLE:
            hp, k, pos, poison, others = c
            if name not in who.immune:
                if name == "poison":
                    poison = max(poison, 1)
                else:
                    others = others | {name}
            out.append((_set(s, i, (hp, k, pos, poison, others)), 1))
        return out

    # -- actions ---------------------------------------------------------------------

    def action(self, s: State, i: int, turn: int) -> Branches:
        who = self.who
        foes = [j for j in range(self.n) if who[j].pc != who[i].pc and _up(who[j], s[j])]
        if not _up(who[i], s[i]) or not foes:
            return [(s, 1)]
        if who[i].pc:
            if self.close_in:
                hp, k, pos, poison, others = s[i]
                s = _set(s, i, (hp, k, NEARER[pos], poison, others))
            j = min(foes, key=lambda x: (s[x][0], x))
            return self.attack(s, i, who[i].attacks[0], [j])
        if not who[i].attacks:
            return [(s, 1)]
        per: list[Branches] = []
        for j in foes:  # the target, alike among those standing
            skill = who[i].attacks[0]
            if len(who[i].attacks) > 1:
                left = self.turns - turn + 1
                best = max(
                    enumerate(who[i].attacks),
                    key=lambda e: (
                        _value(
                            who,
                            s,
                            i,
                            e[1],
                            foes if e[1].area else [j],
                            left=left,
                            on_down=self.on_down,
                        ),
                        -e[0],
                    ),
                )
                skill = best[1]
            per.append(self.attack(s, i, skill, foes if skill.area else [j]))
        totals = [sum(q for _, q in b) for b in per]
        common = math.lcm(*totals)
        return [(t, q * (common // tot)) for b, tot in zip(per, totals, strict=True) for t, q in b]

    def attack(self, s: State, i: int, skill: Attack, targets: list[int]) -> Branches:
        """One attack roll against each target's own defence."""
        if len(targets) == 1:  # the attack roll summed out
            (j,) = targets
            bonus, defence, guard = _bonuses(self.who, s, i, j, skill)
            table = _single(bonus, defence, skill.damage, guard, self.who[j].cut)
            return [
                (_set(s, j, _hit(s[j], (dmg, lands), skill, self.who[j], on_down=self.on_down)), w)
                for (dmg, lands), w in table.items()
            ]
        out: Branches = []
        for a, wa in _TWO_D6.items():
            branches: Branches = [(s, wa)]
            for j in targets:
                nxt = []
                for t, q in branches:
                    bonus, defence, guard = _bonuses(self.who, t, i, j, skill)
                    table = _given_roll(
                        a, bonus, defence, skill.damage, guard=guard, cut=self.who[j].cut
                    )
                    for (dmg, lands), wd in table.items():
                        nxt.append(
                            (
                                _set(
                                    t,
                                    j,
                                    _hit(
                                        t[j], (dmg, lands), skill, self.who[j], on_down=self.on_down
                                    ),
                                ),
                                q * wd,
                            )
                        )
                branches = nxt
            out.extend(branches)
        return out

    # -- turn end --------------------------------------------------------------------

    def poison(self, s: State, i: int) -> Branches:
        who = self.who[i]
        hp, k, pos, level, others = s[i]
        if not level or who.felt(k) >= 10:
            return [(s, 1)]
        out = []
        for tick, q in _poison_dist(level).items():
            dmg = _cut(tick, who.cut)
            k2 = k + (_on_down(who.felt(k)) if dmg > 0 and hp > 0 >= hp - dmg else 0)
            out.append((_set(s, i, (hp - dmg, k2, pos, level, others)), q))
        return out

    def recover(self, s: State, i: int) -> Branches:
        who = self.who[i]
        hp, k, pos, level, others = s[i]
        f = who.felt(k)
        if hp > 0 or f >= 10 or hp == GONE:
            return [(s, 1)]
        m = (-2 if "curse" in others else 0) + (-3 if f >= 4 else 0) + _pen(f)
        return [
            (_set(s, i, (hp + max(0, face + m), k, pos, level, others)), 1) for face in range(1, 7)
        ]

    def cure(self, s: State, i: int) -> Branches:
        who, c = self.who[i], s[i]
        n = _statuses(c)
        f = who.felt(c[1])
        if not n or f >= 10 or (c[0] <= 0 and not self.check_down):
            return [(s, 1)]
        ok = sum(q for t, q in _TWO_D6.items() if t + _pen(f) >= 10 - n)
        hp, k, pos, level, others = c
        first = next(x for x in CURE if (x == "poison" and level) or x in others)
        cured = (
            (hp, k, pos, 0, others) if first == "poison" else (hp, k, pos, level, others - {first})
        )
        return [(_set(s, i, cured), ok), (s, 36 - ok)]

    def rise(self, s: State) -> Branches:
        t = tuple(
            (hp, k + (2 if self.who[i].blessed else 0), pos, level, others)
            for i, (hp, k, pos, level, others) in enumerate(s)
        )
        return [(t, 1)]

    def turn(self, dist: Dist, turn: int) -> tuple[Dist, int]:
        """One whole turn; the weights' new denominator factor."""
        den = 1
        for i in range(self.n):
            dist, d = step(dist, lambda s, i=i: self.table(s, i))
            den *= d
        keyed: dict[tuple[tuple[int, ...], State], int] = {}
        for s, w in dist.items():
            keyed[(self.order(s), s)] = keyed.get((self.order(s), s), 0) + w
        for k in range(self.n):  # the order is fixed at the turn's start

            def act(key: tuple[tuple[int, ...], State], k: int = k) -> list[tuple[Any, int]]:
                order, s = key
                return [((order, t), q) for t, q in self.action(s, order[k], turn)]

            keyed, d = step(keyed, act)
            den *= d
            settled: dict[tuple[tuple[int, ...], State], int] = {}
            for (order, s), w in keyed.items():
                key = (order, self.settle(s, self.turns - turn + 1))
                settled[key] = settled.get(key, 0) + w
            keyed = settled
        dist = {}
        for (_, s), w in keyed.items():
            _add(dist, s, w)
        if turn == self.turns:  # only the enemies of ``defeat`` matter from here on
            dist = self.forget(dist)
        for phase in (self.poison, self.recover, self.cure):
            for i in range(self.n):
                dist, d = step(dist, lambda s, i=i, phase=phase: phase(s, i))
                den *= d
        dist, _ = step(dist, self.rise)
        return dist, den

    def forget(self, dist: Dist) -> Dist:
        """After the last turn's actions: every PC and every enemy outside ``defeat`` made
        :data:`GONE` (the turn's end changes no one else, and the battle is won or not by
        the enemies of ``defeat`` alone), the states merged."""
        out: Dist = {}
        for s, w in dist.items():
            t = tuple(
                c if not self.who[i].pc and self.who[i].defeat else (GONE, 0, c[2], 0, frozenset())
                for i, c in enumerate(s)
            )
            _add(out, t, w)
        return out

    def settle(self, s: State, left: int) -> State:
        """``s`` with every character that can no longer stand up in the ``left`` turns
        (down with HP too low for ``left`` recovery checks of at most 6 each, or at 穢れ 10
        it suffers) made one and the same :data:`GONE` character: it never acts, is never
        targeted and never counts as standing again, so its HP, 穢れ and statuses no
        longer matter (merging those states changes no probability, only the work)."""
        out = list(s)
        for i, c in enumerate(s):
            stuck = c[0] + 6 * left < 1 or self.who[i].felt(c[1]) >= 10
            if c[0] != GONE and not _up(self.who[i], c) and stuck:
                out[i] = (GONE, 0, c[2], 0, frozenset())
        return tuple(out)

    def win(self) -> Fraction:
        dist: Dist = {self.start: 1}
        den = 1
        won = Fraction(0)
        who = self.who
        for turn in range(1, self.turns + 1):
            dist, d = self.turn(dist, turn)
            den *= d
            nxt: Dist = {}
            won_now = 0
            left = self.turns - turn
            for s, w in dist.items():
                if all(
                    not _up(who[i], s[i]) for i in range(self.n) if not who[i].pc and who[i].defeat
                ):
                    won_now += w
                elif any(_up(who[i], s[i]) for i in range(self.n) if who[i].pc):
                    _add(nxt, self.settle(s, left), w)
            won += Fraction(won_now, den)
            g = math.gcd(*nxt.values(), den) if nxt else 1
            dist = {s: w // g for s, w in nxt.items()}
            den //= g
            if not dist:
                break
        return won


@cache
def _solve(key: str, close_in: bool) -> Fraction:
    return Chain(json.loads(key), close_in).win()


def win(data: Mapping[str, Any], *, close_in: bool = True) -> Fraction:
    """P(every enemy of ``defeat`` is down at a turn's end within the turn limit), solved
    once per session for each scenario."""
    return _solve(json.dumps(data, sort_keys=True, ensure_ascii=False), close_in)
