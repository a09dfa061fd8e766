"""穢れ battles' pieces on the engine's rules: characters, attack tables, each rule of a turn.

The simulation (:mod:`.turns`) and the exact duel (:mod:`.exact`) both play with these:
the same :class:`Fighter` objects (the chain loads each state into two of them), the same
attack tables (every pair of 2D6 resolved by the engine's
:func:`~saikoro.systems._kegare.checks.resolve`), the same rules for a hit, the turn's end,
the acting order and the choice of skill, so that the two cannot drift apart. Nothing here
restates a threshold or formula of the rules: each comes from ``systems/_kegare``.

>>> STATUSES
('poison', 'paralysis', 'weakness', 'daze', 'confusion', 'charm', 'curse')
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from saikoro.balance import Policy, Tally
from saikoro.dice import Dist
from saikoro.systems._kegare.checks import (
    TWO_D6,
    AttackSpec,
    Position,
    check_penalty,
    needs_defence_roll,
    resolve,
)
from saikoro.systems._kegare.status import (
    Combatant,
    KegareChange,
    Status,
    kegare_after,
    kegare_on_down,
    out_for_good,
    poison,
    random_status_due,
    recovery,
    status_recovered,
    status_recovery,
    turn_order,
)

__all__ = [
    "BIT",
    "CURE_ORDER",
    "MEMO_LIMIT",
    "STATUSES",
    "Fighter",
    "Move",
    "Prepared",
    "Table",
    "choose",
    "cover",
    "cure",
    "cured_marks",
    "cut_at",
    "hurt",
    "is_up",
    "land",
    "marked",
    "nearer",
    "order",
    "pick",
    "rise",
    "risen",
    "sample",
    "strike",
    "struck",
    "table",
    "two_d6",
    "values",
]

STATUSES: tuple[str, ...] = tuple(s.name.lower() for s in Status)
"""The seven status effects, in the rule's order (the uniform random status table)."""

BIT: dict[str, int] = {name: 1 << i for i, name in enumerate(STATUSES)}
"""Each status's bit in a character's ``marks``."""

CURE_ORDER: tuple[str, ...] = (
    "poison",
    "paralysis",
    "confusion",
    "curse",
    "charm",
    "weakness",
    "daze",
)
"""Which status a successful status-recovery check cures (the rule lets the character
choose; the tactic cures the one that costs it most in the simulation first)."""

MEMO_LIMIT = 20_000
"""Most attack tables kept at once (the memo starts again beyond it)."""


@dataclass(frozen=True)
class Move:
    """An attack skill as the simulator plays it.

    Attributes:
        action: the tally's name of it (``enemy id:skill``; a PC's is ``攻撃``).
        name: the skill's name.
        damage / ranged / area: its base damage, 遠距離攻撃, 全体攻撃 (every opponent).
        poison: the poison level its effect gives (0: none).
        marks: the bits of every status its effect gives (poison's included).
    """

    action: str
    name: str
    damage: int
    ranged: bool = False
    area: bool = False
    poison: int = 0
    marks: int = 0


@dataclass(frozen=True)
class Prepared:
    """The encounter's characters, the tactics and the rulings in force."""

    pcs: tuple[Fighter, ...]
    """The PCs at the start (templates: each battle plays copies)."""
    enemies: tuple[Fighter, ...]
    defeat: frozenset[str]
    """Enemy ids whose defeat is the main mission."""
    turns: int
    pc_policy: Policy
    enemy_policy: Policy
    min_damage: int = 0
    position_stack: str = "max"
    critical_guard: str = "nullify"
    status_rule: str = "at_least"
    random_status: str = "uniform"
    guard_uses: str = "every"
    rounding: str = "down"
    corruption: str = "pcs"
    """Ruling ``corruption_effects``: who suffers the 穢れ track's effects (``pcs``/``all``)."""
    downing_effects: str = "none"
    """Ruling ``downing_hit_effects``: a downing hit gives its effects (``apply``) or not."""
    status_check_down: str = "yes"
    """Ruling ``status_check_down``: the downed make the status-recovery check (``yes``)."""
    support: tuple[str, ...] = ()
    """``skill（enemy）`` of the support skills (not used: the notes name them)."""
    unread: tuple[str, ...] = ()
    """The skills whose effect text is not (wholly) read."""
    read: tuple[str, ...] = ()
    """``skill（enemy）→ what its effect was read as`` of the skills whose effect is read."""
    inert: tuple[str, ...] = ()
    """The attack skills giving 脱力, 自失 or 魅了 (without effect here)."""


