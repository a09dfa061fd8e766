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
  each canonical state stepped once (memoised), charging one step of the
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
from typing import Any, Generic, TypeVar

from saikoro.dice import Dist, InternalError

from ._budget import Budget
from ._side import Battle

__all__ = ["MAX_STEPS", "MEMO", "Cycle", "Roll", "Rules", "Sampler", "play", "solve"]

S = TypeVar("S")
"""A state of a step machine (anything; its canonical form must be hashable)."""

MAX_STEPS = 1_000_000
"""The most steps one sampled battle may take: more is a machine that never ends (a bug)."""


@dataclass(frozen=True, slots=True)
class Roll(Generic[S]):
    """What a step rolls: ``dice`` and, for each of their outcomes, the state after."""

    dice: Dist[Any]
    then: Callable[[Any], S]


class Cycle(Exception):  # noqa: N818 - a signal between the solver and its callers
    """A state leads back to itself: the solver handles battles that always move on
    (a round limit, a gauge that only falls), not loops."""


class Rules(Generic[S]):
    """A system's rules for one prepared encounter, as a step machine."""

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


class Sampler(Generic[S]):
    """Battles of one encounter's rules, sampled; the states met twice are remembered
    (bounded by :data:`MEMO`), so that a battle through familiar states only draws."""

    def __init__(self, rules: Rules[S], memo: int = MEMO) -> None:
        self.rules = rules
        self.room = memo
        self.memo: dict[Any, Battle | tuple[list[int], int, list[S]]] = {}
        self.seen: set[Any] = set()

    def play(self, rng: random.Random) -> Battle:
        """One battle, each roll drawn from ``rng`` (one ``rng.random()`` a roll).

        Raises:
            InternalError: the battle takes more than :data:`MAX_STEPS` rolls.
        """
        step = self.rules.step
        memo = self.memo
        draw = rng.random
        state = self.rules.start()
        for _ in range(MAX_STEPS):
            node = memo.get(state)
            if node.__class__ is tuple:  # a roll met before: only draw
                ends, den, nexts = node
                state = nexts[bisect_right(ends, int(draw() * den))]
                continue
            if node is not None:
                return node  # type: ignore[return-value]
            r = step(state)
            if r.__class__ is not Roll:
                if len(memo) < self.room:
                    memo[state] = r  # type: ignore[assignment]
                return r  # type: ignore[return-value]
            dice = r.dice
            if state not in self.seen or len(memo) >= self.room:
                if len(self.seen) < self.room:
                    self.seen.add(state)
                state = r.then(dice.draw(draw()))
                continue
            then = r.then
            ends, running, nexts = [], 0, []
            for x, w in dice.items():
                running += w
                ends.append(running)
                nexts.append(then(x))
            ends[-1] = dice.denominator  # truncated mass falls on the last outcome
            memo[state] = (ends, dice.denominator, nexts)
            state = nexts[bisect_right(ends, int(draw() * dice.denominator))]
        raise InternalError(f"a battle took more than {MAX_STEPS} rolls")


def play(rules: Rules[S], rng: random.Random) -> Battle:
    """One battle of ``rules``, each roll drawn from ``rng`` (see :class:`Sampler`, which
    plays many).

    Raises:
        InternalError: the battle takes more than :data:`MAX_STEPS` rolls.
    """
    return Sampler(rules, 0).play(rng)


Node = Battle | tuple[int, list[tuple[Hashable, int]]]
"""A state explored: its end, or the denominator of its roll and (next key, weight) pairs."""


def _explore(
    rules: Rules[S], budget: Budget
) -> tuple[Hashable, dict[Hashable, Node], list[Hashable]]:
    """Every state reachable from the start, stepped once per key; (the start's key, each
    key's node, the keys in an order where every state comes after those it leads to)."""
    canon = rules.canonical
    step = rules.step
    first = rules.start()
    root = canon(first)
    graph: dict[Hashable, Node] = {}
    waiting: dict[Hashable, S] = {root: first}  # found, not yet stepped
    done: set[Hashable] = set()
    order: list[Hashable] = []
    stack: list[tuple[Hashable, Any]] = [(root, None)]
    while stack:
        key, kids = stack[-1]
        if kids is None:
            r = step(waiting.pop(key))
            if isinstance(r, Roll):
                budget.spend(len(r.dice))
                weights: dict[Hashable, int] = {}
                for x, w in r.dice.items():
                    nxt = r.then(x)
                    k = canon(nxt)
                    weights[k] = weights.get(k, 0) + w
                    if k not in graph and k not in waiting:
                        waiting[k] = nxt
                graph[key] = (r.dice.denominator, list(weights.items()))
                kids = iter(weights)
            else:
                budget.spend(1)
                graph[key] = r
                kids = iter(())
            stack[-1] = (key, kids)
        for k in kids:
            if k in done:
                continue
            if k in graph:  # stepped but not done: on the path to here
                raise Cycle
            stack.append((k, None))
            break
        else:
            stack.pop()
            done.add(key)
            order.append(key)
    return root, graph, order


def solve(rules: Rules[S], budget: Budget) -> Dist[Battle]:
    """The exact distribution of the battle's ends.

    Raises:
        OutOfBudget: the states take more than ``budget``.
        Cycle: a state leads back to itself.
    """
    root, graph, order = _explore(rules, budget)
    mass: dict[Hashable, Fraction] = {root: Fraction(1)}
    ends: dict[Battle, Fraction] = {}
    for key in reversed(order):
        m = mass.pop(key)
        node = graph.pop(key)
        if isinstance(node, Battle):
            ends[node] = ends.get(node, Fraction(0)) + m
            continue
        den, kids = node
        top, bottom = m.numerator, m.denominator * den
        for k, w in kids:
            p = Fraction(top * w, bottom)
            mass[k] = mass[k] + p if k in mass else p
    return Dist.from_fractions(ends)
