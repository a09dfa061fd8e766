"""The generated scenario index: scenarios grouped by system, with players and counts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from saikoro.site.safe import esc, md_escape

from .scenario import SLOT, ScenarioLike, system_name

__all__ = ["IndexEntry", "render_index"]


@dataclass(frozen=True)
class IndexEntry:
    """One scenario in the index: the scenario and its page URL relative to the index."""

    scenario: ScenarioLike
    href: str
    broken: bool = False


def _count(entry: IndexEntry, key: str) -> int:
    value = entry.scenario.data.get(key) or ()
    return len(value)


def render_index(title: str, entries: Sequence[IndexEntry]) -> tuple[str, list[str]]:
    """Markdown of the index page and the HTML of its placeholders (see ``fill_slots``)."""
    out = [f"# {md_escape(title)}\n\n"]
    slots: list[str] = []
    if not entries:
        out.append("シナリオはまだありません。\n")
        return "".join(out), slots
    by_system: dict[str, list[IndexEntry]] = {}
    for entry in entries:
        by_system.setdefault(entry.scenario.system, []).append(entry)
    out.append(
        f'<p class="saikoro-meta">{len(entries)} 本のシナリオ ／ {len(by_system)} システム</p>\n\n'
    )
    for system in sorted(by_system):
        group = sorted(by_system[system], key=lambda e: e.scenario.id)
        out.append(f"## {md_escape(system_name(system))}\n\n")
        rows = []
        for entry in group:
            s = entry.scenario
            players = s.data.get("players")
            rows.append(
                f'<tr data-scenario="{esc(s.id)}"><td><a href="{esc(entry.href)}">'
                f"{esc(s.title)}</a></td><td>{esc('' if players is None else players)}</td>"
                f"<td>{_count(entry, 'enemies')}</td>"
                f"<td>{_count(entry, 'difficulty_targets')}</td>"
                f"<td>{_count(entry, 'chase_tables')}</td></tr>"
            )
        slots.append(
            '<table class="saikoro-index"><thead><tr><th>タイトル</th><th>人数</th>'
            "<th>エネミー</th><th>難易度</th><th>チェイス表</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>"
        )
        out.append(SLOT.format(len(slots) - 1) + "\n\n")
    return "".join(out), slots
