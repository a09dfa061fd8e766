"""カットアクション: a chase of one PC and one enemy, cut by cut, exactly.

From the seed (004): the side that declared the move flees, the other pursues (here the
scenario's ``flees``: ``party``, the default, or ``enemies``). Every cut opens with a
movement check of everyone (an agility body check, -2 on 悪路); the runner with the
highest movement value leads and the other sits behind by the difference; whoever is more
than 5 behind the leader drops out. Then each acts, the leader first: a move action (加速:
a movement check that, on a success, moves the runner forward by its achievement; nobody
drops at that moment) and a main action (the chase's own actions, or an attack as in a
fight). 進路妨害: a body contest against a runner in the same area or behind; the winner
pushes it back. ルート変更 (the leader only): the chase event table. The chase ends when a
pursuer caught up with the fleeing leader, blockaded and won an agility contest, when one
side is out entirely, when the goal (10 x the move's target) is reached, or after as many
cuts as there are characters in it (here two).

Rulings and tactics followed (the simulator's documented ones, not its code): a check is
1D10 rolled under the success value (achievement = value - roll, success at 0 or more, a
10 a fumble; ``check_dice: 2D6`` rolls 2D6, a 12 a fumble); the movement value
accumulates, a failed movement check adds its negative achievement, a fumbled one leaves
the runner unable to act that cut; contests are won by a success with a higher achievement,
a fumble ranking lowest. Each runner's turn: a pursuer level with or ahead of the fleeing
runner blockades and tries the capture contest (its whole turn; losing it, the fleeing
runner has got out of the blockade); anyone else accelerates (not under 小道) and then, as
its main action, the leader changes the route; a pursuer attacks when an attack reaches
(melee: the same movement value, shooting: anywhere in the chase), else obstructs; a
fleeing runner obstructs when it can (not under 小道), else attacks. An attack lands when the
attack check (melee body, shooting head) beats the target's reaction (its ``reaction``,
else body); the damage, like 対向車's and falling objects', is reduced by a body resist
check's achievement (a failure reduces nothing); at 体力 0 or less the runner drops out.
Obstruction pushes back by the difference of the achievements (at least 1). Events in the
listed order (or the scenario's own table, its entries' ``event``): 1 小道, 2 連続カーブ (a
body check, back by 3 - achievement when short of 3; nobody moves under 小道), 3 悪路
(until the next route change), 4 対向車 (a failed body check: damage equal to this cut's
movement achievement, at least 0), 5 ジャンプ (a failed body check drops out), 6 スリップ (a
failed body check loses the rest of the cut), 7 落下物 (1D10 halved up: that many areas
behind the leader, 5 damage), 8 道が閉ざされる (the rearmost area drops out), 9 nothing, 10
行き止まり (the chase ends). Drop-outs happen after every change but an acceleration, and
at the cut's end. At the time limit and a dead end the fleeing runner still in has got
away (``chase_time_limit: leader``: only when level with or ahead of the pursuer;
``chase_dead_end: cornered``: a dead end catches it).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from typing import Any

from .common import dice_sum

P = float
"""A probability. The chase has too many states for :class:`~fractions.Fraction` weights in a
test (a minute a case): it adds binary floats, whose rounding (about 1e-12 over the whole
chase) is far below the 1e-6 the figures are compared to."""


def add(d: dict[Any, P], key: Any, p: P) -> None:
    """Accumulate probability ``p`` on ``key``."""
    if p:
        d[key] = d.get(key, 0.0) + p


Check = tuple[int, bool, bool]
"""(achievement, success, fumble)."""

_SHAPE = {"1D10": (1, 10), "2D6": (2, 6)}

# a runner: index 0 the PC, 1 the enemy
State = tuple[int, int, bool, bool, int, int, bool]
"""(PC value, enemy value, PC in, enemy in, PC 体力, enemy 体力, 悪路)."""


@cache
def _checks(value: int, dice: str) -> tuple[tuple[Check, P], ...]:
    count, sides = _SHAPE[dice]
    top = count * sides
    return tuple(
        ((value - roll, roll != top and value - roll >= 0, roll == top), float(p))
        for roll, p in dice_sum(count, sides)
    )


def _beats(a: Check, b: Check) -> bool:
    """The active check ``a`` wins against ``b``: a success, and higher (a fumble is lowest)."""
    return a[1] and (b[2] or a[0] > b[0])


@cache
def _contest(active: int, passive: int, dice: str) -> tuple[tuple[int, P], ...]:
    """(achievement margin of a won contest, at least 1; 0 when lost) with its chance."""
    out: dict[int, P] = {}
    for a, p in _checks(active, dice):
        for b, q in _checks(passive, dice):
            add(out, max(1, a[0] - b[0]) if _beats(a, b) else 0, p * q)
    return tuple(out.items())


@cache
def _passes(value: int, dice: str) -> tuple[tuple[bool, P], ...]:
    """Success or failure of one check."""
    yes = sum((p for c, p in _checks(value, dice) if c[1]), 0.0)
    return ((True, yes), (False, 1 - yes))


@cache
def _curve(value: int, dice: str, narrow: bool) -> tuple[tuple[int, P], ...]:
    """How far 連続カーブ sets a runner back (3 - achievement when short of 3; under 小道
    nobody leaves its area)."""
    out: dict[int, P] = {}
    for c, p in _checks(value, dice):
        add(out, 0 if narrow else max(0, 3 - c[0]), p)
    return tuple(out.items())


@cache
def _won(active: int, passive: int, dice: str) -> P:
    return sum((q for m, q in _contest(active, passive, dice) if m), 0.0)


@cache
def _loss(damage: int, body: int, dice: str) -> tuple[tuple[int, P], ...]:
    """体力 lost to ``damage`` after the body resist check."""
    out: dict[int, P] = {}
    for c, p in _checks(body, dice):
        add(out, max(0, damage - c[0]) if c[1] else damage, p)
    return tuple(out.items())


class _Chase:
    """The chase of ``data`` (one PC, one enemy), played to its end."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        (pc,) = data["party"]
        (en,) = data["enemies"]
        (target,) = [t for t in data["difficulty_targets"] if t.get("kind") == "chase"]
        rulings = data.get("rulings", {})
        self.dice = rulings.get("check_dice", "1D10")
        self.time_limit = rulings.get("chase_time_limit", "not_caught")
        self.dead_end = rulings.get("chase_dead_end", "as_time_limit")
        self.goal = 10 * target["target"]
        self.pc_flees: bool = target.get("flees", "party") == "party"
        self.body = (pc["body"], en["body"])
        self.head = (pc["head"], en["head"])
        self.reaction = (pc.get("reaction", pc["body"]), en.get("reaction", en["body"]))
        self.hp = (pc["hp"], en["hp"])
        pc_attack = (pc.get("attack", "shooting"), pc.get("damage", 4))
        enemy_attacks = [(a["kind"], a["damage"]) for a in en.get("attacks", [])]
        self.attacks = ([pc_attack], enemy_attacks)
        self.events = self._table(data, target)
        self.won = 0.0

    @staticmethod
    def _table(data: Mapping[str, Any], target: Mapping[str, Any]) -> dict[int, P]:
        """Event number (0: no effect) -> chance: the rule book's 1D10, or the scenario's."""
        tables = data.get("chase_tables", [])
        if target.get("table"):
            tables = [t for t in tables if t["name"] == target["table"]]
        if not tables:
            return dict.fromkeys(range(1, 11), 0.1)
        (table,) = tables
        count, sides = (int(x) for x in table["die"].upper().split("D"))
        rolls = dice_sum(count, sides)
        names = ["小道", "連続カーブ", "悪路", "対向車", "ジャンプ", "スリップ", "落下物"]
        names += ["道が閉ざされる", "さらなる追跡者", "行き止まり"]
        out: dict[int, P] = {}
        for key, entry in table["entries"].items():
            low, _, high = str(key).partition("-")
            lo, hi = int(low), int(high or low)
            p = float(sum((q for r, q in rolls if lo <= r <= hi), Fraction(0)))
            number = names.index(entry["event"]) + 1 if entry.get("event") else 0
            add(out, number, p)
        return out

    def fleeing(self, i: int) -> bool:
        return (i == 0) == self.pc_flees

    def end(self, fled: bool, w: P) -> None:
        """The chase ended with the fleeing side away (``fled``) or not: count the PCs' win."""
        self.won += w * (fled == self.pc_flees)

    def over(self, s: State, w: P) -> bool:
        """Count ``w`` when the chase is over in ``s``: a side out, or the goal reached."""
        flee = 0 if self.pc_flees else 1
        if not s[2 + flee]:
            self.end(False, w)
        elif not s[3 - flee] or s[flee] >= self.goal:
            self.end(True, w)
        else:
            return False
        return True

    def unresolved(self, s: State, w: P, *, dead_end: bool) -> None:
        """The chase ends at the time limit (or a dead end) in ``s``, both still in."""
        flee = 0 if self.pc_flees else 1
        if dead_end and self.dead_end == "cornered":
            self.end(False, w)
        elif self.time_limit == "leader":
            self.end(s[flee] >= s[1 - flee], w)
        else:
            self.end(True, w)

    @staticmethod
    def drops(s: State) -> State:
        """Whoever is more than 5 behind the leader drops out."""
        p, e, pi, ei, ph, eh, bad = s
        if pi and ei:
            return (p, e, p - e >= -5, e - p >= -5, ph, eh, bad)
        return s

    @staticmethod
    def hurt(s: State, i: int, loss: int) -> State:
        """Runner ``i`` loses ``loss`` 体力 (and drops out at 0 or less)."""
        t = list(s)
        t[4 + i] -= loss
        if t[4 + i] <= 0:
            t[2 + i] = False
        return (t[0], t[1], t[2], t[3], t[4], t[5], t[6])  # type: ignore[return-value]

    @staticmethod
    def moved(s: State, i: int, value: int) -> State:
        t = list(s)
        t[i] = value
        return (t[0], t[1], t[2], t[3], t[4], t[5], t[6])  # type: ignore[return-value]


