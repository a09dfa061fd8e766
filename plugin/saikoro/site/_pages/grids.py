"""A :class:`~saikoro.site._profiles.Grid` of commands rendered as an odds table."""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction

from saikoro.site._charts import bar_chart, mean_span, prob
from saikoro.site._oddscache import OddsCache, OddsResult
from saikoro.site._profiles import Grid, Metric
from saikoro.site._roller import options_json
from saikoro.site._safe import esc
from saikoro.systems import OptionValue

__all__ = ["expected_gain", "glance", "grid_html"]

_NAMES = {
    Metric.SUCCESS: "成功",
    Metric.CRITICAL: "C",
    Metric.FUMBLE: "F",
    Metric.MEAN: "期待値",
}


def glance(grid: Grid) -> bool:
    """Whether the grid reads as one row per situation and one column per metric.

    A grid with a single command column shows each metric in its own column (success,
    critical, fumble, expected value, P(>=k)...), every value with an inline bar.
    """
    return len(grid.columns) == 1


def _heads(grid: Grid) -> list[str]:
    heads: list[str] = []
    for metric in grid.metrics:
        if metric is Metric.AT_LEAST:
            heads.extend(f"{k}以上" for k in grid.thresholds)
        elif metric is Metric.CHART:
            heads.append("分布")
        elif metric is Metric.EVENTS:
            heads.append("その他")
        else:
            heads.append(_HEADS[metric])
    return heads


_HEADS = {
    Metric.SUCCESS: "成功",
    Metric.CRITICAL: "クリティカル",
    Metric.FUMBLE: "ファンブル",
    Metric.MEAN: "期待値",
    Metric.GAIN: "増加の期待値",
}


def _cell(
    cache: OddsCache,
    command: str,
    system: str,
    grid: Grid,
    options: Mapping[str, OptionValue] | None,
    *,
    roll: bool,
) -> str:
    if not command:
        return '<td class="saikoro-na">–</td>'
    opts = tuple(sorted((options or {}).items()))
    key = ("cell", system, opts, command, grid.metrics, grid.thresholds, glance(grid), roll)
    # cache.odds also records failures, for the page's warnings
    result = cache.odds(command, system, options)
    found = cache.html.get(key)
    if found is None:
        found = _cell_html(result, command, grid, roll=roll)
        cache.html[key] = found
    return found


def _bar(p: Fraction, cls: str, prefix: str = "", *, heat: bool = False) -> str:
    """A probability with an inline bar (or, ``heat``, a background as dark as ``p``)."""
    style = f' style="--p:{float(p) * 100:.1f}%"'
    kind = "saikoro-heat" if heat else "saikoro-m"
    if prefix:
        return f'<span class="{kind}"{style}>{prefix}{prob(p, cls=cls)}</span>'
    return prob(p, cls=f"{cls} {kind}").replace("<span ", f"<span{style} ", 1)


def _cell_html(result: OddsResult, command: str, grid: Grid, *, roll: bool = False) -> str:
    if result.odds is None:
        return f'<td class="saikoro-na" title="{esc(result.error or "")}">?</td>'
    odds = result.odds
    wide = glance(grid)
    blank = '<span class="saikoro-m saikoro-na">–</span>'
    lines: list[str] = []
    for metric in grid.metrics:
        if metric is Metric.SUCCESS:
            lines.append(
                _bar(odds.success, "saikoro-p saikoro-success")
                if odds.success is not None
                else blank
            )
        elif metric is Metric.CRITICAL:
            lines.append(
                _bar(odds.critical, "saikoro-p saikoro-critical", "" if wide else "C ")
                if odds.critical is not None
                else blank
            )
        elif metric is Metric.FUMBLE:
            lines.append(
                _bar(odds.fumble, "saikoro-p saikoro-fumble", "" if wide else "F ")
                if odds.fumble is not None
                else blank
            )
        elif metric is Metric.MEAN:
            if result.mean is None:
                lines.append(blank)
            else:
                prefix = "" if wide else f"{_NAMES[metric]} "
                lines.append(f'<span class="saikoro-m">{mean_span(result.mean, prefix)}</span>')
        elif metric is Metric.GAIN:
            gain = expected_gain(odds.events)
            if gain is None:
                lines.append(blank)
            else:
                word, value = gain
                label = "" if wide else f"{word}+"
                lines.append(f'<span class="saikoro-m">{mean_span(value, label)}</span>')
        elif metric is Metric.AT_LEAST:
            lines.extend(
                _bar(
                    result.at_least(k),
                    "saikoro-p saikoro-atleast",
                    "" if wide else f"≥{k} ",
                    heat=True,
                )
                for k in grid.thresholds
            )
        elif metric is Metric.EVENTS:
            cls = "saikoro-p saikoro-event"
            events = [
                f'<span class="saikoro-m">{esc(name)} {prob(p, cls=cls)}</span>'
                for name, p in odds.events.items()
                if p
            ]
            if wide:
                lines.append(f'<span class="saikoro-events">{"".join(events) or "–"}</span>')
            else:
                lines.extend(events)
        elif metric is Metric.CHART:
            lines.append(bar_chart(odds.distribution, label=command, width=120, height=36))
    cell = f'<span class="saikoro-cell">{"".join(lines)}</span>'
    if roll:  # the whole cell is the button that rolls its command (the page's roller)
        cell = (
            f'<button type="button" class="saikoro-pick" data-command="{esc(command)}" '
            f'title="{esc(command)} を振る">{cell}</button>'
        )
    return f'<td data-command="{esc(command)}">{cell}</td>'


_GAIN = re.compile(r"^(.+)\+(\d+)$")


def expected_gain(events: Mapping[str, Fraction]) -> tuple[str, Fraction] | None:
    """(word, expected gain) of events named ``<word>+N`` (kokuryoku: ``国力+4``).

    >>> expected_gain({"国力+4": Fraction(3, 4), "国力+2": Fraction(1, 4), "x": Fraction(1)})
    ('国力', Fraction(7, 2))
    >>> expected_gain({"x": Fraction(1)}) is None
    True
    """
    total = Fraction(0)
    word = None
    for name, p in events.items():
        match = _GAIN.match(str(name))
        if match:
            total += int(match.group(2)) * p
            word = match.group(1)
    return (word, total) if word is not None else None


def grid_html(
    cache: OddsCache,
    grid: Grid,
    system: str,
    options: Mapping[str, OptionValue] | None = None,
    *,
    roll: bool = False,
) -> str:
    """An odds table: each cell is computed by ``saikoro.odds(command, system=system)``.

    ``roll``: each cell is a button rolling its command (with ``options``), the result
    shown under its row (the page's roller, ``roller.js``).
    """
    if glance(grid):
        names = "".join(f"<span>{esc(h)}</span>" for h in _heads(grid))
        head = f'<th><span class="saikoro-cell saikoro-heads">{names}</span></th>'
    else:
        head = "".join(f"<th>{esc(c)}</th>" for c in grid.columns)
    body = []
    for label, commands in grid.rows:
        cells = "".join(_cell(cache, c, system, grid, options, roll=roll) for c in commands)
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
    rolls = ""
    if roll:
        rolls = f' data-system="{esc(system)}"'
        if options:
            rolls += f' data-options="{esc(options_json(options))}"'
    return (
        f'<div class="saikoro-grid{" saikoro-glance" if glance(grid) else ""}"{rolls} tabindex="0">'
        f"<table><caption>{esc(grid.title)}</caption>"
        f"<thead><tr><th></th>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
        f"{note}</div>"
    )
