"""The generated scenario index: one sortable table for a GM choosing a scenario (title,
system, players, the balance verdict and the win rate it rests on), one card per
scenario on a phone (no sideways scrolling)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from saikoro.scenario import Scenario
from saikoro.site._charts import percent
from saikoro.site._safe import esc, md_escape
from saikoro.systems import FAN_WORK, system_class

from .scenario import SLOT, book_order, system_name, system_order

__all__ = ["BOOK_TEXT", "IndexEntry", "render_index", "rights_html"]


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


def render_index(
    title: str,
    entries: Sequence[IndexEntry],
    volumes: Sequence[tuple[str, int, int]] = (("book", 1, 1),),
) -> tuple[str, list[str]]:
    """Markdown of the index page and the HTML of its placeholders (see ``fill_slots``).

    ``volumes``: (page stem, first, last scenario) of each print page of the book.
    """
    out = [f"# {md_escape(title)}\n\n"]
    slots: list[str] = []
    if not entries:
        out.append("シナリオはまだありません。\n")
        return "".join(out), slots
    systems = {entry.scenario.system for entry in entries}
    out.append(
        f'<p class="saikoro-meta">{len(entries)} 本のシナリオ ／ {len(systems)} システム'
        "（見出しを押すと並べ替え）</p>\n\n"
    )
    text = f'<a href="{esc(BOOK_TEXT)}">テキスト版（全シナリオ、Markdown）</a>'
    if len(volumes) <= 1:
        out.append(f"[印刷用：全シナリオを1ページで](book.md) ・ {text}\n\n")
    else:
        links = " ・ ".join(f"[{first}〜{last}]({stem}.md)" for stem, first, last in volumes)
        size = volumes[0][2] - volumes[0][1] + 1
        out.append(f"印刷用（1 ページに {size} 本ずつ、ID 順）：{links} ・ {text}\n\n")
    rows = []
    ordered = sorted(entries, key=lambda e: book_order(e.scenario))
    for entry in ordered:
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
    slots.append(
        '<div class="saikoro-index-box"><table class="saikoro-index">'
        f"<thead><tr>{heads}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )
    out.append(SLOT.format(len(slots) - 1) + "\n\n")
    out.append("## 権利表記\n\n")
    slots.append(rights_html(sorted(systems, key=system_order)))
    out.append(SLOT.format(len(slots) - 1) + "\n\n")
    return "".join(out), slots


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
