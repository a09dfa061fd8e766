"""A scenario (or a whole book) as a VTT room: pieces, notes, tables and a map.

:func:`scenario_room` and :func:`book_room` build a :class:`Room` from validated
scenarios; :mod:`._room_udonarium` and :mod:`._room_ccfolia` write it as each VTT's room
file. The room is VTT-neutral: where a piece stands is given in grid cells (the writers
scale them), which text only the GM may read is marked ``secret``.

What a scenario puts in its room:

* every enemy as a piece (the per-enemy export, :func:`~._enemy.enemy_character`: the
  same resources, parameters, memo and palette); enemies sharing a name are numbered
  copies (ゴブリン1, ゴブリン2, ...), as a GM names them at the table;
* the PCs of ``party:``: every field as the memo, and the gauges, parameters and palette
  of the enemy their system's export module writes them as (``pc_as_enemy``);
* the tables (``chase_tables``) as palette lines of a GM piece, one per table, each
  rolling the table's die with every entry written after it, and as notes;
* the notes: the overview (summary, players, missions, rulings: what the players may
  read) and the difficulty targets (the GM's);
* the map of a system that has one (its export module's ``room_map``) with the pieces
  standing in their starting cells.

>>> from saikoro.scenario import validate_text
>>> text = ("system: kegare\\ntitle: 試し\\nenemies:\\n"
...     "  - {id: a, name: 鬼, hp: 9, attack: 1, defence: 1, initiative: 3}\\n"
...     "  - {id: b, name: 鬼, hp: 9, attack: 1, defence: 1, initiative: 3}\\n"
...     "  - {id: c, name: 大鬼, hp: 19, attack: 2, defence: 1, initiative: 3}\\n")
>>> room = scenario_room(validate_text(text, "t.yaml").scenario)
>>> [p.character.name for p in room.parts[0].pieces if p.kind == "enemy"]
['鬼1', '鬼2', '大鬼']
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from saikoro.scenario import (
    DEFINITIONS,
    PHASE_LABELS,
    Enum,
    ListOf,
    MapOf,
    Obj,
    Scenario,
    image_file,
    image_info,
)
from saikoro.scenario.model import (
    PC,
    ChaseTable,
    Enemy,
    Handout,
    Missions,
    Model,
    Scene,
    enemy_model,
)
from saikoro.systems import System, system_class
from saikoro.systems import get as get_system

from ._enemy import DICEBOT, enemy_character
from ._memo import model_lines, npc_character, pc_memo
from ._model import Character, ExportError
from ._palette import PaletteLine
from ._room_map import MapSpec

__all__ = [
    "GM_PIECE",
    "Room",
    "RoomImage",
    "RoomNote",
    "RoomPart",
    "RoomPiece",
    "book_room",
    "scenario_room",
    "table_line",
]

GM_PIECE = "シナリオの表"
"""The name of the GM piece whose palette rolls the scenario's tables."""

BENCH_STEP = 2.0
"""Cells between pieces standing in a row beside the map."""


@dataclass(frozen=True)
class RoomImage:
    """An image of the book (``images:``), copied into the room.

    Attributes:
        id: its id in the scenario.
        alt: what it shows.
        data: its bytes, as the author's file holds them.
        mime: its type (``image/png``, ``image/jpeg``, ``image/gif``, ``image/webp``).
    """

    id: str
    alt: str
    data: bytes = field(repr=False)
    mime: str = "image/png"

    @property
    def name(self) -> str:
        """Its file name in a room: the SHA-256 of its bytes and its extension."""
        ext = {"image/jpeg": "jpg"}.get(self.mime, self.mime.split("/")[-1])
        return f"{hashlib.sha256(self.data).hexdigest()}.{ext}"


@dataclass(frozen=True)
class RoomPiece:
    """A character of the room.

    Attributes:
        character: the VTT character (name, gauges, parameters, memo, palette).
        kind: ``enemy``, ``pc``, ``npc`` or ``gm`` (the piece rolling the tables).
        x, y: where it stands, top-left, in grid cells from the part's origin.
        on_map: whether it stands in a cell of the map (else beside it).
        secret: only the GM may see it (ココフォリア: 非公開; ユドナリウム: the GM's room only).
        image: its picture (an NPC's image), else ``None`` (the writers draw a token).
    """

    character: Character
    kind: str
    x: float = 0.0
    y: float = 0.0
    on_map: bool = False
    secret: bool = False
    image: RoomImage | None = None


