"""穢れ battles' pieces: the characters' state, their skills as read from the scenario, one attack.

:mod:`.sim_kegare` plays the turns with these; :mod:`.kegare_exact` solves a duel with
the same attack specifications, so the simulation and the exact chain cannot drift.

Skills are read from their ``kind`` and from a few fixed phrases of their ``effect``
(after NFKC normalisation; see :func:`read_skill`):

* an attack skill's effect naming a status effect gives it (``毒(LV2)`` a level of poison);
* a defence skill whose effect says ``ダメージ-N`` (or ``ダメージをN軽減``) cuts the damage
  of every attack it meets by N: the engine's ``guard`` (cancelled by 粉砕 and, by the
  ruling ``critical_guard``, on a critical; not usable while 混乱; how often: the ruling
  ``defence_skill_uses``);
* an always-on (常駐) skill with the same phrase cuts every damage the character takes;
* ``穢れがN以上のあいだ`` (or ``穢れN以上``) in either limits it to 穢れ N and above;
* a defence skill saying ``代わりに受ける`` (``XへのY攻撃を代わりに受ける``) covers: with the
  ``guard`` tactic a single attack aimed at an ally whose name contains X (every ally
  when no X is named, or X is 味方/仲間) is taken by the skill's owner instead, on its own
  defence (the cover is that defence skill's use: confusion and ``defence_skill_uses``
  apply, 粉砕 cannot undo a cover already made).

Everything else (support skills, covering, pulling, buffs...) is listed as not modelled.

>>> robe = KegareSkill("衣", 0, kind="passive", effect="穢れが5以上のあいだ、受けるダメージ-1。")
>>> read_skill(robe)
Reading(guard=0, cut=1, min_kegare=5, status=None, level=0, modelled=True, cover=None, statuses=())
>>> stance = KegareSkill("構え", 0, kind="defence", effect="宮司への単体攻撃を代わりに受ける。")
>>> read_skill(stance).cover
'宮司'
>>> fire = KegareSkill("火", 4, status="poison", effect="命中した相手は毒(LV2)を受ける。")
>>> read_skill(fire).level
2
"""

from __future__ import annotations

import random
import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache

from saikoro.systems.kegare.checks import AttackSpec, Position, resolve
from saikoro.systems.kegare.status import Status, kegare_on_down

from .model import KegareEnemy, KegarePC, KegareSkill
from .stats import Tally
from .tactics import Policy

__all__ = [
    "CURE_ORDER",
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

_CUT = re.compile(r"ダメージ\s*(?:-|−)\s*(\d+)|ダメージを\s*(\d+)\s*(?:点)?\s*軽減")
_KEGARE_AT_LEAST = re.compile(r"穢れ\s*(?:が|の値が)?\s*(\d+)\s*以上")
_POISON_LEVEL = re.compile(r"毒\s*[(（]?\s*LV\s*(\d)", re.IGNORECASE)
_COVER = re.compile(r"(?:([^、。\s]+?)への)?[^、。]*代わりに受ける")
_ANY_ALLY = ("", "味方", "仲間", "味方全員", "仲間全員")


@dataclass(frozen=True)
class Reading:
    """What the simulator makes of one skill.

    Attributes:
        guard: a defence skill's damage cut (0: none).
        cut: an always-on skill's damage cut (0: none).
        min_kegare: the skill works only from this 穢れ on (0: always).
        status: the status an attack skill gives (``None``: none).
        level: the poison level it gives (1 when the text names none).
        modelled: the whole effect is simulated (else it is listed as not modelled).
        cover: a covering defence skill: the allies it protects (``""``: every ally).
        statuses: every status an attack skill's effect names (``status`` is the first).
    """

    guard: int = 0
    cut: int = 0
    min_kegare: int = 0
    status: str | None = None
    level: int = 0
    modelled: bool = True
    cover: str | None = None
    statuses: tuple[str, ...] = ()


@cache
def read_skill(skill: KegareSkill) -> Reading:
    """How the simulator reads ``skill`` (its kind and the phrases of its effect)."""
    text = unicodedata.normalize("NFKC", skill.effect or "")
    at = _KEGARE_AT_LEAST.search(text)
    floor = int(at.group(1)) if at else 0
    if skill.kind == "attack":
        if skill.status is None:
            return Reading(modelled=not text)
        m = _POISON_LEVEL.search(text) if skill.status == "poison" else None
        level = min(5, max(1, int(m.group(1)))) if m else 1
        named = tuple(st.name.lower() for st in Status if st.value in text)
        return Reading(status=skill.status, level=level, statuses=named or (skill.status,))
    cover = _COVER.search(text) if skill.kind == "defence" else None
    if cover:
        who = cover.group(1) or ""
        return Reading(min_kegare=floor, cover="" if who in _ANY_ALLY else who)
    cut = _CUT.search(text)
    if skill.kind in ("defence", "passive") and cut and "代わり" not in text:
        n = int(cut.group(1) or cut.group(2))
        if skill.kind == "defence":
            return Reading(guard=n, min_kegare=floor)
        return Reading(cut=n, min_kegare=floor)
    return Reading(modelled=False)


def unmodelled(enemies: tuple[KegareEnemy, ...]) -> tuple[str, ...]:
    """``name（enemy）`` of every skill whose effect is not (wholly) simulated."""
    out = [
        f"{s.name}（{e.name}）"
        for e in enemies
        for s in (*e.skills, *e.other_skills)
        if not read_skill(s).modelled
    ]
    return tuple(dict.fromkeys(out))


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

    @property
    def up(self) -> bool:
        return self.hp > 0

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
        attacker_kegare=a.kegare,
        defender_kegare=d.kegare,
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
        if f is target or not f.covers or not f.up or f.kegare >= 10:
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
    r = resolve(spec(prep, a, skill, d, guard), roll, None if roll in (2, 12) else two_d6(rng))
    dmg = after_cut(r.damage, d.cut(), prep.min_damage) if d.cuts else r.damage
    if skill.status and d.up and r.outcome.name not in _NO_EFFECT:
        reading = read_skill(skill)
        for status in reading.statuses:
            if status not in d.immune:
                level = reading.level if status == "poison" else 1
                d.statuses[status] = max(level, d.statuses.get(status, 0))
    if dmg > 0:
        was_up = d.up
        d.hp -= dmg
        if was_up and not d.up:
            d.kegare += kegare_on_down(d.kegare)
        if not a.pc:
            tally.actions[f"{a.name}:{skill.name}"] += dmg
    return dmg