Ctx = tuple[State, tuple[bool, bool], bool]
"""(state, who cannot act this cut, 小道 in force)."""


def win(data: Mapping[str, Any]) -> Fraction:
    """P(the PCs' side has its way in the chase: escaping, or catching the one fleeing)."""
    ch = _Chase(data)
    dice = ch.dice
    b = ch.body
    states: dict[State, P] = {(0, 0, True, True, ch.hp[0], ch.hp[1], False): 1.0}
    for _cut in range(2):  # as many cuts as characters in the chase
        # the movement checks, together, then the drops; a fumble cannot act this cut
        moved: dict[tuple[Ctx, tuple[int, int]], P] = {}
        for s, w in states.items():
            for mp, pp in _checks(b[0] - 2 * s[6], dice):
                for me, pe in _checks(b[1] - 2 * s[6], dice):
                    p, e, pi, ei, ph, eh, bad = s
                    t = ch.drops((p + mp[0], e + me[0], pi, ei, ph, eh, bad))
                    if not ch.over(t, w * pp * pe):
                        ctx: Ctx = (t, (mp[2], me[2]), False)
                        add(moved, (ctx, (max(0, mp[0]), max(0, me[0]))), w * pp * pe)
        # each runner's turn, the leader first (the PC on equal values). The route change's
        # die is independent of the cut so far and only 対向車 reads the movement
        # achievements: the other events are played once on the states without them.
        oncoming = ch.events.get(4, 0.0)
        others = {n: p / (1 - oncoming) for n, p in ch.events.items() if n != 4}
        plain: dict[Ctx, P] = {}
        for (ctx, _), w in moved.items():
            add(plain, ctx, w)
        firsts: dict[tuple[Ctx, int], P] = {}
        branches: list[tuple[Ctx, tuple[int, int], P, dict[int, P]]] = []
        if oncoming:
            branches += [(c, m, w * oncoming, {4: 1.0}) for (c, m), w in moved.items()]
        if others:
            branches += [(c, (0, 0), w * (1 - oncoming), others) for c, w in plain.items()]
        for ctx, moves, w, events in branches:
            leader = 0 if ctx[0][0] >= ctx[0][1] else 1
            for c, v in _turn(ch, ctx, leader, w, (moves, events)):
                add(firsts, (c, 1 - leader), v)
        seconds: dict[Ctx, P] = {}
        for (ctx, other), w in firsts.items():
            for c, v in _turn(ch, ctx, other, w, None):
                add(seconds, c, v)
        nxt: dict[State, P] = {}
        for (s, _, _), w in seconds.items():
            t = ch.drops(s)  # the cut's end
            if not ch.over(t, w):
                add(nxt, t, w)
        states = nxt
    for s, w in states.items():
        ch.unresolved(s, w, dead_end=False)
    return Fraction(ch.won)


