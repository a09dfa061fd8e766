"""Cut-action: a chase with no fight before it and few runners, solved exactly.

The states are :class:`~saikoro.systems._cutaction.chase.Chase` values; each cut branches
over everyone's movement check (made together, first), the event table, the checks the
event asks for, the accelerations, the obstructions
(:func:`~saikoro.systems._cutaction.checks.obstruct_dist`) and the capture contest, exactly
as :func:`.chase.run` plays them.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

from saikoro.systems._cutaction.chase import FLEEING, PURSUING, Chase
from saikoro.systems._cutaction.checks import CheckResult, contest_wins, obstruct_dist

from .chase import (
    CHASE_CUTS,
    accelerators,
    capture_contest,
    escaped,
    key,
    obstructions,
    runners,
)
from .common import Char, Prepared, chars

__all__ = ["EXACT_RUNNERS", "exact"]

EXACT_RUNNERS = 2
"""Chases with at most this many runners (and no fight before) are solved exactly
(two runners take some seconds; each more multiplies the states by about a hundred)."""


_Slot = tuple[Chase, frozenset[str], str]
"""A chase within a cut, who cannot act this cut, and the leader after the movement checks."""


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
    chase: Chase, idle: frozenset[str], leader: str, cast_of: dict[str, Char], prep: Prepared
) -> list[tuple[Chase, Fraction]]:
    """Every result of this cut's obstructions (:func:`.chase.obstructions`), in order."""
    out = [(chase, Fraction(1))]
    for n, target in obstructions(chase, idle, leader):
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
    first = [(name, FLEEING if c.pc else PURSUING, 0, c.pc) for name, c in cast_of.items()]
    states: dict[Chase, Fraction] = {Chase.start(first, target=prep.chase_goal): Fraction(1)}
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

    def over(chase: Chase, w: Fraction) -> bool:
        """Count ``w`` as escaped or not when ``chase`` has ended."""
        nonlocal got_away
        if chase.end_reason(cast=cast) is None:
            return False
        got_away += w * escaped(chase, cast)
        return True

    for _ in range(CHASE_CUTS):
        if not states:
            break
        # the initiative timing: everyone's movement check, together (a fumble cannot act)
        moved: dict[_Slot, Fraction] = {}
        for chase, w in states.items():
            if over(chase, w):
                continue
            movers = tuple((n, chase.move_success_value(cast_of[n].body)) for n in chase.order())
            for moves, q in _combos(shape, movers):
                after = chase.move_checks(moves, failed_move=failed_move)
                if over(after, w * q):
                    continue
                fumbled = frozenset(n for n, r in moves.items() if r.fumble)
                slot = (after, fumbled, after.order()[0])
                moved[slot] = moved.get(slot, Fraction(0)) + w * q
        # the leader's route change: the event and the checks it asks for
        evented: dict[_Slot, Fraction] = {}
        for (chase, fumbled, leader), w in moved.items():
            if leader in fumbled:
                evented[(chase, fumbled, leader)] = w + evented.get(
                    (chase, fumbled, leader), Fraction(0)
                )
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
                    if over(out.chase, w * p / 10):
                        continue
                    slot = (out.chase, fumbled | out.idle, leader)
                    evented[slot] = evented.get(slot, Fraction(0)) + w * p / 10
        # acceleration, then obstruction
        sped: dict[tuple[Chase, frozenset[str]], Fraction] = {}
        for (moved_chase, idle, leader), w in evented.items():
            fast = tuple(
                (n, moved_chase.move_success_value(cast_of[n].body))
                for n in accelerators(moved_chase, idle)
            )
            for accel, q in _combos(shape, fast):
                faster = moved_chase
                for n, _ in fast:
                    faster = faster.accelerate(n, accel[n])
                if over(faster, w * q):
                    continue
                for pushed, odds in _obstructed(faster, idle, leader, cast_of, prep):
                    sped[(pushed, idle)] = sped.get((pushed, idle), Fraction(0)) + w * q * odds
        # the capture contest, then the end of the cut
        nxt: dict[Chase, Fraction] = {}
        for (moved_chase, idle), w in sped.items():
            branches = [(moved_chase, Fraction(1))]
            hunt = capture_contest(moved_chase, idle)
            if hunt is not None:
                won = contest((cast_of[hunt[0]].body, cast_of[hunt[1]].body))
                branches = [(moved_chase.capture(won=True), won), (moved_chase, 1 - won)]
            for state, share in branches:
                if share:
                    ended = state.end_cut()
                    nxt[ended] = nxt.get(ended, Fraction(0)) + w * share
        states = nxt
    if states:
        return None, {}  # did not finish within the safety limit: no exact answer
    return got_away, {"P(逃げ切る)": got_away}
