"""A :class:`~saikoro.site._profiles.Grid` of commands rendered as an odds table."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from fractions import Fraction

from saikoro.site._charts import bar_chart, mean_span, prob
from saikoro.site._oddscache import OddsCache, OddsResult
from saikoro.site._profiles import Grid, Metric
from saikoro.site._roller import options_json
from saikoro.site._safe import esc
from saikoro.systems import OptionValue

__all__ = ["expected_gain", "glance", "grid_html", "summarised"]

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


def summarised(grid: Grid) -> bool:
    """Whether the grid is shown as a compact table of expected values with the full
    table folded under it: a damage table (an expected value and more per cell), whose
    cells are ten lines each (1.5 screens per attack on a desktop)."""
    return Metric.MEAN in grid.metrics and len(grid.metrics) > 1


def _first_value(
    cache: OddsCache,
    command: str,
    metric: Metric,
    system: str,
    options: Mapping[str, OptionValue] | None,
) -> str | None:
    """The HTML of one value of a cell: its expected value or its chance of success."""
    result = cache.odds(command, system, options) if command else None
    if result is None or result.odds is None:
        return None
    if metric is Metric.MEAN and result.mean is not None:
        return mean_span(result.mean)
    if metric is Metric.SUCCESS and result.odds.success is not None:
        return prob(result.odds.success)
    return None


def _summary_html(
    cache: OddsCache,
    grid: Grid,
    system: str,
    options: Mapping[str, OptionValue] | None,
    *,
    metric: Metric = Metric.MEAN,
    cls: str = "saikoro-grid-summary",
    note: bool = True,
) -> str:
    """One value of every cell of ``grid`` (its expected value, or its chance of
    success), one short line per row."""
    body = []
    for label, commands in grid.rows:
        cells = []
        for command in commands:
            value = _first_value(cache, command, metric, system, options)
            if value is None:
                cells.append('<td class="saikoro-na">–</td>')
            else:
                cells.append(f'<td data-command="{esc(command)}">{value}</td>')
        body.append(f'<tr><th scope="row">{esc(label)}</th>{"".join(cells)}</tr>')
    heads = "".join(f'<th scope="col">{esc(c)}</th>' for c in grid.columns)
    text = f'<p class="saikoro-note">{esc(grid.note)}</p>' if grid.note and note else ""
    title = f"{grid.title}：{_HEADS.get(metric, '')}"
    box = "saikoro-gridbox saikoro-print-only" if cls == "saikoro-print-only" else "saikoro-gridbox"
    return (
        f'<div class="{box}">{_title(title)}'
        f'<section class="saikoro-grid {cls}{_many(grid)}" data-search-exclude>'
        f'<table><caption class="saikoro-vh">{esc(title)}</caption>'
        f'<thead><tr><td class="saikoro-corner"></td>{heads}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>{text}</section></div>"
    )


def _title(title: str) -> str:
    """A grid's title, above the box that may scroll (never cut with the table): the
    table's own caption says it to screen readers, so this line is hidden from them."""
    return f'<p class="saikoro-grid-title" aria-hidden="true" data-search-exclude>{esc(title)}</p>'


def _many(grid: Grid) -> str:
    """The class of a grid with many columns: on a phone its column heads are set
    vertically (tategaki), so four or more columns fit the column of a 340 px screen."""
    return " saikoro-many" if len(grid.columns) >= 4 else ""


def _more(grid: Grid) -> str:
    """What the folded full table adds to the summary, in words."""
    words = []
    for metric in grid.metrics:
        if metric is Metric.AT_LEAST:
            words.append("○以上の確率")
        elif metric is Metric.CRITICAL:
            words.append("クリティカル")
        elif metric is Metric.FUMBLE:
            words.append("ファンブル")
        elif metric is Metric.EVENTS:
            words.append("出来事")
    if grid.chart is not None:
        words.append("分布の図")
    return "・".join(words)


PRINT_COLUMNS = 9
"""Values per printed row of a one-column grid turned on its side: nine fit an A5 page
(a longer grid prints as several tables, one under the other)."""


def _split_labels(labels: list[str]) -> tuple[str, list[str]]:
    """The words the row labels share (``耐久``) and what each adds (``1``, ``2``...), or
    ``""`` and the labels when they share no first word.

    >>> _split_labels(["耐久 1", "耐久 2"])
    ('耐久', ['1', '2'])
    >>> _split_labels(["A", "B 1"])
    ('', ['A', 'B 1'])
    """
    heads = {label.split(" ", 1)[0] for label in labels}
    if len(heads) == 1 and all(" " in label for label in labels):
        return heads.pop(), [label.split(" ", 1)[1] for label in labels]
    return "", labels


def _print_rows(result: OddsResult | None, grid: Grid) -> list[tuple[str, str]]:
    """(metric's name, the value's HTML) of one cell, for print: the figures of the
    screen's table but the events and the chart (which print nothing on paper)."""
    odds = result.odds if result is not None else None
    out: list[tuple[str, str]] = []
    for metric in grid.metrics:
        if metric in {Metric.SUCCESS, Metric.CRITICAL, Metric.FUMBLE}:
            value = {
                Metric.SUCCESS: odds.success if odds is not None else None,
                Metric.CRITICAL: odds.critical if odds is not None else None,
                Metric.FUMBLE: odds.fumble if odds is not None else None,
            }[metric]
            out.append((_HEADS[metric], prob(value) if value is not None else "–"))
        elif metric is Metric.MEAN:
            mean = result.mean if result is not None and odds is not None else None
            out.append((_HEADS[metric], mean_span(mean) if mean is not None else "–"))
        elif metric is Metric.GAIN:
            gain = expected_gain(odds.events) if odds is not None else None
            out.append((_HEADS[metric], mean_span(gain[1]) if gain is not None else "–"))
        elif metric is Metric.AT_LEAST and result is not None and odds is not None:
            out.extend((f"{k}以上", prob(result.at_least(k))) for k in grid.thresholds)
    return out


