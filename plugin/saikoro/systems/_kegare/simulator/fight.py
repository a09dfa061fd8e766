"""穢れ battles' pieces: the characters' state and one attack, on the engine.

:mod:`.sim_kegare` plays the turns with these; :mod:`.kegare_exact` solves a duel with
the same attack specifications, so the simulation and the exact chain cannot drift.
Skills are read by :mod:`.kegare_skills`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from saikoro.balance._stats import Tally
from saikoro.balance._tactics import Policy
from saikoro.systems._kegare.checks import AttackSpec, Position, resolve
from saikoro.systems._kegare.status import Status, kegare_on_down

from .shapes import KegareEnemy, KegarePC, KegareSkill
from .skills import Reading, read_skill, unmodelled

__all__ = [
    "CURE_ORDER",
    "MEMO_LIMIT",
    "STATUSES",
    "Fighter",
    "Prepared",
    "Reading",
    "best_skill",
    "choose",
    "cover",
    "d6",
    "fighters",
    "hit",
    "read_skill",
    "resolved",
    "spec",
    "two_d6",
    "unmodelled",
]

STATUSES: tuple[str, ...] = tuple(s.name.lower() for s in Status)
"""The seven status effects, in the rule's order (the uniform random status table)."""

CURE_ORDER: tuple[str, ...] = (
    "poison",
    "paralysis",
    "confusion",
    "curse",
    "charm",
    "weakness",
    "daze",
)
"""Which status a successful status-recovery check cures first (the most harmful here)."""

_NO_EFFECT = frozenset({"FUMBLE", "EVADE", "UNAFFECTED", "UNABLE"})
"""Outcomes after which an attack skill's effects do not apply."""


@dataclass(frozen=True)
class Prepared:
    """The encounter, the tactics and the rules in force."""

    pcs: tuple[KegarePC, ...]
    enemies: tuple[KegareEnemy, ...]
    defeat: frozenset[str]
    turns: int
    pc_policy: Policy
    enemy_policy: Policy
    min_damage: int
    position_stack: str
    critical_guard: str
    status_rule: str
    random_status: str = "uniform"
    guard_uses: str = "every"
    rounding: str = "down"
    corruption: str = "pcs"
    """Ruling ``corruption_effects``: who suffers the 穢れ track's effects (``pcs``/``all``)."""


@dataclass
class Fighter:
    """A character's state in one battle."""

    name: str
    pc: bool
    index: int
    hp: int
    max_hp: int
    attack: int
    defence: int
    initiative: int
    position: str | None
    blessed: bool
    skills: tuple[KegareSkill, ...]
    immune: frozenset[str] = frozenset()
    kegare: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    danger: int = 0
    guards: tuple[tuple[int, int], ...] = ()
    """(damage cut, from 穢れ) of each defence skill."""
    cuts: tuple[tuple[int, int], ...] = ()
    """(damage cut, from 穢れ) of each always-on skill."""
    guarded: bool = False
    """A defence skill was used this turn (ruling ``defence_skill_uses``)."""
    covers: tuple[tuple[str, int], ...] = ()
    """(whom it protects, from 穢れ) of each covering defence skill."""
    label: str = ""
    """The shown name (``name`` is an enemy's id)."""
    suffers: bool = True
    """It suffers the 穢れ track's effects (ruling ``corruption_effects``: PCs, or everyone)."""

    @property
    def up(self) -> bool:
        return self.hp > 0

    @property
    def felt(self) -> int:
        """The 穢れ whose track effects apply (0 for one that suffers none); skills'
        穢れ conditions read ``kegare`` itself."""
        return self.kegare if self.suffers else 0

    @property
    def out(self) -> bool:
        """Down, or out for good at 穢れ 10 (when it suffers the track)."""
        return self.hp <= 0 or (self.suffers and self.kegare >= 10)

    def guard(self) -> int:
        """The best defence skill's cut now (0 when confused or none works)."""
        if not self.guards or "confusion" in self.statuses:
            return 0
        return max((n for n, k in self.guards if self.kegare >= k), default=0)

    def cut(self) -> int:
        """The always-on skills' cut now."""
        if not self.cuts:
            return 0
        return sum(n for n, k in self.cuts if self.kegare >= k)


def fighters(prep: Prepared) -> tuple[list[Fighter], list[Fighter]]:
    """Every PC and enemy at the start of a battle."""
    pcs = [
        Fighter(
            p.name,
            True,
            i,
            p.hp,
            p.hp,
            p.attack,
            p.defence,
            p.initiative,
            p.position,
            p.blessed,
            (KegareSkill("攻撃", p.damage, p.ranged),),
        )
        for i, p in enumerate(prep.pcs)
    ]
    enemies = []
    for i, e in enumerate(prep.enemies):
        readings = [read_skill(s) for s in e.other_skills]
        enemies.append(
            Fighter(
                e.id,
                False,
                i,
                e.hp,
                e.hp,
                e.attack,
                e.defence,
                e.initiative,
                e.position,
                e.blessed,
                e.skills,
                e.immune,
                guards=tuple((r.guard, r.min_kegare) for r in readings if r.guard),
                cuts=tuple((r.cut, r.min_kegare) for r in readings if r.cut),
                covers=tuple((r.cover, r.min_kegare) for r in readings if r.cover is not None),
                label=e.name,
                suffers=prep.corruption == "all",
            )
        )
    for en in enemies:
        en.danger = en.attack + max(s.damage for s in en.skills)
    for p in pcs:
        p.danger = p.attack + p.skills[0].damage
    return pcs, enemies


