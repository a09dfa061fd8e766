"""The Wilson score interval of a win rate.

>>> lo, hi = wilson(50, 100)
>>> round(lo, 4), round(hi, 4)
(0.4038, 0.5962)
>>> wilson(0, 0)
(0.0, 1.0)
"""

from __future__ import annotations

import math

__all__ = ["Z95", "wilson", "wilson_rate"]

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95 % interval."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95 % by default).

    Unlike the normal approximation it stays inside [0, 1] and is sensible at 0 and n.

    >>> wilson(10, 10)[1]
    1.0
    """
    if trials <= 0:
        return 0.0, 1.0
    return wilson_rate(successes / trials, trials, z)


def wilson_rate(p: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """:func:`wilson` of a rate ``p`` observed over ``trials`` (``trials`` at least 1): the
    interval the same rate would have after that many trials.

    >>> [round(x, 4) for x in wilson_rate(0.5, 100)]
    [0.4038, 0.5962]
    """
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    low = 0.0 if p <= 0 else max(0.0, centre - half)
    high = 1.0 if p >= 1 else min(1.0, centre + half)
    return low, high
