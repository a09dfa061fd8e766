"""The simulator's input: a party and an encounter, read from a validated scenario.

This module is the one place that reads the scenario's data (plain validated dicts
today; the typed scenario model of issue 11 later). Everything else in
:mod:`saikoro.balance` reads these frozen dataclasses.

>>> from saikoro.scenario import validate_text
>>> sc = validate_text("system: kegare\\ntitle: t\\nplayers: 2\\n", "t.yaml").scenario
>>> enc = encounter(sc)
>>> enc.party.label, len(enc.party.members), enc.round_limit
('reference-2', 2, None)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any, Protocol

from saikoro.systems import OptionValue
from saikoro.systems import get as get_system
from saikoro.systems.base import System
from saikoro.systems.kegare.status import Status

from .parties import reference_party
from .stats import parse_win_range

__all__ = [
    "AkatsukiPC",
    "AkatsukiTarget",
    "BalanceSpec",
    "CutAttack",
    "CutEnemy",
    "CutPC",
    "Encounter",
    "GetbAttack",
    "GetbEnemy",
    "GetbPC",
    "KegareEnemy",
    "KegarePC",
    "KegareSkill",
    "KokuryokuMember",
    "KokuryokuTarget",
    "Party",
    "ScenarioLike",
    "encounter",
    "parse_party",
    "party_size",
]


class ScenarioLike(Protocol):
    """What :func:`encounter` needs of a scenario (:class:`saikoro.scenario.Scenario`)."""

    @property
    def id(self) -> str: ...
    @property
    def system(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def data(self) -> dict[str, Any]: ...


# -- akatsuki ---------------------------------------------------------------------------


@dataclass(frozen=True)
class AkatsukiPC:
    """A PC of 君ヨ、暁ノ大地ニ死スベシ: ability levels, specialties, awakening cards."""

    name: str
    abilities: Mapping[str, int]
    specialties: tuple[str, ...] = ()
    cards: int = 0


@dataclass(frozen=True)
class AkatsukiTarget:
    """A difficulty target: ability, style, base difficulty, preparation, NPC support."""

    name: str
    ability: str
    style: str | None
    difficulty: int
    preparation: int
    support: int
    level: int | None


# -- kokuryoku --------------------------------------------------------------------------


@dataclass(frozen=True)
class KokuryokuMember:
    """A nation (with a power gauge) or a character (abilities, attack, defence)."""

    name: str
    kind: str
    power: int | None
    abilities: Mapping[str, int]
    attack: int
    defence: int

    @property
    def best(self) -> int:
        """The highest ability (checks may use any ability)."""
        return max(self.abilities.values(), default=0)


@dataclass(frozen=True)
class KokuryokuTarget:
    """A middle-phase check: target, power gained, the starting ability (if set)."""

    name: str
    target: int
    gain: int
    ability: str | None


# -- kegare -----------------------------------------------------------------------------


@dataclass(frozen=True)
class KegareSkill:
    """An attack skill: base damage, ranged, single or all, the status it names."""

    name: str
    damage: int
    ranged: bool = False
    area: bool = False
    status: str | None = None


@dataclass(frozen=True)
class KegarePC:
    """A 穢れ PC: HP, attack, defence, initiative, position, its attack."""

    name: str
    hp: int
    attack: int
    defence: int
    initiative: int
    position: str = "near"
    damage: int = 5
    ranged: bool = False
    blessed: bool = False


@dataclass(frozen=True)
class KegareEnemy:
    """A 穢れ enemy with its attack skills and immunities."""

    id: str
    name: str
    hp: int
    attack: int
    defence: int
    initiative: int
    position: str
    blessed: bool
    skills: tuple[KegareSkill, ...]
    immune: frozenset[str]


# -- getb -------------------------------------------------------------------------------


@dataclass(frozen=True)
class GetbAttack:
    """An attack: weapon kind, power, range, damage dice."""

    name: str
    weapon: str
    power: int
    range: tuple[int, int]
    dice: int


@dataclass(frozen=True)
class GetbPC:
    """A God Eater: abilities, HP, AP, ST, OP, a melee weapon, maybe a gun, a shield."""

    name: str
    abilities: Mapping[str, int]
    hp: int
    ap: int
    st: int
    op: int
    weapon: str
    power: int
    gun_power: int | None
    gun_range: tuple[int, int]
    shield: str
    armor: int


@dataclass(frozen=True)
class GetbEnemy:
    """An Aragami: abilities, HP, AP, ST, OP, placement, attacks, guard."""

    id: str
    name: str
    abilities: Mapping[str, int]
    hp: int
    ap: int
    st: int
    op: int | None
    placement: str
    attacks: tuple[GetbAttack, ...]
    shield: str | None
    armor: int


# -- cutaction --------------------------------------------------------------------------


@dataclass(frozen=True)
class CutAttack:
    """An attack: melee or shooting, damage."""

    name: str
    kind: str
    damage: int


@dataclass(frozen=True)
class CutPC:
    """A cut-action PC: body and head success values, stamina, row, attack."""

    name: str
    body: int
    head: int
    hp: int
    area: str
    attack: CutAttack


@dataclass(frozen=True)
class CutEnemy:
    """A cut-action enemy: success values, stamina, row, cover, attacks, vehicle, blockade."""

    id: str
    name: str
    body: int
    head: int
    hp: int
    area: str
    cover: str
    attacks: tuple[CutAttack, ...]
    vehicle: str | None
    blockade: bool


# -- the encounter ----------------------------------------------------------------------


@dataclass(frozen=True)
class Party:
    """The PCs (``members``; a nation among them in kokuryoku) and where they came from."""

    label: str
    members: tuple[Any, ...]

    @property
    def names(self) -> tuple[str, ...]:
        """Every member's name."""
        return tuple(m.name for m in self.members)


