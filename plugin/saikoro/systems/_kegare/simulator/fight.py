"""穢れ battles' pieces on the engine's rules: characters, attacks, each rule of a turn.

The step machine (:mod:`.rules`) and the skill-choice note both play with these. An
attack's odds are the engine's (every pair of 2D6 resolved by
:func:`~saikoro.systems._kegare.checks.resolve`), kept as :class:`~saikoro.dice.Dist`
per attack roll. Nothing here restates a threshold or formula of the rules: each comes
from ``systems/_kegare``.

>>> STATUSES
('poison', 'paralysis', 'weakness', 'daze', 'confusion', 'charm', 'curse')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from operator import itemgetter

from saikoro.balance import Policy, Tactics
from saikoro.dice import Dist
from saikoro.systems._kegare.checks import (
    TWO_D6,
    AttackSpec,
    Position,
    needs_defence_roll,
    resolve,
)
from saikoro.systems._kegare.rulings import Settings
from saikoro.systems._kegare.status import (
    Status,
    kegare_on_down,
    out_for_good,
    poison,
    random_status_due,
    recovery,
    status_recovery,
)

__all__ = [
    "BIT",
    "STATUSES",
    "Cell",
    "Fighter",
    "Move",
    "Prepared",
    "TableKey",
    "TurnEnd",
    "attack_rolls",
    "choose",
    "cure_chance",
    "cured_marks",
    "give",
    "guard_for",
    "hurt",
    "marked",
    "mean_damage",
    "nearer",
    "pick",
    "table",
    "table_due",
    "table_key",
    "turn_end",
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
    """The PCs at the start (each battle starts from their values)."""
    enemies: tuple[Fighter, ...]
    defeat: frozenset[str]
    """Enemy ids whose defeat is the main mission."""
    turns: int
    tactics: Tactics
    settings: Settings
    """The rulings the engine's checks read (``KGA``'s, ``KGS``'s)."""
    random_status: str = "uniform"
    guard_uses: str = "every"
    rounding: str = "down"
    downing_effects: str = "none"
    """Ruling ``downing_hit_effects``: a downing hit gives its effects (``apply``) or not."""
    status_check_down: str = "yes"
    """Ruling ``status_check_down``: the downed make the status-recovery check (``yes``)."""
    skills: tuple[tuple[str, ...], ...] = ((), (), (), ())
    """The enemies' skills the notes name: support ones (not used), those whose effect text
    is not (wholly) read, attack skills giving 脱力, 自失 or 魅了 (without effect here), and
    ``skill（enemy）→ what its effect was read as`` of those read."""
    reads: frozenset[str] = frozenset()
    """The battle's figures the side missions read (what the exact states keep)."""


@dataclass(slots=True)
class Fighter:
    """A character: what it is, and its state at one moment (``marks``: the bits of its
    statuses; ``poison``: its poison level)."""

    label: str
    """The shown name."""
    key: str
    """An enemy's id, a PC's name."""
    pc: bool
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
    guarded: bool = False
    """A defence skill was used this turn (ruling ``defence_skill_uses``)."""
    danger: int = 0
    """Attack value plus its strongest skill's damage (the ``most_dangerous`` target)."""

    @property
    def felt(self) -> int:
        """The 穢れ whose track effects apply (0 for one that suffers none); skills'
        穢れ conditions read ``kegare`` itself."""
        return self.kegare if self.suffers else 0

    def has(self, status: str) -> bool:
        return bool(self.marks & BIT[status])


# -- attacks --------------------------------------------------------------------------

Cell = tuple[int, bool]
"""One result of an attack on one target: (damage taken, its effects land)."""

TableKey = tuple[int, int, int, bool, "str | None", "str | None", int, int, int, int]
"""What an attack's odds depend on: attack and defence values, the skill's damage and
遠距離攻撃, both positions, both felt 穢れ, the target's defence skill and always-on cuts."""

_POSITIONS: dict[str | None, Position | None] = {p.value: p for p in Position}
_POSITIONS[None] = None


