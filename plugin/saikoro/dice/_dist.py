"""Exact, immutable distributions with integer weights.

A :class:`Dist` maps outcomes (ints, strings, any hashable value) to non-negative integer
weights over one common denominator. Probabilities are ``fractions.Fraction`` and never floats.
When an unbounded process (an exploding die, a reroll) is cut off, the weights sum to
less than the denominator and :attr:`Dist.truncated` says how much mass was dropped.

>>> d = Dist.die(6)
>>> d.probability(3)
Fraction(1, 6)
>>> two = d.sum_of(2)
>>> two.probability(7)
Fraction(1, 6)
>>> two.at_least(10)
Fraction(1, 6)
>>> two.mean()
Fraction(7, 1)
>>> Dist.die(4).map(lambda v: v // 2).probabilities()
{0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from math import gcd
from typing import Generic, TypeVar

from ._errors import DistributionError

__all__ = ["Dist", "Outcome"]

Outcome = int | str
T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)


def _lcm(a: int, b: int) -> int:
    return a // gcd(a, b) * b


class Dist(Generic[T]):
    """An immutable distribution: outcome -> integer weight, over ``denominator``.

    ``sum(weights) <= denominator``; the difference is truncated mass.
    Weights are kept reduced (their gcd with the denominator is 1) so that equal
    distributions compare equal.
    """

    __slots__ = ("_cumulative", "_denominator", "_weights")

    _weights: dict[T, int]
    _denominator: int
    _cumulative: tuple[list[int], list[T]] | None

    def __init__(self, weights: Mapping[T, int], denominator: int | None = None) -> None:
        clean = {k: int(w) for k, w in weights.items() if w}
        if any(w < 0 for w in clean.values()):
            raise DistributionError("weights must be non-negative")
        total = sum(clean.values())
        if denominator is None:
            denominator = total
        if denominator <= 0:
            raise DistributionError("a distribution needs a positive denominator")
        if total > denominator:
            raise DistributionError("weights exceed the denominator")
        g = denominator
        for w in clean.values():
            g = gcd(g, w)
            if g == 1:
                break
        if g > 1:
            clean = {k: w // g for k, w in clean.items()}
            denominator //= g
        self._weights = dict(sorted(clean.items(), key=_sort_key))
        self._denominator = denominator
        self._cumulative = None

    # -- constructors -------------------------------------------------------------

    @classmethod
    def constant(cls, value: T) -> Dist[T]:
        """The distribution that is always ``value``.

        >>> Dist.constant(3).probabilities()
        {3: Fraction(1, 1)}
        """
        return cls({value: 1}, 1)

    @classmethod
    def die(cls, sides: int) -> Dist[int]:
        """A fair die numbered 1..sides.

        >>> Dist.die(3).probabilities()
        {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}
        """
        if sides < 1:
            raise DistributionError("a die needs at least one side")
        return Dist(dict.fromkeys(range(1, sides + 1), 1), sides)

    @classmethod
    def uniform(cls, values: Iterable[T]) -> Dist[T]:
        """Each of ``values`` (with repetition counting) equally likely.

        >>> Dist.uniform(["a", "b", "b"]).probability("b")
        Fraction(2, 3)
        """
        weights: dict[T, int] = {}
        n = 0
        for v in values:
            weights[v] = weights.get(v, 0) + 1
            n += 1
        return cls(weights, n)

    @classmethod
    def from_fractions(cls, probabilities: Mapping[T, Fraction]) -> Dist[T]:
        """Build from exact probabilities (their sum may be below 1: truncation).

        >>> Dist.from_fractions({1: Fraction(1, 2), 2: Fraction(1, 4)}).truncated
        Fraction(1, 4)
        """
        denominator = 1
        for p in probabilities.values():
            denominator = _lcm(denominator, Fraction(p).denominator)
        weights = {k: int(Fraction(p) * denominator) for k, p in probabilities.items()}
        return cls(weights, denominator)

    @classmethod
    def mix(cls, parts: Iterable[tuple[Fraction, Dist[T]]]) -> Dist[T]:
        """A mixture: with probability ``p`` draw from the paired distribution.

        The probabilities may sum to less than one; the rest becomes truncated mass.

        >>> m = Dist.mix([(Fraction(1, 2), Dist.constant(0)), (Fraction(1, 2), Dist.die(2))])
        >>> m.probabilities()
        {0: Fraction(1, 2), 1: Fraction(1, 4), 2: Fraction(1, 4)}
        """
        items = [(Fraction(p), d) for p, d in parts if p]
        denominator = 1
        for p, d in items:
            denominator = _lcm(denominator, p.denominator * d._denominator)
        weights: dict[T, int] = {}
        for p, d in items:
            scale = p.numerator * (denominator // (p.denominator * d._denominator))
            for k, w in d._weights.items():
                weights[k] = weights.get(k, 0) + w * scale
        return cls(weights, denominator)

    # -- reading ------------------------------------------------------------------

    @property
    def denominator(self) -> int:
        """The common denominator of all weights."""
        return self._denominator

    @property
    def total_weight(self) -> int:
        """Sum of the weights (equal to the denominator unless truncated)."""
        return sum(self._weights.values())

    @property
    def truncated(self) -> Fraction:
        """Probability mass dropped by truncation (0 for a complete distribution)."""
        return Fraction(self._denominator - self.total_weight, self._denominator)

    def weights(self) -> dict[T, int]:
        """A copy of the outcome -> weight mapping, outcomes sorted."""
        return dict(self._weights)

    def items(self) -> Iterator[tuple[T, int]]:
        """Iterate ``(outcome, weight)`` in sorted outcome order."""
        return iter(self._weights.items())

    def outcomes(self) -> list[T]:
        """The outcomes with non-zero weight, sorted."""
        return list(self._weights)

    def weight(self, outcome: T) -> int:
        """The integer weight of ``outcome`` (0 if impossible)."""
        return self._weights.get(outcome, 0)

    def probability(self, outcome: T) -> Fraction:
        """The exact probability of ``outcome``."""
        return Fraction(self._weights.get(outcome, 0), self._denominator)

    def probabilities(self) -> dict[T, Fraction]:
        """Outcome -> exact probability, sorted by outcome."""
        d = self._denominator
        return {k: Fraction(w, d) for k, w in self._weights.items()}

    def probability_where(self, predicate: Callable[[T], bool]) -> Fraction:
        """Total probability of the outcomes for which ``predicate`` holds.

        >>> Dist.die(6).probability_where(lambda v: v % 2 == 0)
        Fraction(1, 2)
        """
        return Fraction(sum(w for k, w in self._weights.items() if predicate(k)), self._denominator)

    def at_least(self, value: int) -> Fraction:
        """P(outcome >= value) for integer outcomes."""
        return self.probability_where(lambda k: isinstance(k, int) and k >= value)

    def at_most(self, value: int) -> Fraction:
        """P(outcome <= value) for integer outcomes."""
        return self.probability_where(lambda k: isinstance(k, int) and k <= value)

    def mean(self) -> Fraction:
        """The mean of the retained mass, renormalised (integer outcomes only).

        >>> Dist.die(4).mean()
        Fraction(5, 2)
        """
        total = self.total_weight
        if total == 0:
            raise DistributionError("the distribution is empty")
        s = 0
        for k, w in self._weights.items():
            if not isinstance(k, int):
                raise DistributionError("mean needs integer outcomes")
            s += k * w
        return Fraction(s, total)

    def draw(self, u: float) -> T:
        """The outcome a uniform ``u`` in [0, 1) falls on (weights laid end to end, in
        sorted order; truncated mass falls on the last outcome): a random draw from
        ``rng.random()``, what a simulation samples.

        >>> d = Dist({"a": 1, "b": 3})
        >>> d.draw(0.0), d.draw(0.24), d.draw(0.25), d.draw(0.99)
        ('a', 'a', 'b', 'b')
        """
        ends, values = self.laid()
        return values[bisect_right(ends, int(u * self._denominator))]

    def laid(self) -> tuple[list[int], list[T]]:
        """The weights laid end to end (running totals, the last one the denominator) and
        the outcomes, in sorted order: what :meth:`draw` bisects (kept; do not change them).

        >>> Dist({"a": 1, "b": 3}, 5).laid()
        ([1, 5], ['a', 'b'])
        """
        table = self._cumulative
        if table is None:
            running = 0
            ends = []
            for w in self._weights.values():
                running += w
                ends.append(running)
            if ends:
                ends[-1] = self._denominator  # truncated mass falls on the last outcome
            table = self._cumulative = (ends, list(self._weights))
        return table

    def __len__(self) -> int:
        return len(self._weights)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dist):
            return NotImplemented
        return self._denominator == other._denominator and self._weights == other._weights

    def __hash__(self) -> int:
        return hash((self._denominator, tuple(self._weights.items())))

    def __repr__(self) -> str:
        return f"Dist({self._weights!r}, {self._denominator!r})"

    # -- transforming -------------------------------------------------------------

    def map(self, f: Callable[[T], U]) -> Dist[U]:
        """Apply ``f`` to every outcome, merging equal results."""
        weights: dict[U, int] = {}
        for k, w in self._weights.items():
            nk = f(k)
            weights[nk] = weights.get(nk, 0) + w
        return Dist(weights, self._denominator)

    def combine(self, other: Dist[U], f: Callable[[T, U], T]) -> Dist[T]:
        """Independent combination: the distribution of ``f(a, b)``.

        >>> Dist.die(2).combine(Dist.die(2), lambda a, b: a * b).probabilities()
        {1: Fraction(1, 4), 2: Fraction(1, 2), 4: Fraction(1, 4)}
        """
        weights: dict[T, int] = {}
        for a, wa in self._weights.items():
            for b, wb in other._weights.items():
                k = f(a, b)
                weights[k] = weights.get(k, 0) + wa * wb
        return Dist(weights, self._denominator * other._denominator)

    def __add__(self, other: Dist[int] | int) -> Dist[int]:
        """Sum of independent integer distributions (or a shift by a constant)."""
        if isinstance(other, int):
            return Dist({k + other: w for k, w in self._weights.items()}, self._denominator)  # type: ignore[operator]
        weights: dict[int, int] = {}
        for a, wa in self._weights.items():
            for b, wb in other._weights.items():
                k = a + b  # type: ignore[operator]
                weights[k] = weights.get(k, 0) + wa * wb
        return Dist(weights, self._denominator * other._denominator)

    def sum_of(self, n: int) -> Dist[int]:
        """The sum of ``n`` independent copies (``n >= 0``), by repeated squaring.

        >>> Dist.die(6).sum_of(3).probability(18)
        Fraction(1, 216)
        """
        if n < 0:
            raise DistributionError("n must be >= 0")
        result: Dist[int] = Dist.constant(0)
        base: Dist[int] = self  # type: ignore[assignment]
        while n:
            if n & 1:
                result = result + base
            n >>= 1
            if n:
                base = base + base
        return result

    def bind(self, f: Callable[[T], Dist[U]]) -> Dist[U]:
        """Dependent composition: for each outcome, continue with ``f(outcome)``.

        >>> Dist.die(2).bind(lambda n: Dist.die(6).sum_of(n)).probability(12)
        Fraction(1, 72)
        """
        d = self._denominator
        return Dist.mix((Fraction(w, d), f(k)) for k, w in self._weights.items())

    def condition(self, predicate: Callable[[T], bool]) -> Dist[T]:
        """Keep only the outcomes where ``predicate`` holds, renormalised."""
        kept = {k: w for k, w in self._weights.items() if predicate(k)}
        total = sum(kept.values())
        if not total:
            raise DistributionError("the condition has probability zero")
        return Dist(kept, total)


def _sort_key(item: tuple[Hashable, int]) -> tuple[int, int, str]:
    k = item[0]
    if isinstance(k, int):
        return (0, k, "")
    if isinstance(k, str):
        return (1, 0, k)
    return (2, 0, repr(k))