@dataclass(frozen=True)
class BalanceSpec:
    """The scenario's ``balance:`` targets."""

    win: tuple[Fraction, Fraction] | None = None
    win_text: str = ""
    battles: int = 400
    tactics: str | None = None
    enemy_tactics: str | None = None


@dataclass(frozen=True)
class Encounter:
    """Everything one simulator needs.

    Attributes:
        scenario / system / title: identity.
        party: the PCs.
        enemies: the system's enemy dataclasses.
        targets: the system's difficulty targets.
        round_limit: the main mission's round limit (``None``: none given).
        defeat: enemy ids whose defeat is the main mission (empty: all of them).
        rulings: the scenario's ``rulings`` (the system's options as given).
        chase_goal: cut-action only: the chase's goal (10 x the chase target), if any.
        balance: the ``balance:`` targets, if given.
    """

    scenario: str
    system: str
    title: str
    party: Party
    enemies: tuple[Any, ...]
    targets: tuple[Any, ...]
    round_limit: int | None
    defeat: tuple[str, ...]
    rulings: tuple[tuple[str, OptionValue], ...]
    chase_goal: int | None = None
    balance: BalanceSpec | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def rules(self) -> System:
        """The system with the scenario's rulings applied."""
        return _system(self.system, self.rulings)

    @property
    def options(self) -> Mapping[str, OptionValue]:
        """The ruling options in force (defaults filled in)."""
        return self.rules.options


@cache
def _system(system: str, rulings: tuple[tuple[str, OptionValue], ...]) -> System:
    return get_system(system, **dict(rulings))


def party_size(players: int | str | None, default: int = 4) -> int:
    """The party size a scenario's ``players`` asks for: the smallest it names.

    >>> party_size("3-5"), party_size(2), party_size(None)
    (3, 2, 4)
    """
    if players is None:
        return default
    if isinstance(players, int):
        return players
    return int(str(players).split("-")[0])


def _range(value: int | str) -> tuple[int, int]:
    if isinstance(value, int):
        return value, value
    low, _, high = str(value).partition("-")
    return int(low), int(high or low)


def _member(system: str, d: Mapping[str, Any]) -> Any:
    if system == "akatsuki":
        return AkatsukiPC(
            d["name"], dict(d["abilities"]), tuple(d.get("specialties", ())), d.get("cards", 0)
        )
    if system == "kokuryoku":
        return KokuryokuMember(
            d["name"],
            d.get("kind", "character"),
            d.get("power"),
            dict(d.get("abilities", {})),
            d.get("attack", 0),
            d.get("defence", 0),
        )
    if system == "kegare":
        return KegarePC(
            d["name"],
            d["hp"],
            d["attack"],
            d["defence"],
            d["initiative"],
            d.get("position", "near"),
            d.get("damage", 5),
            d.get("ranged", False),
            d.get("blessed", False),
        )
    if system == "getb":
        return GetbPC(
            d["name"],
            dict(d["abilities"]),
            d["hp"],
            d["ap"],
            d["st"],
            d.get("op", 0),
            d.get("weapon", "long-blade"),
            d.get("power", 5),
            d.get("gun_power"),
            _range(d.get("gun_range", "1-3")),
            d.get("shield", "buckler"),
            d.get("armor", 0),
        )
    if system == "cutaction":
        return CutPC(
            d["name"],
            d["body"],
            d["head"],
            d["hp"],
            d.get("area", "home"),
            CutAttack("攻撃", d.get("attack", "shooting"), d.get("damage", 4)),
        )
    raise ValueError(f"no simulator for system {system!r}")


def parse_party(system: str, members: Sequence[Mapping[str, Any]], label: str) -> Party:
    """A :class:`Party` from validated ``party:`` entries."""
    return Party(label, tuple(_member(system, d) for d in members))


