"""Fast exact integer distributions as polynomials (weights over a common denominator).

A :class:`Poly` is ``offset``, a list of integer weights for the consecutive outcomes
``offset, offset+1, ...`` and a ``denominator``. Products (sums of independent
variables) use Kronecker substitution: the weights are packed into one big integer,
multiplied by CPython's Karatsuba multiplication and unpacked, which is far faster
than a Python double loop. Powers (``nDs``) go through ``int.__pow__`` in one step.

>>> d6 = Poly.uniform(1, 6)
>>> two = d6.power(2)
>>> two.offset, two.weights[:3], two.denominator
(2, [1, 2, 3], 36)
>>> (d6 * d6).weights == two.weights
True
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from itertools import accumulate
from math import comb

from ._dist import Dist
from ._limits import ODDS_MAX_BITS, ODDS_MAX_OUTCOMES, ODDS_MAX_STATES, check

__all__ = ["Poly", "as_distribution"]


def _slot_bytes(bound: int) -> int:
    """Bytes per packed weight when no weight can exceed ``bound``."""
    return max(1, (bound.bit_length() + 8) // 8)


def _pack(weights: list[int], width: int) -> int:
    return int.from_bytes(b"".join(w.to_bytes(width, "little") for w in weights), "little")


def _unpack(value: int, width: int, count: int) -> list[int]:
    raw = value.to_bytes(width * count, "little")
    if width == 1:
        return list(raw)
    return [int.from_bytes(raw[i : i + width], "little") for i in range(0, width * count, width)]


def as_distribution(dist: Dist[int] | Dist[str]) -> dict[int | str, Fraction]:
    """A distribution's probabilities typed for :class:`~saikoro.dice._result.Odds`."""
    return dict(dist.probabilities().items())


class Poly:
    """A distribution over consecutive integers with integer weights."""

    __slots__ = ("denominator", "offset", "weights")

    def __init__(self, offset: int, weights: list[int], denominator: int) -> None:
        self.offset = offset
        self.weights = weights
        self.denominator = denominator

    @classmethod
    def constant(cls, value: int) -> Poly:
        """Always ``value``."""
        return cls(value, [1], 1)

    @classmethod
    def uniform(cls, low: int, high: int) -> Poly:
        """Each of ``low..high`` with weight 1."""
        return cls(low, [1] * (high - low + 1), high - low + 1)

    @classmethod
    def dice_sum(cls, n: int, sides: int) -> Poly:
        """Sum of ``n`` dice numbered ``1..sides``.

        Uses ``(1 + x + ... + x**(s-1))**n = (1 - x**s)**n / (1 - x)**n``: the sparse
        numerator is expanded and divided by ``1 - x`` ``n`` times, each a running sum.

        Examples:
            >>> Poly.dice_sum(3, 6).weights[:4]
            [1, 3, 6, 10]
        """
        if n <= 0:
            return cls.constant(0)
        size = n * (sides - 1) + 1
        check(size, ODDS_MAX_OUTCOMES, "outcomes", "結果の種類")
        check(n * size, 2 * ODDS_MAX_STATES, "states", "計算量（状態数）")
        check(size * (n * sides.bit_length() + 8), ODDS_MAX_BITS, "bits", "計算量（ビット数）")
        weights = [0] * size
        for j in range(min(n, (size - 1) // sides) + 1):
            weights[j * sides] = -comb(n, j) if j % 2 else comb(n, j)
        for _ in range(n):
            weights = list(accumulate(weights))
        return cls(n, weights, sides**n)

    @classmethod
    def from_weights(cls, weights: Mapping[int, int], denominator: int) -> Poly:
        """From an outcome -> weight mapping."""
        items = {k: w for k, w in weights.items() if w}
        if not items:
            return cls(0, [0], denominator)
        low, high = min(items), max(items)
        check(high - low + 1, ODDS_MAX_OUTCOMES, "outcomes", "結果の種類")
        out = [0] * (high - low + 1)
        for k, w in items.items():
            out[k - low] += w
        return cls(low, out, denominator)

    @classmethod
    def from_dist(cls, dist: Dist[int]) -> Poly:
        """From a :class:`Dist` (its truncated mass stays truncated)."""
        return cls.from_weights(dist.weights(), dist.denominator)

    def ends(self) -> tuple[int, int]:
        """The smallest and the largest outcome (the weights at both ends are not zero).

        >>> Poly.uniform(2, 5).ends()
        (2, 5)
        """
        return self.offset, self.offset + len(self.weights) - 1

    def total(self) -> int:
        """The sum of the weights."""
        return sum(self.weights)

    def to_weights(self) -> dict[int, int]:
        """Outcome -> weight (zero weights left out)."""
        off = self.offset
        return {off + i: w for i, w in enumerate(self.weights) if w}

    def to_dist(self) -> Dist[int]:
        """As a :class:`Dist`."""
        return Dist(self.to_weights(), self.denominator)

    def shift(self, by: int) -> Poly:
        """Add a constant to every outcome."""
        return Poly(self.offset + by, self.weights, self.denominator)

    def negate(self) -> Poly:
        """The distribution of minus the outcome."""
        n = len(self.weights)
        return Poly(-(self.offset + n - 1), self.weights[::-1], self.denominator)

    def __mul__(self, other: Poly) -> Poly:
        """The distribution of the sum of two independent variables."""
        na, nb = len(self.weights), len(other.weights)
        size = na + nb - 1
        check(size, ODDS_MAX_OUTCOMES, "outcomes", "結果の種類")
        bound = self.total() * other.total()
        width = _slot_bytes(bound)
        check(size * width * 8, ODDS_MAX_BITS, "bits", "計算量（ビット数）")
        if na * nb <= 4096:
            out = [0] * size
            for i, a in enumerate(self.weights):
                if a:
                    for j, b in enumerate(other.weights):
                        out[i + j] += a * b
        else:
            packed = _pack(self.weights, width) * _pack(other.weights, width)
            out = _unpack(packed, width, size)
        return Poly(self.offset + other.offset, out, self.denominator * other.denominator)

    def power(self, n: int) -> Poly:
        """The distribution of the sum of ``n`` independent copies (``n >= 0``)."""
        if n <= 0:
            return Poly.constant(0)
        if n == 1:
            return self
        size = n * (len(self.weights) - 1) + 1
        check(size, ODDS_MAX_OUTCOMES, "outcomes", "結果の種類")
        width = _slot_bytes(self.total() ** n)
        check(size * width * 8, ODDS_MAX_BITS, "bits", "計算量（ビット数）")
        packed = _pack(self.weights, width) ** n
        return Poly(n * self.offset, _unpack(packed, width, size), self.denominator**n)
