"""Truncated reroll chains shared by ``U`` (exploding sums) and ``R`` (success counts).

A die that is rolled again while its face meets a condition forms a chain whose
length is unbounded. The chain is cut after ``depth`` rerolls; the dropped mass is
``r**(depth+1)`` per die, where ``r`` is the chance to reroll. :func:`depth_for`
picks the smallest depth for which ``sum(n_i * r_i**(depth+1))`` -- an upper bound
of the mass dropped from the whole command -- is at most ``TRUNCATION``.

>>> from fractions import Fraction
>>> depth_for([(6, Fraction(1, 10))])
12
>>> chain = chain_sum(explode=[10], stop=list(range(1, 10)), sides=10, depth=1)
>>> chain.offset, chain.weights[:3], chain.weights[-1], chain.denominator
(1, [10, 10, 10], 1, 100)
"""

from __future__ import annotations

import math
from fractions import Fraction

from .errors import LimitError
from .limits import MAX_DEPTH, ODDS_MAX_STATES, TRUNCATION, check
from .poly import Poly

__all__ = ["chain_count", "chain_sum", "depth_for"]


def depth_for(groups: list[tuple[int, Fraction]]) -> int:
    """Smallest reroll depth keeping the dropped mass of all dice at most ``TRUNCATION``.

    ``groups`` are ``(number of dice, reroll chance)`` pairs.
    """
    live = [(n, r) for n, r in groups if n > 0 and r > 0]
    if not live:
        return 0
    if any(r >= 1 for _, r in live):
        raise LimitError("振り足しが必ず起こるため確率を計算できません", bound="depth")
    total = sum(n for n, _ in live)
    worst = max(r for _, r in live)
    guess = math.log(float(TRUNCATION) / total) / math.log(float(worst))
    depth = max(0, math.ceil(guess) - 2)
    while sum(n * r ** (depth + 1) for n, r in live) > TRUNCATION:
        depth += 1
        check(depth, MAX_DEPTH, "depth", "振り足しの深さ")
    check(depth, MAX_DEPTH, "depth", "振り足しの深さ")
    return depth


def chain_sum(explode: list[int], stop: list[int], sides: int, depth: int) -> Poly:
    """Sum of one die rolled again (and added) while it shows a face in ``explode``.

    ``explode`` and ``stop`` list the face values (each of weight 1 over ``sides``).
    """
    stop_poly = Poly.from_weights(dict.fromkeys(stop, 1), 1)
    if not explode or depth == 0:
        poly = stop_poly
        return Poly(poly.offset, poly.weights, sides)
    check(depth * depth * max(1, len(explode)), ODDS_MAX_STATES, "states", "計算量（状態数）")
    up = Poly.from_weights(dict.fromkeys(explode, 1), 1)
    acc = [1]  # weights of x**0, x**1, ...: sum of up**k * sides**(j-k), k <= j
    for j in range(1, depth + 1):
        prod = up * Poly(0, acc, 1)
        acc = [0] * prod.offset + prod.weights
        acc[0] += sides**j
    total = Poly(0, acc, 1) * stop_poly
    return Poly(total.offset, total.weights, sides ** (depth + 1))


def chain_count(hit_reroll: int, miss_reroll: int, hit_stop: int, miss_stop: int,
                depth: int) -> Poly:
    """Successes counted over one die's reroll chain.

    The four arguments count faces by (success?, rerolled?); their sum is the sides.
    """
    sides = hit_reroll + miss_reroll + hit_stop + miss_stop
    check(depth * depth, ODDS_MAX_STATES, "states", "計算量（状態数）")
    acc = [1]
    for j in range(1, depth + 1):
        nxt = [0] * (len(acc) + 1)
        for i, w in enumerate(acc):
            nxt[i] += w * miss_reroll
            nxt[i + 1] += w * hit_reroll
        nxt[0] += sides**j
        acc = nxt
    out = [0] * (len(acc) + 1)
    for i, w in enumerate(acc):
        out[i] += w * miss_stop
        out[i + 1] += w * hit_stop
    return Poly(0, out, sides ** (depth + 1))
