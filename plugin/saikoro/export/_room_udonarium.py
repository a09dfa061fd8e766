"""ユドナリウム: a room as the zip Udonarium saves and loads (``ルームデータ``).

Udonarium's room save (``SaveDataService``) is a zip of ``data.xml`` (a ``<room>`` of
the game objects: ``game-table`` with its ``terrain`` children, ``character``,
``text-note``), ``chat.xml``, ``summary.xml`` and the images the XML names by their
SHA-256 (Udonarium names an image by the SHA-256 of its bytes). Dropping it on
Udonarium replaces every object on the tables with the room's. This room leaves
``chat.xml`` out, so loading it keeps the session's chat log and tabs.

The room: one table per scenario (the first one shown), its map a locked floor
``terrain`` at the table's top left with the pieces standing in their starting cells,
the other pieces in a row below it, the notes in columns to its right. In a book the
other scenarios' pieces wait in the shared inventory (共有インベントリ).

Udonarium has no hidden objects: whoever is connected sees every note and piece. The GM's
room (``gm=True``) holds the GM-only notes titled 【GM専用】 and says so in its first
note; the players' room (``gm=False``) leaves them out.

>>> from saikoro.export import Character, Room, RoomNote, RoomPart, RoomPiece
>>> part = RoomPart("s", "試し", "kegare", "穢れ", (RoomPiece(Character("鬼"), "enemy"),),
...                 (RoomNote("概要", "本文"), RoomNote("秘密", "GMだけ", secret=True)))
>>> import io, zipfile
>>> names = zipfile.ZipFile(io.BytesIO(udonarium_room(Room("試し", (part,))))).namelist()
>>> [n if n.endswith(".xml") else "<SHA-256>.png" for n in names]
['<SHA-256>.png', 'data.xml', 'summary.xml']
"""

from __future__ import annotations

import hashlib
import xml.etree.ElementTree as ET
from collections.abc import Iterator

from ._room import Room, RoomNote, RoomPart, RoomPiece
from ._room_map import token_png
from ._udonarium import character_element
from ._xml import udonarium_xml_text
from ._zip import deterministic_zip

__all__ = ["GRID", "about_text", "udonarium_room", "udonarium_room_xml"]

GRID = 50
"""Udonarium's grid: pixels per cell (``GameTable.gridSize``)."""
NOTE_WIDTH = 7
"""Width of a note, in cells."""
NOTE_GAP = 0.5
COLUMN_HEIGHT = 18.0
"""Notes stack down a column up to about this many cells, then start the next column."""
GM_MARK = "【GM専用】"


def about_text(room: Room, *, gm: bool) -> str:
    """The first note: what the room holds, and who can read its notes."""
    lines = [
        "saikoro が作ったルームです。",
        "エネミーと PC の駒（チャットパレット・メモつき）、"
        + ("マップ、" if any(p.map for p in room.parts) else "")
        + ("表を振る駒「シナリオの表」、" if any(p.kind == "gm" for p in room.pieces) else "")
        + "シナリオのメモが入っています。",
        "チャットパレットはダイスボット DiceBot で振れる汎用コマンドです。",
    ]
    if gm:
        lines += [
            "",
            f"ユドナリウムでは、接続している全員がすべてのメモを読めます。{GM_MARK}のメモ"
            "もプレイヤーから見えます。プレイヤーの接続中に読み込むなら、GM専用の情報を"
            "除いたプレイヤー用のルームを使ってください。",
        ]
    else:
        lines += ["", "これはプレイヤー用のルームです。GM専用の情報は入っていません。"]
    return "\n".join(lines)


