"""A 穢れ duel solved exactly: a Markov chain over both characters' HP, 穢れ, statuses and
positions, one turn at a time, with integer weights.

One PC against one enemy, everything else as the simulation plays it: the random status
table, the acting order, the PC's step nearer, the enemy's choice of skill, the engine's
attack tables (defence skills and always-on cuts), damage before effects, poison, both
recovery checks, the status-recovery checks and the 穢れ rise. Each character's state is
loaded into the simulation's own :class:`~.fight.Fighter` objects to ask the shared rules
(the order, the tables, the skill chosen, who is due for what); the branches are applied
with the same functions (:func:`~.fight.hurt`, :func:`~.fight.marked`...).

A state is one integer: the PC's character number times :data:`_SHIFT` plus the enemy's
(each character's (HP, 穢れ, position, statuses, poison) is numbered once), so that the
chain's dictionaries hash integers. Every successor is charged to the budget
(:class:`~saikoro.balance.Budget`); a duel too large for it raises
:class:`~saikoro.balance.OutOfBudget`.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction

from saikoro.balance import Budget
from saikoro.dice import InternalError

from .fight import (
    STATUSES,
    Fighter,
    Prepared,
    after_cut,
    cure_chance,
    cure_due,
    cured_marks,
    give,
    guard_for,
    hurt,
    is_up,
    marked,
    nearer,
    order,
    pick,
    poison_due,
    poison_ticks,
    recovery_dice,
    recovery_due,
    risen,
    table,
    table_due,
)

__all__ = ["exact"]

Char = tuple[int, int, str | None, int, int]
"""(HP, 穢れ, position, status marks, poison level) of one character."""
Dist = dict[int, int]
"""State number -> weight."""
Side = list[tuple[int, int]]
"""One character's successors: (character number, weight)."""
_SHIFT = 1 << 32
"""A state is ``PC number * _SHIFT + enemy number``."""
_MASK = _SHIFT - 1
_FULL = 36 * 36
"""One attack's denominator (both 2D6)."""


def _load(f: Fighter, c: Char) -> None:
    f.hp, f.kegare, f.position, f.marks, f.poison = c
    f.guarded = False


def _read(f: Fighter) -> Char:
    return f.hp, f.kegare, f.position, f.marks, f.poison