@dataclass(frozen=True)
class RoomNote:
    """A shared note: a title and its text (``secret``: only the GM may read it)."""

    title: str
    text: str
    secret: bool = False


@dataclass(frozen=True)
class RoomPart:
    """What one scenario brings to a room.

    Attributes:
        scenario_id: the scenario's id.
        title: its title.
        system: its system id.
        system_name: the system's display name.
        pieces: its characters, in order (enemies, PCs, NPCs, the GM piece).
        notes: its notes, in reading order.
        map: the system's map, or ``None``.
        width, height: the area the part takes, in cells (the map, the pieces beside it).
    """

    scenario_id: str
    title: str
    system: str
    system_name: str
    pieces: tuple[RoomPiece, ...]
    notes: tuple[RoomNote, ...]
    map: MapSpec | None = None
    width: float = 0.0
    height: float = 0.0
    images: tuple[RoomImage, ...] = ()

    @property
    def dicebot(self) -> str:
        """The BCDice game system the palettes are written for (every piece's)."""
        return DICEBOT


@dataclass(frozen=True)
class Room:
    """A room: its title and one part per scenario (a book has several)."""

    title: str
    parts: tuple[RoomPart, ...] = field(default=())

    @property
    def pieces(self) -> tuple[RoomPiece, ...]:
        """Every piece of every part."""
        return tuple(p for part in self.parts for p in part.pieces)

    @property
    def notes(self) -> tuple[RoomNote, ...]:
        """Every note of every part."""
        return tuple(n for part in self.parts for n in part.notes)


# -- tables -------------------------------------------------------------------------------


def _entry_text(key: str, entry: Model) -> str:
    """``3-4 濡れた石畳: このカットの加速の達成値-1`` (an event named by the entry after it)."""
    title = str(getattr(entry, "title", "") or "")
    effect = str(getattr(entry, "effect", "") or "").strip()
    event = getattr(entry, "event", None)
    text = f"{key} {title}".strip()
    if effect:
        text += f": {effect}"
    if event:
        text += f"（イベント: {event}）"
    return text


def table_line(table: ChaseTable) -> PaletteLine:
    """The palette line of a table: its die, its name, then every entry.

    >>> from saikoro.scenario.model import ChaseEntry, ChaseTable
    >>> t = ChaseTable(name="表", die="1D6", entries={
    ...     "1-3": ChaseEntry(title="静か"), "4-6": ChaseEntry(title="嵐", effect="全員-1")})
    >>> table_line(t).text
    '1D6 表 ※1-3 静か／4-6 嵐: 全員-1'
    """
    entries = "／".join(_entry_text(str(k), e) for k, e in table.entries.items())
    return PaletteLine(table.die, table.name, entries, system_command=table.die)


def _event_meanings(system: str) -> dict[str, str]:
    """A table entry's ``event:`` -> what that event of the rule book does (the scenario
    definition's words for it), for the systems whose entries name events."""
    tables = DEFINITIONS[system].field("chase_tables").type
    if not isinstance(tables, ListOf) or not isinstance(tables.item, Obj):
        return {}
    entries = tables.item.field("entries").type
    if not isinstance(entries, MapOf) or not isinstance(entries.value, Obj):
        return {}
    event = next((f for f in entries.value.fields if f.name == "event"), None)
    if event is None or not isinstance(event.type, Enum):
        return {}
    return {c.value: c.ja for c in event.type.choices}


def _table_note(system: str, table: ChaseTable) -> RoomNote:
    """The whole table: its die, its description, every entry (an event told in words)."""
    meanings = _event_meanings(system)
    lines = [f"{table.die} を振る"]
    if table.description:
        lines.append(table.description.strip())
    for key, entry in table.entries.items():
        lines.append(_entry_text(str(key), entry))
        event = getattr(entry, "event", None)
        if event and meanings.get(event):
            lines.append(f"  イベント「{event}」: {meanings[event]}")
    return RoomNote(table.name, "\n".join(lines))


# -- notes --------------------------------------------------------------------------------


