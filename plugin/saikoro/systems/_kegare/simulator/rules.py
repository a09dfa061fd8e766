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
``downing_hit_effects``). At the turn's end: poison ticks (the fallen too), the recovery
check of everyone down, the status-recovery check of everyone with a status (the downed
too: ruling ``status_check_down``), then 加護 raises 穢れ by 2. The battle is won when
every enemy of ``defeat`` is down (or out for good) at a turn's end, lost (a wipe) when
every PC is, and timed out at the turn limit.

An attack on one target is one roll of its table (the attack's and the defence's 2D6
together, :attr:`~.fight.Table.dice`); a 全体攻撃 rolls the attack's 2D6 once, then each
target's defence. The state is (turn, phase, index, the turn's order, each character's
:data:`Char`, what is being done, the running totals); its canonical form keeps of the
totals only what the encounter's side missions read.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from functools import cache

from saikoro.balance import Battle, Roll, Rules
from saikoro.dice import Dist
from saikoro.systems._kegare.checks import TWO_D6

from .fight import (
    STATUSES,
    Fighter,
    Prepared,
    after_cut,
    choose,
    cover,
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

__all__ = ["Char", "KegareRules", "State"]

Char = tuple[int, int, str | None, int, int, str, bool]
"""(HP, 穢れ, position, status marks, poison level, who poisoned it, guarded this turn)."""

Totals = tuple[int, int, int, tuple[int, ...], tuple[tuple[str, int], ...]]
"""(damage dealt, damage taken, PCs downed (bits), enemies in the order they fell,
damage per enemy action)."""

State = tuple[int, int, int, tuple[int, ...], tuple[Char, ...], tuple[int, ...], Totals]
"""(turn, phase, index in it, the turn's order, characters, the attack under way, totals).

The attack under way: its target (phase ``AIM``); the skill and the target (``HIT``); the
skill, the next target's place, the attack's 2D6 and the targets (``AREA``)."""

TABLE, ACT, AIM, HIT, AREA, POISON, RECOVER, CURE = range(8)
"""The phases: the random status table, an actor's turn, its target drawn, a single
attack's roll, a 全体攻撃's defence rolls, then the turn's end."""

STATUS_TABLE: Dist[int] = Dist.uniform(range(len(STATUSES)))
"""The random status table (each status alike)."""


@cache
def _uniform(n: int) -> Dist[int]:
    return Dist.uniform(range(n))


@cache
def _chance(p: Fraction) -> Dist[bool]:
    return Dist.from_fractions({True: p, False: 1 - p})


_ATTACK: Dist[int] = Dist(dict(TWO_D6.items()), 36)
"""The attack's 2D6 (the sum) of a 全体攻撃, rolled once for every target."""

_UNUSED = random.Random(0)
"""What :func:`~.fight.choose` gets for a policy that draws nothing (a random target is
this module's roll)."""


def _char(f: Fighter) -> Char:
    return (f.hp, f.kegare, f.position, f.marks, f.poison, f.poisoner, f.guarded)


def _set(chars: tuple[Char, ...], i: int, c: Char) -> tuple[Char, ...]:
    return (*chars[:i], c, *chars[i + 1 :])


def _add(actions: tuple[tuple[str, int], ...], key: str, n: int) -> tuple[tuple[str, int], ...]:
    found = dict(actions)
    found[key] = found.get(key, 0) + n
    return tuple(sorted(found.items()))


class KegareRules(Rules[State]):
    """One encounter's battle (the characters are :class:`~.fight.Fighter` objects, loaded
    from a state's :data:`Char` to ask the shared rules)."""

    def __init__(self, prep: Prepared) -> None:
        self.prep = prep
        self.fighters = [f.copy() for f in (*prep.pcs, *prep.enemies)]
        self.pcs = len(prep.pcs)
        self.suffers = tuple(f.suffers for f in self.fighters)
        self.reads = prep.reads
        self.first = tuple(_char(f) for f in self.fighters)
        self.table = prep.random_status != "none"

    def load(self, i: int, c: Char) -> Fighter:
        f = self.fighters[i]
        f.hp, f.kegare, f.position, f.marks, f.poison, f.poisoner, f.guarded = c
        return f

    def loaded(self, chars: tuple[Char, ...]) -> list[Fighter]:
        return [self.load(i, c) for i, c in enumerate(chars)]

    def up(self, chars: tuple[Char, ...], i: int) -> bool:
        c = chars[i]
        return is_up(c[0], c[1], self.suffers[i])

    def start(self) -> State:
        return (1, TABLE, 0, (), self.first, (), (0, 0, 0, (), ()))

    def canonical(self, state: State) -> Hashable:
        """The totals only as far as the side missions read them."""
        turn, phase, k, acting, chars, pend, (_, taken, downed, fallen, actions) = state
        if "hit_by" not in self.reads:
            chars = tuple((*c[:5], "", c[6]) for c in chars)
        kept = (
            taken if "taken" in self.reads else 0,
            downed if "downed" in self.reads else 0,
            fallen if "defeated" in self.reads else (),
            frozenset(k for k, v in actions if v) if "hit_by" in self.reads else (),
        )
        return (turn, phase, k, acting, chars, pend, kept)

    def step(self, state: State) -> Roll[State] | Battle:
        turn, phase, k, acting, chars, _, totals = state
        prep = self.prep
        n = len(chars)
        if phase == TABLE:
            for i in range(k if self.table else n, n):
                if chars[i][0] <= 0 or not self.suffers[i]:
                    continue
                f = self.load(i, chars[i])
                if table_due(prep, f):
                    c = chars[i]

                    def status(x: int, i: int = i, c: Char = c) -> State:
                        f = self.load(i, c)
                        give(f, STATUSES[x])
                        return (turn, TABLE, i + 1, (), _set(chars, i, _char(f)), (), totals)

                    return Roll(STATUS_TABLE, status)
            fighters = self.loaded(chars)
            acting = tuple(f.index + (0 if f.pc else self.pcs) for f in order(prep, fighters))
            return self.step((turn, ACT, 0, acting, chars, (), totals))
        if phase == ACT:
            for j in range(k, len(acting)):
                i = acting[j]
                if not self.up(chars, i):
                    continue
                pc = i < self.pcs
                foes = [
                    x for x in (range(self.pcs, n) if pc else range(self.pcs)) if self.up(chars, x)
                ]
                if not foes:
                    break
                if pc and prep.pc_policy.close_in:
                    c = chars[i]
                    chars = _set(chars, i, (c[0], c[1], nearer(c[2]), *c[3:]))
                policy = prep.pc_policy if pc else prep.enemy_policy
                if policy.target == "random":
                    return Roll(_uniform(len(foes)), self._aimed(state, j, chars, tuple(foes)))
                fighters = self.loaded(chars)
                chosen = choose(policy, [fighters[x] for x in foes], _UNUSED)
                target = next(x for x in foes if fighters[x] is chosen)
                return self.step((turn, AIM, j, acting, chars, (target,), totals))
            return self.step((turn, POISON, 0, acting, chars, (), totals))
        if phase == AIM:
            return self._aim(state)
        if phase in (HIT, AREA):
            return self._hit(state)
        if phase == POISON:
            for i in range(k, n):
                if not chars[i][4]:
                    continue
                f = self.load(i, chars[i])
                if poison_due(f):
                    c, cut, pc = chars[i], f.cut(), i < self.pcs

                    def tick(
                        x: int, i: int = i, c: Char = c, cut: int = cut, pc: bool = pc
                    ) -> State:
                        dmg = after_cut(x, cut, prep.min_damage)
                        hp, kegare = hurt(c[0], c[1], self.suffers[i], dmg)
                        dealt, taken, downed, fallen, actions = totals
                        if pc:
                            taken += dmg
                            if c[5]:
                                actions = _add(actions, c[5], dmg)
                        else:
                            dealt += dmg
                        after = (dealt, taken, downed, fallen, actions)
                        return (
                            turn,
                            POISON,
                            i + 1,
                            acting,
                            _set(chars, i, (hp, kegare, *c[2:])),
                            (),
                            after,
                        )

                    return Roll(poison_ticks(f.poison, prep.min_damage), tick)
            return self.step((turn, RECOVER, 0, acting, chars, (), totals))
        if phase == RECOVER:
            dealt, taken, downed, fallen, actions = totals
            for i in range(k, n):
                if not self.up(chars, i):
                    if i < self.pcs:
                        downed |= 1 << i
                    elif i - self.pcs not in fallen:  # the order they first fell in
                        fallen = (*fallen, i - self.pcs)
                totals = (dealt, taken, downed, fallen, actions)
                if chars[i][0] > 0:
                    continue
                f = self.load(i, chars[i])
                if recovery_due(f):
                    c, after = chars[i], totals

                    def healed(x: int, i: int = i, c: Char = c, after: Totals = after) -> State:
                        return (
                            turn,
                            RECOVER,
                            i + 1,
                            acting,
                            _set(chars, i, (c[0] + x, *c[1:])),
                            (),
                            after,
                        )

                    return Roll(recovery_dice(f.has("curse"), f.felt), healed)
            return self.step((turn, CURE, 0, acting, chars, (), totals))
        for i in range(k, n):  # CURE
            if not chars[i][3]:
                continue
            f = self.load(i, chars[i])
            if cure_due(prep, f):
                c = chars[i]

                def cured(ok: bool, i: int = i, c: Char = c) -> State:
                    if ok:
                        marks, level = cured_marks(c[3], c[4])
                        c = (c[0], c[1], c[2], marks, level, c[5] if level else "", c[6])
                    return (turn, CURE, i + 1, acting, _set(chars, i, c), (), totals)

                return Roll(_chance(cure_chance(prep, f)), cured)
        return self._turn_end(turn, chars, totals)

    # -- an attack ----------------------------------------------------------------------

    @staticmethod
    def _aimed(
        state: State, j: int, chars: tuple[Char, ...], foes: tuple[int, ...]
    ) -> Callable[[int], State]:
        """The states after the actor at ``j`` draws its target among ``foes``."""
        turn, _, _, acting, _, _, totals = state
        return lambda x: (turn, AIM, j, acting, chars, (foes[x],), totals)

    def _aim(self, state: State) -> Roll[State] | Battle:
        """The actor ``acting[k]`` has its target (``pend``): cover, skill, then the roll."""
        turn, _, k, acting, chars, pend, totals = state
        prep = self.prep
        i = acting[k]
        pc = i < self.pcs
        fighters = self.loaded(chars)
        a = fighters[i]
        (aimed,) = pend
        if pc:
            foes = [f for f in fighters[self.pcs :] if f.up]
            target = cover(prep, fighters[aimed], foes)
            move = a.moves[0]
            targets: Sequence[Fighter] = (target,)
        else:
            foes = [f for f in fighters[: self.pcs] if f.up]
            chosen = pick(prep, a, fighters[aimed], foes, turn)
            if chosen is None:  # no attack skill: it passes
                return self.step((turn, ACT, k + 1, acting, chars, (), totals))
            move = chosen
            targets = foes if move.area else (fighters[aimed],)
        chars = tuple(_char(f) for f in fighters)  # a cover spent
        m = a.moves.index(move)
        who = tuple(next(x for x, f in enumerate(fighters) if f is t) for t in targets)
        if len(who) == 1:
            return self.step((turn, HIT, k, acting, chars, (m, who[0]), totals))

        def rolled(roll: int) -> State:
            return (turn, AREA, k, acting, chars, (m, 0, roll, *who), totals)

        return Roll(_ATTACK, rolled)

    def _hit(self, state: State) -> Roll[State] | Battle:
        turn, phase, k, acting, chars, pend, totals = state
        prep = self.prep
        i = acting[k]
        a = self.load(i, chars[i])
        move = a.moves[pend[0]]
        if phase == AREA and pend[1] == len(pend) - 3:  # every target met
            return self.step((turn, ACT, k + 1, acting, chars, (), totals))
        x = pend[1] if phase == HIT else pend[3 + pend[1]]
        d = self.load(x, chars[x])
        guard = guard_for(prep, d, spend=True)
        chars = _set(chars, x, _char(d))
        tab = table(prep, a, move, d, guard=guard, cut=d.cut())
        pc = i < self.pcs

        def land(cell: tuple[int, bool]) -> State:
            damage, lands = cell
            c = chars[x]
            hp, kegare = hurt(c[0], c[1], self.suffers[x], damage)
            marks, level, poisoner = c[3], c[4], c[5]
            if lands:
                marks, level = marked(prep, move, hp, marks, level, immune=self.fighters[x].immune)
                if level != c[4]:
                    poisoner = move.action
            after = _set(chars, x, (hp, kegare, c[2], marks, level, poisoner, c[6]))
            dealt, taken, downed, fallen, actions = totals
            if damage > 0:
                if pc:
                    dealt += damage
                else:
                    taken += damage
                    actions = _add(actions, move.action, damage)
            now = (dealt, taken, downed, fallen, actions)
            if phase == HIT:
                return (turn, ACT, k + 1, acting, after, (), now)
            return (turn, AREA, k, acting, after, (pend[0], pend[1] + 1, *pend[2:]), now)

        if phase == HIT:
            return Roll(tab.dice, land)
        return Roll(tab.defence(pend[2]), land)

    # -- the turn's end -----------------------------------------------------------------

    def _turn_end(self, turn: int, chars: tuple[Char, ...], totals: Totals) -> Roll[State] | Battle:
        """The 穢れ rise, then the battle's end or the next turn."""
        fighters = self.loaded(chars)
        chars = tuple(
            (c[0], risen(c[1], f.blessed), *c[2:]) for c, f in zip(chars, fighters, strict=True)
        )
        enemies = [
            self.pcs + j for j, e in enumerate(self.prep.enemies) if e.key in self.prep.defeat
        ]
        end = ""
        if all(not self.up(chars, i) for i in enemies):
            end = "win"
        elif not any(self.up(chars, i) for i in range(self.pcs)):
            end = "wipe"
        elif turn == self.prep.turns:
            end = "timeout"
        if not end:
            fresh = tuple((*c[:6], False) for c in chars)
            return self.step((turn + 1, TABLE, 0, (), fresh, (), totals))
        dealt, taken, downed, fallen, actions = totals
        return Battle(
            win=end == "win",
            end=end,
            rounds=turn,
            downed=tuple(bool(downed >> i & 1) for i in range(self.pcs)),
            dealt=dealt,
            taken=taken,
            defeated=fallen,
            facts={"corruption": max((c[1] for c in chars[: self.pcs]), default=0)},
            actions=actions,
        )
