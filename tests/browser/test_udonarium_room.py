"""Every room loads into the real ユドナリウム, and reads back as saikoro wrote it.

Udonarium (v1.17.3, built from its public source once and cached: see ``udonarium.py``)
is served on 127.0.0.1 and driven in headless Chromium. Each room zip is dropped on the
page as a GM drops the file; then Udonarium's own objects are read: every character
(name, where it stands, its piece image, its resources, parameters and memo, its chat
palette and dice bot, and each palette line as Udonarium evaluates it before sending
it, then rolled by Udonarium's own BCDice as a chat message is), every text note, the
tables and the map's terrain with its image. The sample book's
scenarios, the held-out ones (``room_cases.py``: hostile text, numbered copies, a
party), a whole book, and the players' room (no GM-only note) are each loaded.

``SAIKORO_SCREENSHOTS=DIR`` saves a screenshot of each loaded room there.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from udonarium import Udonarium, built_app, serve_app  # puts tests/ on the path

from room_cases import held_out  # tests/room_cases.py
from saikoro.export import Room, book_room, scenario_room, udonarium_room
from saikoro.export._room_udonarium import GM_MARK, GRID, about_text, layout
from saikoro.scenario import Scenario, load_scenarios

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.xdist_group("udonarium")]

ROOT = Path(__file__).resolve().parents[2]


@cache
def _book() -> tuple[Scenario, ...]:
    results = load_scenarios(ROOT / "scenarios")
    assert all(r.ok for r in results), [p.format() for r in results for p in r.errors]
    return tuple(r.scenario for r in results if r.scenario is not None)


def _scenarios() -> list[Scenario]:
    return [*_book(), *held_out()]


@pytest.fixture(scope="module")
def udonarium(browser: Any) -> Iterator[Udonarium]:
    """One Udonarium page for the module (each dropped room replaces the last)."""
    app = built_app()
    with serve_app(app) as url:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        yield Udonarium(page, url)
        context.close()


def _expected_notes(room: Room, *, gm: bool) -> list[tuple[str, str]]:
    notes = [("このルームについて", about_text(room, gm=gm))]
    notes += [
        ((GM_MARK if n.secret else "") + n.title, n.text) for n in room.notes if gm or not n.secret
    ]
    return notes


def _resources(detail: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every data element under the character's detail, by name (sections included)."""
    out: dict[str, dict[str, Any]] = {}
    stack = list(detail["children"])
    while stack:
        element = stack.pop()
        out[element["name"]] = element
        stack.extend(element["children"])
    return out