def _missions(system: str, missions: Missions) -> list[str]:
    """The main and side missions as the players hear them (without the side missions'
    ``check``, which tells the simulator how to count them)."""
    definition = DEFINITIONS[system].field("missions").type
    if not isinstance(definition, Obj):
        raise TypeError(f"{system}: missions are not a mapping")
    main = definition.field("main").type
    side = definition.field("side").type
    if not isinstance(main, Obj) or not isinstance(side, ListOf) or not isinstance(side.item, Obj):
        raise TypeError(f"{system}: missions are not main and side mappings")
    lines = ["【メインミッション】"]
    lines += ["  " + line for line in model_lines(main, missions.main)]
    for mission in missions.side:
        lines.append("【サイドミッション】")
        lines += ["  " + line for line in model_lines(side.item, mission, skip=("check",))]
    return lines


def _overview(scenario: Scenario, system: System) -> RoomNote:
    """The players' first note: the facts, the trailer, the summary, the missions, the
    rulings."""
    model = scenario.model
    lines = _facts(scenario, system)
    if model.trailer:
        lines += ["", "【トレーラー】", model.trailer.strip()]
    if model.summary:
        lines += ["", model.summary.strip()]
    if model.missions is not None:
        lines += ["", *_missions(scenario.system, model.missions)]
    if model.rulings:
        lines += ["", "【裁定】"]
        titles = {r.option_name: r.title for r in type(system).rulings}
        lines += [f"{titles.get(k, k)}: {v}" for k, v in sorted(model.rulings.items())]
    return RoomNote(scenario.title, "\n".join(lines))


def _targets(scenario: Scenario) -> RoomNote | None:
    targets = scenario.model.difficulty_targets
    if not targets:
        return None
    definition = DEFINITIONS[scenario.system].field("difficulty_targets").type
    if not isinstance(definition, ListOf) or not isinstance(definition.item, Obj):
        raise TypeError(f"{scenario.system}: difficulty_targets are not a list of mappings")
    item = definition.item
    lines: list[str] = []
    for target in targets:
        lines.append(f"【{target.name}】")
        lines.extend("  " + line for line in model_lines(item, target, skip=("name",)))
    return RoomNote("判定の目標値", "\n".join(lines), secret=True)


# -- pieces -------------------------------------------------------------------------------


def numbered(names: Sequence[str]) -> list[str]:
    """Names shared by several pieces become numbered copies, in order.

    >>> numbered(["鬼", "大鬼", "鬼", "鬼"])
    ['鬼1', '大鬼', '鬼2', '鬼3']
    >>> numbered(["鬼", "鬼", "鬼1"])  # a name already taken is skipped
    ['鬼2', '鬼3', '鬼1']
    """
    counts = Counter(names)
    taken = set(names)
    seen: Counter[str] = Counter()
    out: list[str] = []
    for name in names:
        if counts[name] == 1:
            out.append(name)
            continue
        seen[name] += 1
        candidate = f"{name}{seen[name]}"
        while candidate in taken:
            seen[name] += 1
            candidate = f"{name}{seen[name]}"
        taken.add(candidate)
        out.append(candidate)
    return out


def _module(system: System) -> object:
    return system.part("vtt", required=False)


def _pc_character(system: System, pc: PC) -> Character:
    """A PC as a character: every field as the memo; the gauges, parameters and palette
    of the enemy its system's ``pc_as_enemy`` writes it as (none without that hook)."""
    memo = pc_memo(system.id, pc)
    as_enemy: Callable[[PC], Mapping[str, object]] | None = getattr(
        _module(system), "pc_as_enemy", None
    )
    if as_enemy is None:
        return Character(pc.name, memo=memo)
    enemy = enemy_model(system.id, {"id": "pc", "name": pc.name, **as_enemy(pc)})
    return dataclasses.replace(enemy_character(system, enemy), memo=memo)


def _cell(system: System, what: str, item: Model) -> str | None:
    find: Callable[[Model], str | None] | None = getattr(_module(system), f"{what}_cell", None)
    return find(item) if find is not None else None


@dataclass
class _Layout:
    """Where pieces stand: in their cell of the map, else in a row below it."""

    map: MapSpec | None
    bench_y: float
    bench_x: float = 0.0
    crowd: Counter[str] = field(default_factory=Counter)

    def place(self, cell: str | None) -> tuple[float, float, bool]:
        if self.map is not None and cell is not None and cell in self.map.anchors:
            cx, cy = self.map.anchors[cell]
            n = self.crowd[cell]
            self.crowd[cell] += 1
            dx, dy = self.map.crowd[n % len(self.map.crowd)]
            return cx - 0.5 + dx, cy - 0.5 + dy, True
        x = self.bench_x
        self.bench_x += BENCH_STEP
        return x, self.bench_y, False


