"""ココフォリア: a room as the zip ココフォリア exports and imports (ルームデータ).

The shape follows a real exported room: the sample ``tmp/room.zip`` of the public
repository rtomitani/ccfolia-bundler (commit 4a2fa6b, "Add local resolver and card
resolver"): ``__data.json`` holding ``meta.version`` ``1.1.0``, ``entities`` with
``room``, ``items``, ``decks``, ``notes``, ``characters``, ``effects``, ``scenes``,
``savedatas`` and ``snapshots`` (each a mapping of document id -> document), and
``resources`` (file name -> ``{type}``) naming the images stored beside it, each named
by the SHA-256 of its bytes and its extension; and ``.token``, ``0.`` followed by the
SHA-256 of ``__data.json`` (as himu62/ccfolia-room-minifier writes it when it rewrites a
room). The room document has the sample's 19 fields; a character is the clipboard
object the site's copy button gives (:func:`~._ccfolia.ccfolia_json`) with where it
stands; a note is its text (the first line is its title, as ココフォリア lists notes).

Coordinates are ココフォリア's board units (0, 0 at the board's centre): a cell of the
room is 4 units, the size of a piece. The map is the board's foreground image. Pieces
of a book's later scenarios are kept off the board (``active: false``) in the GM's
character list; so is the GM piece that rolls the tables. GM-only notes and pieces are
marked ``secret``.

>>> from saikoro.export import Character, Room, RoomPart, RoomPiece
>>> part = RoomPart("s", "試し", "kegare", "穢れ", (RoomPiece(Character("鬼"), "enemy"),), ())
>>> import io, json, zipfile
>>> z = zipfile.ZipFile(io.BytesIO(ccfolia_room(Room("試し", (part,)))))
>>> [n if not n.endswith(".png") else "<SHA-256>.png" for n in z.namelist()]
['.token', '<SHA-256>.png', '__data.json']
>>> data = json.loads(z.read("__data.json"))
>>> data["meta"], sorted(data["entities"])[:3]
({'version': '1.1.0'}, ['characters', 'decks', 'effects'])
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ._ccfolia import CcfoliaVisibility, ccfolia_json
from ._room import Room, RoomPiece
from ._room_map import token_png
from ._zip import deterministic_zip

__all__ = ["UNITS_PER_CELL", "VERSION", "ccfolia_room", "ccfolia_room_data"]

VERSION = "1.1.0"
"""``meta.version`` of the exported room format the sample carries."""
UNITS_PER_CELL = 4
ENTITIES = (
    "room",
    "items",
    "decks",
    "notes",
    "characters",
    "effects",
    "scenes",
    "savedatas",
    "snapshots",
)
"""The entity collections of an exported room, in the sample's order."""
_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def document_id(*parts: str) -> str:
    """A 20-character id like ココフォリア's (Firestore's), derived from ``parts``.

    >>> document_id("room", "note", "0"), len(document_id("x"))
    ('KC7HKjeuhkMC2Qhat9xD', 20)
    """
    number = int.from_bytes(hashlib.sha256("\0".join(parts).encode("utf-8")).digest(), "big")
    out = []
    for _ in range(20):
        number, digit = divmod(number, len(_ALPHABET))
        out.append(_ALPHABET[digit])
    return "".join(out)


def _room_document(foreground: str | None, width: int, height: int) -> dict[str, Any]:
    return {
        "defaultAnonymousRole": None,
        "backgroundUrl": None,
        "foregroundUrl": foreground,
        "embedUrl": None,
        "thumbnailUrl": None,
        "mapType": None,
        "fieldWidth": width,
        "fieldHeight": height,
        "fieldObjectFit": "fill",
        "alignWithGrid": False,
        "messageChannels": [],
        "markers": {},
        "monitored": False,
        "sceneId": None,
        "archived": False,
        "backgroundColor": "",
        "variables": [],
        "underConstruction": False,
        "hidden3dDice": False,
    }