def _note_size(note: RoomNote) -> tuple[int, int]:
    """(width, height) in cells: tall enough for a short note, scrolled past 9 cells."""
    lines = sum(1 + len(line) // 22 for line in note.text.splitlines()) + 1
    return NOTE_WIDTH, max(3, min(9, round(lines * 0.42 + 1)))


def _text_note(note: RoomNote, x: float, y: float, width: int, height: int) -> ET.Element:
    root = ET.Element(
        "text-note",
        {
            "location.name": "table",
            "location.x": _px(x),
            "location.y": _px(y),
            "posZ": "0",
            "rotate": "0",
            "zindex": "0",
            "password": "",
        },
    )
    sheet = ET.SubElement(root, "data", {"name": "text-note"})
    image = ET.SubElement(sheet, "data", {"name": "image"})
    ET.SubElement(image, "data", {"type": "image", "name": "imageIdentifier"})
    common = ET.SubElement(sheet, "data", {"name": "common"})
    for name, value in (("width", width), ("height", height), ("fontsize", 14)):
        ET.SubElement(common, "data", {"name": name}).text = str(value)
    title = (GM_MARK if note.secret else "") + note.title
    ET.SubElement(common, "data", {"name": "title"}).text = title
    ET.SubElement(common, "data", {"type": "note", "name": "text"}).text = note.text
    ET.SubElement(sheet, "data", {"name": "detail"})
    return root


def _px(cells: float) -> str:
    value = round(cells * GRID, 2)
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _terrain(part: RoomPart, image: str) -> ET.Element:
    assert part.map is not None
    root = ET.Element(
        "terrain",
        {
            "isLocked": "true",
            "mode": "1",  # TerrainViewState.FLOOR: the floor image only, no walls
            "rotate": "0",
            "location.name": "table",
            "location.x": "0",
            "location.y": "0",
            "posZ": "0",
        },
    )
    sheet = ET.SubElement(root, "data", {"name": "terrain"})
    images = ET.SubElement(sheet, "data", {"name": "image"})
    ET.SubElement(images, "data", {"type": "image", "name": "wall"})
    ET.SubElement(images, "data", {"type": "image", "name": "floor"}).text = image
    common = ET.SubElement(sheet, "data", {"name": "common"})
    ET.SubElement(common, "data", {"name": "name"}).text = part.map.title
    # Terrain: width along x, depth along y, height is the floor's altitude.
    for name, value in (("width", part.map.width), ("height", 0), ("depth", part.map.height)):
        ET.SubElement(common, "data", {"name": name}).text = str(value)
    ET.SubElement(sheet, "data", {"name": "detail"})
    return root


def _notes_layout(
    notes: list[RoomNote], left: float
) -> Iterator[tuple[RoomNote, float, float, int, int]]:
    x, y = left, 0.0
    for note in notes:
        width, height = _note_size(note)
        if y > 0 and y + height > COLUMN_HEIGHT:
            x += width + NOTE_GAP
            y = 0.0
        yield note, x, y, width, height
        y += height + NOTE_GAP


def _pieces(part: RoomPart, gm: bool) -> list[RoomPiece]:
    return [p for p in part.pieces if gm or not p.secret]


def udonarium_room_xml(room: Room, *, gm: bool = True) -> tuple[str, dict[str, bytes]]:
    """``data.xml`` of ``room`` and the images it names (file name -> bytes)."""
    images: dict[str, bytes] = {}
    root = ET.Element("room")
    tables: list[ET.Element] = []
    objects: list[ET.Element] = []
    about = RoomNote("このルームについて", about_text(room, gm=gm), secret=False)
    right = 0.0
    for index, part in enumerate(room.parts):
        width = max(part.width, 1.0)
        table = ET.Element(
            "game-table",
            {
                "name": part.title if len(room.parts) > 1 else (part.title or room.title),
                "width": "20",
                "height": "20",
                "gridSize": str(GRID),
                "imageIdentifier": "imageIdentifier",
                "backgroundImageIdentifier": "imageIdentifier",
                "backgroundFilterType": "",
                "selected": "true" if index == 0 else "false",
                "gridType": "0",
                "gridColor": "#000000e6",
            },
        )
        if part.map is not None:
            png = part.map.png
            digest = hashlib.sha256(png).hexdigest()
            images[f"{digest}.png"] = png
            table.append(_terrain(part, digest))
        location = "table" if index == 0 else "common"
        for piece in _pieces(part, gm):
            token = token_png(piece.kind)
            digest = hashlib.sha256(token).hexdigest()
            images[f"{digest}.png"] = token
            objects.append(
                character_element(
                    piece.character,
                    location=location,
                    x=piece.x * GRID,
                    y=piece.y * GRID,
                    image=digest,
                )
            )
        tables.append(table)
        right = max(right, width)
    notes = [about] + [n for n in room.notes if gm or not n.secret]
    bottom = max((p.height for p in room.parts), default=0.0)
    far = right + 1.0
    for note, x, y, width, height in _notes_layout(notes, right + 1.0):
        objects.append(_text_note(note, x, y, width, height))
        far = max(far, x + width)
        bottom = max(bottom, y + height)
    cells_w, cells_h = int(far + 2), int(bottom + 2)
    for table in tables:
        table.set("width", str(max(20, cells_w)))
        table.set("height", str(max(20, cells_h)))
    root.extend(tables)
    root.extend(objects)
    return udonarium_xml_text(root), images


def _summary(room: Room) -> str:
    """``summary.xml``: the inventory lists every gauge the pieces have."""
    tags: list[str] = []
    for piece in room.pieces:
        for label, _, _ in piece.character.status:
            if label not in tags and " " not in label:
                tags.append(label)
    element = ET.Element(
        "summary-setting",
        {"sortTag": "name", "sortOrder": "ASC", "dataTag": " ".join(tags)},
    )
    return udonarium_xml_text(element)


def udonarium_room(room: Room, *, gm: bool = True) -> bytes:
    """The room zip Udonarium loads when it is dropped on it (deterministic bytes).

    Args:
        room: the room.
        gm: with the GM-only notes and pieces (titled 【GM専用】; every participant can
            read them); ``False`` leaves them out (the players' room).
    """
    data, images = udonarium_room_xml(room, gm=gm)
    entries = {"data.xml": data.encode("utf-8"), "summary.xml": _summary(room).encode("utf-8")}
    entries.update(images)
    return deterministic_zip(entries)
