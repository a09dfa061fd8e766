"""Cut-action: the two ways to play :class:`~.play.Play`'s steps.

:func:`battle` draws every roll (one simulated battle, recorded in a
:class:`~saikoro.balance.Tally`); :func:`solve` follows every outcome of every roll with its
weight and adds up how the battles end, exactly. Both take the same steps, but for the
chase's rolls that an exact :class:`~.play.Play` makes earlier than a battle does (each
at a point where nothing before it reads the roll, so that the odds are the same).

The exact solver keeps, for each clock, the states reached with integer weights over one
denominator (rescaled when a way in brings another one): no :class:`~fractions.Fraction`
arithmetic in the loop, and every state is expanded once, after all the ways into it.
"""

from __future__ import annotations

import heapq
import random
from fractions import Fraction
from math import lcm
from typing import Generic, TypeVar

from saikoro.balance import Budget, Tally
from saikoro.dice import InternalError
from saikoro.systems._cutaction.damage import exhausted_at

from .play import C_CUT, CHASE, F_CUT, Go, Play, Roll, S

__all__ = ["STEP_COST", "Outcome", "battle", "play_one", "solve"]

K = TypeVar("K")

STEP_COST = 4
"""Budget units charged for each state the exact solver expands and each way out of it
(about 4 of the budget's steps of work each)."""


class Outcome:
    """One simulated battle: how it ended and what it cost (for the tally)."""

    __slots__ = (
        "chase",
        "chase_cuts",
        "cuts",
        "dealt",
        "end",
        "fallen",
        "hp",
        "hurt",
        "taken",
    )

    def __init__(self) -> None:
        self.end = ""
        self.cuts = 0
        self.chase_cuts = 0
        self.chase = False
        self.dealt = 0
        self.taken = 0
        self.fallen: list[int] = []
        self.hurt: dict[str, int] = {}
        self.hp: tuple[int, ...] = ()


def _cuts(s: S) -> int:
    """Cuts played when the battle ended in ``s`` (a cut's opening check has not played it)."""
    _, cut, part, *_ = s.clock
    opening = part == (C_CUT if s.clock[0] == CHASE else F_CUT)
    return cut - 1 if opening else cut


def play_one(play: Play, rng: random.Random) -> Outcome:
    """Play one battle, drawing each roll from ``rng``."""
    rand = rng.random
    out = Outcome()
    chars = play.chars
    pcs = play.prep.pcs
    s = play.start()
    fight_cuts = 0
    while True:
        st = play.step(s)
        if isinstance(st, Roll):
            after = st.then(s, st.table.sample(rand))
            tag = st.tag
            if tag is not None and after.hp is not s.hp:
                actor, attack = tag
                for c, (before, now) in enumerate(zip(s.hp, after.hp, strict=True)):
                    if now == before:
                        continue
                    loss = before - now
                    if c < pcs:
                        out.taken += loss
                        if actor >= pcs:
                            name = f"{chars[actor].key}:{attack}"
                            out.hurt[name] = out.hurt.get(name, 0) + loss
                    else:
                        if 0 <= actor < pcs:
                            out.dealt += loss
                        if not exhausted_at(before) and exhausted_at(now):
                            out.fallen.append(chars[c].index)
            if after.clock[0] == CHASE and s.clock[0] != CHASE:
                fight_cuts = _cuts(s)
            s = after
        elif isinstance(st, Go):
            if st.state.clock[0] == CHASE and s.clock[0] != CHASE:
                fight_cuts = _cuts(s)
            s = st.state
        else:
            out.end = st.end
            break
    out.hp = s.hp
    if s.clock[0] == CHASE:
        out.chase = True
        out.chase_cuts = _cuts(s)
        out.cuts = fight_cuts if play.prep.defeat else out.chase_cuts
    else:
        out.cuts = _cuts(s)
    return out


