"""カットアクション: a chase of one PC fleeing from one pursuer in a vehicle, cut by cut.

From the seed (004): the side that declared the move flees, the other pursues. Every cut
opens with a movement check of everyone (an agility body check); the runner with the
highest movement value leads and the others sit behind by the difference; whoever is more
than 5 behind the leader drops out. The leader acts first. 加速: a movement check that, on
a success, moves the runner forward by its achievement (nobody drops at that moment; the
cut's end drops whoever is still too far behind). 進路妨害: a body contest against a runner
in the same area or behind; the winner pushes it back. ルート変更 (the leader only): 1D10
on the chase event table. The chase ends when a pursuer caught up with the fleeing leader,
blockaded and won an agility contest, when one side is out entirely, when the goal (10 x
the move's target) is reached, or after as many cuts as there are characters on stage.

Rulings and tactics followed (the simulator's documented ones): a check is 1D10 rolled
under the success value (achievement = value - roll, success at 0 or more, a 10 a fumble;
``check_dice: 2D6`` rolls 2D6, a 12 a fumble); the movement value accumulates over the
chase, a failed movement check adds its negative achievement, and a fumbled movement check
leaves the runner unable to act that cut (``failed_move``); the cut's movement checks are
made together, then the drops (``chase_drop``); events numbered in the listed order:
1 小道 (every area blockaded: nobody accelerates or is pushed back this cut), 2 連続カーブ
(everyone's body check, back by 3 - achievement when short of 3), 3 悪路 (movement checks
at -2 until the next route change), 5 ジャンプ (a failed body check drops out), 6 スリップ
(a failed body check cannot act this cut), 8 道が閉ざされる (everyone in the rearmost area
drops out), 10 行き止まり (the chase ends); the events' damage (4, 7) and further pursuers
(9) are not modelled. The leader after the movement checks (the PC on equal values)
changes the route unless it fumbled; everyone who can act accelerates; everyone but the
runner who led obstructs the nearest opposing runner in its area or behind it (pushed back
by the difference of the achievements, at least 1, ``obstruct_distance``); a pursuer that
can act and stands level with or ahead of the fleeing leader blockades and tries the
capture contest; a contest is won by a successful check with a higher achievement, a
fumble ranking lowest (``contest_rule``). The chase ends as soon as a condition holds; the
goal counts for the fleeing side; at a dead end or the cut limit the PCs escape when a PC
leads (PCs first on ties).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from typing import Any

from .common import add, dice_sum

Check = tuple[int, bool, bool]
"""(achievement, success, fumble)."""

State = tuple[int, int, bool, bool, bool]
"""(PC movement value, pursuer movement value, PC in, pursuer in, 悪路 in force)."""

Idle = tuple[bool, bool]
"""(PC cannot act this cut, pursuer cannot act this cut)."""

_SHAPE = {"1D10": (1, 10), "2D6": (2, 6)}


@cache
def _checks(value: int, dice: str) -> tuple[tuple[Check, Fraction], ...]:
    count, sides = _SHAPE[dice]
    top = count * sides
    return tuple(
        ((value - roll, roll != top and value - roll >= 0, roll == top), p)
        for roll, p in dice_sum(count, sides)
    )


@cache
def _contest(active: int, passive: int, dice: str) -> tuple[tuple[int, Fraction], ...]:
    """(achievement margin of a won contest, 0 when lost) with its chance."""
    out: dict[int, Fraction] = {}
    for a, p in _checks(active, dice):
        for b, q in _checks(passive, dice):
            won = a[1] and (b[2] or a[0] > b[0])  # a fumble ranks below everything
            add(out, max(1, a[0] - b[0]) if won else 0, p * q)
    return tuple(out.items())


@cache
def _gains(value: int, dice: str) -> tuple[tuple[int, Fraction], ...]:
    """How far one 加速 moves the runner (0 on a failure)."""
    out: dict[int, Fraction] = {}
    for c, p in _checks(value, dice):
        add(out, c[0] if c[1] else 0, p)
    return tuple(out.items())


@cache
def _curve(value: int, dice: str) -> tuple[tuple[int, Fraction], ...]:
    """How far 連続カーブ sets a runner back (3 - achievement when short of 3)."""
    out: dict[int, Fraction] = {}
    for c, p in _checks(value, dice):
        add(out, max(0, 3 - c[0]), p)
    return tuple(out.items())


def _passes(value: int, dice: str) -> tuple[tuple[bool, Fraction], ...]:
    """Success or failure of one body check."""
    yes = sum((p for c, p in _checks(value, dice) if c[1]), Fraction(0))
    return ((True, yes), (False, 1 - yes))


def _settle(s: State) -> State:
    """Drop whoever is more than 5 behind the leader."""
    p, e, pi, ei, bad = s
    if pi and ei:
        return (p, e, p - e >= -5, e - p >= -5, bad)
    return s


Slot = tuple[State, Idle, bool, int]
"""(state, idle, 小道 in force, the leader who changed the route: 0 the PC, 1 the pursuer)."""


def win(data: Mapping[str, Any]) -> Fraction:
    """P(the PC gets away from the pursuer)."""
    (pc,) = data["party"]
    (en,) = data["enemies"]
    assert en.get("vehicle"), "the pursuer must have a vehicle (on foot it fights first)"
    (target,) = [t for t in data["difficulty_targets"] if t.get("kind") == "chase"]
    dice = data.get("rulings", {}).get("check_dice", "1D10")
    b = (pc["body"], en["body"])
    goal = 10 * target["target"]
    won = Fraction(0)

    def ended(s: State, w: Fraction) -> bool:
        """Count ``w`` when the chase is over in ``s`` (one side out, the goal reached)."""
        nonlocal won
        p, _, pi, ei, _ = s
        if pi and ei and p < goal:
            return False
        won += w * (pi and (not ei or p >= goal))
        return True

    states: dict[State, Fraction] = {(0, 0, True, True, False): Fraction(1)}
    for _ in range(2):  # as many cuts as characters on stage
        # the movement checks, together, then the drops; a fumble cannot act this cut
        moved: dict[tuple[State, Idle], Fraction] = {}
        for s, w in states.items():
            for mp, pp in _checks(b[0] - 2 * s[4], dice):
                for me, pe in _checks(b[1] - 2 * s[4], dice):
                    t = _settle((s[0] + mp[0], s[1] + me[0], *s[2:]))
                    if not ended(t, w * pp * pe):
                        add(moved, (t, (mp[2], me[2])), w * pp * pe)
        # the leader's route change (none when it fumbled its movement check)
        evented: dict[Slot, Fraction] = {}
        for (s, idle), w in moved.items():
            p, e, pi, ei, _ = s
            leader = 0 if p >= e else 1
            if idle[leader]:
                add(evented, (s, idle, False, leader), w)
                continue
            tenth = w / 10
            for number in range(1, 11):
                base: State = (p, e, pi, ei, number == 3)
                if number == 2:
                    for dp, qp in _curve(b[0], dice):
                        for de, qe in _curve(b[1], dice):
                            t = _settle((p - dp, e - de, pi, ei, False))
                            if not ended(t, tenth * qp * qe):
                                add(evented, (t, idle, False, leader), tenth * qp * qe)
                elif number in (5, 6):
                    for okp, qp in _passes(b[0], dice):
                        for oke, qe in _passes(b[1], dice):
                            q = tenth * qp * qe
                            if number == 5:  # ジャンプ: a failure drops out
                                t = (p, e, okp, oke, False)
                                if not ended(t, q):
                                    add(evented, (t, idle, False, leader), q)
                            else:  # スリップ: a failure cannot act this cut
                                slip = (idle[0] or not okp, idle[1] or not oke)
                                add(evented, (base, slip, False, leader), q)
                elif number == 8:  # 道が閉ざされる: the rearmost area drops out
                    last = min(p, e)
                    t = (p, e, p != last, e != last, False)
                    if not ended(t, tenth):
                        add(evented, (t, idle, False, leader), tenth)
                elif number == 10:  # 行き止まり: the PCs escape when a PC leads
                    won += tenth * (p >= e)
                else:  # 1 小道; 3 悪路; 4, 7: damage not modelled; 9: no further pursuers
                    add(evented, (base, idle, number == 1, leader), tenth)
        # 加速: everyone who can act, unless 小道 (nobody drops at this moment)
        sped: dict[tuple[State, Idle, bool, int], Fraction] = {}
        still = ((0, Fraction(1)),)
        for (s, idle, narrow, leader), w in evented.items():
            p, e, _, _, bad = s
            ap = still if idle[0] or narrow else _gains(b[0] - 2 * bad, dice)
            ae = still if idle[1] or narrow else _gains(b[1] - 2 * bad, dice)
            for gp, qp in ap:
                for ge, qe in ae:
                    t = (p + gp, e + ge, True, True, bad)
                    if not ended(t, w * qp * qe):
                        add(sped, (t, idle, narrow, leader), w * qp * qe)
        # 進路妨害: the runner that did not change the route, on the other if level or behind
        # (under 小道 it cannot push the other out of its area)
        pushed: dict[tuple[State, Idle], Fraction] = {}
        for (s, idle, narrow, leader), w in sped.items():
            who = 1 - leader
            pos = (s[0], s[1])
            if idle[who] or pos[1 - who] > pos[who] or narrow:  # 小道: nobody leaves its area
                add(pushed, (s, idle), w)
                continue
            for margin, q in _contest(b[who], b[1 - who], dice):
                back = (0, margin) if who == 0 else (margin, 0)
                u = _settle((pos[0] - back[0], pos[1] - back[1], True, True, s[4]))
                if not ended(u, w * q):
                    add(pushed, (u, idle), w * q)
        # the capture: a pursuer that can act, level with or ahead of the PC, blockades and
        # tries the agility contest; then the cut's end drops whoever is too far behind
        nxt: dict[State, Fraction] = {}
        for (s, idle), w in pushed.items():
            free = w
            if not idle[1] and s[1] >= s[0]:
                free = w * sum((q for m, q in _contest(b[1], b[0], dice) if not m), Fraction(0))
            t = _settle(s)
            if free and not ended(t, free):
                add(nxt, t, free)
        states = nxt
    return won + sum((w for s, w in states.items() if s[0] >= s[1]), Fraction(0))
