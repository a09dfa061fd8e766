"""A 穢れ battle as a step machine, turn by turn (the flow ``kegare.turn``), on :mod:`.fight`.

At the start of each turn every standing character that suffers the 穢れ track and stands
at 穢れ 6 to 9 rolls the random status table (ruling ``random_status``); then the acting
order is fixed (initiative after 麻痺 and 穢れ 7+, PCs first on ties). Each standing
character acts once, in that order:

* a PC with ``close_in`` first steps one position nearer (its auxiliary action), then
  attacks the enemy its target policy picks (unless another enemy covers that one);
* an enemy picks a PC by its policy and the attack skill the party expects to lose the
  most HP to (:func:`~.fight.pick`; a 全体攻撃 meets every standing PC with one attack
  roll); an enemy without an attack skill passes.

A hit deals its damage first, then its statuses land unless it downed the target (ruling
``downing_hit_effects``). At the turn's end each character in turn takes its poison tick
(the fallen too), its recovery check if down, its status-recovery check if it has a
status (the downed too: ruling ``status_check_down``); then 加護 raises 穢れ by 2. The
battle is won when every enemy of ``defeat`` is down (or out for good) at a turn's end,
lost (a wipe) when every PC is, and timed out at the turn limit.

Each roll is one :class:`~saikoro.dice.Dist`, built once per encounter and reused: an
attack with its target drawn (a random target policy) and every target's defence (a
全体攻撃 rolls the attack's 2D6 once); one character's whole turn end; one random status.
A state is ``(core, totals)``: the core (turn, phase, index, the turn's order, each
character's :data:`Char`) is all the future depends on; the running totals feed the
tally, and the canonical state keeps of them only what the side missions read.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from functools import cache, partial
from itertools import count
from math import lcm
from operator import itemgetter
from sys import maxsize
from typing import ClassVar, TypeVar

from saikoro.balance import Battle, Roll, Rules
from saikoro.dice import Dist
from saikoro.systems._kegare import status
from saikoro.systems._kegare.checks import TWO_D6

from . import fight

__all__ = ["Char", "KegareRules", "State"]

Char = tuple[int, int, "str | None", int, int, bool]
"""(HP, 穢れ, position, status marks, poison level, a defence skill used this turn)."""

Chars = tuple[Char, ...]

Core = tuple[int, int, int, tuple[int, ...], Chars]
"""(turn, phase, index in it, the turn's acting order, every character: PCs, then enemies)."""

Totals = tuple[int, int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""(damage dealt, damage taken, PCs downed (bits), enemies in the order they fell, damage
per enemy action, the action that poisoned each PC (-1: none))."""

State = tuple[Core, Totals]

Turned = tuple[Dist[int], tuple[fight.TurnEnd, ...], list["tuple[Char, int, bool] | None"]]
"""A character's turn end at one state: the roll, its outcomes and where each leaves it
(the character, the poison tick's damage, whether it is down at the end), found when met."""

TABLE, ACT, END, DONE = range(4)
"""The phases: the random status table, the actions, the turn's end (the index: the next
character, or the next place in the order); the battle's end (the index: which of
:data:`ENDS`, the order: (the PCs' highest 穢れ,), no characters)."""

ENDS = ("win", "wipe", "timeout")
"""How a battle ends (:attr:`~saikoro.balance.Simulator.ends`)."""

STATUS_TABLE: Dist[int] = Dist.uniform(range(len(fight.STATUSES)))
"""The random status table (each status alike)."""

Plan = tuple[int, tuple[int, ...], tuple[int, ...], tuple[fight.TableKey, ...]]
"""An attack as aimed: the skill, the targets, the characters whose defence skill's use it
spends (a cover; a guard under ``defence_skill_uses=once_per_turn``), each target's odds."""

Hit = tuple[fight.Move, int, tuple[int, ...], tuple[tuple[int, int, bool], ...]]
"""One outcome of an attack: the skill, its place in ``KegareRules.names`` (-1: a
PC's), the characters whose defence skill's use it spends, (target, damage, effects land)
of each target."""

Attack = tuple[Dist[int], tuple[Hit, ...]]
"""An attack as one roll: the dice (each outcome's place in the next) and the outcomes."""

_CONFUSION, _PARALYSIS = fight.BIT["confusion"], fight.BIT["paralysis"]

T = TypeVar("T")


@cache
def _risen(kegare: int) -> int:
    """穢れ after the turn's end rise of one with 加護."""
    return status.kegare_after(kegare, status.KegareChange.TURN_END)


def _put(values: tuple[T, ...], i: int, v: T) -> tuple[T, ...]:
    """``values`` with ``v`` at ``i``."""
    return (*values[:i], v, *values[i + 1 :])


class KegareRules(Rules[State]):
    """One encounter's battle (the characters' fixed values read from their
    :class:`~.fight.Fighter`, their changing ones kept in each state's :data:`Char`)."""

    work: ClassVar[int] = 2
    """An outcome plays one attack on every target, or a character's whole turn end."""
    repeats: ClassVar[bool] = False
    """The states carry what the battle counts (damage dealt, taken...)."""

    def __init__(self, prep: fight.Prepared) -> None:
        self.prep = prep
        fs = self.fighters = [replace(f) for f in (*prep.pcs, *prep.enemies)]
        self.n, self.pcs = n, p = len(fs), len(prep.pcs)
        self.suffers = tuple(f.suffers for f in fs)
        self.counted = tuple(
            f.suffers or any(k for _, k in (*f.guards, *f.cuts, *f.covers)) for f in fs
        )
        """Whether each character's 穢れ can change what follows (it suffers the track, or a
        skill of its works from some 穢れ); one's that cannot stays as it starts, so that
        states alike but for it are one."""
        ten = next(k for k in count() if status.out_for_good(k))
        self.gone = tuple(ten if f.suffers else maxsize for f in fs)
        """The 穢れ from which each character is out for good (:func:`status.out_for_good`); one
        out for good keeps HP 0 or below (its HP no longer matters), so that one stands
        (acts, can be targeted) at HP 1 or more."""
        self.first = tuple(
            (self._hp(i, f.hp, f.kegare), f.kegare, f.position, f.marks, f.poison, False)
            for i, f in enumerate(fs)
        )
        policies = (prep.tactics.enemy, prep.tactics.pc)
        foes = (tuple(range(p)), tuple(range(p, n)))
        self.sides = tuple(
            (i < p, foes[i < p], policies[i < p], i < p and policies[1].close_in, not f.moves)
            for i, f in enumerate(fs)
        )
        """Per character: a PC, whom it attacks, its side's tactic, whether it steps nearer
        first, whether it passes (an enemy without an attack skill)."""
        self.blessed = tuple(i for i, f in enumerate(fs) if f.blessed and self.counted[i])
        self.defeat = tuple(i for i in range(p, n) if fs[i].key in prep.defeat)
        actions = [(i, m) for i in range(p, n) for m in range(len(fs[i].moves))]
        self.names = tuple(fs[i].moves[m].action for i, m in actions)
        self.skills = [
            [(move, actions.index((i, m)) if i >= p else -1) for m, move in enumerate(f.moves)]
            for i, f in enumerate(fs)
        ]
        """Each character's attack skills with their place in ``names`` (the totals'
        damage per enemy action; -1 for a PC's)."""
        most = max(status.recovery().outcomes())
        self.floor = tuple(-(prep.turns - t + 1) * most for t in range(prep.turns + 2))
        """Per turn, the HP at or below which a downed character never stands again (each
        recovery check left gives back at most ``most``): all such HP are this one."""
        due = [
            frozenset(
                k for k in range(ten + 1) if fight.table_due(prep, replace(f, hp=1, kegare=k))
            )
            for f in fs
        ]
        self.due = tuple((i, kegare) for i, kegare in enumerate(due) if kegare)
        """The characters that may roll the random status table, each with the 穢れ at which
        it does if standing."""
        self.once = prep.guard_uses == "once_per_turn"
        self.covering = prep.tactics.enemy.guard and any(f.covers for f in fs[p:])
        self.kept = tuple(k in prep.reads for k in ("taken", "downed", "defeated", "hit_by"))
        if True not in self.kept:  # the core alone, without a call
            self.canonical = itemgetter(0)  # type: ignore[method-assign,assignment]
        self._rolls: dict[tuple[Plan, ...], Attack] = {}
        self._aims: dict[Hashable, Attack] = {}
        self.poisons = tuple(int(len(f.moves) > 1 and any(m.poison for m in f.moves)) for f in fs)
        """Whether an enemy's choice of skill reads HP and the turn (a poisoning one's)."""
        self._ends: dict[Hashable, tuple[Dist[int], tuple[fight.TurnEnd, ...]]] = {}
        self.most_tick = (0, *(max(status.poison(level).outcomes()) for level in range(1, 6)))
        """The most damage a tick of each poison level can do (before any cut)."""
        self._turned: dict[tuple[int, Char, int], Turned] = {}
        self._given = cache(self._given)  # type: ignore[method-assign]
        self._orders: dict[tuple[int, ...], tuple[int, ...]] = {}

    def start(self) -> State:
        totals = (0, 0, 0, (), (0,) * len(self.names), (-1,) * self.pcs)
        return (1, TABLE, 0, (), self.first), totals

    def canonical(self, state: State) -> Hashable:
        """The core, with the totals the side missions read."""
        core, (_, taken, downed, fallen, actions, poisoners) = state
        read = (taken, downed, fallen, (tuple(map(bool, actions)), poisoners))
        return core, *(value if kept else None for value, kept in zip(read, self.kept, strict=True))

    def load(self, i: int, c: Char) -> fight.Fighter:
        """Character ``i`` as a :class:`~.fight.Fighter` at ``c`` (to ask the rules
        written on one)."""
        f = self.fighters[i]
        f.hp, f.kegare, f.position, f.marks, f.poison, f.guarded = c
        return f

    def step(self, state: State) -> Roll[State] | Battle:
        (turn, phase, k, acting, chars), totals = state
        while True:
            if phase == TABLE:
                roll = self._table(turn, k, chars, totals)
                if roll is not None:
                    return roll
                phase, k, acting = ACT, 0, self._order(chars)
            if phase == ACT:
                roll = self._act(turn, k, acting, chars, totals)
                if roll is not None:
                    return roll
                if self.once:
                    chars = tuple((*c[:5], False) if c[5] else c for c in chars)
                (turn, phase, k, acting, chars), totals = self._settle(turn, 0, chars, totals)
            if phase == END:
                return self._end(turn, k, chars, totals)
            if phase == DONE:
                return self._battle(turn, k, acting, totals)

    # -- the turn's start ---------------------------------------------------------------

    def _table(self, turn: int, k: int, chars: Chars, totals: Totals) -> Roll[State] | None:
        """The next character from place ``k`` of ``self.due`` on that rolls the random
        status table: each status alike (:func:`~.fight.give`)."""
        for n in range(k, len(self.due)):
            i, due = self.due[n]
            c = chars[i]
            if c[0] <= 0 or c[1] not in due:
                continue
            given = self._given(i, c)

            def given_one(x: int, n: int = n, i: int = i, outs: Chars = given) -> State:
                return (turn, TABLE, n + 1, (), _put(chars, i, outs[x])), totals

            return Roll(STATUS_TABLE, given_one)
        return None

    def _given(self, i: int, c: Char) -> Chars:
        """Character ``i`` at ``c`` after each status of the table."""
        immune = self.fighters[i].immune
        return tuple((*c[:3], *fight.give(s, c[3], c[4], immune), c[5]) for s in fight.STATUSES)

    def _order(self, chars: Chars) -> tuple[int, ...]:
        """The turn's acting order (:func:`~saikoro.systems._kegare.status.turn_order`;
        same-side ties in the written order)."""
        key = tuple([c[1] << 8 | c[3] & _PARALYSIS for c in chars])
        found = self._orders.get(key)
        if found is None:
            everyone = []
            for i, c in enumerate(chars):
                f = self.load(i, c)
                everyone.append(
                    status.Combatant(str(i), f.initiative, f.pc, f.has("paralysis"), f.felt)
                )
            ordered = status.turn_order(everyone, rounding=self.prep.rounding)
            found = self._orders[key] = tuple(int(c.name) for c in ordered)
        return found

    # -- the actions --------------------------------------------------------------------

    def _act(
        self, turn: int, k: int, acting: tuple[int, ...], chars: Chars, totals: Totals
    ) -> Roll[State] | None:
        """The next action from place ``k`` of the order on (``None``: the turn's actions
        are over)."""
        sides = self.sides
        for j in range(k, len(acting)):
            i = acting[j]
            c = chars[i]
            if c[0] <= 0:
                continue
            pc, pool, policy, close_in, passes = sides[i]
            foes = tuple([x for x in pool if chars[x][0] > 0])
            if not foes:
                return None
            if passes:  # no attack skill
                continue
            if close_in and c[2] != fight.nearer(c[2]):
                chars = _put(chars, i, (c[0], c[1], fight.nearer(c[2]), *c[3:]))
            x = -1  # a random target: each foe alike
            if policy.target != "random":
                hps = [chars[x][0] for x in foes]
                if policy.target == "most_dangerous":
                    x = foes[fight.choose(policy, hps, [self.fighters[x].danger for x in foes])]
                else:  # the least HP, the first of equals (choose's, without its calls)
                    x = foes[hps.index(min(hps))]
            # the attack reads no HP but a poisoning skill's choice (and the turn with it),
            # and a PC's aimed attack no other foe but one covering it
            hp = self.poisons[i]
            if x >= 0 and pc and not self.covering:
                aim: Hashable = (i, x, c[1], chars[i][2], chars[x][1:])
            else:
                aim = (i, x, foes, turn * hp, chars[i][1:], *[chars[f][1 - hp :] for f in foes])
            found = self._aims.get(aim)
            if found is None:
                plans = tuple(
                    self._plan(turn, i, y, foes, chars) for y in (foes if x < 0 else (x,))
                )
                found = self._rolls.get(plans)
                if found is None:
                    found = self._rolls[plans] = self._roll(i, plans)
                self._aims[aim] = found
            dist, hits = found
            return Roll(dist, partial(self._land, (turn, j, acting, chars, totals), hits))
        return None

    def _plan(self, turn: int, i: int, x: int, foes: tuple[int, ...], chars: Chars) -> Plan:
        """``i``'s attack aimed at ``x``."""
        spent: tuple[int, ...] = ()
        if i < self.pcs:
            m = 0
            if self.covering:
                x, spent = self._cover(x, foes, chars)
            targets: tuple[int, ...] = (x,)
        else:
            m = self._pick(turn, i, x, foes, chars)
            targets = foes if self.fighters[i].moves[m].area else (x,)
        a = self.load(i, chars[i])
        odds = []
        for t in targets:
            d = self.load(t, chars[t])
            was = d.guarded or t in spent
            guard, used = fight.guard_for(self.once, d.guards, d.kegare, d.marks, was)
            if used and not was:
                spent += (t,)
            odds.append(fight.table_key(a, a.moves[m], d, guard))
        return m, targets, spent, tuple(odds)

    def _cover(self, x: int, foes: tuple[int, ...], chars: Chars) -> tuple[int, tuple[int, ...]]:
        """Who takes a single attack aimed at enemy ``x``, and whose use it spends: an
        enemy covering it (with the enemies' ``guard`` tactic: standing, not confused, at
        the skill's 穢れ, its defence skill's use not spent under
        ``defence_skill_uses=once_per_turn``), else ``x``."""
        label = self.fighters[x].label
        for y in foes:
            c = chars[y]
            if y == x or c[3] & _CONFUSION or (self.once and c[5]):
                continue
            for who, kegare in self.fighters[y].covers:
                if c[1] >= kegare and (who == "" or who in label):
                    return y, (y,) if self.once else ()
        return x, ()

    def _pick(self, turn: int, i: int, x: int, foes: tuple[int, ...], chars: Chars) -> int:
        """The attack skill of enemy ``i`` aimed at ``x`` (:func:`~.fight.pick`)."""
        if len(self.fighters[i].moves) == 1:
            return 0
        everyone = [replace(self.load(f, chars[f])) for f in foes]
        a = self.load(i, chars[i])
        return a.moves.index(fight.pick(self.prep, a, everyone[foes.index(x)], everyone, turn))

    def _roll(self, i: int, aims: tuple[Plan, ...]) -> Attack:
        """``i``'s attack as one roll: which plan (each aim alike), then every target's
        result (the attack's 2D6 once, each target's defence; whether its effects land
        only where they can change the target)."""
        plans = tuple(dict.fromkeys(aims))
        parts = []
        for m, targets, _, odds in plans:
            marks = self.skills[i][m][0].marks
            rolls = []
            for t, table in zip(targets, odds, strict=True):
                effects = bool(marks & ~self.fighters[t].immune)
                rolls.append((fight.attack_rolls(table, self.prep.settings), effects))
            joint: dict[tuple[fight.Cell, ...], int] = {}
            for a, wa in TWO_D6.items():
                combos: dict[tuple[fight.Cell, ...], int] = {(): wa}
                for part, effects in rolls:
                    more: dict[tuple[fight.Cell, ...], int] = {}
                    for cells, w in combos.items():
                        for (damage, lands), v in part[a]:
                            key = (*cells, (damage, lands and effects))
                            more[key] = more.get(key, 0) + w * v
                    combos = more
                for cells, w in combos.items():
                    joint[cells] = joint.get(cells, 0) + w
            parts.append((joint, 36 ** (len(rolls) + 1)))
        den = lcm(*(len(aims) * d for _, d in parts))
        hits: list[Hit] = []
        weights: list[int] = []
        for (m, targets, spent, _), (joint, d) in zip(plans, parts, strict=True):
            scale = aims.count((m, targets, spent, _)) * den // (len(aims) * d)
            for cells, w in joint.items():
                landed = tuple((t, *cell) for t, cell in zip(targets, cells, strict=True))
                hits.append((*self.skills[i][m], spent, landed))
                weights.append(w * scale)
        return Dist(dict(enumerate(weights)), den), tuple(hits)

    def _land(
        self, at: tuple[int, int, tuple[int, ...], Chars, Totals], hits: tuple[Hit, ...], x: int
    ) -> State:
        """The attack at ``at`` (turn, place in the order, the order, the characters, the
        totals), outcome ``x``: its results on its targets, damage, then the effects."""
        turn, j, acting, chars, totals = at
        move, action, spent, landed = hits[x]
        out = list(chars)
        for s in spent:
            out[s] = (*out[s][:5], True)
        dealt, taken, downed, fallen, actions, poisoners = totals
        dealt_now = 0
        for t, damage, lands in landed:
            if damage <= 0 and not lands:
                continue
            hp, kegare, position, marks, level, guarded = out[t]
            if 0 < damage < hp:
                hp -= damage
                dealt_now += damage
            elif damage > 0:  # down, or further down: the 穢れ of a down, the HP floor
                hp, down = fight.hurt(hp, kegare, self.suffers[t], damage)
                kegare = down if self.counted[t] else kegare
                hp = max(hp, self.floor[turn])
                dealt_now += damage
            if lands:
                immune = self.fighters[t].immune
                marks, after = fight.marked(self.prep, move, hp, marks, level, immune=immune)
                if after != level:  # a PC poisoned by an enemy's skill
                    poisoners = _put(poisoners, t, action)
                level = after
            out[t] = (hp, kegare, position, marks, level, guarded)
        if dealt_now and action < 0:
            dealt += dealt_now
        elif dealt_now:
            taken += dealt_now
            actions = (*actions[:action], actions[action] + dealt_now, *actions[action + 1 :])
        after_totals = (dealt, taken, downed, fallen, actions, poisoners)
        if turn == self.prep.turns and not any(out[a][0] > 0 for a in acting[j + 1 :]):
            # no one acts again: a standing one's HP reads only on its poison tick
            out = [(min(c[0], self.most_tick[c[4]] + 1), *c[1:]) if c[0] > 0 else c for c in out]
        return (turn, ACT, j + 1, acting, tuple(out)), after_totals

    # -- the turn's end -----------------------------------------------------------------

    def _end(self, turn: int, i: int, chars: Chars, totals: Totals) -> Roll[State]:
        """Character ``i``'s turn end (:func:`~.fight.turn_end`; where each outcome leaves
        it, remembered per state); then the next one's, or the turn's close."""
        c = chars[i]
        found = self._turned.get((i, c, turn))
        if found is None:
            hp = c[0]  # read only where a tick can down it; 0 for every downed one
            if hp > 0:  # (unless a standing one makes the status-recovery check alone)
                hp = min(hp, self.most_tick[c[4]] + 1)
            elif not c[3] or self.prep.status_check_down == "yes":
                hp = 0
            key = (i, hp, c[1], c[3], c[4])
            ends = self._ends.get(key)
            if ends is None:
                ends = self._ends[key] = fight.turn_end(self.prep, self.load(i, (hp, *c[1:])))
            found = self._turned[(i, c, turn)] = (*ends, [None] * len(ends[1]))
        return Roll(found[0], partial(self._after, (turn, i, chars, totals), found))

    def _after(self, at: tuple[int, int, Chars, Totals], found: Turned, x: int) -> State:
        """The turn end at ``at`` (turn, the character, the characters, the totals), outcome
        ``x``: the character after it, counted (a PC's poison damage to the skill that
        poisoned it); then the next one's."""
        turn, i, chars, totals = at
        ended = found[2][x]
        if ended is None:
            damage, gain, cured = found[1][x]
            hp, kegare, position, marks, level, guarded = chars[i]
            hp, down = fight.hurt(hp, kegare, self.suffers[i], damage)
            kegare = down if self.counted[i] else kegare
            if cured:
                marks, level = fight.cured_marks(marks, level)
            now = (max(hp + gain, self.floor[turn + 1]), kegare, position, marks, level, guarded)
            ended = found[2][x] = (now, damage, hp <= 0 or kegare >= self.gone[i])
        now, damage, fell = ended
        dealt, taken, downed, fallen, actions, poisoners = totals
        if i < self.pcs:
            taken += damage
            by = poisoners[i]
            if by >= 0:
                actions = _put(actions, by, actions[by] + damage)
                if not now[4]:  # cured
                    poisoners = _put(poisoners, i, -1)
        else:
            dealt += damage
        after = (dealt, taken, downed, fallen, actions, poisoners)
        if fell:
            after = self._fell(i, after)
        return self._settle(turn, i + 1, (*chars[:i], now, *chars[i + 1 :]), after)

    def _settle(self, turn: int, k: int, chars: Chars, totals: Totals) -> State:
        """The turn's end from character ``k`` on up to the next that rolls (those before
        it counted down as they stand), or to the turn's close: one not out for good rolls
        when down (its recovery check), poisoned or with a status (:func:`~.fight.turn_end`)."""
        gone = self.gone
        for i in range(k, self.n):
            hp, kegare, _, marks, level, _ = chars[i]
            if kegare >= gone[i]:
                totals = self._fell(i, totals)
            elif hp <= 0 or marks or level:
                return (turn, END, i, (), chars), totals
        return self._close(turn, chars, totals)

    def _fell(self, i: int, totals: Totals) -> Totals:
        """Character ``i`` down at the turn's end: a PC downed, an enemy fallen (the order
        they first fell in)."""
        dealt, taken, downed, fallen, actions, poisoners = totals
        if i < self.pcs:
            return dealt, taken, downed | 1 << i, fallen, actions, poisoners
        if i - self.pcs in fallen:
            return totals
        return dealt, taken, downed, (*fallen, i - self.pcs), actions, poisoners

    def _close(self, turn: int, chars: Chars, totals: Totals) -> State:
        """The 穢れ rise, then the next turn, or the battle's end (a state that keeps only
        what its :class:`~saikoro.balance.Battle` reads, so that ends alike are one)."""
        if self.blessed:
            rising = list(chars)
            for i in self.blessed:
                c = chars[i]
                kegare = _risen(c[1])
                rising[i] = (self._hp(i, c[0], kegare), kegare, *c[2:])
            chars = tuple(rising)
        for i in self.defeat:
            if chars[i][0] > 0:
                break
        else:
            return self._done(turn, 0, chars, totals)
        for i in range(self.pcs):
            if chars[i][0] > 0:
                break
        else:
            return self._done(turn, 1, chars, totals)
        if turn == self.prep.turns:
            return self._done(turn, 2, chars, totals)
        return (turn + 1, TABLE, 0, (), chars), totals

    def _hp(self, i: int, hp: int, kegare: int) -> int:
        """Character ``i``'s HP at ``kegare``: 0 or below once it is out for good."""
        return min(hp, 0) if kegare >= self.gone[i] else hp

    def _done(self, turn: int, end: int, chars: Chars, totals: Totals) -> State:
        corruption = max(map(itemgetter(1), chars[: self.pcs]), default=0)
        return (turn, DONE, end, (corruption,), ()), totals

    def _battle(self, turn: int, end: int, facts: tuple[int, ...], totals: Totals) -> Battle:
        dealt, taken, downed, fallen, actions, _ = totals
        return Battle(
            win=end == 0,
            end=ENDS[end],
            rounds=turn,
            downed=tuple([bool(downed >> i & 1) for i in range(self.pcs)]),
            dealt=dealt,
            taken=taken,
            defeated=fallen,
            facts=(("corruption", facts[0]),),
            actions=tuple([(self.names[a], v) for a, v in enumerate(actions) if v]),
        )
