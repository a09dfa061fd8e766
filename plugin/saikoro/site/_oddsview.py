"""Commands' odds as HTML: the rows of a ``dice`` fence (a roll button and the main
chances each, the distributions folded under them)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from saikoro.dice import Odds, SaikoroError

from ._charts import bar_chart, fraction_text, mean_span, percent, prob, prob_cell
from ._exact import is_short, lazy_attr
from ._oddscache import OddsResult
from ._roller import widget
from ._safe import esc

__all__ = [
    "OWN_LIMIT",
    "OwnParam",
    "OwnValueError",
    "at_least",
    "informative",
    "odds_details",
    "odds_error",
    "odds_list",
    "odds_row",
    "own_command",
    "own_row",
    "own_template",
]


class OwnValueError(SaikoroError, ValueError):
    """A malformed own-value placeholder in a ``dice`` fence (the message says how to write it)."""


def at_least(odds: Odds, k: int) -> Fraction:
    """P(outcome >= k) over the integer outcomes of ``odds``."""
    return sum(
        (p for v, p in odds.distribution.items() if isinstance(v, int) and v >= k), Fraction(0)
    )


def _main_items(odds: Odds) -> list[tuple[str, str]]:
    """What a row of a ``dice`` fence shows beside its command: success, critical, fumble,
    expected value."""
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
    return items


def _other_items(odds: Odds) -> list[tuple[str, str]]:
    """The named events (and what a long chain cut off), shown with the distribution."""
    items = [(str(name), prob(p)) for name, p in odds.events.items()]
    if odds.truncated:
        items.append(("打ち切り", prob(odds.truncated)))
    return items


def odds_error(command: str, message: str) -> str:
    """An inline admonition saying why a command has no odds."""
    return (
        '<div class="admonition failure saikoro-error"><p class="admonition-title">'
        f"{esc(command)}</p><p>{esc(message)}</p></div>"
    )


def informative(distribution: Mapping[int | str, Fraction]) -> bool:
    """Whether a chart of ``distribution`` tells more than its table's first line: not
    when it has one or two outcomes, or when every outcome is as likely (one die's flat
    bars).

    >>> informative({v: Fraction(1, 10) for v in range(1, 11)})
    False
    >>> informative({2: Fraction(1, 36), 3: Fraction(2, 36), 4: Fraction(33, 36)})
    True
    """
    values = list(distribution.values())
    return len(values) > 2 and len(set(values)) > 1


def _dl(items: Sequence[tuple[str, str]], cls: str = "saikoro-summary") -> str:
    if not items:
        return ""
    pairs = "".join(f"<div><dt>{esc(k)}</dt><dd>{v}</dd></div>" for k, v in items)
    return f'<dl class="{cls}">{pairs}</dl>'


def odds_row(result: OddsResult, *, roll: bool = True) -> str:
    """One command of a ``dice`` fence: its roll button (the command, shown once) and its
    main chances beside it; the rest goes to :func:`odds_details`."""
    if result.odds is None:
        return odds_error(result.command, result.error or "")
    system = f' data-system="{esc(result.system)}"' if result.system else ""
    head = (
        widget(result.command, system=result.system, enabled=True)
        if roll
        else f'<code class="saikoro-command">{esc(result.command)}</code>'
    )
    return (
        f'<div class="saikoro-odds" data-command="{esc(result.command)}"{system}>'
        f"{head}{_dl(_main_items(result.odds))}</div>"
    )


def odds_details(result: OddsResult) -> str:
    """A command's other values: named events, the chart when it carries information
    (:func:`informative`), and its distribution table."""
    odds = result.odds
    if odds is None:
        return ""
    chart = ""
    if informative(odds.distribution):
        chart = bar_chart(odds.distribution, label=f"{result.command} {odds.label}")
    return (
        f'<div class="saikoro-dist" data-command="{esc(result.command)}">'
        f'<p class="saikoro-dist-head"><code>{esc(result.command)}</code></p>'
        f"{_dl(_other_items(odds))}{chart}{distribution_table(result)}</div>"
    )


def odds_list(results: Sequence[OddsResult], *, roll: bool = True) -> str:
    """The commands of a ``dice`` fence: one compact row each (:func:`odds_row`), and
    their distributions and other values folded under the rows, so every value stays
    on the page without a card per command."""
    rows = "".join(odds_row(r, roll=roll) for r in results)
    details = "".join(odds_details(r) for r in results if r.odds is not None)
    fold = ""
    if details:
        fold = (
            '<details class="saikoro-more"><summary>分布とその他の確率</summary>'
            f"{details}</details>"
        )
    return f'<div class="saikoro-oddslist">{rows}</div>{fold}'


@dataclass(frozen=True)
class OwnParam:
    """A value the reader sets in an own-value row (``{能力値=3:1..10}`` in a fence)."""

    label: str
    default: int
    low: int
    high: int


OWN_LIMIT = 400
"""Most commands an own-value row precomputes (the product of its values' ranges)."""

_PLACEHOLDER = re.compile(r"\{([^{}=:]+)=(-?\d+):(-?\d+)\.\.(-?\d+)\}")


def own_template(line: str) -> tuple[str, list[OwnParam]] | None:
    """The command template and values of a fence line with ``{label=default:low..high}``
    placeholders, or ``None`` when the line has none.

    >>> own_template("GB{能力値=3:1..10}>={目標値=8:1..20}")  # doctest: +NORMALIZE_WHITESPACE
    ('GB{0}>={1}', [OwnParam(label='能力値', default=3, low=1, high=10),
                    OwnParam(label='目標値', default=8, low=1, high=20)])
    >>> own_template("GB3>=8") is None
    True

    Raises:
        OwnValueError: a placeholder is malformed (its default outside its range, an empty
            range, a ``{`` left over) or the values have too many combinations.
    """
    if "{" not in line and "}" not in line:
        return None
    params: list[OwnParam] = []

    def put(match: re.Match[str]) -> str:
        label = match.group(1).strip()
        default, low, high = (int(match.group(i)) for i in (2, 3, 4))
        if not label or not low <= default <= high:
            raise OwnValueError(
                f"{match.group(0)}: 既定値は範囲（{low}..{high}）の中に、名前は空にしないでください"
            )
        params.append(OwnParam(label, default, low, high))
        return "{" + str(len(params) - 1) + "}"

    template = _PLACEHOLDER.sub(put, line)
    if not params or re.search(r"[{}]", re.sub(r"\{\d+\}", "", template)):
        raise OwnValueError(
            f"{line}: 自分の値は {{名前=既定値:最小..最大}} と書いてください"
            "（例 GB{能力値=3:1..10}>=8）"
        )
    combos = math.prod(p.high - p.low + 1 for p in params)
    if combos > OWN_LIMIT:
        raise OwnValueError(
            f"{line}: 値の組み合わせが {combos} 通りあります（{OWN_LIMIT} 通りまで）。"
            "範囲を狭めてください"
        )
    return template, params


def own_command(template: str, values: Sequence[int]) -> str:
    """The command of an own-value row for ``values``.

    >>> own_command("GB{0}>={1}", [3, 8])
    'GB3>=8'
    """
    out = template
    for i, value in enumerate(values):
        out = out.replace("{" + str(i) + "}", str(value))
    return out


def _own_stepper(param: OwnParam) -> str:
    label = esc(param.label)
    return (
        f'<span class="saikoro-stepper" data-key="{label}" data-min="{param.low}" '
        f'data-max="{param.high}"><span class="saikoro-step-label">{label}</span>'
        f'<button type="button" class="saikoro-step" data-step="-1" '
        f'aria-label="{label}を1下げる">−</button>'
        f'<output class="saikoro-step-value" aria-live="polite">{param.default}</output>'
        f'<button type="button" class="saikoro-step" data-step="1" '
        f'aria-label="{label}を1上げる">＋</button></span>'
    )


def own_row(
    results: Mapping[tuple[int, ...], OddsResult],
    template: str,
    params: Sequence[OwnParam],
    system: str | None,
    *,
    roll: bool = True,
) -> str:
    """A row whose command follows the reader's own values (steppers), with its chances
    for every combination of values computed at build time (``data-odds``: the page
    shows them as the values change, no engine needed), the default values' shown first.

    ``results``: the odds of every combination (by its values, in the order of
    ``params``), all computed.
    """
    defaults = tuple(p.default for p in params)
    current = results[defaults]
    if current.odds is None:
        return odds_error(current.command, current.error or "")
    labels = [k for k, _ in _main_items(current.odds)]
    table: dict[str, list[list[str]]] = {}
    for values, result in results.items():
        if result.odds is None:
            continue
        items = dict(_values(result.odds))
        table[",".join(map(str, values))] = [items.get(k, ["–", ""]) for k in labels]
    data = json.dumps({"labels": labels, "odds": table}, ensure_ascii=False, separators=(",", ":"))
    if not roll:
        return odds_row(current, roll=False)
    system_attr = f' data-system="{esc(system)}"' if system else ""
    steps = "".join(_own_stepper(p) for p in params)
    return (
        f'<div class="saikoro-odds saikoro-own" data-command="{esc(current.command)}"'
        f'{system_attr} data-template="{esc(template)}" data-odds="{esc(data)}">'
        f'<div class="saikoro-own-steps">{steps}</div>'
        f"{widget(current.command, system=system, enabled=True)}"
        f"{_dl(_main_items(current.odds))}</div>"
    )


def _values(odds: Odds) -> list[tuple[str, list[str]]]:
    """(label, [shown text, exact value or ""]) of a row's main items (the JSON of
    :func:`own_row`: exact fractions too long for an attribute are left out)."""
    out: list[tuple[str, list[str]]] = []
    for label, p in (
        ("成功", odds.success),
        ("クリティカル", odds.critical),
        ("ファンブル", odds.fumble),
    ):
        if p is not None:
            exact = fraction_text(p)
            out.append((label, [percent(p), exact if is_short(exact) else ""]))
    mean = odds.mean
    if mean is not None:
        exact = fraction_text(mean)
        out.append(("期待値", [f"{float(mean):.2f}", exact if is_short(exact) else ""]))
    return out


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
        shown: list[list[str | None]] = []
        for value, p in odds.distribution.items():
            row: list[str | None] = [str(value), fraction_text(p)]
            texts: list[str | None] = [percent(p)]
            if numeric and isinstance(value, int):
                row.append(fraction_text(result.at_least(value)))
                texts.append(percent(result.at_least(value)))
            data.append(row)
            shown.append(texts)
        return (
            f'<details class="saikoro-table" {lazy_attr(head, data, shown)}>'
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
