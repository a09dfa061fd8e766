"""Chase tables (and any die-indexed table) with the exact probability of each entry."""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction

from saikoro.scenario import DEFINITIONS, Enum, ListOf, MapOf, Obj, short_label
from saikoro.scenario.model import ChaseEntry, ChaseTable
from saikoro.site._charts import bar_chart, fraction_text, percent
from saikoro.site._mermaid import reader_text
from saikoro.site._oddscache import OddsCache
from saikoro.site._oddsview import informative, odds_error
from saikoro.site._roller import widget
from saikoro.site._safe import esc, render_markdown

__all__ = ["entry_extras", "entry_range", "table_html"]

_RANGE = re.compile(r"^\s*(-?\d+)\s*(?:[-~〜～]\s*(-?\d+))?\s*$")


def entry_range(key: object) -> tuple[int, int] | None:
    """The (low, high) outcomes of a table entry key: ``3``, ``"2-3"``, ``"11～16"``.

    >>> entry_range(3), entry_range("2-3"), entry_range("x")
    ((3, 3), (2, 3), None)
    """
    if isinstance(key, bool):
        return None
    if isinstance(key, int):
        return key, key
    match = _RANGE.match(str(key))
    if match is None:
        return None
    low = int(match.group(1))
    high = int(match.group(2)) if match.group(2) is not None else low
    return low, high


def entry_probability(distribution: Mapping[int | str, Fraction], key: object) -> Fraction:
    """P(the die lands in the entry's range)."""
    span = entry_range(key)
    if span is None:
        return Fraction(0)
    low, high = span
    return sum(
        (p for v, p in distribution.items() if isinstance(v, int) and low <= v <= high),
        Fraction(0),
    )


def _entry_definition(system: str) -> Obj | None:
    """The definition of one entry of ``system``'s tables (``None``: not a known shape)."""
    if not system or system not in DEFINITIONS:
        return None
    tables = DEFINITIONS[system].field("chase_tables").type
    if not isinstance(tables, ListOf) or not isinstance(tables.item, Obj):
        return None
    entries = tables.item.field("entries").type
    return entries.value if isinstance(entries, MapOf) and isinstance(entries.value, Obj) else None


def entry_extras(system: str, entry: ChaseEntry) -> list[tuple[str, str]]:
    """(label, text) of an entry's fields beyond its title and effect, in words: a
    cutaction entry's ``event: 小道`` is the rule book's event, told in the project's
    words (the choice's description in the scenario definition)."""
    kind = _entry_definition(system)
    if kind is None:
        return []
    out = []
    for f in kind.fields:
        if f.name in {"title", "effect"}:
            continue
        value = getattr(entry, f.name, None)
        if value is None or value is False:
            continue
        label = short_label(f.ja or f.name)
        if isinstance(f.type, Enum):
            meaning = next((c.ja for c in f.type.choices if c.value == value), "")
            out.append((f"{label}「{value}」", reader_text(meaning)))
        else:
            out.append((label, str(value)))
    return out


def table_html(
    cache: OddsCache, table: ChaseTable, *, roll: bool = True, system: str = "", anchor: str = ""
) -> str:
    """A die table: its description, then range, title, effect, exact probability (with a
    bar), chart, roll button.

    ``roll``: with the roll button (the plugin's ``roller.enabled``). ``system``: the
    scenario's system, whose own entry fields (cutaction's ``event``) are shown in words.
    ``anchor``: the HTML id of the table.
    """
    die = table.die
    result = cache.odds(die)
    if result.odds is None:
        return odds_error(die, result.error or "")
    distribution = result.odds.distribution
    entries = table.entries
    top = max((entry_probability(distribution, k) for k in entries), default=Fraction(1))
    rows = []
    for key, entry in entries.items():
        p = entry_probability(distribution, key)
        exact = fraction_text(p)
        title = esc(entry.title)
        effect_html = render_markdown(entry.effect, inline=True) if entry.effect else ""
        for label, text in entry_extras(system, entry):
            effect_html += (
                f'<span class="saikoro-entry-extra"><strong>{esc(label)}</strong>：'
                f"{esc(text)}</span>"
            )
        width = float(p / top) * 100 if top else 0.0
        rows.append(
            # spaces between the cells: a search preview reads 「2 配管の破裂 …」
            f'<tr data-entry="{esc(key)}"><td>{esc(key)}</td> <td>{title}</td> '
            f"<td>{effect_html}</td> "
            f'<td class="saikoro-entry-p" data-probability="{exact}" title="{exact}"'
            " data-search-exclude>"
            f'<span class="saikoro-meter" style="width:{width:.1f}%"></span>'
            f"<span>{percent(p)}</span> <small>({exact})</small></td></tr>"
        )
    # the die once: on its roll button, or as code on a page without rollers
    chart = _entry_chart(distribution, entries, die)
    head = widget(die, label=f"{die}を振る", enabled=roll) or (
        f'<code class="saikoro-command">{esc(die)}</code>'
    )
    chart_html = f"<section data-search-exclude>{chart}</section>" if chart else ""
    ident = f' id="{esc(anchor)}"' if anchor else ""
    description = (
        f'<div class="saikoro-table-note">{render_markdown(table.description)}</div>'
        if table.description
        else ""
    )
    return (
        f'<div class="saikoro-chase" data-die="{esc(die)}"{ident}>{description}'
        f'<div class="saikoro-odds-head">{head}</div>{chart_html}'
        "<table><thead data-search-exclude><tr><th>出目</th><th>名前</th><th>効果</th>"
        "<th>確率</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _entry_chart(
    distribution: Mapping[int | str, Fraction], entries: Mapping[str, ChaseEntry], die: str
) -> str:
    """One bar per table entry (``2-3`` is one bar), named by the entry on hover; nothing
    when every entry is as likely (the table's 確率 column says it all)."""
    probabilities: dict[int | str, Fraction] = {}
    names: dict[int | str, str] = {}
    for key, entry in entries.items():
        probabilities[key] = entry_probability(distribution, key)
        names[key] = f"{key} {entry.title}".strip()
    if not informative(probabilities):
        return ""
    return bar_chart(probabilities, label=f"{die} の表", names=names)