def _check(udonarium: Udonarium, room: Room, *, gm: bool = True) -> dict[str, Any]:
    pieces = [p for p in room.pieces if gm or not p.secret]
    notes = _expected_notes(room, gm=gm)
    state = udonarium.load(udonarium_room(room, gm=gm), characters=len(pieces), notes=len(notes))
    assert not udonarium.errors, udonarium.errors
    assert sorted(c["name"] for c in state["characters"]) == sorted(
        p.character.name for p in pieces
    )
    unread = list(state["characters"])
    first = {id(p) for p in room.parts[0].pieces}
    for piece in pieces:
        character = piece.character
        # an empty palette is one empty line to Udonarium (``"".split("\n")``)
        palette = list(character.commands) or [""]
        # the first character of that name whose palette is this one's (a book may hold
        # two enemies of one name, from two scenarios)
        c = next(c for c in unread if c["name"] == character.name and c["palette"] == palette)
        unread.remove(c)
        assert c["dicebot"] == "DiceBot"
        # what Udonarium sends for each line, after its {variable} substitution
        assert c["lines"] == palette, character.name
        assert c["variables"] == 0
        mime = piece.image.mime if piece.image is not None else "image/png"
        assert c["image"]["state"] == 2 and c["image"]["type"] == mime
        if id(piece) in first:
            assert c["location"] == "table"
            origin = layout(room, gm=gm).origin
            assert (c["x"], c["y"]) == (
                round(piece.x * GRID, 2),
                round((piece.y + origin) * GRID, 2),
            )
        else:
            assert c["location"] == "common"
        data = _resources(c["detail"])
        for label, current, maximum in character.status:
            assert data[label]["type"] == "numberResource"
            assert (data[label]["value"], data[label]["currentValue"]) == (
                str(maximum),
                str(current),
            )
        assert data["イニシアティブ"]["value"] == str(character.initiative)
        for label, text in character.params:
            assert data[label]["value"] == text
        if character.memo:
            assert data["メモ"]["type"] == "note" and data["メモ"]["value"] == character.memo
    # every palette line rolls in Udonarium's own BCDice, under the dice bot it names
    lines = [(c["dicebot"], line) for c in state["characters"] for line in c["lines"] if line]
    results = udonarium.roll(lines)
    unrolled = [line for (_, line), result in zip(lines, results, strict=True) if not result]
    assert not unrolled, unrolled
    assert sorted((n["title"], n["text"]) for n in state["notes"]) == sorted(notes)
    tables = state["tables"]
    assert [t["name"] for t in tables] == [p.title for p in room.parts]
    assert [t["selected"] for t in tables] == [i == 0 for i in range(len(tables))]
    for table, part in zip(tables, room.parts, strict=True):
        if part.map is None:
            assert table["terrains"] == []
            continue
        (terrain,) = table["terrains"]
        assert terrain["name"] == part.map.title
        assert (terrain["width"], terrain["depth"], terrain["height"]) == (
            part.map.width,
            part.map.height,
            0,
        )
        assert terrain["locked"] and terrain["mode"] == 1
        assert terrain["floor"]["state"] == 2 and terrain["floor"]["type"] == "image/png"
    labels = {label for p in pieces for label, _, _ in p.character.status}
    assert set(state["summary"].split()) == labels
    assert state["chatTabs"] == ["メインタブ", "サブタブ"]  # the session's chat is kept
    _screenshot(udonarium, room, gm=gm)
    return state


def _screenshot(udonarium: Udonarium, room: Room, *, gm: bool) -> None:
    folder = os.environ.get("SAIKORO_SCREENSHOTS")
    if not folder:
        return
    name = room.parts[0].scenario_id + ("" if gm else "-players")
    if len(room.parts) > 1:
        name = "book"
    Path(folder).mkdir(parents=True, exist_ok=True)
    udonarium.screenshot(Path(folder) / f"udonarium-{name}.png")


@pytest.mark.parametrize("scenario", _scenarios(), ids=lambda s: s.id)
def test_room_loads_in_udonarium(udonarium: Udonarium, scenario: Scenario) -> None:
    room = scenario_room(scenario)
    state = _check(udonarium, room)
    enemies = [c for c in state["characters"] if c["name"] != "シナリオの表"]
    assert len(enemies) >= len(scenario.model.enemies)


def test_numbered_copies_and_hostile_text_read_back(udonarium: Udonarium) -> None:
    cut = next(s for s in held_out() if s.id == "room-cut")
    state = _check(udonarium, scenario_room(cut))
    names = [c["name"] for c in state["characters"]]
    assert {"ゴブリン1", "ゴブリン2", "ゴブリン3"} <= set(names)
    boss = next(e for e in cut.model.enemies if e.id == "boss")
    assert boss.name in names  # </data>, &amp;, quotes, {HP}, U+FFFD: exactly as written


def test_players_room_has_no_gm_note(udonarium: Udonarium) -> None:
    cut = next(s for s in held_out() if s.id == "room-cut")
    room = scenario_room(cut)
    assert any(n.secret for n in room.notes)
    state = _check(udonarium, room, gm=False)
    assert not any(GM_MARK in n["title"] for n in state["notes"])


def test_book_room_loads_in_udonarium(udonarium: Udonarium) -> None:
    room = book_room(sorted(_book(), key=lambda s: s.id), "サンプルの本")
    state = _check(udonarium, room)
    assert len(state["tables"]) == len(_book())