@dataclass(slots=True)
class Fighter:
    """A character's state in one battle (``marks``: the bits of its statuses; ``poison``:
    its poison level)."""

    label: str
    """The shown name."""
    key: str
    """An enemy's id, a PC's name."""
    pc: bool
    index: int
    hp: int
    attack: int
    defence: int
    initiative: int
    position: str | None
    """``near``, ``mid``, ``far`` (a :class:`~saikoro.systems._kegare.checks.Position`'s value)."""
    blessed: bool
    moves: tuple[Move, ...]
    immune: int = 0
    """The bits of the statuses it is immune to."""
    suffers: bool = True
    """It suffers the 穢れ track's effects (ruling ``corruption_effects``)."""
    guards: tuple[tuple[int, int], ...] = ()
    """(damage cut, from 穢れ) of each defence skill."""
    cuts: tuple[tuple[int, int], ...] = ()
    """(damage cut, from 穢れ) of each always-on skill."""
    covers: tuple[tuple[str, int], ...] = ()
    """(whom it protects, from 穢れ) of each covering defence skill."""
    kegare: int = 0
    marks: int = 0
    poison: int = 0
    poisoner: str = ""
    """The action that gave its poison (the tally counts poison damage to it)."""
    guarded: bool = False
    """A defence skill was used this turn (ruling ``defence_skill_uses``)."""
    danger: int = 0
    """Attack value plus its strongest skill's damage (the ``most_dangerous`` target)."""

    @property
    def felt(self) -> int:
        """The 穢れ whose track effects apply (0 for one that suffers none); skills'
        穢れ conditions read ``kegare`` itself."""
        return self.kegare if self.suffers else 0

    @property
    def up(self) -> bool:
        """Able to act and to be targeted (:func:`is_up`)."""
        return is_up(self.hp, self.kegare, self.suffers)

    def copy(self) -> Fighter:
        """A fresh copy (a battle's own)."""
        return Fighter(
            self.label,
            self.key,
            self.pc,
            self.index,
            self.hp,
            self.attack,
            self.defence,
            self.initiative,
            self.position,
            self.blessed,
            self.moves,
            self.immune,
            self.suffers,
            self.guards,
            self.cuts,
            self.covers,
            self.kegare,
            self.marks,
            self.poison,
            self.poisoner,
            self.guarded,
            self.danger,
        )

    def has(self, status: str) -> bool:
        return bool(self.marks & BIT[status])

    def statuses(self) -> int:
        """How many statuses it has (the status-recovery check's count)."""
        return self.marks.bit_count()

    def guard(self) -> int:
        """The best defence skill's cut now (0 when confused or none works)."""
        if not self.guards or self.marks & BIT["confusion"]:
            return 0
        return max((n for n, k in self.guards if self.kegare >= k), default=0)

    def cut(self) -> int:
        """The always-on skills' cut now."""
        return cut_at(self.cuts, self.kegare) if self.cuts else 0


def cut_at(cuts: tuple[tuple[int, int], ...], kegare: int) -> int:
    """The always-on skills' cut at ``kegare`` (each works from its 穢れ on)."""
    return sum(n for n, k in cuts if kegare >= k)


def is_up(hp: int, kegare: int, suffers: bool) -> bool:
    """Standing: HP 1 or more and not out for good (穢れ 10, for one that suffers it)."""
    return hp > 0 and not (suffers and out_for_good(kegare))


def two_d6(rng: random.Random) -> int:
    """The sum of two six-sided dice."""
    return int(rng.random() * 6) + int(rng.random() * 6) + 2


