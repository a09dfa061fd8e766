"""Probabilities as HTML: exact values in ``data-probability``, small inline SVG charts.

Every element that shows a probability carries its exact value as ``data-probability="n/d"``;
the percentage shown is only for reading. Charts use Material's CSS variables through
classes in ``saikoro.css``, so they follow the light/dark palette.

>>> from fractions import Fraction
>>> prob(Fraction(1, 3))
'<span class="saikoro-p" data-probability="1/3" title="1/3">33.3%</span>'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from .safe import esc

__all__ = ["bar_chart", "fraction_text", "percent", "prob", "prob_cell"]


def fraction_text(p: Fraction) -> str:
    """``n/d`` of an exact probability.

    >>> fraction_text(Fraction(6, 36))
    '1/6'
    """
    return f"{p.numerator}/{p.denominator}"


def percent(p: Fraction) -> str:
    """A percentage for display (floats are for display only).

    >>> percent(Fraction(1, 1000)), percent(Fraction(0)), percent(Fraction(1))
    ('0.1%', '0%', '100%')
    """
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    value = float(p) * 100
    if value < 0.1:
        return f"{value:.2g}%"
    return f"{value:.1f}%"


def prob(p: Fraction, *, cls: str = "saikoro-p") -> str:
    """A ``<span>`` showing ``p`` as a percentage with its exact value attached."""
    exact = fraction_text(p)
    return f'<span class="{cls}" data-probability="{exact}" title="{exact}">{percent(p)}</span>'


def prob_cell(p: Fraction | None) -> str:
    """A ``<td>`` for a probability (``–`` when there is none)."""
    if p is None:
        return '<td class="saikoro-na">–</td>'
    exact = fraction_text(p)
    return f'<td data-probability="{exact}" title="{exact}">{percent(p)}</td>'


MAX_BARS = 60
"""Charts with more outcomes drop their far tails (each at most 1/2000 of the mass)."""


def _trim(items: list[tuple[int | str, Fraction]]) -> list[tuple[int | str, Fraction]]:
    """Drop the far tails of a long numeric distribution (the chart only; tables keep all).

    Display only, so the tail test may use floats.

    >>> len(_trim([(i, Fraction(1, 100)) for i in range(100)]))
    100
    """
    if len(items) <= MAX_BARS or not all(isinstance(k, int) for k, _ in items):
        return items
    tail = 1 / 2000
    weights = [float(p) for _, p in items]
    low, acc = 0, 0.0
    while low < len(items) - 1 and acc + weights[low] <= tail:
        acc += weights[low]
        low += 1
    high, acc = len(items), 0.0
    while high > low + 1 and acc + weights[high - 1] <= tail:
        acc += weights[high - 1]
        high -= 1
    return items[low:high]


def bar_chart(
    distribution: Mapping[int | str, Fraction],
    *,
    label: str = "",
    highlight: Sequence[int | str] = (),
    width: int = 320,
    height: int = 72,
) -> str:
    """A small SVG bar chart of a distribution; each bar carries its exact probability.

    Args:
        distribution: outcome -> probability, in display order.
        label: accessible name of the chart.
        highlight: outcomes drawn in the accent colour (e.g. successes).
        width: viewBox width.
        height: viewBox height.

    >>> svg = bar_chart({1: Fraction(1, 2), 2: Fraction(1, 2)}, label="1D2")
    >>> svg.count('data-probability="1/2"')
    2
    """
    items = _trim(list(distribution.items()))
    if not items:
        return ""
    top = max(p for _, p in items) or Fraction(1)
    top_f = float(top)
    n = len(items)
    gap = 1 if n < 60 else 0
    bar = max((width - gap * (n - 1)) / n, 0.5)
    body = height - 14
    parts = [
        f'<svg class="saikoro-chart" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{esc(label)}" preserveAspectRatio="none">'
    ]
    marks = set(highlight)
    step = max(1, n // 8)
    for i, (outcome, p) in enumerate(items):
        h = float(p) / top_f * body
        x = i * (bar + gap)
        cls = "saikoro-bar saikoro-hit" if outcome in marks else "saikoro-bar"
        exact = fraction_text(p)
        parts.append(
            f'<rect class="{cls}" x="{x:.2f}" y="{body - h:.2f}" width="{bar:.2f}" '
            f'height="{max(h, 0.0):.2f}" data-outcome="{esc(outcome)}" '
            f'data-probability="{exact}">'
            f"<title>{esc(outcome)}: {percent(p)} ({exact})</title></rect>"
        )
        if i == n - 1 or (i % step == 0 and n - 1 - i >= max(step // 2, 1)):
            parts.append(
                f'<text class="saikoro-axis" x="{x + bar / 2:.2f}" y="{height - 2}" '
                f'text-anchor="middle">{esc(outcome)}</text>'
            )
    parts.append("</svg>")
    return "".join(parts)
