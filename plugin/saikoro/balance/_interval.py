"""Intervals and ranges of win rates: the Wilson score interval, ``balance.win`` ranges.

Standard library only, so that validation (``scenario/``) can read a ``win:`` range
without importing the simulator.

>>> lo, hi = wilson(50, 100)
>>> round(lo, 4), round(hi, 4)
(0.4038, 0.5962)
>>> wilson(0, 0)
(0.0, 1.0)
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

__all__ = ["Z95", "parse_win_range", "wilson"]

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95 % interval."""


_WIN = r"(\d{1,3}(?:\.\d+)?)\s*%?\s*[-~〜～]\s*(\d{1,3}(?:\.\d+)?)\s*%"


def parse_win_range(text: str) -> tuple[Fraction, Fraction] | None:
    """``"60%-90%"`` as two fractions, or ``None`` when malformed or backwards.

    >>> parse_win_range("60%-90%")
    (Fraction(3, 5), Fraction(9, 10))
    >>> parse_win_range("45〜55%")
    (Fraction(9, 20), Fraction(11, 20))
    >>> parse_win_range("90%-60%") is None
    True
    """
    m = re.fullmatch(_WIN, text.strip())
    if not m:
        return None
    low, high = (Fraction(g) / 100 for g in m.groups())
    if low > high or high > 1:
        return None
    return low, high


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95 % by default).

    Unlike the normal approximation it stays inside [0, 1] and is sensible at 0 and n.

    >>> wilson(10, 10)[1]
    1.0
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high
