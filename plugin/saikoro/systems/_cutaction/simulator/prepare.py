"""Cut-action: what a battle needs, read once from the encounter (the scenario model).

The characters (PCs first, then the enemies) with their success values, the enemies of the
fight and of the chase, the main mission, the chase's direction, goal and event table,
and the ruling options in force (:class:`~saikoro.systems._cutaction.rulings.Settings`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from saikoro.balance import Encounter, Policy, Tactics
from saikoro.dice import InternalError, odds
from saikoro.scenario import IntOrRange
from saikoro.systems._cutaction import model as sm
from saikoro.systems._cutaction import scenario
from saikoro.systems._cutaction.area import Cover
from saikoro.systems._cutaction.events import CHASE_EVENTS, chase_target, event_number
from saikoro.systems._cutaction.rulings import Settings

__all__ = [
    "DEFAULT_CUTS",
    "Attack",
    "Char",
    "ChasePlan",
    "Prepared",
    "chases_of",
    "prepare",
]

DEFAULT_CUTS = 10
"""The fight's cut limit when the main mission gives none."""


@dataclass(frozen=True)
class Attack:
    """One attack: its name, melee (body check, same row or area) or shooting (head check),
    its damage."""

    name: str
    melee: bool
    damage: int


@dataclass(frozen=True)
class Char:
    """One character of the battle (PC or enemy), as written.

    Attributes:
        key: the name in the figures (``pc`` name or enemy id).
        index: its index among the PCs or among the enemies.
        reaction: the 防御/回避 success value (the scenario's ``reaction``, else ``body``).
        row: its starting row (0 自陣本営 .. 4 敵陣本営).
        danger: its largest damage (the ``most_dangerous`` policy).
    """

    key: str
    pc: bool
    index: int
    body: int
    head: int
    reaction: int
    hp: int
    row: int
    cover: Cover
    attacks: tuple[Attack, ...]
    blockade: bool = False
    vehicle: str | None = None

    @property
    def danger(self) -> int:
        """The largest damage of its attacks."""
        return max((a.damage for a in self.attacks), default=0)

    def value(self, attack: Attack) -> int:
        """The success value of ``attack`` (melee: body, shooting: head)."""
        return self.body if attack.melee else self.head


RULE_BOOK = tuple((ev.number, Fraction(1, len(CHASE_EVENTS)), ev.name) for ev in CHASE_EVENTS)
"""The rule book's chase event table (1D10, ruling ``chase_event_order``)."""


@dataclass(frozen=True)
class ChasePlan:
    """The chase of the encounter (ruling ``chase_sides``).

    Attributes:
        name: the ``kind: chase`` target's name.
        goal: the chase's goal, 10 x the move target.
        pcs_flee: the PCs flee (``flees: party``); else they pursue.
        runners: the enemies in the chase (indices into :attr:`Prepared.chars`).
        table: the event table a route change rolls (``""``: the rule book's).
        events: its entries: (rule-book event number, probability, title); number 0 for an
            entry of the scenario's own table whose effect is not modelled.
        others: names of further ``kind: chase`` targets (not simulated).
    """

    name: str
    goal: int
    pcs_flee: bool
    runners: tuple[int, ...]
    table: str
    events: tuple[tuple[int, Fraction, str], ...]
    others: tuple[str, ...] = ()

    @property
    def unmodelled(self) -> tuple[str, ...]:
        """Titles of the scenario's entries whose effect is not simulated."""
        return tuple(title for number, _, title in self.events if number == 0)


@dataclass(frozen=True)
class Prepared:
    """The encounter, the tactics and the options in force.

    Attributes:
        chars: every character, the PCs first (:attr:`pcs` of them).
        fight: the enemies of the fight before the chase (indices into ``chars``).
        defeat: the enemies whose defeat wins the fight (default: every one of ``fight``).
        cuts: the fight's cut limit.
        chase: the chase, if the scenario has one.
        effects: (enemy, attack, effect) of the attack effects written as text.
        vehicles: the vehicles several runners share.
        reads: the battle's figures the side missions read (what the exact states keep).
    """

    chars: tuple[Char, ...]
    pcs: int
    fight: tuple[int, ...]
    defeat: frozenset[int]
    cuts: int
    chase: ChasePlan | None
    settings: Settings
    pc_policy: Policy
    enemy_policy: Policy
    effects: tuple[tuple[str, str, str], ...] = ()
    vehicles: tuple[str, ...] = ()
    reads: frozenset[str] = frozenset()

    @property
    def cast(self) -> int:
        """How many characters start the chase at most (every PC and the enemy runners)."""
        return self.pcs + len(self.chase.runners) if self.chase else 0


