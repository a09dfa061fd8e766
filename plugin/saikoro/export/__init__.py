"""Enemies exported to virtual tabletops: ココフォリア (clipboard JSON) and ユドナリウム (zip).

:func:`enemy_character` builds the character of a scenario enemy: a chat palette of
generic BCDice commands (the VTTs' dice bot knows none of the five systems), the whole
stat block as the memo, and a link back to the published page.
:func:`npc_character` builds an NPC's (its ``text`` and GM-only ``secret`` as the memo:
:func:`npc_memo`); :func:`enemy_memo` and :func:`pc_memo` write a stat block as text.

A system's VTT export (its ``vtt`` part: :meth:`saikoro.systems.System.part`) is a module
with ``character(enemy) -> Character`` and ``palette(enemy, system) -> list[PaletteLine]``
(:func:`signed` writes a modifier), and optionally ``COMPARE_OPTIONS``.

>>> c = Character("オウガテイル", initiative=6, status=(("HP", 40, 40),), commands=("1D10+4>=8",))
>>> ccfolia_json(c)["kind"]
'character'
>>> sorted(udonarium_zip_names(c))
['data.xml']
"""

from __future__ import annotations

from ._ccfolia import CcfoliaVisibility, ccfolia_attribute, ccfolia_json, ccfolia_script
from ._enemy import DICEBOT, enemy_character, enemy_palette
from ._memo import enemy_memo, npc_character, npc_memo, pc_memo
from ._model import Character, ExportError
from ._palette import PaletteLine, signed
from ._room import (
    Room,
    RoomImage,
    RoomNote,
    RoomPart,
    RoomPiece,
    book_room,
    scenario_room,
    table_line,
)
from ._room_ccfolia import ccfolia_room
from ._room_cli import output_name, room_main
from ._room_map import MapSpec, dial_map, rows_map
from ._room_udonarium import udonarium_room
from ._udonarium import udonarium_xml, udonarium_zip, udonarium_zip_names

__all__ = [
    "DICEBOT",
    "CcfoliaVisibility",
    "Character",
    "ExportError",
    "MapSpec",
    "PaletteLine",
    "Room",
    "RoomImage",
    "RoomNote",
    "RoomPart",
    "RoomPiece",
    "book_room",
    "ccfolia_attribute",
    "ccfolia_json",
    "ccfolia_room",
    "ccfolia_script",
    "dial_map",
    "enemy_character",
    "enemy_memo",
    "enemy_palette",
    "npc_character",
    "npc_memo",
    "output_name",
    "pc_memo",
    "room_main",
    "rows_map",
    "scenario_room",
    "signed",
    "table_line",
    "udonarium_room",
    "udonarium_xml",
    "udonarium_zip",
    "udonarium_zip_names",
]