def _print_table(
    cache: OddsCache,
    grid: Grid,
    system: str,
    options: Mapping[str, OptionValue] | None,
    metric: Metric | None = None,
) -> str:
    """A grid for print, on its side: one column per row of the screen's table (``耐久 1``
    ... ``耐久 8``), one row per figure (成功, ファンブル...: a one-column grid) or per
    column of the screen's table with its ``metric`` (通常, 得意分野...), so eight values
    take three lines of a page instead of nine (the screen's table stays on screen)."""
    if metric is None:
        cells = []
        for _, commands in grid.rows:
            command = commands[0] if commands else ""
            result = cache.odds(command, system, options) if command else None
            cells.append(_print_rows(result, grid))
        names = [name for name, _ in cells[0]] if cells else []
        title = grid.title
    else:
        names = list(grid.columns)
        cells = [
            [
                (name, _first_value(cache, command, metric, system, options) or "–")
                for name, command in zip(grid.columns, commands, strict=False)
            ]
            for _, commands in grid.rows
        ]
        title = f"{grid.title}：{_HEADS.get(metric, '')}"
    if not names:
        return ""
    corner, heads = _split_labels([label for label, _ in grid.rows])
    tables = []
    for first in range(0, len(heads), PRINT_COLUMNS):
        part = range(first, min(first + PRINT_COLUMNS, len(heads)))
        head = "".join(f'<th scope="col">{esc(heads[i])}</th>' for i in part)
        body = "".join(
            f'<tr><th scope="row">{esc(name)}</th>'
            + "".join(f"<td>{cells[i][k][1] if k < len(cells[i]) else '–'}</td>" for i in part)
            + "</tr>"
            for k, name in enumerate(names)
        )
        tables.append(
            f'<table class="saikoro-print-table"><thead><tr><th scope="col">{esc(corner)}</th>'
            f"{head}</tr></thead><tbody>{body}</tbody></table>"
        )
    note = f'<p class="saikoro-note">{esc(grid.note)}</p>' if grid.note else ""
    return (
        '<div class="saikoro-print-only saikoro-print-odds" data-search-exclude>'
        f'<p class="saikoro-grid-title">{esc(title)}</p>{"".join(tables)}{note}</div>'
    )


def _on_its_side(grid: Grid) -> bool:
    """Whether the grid prints on its side (:func:`_print_table`): more rows than columns,
    so turned it takes fewer lines."""
    return len(grid.rows) > len(grid.columns)


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

    A damage table (:func:`summarised`) is a compact table of expected values with the
    full table folded under it; a table of one column (one row per ability value...)
    prints on its side (:func:`_print_table`).
    """
    if summarised(grid):
        full = _grid_html(cache, dataclasses.replace(grid, note=""), system, options, roll=roll)
        summary = _summary_html(cache, grid, system, options)
        if _on_its_side(grid):  # print: the summary on its side, the screen's stays on screen
            summary = _print_table(cache, grid, system, options, Metric.MEAN) + summary.replace(
                '<div class="saikoro-gridbox">',
                '<div class="saikoro-gridbox saikoro-screen-only">',
                1,
            )
        return (
            summary + f'<details class="saikoro-grid-more" data-search-exclude><summary>詳しい表'
            f"（{esc(_more(grid))}）</summary>{full}</details>"
        )
    table = _grid_html(cache, grid, system, options, roll=roll)
    if glance(grid):
        return _print_table(cache, grid, system, options) + table
    if grid.metrics and grid.metrics[0] in {Metric.SUCCESS, Metric.MEAN}:
        # print: the first value of each cell (the chance of success), the table on screen
        if _on_its_side(grid):
            return _print_table(cache, grid, system, options, grid.metrics[0]) + table
        compact = _summary_html(
            cache, grid, system, options, metric=grid.metrics[0], cls="saikoro-print-only"
        )
        return compact.replace("<div ", "<div data-print-summary ", 1) + table
    return table


def _grid_html(
    cache: OddsCache,
    grid: Grid,
    system: str,
    options: Mapping[str, OptionValue] | None,
    *,
    roll: bool,
) -> str:
    """The full odds table of ``grid``."""
    if glance(grid):
        names = "".join(f"<span>{esc(h)}</span>" for h in _heads(grid))
        head = f'<th scope="col"><span class="saikoro-cell saikoro-heads">{names}</span></th>'
    else:
        head = "".join(f'<th scope="col">{esc(c)}</th>' for c in grid.columns)
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
        f'<div class="saikoro-gridbox">{_title(grid.title)}'
        # out of the search index (a <section>: see saikoro.site._fences._dice)
        f'<section class="saikoro-grid{" saikoro-glance" if glance(grid) else ""}'
        f'{_many(grid)}"{rolls} tabindex="0" data-search-exclude>'
        f'<table><caption class="saikoro-vh">{esc(grid.title)}</caption>'
        # the corner cell heads nothing (the rows head themselves): a <td>, not an empty <th>
        f'<thead><tr><td class="saikoro-corner"></td>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>"
        f"{note}</section></div>"
    )