def _turn(
    ch: _Chase,
    ctx: Ctx,
    i: int,
    w: P,
    route: tuple[tuple[int, int], dict[int, P]] | None,
) -> list[tuple[Ctx, P]]:
    """Runner ``i``'s turn from ``ctx`` (weight ``w``): the contexts it leaves going on.

    ``route``: when ``i`` leads (it changes the route), this cut's movement achievements
    and the events to play with their chances.
    """
    s, idle, narrow = ctx
    j = 1 - i
    if idle[i] or not s[2 + i]:
        return [(ctx, w)]
    dice, b = ch.dice, ch.body
    if not ch.fleeing(i) and s[i] >= s[j]:  # caught up: blockade and the capture contest
        caught = _won(b[i], b[j], dice)
        ch.end(False, w * caught)
        return [(ctx, w * (1 - caught))]
    out: list[tuple[Ctx, P]] = []
    gains: dict[int, P] = {0: 1.0}
    if not narrow:  # 加速 (nobody drops at this moment)
        gains = {}
        for c, p in _checks(b[i] - 2 * s[6], dice):
            add(gains, c[0] if c[1] else 0, p)
    for gain, p in gains.items():
        t = ch.moved(s, i, s[i] + gain)
        if ch.over(t, w * p):
            continue
        if route is not None:
            out += _route(ch, (t, idle, narrow), w * p, *route)
        else:
            out += _main(ch, (t, idle, narrow), i, w * p)
    return out


