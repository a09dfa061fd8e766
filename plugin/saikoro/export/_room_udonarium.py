"""ユドナリウム: a room as the zip Udonarium saves and loads (``ルームデータ``).

Udonarium's room save (``SaveDataService``) is a zip of ``data.xml`` (a ``<room>`` of
the game objects: ``game-table`` with its ``terrain`` children, ``character``,
``text-note``), ``chat.xml``, ``summary.xml`` and the images the XML names by their
SHA-256 (Udonarium names an image by the SHA-256 of its bytes). Dropping it on
Udonarium replaces every object on the tables with the room's. This room leaves
``chat.xml`` out, so loading it keeps the session's chat log and tabs.

The room: one table per scenario (the first one shown), its map a locked floor
``terrain`` with the pieces standing in their starting cells, the other pieces in a row
below it, the notes standing in rows behind it (see :class:`Layout`). In a book the
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
from dataclasses import dataclass

from ._room import Room, RoomImage, RoomNote, RoomPart, RoomPiece
from ._room_map import MapSpec, token_png
from ._udonarium import character_element
from ._xml import udonarium_xml_text
from ._zip import deterministic_zip

__all__ = [
    "GM_MARK",
    "GRID",
    "Layout",
    "about_text",
    "layout",
    "udonarium_room",
    "udonarium_room_xml",
]

GRID = 50
"""Udonarium's grid: pixels per cell (``GameTable.gridSize``)."""
NOTE_WIDTH = 6
"""Width of a note, in cells."""
NOTE_HEIGHT = 5
"""Height of the tallest note, in cells (a longer text scrolls)."""
NOTE_GAP = 0.5
GM_MARK = "【GM専用】"


MAX_IMAGE_BYTES = 2 * 1024 * 1024
"""Udonarium leaves out an image larger than this (``FileArchiver.maxImageSize``)."""


def fits(image: RoomImage) -> bool:
    """Whether Udonarium takes ``image`` (at most :data:`MAX_IMAGE_BYTES`)."""
    return len(image.data) <= MAX_IMAGE_BYTES


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
    images = [i for p in room.parts for i in p.images]
    kept = [i for i in images if fits(i)]
    if kept:
        lines += ["", "画像（メニューの「画像」から使えます）: " + "、".join(i.alt for i in kept)]
    if len(kept) < len(images):
        lines.append(
            "ユドナリウムが読み込まない 2MB を超える画像は入れていません: "
            + "、".join(i.alt for i in images if not fits(i))
        )
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
    """(width, height) in cells: a short note whole, a long one scrolled."""
    lines = sum(1 + len(line) // 18 for line in note.text.splitlines()) + 1
    return NOTE_WIDTH, max(3, min(NOTE_HEIGHT, round(lines * 0.4 + 1)))


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


def _terrain(room_map: MapSpec, image: str, top: float) -> ET.Element:
    root = ET.Element(
        "terrain",
        {
            "isLocked": "true",
            "mode": "1",  # TerrainViewState.FLOOR: the floor image only, no walls
            "rotate": "0",
            "location.name": "table",
            "location.x": "0",
            "location.y": _px(top),
            "posZ": "0",
        },
    )
    sheet = ET.SubElement(root, "data", {"name": "terrain"})
    images = ET.SubElement(sheet, "data", {"name": "image"})
    ET.SubElement(images, "data", {"type": "image", "name": "wall"})
    ET.SubElement(images, "data", {"type": "image", "name": "floor"}).text = image
    common = ET.SubElement(sheet, "data", {"name": "common"})
    ET.SubElement(common, "data", {"name": "name"}).text = room_map.title
    # Terrain: width along x, depth along y, height is the floor's altitude.
    for name, value in (("width", room_map.width), ("height", 0), ("depth", room_map.height)):
        ET.SubElement(common, "data", {"name": name}).text = str(value)
    ET.SubElement(sheet, "data", {"name": "detail"})
    return root


@dataclass(frozen=True)
class Layout:
    """Where things stand on the table, in cells.

    Udonarium draws notes standing up, so they stand in rows behind the map (at the
    top of the table, the far side from the default camera) and hide nothing; the map,
    its pieces and the row of pieces beside it start ``origin`` cells further down.
    """

    notes: tuple[tuple[RoomNote, float, float, int, int], ...]
    origin: float
    width: int
    height: int


def layout(room: Room, *, gm: bool = True) -> Layout:
    """The layout of ``room``'s table (see :class:`Layout`)."""
    notes = [RoomNote("このルームについて", about_text(room, gm=gm))]
    notes += [n for n in room.notes if gm or not n.secret]
    content = max([p.width for p in room.parts] + [1.0])
    per_row = max(6, int((content + NOTE_GAP) // (NOTE_WIDTH + NOTE_GAP)))
    placed: list[tuple[RoomNote, float, float, int, int]] = []
    y = 0.0
    for start in range(0, len(notes), per_row):
        row = notes[start : start + per_row]
        sizes = [_note_size(n) for n in row]
        for i, (note, (width, height)) in enumerate(zip(row, sizes, strict=True)):
            placed.append((note, i * (NOTE_WIDTH + NOTE_GAP), y, width, height))
        y += max(h for _, h in sizes) + NOTE_GAP
    origin = y + 0.5
    right = max([content] + [x + w for _, x, _, w, _ in placed])
    bottom = origin + max([p.height for p in room.parts] + [1.0])
    return Layout(tuple(placed), origin, max(20, int(right) + 2), max(20, int(bottom) + 2))


def _pieces(part: RoomPart, gm: bool) -> list[RoomPiece]:
    return [p for p in part.pieces if gm or not p.secret]


def udonarium_room_xml(room: Room, *, gm: bool = True) -> tuple[str, dict[str, bytes]]:
    """``data.xml`` of ``room`` and the images it names (file name -> bytes)."""
    images: dict[str, bytes] = {}
    root = ET.Element("room")
    at = layout(room, gm=gm)
    objects: list[ET.Element] = []
    for index, part in enumerate(room.parts):
        table = ET.SubElement(
            root,
            "game-table",
            {
                "name": part.title,
                "width": str(at.width),
                "height": str(at.height),
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
            table.append(_terrain(part.map, digest, at.origin))
        for image in part.images:
            if fits(image):
                images[image.name] = image.data
        location = "table" if index == 0 else "common"
        for piece in _pieces(part, gm):
            if piece.image is not None and fits(piece.image):
                digest = piece.image.name.split(".")[0]
                images[piece.image.name] = piece.image.data
            else:
                token = token_png(piece.kind)
                digest = hashlib.sha256(token).hexdigest()
                images[f"{digest}.png"] = token
            objects.append(
                character_element(
                    piece.character,
                    location=location,
                    x=round(piece.x * GRID, 2),
                    y=round((piece.y + at.origin) * GRID, 2),
                    image=digest,
                )
            )
    for note, x, y, width, height in at.notes:
        objects.append(_text_note(note, x, y, width, height))
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