def _map(system: System) -> MapSpec | None:
    make: Callable[[], MapSpec] | None = getattr(_module(system), "room_map", None)
    return make() if make is not None else None


def scenario_part(
    scenario: Scenario,
    *,
    url: Callable[[str, str], str] | None = None,
    in_book: bool = False,
) -> RoomPart:
    """The part of a room one scenario brings.

    Args:
        scenario: a validated scenario.
        url: ``(scenario id, enemy id) -> URL`` of an enemy's published stat block
            (the characters' link back), or ``None`` for no link.
        in_book: the part is one of a book's (its GM piece is named after the scenario).
    """
    model = scenario.model
    options = dict(model.rulings)
    system = get_system(scenario.system, **options)
    room_map = _map(system)
    layout = _Layout(room_map, bench_y=(room_map.height + 0.5) if room_map else 0.0)
    pieces: list[RoomPiece] = []

    enemies: list[tuple[Enemy, Character]] = [
        (
            enemy,
            enemy_character(
                system, enemy, url=url(scenario.id, enemy.id) if url is not None else ""
            ),
        )
        for enemy in model.enemies
    ]
    names = numbered([c.name for _, c in enemies])
    for (enemy, character), name in zip(enemies, names, strict=True):
        x, y, on_map = layout.place(_cell(system, "enemy", enemy))
        piece = dataclasses.replace(character, name=name)
        pieces.append(RoomPiece(piece, "enemy", x, y, on_map))
    for pc in model.party or ():
        x, y, on_map = layout.place(_cell(system, "pc", pc))
        pieces.append(RoomPiece(_pc_character(system, pc), "pc", x, y, on_map))
    for npc, image in _npc_pieces(scenario):
        x, y, _ = layout.place(None)
        pieces.append(RoomPiece(npc, "npc", x, y, image=_image(scenario, image)))
    if model.chase_tables:
        x, y, _ = layout.place(None)
        gm = Character(
            f"{GM_PIECE}（{scenario.title}）" if in_book else GM_PIECE,
            commands=tuple(table_line(t).text for t in model.chase_tables),
            memo="表の全文は同じ名前のメモにあります。\n"
            + "\n".join(f"{t.name}（{t.die}）" for t in model.chase_tables),
        )
        pieces.append(RoomPiece(gm, "gm", x, y))

    public, gm_notes = _book_notes(scenario)
    notes: list[RoomNote] = [_overview(scenario, system), *public, *gm_notes]
    targets = _targets(scenario)
    if targets is not None:
        notes.append(targets)
    notes.extend(_table_note(scenario.system, t) for t in model.chase_tables)
    credits = _credits(scenario)
    if credits is not None:
        notes.append(credits)

    width = max(room_map.width if room_map else 0.0, layout.bench_x)
    height = layout.bench_y + (1.0 if layout.bench_x else 0.0)
    return RoomPart(
        scenario.id,
        scenario.title,
        scenario.system,
        system.name or system.id,
        tuple(pieces),
        tuple(notes),
        room_map,
        width,
        height,
        tuple(_images(scenario)),
    )


