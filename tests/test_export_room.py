"""Rooms for ユドナリウム and ココフォリア: what they hold, their bytes, their safety, the CLI.

The rooms of the sample book and of the held-out scenarios (``room_cases.py``) are
parsed back from their zips. Every palette line of both rooms rolls in BCDice (npm
``bcdice``, as the VTTs send it: under the game system the room names, ``DiceBot``).
The ココフォリア room follows a real exported room: the sample ``tmp/__data.json`` of
the public repository rtomitani/ccfolia-bundler, commit
4a2fa6bce2dbb418aae02ca2bc466866308e74ca (its keys are written out below; its files are
not copied here). That Udonarium itself loads the rooms is
``tests/browser/test_udonarium_room.py``.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import xml.etree.ElementTree as ET
import zipfile
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from room_cases import HOSTILE, PUBLIC, SECRETS, held_out
from saikoro._cli import main
from saikoro.export import (
    DICEBOT,
    CcfoliaVisibility,
    Character,
    ExportError,
    Room,
    RoomPart,
    RoomPiece,
    book_room,
    ccfolia_json,
    ccfolia_room,
    enemy_character,
    scenario_room,
    table_line,
    udonarium_room,
)
from saikoro.export._room_ccfolia import ENTITIES, UNITS_PER_CELL
from saikoro.export._room_cli import output_name
from saikoro.export._room_map import png_size
from saikoro.export._zip import EPOCH, deterministic_zip, safe_entry_name
from saikoro.scenario import Scenario, load_scenarios
from test_export_bcdice import _bcdice

ROOT = Path(__file__).resolve().parents[1]

# The sample's room document, in its order (rtomitani/ccfolia-bundler, tmp/__data.json).
CCFOLIA_ROOM_KEYS = [
    "defaultAnonymousRole",
    "backgroundUrl",
    "foregroundUrl",
    "embedUrl",
    "thumbnailUrl",
    "mapType",
    "fieldWidth",
    "fieldHeight",
    "fieldObjectFit",
    "alignWithGrid",
    "messageChannels",
    "markers",
    "monitored",
    "sceneId",
    "archived",
    "backgroundColor",
    "variables",
    "underConstruction",
    "hidden3dDice",
]
CCFOLIA_ENTITIES = [
    "room",
    "items",
    "decks",
    "notes",
    "characters",
    "effects",
    "scenes",
    "savedatas",
    "snapshots",
]
_CLIPBOARD = ccfolia_json(Character("x"))["data"]
assert isinstance(_CLIPBOARD, dict)
CLIPBOARD_KEYS = set(_CLIPBOARD)
"""The fields of the clipboard object (the site's ココフォリア copy button)."""


@cache
def _book() -> tuple[Scenario, ...]:
    results = load_scenarios(ROOT / "scenarios")
    assert all(r.ok for r in results), [p.format() for r in results for p in r.errors]
    return tuple(r.scenario for r in results if r.scenario is not None)


@cache
def _scenarios() -> tuple[Scenario, ...]:
    return (*_book(), *held_out())


@cache
def _rooms() -> tuple[tuple[str, Room], ...]:
    rooms = [(s.id, scenario_room(s)) for s in _scenarios()]
    rooms.append(("book", book_room(sorted(_book(), key=lambda s: s.id), "本")))
    return tuple(rooms)


def _zip(data: bytes) -> zipfile.ZipFile:
    return zipfile.ZipFile(io.BytesIO(data))


def _udonarium(room: Room, gm: bool = True) -> tuple[ET.Element, zipfile.ZipFile]:
    archive = _zip(udonarium_room(room, gm=gm))
    return ET.fromstring(archive.read("data.xml")), archive  # noqa: S314 - our own output


def _ccfolia(room: Room) -> tuple[dict[str, Any], zipfile.ZipFile]:
    archive = _zip(ccfolia_room(room))
    return json.loads(archive.read("__data.json")), archive


_UNESCAPE = {"&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&apos;": "'"}


def _udonarium_attr(value: str) -> str:
    """An attribute as Udonarium reads it: the parser's value, decoded once more."""
    return re.sub("&(amp|lt|gt|quot|apos);", lambda m: _UNESCAPE[m.group()], value)


# -- what a room holds --------------------------------------------------------------------


def test_every_enemy_is_a_piece_with_its_export() -> None:
    for scenario in _scenarios():
        room = scenario_room(scenario)
        enemies = [p for p in room.pieces if p.kind == "enemy"]
        assert len(enemies) == len(scenario.model.enemies)
        for piece, enemy in zip(enemies, scenario.model.enemies, strict=True):
            export = enemy_character(scenario.system, enemy, options=scenario.model.rulings)
            assert piece.character.name.startswith(enemy.name)
            assert piece.character.commands == export.commands
            assert piece.character.memo == export.memo
            assert piece.character.status == export.status
            assert piece.character.params == export.params


def test_enemies_sharing_a_name_are_numbered_copies() -> None:
    cut = next(s for s in held_out() if s.id == "room-cut")
    names = [p.character.name for p in scenario_room(cut).pieces if p.kind == "enemy"]
    assert names[:3] == ["ゴブリン1", "ゴブリン2", "ゴブリン3"]
    for _, room in _rooms()[:-1]:
        counts = Counter(p.character.name for p in room.pieces)
        assert max(counts.values()) == 1, counts


def test_party_pcs_are_pieces_with_palettes() -> None:
    with_party = [s for s in _scenarios() if s.model.party]
    assert {s.system for s in with_party} >= {"getb", "cutaction", "kegare", "kokuryoku"}
    for scenario in with_party:
        pcs = [p for p in scenario_room(scenario).pieces if p.kind == "pc"]
        assert [p.character.name for p in pcs] == [pc.name for pc in scenario.model.party or ()]
        for piece in pcs:
            assert piece.character.commands, piece.character.name
            assert piece.character.status, piece.character.name


def test_tables_are_palette_lines_with_every_entry() -> None:
    for scenario in _scenarios():
        room = scenario_room(scenario)
        gm = [p for p in room.pieces if p.kind == "gm"]
        tables = scenario.model.chase_tables
        if not tables:
            assert not gm
            continue
        (piece,) = gm
        assert len(piece.character.commands) == len(tables)
        for line, table in zip(piece.character.commands, tables, strict=True):
            assert line == table_line(table).text
            assert line.split(" ")[0] == table.die
            for key, entry in table.entries.items():
                assert f"{key} " in line
                assert " ".join(entry.title.split())[:10].replace("{", "⦃") in line
        titles = [n.title for n in room.notes]
        assert all(t.name in titles for t in tables)


def test_maps_put_pieces_in_their_cells() -> None:
    getb = next(s for s in held_out() if s.id == "room-getb")
    part = scenario_room(getb).parts[0]
    assert part.map is not None and part.map.name == "getb-dial"
    a, b, c = (p for p in part.pieces if p.kind == "enemy")
    assert a.on_map and b.on_map and c.on_map
    cx, cy = part.map.anchors["in3"]
    assert (a.x + 0.5, a.y + 0.5) == (cx, cy)
    assert (b.x, b.y) != (a.x, a.y)  # a second piece in the cell stands beside the first
    assert (c.x + 0.5, c.y + 0.5) == part.map.anchors["centre"]
    cut = next(s for s in held_out() if s.id == "room-cut")
    part = scenario_room(cut).parts[0]
    assert part.map is not None
    assert png_size(part.map.png) == (part.map.width * 48, part.map.height * 48)
    by_name = {p.character.name: p for p in part.pieces}
    assert by_name["ゴブリン3"].y + 0.5 == part.map.anchors["enemy"][1]
    for system in ("akatsuki", "kegare", "kokuryoku"):
        scenario = next(s for s in _book() if s.system == system)
        assert scenario_room(scenario).parts[0].map is None


def test_gm_only_notes_are_marked() -> None:
    room = scenario_room(next(s for s in held_out() if s.id == "room-cut"))
    secret = [n for n in room.notes if n.secret]
    assert [n.title for n in secret] == ["判定の目標値"]
    root, _ = _udonarium(room, gm=False)
    titles = [e.text for e in root.iter("data") if e.get("name") == "title"]
    assert titles and not any("GM専用" in (t or "") for t in titles)
    root, _ = _udonarium(room, gm=True)
    titles = [e.text for e in root.iter("data") if e.get("name") == "title"]
    assert "【GM専用】判定の目標値" in titles
    data, _ = _ccfolia(room)
    notes = list(data["entities"]["notes"].values())
    assert [n["secret"] for n in notes] == [n.secret for n in room.notes]


def _story() -> Scenario:
    return next(s for s in held_out() if s.id == "room-story")


def test_book_parts_become_notes_and_pieces() -> None:
    """Handouts, scenes, NPCs, the overview, credits: every word where it belongs."""
    scenario = _story()
    room = scenario_room(scenario)
    public = "\n".join(f"{n.title}\n{n.text}" for n in room.notes if not n.secret)
    secret = "\n".join(f"{n.title}\n{n.text}" for n in room.notes if n.secret)
    for marker in PUBLIC:
        assert marker in public or any(marker in p.character.memo for p in room.pieces), marker
    for marker in SECRETS:
        assert marker in secret, marker
        assert marker not in public, marker
        assert not any(marker in p.character.memo for p in room.pieces), marker
    npc = next(p for p in room.pieces if p.kind == "npc")
    assert npc.character.name == "老巫女" and "PUBLIC-NPC" in npc.character.memo
    titles = [n.title for n in room.notes]
    assert "【導入】鈴の音" in titles and "【クライマックス】本殿" in titles
    scene = next(n for n in room.notes if n.title == "【導入】鈴の音")
    assert "エネミー: 祟り神" in scene.text and "NPC: 老巫女" in scene.text
    assert "次: 本殿（鈴を鳴らす）" in scene.text
    credits = next(n for n in room.notes if n.title == "クレジット・権利表記")
    assert "非公式ファン作品" in credits.text  # the system's rights notice
    for sample in _book():
        if sample.model.handouts:
            notes = scenario_room(sample).notes
            assert sum(not n.secret and n.title.startswith("ハンドアウト") for n in notes) == len(
                sample.model.handouts
            )


def test_players_rooms_hold_no_gm_text() -> None:
    """The players' Udonarium room, and every public note and piece of the ココフォリア
    room, hold none of the GM-only text (checked on the bytes each file holds)."""
    room = scenario_room(_story())
    players = udonarium_room(room, gm=False)
    text = "".join(
        _zip(players).read(n).decode("utf-8") for n in _zip(players).namelist() if ".xml" in n
    )
    for marker in SECRETS:
        assert marker not in text, marker
    for marker in PUBLIC:
        assert marker in text, marker
    data, _ = _ccfolia(room)
    shown = json.dumps(
        [n for n in data["entities"]["notes"].values() if not n["secret"]]
        + [c for c in data["entities"]["characters"].values() if not c["secret"]],
        ensure_ascii=False,
    )
    for marker in SECRETS:
        assert marker not in shown, marker
    hidden = [n["text"] for n in data["entities"]["notes"].values() if n["secret"]]
    for marker in SECRETS:
        assert any(marker in t for t in hidden), marker


# -- ユドナリウム ---------------------------------------------------------------------------


def test_udonarium_room_holds_every_piece_palette_and_note() -> None:
    for name, room in _rooms():
        root, archive = _udonarium(room)
        assert root.tag == "room", name
        characters = root.findall("character")
        assert len(characters) == len(room.pieces)
        for element, piece in zip(characters, room.pieces, strict=True):
            common = element.find("./data/data[@name='common']/data[@name='name']")
            assert common is not None and common.text == piece.character.name
            palette = element.find("chat-palette")
            assert palette is not None and palette.get("dicebot") == DICEBOT
            assert (palette.text or "").split("\n") == list(piece.character.commands) or (
                not piece.character.commands and not palette.text
            )
            image = element.find(".//data[@name='imageIdentifier']")
            assert image is not None and f"{image.text}.png" in archive.namelist()
        notes = root.findall("text-note")
        assert len(notes) == len(room.notes) + 1  # and "このルームについて"
        texts = [n.find(".//data[@name='text']") for n in notes]
        assert [t.text if t is not None else None for t in texts][1:] == [
            n.text for n in room.notes
        ]
        tables = root.findall("game-table")
        assert len(tables) == len(room.parts)
        for table, part in zip(tables, room.parts, strict=True):
            floor = table.find(".//data[@name='floor']")
            if part.map is None:
                assert floor is None
            else:
                assert floor is not None
                data = archive.read(f"{floor.text}.png")
                assert hashlib.sha256(data).hexdigest() == floor.text
        assert "chat.xml" not in archive.namelist()  # loading keeps the session's chat


def test_udonarium_reads_hostile_text_exactly() -> None:
    room = scenario_room(next(s for s in held_out() if s.id == "room-cut"))
    data = udonarium_room(room)
    text = _zip(data).read("data.xml").decode("utf-8")
    assert "\ufffd" not in text  # Udonarium strips it from the file: a reference survives
    root = ET.fromstring(text)  # noqa: S314 - our own output
    names = [
        e.text
        for e in root.iter("data")
        if e.get("name") == "name" and e.text and e.text.startswith("親玉")
    ]
    assert names == ["親玉 " + HOSTILE]
    # attribute values are decoded twice by Udonarium: written so that both decodes give
    # the text back
    hostile_label = Character("x", params=((HOSTILE, "1"),))
    part = RoomPart("s", "t", "kegare", "k", (RoomPiece(hostile_label, "enemy"),), ())
    root = ET.fromstring(_zip(udonarium_room(Room("t", (part,)))).read("data.xml"))  # noqa: S314
    labels = [_udonarium_attr(e.get("name", "")) for e in root.iter("data")]
    assert HOSTILE in labels


@pytest.mark.parametrize("bad", ["\x01", "\ufffe", "\ud800", "\x1b"])
def test_text_xml_cannot_carry_is_refused(bad: str) -> None:
    part = RoomPart("s", "t", "kegare", "k", (RoomPiece(Character(f"a{bad}"), "enemy"),), ())
    with pytest.raises(ExportError, match="XML cannot carry"):
        udonarium_room(Room("t", (part,)))


# -- ココフォリア ---------------------------------------------------------------------------


def test_ccfolia_room_follows_the_exported_room() -> None:
    assert list(ENTITIES) == CCFOLIA_ENTITIES
    for name, room in _rooms():
        data, archive = _ccfolia(room)
        assert list(data) == ["meta", "entities", "resources"], name
        assert data["meta"] == {"version": "1.1.0"}
        assert list(data["entities"]) == CCFOLIA_ENTITIES
        assert list(data["entities"]["room"]) == CCFOLIA_ROOM_KEYS
        for collection in CCFOLIA_ENTITIES[1:]:
            for key in data["entities"][collection]:
                assert re.fullmatch(r"[0-9A-Za-z]{20}", key)
        names = set(archive.namelist())
        for resource, meta in data["resources"].items():
            assert meta == {"type": "image/png"}
            digest, ext = resource.split(".")
            assert ext == "png" and hashlib.sha256(archive.read(resource)).hexdigest() == digest
        assert names == {"__data.json", ".token", *data["resources"]}
        token = archive.read(".token").decode()
        assert token == "0." + hashlib.sha256(archive.read("__data.json")).hexdigest()
        used = {data["entities"]["room"]["foregroundUrl"]} | {
            c["iconUrl"] for c in data["entities"]["characters"].values()
        }
        assert used - {None} == set(data["resources"])


def test_ccfolia_characters_are_the_clipboard_objects() -> None:
    visibility = CcfoliaVisibility(secret=True)
    for _, room in _rooms():
        data, _ = _zip_data(room, visibility)
        characters = list(data["entities"]["characters"].values())
        assert len(characters) == len(room.pieces)
        for got, piece in zip(characters, room.pieces, strict=True):
            seen = visibility if piece.kind == "enemy" else CcfoliaVisibility()
            clipboard = ccfolia_json(piece.character, seen)["data"]
            assert {k: got[k] for k in CLIPBOARD_KEYS} == clipboard
            assert got["width"] == got["height"] == UNITS_PER_CELL
        first = room.parts[0]
        on_board = [c["active"] for c in characters[: len(first.pieces)]]
        assert on_board == [p.kind != "gm" for p in first.pieces]
        assert not any(c["active"] for c in characters[len(first.pieces) :])


def _zip_data(room: Room, visibility: CcfoliaVisibility) -> tuple[dict[str, Any], bytes]:
    raw = ccfolia_room(room, visibility)
    return json.loads(_zip(raw).read("__data.json")), raw


def test_ccfolia_board_is_the_map() -> None:
    getb = next(s for s in held_out() if s.id == "room-getb")
    room = scenario_room(getb)
    data, _ = _ccfolia(room)
    board = data["entities"]["room"]
    part = room.parts[0]
    assert part.map is not None
    assert board["foregroundUrl"] == hashlib.sha256(part.map.png).hexdigest() + ".png"
    assert (board["fieldWidth"], board["fieldHeight"]) == (
        part.map.width * UNITS_PER_CELL,
        part.map.height * UNITS_PER_CELL,
    )
    centre = next(c for c in data["entities"]["characters"].values() if "ヴァジュラ" in c["name"])
    # (0, 0) is the board's centre; the piece's top-left is half a cell from its cell's centre
    assert (centre["x"], centre["y"]) == (-UNITS_PER_CELL // 2, -UNITS_PER_CELL // 2)


# -- BCDice -------------------------------------------------------------------------------


def _palette_lines() -> list[tuple[str, str, str]]:
    """(where, game system, line) of every palette line of every room, both VTTs."""
    out: list[tuple[str, str, str]] = []
    for name, room in _rooms():
        root, _ = _udonarium(room)
        for element in root.findall("character"):
            palette = element.find("chat-palette")
            assert palette is not None
            system = palette.get("dicebot", "")
            out.extend((f"{name} (ユドナリウム)", system, line) for line in palette.itertext())
        data, _ = _ccfolia(room)
        for character in data["entities"]["characters"].values():
            out.extend(
                (f"{name} (ココフォリア)", DICEBOT, line)
                for line in character["commands"].splitlines()
            )
    return [(w, s, line) for w, s, text in out for line in text.split("\n") if line]


def test_every_palette_line_of_both_rooms_rolls_in_bcdice() -> None:
    where = _palette_lines()
    answer = _bcdice([(system, line) for _, system, line in where])
    failed = [
        f"{w}: {line!r}"
        for (w, _, line), r in zip(where, answer["results"], strict=True)
        if r["text"] is None or not r["pattern"] or r["system"] != DICEBOT
    ]
    assert not failed, failed
    tables = [
        (line, r["text"])
        for (_, _, line), r in zip(where, answer["results"], strict=True)
        if re.match(r"(\d*D\d+|D66) ", line)
    ]
    assert len(tables) >= 10
    for line, text in tables:
        die = line.split(" ")[0]
        assert text.startswith((f"({die.upper()})", f"({die})")), (line, text)
    print(f"BCDice {answer['version']}: {len(where)} palette lines of both rooms, all roll")


# -- bytes and safety ---------------------------------------------------------------------


def test_rooms_are_deterministic() -> None:
    for name, room in _rooms():
        for make in (udonarium_room, ccfolia_room):
            first, second = make(room), make(room)
            assert first == second, name
            infos = _zip(first).infolist()
            assert [i.filename for i in infos] == sorted(i.filename for i in infos)
            assert {i.date_time for i in infos} == {EPOCH}
            assert {i.create_system for i in infos} == {3}
    again = scenario_room(_book()[0])
    assert udonarium_room(again) == udonarium_room(_rooms()[0][1])


def test_zips_hold_only_plain_names_at_their_root() -> None:
    for _, room in _rooms():
        for make in (udonarium_room, ccfolia_room):
            for name in _zip(make(room)).namelist():
                assert safe_entry_name(name) and "/" not in name and "\\" not in name
    for bad in ("../x.png", "/etc/x", "a/b.xml", "C:x", "con.png", "a\x00b", "..", "", "a\\b"):
        with pytest.raises(ExportError):
            deterministic_zip({bad: b""})


@pytest.mark.parametrize(
    ("stem", "expected"),
    [
        ("getb-haito", "getb-haito.udonarium.zip"),
        ("con", "con_.udonarium.zip"),
        ("LPT1", "LPT1_.udonarium.zip"),
        ("../../etc/passwd", ".._.._etc_passwd.udonarium.zip"),
        ("a\x00b\x1fc", "a_b_c.udonarium.zip"),
        ('x:y*z?"<>|', "x_y_z_____.udonarium.zip"),
        ("dots. ", "dots.udonarium.zip"),
        ("", "room.udonarium.zip"),
    ],
)
def test_output_names_are_safe(stem: str, expected: str) -> None:
    assert output_name(stem, "udonarium") == expected


# -- the command --------------------------------------------------------------------------


def test_room_command_writes_one_file_per_scenario(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert main(["room", str(ROOT / "scenarios"), "--to", "udonarium", "-o", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{s.id}.udonarium.zip" for s in _book())
    assert main(["room", str(ROOT / "scenarios"), "--to", "ccfolia", "-o", str(out)]) == 0
    assert len(list(out.glob("*.ccfolia.zip"))) == len(_book())
    written = (out / "getb-haito.udonarium.zip").read_bytes()
    haito = next(s for s in _book() if s.id == "getb-haito")
    assert written == udonarium_room(scenario_room(haito))
    assert "getb-haito.udonarium.zip" in capsys.readouterr().out


def test_room_command_book(tmp_path: Path) -> None:
    args = ["room", str(ROOT / "scenarios"), "--book", "--to", "udonarium", "--to", "ccfolia"]
    assert main([*args, "-o", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "book.ccfolia.zip",
        "book.udonarium.zip",
    ]
    root = ET.fromstring(  # noqa: S314 - our own output
        _zip((tmp_path / "book.udonarium.zip").read_bytes()).read("data.xml")
    )
    assert len(root.findall("game-table")) == len(_book())
    assert main(["room", str(ROOT / "scenarios"), "--to", "udonarium", "--players", "-o",
                 str(tmp_path)]) == 0  # fmt: skip
    assert len(list(tmp_path.glob("*.udonarium-players.zip"))) == len(_book())


def test_room_command_refuses_invalid_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("system: getb\ntitle: x\nenemies:\n  - {id: a, name: A, hp: -1}\n", "utf-8")
    good = ROOT / "scenarios" / "getb-haito.yaml"
    out = tmp_path / "out"
    assert main(["room", str(good), str(bad), "--to", "udonarium", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "bad.yaml:4:" in err and "書き出しませんでした" in err
    assert not out.exists()
    assert main(["room", str(tmp_path / "nope.yaml"), "--to", "udonarium"]) == 1
    assert "ありません" in capsys.readouterr().err
    assert main(["room", str(good), "--to", "udonarium", "-o", str(bad)]) == 2
    assert main(["room", str(good), "--to", "roll20"]) == 2
    assert main(["room", str(good), str(good), "--to", "udonarium", "-o", str(out)]) == 1
    assert "getb-haito" in capsys.readouterr().err
    assert not out.exists()


def test_a_phone_keeping_the_book_offline_skips_the_rooms() -> None:
    from saikoro.site._offline import offline_files

    kept = offline_files(
        {
            "scenarios/x/room.udonarium.zip": b"1",
            "scenarios/x/room.ccfolia.zip": b"2",
            "scenarios/x/ogre.zip": b"3",
            "scenarios/x/index.html": b"4",
        }
    )
    assert sorted(kept) == ["scenarios/x/", "scenarios/x/ogre.zip"]


def test_scenario_page_offers_the_rooms() -> None:
    from saikoro.site._oddscache import OddsCache
    from saikoro.site._pages.scenario import render_scenario
    from saikoro.site._vtt import VttSettings

    vtt = VttSettings("https://example.org/book/", ccfolia=CcfoliaVisibility(secret=True))
    for scenario in _book():
        rendered = render_scenario(scenario, OddsCache(), zip_href="./", vtt=vtt)
        files = {f.name: f.content for f in rendered.files}
        page = "".join(rendered.slots)
        for name, download in (
            ("room.udonarium.zip", f"{scenario.id}.udonarium.zip"),
            ("room.udonarium-players.zip", f"{scenario.id}.udonarium-players.zip"),
            ("room.ccfolia.zip", f"{scenario.id}.ccfolia.zip"),
        ):
            assert f'href="./{name}" download="{download}"' in page
        room = scenario_room(scenario, url=vtt.enemy_url)
        assert files["room.udonarium.zip"] == udonarium_room(room)
        assert files["room.udonarium-players.zip"] == udonarium_room(room, gm=False)
        assert files["room.ccfolia.zip"] == ccfolia_room(room, vtt.ccfolia)
        again = render_scenario(scenario, OddsCache(), zip_href="./", vtt=vtt)
        assert {f.name: f.content for f in again.files} == files  # the same bytes each build
        data = json.loads(_zip(files["room.ccfolia.zip"]).read("__data.json"))
        urls = {c["externalUrl"] for c in data["entities"]["characters"].values()}
        assert {u for u in urls if u} <= {
            f"https://example.org/book/scenarios/{scenario.id}/#enemy-{e.id}"
            for e in scenario.model.enemies
        }


def test_room_command_survives_hostile_paths(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    good = str(ROOT / "scenarios" / "getb-haito.yaml")
    for out in ("a\x00b", "x" * 5000, "\udcff\udcfe"):
        status = main(["room", good, "--to", "udonarium", "-o", out])
        err = capsys.readouterr().err
        assert status in (0, 1), (out[:10], err)
        assert "Traceback" not in err
    for given in ("x" * 5000, "\x01", "../nowhere/../x.yaml"):
        assert main(["room", given, "--to", "ccfolia"]) == 1
        assert "ありません" in capsys.readouterr().err


def test_room_command_writes_only_its_files_in_its_folder(tmp_path: Path) -> None:
    """Nothing but the rooms changes, and only in the folder given."""
    work = tmp_path / "work"
    rooms = work / "rooms"
    rooms.mkdir(parents=True)
    (tmp_path / "outside.zip").write_bytes(b"theirs")
    (rooms / "notes.txt").write_text("mine", "utf-8")

    def state() -> dict[str, bytes]:
        return {
            str(p.relative_to(tmp_path)): p.read_bytes()
            for p in tmp_path.rglob("*")
            if p.is_file() and not p.is_symlink()
        }

    before = state()
    assert main(["room", str(ROOT / "scenarios"), "--to", "udonarium", "-o", str(rooms)]) == 0
    after = state()
    changed = {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
    assert all(k.startswith("work/rooms/") and k.endswith(".udonarium.zip") for k in changed)
    assert (rooms / "notes.txt").read_text("utf-8") == "mine"


def test_the_books_images_are_copied_never_linked() -> None:
    """An NPC's image is its piece; every image of the book is in the Udonarium room (its
    image library); both name each by the SHA-256 of its bytes."""
    scenario = next(s for s in _book() if s.model.npcs and any(n.image for n in s.model.npcs))
    room = scenario_room(scenario)
    npc = next(p for p in room.pieces if p.kind == "npc" and p.image is not None)
    assert npc.image is not None
    udonarium = _zip(udonarium_room(room))
    for image in room.parts[0].images:
        stored = udonarium.read(image.name)
        assert hashlib.sha256(stored).hexdigest() == image.name.split(".")[0]
    root = ET.fromstring(udonarium.read("data.xml"))  # noqa: S314 - our own output
    piece = next(
        c
        for c in root.findall("character")
        if (c.findtext(".//data[@name='name']") or "") == npc.character.name
    )
    identifier = piece.find(".//data[@name='imageIdentifier']")
    assert identifier is not None and f"{identifier.text}." in npc.image.name
    data, archive = _ccfolia(room)
    icon = next(
        c["iconUrl"]
        for c in data["entities"]["characters"].values()
        if c["name"] == npc.character.name
    )
    assert icon == npc.image.name and data["resources"][icon] == {"type": npc.image.mime}
    assert archive.read(icon) == npc.image.data