def _status_named(text: str | None) -> str | None:
    """The first status effect a skill's effect text names (``None``: none)."""
    if not text:
        return None
    for status in Status:  # the system's status effects, by their Japanese names
        if status.value in text:
            return status.name.lower()
    return None


def _enemy(system: str, d: Mapping[str, Any]) -> Any:
    if system == "akatsuki":
        return d["id"]
    if system == "kokuryoku":
        return KokuryokuMember(
            d["name"],
            d.get("kind", "character"),
            d.get("power"),
            dict(d.get("abilities", {})),
            d.get("attack", 0),
            d.get("defence", 0),
        )
    if system == "kegare":
        skills = tuple(
            KegareSkill(
                s["name"],
                s.get("damage") or 0,
                s.get("ranged", False),
                s.get("target") == "all",
                _status_named(s.get("effect")),
            )
            for s in d.get("skills", [])
            if s["kind"] == "attack"
        )
        if not skills:
            skills = (KegareSkill("攻撃", 0),)
        return KegareEnemy(
            d["id"],
            d["name"],
            d["hp"],
            d["attack"],
            d["defence"],
            d["initiative"],
            d.get("position", "near"),
            d.get("blessed", False),
            skills,
            frozenset(d.get("immune", ())),
        )
    if system == "getb":
        guard = d.get("guard") or {}
        return GetbEnemy(
            d["id"],
            d["name"],
            dict(d["abilities"]),
            d["hp"],
            d["ap"],
            d["st"],
            d.get("op"),
            d["placement"],
            tuple(
                GetbAttack(
                    a["name"],
                    a["weapon"],
                    a["power"],
                    _range(a.get("range", "0-1")),
                    a.get("dice")
                    or {"short-blade": 2, "long-blade": 3, "buster-blade": 4}.get(a["weapon"], 1),
                )
                for a in d["attacks"]
            ),
            guard.get("shield"),
            guard.get("armor", 0),
        )
    if system == "cutaction":
        return CutEnemy(
            d["id"],
            d["name"],
            d["body"],
            d["head"],
            d["hp"],
            d.get("area", "enemy"),
            d.get("cover", "none"),
            tuple(CutAttack(a["name"], a["kind"], a["damage"]) for a in d.get("attacks", [])),
            d.get("vehicle"),
            d.get("blockade", False),
        )
    raise ValueError(f"no simulator for system {system!r}")


def _target(system: str, d: Mapping[str, Any]) -> Any:
    if system == "akatsuki":
        return AkatsukiTarget(
            d["name"],
            d["ability"],
            d.get("style"),
            d.get("difficulty", 0),
            d.get("preparation", 0),
            d.get("support", 0),
            d.get("level"),
        )
    if system == "kokuryoku":
        return KokuryokuTarget(d["name"], d["target"], d["gain"], d.get("ability"))
    return dict(d)


def encounter(
    scenario: ScenarioLike,
    *,
    party: Party | None = None,
    players: int | None = None,
) -> Encounter:
    """The :class:`Encounter` of a validated scenario.

    The party is ``party`` if given, else the scenario's ``party:``, else the built-in
    reference party for ``players`` (default: the smallest ``players:`` of the scenario).
    """
    data = scenario.data
    system = scenario.system
    if party is None and players is None and data.get("party"):
        party = parse_party(system, data["party"], "scenario")
    if party is None:
        size = players or party_size(data.get("players"))
        party = parse_party(system, reference_party(system, size), f"reference-{size}")
    main = (data.get("missions") or {}).get("main") or {}
    raw_balance = data.get("balance")
    balance = None
    if raw_balance is not None:
        win_text = raw_balance.get("win")
        balance = BalanceSpec(
            win=parse_win_range(win_text) if win_text else None,
            win_text=win_text or "",
            battles=raw_balance.get("battles", 400),
            tactics=raw_balance.get("tactics"),
            enemy_tactics=raw_balance.get("enemy_tactics"),
        )
    chase_goal = None
    if system == "cutaction":
        chases = [t for t in data.get("difficulty_targets", []) if t.get("kind") == "chase"]
        if chases:
            chase_goal = 10 * chases[0]["target"]
    rulings = tuple(sorted((data.get("rulings") or {}).items()))
    return Encounter(
        scenario=scenario.id,
        system=system,
        title=scenario.title,
        party=party,
        enemies=tuple(_enemy(system, e) for e in data.get("enemies", [])),
        targets=tuple(_target(system, t) for t in data.get("difficulty_targets", [])),
        round_limit=main.get("rounds"),
        defeat=tuple((raw_balance or {}).get("defeat") or ()),
        rulings=rulings,
        chase_goal=chase_goal,
        balance=balance,
    )