def _char(i: int, m: sm.CutactionPC | sm.CutactionEnemy) -> Char:
    """The ``i``-th PC or enemy as the battle reads it (a PC has one attack, no cover)."""
    values = (m.body, m.head, m.body if m.reaction is None else m.reaction, m.hp)
    row = [c.value for c in scenario.AREAS].index(m.area)  # the order of area.ROWS
    if isinstance(m, sm.CutactionPC):
        attack = Attack("攻撃", m.attack == "melee", m.damage)
        return Char(m.name, True, i, *values, row, Cover.NONE, (attack,))
    attacks = tuple(Attack(a.name, a.kind == "melee", a.damage) for a in m.attacks)
    return Char(m.id, False, i, *values, row, Cover(m.cover), attacks, m.blockade, m.vehicle)


def _table(
    enc: Encounter, target: sm.CutactionTarget
) -> tuple[str, tuple[tuple[int, Fraction, str], ...]]:
    """The table of a route change and its entries: the one ``table`` names, the scenario's
    only table, or the rule book's (ruling ``chase_actions``)."""
    tables = [t for t in enc.tables if isinstance(t, sm.CutactionChaseTable)]
    if len(tables) != len(enc.tables):
        raise InternalError("cutaction: the encounter's tables are not CutactionChaseTables")
    chosen = [t for t in tables if t.name == target.table] if target.table else tables
    if len(chosen) != 1:
        if target.table or len(tables) > 1:
            raise InternalError(f"cutaction: the chase table is not resolved ({target.table!r})")
        return "", RULE_BOOK
    table = chosen[0]
    result = odds(table.die)
    if result is None:
        raise InternalError(f"cutaction: the die {table.die!r} of a validated table has no odds")
    dist = result.distribution
    events = []
    for key, entry in table.entries.items():
        low, high = IntOrRange.bounds(key)
        p = sum(
            (q for v, q in dist.items() if isinstance(v, int) and low <= v <= high), Fraction(0)
        )
        number = event_number(entry.event) if entry.event else 0
        events.append((number, p, entry.title))
    return table.name, tuple(events)


def chases_of(enc: Encounter) -> list[sm.CutactionTarget]:
    """The ``kind: chase`` targets: the first is the chase (none: no chase)."""
    return [t for t in enc.targets if isinstance(t, sm.CutactionTarget) and t.kind == "chase"]


def prepare(enc: Encounter, tactics: Tactics) -> Prepared:
    """Read ``enc`` once: characters, fight and chase, mission, options."""
    enemies = list(enc.of("enemies", sm.CutactionEnemy))
    pcs = enc.of("members", sm.CutactionPC)
    chars = [
        *(_char(i, m) for i, m in enumerate(pcs)),
        *(_char(i, e) for i, e in enumerate(enemies)),
    ]
    first = len(enc.party.members)
    index = {e.id: first + i for i, e in enumerate(enemies)}
    chases = chases_of(enc)
    plan: ChasePlan | None = None
    runners: tuple[int, ...] = ()
    if chases:
        target = chases[0]
        # the enemies in the chase: ``runners``, else those with a vehicle, else every one
        ids = target.runners
        if ids is None:
            ids = tuple(e.id for e in enemies if e.vehicle) or tuple(index)
        runners = tuple(index[r] for r in ids)
        plan = ChasePlan(
            target.name,
            chase_target(target.target),
            target.flees != "enemies",
            runners,
            *_table(enc, target),
            tuple(t.name for t in chases[1:]),
        )
    fight = tuple(k for k in range(first, len(chars)) if k not in runners)
    defeat = frozenset(index[d] for d in enc.defeat) if enc.defeat else frozenset(fight)
    shared = Counter(e.vehicle for e in enemies if e.vehicle and index[e.id] in runners)
    return Prepared(
        chars=tuple(chars),
        pcs=first,
        fight=fight,
        defeat=defeat,
        cuts=enc.round_limit or DEFAULT_CUTS,
        chase=plan,
        settings=Settings.from_options(enc.options),
        pc_policy=tactics.pc,
        enemy_policy=tactics.enemy,
        effects=tuple((e.name, a.name, a.effect) for e in enemies for a in e.attacks if a.effect),
        vehicles=tuple(v for v, n in shared.items() if n > 1),
        reads=enc.reads,
    )