def _character(
    piece: RoomPiece,
    *,
    visibility: CcfoliaVisibility,
    active: bool,
    origin: tuple[float, float],
    icon: str | None,
) -> dict[str, Any]:
    seen = visibility if piece.kind == "enemy" else CcfoliaVisibility()
    if piece.secret:
        seen = CcfoliaVisibility(secret=True, invisible=seen.invisible, hide_status=True)
    body = ccfolia_json(piece.character, seen)["data"]
    if not isinstance(body, dict):
        raise TypeError("the clipboard object has no data")
    data: dict[str, Any] = dict(body)
    data.update(
        {
            "playerName": "",
            "iconUrl": icon,
            "faces": [],
            "x": round((piece.x - origin[0]) * UNITS_PER_CELL),
            "y": round((piece.y - origin[1]) * UNITS_PER_CELL),
            "z": 0,
            "angle": 0,
            "width": UNITS_PER_CELL,
            "height": UNITS_PER_CELL,
            "active": active,
            "color": "#888888",
        }
    )
    return data


def ccfolia_room_data(
    room: Room, visibility: CcfoliaVisibility | None = None
) -> tuple[dict[str, Any], dict[str, bytes]]:
    """``__data.json`` of ``room`` (as a dict) and the images it names (name -> bytes).

    Args:
        room: the room.
        visibility: ココフォリア's flags for the enemies (the site's ``ccfolia`` options).
    """
    seen = visibility or CcfoliaVisibility()
    images: dict[str, bytes] = {}
    entities: dict[str, Any] = {name: {} for name in ENTITIES}
    first = room.parts[0] if room.parts else None
    foreground = None
    width = height = 0
    origin = (0.0, 0.0)
    if first is not None:
        w, h = max(first.width, 1.0), max(first.height, 1.0)
        if first.map is not None:
            png = first.map.png
            foreground = hashlib.sha256(png).hexdigest() + ".png"
            images[foreground] = png
            w, h = float(first.map.width), float(first.map.height)
        origin = (w / 2, h / 2)
        width, height = round(w * UNITS_PER_CELL), round(h * UNITS_PER_CELL)
    entities["room"] = _room_document(foreground, width, height)
    characters: dict[str, Any] = {}
    notes: dict[str, Any] = {}
    kinds: dict[str, str] = {}  # resource name -> its type (PNG unless named here)
    order = 0
    for index, part in enumerate(room.parts):
        for n, piece in enumerate(part.pieces):
            key = document_id(room.title, part.scenario_id, "character", str(n))
            active = index == 0 and piece.kind != "gm"
            if piece.image is not None:
                icon = piece.image.name
                images[icon] = piece.image.data
                kinds[icon] = piece.image.mime
            else:
                token = token_png(piece.kind)
                icon = hashlib.sha256(token).hexdigest() + ".png"
                images[icon] = token
            characters[key] = _character(
                piece, visibility=seen, active=active, origin=origin, icon=icon
            )
        for n, note in enumerate(part.notes):
            key = document_id(room.title, part.scenario_id, "note", str(n))
            title = note.title if len(room.parts) == 1 else f"{part.title}: {note.title}"
            notes[key] = {"text": f"{title}\n{note.text}", "order": order, "secret": note.secret}
            order += 1
    entities["characters"] = characters
    entities["notes"] = notes
    resources = {name: {"type": kinds.get(name, "image/png")} for name in sorted(images)}
    return {"meta": {"version": VERSION}, "entities": entities, "resources": resources}, images


def ccfolia_room(room: Room, visibility: CcfoliaVisibility | None = None) -> bytes:
    """The room zip ココフォリア imports (deterministic bytes)."""
    data, images = ccfolia_room_data(room, visibility)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    entries = {"__data.json": text, ".token": b"0." + hashlib.sha256(text).hexdigest().encode()}
    entries.update(images)
    return deterministic_zip(entries)
