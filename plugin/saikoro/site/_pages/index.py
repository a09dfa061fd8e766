"""The generated scenario index: one sortable table for a GM choosing a scenario (title,
system, players, the balance verdict and the win rate it rests on), one card per
scenario on a phone (no sideways scrolling).

A book's pages must not grow with the square of its size, so no page lists the whole of a
large book: the index (``<prefix>/index.md``) lists every scenario only while the book
fits on one page (:data:`PAGE`); besides it (or, in a larger book, instead of it) each
system has listing pages of at most :data:`PAGE` scenarios (``<prefix>/index/<system>.md``,
``<prefix>/index/<system>/2.md``, ...), linked from the index and from each other by plain
links (every scenario is reachable without JavaScript). The ``index/`` folder cannot hold
a scenario's files: ``index`` is a reserved id.

>>> pages_of(250)
[(1, 100), (101, 200), (201, 250)]
>>> window(1, 3), window(6, 12)
([1, 2, 3], [1, None, 4, 5, 6, 7, 8, None, 12])
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from saikoro.scenario import Scenario
from saikoro.site._charts import percent
from saikoro.site._safe import esc, md_escape
from saikoro.systems import FAN_WORK, system_class

from .scenario import SLOT, book_order, system_name, system_order

__all__ = [
    "BOOK_TEXT",
    "PAGE",
    "IndexEntry",
    "Pager",
    "SystemLinks",
    "pages_of",
    "render_index",
    "render_listing",
    "rights_html",
    "window",
]

PAGE = 100
"""Scenarios per listing page (and the most the index lists itself): a table a phone
shows as cards without strain, and the same count as a print volume."""


@dataclass(frozen=True)
class IndexEntry:
    """One scenario in the index: the scenario and its page URL relative to the index.

    ``balance``: (verdict, its CSS word, win rate) of the page's バランス section, or
    ``None`` when the page has none (:func:`saikoro.site._pages.balance.summary`).
    """

    scenario: Scenario
    href: str
    broken: bool = False
    balance: tuple[str, str, float] | None = None


@dataclass(frozen=True)
class SystemLinks:
    """A system on the index: its id, its number of scenarios and the hrefs of its
    listing pages (relative to the index), in order."""

    system: str
    count: int
    hrefs: tuple[str, ...]


@dataclass(frozen=True)
class Pager:
    """Where a listing page stands among its system's pages: ``number`` of ``hrefs``
    (1-based; hrefs relative to this page, ``hrefs[number - 1]`` is the page itself)."""

    number: int
    hrefs: tuple[str, ...]


def pages_of(count: int, size: int = PAGE) -> list[tuple[int, int]]:
    """(first, last) position (1-based) of each listing page of ``count`` scenarios."""
    return [(first + 1, min(count, first + size)) for first in range(0, count, size)]


def window(current: int, total: int, reach: int = 2) -> list[int | None]:
    """Page numbers a pager shows: the first, the last and ``reach`` either side of the
    current one; ``None`` stands for the pages left out (so every page's pager has a
    bounded size, whatever the book's)."""
    shown = sorted({1, total, *range(max(1, current - reach), min(total, current + reach) + 1)})
    out: list[int | None] = []
    for number in shown:
        if out and number - (out[-1] or 0) > 1:
            out.append(None)
        out.append(number)
    return out


def _header(count: int, systems: int, *, table: bool) -> str:
    hint = "（見出しを押すと並べ替え）" if table else ""
    return f'<p class="saikoro-meta">{count} 本のシナリオ ／ {systems} システム{hint}</p>\n\n'


def render_index(
    title: str,
    entries: Sequence[IndexEntry],
    volumes: Sequence[tuple[str, int, int]] = (("book", 1, 1),),
    systems: Sequence[SystemLinks] = (),
    count: int | None = None,
) -> tuple[str, list[str]]:
    """Markdown of the index page and the HTML of its placeholders (see ``fill_slots``).

    ``entries``: the scenarios the index lists itself (all of a book that fits on one
    page, none of a larger one); ``systems``: the systems and their listing pages (none
    when the book has no listing pages); ``count``: the book's scenarios (default: as many
    as ``entries``). ``volumes``: (page stem, first, last scenario) of each print page.
    """
    out = [f"# {md_escape(title)}\n\n"]
    slots: list[str] = []
    total = len(entries) if count is None else count
    if not total:
        out.append("シナリオはまだありません。\n")
        return "".join(out), slots
    ids = (
        [s.system for s in systems]
        if systems
        else sorted({e.scenario.system for e in entries}, key=system_order)
    )
    out.append(_header(total, len(ids), table=bool(entries)))
    text = f'<a href="{esc(BOOK_TEXT)}">テキスト版（全シナリオ、Markdown）</a>'
    if len(volumes) <= 1:
        out.append(f"[印刷用：全シナリオを1ページで](book.md) ・ {text}\n\n")
    else:
        links = " ・ ".join(f"[{first}〜{last}]({stem}.md)" for stem, first, last in volumes)
        size = volumes[0][2] - volumes[0][1] + 1
        out.append(f"印刷用（1 ページに {size} 本ずつ、ID 順）：{links} ・ {text}\n\n")
    if systems:
        slots.append(_systems(systems))
        out.append(SLOT.format(len(slots) - 1) + "\n\n")
    if entries:
        slots.append(_table(entries))
        out.append(SLOT.format(len(slots) - 1) + "\n\n")
    _rights(ids, out, slots)
    return "".join(out), slots


def _rights(systems: list[str], out: list[str], slots: list[str]) -> None:
    """The rights notices of ``systems`` at the end of an index page."""
    rights = rights_html(systems)
    if rights:
        out.append("## 権利表記\n\n")
        slots.append(rights)
        out.append(SLOT.format(len(slots) - 1) + "\n\n")


def render_listing(
    system: str,
    entries: Sequence[IndexEntry],
    *,
    count: int,
    first: int,
    pager: Pager,
    up: tuple[str, str],
) -> tuple[str, list[str]]:
    """Markdown and slots of one listing page of ``system``: ``entries`` are scenarios
    ``first`` to ``first + len(entries) - 1`` of its ``count``; ``up``: (title, href) of
    the index."""
    name = system_name(system)
    out = [f"# {md_escape(name)}\n\n"]
    last = first + len(entries) - 1
    shown = f"{count} 本" if count == len(entries) else f"{count} 本中 {first}〜{last} 本目"
    out.append(
        f'<p class="saikoro-meta"><a href="{esc(up[1])}">{esc(up[0])}</a> ／ '
        f"{esc(shown)}（見出しを押すと並べ替え）</p>\n\n"
    )
    slots: list[str] = []
    bar = _pager(pager)
    if bar:
        slots.append(bar)
        out.append(SLOT.format(len(slots) - 1) + "\n\n")
    slots.append(_table(entries))
    out.append(SLOT.format(len(slots) - 1) + "\n\n")
    if bar:
        slots.append(bar.replace('aria-label="ページ"', 'aria-label="ページ（下）"', 1))
        out.append(SLOT.format(len(slots) - 1) + "\n\n")
    _rights([system], out, slots)
    return "".join(out), slots


def _pager(pager: Pager) -> str:
    """Previous/next and numbered links to a system's listing pages ('' for one page)."""
    total = len(pager.hrefs)
    if total <= 1:
        return ""
    current = pager.number
    items = []
    if current > 1:
        items.append(f'<a href="{esc(pager.hrefs[current - 2])}" rel="prev">← 前へ</a>')
    for number in window(current, total):
        if number is None:
            items.append('<span class="saikoro-pager-gap">…</span>')
        elif number == current:
            items.append(f'<span aria-current="page">{number}</span>')
        else:
            items.append(f'<a href="{esc(pager.hrefs[number - 1])}">{number}</a>')
    if current < total:
        items.append(f'<a href="{esc(pager.hrefs[current])}" rel="next">次へ →</a>')
    return f'<nav class="saikoro-pager" aria-label="ページ">{"".join(items)}</nav>'


def _systems(systems: Sequence[SystemLinks]) -> str:
    """The systems of the book, each with its count and its listing pages."""
    items = []
    for system in systems:
        pages = ""
        if len(system.hrefs) > 1:
            links = "".join(
                f'<a href="{esc(href)}">{number}</a>' for number, href in enumerate(system.hrefs, 1)
            )
            pages = f'<span class="saikoro-systems-pages">ページ {links}</span>'
        items.append(
            f'<li><a class="saikoro-systems-name" href="{esc(system.hrefs[0])}">'
            f"{esc(system_name(system.system))}</a>"
            f'<span class="saikoro-meta">{system.count} 本</span>{pages}</li>'
        )
    return f'<ul class="saikoro-systems" aria-label="システム別">{"".join(items)}</ul>'


def _table(entries: Sequence[IndexEntry]) -> str:
    rows = []
    for entry in sorted(entries, key=lambda e: book_order(e.scenario)):
        s = entry.scenario
        players = s.model.players
        shown = "" if players is None else f"{players}人"
        least = re.match(r"\d+", str(players or ""))
        if entry.balance is None:
            verdict_cell = ('<span class="saikoro-na">–</span>', "")
            win_cell = ('<span class="saikoro-na">–</span>', "")
        else:
            word, css, win = entry.balance
            verdict_cell = (
                f'<span class="saikoro-verdict saikoro-verdict-{esc(css)}">{esc(word)}</span>',
                f"{win:.6f}",
            )
            win_cell = (percent(win), f"{win:.6f}")
        cells = [
            ("title", f'<a href="{esc(entry.href)}">{esc(s.title)}</a>', s.title),
            ("system", esc(system_name(s.system)), f"{system_order(s.system):02d}"),
            ("players", esc(shown), least.group(0) if least else ""),
            ("verdict", *verdict_cell),
            ("win", *win_cell),
        ]
        tds = "".join(
            f'<td class="saikoro-index-{name}" data-sort="{esc(key)}" data-label="{esc(label)}">'
            f"{html}</td>"
            for (name, html, key), (label, _) in zip(cells, _HEADS, strict=True)
        )
        rows.append(f'<tr data-scenario="{esc(s.id)}" data-system="{esc(s.system)}">{tds}</tr>')
    heads = "".join(
        f'<th scope="col" data-type="{kind}"><button type="button">{esc(name)}</button></th>'
        for name, kind in _HEADS
    )
    return (
        '<div class="saikoro-index-box"><table class="saikoro-index">'
        f"<thead><tr>{heads}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


BOOK_TEXT = "book.txt"
"""The text edition of the whole book, beside the index (``<prefix>/book.txt``)."""


def rights_html(systems: list[str]) -> str:
    """The rights notices of ``systems`` (each system once), for the index and the book's
    colophon: each game and its rights holder, what one system asks beyond the others,
    and what every built-in system's notice says (:data:`FAN_WORK`) once."""
    notices = [n for n in (system_class(s).rights for s in systems) if n is not None]
    if not notices:
        return ""
    items = "".join(f"<li>{esc(n.head())}。</li>" for n in notices)
    paragraphs = []
    for n in notices:
        extra = n.guideline.replace(FAN_WORK, "").strip()
        if extra:
            paragraphs.append(f"<p>『{esc(n.game)}』：{esc(extra)}</p>")
    if any(FAN_WORK in n.guideline for n in notices):
        paragraphs.append(f"<p>{esc(FAN_WORK)}</p>")
    return (
        f'<div class="saikoro-rights saikoro-system-rights"><ul>{items}</ul>'
        f"{''.join(paragraphs)}</div>"
    )


_HEADS = (
    ("タイトル", "text"),
    ("システム", "text"),
    ("人数", "number"),
    ("バランス", "number"),
    ("勝率", "number"),
)
"""Column headings and how they sort. バランス is the verdict of the page's バランス
section (易しい … 非常に厳しい),
sorted by the win rate it rests on; 勝率 is that win rate (the exact value where the
simulator solves the fight, else the simulated estimate)."""