def _main(ch: _Chase, ctx: Ctx, i: int, w: P) -> list[tuple[Ctx, P]]:
    """Runner ``i``'s main action (not the leader): attack or obstruct."""
    s, idle, narrow = ctx
    j = 1 - i
    dice, b = ch.dice, ch.body
    reach = [(k, d) for k, d in ch.attacks[i] if k != "melee" or s[i] == s[j]]
    push = not narrow and s[j] <= s[i]
    if reach and (not ch.fleeing(i) or not push):
        kind, damage = max(reach, key=lambda a: (a[1], b[i] if a[0] == "melee" else ch.head[i]))
        value = b[i] if kind == "melee" else ch.head[i]
        hit = _won(value, ch.reaction[j], dice)  # the attack against the reaction
        out = [(ctx, w * (1 - hit))]
        for loss, q in _loss(damage, b[j], dice):
            t = ch.hurt(s, j, loss)
            if t[2 + j]:
                out.append(((t, idle, narrow), w * hit * q))
            elif not ch.over(ch.drops(t), w * hit * q):  # it dropped out: a change
                out.append(((ch.drops(t), idle, narrow), w * hit * q))
        return out
    if push:  # 進路妨害
        out = []
        for back, q in _contest(b[i], b[j], dice):
            if not back:
                out.append((ctx, w * q))
                continue
            t = ch.drops(ch.moved(s, j, s[j] - back))
            if not ch.over(t, w * q):
                out.append(((t, idle, narrow), w * q))
        return out
    return [(ctx, w)]


