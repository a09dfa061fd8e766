"""The one contract between a system's rules and the balance engine: a step machine.

A system writes its rules as :class:`Rules` (the way icepool's user writes transitions):
a start state built from the prepared encounter, and a :meth:`~Rules.step` that, for a
state, either ends the battle (a :class:`~saikoro.balance.Battle`, what a tally counts
and a side mission reads) or asks for a :class:`Roll`: dice (a :class:`~saikoro.dice.Dist`)
and the state that follows each of their outcomes. :meth:`~Rules.canonical` may name states
that are the same for the rest of the battle by one key (two identical PCs swapped...).

This module owns everything played on that contract, once for every system:

* :class:`Sampler` (:func:`play`) samples battles from a ``random.Random`` (one
  ``rng.random()`` per roll, as :meth:`Dist.draw <saikoro.dice.Dist.draw>` maps it);
* :func:`solve` is the exact solver: it explores every state reachable from the start,
  each canonical state stepped once (memoised), charging :attr:`Rules.work` steps of the
  :class:`~saikoro.balance.Budget` per outcome enumerated, and returns the exact
  distribution of the battle's ends, a :class:`~saikoro.dice.Dist` of ``Battle``
  (probabilities are exact fractions; never a float).

>>> from saikoro.balance import Battle
>>> class FirstSix(Rules[int]):  # roll a die until a 6, at most three times
...     def start(self) -> int:
...         return 0
...     def step(self, tries: int) -> Roll[int] | Battle:
...         if tries < 0 or tries == 3:
...             return Battle(win=tries < 0, rounds=abs(tries))
...         return Roll(SIX, lambda six: -(tries + 1) if six else tries + 1)
>>> SIX = Dist({True: 1, False: 5})
>>> solve(FirstSix(), Budget()).probability_where(lambda b: b.win)
Fraction(91, 216)
>>> import random
>>> play(FirstSix(), random.Random(1)).rounds in (1, 2, 3)
True
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from math import gcd
from typing import Any, ClassVar, Generic, TypeVar

from saikoro.dice import Dist, InternalError, SaikoroError

from ._budget import Budget
from ._side import Battle

__all__ = ["MAX_STEPS", "MEMO", "Cycle", "Roll", "Rules", "Sampler", "play", "solve"]

S = TypeVar("S")
"""A state of a step machine (anything; its canonical form must be hashable)."""

MAX_STEPS = 1_000_000
"""The most steps one sampled battle may take: more is a machine that never ends (a bug)."""


@dataclass(slots=True)
class Roll(Generic[S]):
    """What a step rolls: ``dice`` and, for each of their outcomes, the state after (not
    frozen: a sampled battle makes one a step, and a frozen one costs thrice as much)."""

    dice: Dist[Any]
    then: Callable[[Any], S]


class Cycle(SaikoroError):  # noqa: N818 - a signal between the solver and its callers
    """A state leads back to itself: the solver handles battles that always move on
    (a round limit, a gauge that only falls), not loops."""


class Rules(Generic[S]):
    """A system's rules for one prepared encounter, as a step machine."""

    work: ClassVar[int] = 1
    """Budget steps the exact solver charges for each outcome it follows and each end: a
    system whose step plays much (a whole turn) charges more, so that a budget bounds the
    time alike in every system."""
    repeats: ClassVar[bool] = True
    """Whether states come back from battle to battle, so that a :class:`Sampler` tries
    remembering them (``False``: they carry running totals; the sampler skips the trial)."""

    def start(self) -> S:
        """The state before the first roll."""
        raise NotImplementedError

    def step(self, state: S) -> Roll[S] | Battle:
        """The battle's end at ``state``, or the dice rolled there and where each leads.

        The same for the same state (states are hashable values): the sampler remembers it.
        """
        raise NotImplementedError

    def canonical(self, state: S) -> Hashable:
        """One key for all states that are the same for the rest of the battle (what
        the exact solver memoises on; default: the state itself, which must be hashable).
        States with one key must lead to the same ends: the ``Battle`` included."""
        return state


MEMO = 200_000
"""The most states a :class:`Sampler` remembers (their ends, or where each roll leads)."""

TRIAL = 20_000
"""States a :class:`Sampler` remembers before it judges whether remembering pays (it
drops the memo when fewer steps than that were answered from it)."""


Node = tuple[list[int], int, list[Any], Callable[[Any], S], list[S | None]]
"""A roll the sampler remembers: the weights laid end to end (the last one the whole
denominator), the denominator, the outcomes, the rules' next state, the states found."""


def _node(r: Roll[S]) -> Node[S]:
    ends, values = r.dice.laid()
    return (ends, r.dice.denominator, values, r.then, [None] * len(values))


