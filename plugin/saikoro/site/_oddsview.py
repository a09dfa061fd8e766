"""One command's odds as HTML: summary, chart, distribution table and a roll button."""

from __future__ import annotations

from fractions import Fraction

from saikoro.dice import Odds

from ._charts import bar_chart, fraction_text, mean_span, prob, prob_cell
from ._exact import lazy_table
from ._oddscache import OddsResult
from ._rolling import widget
from ._safe import esc

__all__ = ["at_least", "odds_block", "odds_error", "summary_items"]


def at_least(odds: Odds, k: int) -> Fraction:
    """P(outcome >= k) over the integer outcomes of ``odds``."""
    return sum(
        (p for v, p in odds.distribution.items() if isinstance(v, int) and v >= k), Fraction(0)
    )


def summary_items(odds: Odds) -> list[tuple[str, str]]:
    """(label, HTML) pairs: success, critical, fumble, mean, named events."""
    items: list[tuple[str, str]] = []
    if odds.success is not None:
        items.append(("成功", prob(odds.success)))
    if odds.critical is not None:
        items.append(("クリティカル", prob(odds.critical)))
    if odds.fumble is not None:
        items.append(("ファンブル", prob(odds.fumble)))
    mean = odds.mean
    if mean is not None:
        items.append(("期待値", mean_span(mean)))
    items.extend((str(name), prob(p)) for name, p in odds.events.items())
    if odds.truncated:
        items.append(("打ち切り", prob(odds.truncated)))
    return items


def odds_error(command: str, message: str) -> str:
    """An inline admonition saying why a command has no odds."""
    return (
        '<div class="admonition failure saikoro-error"><p class="admonition-title">'
        f"{esc(command)}</p><p>{esc(message)}</p></div>"
    )


def odds_block(
    result: OddsResult, *, title: str | None = None, roll: bool = True, table: bool = True
) -> str:
    """The odds of one command: summary line, chart, collapsible table, roll widget.

    ``roll``: with the roll widget (the plugin's ``roller.enabled``).
    """
    if result.odds is None:
        return odds_error(result.command, result.error or "")
    odds = result.odds
    head = f'<code class="saikoro-command">{esc(result.command)}</code>'
    if title:
        head = f'<span class="saikoro-odds-title">{esc(title)}</span> ' + head
    parts = [
        f'<div class="saikoro-odds" data-command="{esc(result.command)}"'
        + (f' data-system="{esc(result.system)}"' if result.system else "")
        + f'><div class="saikoro-odds-head">{head}'
    ]
    if roll:
        parts.append(widget(result.command, system=result.system, enabled=True))
    parts.append("</div>")
    items = summary_items(odds)
    if items:
        parts.append('<dl class="saikoro-summary">')
        parts.extend(f"<div><dt>{esc(k)}</dt><dd>{v}</dd></div>" for k, v in items)
        parts.append("</dl>")
    hits: list[int | str] = []
    parts.append(
        bar_chart(odds.distribution, label=f"{result.command} {odds.label}", highlight=hits)
    )
    if table:
        parts.append(distribution_table(result))
    parts.append("</div>")
    return "".join(parts)


INLINE_ROWS = 24
"""Distribution tables with more rows are built when opened, from the page's JSON."""


def distribution_table(result: OddsResult) -> str:
    """A collapsible table: outcome, P(=), and P(>=) for numeric outcomes.

    A long table (more than :data:`INLINE_ROWS` outcomes) is not in the HTML: its rows
    are in the page's JSON file (:mod:`._exact`) and built when the reader opens it.
    """
    odds = result.odds
    if odds is None:
        return ""
    numeric = all(isinstance(v, int) for v in odds.distribution)
    if len(odds.distribution) > INLINE_ROWS:
        head = [odds.label, "確率"] + (["以上"] if numeric else [])
        data: list[list[str | None]] = []
        for value, p in odds.distribution.items():
            row: list[str | None] = [str(value), fraction_text(p)]
            if numeric and isinstance(value, int):
                row.append(fraction_text(result.at_least(value)))
            data.append(row)
        return (
            f'<details class="saikoro-table" data-lazy="{lazy_table(head, data)}">'
            f"<summary>{esc(odds.label)}の分布（{len(odds.distribution)}通り）</summary>"
            '<p class="saikoro-note saikoro-lazy-note">開くと表を読み込みます。</p></details>'
        )
    rows = []
    for value, p in odds.distribution.items():
        cells = f"<td>{esc(value)}</td>{prob_cell(p)}"
        if numeric and isinstance(value, int):
            cells += prob_cell(result.at_least(value))
        rows.append(f"<tr>{cells}</tr>")
    extra = "<th>以上</th>" if numeric else ""
    return (
        f'<details class="saikoro-table"><summary>{esc(odds.label)}の分布'
        f"（{len(odds.distribution)}通り）</summary>"
        f"<table><thead><tr><th>{esc(odds.label)}</th><th>確率</th>{extra}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></details>"
    )