class _Duel:
    """The chain's pieces for one prepared duel."""

    def __init__(self, prep: Prepared, budget: Budget) -> None:
        self.prep = prep
        self.budget = budget
        self.pc = prep.pcs[0].copy()
        self.en = prep.enemies[0].copy()
        self.turn = 0
        self.chars: list[Char] = []
        self.numbers: dict[Char, int] = {}
        self.standing: dict[bool, list[bool]] = {True: [], False: []}
        """Per character number, whether it stands as the PC (``True``) or the enemy."""
        self._hits: dict[tuple[bool, int, int, int], Side] = {}
        self._sides: dict[tuple[str, bool, int], Side | None] = {}
        self._first: dict[tuple[int, int], bool] = {}

    def number(self, c: Char) -> int:
        """The number of character state ``c``."""
        found = self.numbers.get(c)
        if found is None:
            found = self.numbers[c] = len(self.chars)
            self.chars.append(c)
            self.standing[True].append(is_up(c[0], c[1], self.pc.suffers))
            self.standing[False].append(is_up(c[0], c[1], self.en.suffers))
        return found

    def load(self, pc: int, en: int) -> tuple[Fighter, Fighter]:
        _load(self.pc, self.chars[pc])
        _load(self.en, self.chars[en])
        return self.pc, self.en

    def up(self, is_pc: bool, n: int) -> bool:
        return self.standing[is_pc][n]

    # -- one character's steps -----------------------------------------------------------

    def side(self, phase: str, is_pc: bool, n: int) -> Side | None:
        """One character's successors in ``phase`` (``table``, ``poison``, ``recover``,
        ``cure``; ``None``: it is not concerned), remembered: they depend on its own state
        only."""
        key = (phase, is_pc, n)
        if key in self._sides:
            return self._sides[key]
        f = self.pc if is_pc else self.en
        c = self.chars[n]
        _load(f, c)
        phases: dict[str, Callable[[Fighter, Char], list[tuple[Char, int]] | None]] = {
            "table": self.table,
            "poison": self.poison,
            "recover": self.recover,
            "cure": self.cure,
        }
        found = phases[phase](f, c)
        out = None if found is None else [(self.number(t), w) for t, w in found]
        self._sides[key] = out
        return out

    def table(self, f: Fighter, c: Char) -> list[tuple[Char, int]] | None:
        """The random status table, if due (seven statuses alike)."""
        if not table_due(self.prep, f):
            return None
        out = []
        for status in STATUSES:
            _load(f, c)
            give(f, status)
            out.append((_read(f), 1))
        return out

    def poison(self, f: Fighter, c: Char) -> list[tuple[Char, int]] | None:
        if not poison_due(f):
            return None
        min_damage = self.prep.min_damage
        hp, k, position, marks, level = c
        cut = f.cut()
        out = []
        for dice, q in poison_ticks(level, min_damage).items():
            hp2, k2 = hurt(hp, k, f.suffers, after_cut(dice, cut, min_damage))
            out.append(((hp2, k2, position, marks, level), q))
        return out

    def recover(self, f: Fighter, c: Char) -> list[tuple[Char, int]] | None:
        if not recovery_due(f):
            return None
        hp, k, position, marks, level = c
        dice = recovery_dice(f.has("curse"), f.felt)
        return [((hp + gained, k, position, marks, level), q) for gained, q in dice.items()]

    def cure(self, f: Fighter, c: Char) -> list[tuple[Char, int]] | None:
        if not cure_due(self.prep, f):
            return None
        ok = cure_chance(self.prep, f) * 36  # 2D6: a whole number of 36ths
        if ok.denominator != 1:
            raise InternalError(f"kegare: a status-recovery chance of {ok}/36")
        hp, k, position, marks, level = c
        marks2, level2 = cured_marks(marks, level)
        return [((hp, k, position, marks2, level2), ok.numerator), (c, 36 - ok.numerator)]

    def rise(self, is_pc: bool, n: int) -> int:
        """The character's number after the 穢れ rise."""
        hp, k, position, marks, level = self.chars[n]
        blessed = (self.pc if is_pc else self.en).blessed
        return self.number((hp, risen(k, blessed), position, marks, level))

    def step(self, dist: Dist, phase: str) -> tuple[Dist, int]:
        """Both characters' ``phase`` for every state, over one denominator (the least
        common multiple of the states' own totals), returned with it. States where neither
        character is concerned keep their weight (times the denominator); a phase that
        concerns no one is skipped."""
        mine = {n for n in {s >> 32 for s in dist} if self.side(phase, True, n) is not None}
        theirs = {n for n in {s & _MASK for s in dist} if self.side(phase, False, n) is not None}
        if not mine and not theirs:
            return dist, 1
        lists: dict[int, tuple[Side, Side]] = {}
        totals: dict[int, int] = {}
        for s in dist:
            pc, en = s >> 32, s & _MASK
            if pc not in mine and en not in theirs:
                continue
            a = self.side(phase, True, pc) or [(pc, 1)]
            b = self.side(phase, False, en) or [(en, 1)]
            lists[s] = (a, b)
            totals[s] = sum(w for _, w in a) * sum(w for _, w in b)
            self.budget.spend(len(a) * len(b))
        den = math.lcm(*totals.values())
        out: defaultdict[int, int] = defaultdict(int)
        for s, w in dist.items():
            found = lists.get(s)
            if found is None:
                out[s] += w * den
                continue
            scale = w * (den // totals[s])
            a, b = found
            for c, p in a:
                base, wp = c << 32, scale * p
                for e, q in b:
                    out[base + e] += wp * q
        return out, den

    # -- the actions ---------------------------------------------------------------------

    def pc_first(self, pc: int, en: int) -> bool:
        """Whether the PC acts first this turn (the order fixed at its start)."""
        a, e = self.chars[pc], self.chars[en]
        key = (a[1] * 1024 + a[3], e[1] * 1024 + e[3])
        found = self._first.get(key)
        if found is None:
            f, g = self.load(pc, en)
            found = self._first[key] = order(self.prep, [f, g])[0] is f
        return found

    def moved(self, pc: int) -> int:
        """The PC's number after its step nearer (tactic ``close_in``)."""
        if not self.prep.pc_policy.close_in:
            return pc
        hp, k, position, marks, level = self.chars[pc]
        return self.number((hp, k, nearer(position), marks, level))

    def hits(self, pc_acts: bool, pc: int, en: int) -> Side:
        """The target's numbers after one attack (weights out of 36 x 36): the PC's on the
        enemy, or the enemy's skill on the PC; remembered by what they depend on (the
        mover's HP aside: for the PC's attack, its own number stands for its 穢れ,
        position and statuses)."""
        hp_free = self._strip(pc if pc_acts else en)
        key = (pc_acts, hp_free, en if pc_acts else pc, self.turn)
        found = self._hits.get(key)
        if found is not None:
            return found
        f, g = self.load(pc, en)
        prep = self.prep
        if pc_acts:
            a, d, move = f, g, f.moves[0]
        else:
            chosen = pick(prep, g, f, [f], self.turn)
            if chosen is None:
                self._hits[key] = found = [(pc, _FULL)]
                return found
            a, d, move = g, f, chosen
        t = table(prep, a, move, d, guard=guard_for(prep, d, spend=True), cut=d.cut())
        hp, k, position, marks, level = _read(d)
        found = []
        for (damage, lands), w in t.weights:
            hp2, k2 = hurt(hp, k, d.suffers, damage)
            if lands:
                marks2, level2 = marked(prep, move, hp2, marks, level, immune=d.immune)
            else:
                marks2, level2 = marks, level
            found.append((self.number((hp2, k2, position, marks2, level2)), w))
        self._hits[key] = found
        return found

    def _strip(self, n: int) -> int:
        """The number of character ``n`` at HP 0 (what its attack depends on)."""
        _, k, position, marks, level = self.chars[n]
        return self.number((0, k, position, marks, level))

    def actions(self, dist: Dist) -> tuple[Dist, int]:
        """Both actions of every state in the turn's order, over 36^4: the first attack of
        every state, merged, then the second where both still stand (the order is the one
        fixed at the turn's start, carried in between)."""
        pc_up, en_up = self.standing[True], self.standing[False]
        self._hits.clear()
        enemy_next: defaultdict[int, int] = defaultdict(int)
        pc_next: defaultdict[int, int] = defaultdict(int)
        for s, w in dist.items():
            pc, en = divmod(s, _SHIFT)
            if self.pc_first(pc, en):
                me = self.moved(pc)
                base = me * _SHIFT
                found = self.hits(True, me, en)
                for e, q in found:
                    enemy_next[base + e] += w * q
            else:
                found = self.hits(False, pc, en)
                for c, q in found:
                    pc_next[c * _SHIFT + en] += w * q
            self.budget.spend(len(found))
        out: defaultdict[int, int] = defaultdict(int)
        for s, w in enemy_next.items():
            pc, en = divmod(s, _SHIFT)
            if not (en_up[en] and pc_up[pc]):
                out[s] += w * _FULL
                continue
            found = self.hits(False, pc, en)
            for c, r in found:
                out[c * _SHIFT + en] += w * r
            self.budget.spend(len(found))
        for s, w in pc_next.items():
            pc, en = divmod(s, _SHIFT)
            if not (pc_up[pc] and en_up[en]):
                out[s] += w * _FULL
                continue
            me = self.moved(pc)
            base = me * _SHIFT
            found = self.hits(True, me, en)
            for e, r in found:
                out[base + e] += w * r
            self.budget.spend(len(found))
        return out, _FULL * _FULL


def exact(prep: Prepared, budget: Budget) -> tuple[Fraction | None, dict[str, Fraction]]:
    """P(win) of a duel, exactly (``None`` for anything but one PC against one enemy)."""
    if len(prep.pcs) != 1 or len(prep.enemies) != 1:
        return None, {}
    duel = _Duel(prep, budget)
    dist: Dist = {duel.number(_read(duel.pc)) * _SHIFT + duel.number(_read(duel.en)): 1}
    den = 1
    win = Fraction(0)
    for turn in range(1, prep.turns + 1):
        duel.turn = turn
        dist, d = duel.step(dist, "table")
        den *= d
        dist, d = duel.actions(dist)
        den *= d
        for phase in ("poison", "recover", "cure"):
            dist, d = duel.step(dist, phase)
            den *= d
        won = 0
        alive: Dist = {}
        for s, w in dist.items():
            pc, en = divmod(s, _SHIFT)
            pc, en = duel.rise(True, pc), duel.rise(False, en)
            if not duel.up(False, en):
                won += w
            elif duel.up(True, pc):
                u = pc * _SHIFT + en
                alive[u] = alive.get(u, 0) + w
        win += Fraction(won, den)
        g = math.gcd(den, *alive.values())
        dist = {s: w // g for s, w in alive.items()}
        den //= g
        if not dist:
            break
    return win, {}