# -- attacks --------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """Every result of one attack on one target, by the two 2D6 sums (the engine's).

    Attributes:
        cells: (damage taken, effects land) at ``attack * 13 + defence`` (defence 0 when
            no defence roll is made), after the target's always-on cut.
        defended: per attack sum, whether the target rolls its defence.
        weights: (damage, effects land) -> weight out of 36 x 36 (the exact odds).
        per_roll: per attack sum, (damage, effects land) -> weight out of 36.
        mean: the expected damage.
    """

    cells: tuple[tuple[int, bool], ...]
    defended: tuple[bool, ...]
    weights: tuple[tuple[tuple[int, bool], int], ...]
    per_roll: tuple[tuple[tuple[tuple[int, bool], int], ...], ...]
    mean: Fraction

    def landing_below(self, hp: int) -> Fraction:
        """P(the effects land and the damage leaves ``hp`` above 0)."""
        return _landing(self, hp)


@cache
def _landing(t: Table, hp: int) -> Fraction:
    return Fraction(sum(w for (dmg, ok), w in t.weights if ok and dmg < hp), 1296)


def after_cut(damage: int, cut: int, min_damage: int) -> int:
    """Damage after an always-on cut (a damaging result keeps at least ``min_damage``)."""
    if damage <= 0 or cut <= 0:
        return damage
    return max(min_damage, damage - cut)


def _build(spec: AttackSpec, cut: int) -> Table:
    cells: list[tuple[int, bool]] = [(0, False)] * (13 * 13)
    defended = [False] * 13
    weights: dict[tuple[int, bool], int] = {}
    per_roll: list[tuple[tuple[tuple[int, bool], int], ...]] = [()] * 13
    for a, wa in TWO_D6.items():
        defended[a] = needs_defence_roll(spec, a)
        rolls: list[tuple[int | None, int]] = list(TWO_D6.items()) if defended[a] else [(None, 36)]
        mine: dict[tuple[int, bool], int] = {}
        for d, wd in rolls:
            r = resolve(spec, a, d)
            cell = (after_cut(r.damage, cut, spec.min_damage), r.outcome.effects_land)
            cells[a * 13 + (d or 0)] = cell
            mine[cell] = mine.get(cell, 0) + wd
            weights[cell] = weights.get(cell, 0) + wa * wd
        per_roll[a] = tuple(mine.items())
    mean = Fraction(sum(dmg * w for (dmg, _), w in weights.items()), 36 * 36)
    return Table(
        tuple(cells), tuple(defended), tuple(sorted(weights.items())), tuple(per_roll), mean
    )


_TABLES: dict[tuple[object, ...], Table] = {}


def table(prep: Prepared, a: Fighter, move: Move, d: Fighter, *, guard: int, cut: int) -> Table:
    """The :class:`Table` of ``a`` using ``move`` on ``d`` (its defence skill ``guard``,
    its always-on ``cut``), remembered per process by everything it depends on."""
    key = (
        a.attack,
        d.defence,
        move.damage,
        move.ranged,
        a.position,
        d.position,
        a.felt,
        d.felt,
        guard,
        cut,
        prep.min_damage,
        prep.position_stack,
        prep.critical_guard,
    )
    found = _TABLES.get(key)
    if found is None:
        if len(_TABLES) >= MEMO_LIMIT:
            _TABLES.clear()
        spec = AttackSpec(
            attack=a.attack,
            defence=d.defence,
            damage=move.damage,
            attacker_position=_POSITIONS[a.position],
            target_position=_POSITIONS[d.position],
            ranged=move.ranged,
            attacker_kegare=a.felt,
            defender_kegare=d.felt,
            guard=guard,
            min_damage=prep.min_damage,
            position_stack=prep.position_stack,
            critical_guard=prep.critical_guard,
        )
        found = _TABLES[key] = _build(spec, cut)
    return found


def guard_for(prep: Prepared, d: Fighter, *, spend: bool) -> int:
    """The defence skill's cut ``d`` brings to the attack it meets now (ruling
    ``defence_skill_uses``: once a turn spends it on the first attack)."""
    guard = d.guard()
    if guard and prep.guard_uses == "once_per_turn":
        if d.guarded:
            return 0
        if spend:
            d.guarded = True
    return guard


def hurt(hp: int, kegare: int, suffers: bool, damage: int) -> tuple[int, int]:
    """(HP, 穢れ) after ``damage``: going from standing to down adds the 穢れ of a down
    (the engine's, by the 穢れ it suffers)."""
    if damage > 0:
        if hp > 0 >= hp - damage:
            kegare += kegare_on_down(kegare if suffers else 0)
        hp -= damage
    return hp, kegare


def struck(d: Fighter, damage: int) -> None:
    """``damage`` to ``d`` (:func:`hurt`)."""
    d.hp, d.kegare = hurt(d.hp, d.kegare, d.suffers, damage)


_POISON = BIT["poison"]
"""The poison bit (:data:`BIT`)."""


def marked(
    prep: Prepared, move: Move, hp: int, marks: int, level: int, *, immune: int
) -> tuple[int, int]:
    """(statuses, poison level) after ``move``'s effects land on a target left at ``hp``:
    none on one it downed (a downed character takes no skill's effects; ruling
    ``downing_hit_effects``), none it is immune to; poison keeps the higher level."""
    given = move.marks & ~immune
    if not given or (hp <= 0 and prep.downing_effects == "none"):
        return marks, level
    if given & _POISON and move.poison > level:
        level = move.poison
    return marks | given, level


def land(prep: Prepared, d: Fighter, move: Move) -> None:
    """``move``'s effects on ``d`` (:func:`marked`); a new poison level is ``move``'s."""
    marks, level = marked(prep, move, d.hp, d.marks, d.poison, immune=d.immune)
    if level != d.poison:
        d.poisoner = move.action
    d.marks, d.poison = marks, level


def strike(
    prep: Prepared,
    rng: random.Random,
    a: Fighter,
    move: Move,
    targets: Sequence[Fighter],
    *,
    tally: Tally,
) -> int:
    """One attack: one attack roll, each target's own defence roll (a 全体攻撃 meets
    every target with the same roll); damage, then effects. The damage dealt."""
    roll = two_d6(rng)
    total = 0
    for d in targets:
        t = table(prep, a, move, d, guard=guard_for(prep, d, spend=True), cut=d.cut())
        droll = two_d6(rng) if t.defended[roll] else 0
        damage, lands = t.cells[roll * 13 + droll]
        struck(d, damage)
        if lands:
            land(prep, d, move)
        if damage > 0:
            total += damage
            if not a.pc:
                tally.actions[move.action] += damage
    return total


# -- choices --------------------------------------------------------------------------


def choose(policy: Policy, options: Sequence[Fighter], rng: random.Random) -> Fighter:
    """The target the policy picks among ``options`` (standing opponents)."""
    if policy.target == "random":
        return options[int(rng.random() * len(options))]
    if policy.target == "most_dangerous":
        return max(options, key=lambda f: (f.danger, -f.index))
    return min(options, key=lambda f: (f.hp, f.index))


def cover(prep: Prepared, target: Fighter, allies: Sequence[Fighter]) -> Fighter:
    """Who takes a single attack aimed at ``target``: an ally covering it, else ``target``.

    Only with the side's ``guard`` tactic; the coverer must be standing, not confused,
    at the skill's 穢れ, and (``defence_skill_uses=once_per_turn``) not have used a
    defence skill this turn. Using the cover spends that use.
    """
    policy = prep.enemy_policy if not target.pc else prep.pc_policy
    if not policy.guard:
        return target
    for f in allies:
        if f is target or not f.covers or not f.up:
            continue
        if f.marks & BIT["confusion"] or (prep.guard_uses == "once_per_turn" and f.guarded):
            continue
        for who, floor in f.covers:
            if f.kegare >= floor and (who == "" or who in target.label):
                f.guarded = True
                return f
    return target


@cache
def _poison_mean(level: int, min_damage: int) -> Fraction:
    return poison(level, min_damage=min_damage).mean() if level else Fraction(0)


@cache
def _ticks(statuses: int, felt: int, rule: str, left: int) -> Fraction:
    """Poison ticks expected over ``left`` turn ends before a status-recovery check (made
    after each tick, with ``statuses`` statuses) cures it: 1 + (1-c) + ... + (1-c)^(left-1)."""
    stay = 1 - status_recovery(statuses, kegare=felt, rule=rule)
    return sum((stay**n for n in range(left)), Fraction(0))


def values(
    prep: Prepared, a: Fighter, target: Fighter, foes: Sequence[Fighter], turn: int
) -> list[tuple[Move, Fraction]]:
    """Each of ``a``'s attack skills with the damage the opposing side expects to take
    from it now (the tactic choosing the skill: docs/authoring/balance.md).

    For each target of the skill (``target``, or every standing opponent for a 全体攻撃):
    its expected damage (the engine's odds, its defence skill and always-on cut counted),
    plus, when the skill poisons it to a higher level, P(the effects land and leave it
    standing) times the rise in the expected tick (``KGP``) times the ticks expected
    before a status-recovery check cures it within the turns left.
    """
    left = prep.turns - turn + 1
    out = []
    for move in a.moves:
        total = Fraction(0)
        for d in foes if move.area else (target,):
            t = table(prep, a, move, d, guard=guard_for(prep, d, spend=False), cut=d.cut())
            total += t.mean
            if move.poison > d.poison and not d.immune & BIT["poison"]:
                rise = _poison_mean(move.poison, prep.min_damage) - _poison_mean(
                    d.poison, prep.min_damage
                )
                after = (d.marks | (move.marks & ~d.immune)).bit_count()
                stays = t.landing_below(d.hp) if prep.downing_effects == "none" else _landing_all(t)
                total += stays * rise * _ticks(after, d.felt, prep.status_rule, left)
        out.append((move, total))
    return out


@cache
def _landing_all(t: Table) -> Fraction:
    return Fraction(sum(w for (_, ok), w in t.weights if ok), 1296)


def pick(
    prep: Prepared, a: Fighter, target: Fighter, foes: Sequence[Fighter], turn: int
) -> Move | None:
    """The attack skill ``a`` uses: the one the opposing side expects to lose the most
    HP to (:func:`values`; ties: the skill written first); ``None``: it has none (pass)."""
    if len(a.moves) <= 1:
        return a.moves[0] if a.moves else None
    best: tuple[Move, Fraction] | None = None
    for move, value in values(prep, a, target, foes, turn):
        if best is None or value > best[1]:
            best = (move, value)
    return best[0] if best else None


_POSITIONS: dict[str | None, Position | None] = {p.value: p for p in Position}
_POSITIONS[None] = None
_CLOSEST = tuple(p.value for p in Position)
"""The positions, nearest first (the engine's order)."""


def nearer(position: str | None) -> str | None:
    """One position nearer the enemy (the auxiliary action 移動)."""
    if position is None:
        return None
    return _CLOSEST[max(0, _CLOSEST.index(position) - 1)]


_ORDERS: dict[tuple[object, ...], tuple[int, ...]] = {}


def order(prep: Prepared, everyone: Sequence[Fighter]) -> list[Fighter]:
    """The turn's acting order (:func:`~saikoro.systems._kegare.status.turn_order`:
    initiative after 麻痺 and 穢れ 7+, PCs first on ties, same-side ties in the written
    order), remembered per process by what it depends on."""
    key = (
        prep.rounding,
        *((f.initiative, f.pc, bool(f.marks & BIT["paralysis"]), f.felt) for f in everyone),
    )
    found = _ORDERS.get(key)
    if found is None:
        if len(_ORDERS) >= MEMO_LIMIT:
            _ORDERS.clear()
        combatants = [
            Combatant(str(i), f.initiative, f.pc, bool(f.marks & BIT["paralysis"]), f.felt)
            for i, f in enumerate(everyone)
        ]
        found = tuple(int(c.name) for c in turn_order(combatants, rounding=prep.rounding))
        _ORDERS[key] = found
    return [everyone[i] for i in found]


# -- the turn's start and end ------------------------------------------------------------


def table_due(prep: Prepared, f: Fighter) -> bool:
    """Whether ``f`` rolls the random status table now (ruling ``random_status``)."""
    return prep.random_status != "none" and f.hp > 0 and f.suffers and random_status_due(f.kegare)


def give(f: Fighter, status: str) -> None:
    """The random status table's ``status`` on ``f`` (poison at level 1; nothing when
    immune or already had)."""
    bit = BIT[status]
    if f.immune & bit or f.marks & bit:
        return
    f.marks |= bit
    if status == "poison":
        f.poison, f.poisoner = 1, ""


def poison_due(f: Fighter) -> bool:
    """Whether ``f``'s poison ticks at this turn's end (not once out for good)."""
    return f.poison > 0 and not out_for_good(f.felt)


@cache
def poison_ticks(level: int, min_damage: int) -> Dist[int]:
    """One tick of poison at ``level`` (the engine's ``KGP``)."""
    return poison(level, min_damage=min_damage)


def recovery_due(f: Fighter) -> bool:
    """Whether ``f`` makes the recovery check (down, not out for good)."""
    return f.hp <= 0 and not out_for_good(f.felt)


@cache
def recovery_dice(cursed: bool, felt: int) -> Dist[int]:
    """HP a recovery check gives back (the engine's ``KGR``)."""
    return recovery(cursed=cursed, kegare=felt)


def cure_due(prep: Prepared, f: Fighter) -> bool:
    """Whether ``f`` makes the status-recovery check (ruling ``status_check_down``)."""
    if not f.marks or out_for_good(f.felt):
        return False
    return f.hp > 0 or prep.status_check_down == "yes"


def cure_chance(prep: Prepared, f: Fighter) -> Fraction:
    """P(``f``'s status-recovery check succeeds) (the engine's ``KGS``)."""
    return status_recovery(f.statuses(), kegare=f.felt, rule=prep.status_rule)


def cured(prep: Prepared, f: Fighter, roll: int) -> bool:
    """Whether a status-recovery check rolling ``roll`` on 2D6 succeeds for ``f``."""
    return status_recovered(roll + check_penalty(f.felt), f.statuses(), rule=prep.status_rule)


_CURE_BITS = tuple(BIT[s] for s in CURE_ORDER)


def cured_marks(marks: int, level: int) -> tuple[int, int]:
    """(statuses, poison level) after a successful status-recovery check: the first of
    :data:`CURE_ORDER` it has goes."""
    for bit in _CURE_BITS:
        if marks & bit:
            return marks & ~bit, 0 if bit == _POISON else level
    return marks, level


def cure(f: Fighter) -> None:
    """A successful status-recovery check on ``f`` (:func:`cured_marks`)."""
    f.marks, f.poison = cured_marks(f.marks, f.poison)
    if not f.poison:
        f.poisoner = ""


def risen(kegare: int, blessed: bool) -> int:
    """穢れ after the rise at the turn's end (加護: the engine's +2)."""
    return kegare_after(kegare, KegareChange.TURN_END) if blessed else kegare


def rise(f: Fighter) -> None:
    """The 穢れ rise of ``f`` (:func:`risen`)."""
    f.kegare = risen(f.kegare, f.blessed)


@dataclass(frozen=True)
class Sampler:
    """Draws from a :class:`~saikoro.dice.Dist` of integers with one uniform number."""

    values: tuple[int, ...]
    cumulative: tuple[int, ...]
    total: int

    def draw(self, rng: random.Random) -> int:
        return self.values[bisect.bisect_right(self.cumulative, int(rng.random() * self.total))]


@cache
def sample(dist: Dist[int]) -> Sampler:
    """The :class:`Sampler` of ``dist``."""
    values, cumulative, total = [], [], 0
    for v, w in sorted(dist.items()):
        total += w
        values.append(v)
        cumulative.append(total)
    return Sampler(tuple(values), tuple(cumulative), total)