class Sampler(Generic[S]):
    """Battles of one encounter's rules, sampled. Each state's step is remembered (its end,
    or its roll and the states its outcomes have led to), up to :data:`MEMO` states, so
    that a battle through familiar states only draws; where states seldom repeat (a
    battle's running totals in them) the memo is dropped once :data:`TRIAL` states were
    new more often than not, and every roll steps the rules."""

    def __init__(self, rules: Rules[S], memo: int = MEMO) -> None:
        self.rules = rules
        self.room = memo if rules.repeats else 0
        self.memo: dict[Any, Battle | Node[S]] = {}
        self.steps = 0
        """Rolls drawn in the battles played (each new state one of them)."""

    def play(self, rng: random.Random) -> Battle:
        """One battle, each roll drawn from ``rng`` (one ``rng.random()`` a roll).

        Raises:
            InternalError: the battle takes more than :data:`MAX_STEPS` rolls.
        """
        if not self.room:
            return self._plain(rng)
        step = self.rules.step
        memo = self.memo
        get = memo.get
        draw = rng.random
        state = self.rules.start()
        for n in range(MAX_STEPS):
            node = get(state)
            if node is None:
                r = step(state)
                if isinstance(r, Battle):
                    node = r
                elif len(memo) < self.room:
                    node = _node(r)
                else:
                    state = r.then(r.dice.draw(draw()))
                    continue
                if len(memo) < self.room:
                    memo[state] = node
                if len(memo) == TRIAL and self.steps < 2 * TRIAL:  # states seldom repeat
                    self.room = 0
                    memo.clear()
            if node.__class__ is not tuple:
                self.steps += n
                return node  # type: ignore[return-value]
            ends, den, values, then, nexts = node
            i = bisect_right(ends, int(draw() * den))
            nxt = nexts[i]
            if nxt is None:
                nxt = nexts[i] = then(values[i])
            state = nxt
        raise InternalError(f"a battle took more than {MAX_STEPS} rolls")

    def _plain(self, rng: random.Random) -> Battle:
        step = self.rules.step
        draw = rng.random
        state = self.rules.start()
        for _ in range(MAX_STEPS):
            r = step(state)
            if r.__class__ is not Roll:
                return r  # type: ignore[return-value]
            ends, values = r.dice.laid()  # Dist.draw, without its call (ends[-1]: the denominator)
            state = r.then(values[bisect_right(ends, int(draw() * ends[-1]))])
        raise InternalError(f"a battle took more than {MAX_STEPS} rolls")


def play(rules: Rules[S], rng: random.Random) -> Battle:
    """One battle of ``rules``, each roll drawn from ``rng`` (see :class:`Sampler`, which
    plays many).

    Raises:
        InternalError: the battle takes more than :data:`MAX_STEPS` rolls.
    """
    return Sampler(rules, 0).play(rng)


Explored = Battle | tuple[int, list[tuple[int, int]]]
"""A state explored: its end, or the denominator of its roll and (next number, weight)
pairs (each canonical state is numbered once, so that the graph hashes integers)."""


def _explore(rules: Rules[S], budget: Budget) -> tuple[list[Explored], list[int]]:
    """Every state reachable from the start (number 0), stepped once per canonical key;
    (each number's node, the numbers in an order where every state comes after those it
    leads to)."""
    same = type(rules).canonical is Rules.canonical  # states are their own keys
    work = rules.work
    canon = rules.canonical
    step = rules.step
    first = rules.start()
    numbers: dict[Hashable, int] = {first if same else canon(first): 0}
    graph: list[Explored | None] = [None]
    waiting: dict[int, S] = {0: first}  # found, not yet stepped
    done: list[bool] = [False]
    order: list[int] = []
    stack: list[tuple[int, Any]] = [(0, None)]
    while stack:
        key, kids = stack[-1]
        if kids is None:
            r = step(waiting.pop(key))
            if isinstance(r, Roll):
                budget.spend(len(r.dice) * work)
                weights: dict[int, int] = {}
                then = r.then
                for x, w in r.dice.items():
                    nxt = then(x)
                    known = nxt if same else canon(nxt)
                    k = numbers.get(known)
                    if k is None:
                        k = numbers[known] = len(graph)
                        graph.append(None)
                        done.append(False)
                        waiting[k] = nxt
                    weights[k] = weights.get(k, 0) + w
                graph[key] = (r.dice.denominator, list(weights.items()))
                kids = iter(weights)
            else:
                budget.spend(work)
                graph[key] = r
                kids = iter(())
            stack[-1] = (key, kids)
        for k in kids:
            if done[k]:
                continue
            if graph[k] is not None:  # stepped but not done: on the path to here
                raise Cycle
            stack.append((k, None))
            break
        else:
            stack.pop()
            done[key] = True
            order.append(key)
    return graph, order  # type: ignore[return-value]


def solve(rules: Rules[S], budget: Budget) -> Dist[Battle]:
    """The exact distribution of the battle's ends.

    Raises:
        OutOfBudget: the states take more than ``budget``.
        Cycle: a state leads back to itself.
    """
    graph, order = _explore(rules, budget)
    # each state's probability as an unreduced (numerator, denominator) pair: states met at
    # the same depth share a denominator, and one gcd per state keeps the numbers small
    mass: dict[int, tuple[int, int]] = {0: (1, 1)}
    ends: dict[Battle, Fraction] = {}
    for key in reversed(order):
        top, bottom = mass.pop(key)
        node = graph[key]
        if isinstance(node, Battle):
            ends[node] = ends.get(node, Fraction(0)) + Fraction(top, bottom)
            continue
        g = gcd(top, bottom)
        den, kids = node
        top, bottom = top // g, bottom // g * den
        for k, w in kids:
            have = mass.get(k)
            if have is None:
                mass[k] = (top * w, bottom)
            elif have[1] == bottom:
                mass[k] = (have[0] + top * w, bottom)
            else:  # over the least common denominator: d10 odds have 40 digits a roll
                g = gcd(have[1], bottom)
                mass[k] = (
                    have[0] * (bottom // g) + top * w * (have[1] // g),
                    have[1] // g * bottom,
                )
    return Dist.from_fractions(ends)
