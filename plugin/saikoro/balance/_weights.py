"""Integer weights for the exact Markov chains: probabilities over one denominator.

A chain that multiplies and adds Fractions pays a gcd for every product; over many turns
the denominators grow and that is where the time goes. The chains instead keep integer
weights over a denominator shared by a whole step, and reduce once per step (``reduce``).
The arithmetic is the same, so are the results.

>>> from fractions import Fraction
>>> scaled({0: Fraction(1, 4), 3: Fraction(3, 4)}, 8)
{0: 2, 3: 6}
>>> reduce(12, {"a": 4, "b": 8})
(3, {'a': 1, 'b': 2})
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping
from fractions import Fraction
from typing import TypeVar

__all__ = ["common_denominator", "reduce", "scaled"]

K = TypeVar("K", bound=Hashable)


def common_denominator(probabilities: Iterable[Fraction]) -> int:
    """The least common multiple of the probabilities' denominators (1 for none)."""
    return math.lcm(*(p.denominator for p in probabilities))


def scaled(dist: Mapping[K, Fraction], den: int) -> dict[K, int]:
    """``dist``'s probabilities times ``den`` (a multiple of every denominator)."""
    return {value: p.numerator * (den // p.denominator) for value, p in dist.items()}


def reduce(scale: int, weights: Mapping[K, int]) -> tuple[int, dict[K, int]]:
    """``scale`` and ``weights`` divided by their greatest common divisor."""
    common = math.gcd(scale, *weights.values())
    return scale // common, {key: w // common for key, w in weights.items()}