_MIME = {"png": "image/png", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp"}


def _image(scenario: Scenario, image_id: str | None) -> RoomImage | None:
    """The image ``image_id`` names, read from the book (``None`` for none)."""
    if image_id is None:
        return None
    image = scenario.model.image(image_id)
    data = image_file(scenario.path, image.file).read_bytes()
    info = image_info(data)
    if info is None:
        raise ExportError(f"{image.file}: not a PNG, JPEG, GIF or WebP image")
    return RoomImage(image.id, image.alt, data, _MIME[info[0]])


def _images(scenario: Scenario) -> list[RoomImage]:
    out = []
    for image in scenario.model.images:
        found = _image(scenario, image.id)
        if found is not None:
            out.append(found)
    return out


def _npc_pieces(scenario: Scenario) -> list[tuple[Character, str | None]]:
    """The NPCs as pieces: name and public text (their secret goes to a GM-only note), and
    the image each names (its id), if any."""
    return [
        (npc_character(dataclasses.replace(npc, secret=None)), npc.image)
        for npc in scenario.model.npcs
    ]


def _facts(scenario: Scenario, system: System) -> list[str]:
    """System, players, play time, author: the scenario's head line."""
    model = scenario.model
    out = [f"システム: {system.name or system.id}"]
    if model.players is not None:
        out.append(f"プレイヤー: {model.players}人")
    if model.playtime:
        out.append(f"プレイ時間: {model.playtime}")
    if model.author:
        out.append(f"作者: {model.author}")
    return out


def _handout_title(handout: Handout) -> str:
    return f"{handout.pc}：{handout.title}" if handout.title else handout.pc


def _scene_note(scenario: Scenario, scene: Scene) -> RoomNote:
    """A scene for the GM: its text, what it uses, where it leads."""
    model = scenario.model
    lines = [scene.text.strip()] if scene.text else []
    enemies = {e.id: e.name for e in model.enemies}
    npcs = {n.id: n.name for n in model.npcs}
    titles = {s.id: s.title for s in model.scenes}
    uses = (
        ("判定", list(scene.checks or ())),
        ("エネミー", [enemies.get(i, i) for i in scene.enemies or ()]),
        ("チェイス", list(scene.chases or ())),
        ("表", list(scene.tables or ())),
        ("NPC", [npcs.get(i, i) for i in scene.npcs or ()]),
    )
    lines += [f"{label}: {'、'.join(names)}" for label, names in uses if names]
    branches = model.next_scenes(scene)
    if branches:
        lines.append(
            "次: "
            + "／".join(
                titles.get(b.scene, b.scene) + (f"（{b.condition}）" if b.condition else "")
                for b in branches
            )
        )
    title = f"【{PHASE_LABELS.get(scene.phase, scene.phase)}】{scene.title}"
    return RoomNote(title, "\n".join(lines), secret=True)


def _book_notes(scenario: Scenario) -> tuple[list[RoomNote], list[RoomNote]]:
    """The book's own parts as notes: (those read before the GM's, the GM's).

    Public: every handout's public part. The GM's: the overview, the scenes in order, each
    handout's secret (only its PC's player may read it: a room file cannot show a note to
    one player, so it is the GM's to hand over) and each NPC's secret.
    """
    model = scenario.model
    public = [RoomNote(f"ハンドアウト {_handout_title(h)}", h.text.strip()) for h in model.handouts]
    gm: list[RoomNote] = []
    if model.overview:
        gm.append(RoomNote("概要（GM用）", model.overview.strip(), secret=True))
    gm.extend(_scene_note(scenario, scene) for scene in model.scenes)
    gm.extend(
        RoomNote(
            f"ハンドアウト {_handout_title(h)}（秘匿）",
            f"{h.pc}のプレイヤーだけが読みます。GMから渡してください。\n{h.secret.strip()}",
            secret=True,
        )
        for h in model.handouts
        if h.secret
    )
    gm.extend(
        RoomNote(f"NPC {n.name}（GMだけが知ること）", n.secret.strip(), secret=True)
        for n in model.npcs
        if n.secret
    )
    return public, gm


def _credits(scenario: Scenario) -> RoomNote | None:
    """クレジット・権利表記: the author, the credits, the author's notice, the system's."""
    model = scenario.model
    lines = [f"作者: {model.author}"] if model.author else []
    lines += list(model.credits or ())
    if model.notice:
        lines.append(model.notice.strip())
    rights = system_class(scenario.system).rights
    if rights is not None:
        lines.append(rights.text())
    return RoomNote("クレジット・権利表記", "\n".join(lines)) if lines else None


def scenario_room(
    scenario: Scenario,
    *,
    url: Callable[[str, str], str] | None = None,
) -> Room:
    """The room of one scenario (see the module's docstring for what it holds)."""
    return Room(scenario.title, (scenario_part(scenario, url=url),))


def book_room(
    scenarios: Iterable[Scenario],
    title: str,
    *,
    url: Callable[[str, str], str] | None = None,
) -> Room:
    """One room holding every scenario of a book, in the order given."""
    return Room(title, tuple(scenario_part(s, url=url, in_book=True) for s in scenarios))
