"""The room files of a scenario page: the whole scenario for ユドナリウム and ココフォリア.

Built with the page (so at build time, and cached with it) into the scenario's folder
next to its enemies' zips, as ``room.udonarium.zip`` (the GM's room),
``room.udonarium-players.zip`` (without the GM-only notes: Udonarium shows every note
to everyone connected) and ``room.ccfolia.zip``; an enemy id has no dot, so no enemy's
``<id>.zip`` can take these names. The links download them under the scenario's id.
"""

from __future__ import annotations

from dataclasses import dataclass

from saikoro.export import ccfolia_room, output_name, scenario_room, udonarium_room
from saikoro.scenario import Scenario
from saikoro.site._safe import esc
from saikoro.site._vtt import VttSettings

__all__ = ["RoomFiles", "room_files", "room_html"]

FILES = {
    "udonarium": "room.udonarium.zip",
    "players": "room.udonarium-players.zip",
    "ccfolia": "room.ccfolia.zip",
}
"""File names of the rooms, in the scenario's folder."""


@dataclass(frozen=True)
class RoomFiles:
    """The three room files of a scenario (name in the folder -> bytes)."""

    files: tuple[tuple[str, bytes], ...]


def room_files(scenario: Scenario, vtt: VttSettings) -> RoomFiles:
    """The room files of ``scenario`` (enemies link to the site when it has a URL)."""
    room = scenario_room(scenario, url=vtt.enemy_url)
    return RoomFiles(
        (
            (FILES["udonarium"], udonarium_room(room)),
            (FILES["players"], udonarium_room(room, gm=False)),
            (FILES["ccfolia"], ccfolia_room(room, vtt.ccfolia)),
        )
    )


def room_html(scenario: Scenario, folder: str) -> str:
    """The buttons offering the room files (``folder``: their URL, relative to the page)."""
    sid = scenario.id

    def link(key: str, label: str, download: str) -> str:
        href = f"{folder}{FILES[key]}"
        return f'<a class="md-button" href="{esc(href)}" download="{esc(download)}">{label}</a>'

    buttons = " ".join(
        (
            link("udonarium", "ユドナリウム用ルーム (zip)", output_name(sid, "udonarium")),
            link(
                "players",
                "ユドナリウム用・GM専用メモなし",
                output_name(sid, "udonarium", players=True),
            ),
            link("ccfolia", "ココフォリア用ルーム (zip)", output_name(sid, "ccfolia")),
        )
    )
    note = (
        "エネミー（同名は番号つき）・PC・チャットパレット・表・メモ・マップを一度に読み込めます。"
        "ユドナリウムでは画面にドロップ、ココフォリアではルームの読み込みから。"
    )
    return (
        f'<div class="saikoro-room"><p class="saikoro-export">{buttons}</p>'
        f'<p class="saikoro-note">{esc(note)}</p></div>'
    )
