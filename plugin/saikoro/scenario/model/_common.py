"""The parts of a scenario every system shares: missions, chase tables, balance, the root.

Each system subclasses :class:`ScenarioModel`, :class:`Enemy`, :class:`DifficultyTarget`
and :class:`PC` (see :mod:`saikoro.systems._getb.model` ...), narrowing what the lists hold.
Field names are the scenario's keys; the values are what validation gave, defaults filled.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar

from saikoro.scenario._defs._party import BALANCE
from saikoro.systems import OptionValue

from ._build import DEFINED, Model, defaults_from

__all__ = [
    "PC",
    "Balance",
    "Branch",
    "ChaseEntry",
    "ChaseTable",
    "DifficultyTarget",
    "Enemy",
    "Handout",
    "Image",
    "MainMission",
    "Missions",
    "Npc",
    "ScenarioModel",
    "Scene",
    "SideCheck",
    "SideMission",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class DifficultyTarget(Model):
    """A check the scenario asks for (``difficulty_targets:``); systems add their numbers."""

    name: str
    note: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Enemy(Model):
    """An enemy (``enemies:``): id and name; systems add the stat block."""

    id: str
    name: str
    notes: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PC(Model):
    """A PC of ``party:``; systems add the stat block."""

    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class MainMission(Model):
    """``missions.main``: when the scenario is won, lost, and its round limit."""

    success: str
    failure: str | None = None
    rounds: int | None = None


def _no_facts() -> Mapping[str, int | bool]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True, kw_only=True)
class SideCheck(Model):
    r"""``missions.side[].check``: the side mission's condition in the simulator's terms.

    Every key given must hold; ``None``: not given (or not offered by the system, see
    :data:`saikoro.scenario._defs.SIDE_CHECKS`). The keys a system declares itself
    (``kegare_at_most``, ``power_at_least``...: its ``SideFact``\ s) are in :attr:`facts`.
    """

    EXTRA: ClassVar[str] = "facts"
    """The field that holds the defined keys the class does not name (see
    :func:`~saikoro.scenario.model._build.build`)."""

    win: bool | None = None
    rounds_at_most: int | None = None
    downed_at_most: int | None = None
    standing: tuple[str, ...] | None = None
    all_defeated: bool | None = None
    defeated: tuple[str, ...] | None = None
    spared: tuple[str, ...] | None = None
    defeated_first: tuple[str, ...] | None = None
    taken_at_most: int | None = None
    no_damage_from: tuple[str, ...] | None = None
    targets: tuple[str, ...] | None = None
    targets_at_least: int | None = None
    facts: Mapping[str, int | bool] = dataclasses.field(default_factory=_no_facts)
    """The system's own keys given (``{"kegare_at_most": 3}``), by key."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SideMission(Model):
    """One of ``missions.side``; ``check`` is its condition for the simulation, if stated."""

    success: str
    reward: str | None = None
    check: SideCheck | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Missions(Model):
    """``missions:``: the main mission and the side missions."""

    main: MainMission
    side: tuple[SideMission, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ChaseEntry(Model):
    """One event of a random table."""

    title: str
    effect: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ChaseTable(Model):
    """A random table (``chase_tables:``): the die and result (``"1"``, ``"2-3"``) -> event."""

    name: str
    die: str
    entries: Mapping[str, ChaseEntry]
    description: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
@defaults_from(BALANCE)
class Balance(Model):
    """``balance:``: the win rate aimed for and how the simulation plays."""

    win: str | None = None
    battles: int = DEFINED
    defeat: tuple[str, ...] | None = None
    tactics: str | None = None
    enemy_tactics: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Image(Model):
    """An image of ``images:``: a file in the book (relative to the scenario file), its
    alt text, an optional caption and display width."""

    id: str
    file: str
    alt: str
    caption: str | None = None
    width: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Handout(Model):
    """A handout (``handouts:``): for ``pc``, a public ``text`` every player may read and a
    ``secret`` only that PC's player (and the GM) reads."""

    id: str
    pc: str
    text: str
    title: str | None = None
    secret: str | None = None
    image: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Npc(Model):
    """A person who is not an enemy (``npcs:``); ``secret`` is for the GM only."""

    id: str
    name: str
    text: str | None = None
    secret: str | None = None
    image: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Branch(Model):
    """Where a scene leads (``next:``): a scene id and the condition, if written."""

    scene: str
    condition: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Scene(Model):
    """A scene (``scenes:``): its phase (``opening``, ``middle``, ``climax``, ``ending``;
    Japanese names are read as these), what it uses (difficulty targets, chases and
    tables by name; enemies and NPCs by id) and where it leads (``next``: ``None`` when
    not written, then the following scene, or none after an ending). ``chases`` is
    ``None`` in a system whose difficulty targets cannot be chases."""

    id: str
    phase: str
    title: str
    text: str | None = None
    checks: tuple[str, ...] = ()
    enemies: tuple[str, ...] = ()
    chases: tuple[str, ...] | None = None
    tables: tuple[str, ...] = ()
    npcs: tuple[str, ...] = ()
    image: str | None = None
    next: tuple[Branch, ...] | None = None


def _no_rulings() -> Mapping[str, OptionValue]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True, kw_only=True)
class ScenarioModel(Model):
    """A whole validated scenario (its ``id`` filled from the file name when absent)."""

    system: str
    id: str
    title: str
    author: str | None = None
    summary: str | None = None
    players: int | str | None = None
    playtime: str | None = None
    overview: str | None = None
    trailer: str | None = None
    handouts: tuple[Handout, ...] = ()
    scenes: tuple[Scene, ...] = ()
    npcs: tuple[Npc, ...] = ()
    images: tuple[Image, ...] = ()
    difficulty_targets: tuple[DifficultyTarget, ...] = ()
    enemies: tuple[Enemy, ...] = ()
    missions: Missions | None = None
    chase_tables: tuple[ChaseTable, ...] = ()
    rulings: Mapping[str, OptionValue] = dataclasses.field(default_factory=_no_rulings)
    credits: tuple[str, ...] = ()
    notice: str | None = None
    party: tuple[PC, ...] | None = None
    balance: Balance | None = None

    def enemy(self, enemy_id: str) -> Enemy:
        """The enemy with id ``enemy_id`` (``KeyError`` if none)."""
        for e in self.enemies:
            if e.id == enemy_id:
                return e
        raise KeyError(enemy_id)

    def image(self, image_id: str) -> Image:
        """The image with id ``image_id`` (``KeyError`` if none)."""
        for i in self.images:
            if i.id == image_id:
                return i
        raise KeyError(image_id)

    def next_scenes(self, scene: Scene) -> tuple[Branch, ...]:
        """Where ``scene`` leads: its ``next``, else the following scene (none after the
        last scene or an ending)."""
        if scene.next is not None:
            return scene.next
        index = self.scenes.index(scene)
        if scene.phase == "ending" or index + 1 >= len(self.scenes):
            return ()
        return (Branch(scene=self.scenes[index + 1].id),)
