"""Integer power series in one pass: powers of a run, division, multiplication by a power.

The building blocks of :func:`saikoro.dice._chains.chain_power`. Every function works
on plain lists of integer coefficients (degree 0 first) with linear-time recurrences
of small fixed order -- a big weight is only ever added to or multiplied by a small
number -- so the cost grows with the size of the result, not with its square.

>>> run_power(3, 2, 10)  # (1 + x + x**2)**2
[1, 2, 3, 2, 1]
>>> divide([1, 0, 0, -1], 1, [1], 1)  # (1 - x**3) / (1 - x)
[1, 1, 1, 0]
"""

from __future__ import annotations

from itertools import accumulate
from math import comb

__all__ = ["binomial_power", "common_weight", "divide", "run_power", "times_power"]


def common_weight(weights: list[int]) -> int:
    """The common weight when ``weights`` are all equal and non-zero, else 0.

    >>> common_weight([2, 2]), common_weight([1, 2]), common_weight([])
    (2, 0, 0)
    """
    first = weights[0] if weights else 0
    return first if all(w == first for w in weights) else 0


def binomial_power(a: int, b: int, n: int, limit: int | None = None) -> list[int]:
    """The (first ``limit``) coefficients of ``(a + b*x)**n``, a short recurrence each.

    ``p[j+1] = p[j] * b * (n - j) / ((j + 1) * a)``, exact; no product of big numbers.

    >>> binomial_power(2, 3, 3), binomial_power(0, 5, 2), binomial_power(4, 0, 2)
    ([8, 36, 54, 27], [0, 0, 25], [16, 0, 0])
    >>> binomial_power(1, 1, 10, 3)
    [1, 10, 45]
    """
    size = n + 1 if limit is None else max(0, min(n + 1, limit))
    out = [0] * size
    if not size:
        return out
    if not a:
        if n < size:
            out[n] = b**n
        return out
    out[0] = a**n
    for j in range(size - 1):
        out[j + 1] = out[j] * b * (n - j) // ((j + 1) * a)
    return out


def run_power(k: int, n: int, limit: int) -> list[int]:
    """The first ``limit`` coefficients of ``(1 + x + ... + x**(k-1))**n`` (``k >= 1``).

    With ``P`` the power and ``F`` the run, ``(1 - x)(1 - x**k) P' = n (F' / F) ...``
    gives a three-term recurrence, so each coefficient costs three small products:
    ``(m+1) p[m+1] = (m+n) p[m] + (m-k+1-nk) p[m-k+1] + (n(k-1)-m+k) p[m-k]``.

    >>> run_power(2, 4, 99), run_power(6, 3, 4), run_power(1, 50, 9)
    ([1, 4, 6, 4, 1], [1, 3, 6, 10], [1])
    """
    size = max(0, min(n * (k - 1) + 1, limit))
    p = [0] * size
    if not size:
        return p
    p[0] = 1
    nk = n * k
    for m in range(size - 1):
        acc = (m + n) * p[m]
        if m >= k - 1:
            acc += (m - k + 1 - nk) * p[m - k + 1]
            if m >= k:
                acc += (nk - n - m + k) * p[m - k]
        p[m + 1] = acc // (m + 1)
    return p


def divide(num: list[int], low: int, weights: list[int], const: int) -> list[int]:
    """``num / (const - x**low * W)`` as a power series, as many terms as ``num``.

    ``W`` has the coefficients ``weights`` (``low >= 1``). The division is exact (and the
    result a polynomial) when the caller knows the quotient to be one: each term is
    ``(num[m] + sum(W[j] * out[m - low - j])) // const``, a sliding window when the
    weights are all equal.

    >>> divide([4, 0, -1], 1, [1], 2)  # (4 - x**2) / (2 - x)
    [2, 1, 0]
    """
    out = [0] * len(num)
    same = common_weight(weights)
    if same:
        top = low + len(weights)  # first degree past the run
        window = 0
        for m, value in enumerate(num):
            if m >= low:
                window += out[m - low]
                if m >= top:
                    window -= out[m - top]
            out[m] = (value + window * same) // const
        return out
    terms = [(low + j, w) for j, w in enumerate(weights) if w]
    for m, value in enumerate(num):
        acc = value
        for k, w in terms:
            if k > m:
                break
            acc += w * out[m - k]
        out[m] = acc // const
    return out


def times_power(values: list[int], factor: list[int], n: int) -> list[int]:
    """``values * factor**n`` in full (``factor`` read from degree 0, ``factor[0] != 0``).

    A run of equal weights ``w`` is ``w**n (1 - x**k)**n / (1 - x)**n``: ``n + 1``
    sparse terms and ``n`` running sums. Otherwise ``factor**n`` (small) is expanded
    by repeated multiplication and applied term by term.

    >>> times_power([1, 1], [1, 1], 2), times_power([1], [1, 2], 2)
    ([1, 3, 3, 1], [1, 4, 4])
    """
    width = len(factor)
    size = len(values) + n * (width - 1)
    same = common_weight(factor)
    if same and width > 1:
        out = [0] * size
        for i in range(n + 1):
            start = i * width
            if start >= size:
                break
            coef = -comb(n, i) if i % 2 else comb(n, i)
            for j, v in enumerate(values[: size - start], start):
                out[j] += coef * v
        for _ in range(n):
            out = list(accumulate(out))
        if same != 1:
            scale = same**n
            out = [v * scale for v in out]
        return out
    power = [1]
    for _ in range(n):
        nxt = [0] * (len(power) + width - 1)
        for i, a in enumerate(power):
            for j, b in enumerate(factor, i):
                nxt[j] += a * b
        power = nxt
    out = [0] * size
    for i, f in enumerate(power):
        if f:
            for j, v in enumerate(values, i):
                out[j] += f * v
    return out