def d6(rng: random.Random) -> int:
    """One six-sided die."""
    return int(rng.random() * 6) + 1


def two_d6(rng: random.Random) -> int:
    """The sum of two six-sided dice."""
    return int(rng.random() * 6) + int(rng.random() * 6) + 2


def choose(policy: Policy, options: list[Fighter], rng: random.Random) -> Fighter:
    """The target the policy picks among ``options``."""
    if policy.target == "random":
        return options[int(rng.random() * len(options))]
    if policy.target == "most_dangerous":
        return max(options, key=lambda f: (f.danger, -f.index))
    return min(options, key=lambda f: (f.hp, f.index))


_POSITIONS: dict[str | None, Position | None] = {p.value: p for p in Position}
_POSITIONS[None] = None


def _pos(f: Fighter) -> Position | None:
    return _POSITIONS[f.position]


def spec(prep: Prepared, a: Fighter, skill: KegareSkill, d: Fighter, guard: int = 0) -> AttackSpec:
    """The engine's attack specification for ``a`` using ``skill`` on ``d``."""
    return AttackSpec(
        attack=a.attack,
        defence=d.defence,
        damage=skill.damage,
        attacker_position=_pos(a),
        target_position=_pos(d),
        ranged=skill.ranged,
        weakened_level=0,
        dazed_level=0,
        attacker_kegare=a.felt,
        defender_kegare=d.felt,
        guard=guard,
        min_damage=prep.min_damage,
        position_stack=prep.position_stack,
        critical_guard=prep.critical_guard,
    )


def best_skill(a: Fighter, target: Fighter | None) -> KegareSkill:
    """The attack skill promising the most damage (position modifiers counted)."""

    def value(s: KegareSkill) -> int:
        if s.ranged or target is None:
            return s.damage
        a_pen = Position(a.position).penalty if a.position else 0
        t_pen = Position(target.position).penalty if target.position else 0
        return s.damage + a_pen + t_pen

    return max(a.skills, key=value)


def cover(prep: Prepared, target: Fighter, allies: list[Fighter]) -> Fighter:
    """Who takes a single attack aimed at ``target``: an ally covering it, else ``target``.

    Only with the side's ``guard`` tactic; the coverer must be standing, not confused,
    at the skill's 穢れ, and (``defence_skill_uses=once_per_turn``) not have used a
    defence skill this turn. Using the cover spends that use.
    """
    policy = prep.enemy_policy if not target.pc else prep.pc_policy
    if not policy.guard:
        return target
    for f in allies:
        if f is target or not f.covers or f.out:
            continue
        if "confusion" in f.statuses or (prep.guard_uses == "once_per_turn" and f.guarded):
            continue
        for who, floor in f.covers:
            if f.kegare >= floor and (who == "" or who in (target.label or target.name)):
                f.guarded = True
                return f
    return target


def after_cut(damage: int, cut: int, min_damage: int) -> int:
    """Damage after an always-on cut (a damaging result keeps at least ``min_damage``)."""
    if damage <= 0 or cut <= 0:
        return damage
    return max(min_damage, damage - cut)


MEMO_LIMIT = 20_000
"""Most specifications kept resolved at once (the memo starts again beyond it)."""


_RESOLVED: dict[tuple[object, ...], list[tuple[str, int] | None]] = {}


def resolved(
    prep: Prepared, a: Fighter, skill: KegareSkill, d: Fighter, guard: int, *, roll: int, droll: int
) -> tuple[str, int]:
    """(outcome name, damage) of :func:`~saikoro.systems._kegare.checks.resolve` for this
    attack and these rolls (``droll`` 0: no defence roll), remembered per process by
    everything the specification holds (the engine's own results, looked up)."""
    key = (
        a.attack,
        d.defence,
        skill.damage,
        skill.ranged,
        a.position,
        d.position,
        a.felt,
        d.felt,
        guard,
        prep.min_damage,
        prep.position_stack,
        prep.critical_guard,
    )
    table = _RESOLVED.get(key)
    if table is None:
        if len(_RESOLVED) >= MEMO_LIMIT:
            _RESOLVED.clear()
        table = _RESOLVED[key] = [None] * (13 * 13)
    found = table[roll * 13 + droll]
    if found is None:
        r = resolve(spec(prep, a, skill, d, guard), roll, droll or None)
        found = table[roll * 13 + droll] = (r.outcome.name, r.damage)
    return found


def hit(
    prep: Prepared, rng: random.Random, a: Fighter, skill: KegareSkill, d: Fighter, *, tally: Tally
) -> int:
    """One attack of ``a`` with ``skill`` on ``d``: damage, status, 穢れ when downed."""
    guard = d.guard()
    if guard and prep.guard_uses == "once_per_turn":
        if d.guarded:
            guard = 0
        else:
            d.guarded = True
    roll = two_d6(rng)
    droll = 0 if roll in (2, 12) else two_d6(rng)
    outcome, damage = resolved(prep, a, skill, d, guard, roll=roll, droll=droll)
    dmg = after_cut(damage, d.cut(), prep.min_damage) if d.cuts else damage
    if skill.status and d.up and outcome not in _NO_EFFECT:
        reading = read_skill(skill)
        for status in reading.statuses:
            if status not in d.immune:
                level = reading.level if status == "poison" else 1
                d.statuses[status] = max(level, d.statuses.get(status, 0))
    if dmg > 0:
        was_up = d.up
        d.hp -= dmg
        if was_up and not d.up:
            d.kegare += kegare_on_down(d.felt)
        if not a.pc:
            tally.actions[f"{a.name}:{skill.name}"] += dmg
    return dmg