def _route(
    ch: _Chase, ctx: Ctx, w: P, moves: tuple[int, int], events: dict[int, P]
) -> list[tuple[Ctx, P]]:
    """The leader's route change: each of ``events``, then the drops."""
    s, idle, narrow = ctx
    dice, b = ch.dice, ch.body
    out: dict[Ctx, P] = {}

    def keep(t: State, idl: tuple[bool, bool], nar: bool, v: P) -> None:
        t = ch.drops(t)
        if not ch.over(t, v):
            add(out, (t, idl, nar), v)

    for number, pe in events.items():
        v = w * pe
        base = (*s[:6], number == 3)  # 悪路 until the next route change
        t0: State = base
        if number == 10:
            ch.unresolved(t0, v, dead_end=True)
        elif number == 1:
            keep(t0, idle, True, v)
        elif number == 2:  # 連続カーブ: short of 3 by the shortfall, not under 小道
            for dp, qp in _curve(b[0], dice, narrow):
                for de, qe in _curve(b[1], dice, narrow):
                    t = ch.moved(ch.moved(t0, 0, t0[0] - dp), 1, t0[1] - de)
                    keep(t, idle, narrow, v * qp * qe)
        elif number in (5, 6):
            for okp, qp in _passes(b[0], dice):
                for oke, qe in _passes(b[1], dice):
                    q = v * qp * qe
                    if number == 5:  # ジャンプ: a failure drops out
                        t = (s[0], s[1], s[2] and okp, s[3] and oke, s[4], s[5], False)
                        keep(t, idle, narrow, q)
                    else:  # スリップ: a failure loses the rest of the cut
                        keep(t0, (idle[0] or not okp, idle[1] or not oke), narrow, q)
        elif number == 4:  # 対向車: a failure takes this cut's movement achievement as damage
            hurts = []
            for k in (0, 1):
                (_ok, pass_), (_, fail) = _passes(b[k], dice)
                branch = [(0, pass_)] + [
                    (loss, fail * q) for loss, q in _loss(moves[k], b[k], dice)
                ]
                hurts.append(branch if s[2 + k] else [(0, 1.0)])
            for lp, rp in hurts[0]:
                for le, re in hurts[1]:
                    keep(ch.hurt(ch.hurt(t0, 0, lp), 1, le), idle, narrow, v * rp * re)
        elif number == 7:  # 落下物: 1D10 halved up, that many areas behind the leader
            lead = max(x for x, inside in ((s[0], s[2]), (s[1], s[3])) if inside)
            for roll in range(1, 11):
                area = -((roll + 1) // 2)
                hit = [k for k in (0, 1) if s[2 + k] and s[k] - lead == area]
                branches = [(t0, v / 10)]
                for k in hit:
                    branches = [
                        (ch.hurt(t, k, loss), u * q)
                        for t, u in branches
                        for loss, q in _loss(5, b[k], dice)
                    ]
                for t, u in branches:
                    keep(t, idle, narrow, u)
        elif number == 8:  # 道が閉ざされる: the rearmost area drops out
            last = min(x for x, inside in ((s[0], s[2]), (s[1], s[3])) if inside)
            t = (s[0], s[1], s[2] and s[0] != last, s[3] and s[1] != last, s[4], s[5], False)
            keep(t, idle, narrow, v)
        else:  # 3 悪路 (set above), 9 さらなる追跡者, 0 an entry without a modelled effect
            keep(t0, idle, narrow, v)
    return list(out.items())
