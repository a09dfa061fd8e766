"""Exact distribution of the sum of the ``k`` highest (or lowest) of ``n`` dice.

Instead of enumerating the ``s**n`` outcomes, faces are visited from the best down:
a state is (dice placed so far, sum of the kept ones). Placing ``c`` dice on a face
counts ``C(n-u, c) * w**c`` ways. Once ``k`` dice are placed the kept sum is final and
the remaining dice can only show worse faces, counted in one power; so only states
with fewer than ``k`` dice placed are carried (order statistics as a multinomial DP).

>>> keep_sum([(v, 1) for v in range(1, 7)], 4, 3, highest=True).to_dist().mean()
Fraction(15869, 1296)
>>> keep_sum([(v, 1) for v in range(1, 7)], 2, 1, highest=False).weights
[11, 9, 7, 5, 3, 1]
"""

from __future__ import annotations

from math import comb

from ._limits import ODDS_MAX_STATES, check
from ._poly import Poly

__all__ = ["keep_sum", "keep_work"]


def keep_work(faces: int, n: int, k: int, spread: int) -> int:
    """An upper estimate of the DP steps for :func:`keep_sum`."""
    k = max(0, min(k, n))
    return faces * (k + 1) * (k * spread + 1) * (n + 1)


def keep_sum(faces: list[tuple[int, int]], n: int, k: int, *, highest: bool) -> Poly:
    """Sum of the ``k`` best of ``n`` dice whose faces are ``(value, weight)`` pairs.

    ``highest`` keeps the largest values, otherwise the smallest. ``k`` is clamped to
    ``0..n``; keeping none gives the constant 0.
    """
    total_w = sum(w for _, w in faces)
    denominator = total_w**n
    k = max(0, min(k, n))
    if k == 0 or n == 0:
        return Poly(0, [denominator], denominator)
    values = [v for v, _ in faces]
    spread = max(values) - min(values) if values else 0
    check(keep_work(len(faces), n, k, spread), ODDS_MAX_STATES, "states", "計算量（状態数）")
    ordered = sorted(faces, key=lambda f: f[0], reverse=highest)
    remaining_w = total_w
    # states[u] = {kept_sum: ways} with u < k dice placed on the faces seen so far
    states: list[dict[int, int]] = [{} for _ in range(k)]
    states[0][0] = 1
    result: dict[int, int] = {}
    binom = [[comb(m, c) for c in range(m + 1)] for m in range(n + 1)]
    for value, weight in ordered:
        remaining_w -= weight
        new_states: list[dict[int, int]] = [{} for _ in range(k)]
        wpow = [1]
        for _ in range(n):
            wpow.append(wpow[-1] * weight)
        for u in range(k):
            row = states[u]
            if not row:
                continue
            left = n - u
            brow = binom[left]
            for total, ways in row.items():
                for c in range(left + 1):
                    placed = u + c
                    kept = total + value * (min(placed, k) - u)
                    count = ways * brow[c] * wpow[c]
                    if placed >= k:
                        count *= remaining_w ** (n - placed)
                        if count:
                            result[kept] = result.get(kept, 0) + count
                    elif count:
                        target = new_states[placed]
                        target[kept] = target.get(kept, 0) + count
        states = new_states
    return Poly.from_weights(result, denominator)
