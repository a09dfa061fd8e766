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
from math import lcm

from saikoro.balance import Battle, Roll, Rules
from saikoro.dice import Dist
from saikoro.systems._kegare.checks import TWO_D6
from saikoro.systems._kegare.status import Combatant, turn_order

from .fight import (
    BIT,
    STATUSES,
    Cell,
    Fighter,
    Prepared,
    TableKey,
    attack_rolls,
    choose,
    give,
    hurt,
    is_up,
    marked,
    nearer,
    pick,
    risen,
    table_due,
    turn_end,
)

__all__ = ["Char", "KegareRules", "State"]

Char = tuple[int, int, "str | None", int, int, bool]
"""(HP, 穢れ, position, status marks, poison level, a defence skill used this turn)."""

Core = tuple[int, int, int, tuple[int, ...], tuple[Char, ...]]
"""(turn, phase, index in it, the turn's acting order, every character: PCs, then enemies)."""

Totals = tuple[int, int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""(damage dealt, damage taken, PCs downed (bits), enemies in the order they fell, damage
per enemy action, the action that poisoned each PC (-1: none))."""

State = tuple[Core, Totals]

TABLE, ACT, END = range(3)
"""The phases: the random status table, the actions, the turn's end (each index the next
character, or the next place in the order)."""

STATUS_TABLE: Dist[int] = Dist.uniform(range(len(STATUSES)))
"""The random status table (each status alike)."""

_CONFUSION, _PARALYSIS = BIT["confusion"], BIT["paralysis"]

Plan = tuple[int, tuple[int, ...], tuple[Char, ...], tuple[TableKey, ...]]
"""An attack as aimed: the skill, the targets, the characters as it rolls (a cover or a
defence skill's use spent), each target's :data:`~.fight.TableKey`."""


def _set(chars: tuple[Char, ...], i: int, c: Char) -> tuple[Char, ...]:
    return (*chars[:i], c, *chars[i + 1 :])


def _plus(counts: tuple[int, ...], i: int, n: int) -> tuple[int, ...]:
    return (*counts[:i], counts[i] + n, *counts[i + 1 :])


class KegareRules(Rules[State]):
    """One encounter's battle (the characters' fixed values read from their
    :class:`~.fight.Fighter`, their changing ones kept in each state's :data:`Char`)."""

    def __init__(self, prep: Prepared) -> None:
        self.prep = prep
        fs = self.fighters = [f.copy() for f in (*prep.pcs, *prep.enemies)]
        self.n, self.pcs = len(fs), len(prep.pcs)
        self.suffers = tuple(f.suffers for f in fs)
        self.first = tuple((f.hp, f.kegare, f.position, f.marks, f.poison, False) for f in fs)
        self.foes = (tuple(range(self.pcs)), tuple(range(self.pcs, self.n)))
        """Whom an enemy attacks, whom a PC attacks (by ``pc``)."""
        self.names = tuple(m.action for e in prep.enemies for m in e.moves)
        self.action = {
            (i, m): k
            for k, (i, m) in enumerate(
                (i, m) for i in range(self.pcs, self.n) for m in range(len(fs[i].moves))
            )
        }
        """Each enemy attack skill's place in :attr:`names` (the totals' damage per action)."""
        self.defeat = tuple(i for i, f in enumerate(fs) if not f.pc and f.key in prep.defeat)
        self.once = prep.guard_uses == "once_per_turn"
        self.covering = prep.enemy_policy.guard and any(f.covers for f in fs[self.pcs :])
        self.rules = (prep.min_damage, prep.position_stack, prep.critical_guard)
        kept = {"taken", "downed", "defeated", "hit_by"} & prep.reads
        self.kept = tuple(k in kept for k in ("taken", "downed", "defeated", "hit_by"))
        self.reads = bool(kept)
        self._rolls: dict[
            Hashable, Dist[tuple[Cell, ...]] | Dist[tuple[int, tuple[Cell, ...]]]
        ] = {}
        self._ends: dict[tuple[int, int, int, int, int], Dist[tuple[int, int, int, int, int, bool]] | None] = {}
        self._given: dict[tuple[int, Char], tuple[Char, ...] | None] = {}
        self._orders: dict[tuple[int, ...], tuple[int, ...]] = {}
        self._picks: dict[Hashable, int] = {}

    def start(self) -> State:
        return (1, TABLE, 0, (), self.first), (0, 0, 0, (), (0,) * len(self.names), (-1,) * self.pcs)

    def canonical(self, state: State) -> Hashable:
        """The core, with the totals the side missions read."""
        core, totals = state
        if not self.reads:
            return core
        _, taken, downed, fallen, actions, poisoners = totals
        taken_k, downed_k, defeated_k, hit_k = self.kept
        hit = (tuple(v > 0 for v in actions), poisoners) if hit_k else ()
        return (
            core,
            taken if taken_k else 0,
            downed if downed_k else 0,
            fallen if defeated_k else (),
            hit,
        )

    def load(self, i: int, c: Char) -> Fighter:
        """Character ``i`` as a :class:`~.fight.Fighter` at ``c`` (for the rules written
        on one)."""
        f = self.fighters[i]
        f.hp, f.kegare, f.position, f.marks, f.poison, f.guarded = c
        return f

    def up(self, i: int, c: Char) -> bool:
        return is_up(c[0], c[1], self.suffers[i])

    def felt(self, i: int, c: Char) -> int:
        return c[1] if self.suffers[i] else 0

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
                phase, k, acting = END, 0, ()
            found = self._end(turn, k, chars, totals)
            if found.__class__ is not tuple:
                return found  # type: ignore[return-value]
            (turn, phase, k, acting, chars), totals = found  # type: ignore[misc]

    # -- the turn's start ---------------------------------------------------------------

    def _table(
        self, turn: int, k: int, chars: tuple[Char, ...], totals: Totals
    ) -> Roll[State] | None:
        """The next character from ``k`` on that rolls the random status table."""
        if self.prep.random_status == "none":
            return None
        for i in range(k, self.n):
            key = (i, chars[i])
            given = self._given.get(key, ())
            if given == ():
                f = self.load(i, chars[i])
                given = None
                if table_due(self.prep, f):
                    given = tuple(self._gives(i, chars[i], s) for s in STATUSES)
                self._given[key] = given
            if given is not None:
                outs = given

                def status(x: int, i: int = i) -> State:
                    return (turn, TABLE, i + 1, (), _set(chars, i, outs[x])), totals

                return Roll(STATUS_TABLE, status)
        return None

    def _gives(self, i: int, c: Char, status: str) -> Char:
        f = self.load(i, c)
        give(f, status)
        return (f.hp, f.kegare, f.position, f.marks, f.poison, f.guarded)

    def _order(self, chars: tuple[Char, ...]) -> tuple[int, ...]:
        """The turn's acting order (:func:`~saikoro.systems._kegare.status.turn_order`;
        same-side ties in the written order)."""
        key = tuple(
            (c[3] & _PARALYSIS) * 64 + (c[1] if s else 0)
            for c, s in zip(chars, self.suffers, strict=True)
        )
        found = self._orders.get(key)
        if found is None:
            everyone = [
                Combatant(
                    str(i),
                    f.initiative,
                    f.pc,
                    bool(chars[i][3] & _PARALYSIS),
                    self.felt(i, chars[i]),
                )
                for i, f in enumerate(self.fighters)
            ]
            ordered = turn_order(everyone, rounding=self.prep.rounding)
            found = self._orders[key] = tuple(int(c.name) for c in ordered)
        return found

    # -- the actions --------------------------------------------------------------------

    def _act(
        self, turn: int, k: int, acting: tuple[int, ...], chars: tuple[Char, ...], totals: Totals
    ) -> Roll[State] | None:
        """The next action from place ``k`` of the order on (``None``: the turn's actions
        are over)."""
        prep = self.prep
        for j in range(k, len(acting)):
            i = acting[j]
            c = chars[i]
            if not self.up(i, c):
                continue
            pc = i < self.pcs
            foes = tuple(x for x in self.foes[pc] if self.up(x, chars[x]))
            if not foes:
                return None
            if pc:
                policy = prep.pc_policy
                if policy.close_in and nearer(c[2]) != c[2]:
                    chars = _set(chars, i, (c[0], c[1], nearer(c[2]), *c[3:]))
            else:
                policy = prep.enemy_policy
                if not self.fighters[i].moves:  # no attack skill: it passes
                    continue
            if policy.target == "random":
                aims = foes
            else:
                aims = (
                    foes[choose(policy, [(chars[x][0], self.fighters[x].danger) for x in foes])],
                )
            counts: dict[Plan, int] = {}
            for x in aims:
                plan = self._plan(turn, i, x, foes, chars)
                counts[plan] = counts.get(plan, 0) + 1
            return self._attack(turn, j, acting, i, counts, len(aims), totals)
        return None

    def _plan(
        self, turn: int, i: int, x: int, foes: tuple[int, ...], chars: tuple[Char, ...]
    ) -> Plan:
        """``i``'s attack aimed at ``x``: the skill, the targets, the characters as it rolls."""
        if i < self.pcs:
            m = 0
            x, chars = self._cover(x, foes, chars)
            targets: tuple[int, ...] = (x,)
        else:
            m = self._pick(turn, i, x, foes, chars)
            targets = foes if self.fighters[i].moves[m].area else (x,)
        a, ca = self.fighters[i], chars[i]
        move = a.moves[m]
        keys = []
        for t in targets:
            d, cd = self.fighters[t], chars[t]
            guard = 0
            if d.guards and not cd[3] & _CONFUSION:
                guard = max((n for n, kegare in d.guards if cd[1] >= kegare), default=0)
                if guard and self.once:
                    if cd[5]:
                        guard = 0
                    else:
                        chars = _set(chars, t, (*cd[:5], True))
            cut = sum(n for n, kegare in d.cuts if cd[1] >= kegare) if d.cuts else 0
            felts = (self.felt(i, ca), self.felt(t, cd))
            keys.append(
                (a.attack, d.defence, move.damage, move.ranged, ca[2], cd[2], *felts, guard, cut)
            )
        return m, targets, chars, tuple(keys)

    def _cover(
        self, x: int, foes: tuple[int, ...], chars: tuple[Char, ...]
    ) -> tuple[int, tuple[Char, ...]]:
        """Who takes a single attack aimed at enemy ``x``: an enemy covering it (with the
        enemies' ``guard`` tactic: standing, not confused, at the skill's 穢れ, its defence
        skill's use not spent under ``defence_skill_uses=once_per_turn``), else ``x``."""
        if not self.covering:
            return x, chars
        label = self.fighters[x].label
        for y in foes:
            c = chars[y]
            if y == x or c[3] & _CONFUSION or (self.once and c[5]):
                continue
            for who, kegare in self.fighters[y].covers:
                if c[1] >= kegare and (who == "" or who in label):
                    return y, _set(chars, y, (*c[:5], True)) if self.once else chars
        return x, chars

    def _pick(
        self, turn: int, i: int, x: int, foes: tuple[int, ...], chars: tuple[Char, ...]
    ) -> int:
        """The attack skill of enemy ``i`` aimed at ``x`` (:func:`~.fight.pick`)."""
        if len(self.fighters[i].moves) == 1:
            return 0
        key = (turn, i, x, foes, chars[i], *(chars[f] for f in foes))
        found = self._picks.get(key)
        if found is None:
            everyone = [replace(self.load(f, chars[f])) for f in foes]
            a = self.load(i, chars[i])
            move = pick(self.prep, a, everyone[foes.index(x)], everyone, turn)
            found = self._picks[key] = a.moves.index(move) if move else 0
        return found

    def _attack(
        self,
        turn: int,
        j: int,
        acting: tuple[int, ...],
        i: int,
        counts: dict[Plan, int],
        aims: int,
        totals: Totals,
    ) -> Roll[State]:
        """One roll for the attack: its target drawn (each aim alike), every target's result."""
        plans = tuple(counts)
        if len(plans) == 1:
            ((m, targets, chars, keys),) = plans
            dist: Dist[tuple[Cell, ...]] = self._joint(keys)

            def hit(cells: tuple[Cell, ...]) -> State:
                return self._land(turn, j, acting, i, m, targets, chars, cells, totals)

            return Roll(dist, hit)
        key = tuple((counts[p], p[3]) for p in plans)
        mixed = self._rolls.get(key)
        if mixed is None:
            parts = [(counts[p], self._joint(p[3])) for p in plans]
            den = lcm(*(aims * d.denominator for _, d in parts))
            weights: dict[tuple[int, tuple[Cell, ...]], int] = {}
            for g, (n, d) in enumerate(parts):
                scale = n * den // (aims * d.denominator)
                for cells, w in d.items():
                    weights[(g, cells)] = w * scale
            mixed = self._rolls[key] = Dist(weights, den)

        def aimed(x: tuple[int, tuple[Cell, ...]]) -> State:
            m, targets, chars, _ = plans[x[0]]
            return self._land(turn, j, acting, i, m, targets, chars, x[1], totals)

        return Roll(mixed, aimed)  # type: ignore[arg-type]

    def _joint(self, keys: tuple[TableKey, ...]) -> Dist[tuple[Cell, ...]]:
        """Every target's result of one attack: the attack's 2D6 once, each target's defence."""
        found = self._rolls.get(keys)
        if found is None:
            parts = [attack_rolls(k, *self.rules) for k in keys]
            weights: dict[tuple[Cell, ...], int] = {}
            for a, wa in TWO_D6.items():
                combos: dict[tuple[Cell, ...], int] = {(): wa}
                for part in parts:
                    combos = {
                        cs + (cell,): w * wc for cs, w in combos.items() for cell, wc in part[a]
                    }
                for cs, w in combos.items():
                    weights[cs] = weights.get(cs, 0) + w
            found = self._rolls[keys] = Dist(weights, 36 ** (len(keys) + 1))
        return found  # type: ignore[return-value]

    def _land(
        self,
        turn: int,
        j: int,
        acting: tuple[int, ...],
        i: int,
        m: int,
        targets: tuple[int, ...],
        chars: tuple[Char, ...],
        cells: tuple[Cell, ...],
        totals: Totals,
    ) -> State:
        """The attack's results on its targets: damage, then the effects."""
        out = list(chars)
        dealt, taken, downed, fallen, actions, poisoners = totals
        move = self.fighters[i].moves[m]
        pc = i < self.pcs
        for t, (damage, lands) in zip(targets, cells, strict=True):
            hp, kegare, position, marks, level, guarded = out[t]
            if damage > 0:
                hp, kegare = hurt(hp, kegare, self.suffers[t], damage)
                if pc:
                    dealt += damage
                else:
                    taken += damage
                    actions = _plus(actions, self.action[(i, m)], damage)
            if lands and move.marks:
                marks, after = marked(
                    self.prep, move, hp, marks, level, immune=self.fighters[t].immune
                )
                if after != level and not pc:
                    poisoners = (*poisoners[:t], self.action[(i, m)], *poisoners[t + 1 :])
                level = after
            out[t] = (hp, kegare, position, marks, level, guarded)
        return (turn, ACT, j + 1, acting, tuple(out)), (
            dealt,
            taken,
            downed,
            fallen,
            actions,
            poisoners,
        )

    # -- the turn's end -----------------------------------------------------------------

    def _end(
        self, turn: int, k: int, chars: tuple[Char, ...], totals: Totals
    ) -> Roll[State] | Battle | State:
        """The next character from ``k`` on with a roll at the turn's end; then the 穢れ
        rise and the battle's end or the next turn."""
        for i in range(k, self.n):
            c = chars[i]
            ends = None
            if c[0] <= 0 or c[3] or c[4]:  # else no poison, no status, not down: no roll
                key = (i, c[0], c[1], c[3], c[4])
                ends = self._ends.get(key, ())
                if ends == ():
                    ends = self._ends[key] = turn_end(self.prep, self.load(i, c))
            if ends is None:
                if not self.up(i, c):
                    totals = self._fell(i, totals)
                continue

            def after(
                x: tuple[int, int, int, int, int, bool],
                i: int = i,
                c: Char = c,
                totals: Totals = totals,
            ) -> State:
                damage, hp, kegare, marks, level, fell = x
                dealt, taken, downed, fallen, actions, poisoners = totals
                if i < self.pcs:
                    by = poisoners[i]
                    if by >= 0:
                        if damage:
                            actions = _plus(actions, by, damage)
                        if not level:
                            poisoners = (*poisoners[:i], -1, *poisoners[i + 1 :])
                    totals = (dealt, taken + damage, downed, fallen, actions, poisoners)
                else:
                    totals = (dealt + damage, taken, downed, fallen, actions, poisoners)
                if fell:
                    totals = self._fell(i, totals)
                now = (hp, kegare, c[2], marks, level, c[5])
                return (turn, END, i + 1, (), _set(chars, i, now)), totals

            return Roll(ends, after)
        return self._turn_end(turn, chars, totals)

    def _fell(self, i: int, totals: Totals) -> Totals:
        """Character ``i`` down at the turn's end: a PC downed, an enemy fallen (the order
        they first fell in)."""
        dealt, taken, downed, fallen, actions, poisoners = totals
        if i < self.pcs:
            downed |= 1 << i
        elif i - self.pcs not in fallen:
            fallen = (*fallen, i - self.pcs)
        return dealt, taken, downed, fallen, actions, poisoners

    def _turn_end(self, turn: int, chars: tuple[Char, ...], totals: Totals) -> Battle | State:
        """The 穢れ rise, then the battle's end or the next turn."""
        chars = tuple(
            (c[0], risen(c[1], True), *c[2:]) if f.blessed else c
            for c, f in zip(chars, self.fighters, strict=True)
        )
        end = ""
        if not any(self.up(i, chars[i]) for i in self.defeat):
            end = "win"
        elif not any(self.up(i, chars[i]) for i in range(self.pcs)):
            end = "wipe"
        elif turn == self.prep.turns:
            end = "timeout"
        if not end:
            return (turn + 1, TABLE, 0, (), chars), totals
        dealt, taken, downed, fallen, actions, _ = totals
        return Battle(
            win=end == "win",
            end=end,
            rounds=turn,
            downed=tuple(bool(downed >> i & 1) for i in range(self.pcs)),
            dealt=dealt,
            taken=taken,
            defeated=fallen,
            facts={"corruption": max((c[1] for c in chars[: self.pcs]), default=0)},
            actions=tuple((self.names[a], v) for a, v in enumerate(actions) if v),
        )
