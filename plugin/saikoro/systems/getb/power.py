"""Exact totals of chained d10 in closed form (the arithmetic behind :mod:`.chain`).

>>> chain_weights(10, 1).weights[:3]
[10, 10, 10]
"""

from __future__ import annotations

from itertools import accumulate
from math import comb

from saikoro.dice.poly import Poly

__all__ = ["chain_weights"]


def _divide(num: list[int], critical: int) -> list[int]:
    """``num / (10 - C)`` for a ``num`` that ``10 - C`` divides (``C``: faces >= critical)."""
    out = [0] * len(num)
    window = 0  # sum of out[m - 10 .. m - critical]
    for m, value in enumerate(num):
        if m >= critical:
            window += out[m - critical]
        if m >= 11:
            window -= out[m - 11]
        out[m] = (value + window) // 10
    return out


def chain_weights(critical: int, depth: int, dice: int = 1) -> Poly:
    """The total of ``dice`` chains, each followed to ``depth`` extra dice, exactly.

    The weights are over ``10**((depth + 1) * dice)``. With ``C`` the faces at or above
    ``critical`` and ``S`` the others, one retained chain is ``S * A`` with
    ``A = sum(C**j * 10**(depth - j) for j <= depth)``, whose closed form is
    ``(10**(depth + 1) - C**(depth + 1)) / (10 - C)``. So the dice together are
    ``S**dice * (10**(depth + 1) - C**(depth + 1))**dice / (10 - C)**dice``: a binomial
    sum of powers of ``C`` (small weights), ``dice`` running divisions by ``10 - C``
    and ``dice`` running sums for ``S`` -- no product of the huge weights at all.

    >>> w = chain_weights(10, 1)
    >>> w.offset, w.weights[:3], w.weights[-1], w.denominator
    (1, [10, 10, 10], 1, 100)
    >>> chain_weights(10, 1, 2).weights == chain_weights(10, 1).power(2).weights
    True
    """
    low = min(critical - 1, 10)
    if critical > 10 or depth == 0:
        return Poly(1, [1] * low, 10).power(dice)
    reach = depth + 1
    size = 10 * reach * dice + 1
    num = [0] * size
    step = Poly(critical, [1] * (11 - critical), 1).power(reach)
    term = Poly.constant(0)
    for i in range(dice + 1):
        coef = comb(dice, i) * 10 ** (reach * (dice - i)) * (-1) ** i
        for j, w in enumerate(term.weights, term.offset):
            num[j] += coef * w
        if i < dice:
            term = term * step
    for _ in range(dice):
        num = _divide(num, critical)
    while len(num) > 1 and not num[-1]:
        num.pop()
    # times S**dice = x**dice * (1 - x**low)**dice / (1 - x)**dice
    out = [0] * (len(num) + low * dice)
    for i in range(dice + 1):
        coef = comb(dice, i) * (-1) ** i
        for j, w in enumerate(num, i * low):
            out[j] += coef * w
    for _ in range(dice):
        out = list(accumulate(out))
    while len(out) > 1 and not out[-1]:
        out.pop()
    return Poly(dice, out, 10 ** (reach * dice))
