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

from saikoro.dice import fraction_text as exact_fraction

from ._exact import exact_attr, is_short
from ._safe import esc

__all__ = ["bar_chart", "exact_title", "fraction_text", "percent", "prob", "prob_cell"]


def fraction_text(p: Fraction) -> str:
    """``n/d`` of an exact probability.

    >>> fraction_text(Fraction(6, 36))
    '1/6'
    """
    return exact_fraction(p)


def percent(p: Fraction | float) -> str:
    """A probability as the site shows it: one decimal of a percent, never an exponent.

    The one formatting of every probability on the site (exact odds, simulated shares,
    the tables built in the browser from the page's JSON get their text from here). A
    value that would read as 0.0% or 100.0% without being 0 or 1 says so in words; the
    exact value stays in the element's ``data-probability``. Floats are for display only.

    >>> percent(Fraction(1, 1000)), percent(Fraction(0)), percent(Fraction(1))
    ('0.1%', '0%', '100%')
    >>> percent(Fraction(1, 3)), percent(Fraction(22, 10**12)), percent(1 - Fraction(1, 10**6))
    ('33.3%', '0.1%未満', '99.9%超')
    >>> percent(0.4567), percent(0.0), percent(0.9996)
    ('45.7%', '0%', '99.9%超')
    """
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    value = float(p) * 100
    if value < 0.1 and p > 0:
        return "0.1%未満"
    if value > 99.9 and p < 1:
        return "99.9%超"
    return f"{value:.1f}%"


def exact_title(p: Fraction) -> str:
    """`` title="n/d"`` when the fraction is short; nothing for a long one (no 50-digit
    tooltips: the exact value is in the page's JSON, see :mod:`._exact`)."""
    exact = fraction_text(p)
    return f' title="{exact}"' if is_short(exact) else ""


def prob(p: Fraction, *, cls: str = "saikoro-p") -> str:
    """A ``<span>`` showing ``p`` as a percentage with its exact value attached."""
    return f'<span class="{cls}" {exact_attr(p)}{exact_title(p)}>{percent(p)}</span>'


def prob_cell(p: Fraction | None) -> str:
    """A ``<td>`` for a probability (``–`` when there is none)."""
    if p is None:
        return '<td class="saikoro-na">–</td>'
    return f"<td {exact_attr(p)}{exact_title(p)}>{percent(p)}</td>"


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
    names: Mapping[int | str, str] | None = None,
) -> str:
    """A small SVG bar chart of a distribution; each bar carries its exact probability.

    The bars are drawn in integer units (10 per bar, 100 high) from the top edge and the
    drawing is flipped by the stylesheet (so no ``y``), then stretched to the box;
    the axis labels are HTML under the drawing, so they are never distorted or cut.

    Args:
        distribution: outcome -> probability, in display order.
        label: accessible name of the chart.
        highlight: outcomes drawn in the accent colour (e.g. successes).
        width: width of the box in CSS px (a hint: the stylesheet sizes charts).
        height: height of the box in CSS px.
        names: what a bar's tooltip calls each outcome (default: the outcome).

    >>> svg = bar_chart({1: Fraction(1, 2), 2: Fraction(1, 2)}, label="1D2")
    >>> svg.count('data-probability="1/2"')
    2
    """
    items = _trim(list(distribution.items()))
    if not items:
        return ""
    top = float(max(p for _, p in items) or Fraction(1))
    n = len(items)
    gap = 1 if n < 60 else 0
    size = "small" if width < 200 or height < 50 else "large"
    parts = [
        f'<div class="saikoro-chartbox saikoro-chartbox-{size}">'
        f'<svg class="saikoro-chart" viewBox="0 0 {n * 10} 100" role="img" '
        f'aria-label="{esc(label)}" preserveAspectRatio="none">'
    ]
    marks = set(highlight)
    names = names or {}
    for i, (outcome, p) in enumerate(items):
        h = round(float(p) / top * 100, 1)
        hit = ' class="saikoro-hit"' if outcome in marks else ""
        exact = fraction_text(p)
        shown = f" ({exact})" if len(exact) <= 12 else ""
        name = names.get(outcome, str(outcome))
        parts.append(
            f'<rect{hit} x="{i * 10}" width="{10 - gap}" height="{h:g}" '
            f'data-outcome="{esc(outcome)}" {exact_attr(p)}>'
            f"<title>{esc(name)}: {percent(p)}{shown}</title></rect>"
        )
    parts.append('</svg><div class="saikoro-axisrow" aria-hidden="true">')
    slots = 8 if size == "large" else 4
    step = max(1, -(-n // slots))
    shown_at = list(range(0, n, step))
    if n - 1 - shown_at[-1] >= step / 2:
        shown_at.append(n - 1)
    elif shown_at[-1] != n - 1 and n > 1:
        shown_at[-1] = n - 1
    for i in shown_at:
        centre = (i + 0.5) / n * 100
        parts.append(f'<span style="left:{centre:.1f}%">{esc(items[i][0])}</span>')
    parts.append("</div></div>")
    return "".join(parts)


def mean_span(mean: Fraction, prefix: str = "") -> str:
    """An expected value, two decimals shown, exact ``n/d`` in ``data-mean`` when short.

    >>> mean_span(Fraction(7, 2))
    '<span class="saikoro-mean" data-mean="7/2" title="7/2">3.50</span>'
    """
    exact = fraction_text(mean)
    attr = (
        f'data-mean="{exact}"'
        if is_short(exact)
        else exact_attr(mean).replace("data-exact", "data-exact-mean")
    )
    shown = f"{esc(prefix)}{float(mean):.2f}"
    return f'<span class="saikoro-mean" {attr}{exact_title(mean)}>{shown}</span>'
