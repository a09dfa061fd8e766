"""A :class:`~saikoro.site.profiles.Grid` of commands rendered as an odds table."""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction

from saikoro.site.charts import bar_chart, fraction_text, prob
from saikoro.site.oddscache import OddsCache, OddsResult
from saikoro.site.profiles import Grid, Metric
from saikoro.site.safe import esc
from saikoro.systems import OptionValue

__all__ = ["grid_html"]

_NAMES = {
    Metric.SUCCESS: "成功",
    Metric.CRITICAL: "C",
    Metric.FUMBLE: "F",
    Metric.MEAN: "期待値",
}
_GAIN = re.compile(r"国力\+(\d+)")


def _expected_gain(events: Mapping[str, Fraction]) -> Fraction | None:
    """Σ N·P over the ``国力+N`` events, or ``None`` without any."""
    found = [(int(m[1]), p) for name, p in events.items() if (m := _GAIN.fullmatch(name))]
    return sum((n * p for n, p in found), Fraction(0)) if found else None


def _cell(
    cache: OddsCache,
    command: str,
    system: str,
    grid: Grid,
    options: Mapping[str, OptionValue] | None,
) -> str:
    if not command:
        return '<td class="saikoro-na">–</td>'
    opts = tuple(sorted((options or {}).items()))
    key = ("cell", system, opts, command, grid.metrics, grid.thresholds)
    # cache.odds also records failures, for the page's warnings
    result = cache.odds(command, system, options)
    found = cache.html.get(key)
    if found is None:
        found = _cell_html(result, command, grid)
        cache.html[key] = found
    return found


def _cell_html(result: OddsResult, command: str, grid: Grid) -> str:
    if result.odds is None:
        return f'<td class="saikoro-na" title="{esc(result.error or "")}">?</td>'
    odds = result.odds
    lines: list[str] = []
    for metric in grid.metrics:
        if metric is Metric.SUCCESS and odds.success is not None:
            lines.append(prob(odds.success, cls="saikoro-p saikoro-success"))
        elif metric is Metric.CRITICAL and odds.critical is not None:
            lines.append(f"C {prob(odds.critical, cls='saikoro-p saikoro-critical')}")
        elif metric is Metric.FUMBLE and odds.fumble is not None:
            lines.append(f"F {prob(odds.fumble, cls='saikoro-p saikoro-fumble')}")
        elif metric is Metric.MEAN and result.mean is not None:
            mean = result.mean
            lines.append(
                f'<span class="saikoro-mean" data-mean="{fraction_text(mean)}" '
                f'title="{fraction_text(mean)}">{_NAMES[metric]} {float(mean):.2f}</span>'
            )
        elif metric is Metric.GAIN and (gain := _expected_gain(odds.events)) is not None:
            lines.append(
                f'<span class="saikoro-mean saikoro-gain" data-mean="{fraction_text(gain)}" '
                f'title="{fraction_text(gain)}">国力 +{float(gain):.2f}</span>'
            )
        elif metric is Metric.AT_LEAST:
            lines.extend(
                f"≥{k} {prob(result.at_least(k), cls='saikoro-p saikoro-atleast')}"
                for k in grid.thresholds
            )
        elif metric is Metric.EVENTS:
            lines.extend(
                f"{esc(name)} {prob(p, cls='saikoro-p saikoro-event')}"
                for name, p in odds.events.items()
                if p
            )
        elif metric is Metric.CHART:
            lines.append(bar_chart(odds.distribution, label=command, width=120, height=36))
    return (
        f'<td data-command="{esc(command)}"><span class="saikoro-cell">'
        + "<br>".join(lines)
        + "</span></td>"
    )


def grid_html(
    cache: OddsCache, grid: Grid, system: str, options: Mapping[str, OptionValue] | None = None
) -> str:
    """An odds table: each cell is computed by ``saikoro.odds(command, system=system)``."""
    head = "".join(f"<th>{esc(c)}</th>" for c in grid.columns)
    body = []
    for label, commands in grid.rows:
        cells = "".join(_cell(cache, c, system, grid, options) for c in commands)
        body.append(f'<tr><th scope="row">{esc(label)}</th>{cells}</tr>')
    note = f'<p class="saikoro-note">{esc(grid.note)}</p>' if grid.note else ""
    if grid.chart is not None:
        row, column = grid.chart
        label, commands = grid.rows[row]
        result = cache.odds(commands[column], system, options)
        if result.odds is not None:
            caption = f"{label} ／ {grid.columns[column]} の分布"
            code = f"<code>{esc(commands[column])}</code>"
            note = (
                f'<p class="saikoro-note">{esc(caption)}（{code}）</p>'
                + cache.chart(result, f"{commands[column]} {caption}")
                + note
            )
    return (
        f'<div class="saikoro-grid"><table><caption>{esc(grid.title)}</caption>'
        f"<thead><tr><th></th>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
        f"{note}</div>"
    )