@cache
def attack_rolls(key: TableKey, settings: Settings) -> tuple[tuple[tuple[Cell, int], ...], ...]:
    """Per attack 2D6 sum (index 2 to 12), each :data:`Cell` with its weight out of 36
    (the target's defence 2D6; a result without a defence roll weighs all 36)."""
    attack, defence, damage, ranged, a_pos, d_pos, a_felt, d_felt, guard, cut = key
    spec = AttackSpec(
        attack=attack,
        defence=defence,
        damage=damage,
        attacker_position=_POSITIONS[a_pos],
        target_position=_POSITIONS[d_pos],
        ranged=ranged,
        attacker_kegare=a_felt,
        defender_kegare=d_felt,
        guard=guard,
        min_damage=settings.min_damage,
        position_stack=settings.position_stack,
        critical_guard=settings.critical_guard,
    )
    out: list[tuple[tuple[Cell, int], ...]] = [()] * 13
    for a in TWO_D6.outcomes():
        rolls = TWO_D6.items() if needs_defence_roll(spec, a) else iter([(None, 36)])
        cells: dict[Cell, int] = {}
        for d, w in rolls:
            r = resolve(spec, a, d)
            cell = (after_cut(r.damage, cut, settings.min_damage), r.outcome.effects_land)
            cells[cell] = cells.get(cell, 0) + w
        out[a] = tuple(cells.items())
    return tuple(out)


def table_key(a: Fighter, move: Move, d: Fighter, guard: int) -> TableKey:
    """The odds' key of ``a`` using ``move`` on ``d`` (its defence skill ``guard``, its
    always-on cut at its 穢れ)."""
    key = (a.attack, d.defence, move.damage, move.ranged, a.position, d.position, a.felt, d.felt)
    return (*key, guard, cut_at(d.cuts, d.kegare))


def table(prep: Prepared, a: Fighter, move: Move, d: Fighter, guard: int) -> Dist[Cell]:
    """``a`` using ``move`` on ``d`` (:func:`table_key`): each :data:`Cell` out of 36 x 36."""
    rolls = attack_rolls(table_key(a, move, d, guard), prep.settings)
    weights: dict[Cell, int] = {}
    for a_sum, wa in TWO_D6.items():
        for cell, w in rolls[a_sum]:
            weights[cell] = weights.get(cell, 0) + wa * w
    return Dist(weights, 36 * 36)


def mean_damage(t: Dist[Cell]) -> Fraction:
    """The expected damage of an attack's :func:`table`."""
    return Fraction(sum(dmg * w for (dmg, _), w in t.items()), t.denominator)


def after_cut(damage: int, cut: int, min_damage: int) -> int:
    """Damage after an always-on cut (a damaging result keeps at least ``min_damage``)."""
    if damage <= 0 or cut <= 0:
        return damage
    return max(min_damage, damage - cut)


_CONFUSION = BIT["confusion"]


def guard_for(
    once: bool, guards: tuple[tuple[int, int], ...], kegare: int, marks: int, used: bool
) -> tuple[int, bool]:
    """The cut a defence skill brings to the attack met now (the best of ``guards`` at
    ``kegare``; none while confused) and whether its use is spent this turn after that
    attack (ruling ``defence_skill_uses``: ``once`` a turn spends it on the first attack)."""
    if not guards or marks & _CONFUSION:
        return 0, used
    guard = max((n for n, k in guards if kegare >= k), default=0)
    if guard and once:
        return (0, True) if used else (guard, True)
    return guard, used


def cut_at(cuts: tuple[tuple[int, int], ...], kegare: int) -> int:
    """The always-on skills' cut at ``kegare`` (each works from its 穢れ on)."""
    return sum(n for n, k in cuts if kegare >= k)


def hurt(hp: int, kegare: int, suffers: bool, damage: int) -> tuple[int, int]:
    """(HP, 穢れ) after ``damage``: going from standing to down adds the 穢れ of a down
    (the engine's, by the 穢れ it suffers)."""
    if damage > 0:
        if hp > 0 >= hp - damage:
            kegare += kegare_on_down(kegare if suffers else 0)
        hp -= damage
    return hp, kegare


_POISON = BIT["poison"]


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


# -- choices --------------------------------------------------------------------------