def battle(play: Play, rng: random.Random, tally: Tally, *, wins: frozenset[str]) -> Outcome:
    """Play one battle and record it in ``tally`` (``wins``: the ends that are wins)."""
    out = play_one(play, rng)
    prep = play.prep
    win = out.end in wins
    facts: dict[str, int] = {}
    if prep.chase is not None:
        fled = _fleeing_got_away(out.end, pcs_flee=prep.chase.pcs_flee)
        facts["escaped"] = int(fled)
        tally.sums["escaped"] += fled
        if prep.defeat:
            tally.sums["fight_won"] += out.chase
            tally.sums["chase_cuts"] += out.chase_cuts
    tally.fallen.extend(out.fallen)
    for name, loss in out.hurt.items():
        tally.actions[name] += loss
    tally.record(
        win=win,
        end=out.end,
        rounds=out.cuts,
        downed=[exhausted_at(hp) for hp in out.hp[: prep.pcs]],
        dealt=out.dealt,
        taken=out.taken,
        facts=facts,
    )
    return out


ESCAPES = frozenset(
    {
        "chase_goal",
        "chase_shaken",
        "chase_time_escaped",
        "chase_dead_end_escaped",
        "chase_quarry_goal",
        "chase_quarry_time",
        "chase_quarry_dead_end",
    }
)
"""The ends in which the fleeing side got away (PCs fleeing or not)."""


def _fleeing_got_away(end: str, *, pcs_flee: bool) -> bool:
    """Whether the chase's fleeing side got away (``escaped``): a lost fight before the
    chase counts as the fleeing PCs caught, or as the quarry gone."""
    if end in ("win", "wipe", "timeout"):
        return not pcs_flee
    return end in ESCAPES


# -- exact -----------------------------------------------------------------------------


class _Bucket(Generic[K]):
    """Integer weights over one denominator (the states of one clock, the ends)."""

    __slots__ = ("den", "weights")

    def __init__(self, den: int) -> None:
        self.den = den
        self.weights: dict[K, int] = {}

    def add(self, s: K, w: int, den: int) -> None:
        if den != self.den:
            if self.den % den == 0:
                w *= self.den // den
                weights = self.weights
                weights[s] = weights.get(s, 0) + w
                return
            common = lcm(den, self.den)
            if common != self.den:
                scale = common // self.den
                self.weights = {k: v * scale for k, v in self.weights.items()}
                self.den = common
            w *= common // den
        weights = self.weights
        weights[s] = weights.get(s, 0) + w


def solve(play: Play, budget: Budget) -> dict[str, Fraction]:
    """P(each end) of a battle of ``play``, exactly (charging ``budget``).

    Raises:
        OutOfBudget: the battle has too many states.
    """
    buckets: dict[tuple[int, ...], _Bucket[S]] = {}
    heap: list[tuple[int, ...]] = []
    ends = _Bucket[str](1)

    def push(s: S, w: int, den: int) -> None:
        bucket = buckets.get(s.clock)
        if bucket is None:
            bucket = buckets[s.clock] = _Bucket[S](den)
            heapq.heappush(heap, s.clock)
        bucket.add(s, w, den)

    push(play.start(), 1, 1)
    while heap:
        bucket = buckets.pop(heapq.heappop(heap))
        den = bucket.den
        budget.spend(STEP_COST * len(bucket.weights))
        for first, w in bucket.weights.items():
            s = first
            st = play.step(s)
            while isinstance(st, Go):  # no roll: nothing to merge before the next one
                s = st.state
                st = play.step(s)
            if isinstance(st, Roll):
                table = st.table
                budget.spend(STEP_COST * len(table.weights))
                d = den * table.total
                for o, q in zip(table.outcomes, table.weights, strict=True):
                    push(st.then(s, o), w * q, d)
            else:
                ends.add(st.end, w, den)
    out = {end: Fraction(w, ends.den) for end, w in ends.weights.items()}
    if sum(out.values()) != 1:
        raise InternalError("cutaction: the exact battle's ends do not add up to 1")
    return out
