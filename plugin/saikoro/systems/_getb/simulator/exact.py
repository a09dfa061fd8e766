"""GETB: a whole fight of one PC against one enemy, solved exactly.

The battle of :mod:`.play` is followed through every outcome of every draw: from each
state where an attack's checks are to be rolled, each final damage (the exact
distribution of :func:`~saikoro.systems._getb.final.final_damage_odds`, the ``GF``
command's odds, for that attack and guard) leads to the state the battle plays on to.
Outcomes that leave the same state (HP 0 or less alike, the same OP) are merged, and
states are solved once (memoised), so the work is the number of states times the
outcomes of their attacks; it is charged to the one :class:`~saikoro.balance.Budget`.

Every probability of a final damage is a whole number over a power of ten (the dice are
d10), so the values are kept as integers over powers of ten and never reduced on the way.

Chains too long for the engine to follow (about 10^-12 of an attack) are known only by
the least damage they deal (:func:`~saikoro.systems._getb.final.truncated_floor`): where
that downs the defender and leaves the attacker's OP the same whatever it is, they are
exact; otherwise the fight is not solved (``None``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from saikoro.balance import Budget
from saikoro.dice import SaikoroError
from saikoro.systems._getb.damage import CheckSpec, op_recovery
from saikoro.systems._getb.final import final_damage_odds, truncated_floor
from saikoro.systems._getb.states import gain_op

from .play import HIT, State, advance, hit, start
from .units import Prepared

__all__ = ["BRANCH_STEPS", "DIGITS_PER_STEP", "STATE_STEPS", "exact"]

STATE_STEPS = 240
"""Budget steps charged for each state played on to its next draw (a turn or more)."""
BRANCH_STEPS = 24
"""Budget steps charged for each outcome followed from a state (a copy and a lookup)."""
DIGITS_PER_STEP = 32
"""Digits of an outcome's value weighed in for one budget step (the arithmetic on them)."""


class _NotExact(SaikoroError):  # noqa: N818 - a signal inside the solver
    """The fight has outcomes the solver cannot follow exactly (caught by :func:`exact`:
    it never reaches a user)."""


Values = tuple[int, int, int, int]
"""P(win), P(wipe), P(time-out) from a state as integers over ``10 ** exponent`` (last)."""

_ENDS: dict[str, Values] = {"win": (1, 0, 0, 0), "wipe": (0, 1, 0, 0), "timeout": (0, 0, 1, 0)}


def _exponent(p: Fraction) -> int:
    """The least ``e`` with ``p`` a whole number over ``10 ** e`` (the dice are d10)."""
    d = p.denominator
    twos = (d & -d).bit_length() - 1
    fives = 0
    while d % 5 == 0:
        d //= 5
        fives += 1
    if d >> twos != 1:  # pragma: no cover - every weight of a d10 check is over a power of ten
        raise _NotExact
    return max(twos, fives)


@lru_cache(maxsize=256)
def _table(
    attack: CheckSpec, guard: CheckSpec | None, tie: str, damage_fails: bool, guard_fails: bool
) -> tuple[tuple[tuple[int, int], ...], int, int, int]:
    """The final damage as (damage, weight) over ``10 ** exponent``, the weight of the
    chains too long to follow, the least damage they deal, and the exponent."""
    odds = final_damage_odds(
        attack,
        guard,
        tie=tie,
        damage_fumble_fails=damage_fails,
        guard_fumble_fails=guard_fails,
    )
    dist = [(d, p) for d, p in odds.distribution.items() if isinstance(d, int)]
    exponent = max(_exponent(p) for p in [*(p for _, p in dist), odds.truncated] if p)
    scale = 10**exponent
    weights = tuple((d, int(p * scale)) for d, p in dist)
    floor = truncated_floor(attack, guard, guard_fumble_fails=guard_fails)
    return weights, int(odds.truncated * scale), floor, exponent


@lru_cache(maxsize=4096)
def _groups(
    table: tuple[tuple[tuple[int, int], ...], int, int, int],
    hp: int,
    op: int,
    max_op: int,
    rounding: str | None,
) -> tuple[tuple[tuple[int, int], ...], int] | None:
    """The outcomes on a defender at ``hp`` merged by what they leave (its HP, the
    attacker's OP): (weight, a damage of the group); ``None`` when the cut-off chains'
    effect is not known. ``rounding``: the OP recovery's (``None``: not a melee attack)."""
    weights, truncated, floor, exponent = table

    def effect(damage: int) -> tuple[int, int]:
        left = max(0, hp - damage)
        if rounding is None or damage <= 0:
            return left, op
        return left, gain_op(op, op_recovery(damage, rounding=rounding), max_op)

    groups: dict[tuple[int, int], list[int]] = {}
    for damage, w in weights:
        got = groups.setdefault(effect(damage), [0, damage])
        got[0] += w
    if truncated:
        key = effect(floor)
        if key[0] > 0 or (rounding is not None and key[1] < max_op):
            return None
        got = groups.setdefault(key, [0, floor])
        got[0] += truncated
    return tuple((w, d) for w, d in groups.values()), exponent


