"""Brute force over a step machine: every sequence of dice outcomes walked, nothing merged.

The independent check of :func:`saikoro.balance.solve`: no memo, no canonical form, no
topological order; each path's probability is the product of its rolls' probabilities.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from saikoro.balance import Battle, Roll, Rules


def every_battle(rules: Rules[Any], limit: int = 2_000_000) -> dict[Battle, Fraction]:
    """P(each end) by walking every path of ``rules`` (at most ``limit`` paths)."""
    out: dict[Battle, Fraction] = {}
    stack: list[tuple[Any, Fraction]] = [(rules.start(), Fraction(1))]
    walked = 0
    while stack:
        state, p = stack.pop()
        r = rules.step(state)
        if isinstance(r, Battle):
            walked += 1
            assert walked <= limit, "too many paths for a brute force"
            out[r] = out.get(r, Fraction(0)) + p
            continue
        assert isinstance(r, Roll)
        den = r.dice.denominator
        for x, w in r.dice.items():
            stack.append((r.then(x), p * Fraction(w, den)))
    return out