def choose(policy: Policy, hps: Sequence[int], dangers: Sequence[int]) -> int:
    """Where among the standing opponents (their HP and danger, in order) the target a
    policy that draws nothing picks (``random`` is the rules' roll): the most dangerous,
    or the least HP; ties to the first."""
    if policy.target == "most_dangerous":
        return -max(zip(dangers, range(0, -len(dangers), -1), strict=True))[1]
    return min(zip(hps, range(len(hps)), strict=True))[1]


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
    from it now (the tactic choosing the skill: the guide's balance page).

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
            once = prep.guard_uses == "once_per_turn"
            guard = guard_for(once, d.guards, d.kegare, d.marks, d.guarded)[0]
            t = table(prep, a, move, d, guard)
            total += mean_damage(t)
            if move.poison > d.poison and not d.immune & _POISON:
                least = prep.settings.min_damage
                rise = _poison_mean(move.poison, least) - _poison_mean(d.poison, least)
                after = (d.marks | (move.marks & ~d.immune)).bit_count()
                below = d.hp if prep.downing_effects == "none" else None
                stays = t.probability_where(
                    lambda c, hp=below: c[1] and (hp is None or c[0] < hp)  # type: ignore[misc]
                )
                total += stays * rise * _ticks(after, d.felt, prep.settings.status_recovery, left)
        out.append((move, total))
    return out


def pick(prep: Prepared, a: Fighter, target: Fighter, foes: Sequence[Fighter], turn: int) -> Move:
    """The attack skill ``a`` uses (one without any passes): the one the opposing side
    expects to lose the most HP to (:func:`values`; ties: the skill written first)."""
    return max(values(prep, a, target, foes, turn), key=itemgetter(1))[0]


_CLOSEST = tuple(p.value for p in Position)
"""The positions, nearest first (the engine's order)."""


@cache
def nearer(position: str | None) -> str | None:
    """One position nearer the enemy (the auxiliary action 移動)."""
    if position is None:
        return None
    return _CLOSEST[max(0, _CLOSEST.index(position) - 1)]


# -- the turn's start and end ------------------------------------------------------------


def table_due(prep: Prepared, f: Fighter) -> bool:
    """Whether ``f`` rolls the random status table now (ruling ``random_status``)."""
    return prep.random_status != "none" and f.hp > 0 and f.suffers and random_status_due(f.kegare)


def give(status: str, marks: int, level: int, immune: int) -> tuple[int, int]:
    """(statuses, poison level) after the random status table's ``status`` (poison at
    level 1; nothing when immune or already had)."""
    bit = BIT[status]
    if immune & bit or marks & bit:
        return marks, level
    return marks | bit, 1 if status == "poison" else level


def cure_due(prep: Prepared, f: Fighter) -> bool:
    """Whether ``f`` makes the status-recovery check (ruling ``status_check_down``)."""
    if not f.marks or out_for_good(f.felt):
        return False
    return f.hp > 0 or prep.status_check_down == "yes"


def cure_chance(prep: Prepared, f: Fighter) -> Fraction:
    """P(``f``'s status-recovery check succeeds) (the engine's ``KGS``)."""
    return _status_recovery(f.marks.bit_count(), kegare=f.felt, rule=prep.settings.status_recovery)


_CURE_BITS = tuple(BIT[s] for s in CURE_ORDER)


def cured_marks(marks: int, level: int) -> tuple[int, int]:
    """(statuses, poison level) after a successful status-recovery check: the first of
    :data:`CURE_ORDER` it has goes."""
    for bit in _CURE_BITS:
        if marks & bit:
            return marks & ~bit, 0 if bit == _POISON else level
    return marks, level


TurnEnd = tuple[int, int, bool]
"""One character's turn end, relative to where it stood: (the poison tick's damage after
its cut, HP its recovery check gave back, whether its status-recovery check cured one)."""


def turn_end(prep: Prepared, f: Fighter) -> tuple[Dist[int], tuple[TurnEnd, ...]]:
    """``f``'s own turn end, in the rule's order: its poison tick (the engine's ``KGP``,
    after its always-on cut), its recovery check when down after it (``KGR``), its
    status-recovery check (``KGS``), as one roll (each outcome's place in the tuple
    beside)."""
    ticking = f.poison > 0 and not out_for_good(f.felt)  # (not once out for good)
    least = prep.settings.min_damage
    ticks = _poison(f.poison, min_damage=least) if ticking else _NOTHING
    cut = cut_at(f.cuts, f.kegare)
    g = replace(f)
    out: dict[TurnEnd, int] = {}
    den = ticks.denominator * 36 * 6  # the status-recovery 2D6, the recovery 1D6
    for tick, p in ticks.items():
        damage = after_cut(tick, cut, least)
        hp, g.kegare = hurt(f.hp, f.kegare, f.suffers, damage)
        gains = _NOTHING
        if hp <= 0 and not out_for_good(g.felt):  # down: the recovery check
            gains = _recovery(cursed=g.has("curse"), kegare=g.felt)
        for gain, q in gains.items():
            g.hp = hp + gain
            ok = int(cure_chance(prep, g) * 36) if cure_due(prep, g) else 0  # whole 36ths
            for cured, r in ((True, ok), (False, 36 - ok)):
                key = (damage, gain, cured)
                out[key] = out.get(key, 0) + p * q * r * 6 // gains.denominator
    return Dist(dict(enumerate(out.values())), den), tuple(out)


_NOTHING: Dist[int] = Dist.constant(0)
_poison = cache(poison)
_recovery = cache(recovery)
_status_recovery = cache(status_recovery)