@dataclass
class _Frame:
    """A state waiting for its outcomes' values: the outcomes (weight, damage), the
    exponent of their weights and the values solved so far (in the outcomes' order)."""

    key: tuple[object, ...]
    state: State
    groups: tuple[tuple[int, int], ...]
    exponent: int
    parts: list[tuple[int, Values]] = field(default_factory=list)


class _Solver:
    """Depth first over the states, on a stack of its own (a fight may follow hundreds
    of draws in a row, more than Python's call stack would hold)."""

    def __init__(self, prep: Prepared, budget: Budget) -> None:
        self.prep = prep
        self.budget = budget
        self.memo: dict[tuple[object, ...], Values] = {}
        self.stack: list[_Frame] = []

    def solve(self, root: State) -> Values:
        found = self.enter(root)
        while found is None:
            top = self.stack[-1]
            if len(top.parts) < len(top.groups):
                child = top.state.copy()
                hit(self.prep, child, top.groups[len(top.parts)][1])
                value = self.enter(child)
            else:
                self.stack.pop()
                value = _combine(top, self.budget)
                self.memo[top.key] = value
                if not self.stack:
                    found = value
                    break
            if value is not None:
                parent = self.stack[-1]
                parent.parts.append((parent.groups[len(parent.parts)][0], value))
        return found

    def enter(self, s: State) -> Values | None:
        """``s`` (not yet played on): its value when known at once (solved before, or the
        battle is over), else ``None`` with a frame for its outcomes pushed."""
        key = s.key()
        found = self.memo.get(key)
        if found is not None:
            return found
        self.budget.spend(STATE_STEPS)
        event = advance(self.prep, s)
        if event is None:
            found = _ENDS[str(s.end)]
            self.memo[key] = found
            return found
        if event != HIT:
            raise _NotExact  # a random target: never with one character a side
        groups, exponent = self.outcomes(s)
        self.budget.spend(BRANCH_STEPS * len(groups))
        self.stack.append(_Frame(key, s, groups, exponent))
        return None

    def outcomes(self, s: State) -> tuple[tuple[tuple[int, int], ...], int]:
        """``s``, waiting for an attack's checks: its outcomes merged by what they leave."""
        prep = self.prep
        i, d = s.actor, s.defender
        attacker = prep.units[i]
        guard = prep.units[d].guard if s.guarded else None
        table = _table(
            prep.specs[(i, s.move, d)], guard, prep.tie, prep.damage_fails, prep.guard_fails
        )
        melee = attacker.moves[s.move].melee
        got = _groups(table, s.hp[d], s.op[i], attacker.max_op, prep.op_rounding if melee else None)
        if got is None:
            raise _NotExact
        return got


def _combine(frame: _Frame, budget: Budget) -> Values:
    """A state's value from its outcomes' (each weighted, over a common power of ten),
    charged by the size of the numbers: a long fight's values have thousands of digits."""
    top = max(v[3] for _, v in frame.parts)
    budget.spend(len(frame.parts) * top // DIGITS_PER_STEP)
    win = wipe = timeout = 0
    for weight, (w, x, t, e) in frame.parts:
        shift = 10 ** (top - e)
        win += weight * w * shift
        wipe += weight * x * shift
        timeout += weight * t * shift
    return win, wipe, timeout, top + frame.exponent


def exact(prep: Prepared, budget: Budget) -> tuple[Fraction | None, dict[str, Fraction]]:
    """P(win) of a fight of one PC against one enemy, and P(wipe), P(time-out).

    ``None`` for any other encounter; :class:`~saikoro.balance.OutOfBudget` when the fight
    needs more work than ``budget`` allows.
    """
    if len(prep.pcs) != 1 or len(prep.enemies) != 1:
        return None, {}
    try:
        win, wipe, timeout, exponent = _Solver(prep, budget).solve(start(prep))
    except _NotExact:
        return None, {}
    scale = 10**exponent
    return Fraction(win, scale), {
        "P(全滅)": Fraction(wipe, scale),
        "P(時間切れ)": Fraction(timeout, scale),
    }
