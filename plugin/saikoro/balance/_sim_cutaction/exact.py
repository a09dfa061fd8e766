"""Cut-action: a chase with no fight before it and few runners, solved exactly.

The states are :class:`~saikoro.systems._cutaction.chase.Chase` values; each cut branches
over the event table, the checks the event asks for, every runner's movement check, the
accelerations, the obstructions (:func:`~saikoro.systems._cutaction.checks.obstruct_dist`)
and the capture contest, exactly as :func:`.chase.run` plays them.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

from saikoro.systems._cutaction.chase import FLEEING, PURSUING, Chase
from saikoro.systems._cutaction.checks import CheckResult, contest_wins, obstruct_dist

from .chase import CHASE_CUTS, accelerators, escaped, key, obstructions, runners
from .common import Char, Prepared, chars

__all__ = ["EXACT_RUNNERS", "exact"]

EXACT_RUNNERS = 2
"""Chases with at most this many runners (and no fight before) are solved exactly
(two runners take some seconds; each more multiplies the states by about a hundred)."""


@cache
def _check_dist(shape: tuple[int, int], value: int) -> list[tuple[CheckResult, Fraction]]:
    count, sides = shape
    out: dict[int, Fraction] = {}
    for faces in itertools.product(range(1, sides + 1), repeat=count):
        out[sum(faces)] = out.get(sum(faces), Fraction(0)) + Fraction(1, sides**count)
    return [(CheckResult(value, roll, 0, roll == count * sides), p) for roll, p in out.items()]


@cache
def _combos(
    shape: tuple[int, int], values: tuple[tuple[str, int], ...]
) -> list[tuple[dict[str, CheckResult], Fraction]]:
    """Every joint result of independent checks (name, success value), with its chance."""
    out: list[tuple[dict[str, CheckResult], Fraction]] = [({}, Fraction(1))]
    for name, value in values:
        out = [({**d, name: r}, p * q) for d, p in out for r, q in _check_dist(shape, value)]
    return out


@cache
def _retreats(
    active: int, passive: int, dice: str, rule: str, distance: str
) -> list[tuple[int, Fraction]]:
    dist = obstruct_dist(active, passive, dice=dice, rule=rule, distance=distance)
    return [(d, dist.probability(d)) for d in dist.outcomes()]


def _obstructed(
    chase: Chase, idle: frozenset[str], cast_of: dict[str, Char], prep: Prepared
) -> list[tuple[Chase, Fraction]]:
    """Every result of this cut's obstructions (:func:`.chase.obstructions`), in order."""
    out = [(chase, Fraction(1))]
    for n, target in obstructions(chase, idle):
        nxt = []
        for state, p in out:
            for back, q in _retreats(
                cast_of[n].body,
                cast_of[target].body,
                prep.dice,
                str(prep.options["contest_rule"]),
                str(prep.options["obstruct_distance"]),
            ):
                nxt.append((state.fall_back(target, back) if back else state, p * q))
        out = nxt
    return out


def exact(prep: Prepared) -> tuple[Fraction | None, dict[str, Fraction]]:
    """A chase with no fight before it and few runners, solved as a Markov chain."""
    if prep.chase_goal is None:
        return None, {}
    everyone = chars(prep)
    if any(c.in_fight and not c.pc and c.name in prep.defeat for c in everyone):
        return None, {}
    pcs, chasers = runners(everyone)
    if not pcs or not chasers or len(pcs) + len(chasers) > EXACT_RUNNERS:
        return None, {}
    cast_of = {key(c): c for c in [*pcs, *chasers]}
    shape = prep.shape
    failed_move = str(prep.options["failed_move"])
    rounding = str(prep.options["falling_area"])
    contest_rule = str(prep.options["contest_rule"])
    cast = len(cast_of)
    states: dict[Chase, Fraction] = {}
    for checks, p in _combos(shape, tuple((k, c.body) for k, c in cast_of.items())):
        first = []
        for name, c in cast_of.items():
            r = checks[name]
            gain = r.achievement if (r.success or failed_move == "negative") else 0
            first.append((name, FLEEING if c.pc else PURSUING, gain, c.pc))
        start = Chase.start(first, target=prep.chase_goal)
        states[start] = states.get(start, Fraction(0)) + p
    got_away = Fraction(0)
    contests: dict[tuple[int, int], Fraction] = {}

    def contest(pair: tuple[int, int]) -> Fraction:
        if pair not in contests:
            contests[pair] = sum(
                (
                    x * y
                    for a, x in _check_dist(shape, pair[0])
                    for d, y in _check_dist(shape, pair[1])
                    if contest_wins(a, [d], rule=contest_rule)
                ),
                Fraction(0),
            )
        return contests[pair]

    for _ in range(CHASE_CUTS):
        if not states:
            break
        # the leader's route change: the event and the checks it asks for
        evented: dict[tuple[Chase, frozenset[str]], Fraction] = {}
        for chase, w in states.items():
            if chase.end_reason(cast=cast) is not None:
                got_away += w * escaped(chase, cast)
                continue
            active = [r.name for r in chase.active()]
            for number in range(1, 11):
                combos = (
                    _combos(shape, tuple((n, cast_of[n].body) for n in active))
                    if number in (2, 5, 6)
                    else [({}, Fraction(1))]
                )
                for checks, p in combos:
                    out = chase.apply_event(number, checks=checks, fall_roll=1, rounding=rounding)
                    slot = (out.chase, out.idle)
                    evented[slot] = evented.get(slot, Fraction(0)) + w * p / 10
        # everyone's movement check
        moved_states: dict[tuple[Chase, frozenset[str]], Fraction] = {}
        for (after, idle), w in evented.items():
            if after.end_reason(cast=cast) is not None:
                got_away += w * escaped(after, cast)
                continue
            movers = tuple(
                (n, after.move_success_value(cast_of[n].body))
                for n in after.order()
                if n not in idle
            )
            for moves, q in _combos(shape, movers):
                moved = after
                for n, _ in movers:
                    moved = moved.move_check(n, moves[n], failed_move=failed_move)
                slot = (moved, idle)
                moved_states[slot] = moved_states.get(slot, Fraction(0)) + w * q
        # acceleration, then obstruction
        sped: dict[Chase, Fraction] = {}
        for (moved, idle), w in moved_states.items():
            fast = tuple(
                (n, moved.move_success_value(cast_of[n].body)) for n in accelerators(moved, idle)
            )
            for accel, q in _combos(shape, fast):
                faster = moved
                for n, _ in fast:
                    faster = faster.accelerate(n, accel[n])
                for pushed, odds in _obstructed(faster, idle, cast_of, prep):
                    sped[pushed] = sped.get(pushed, Fraction(0)) + w * q * odds
        # the capture contest, then the end of the cut
        nxt: dict[Chase, Fraction] = {}
        for moved, w in sped.items():
            branches = [(moved, Fraction(1))]
            fleeing = [r for r in moved.active() if r.side == FLEEING]
            pursuing = [r for r in moved.active() if r.side == PURSUING]
            if fleeing and pursuing:
                front = max(fleeing, key=lambda r: r.position)
                hunter = max(pursuing, key=lambda r: r.position)
                if hunter.position >= front.position:
                    won = contest((cast_of[hunter.name].body, cast_of[front.name].body))
                    branches = [(moved.capture(won=True), won), (moved, 1 - won)]
            for state, share in branches:
                if share:
                    ended = state.end_cut()
                    nxt[ended] = nxt.get(ended, Fraction(0)) + w * share
        states = nxt
    if states:
        return None, {}  # did not finish within the safety limit: no exact answer
    return got_away, {"P(逃げ切る)": got_away}
