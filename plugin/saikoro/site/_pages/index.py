"""The generated scenario index: one sortable table (title, system, players, counts)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from saikoro.scenario._validate import Scenario
from saikoro.scenario.model import ScenarioModel
from saikoro.site._safe import esc, md_escape

from .scenario import SLOT, system_name

__all__ = ["IndexEntry", "render_index"]


@dataclass(frozen=True)
class IndexEntry:
    """One scenario in the index: the scenario and its page URL relative to the index."""

    scenario: Scenario
    href: str
    broken: bool = False


def _counts(model: ScenarioModel) -> tuple[int, ...]:
    """The numbers of enemies, difficulty targets and chase tables (the table's order)."""
    return len(model.enemies), len(model.difficulty_targets), len(model.chase_tables)


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
    if len(volumes) <= 1:
        out.append("[印刷用：全シナリオを1ページで](book.md)\n\n")
    else:
        links = " ・ ".join(f"[{first}〜{last}]({stem}.md)" for stem, first, last in volumes)
        size = volumes[0][2] - volumes[0][1] + 1
        out.append(f"印刷用（1 ページに {size} 本ずつ、ID 順）：{links}\n\n")
    rows = []
    ordered = sorted(entries, key=lambda e: (system_name(e.scenario.system), e.scenario.id))
    for entry in ordered:
        s = entry.scenario
        players = s.model.players
        shown = "" if players is None else str(players)
        least = re.match(r"\d+", shown)
        cells = [
            (f'<a href="{esc(entry.href)}">{esc(s.title)}</a>', s.title),
            (esc(system_name(s.system)), system_name(s.system)),
            (esc(shown), least.group(0) if least else ""),
            *((str(n), str(n)) for n in _counts(s.model)),
        ]
        tds = "".join(f'<td data-sort="{esc(key)}">{html}</td>' for html, key in cells)
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
    return "".join(out), slots


_HEADS = (
    ("タイトル", "text"),
    ("システム", "text"),
    ("人数", "number"),
    ("エネミー", "number"),
    ("難易度", "number"),
    ("チェイス表", "number"),
)
