"""GETB: a battle as a step machine (:class:`Prepared` is the :class:`~saikoro.balance.Rules`).

A state (:data:`State`) is the board when dice are needed: an enemy's random target (each
standing PC alike) or an attack's final damage. From each outcome the rules play every
deterministic part on (the hit, round starts, the turn order, movement, the choice and
payment of an attack, the responses, link aid) to the next roll or the battle's end, each
rule by the engine's functions (:mod:`saikoro.systems._getb.states`, ``damage``, ``board``).
The tactics (who is targeted, where to move, when to guard) are the methods named after
them, documented in the guide (plugin/saikoro/site/_guide/balance.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from operator import itemgetter
from typing import ClassVar

from saikoro.balance import Battle, Note, Policy, Roll, Rules, memo
from saikoro.dice import Dist
from saikoro.systems._getb.damage import CheckSpec, op_recovery
from saikoro.systems._getb.states import (
    COVER_COST,
    GUARD_COST,
    LINK_AID_COST,
    Cost,
    ap_after,
    can_guard,
    can_pay,
    full_move_cost,
    gain_op,
    link_aid_hp,
    recovered,
    waited,
)

from .units import Unit, approach, cells, distance, final_damage, neighbours, walk

__all__ = ["Pending", "Prepared", "State", "Totals"]

Totals = tuple[int, tuple[int, ...], int, int, int, tuple[int, ...]]
"""What a battle counts: the PCs ever downed (bits), the enemies in the order they fell,
damage taken and dealt, link aids, and the damage of each enemy attack (in the order of
:attr:`Prepared.actions`)."""

Ints = tuple[int, ...]
Pending = tuple[int, int, int, bool]
"""The roll awaited: unit ``i``'s move ``m`` on ``d`` (guarding or not), or with ``m``
-1 unit ``i``'s random target; ``()`` at the end."""
State = tuple[
    int, str, Pending | tuple[()], Ints, Ints, Ints, Ints, tuple[str, ...], tuple[bool, ...], Totals
]
"""(round, the end (``""``: not yet), the :data:`Pending` roll, then per character HP (0:
down), AP, ST, OP, cell and whether it holds its gun, and the :data:`Totals`). A character
that can never stand again keeps 0 ST, 0 OP and no cell."""

Plan = tuple[str, Cost, int]
"""A turn: where to stand, what moving there costs, and the attack (-1: none, then
〈待機〉; -2: 〈行動放棄〉)."""


@cache
def _uniform(n: int) -> Dist[int]:
    return Dist.uniform(range(n))


class _Board:
    """A state being played on: lists the rules change in place."""

    __slots__ = ("ap", "cell", "gun", "hp", "op", "round", "st", "tot")

    def __init__(self, s: State) -> None:
        self.round, self.tot = s[0], s[9]
        self.hp, self.ap, self.st = list(s[3]), list(s[4]), list(s[5])
        self.op, self.cell, self.gun = list(s[6]), list(s[7]), list(s[8])

    def state(self, pending: Pending | tuple[()] = (), end: str = "") -> State:
        hp, ap, st, op = tuple(self.hp), tuple(self.ap), tuple(self.st), tuple(self.op)
        cell, gun = tuple(self.cell), tuple(self.gun)
        return (self.round, end, pending, hp, ap, st, op, cell, gun, self.tot)


@dataclass(frozen=True)
class Prepared(Rules[State]):
    """Units, the rulings in force, the tactics; one encounter's battle.

    ``specs[(i, m, d)]``: the damage check of unit ``i``'s move ``m`` on unit ``d`` (weak
    elements counted); ``strength``: how the attacker ranks it, the rank of its expected
    achievement (higher is stronger, equal for equal expectations), then melee;
    ``danger[k]``: unit ``k``'s strongest attack (the ``most_dangerous`` target);
    ``actions``: the enemy attacks (unit, move), each with its place in :data:`Totals`;
    ``op_matters[k]``: whether unit ``k`` has an attack that costs OP (else its OP never
    matters); ``aid``: whether a downed PC may stand again (a 〈リンクエイド〉);
    ``taken_cap``: one more than the most damage taken a side mission tells apart (0: none
    reads it). ``merged``: the rules the exact solver plays, where an attack's damages
    that leave the same state are one outcome (the sampled means count every damage).
    """

    work: ClassVar[int] = 4
    """An outcome plays on a turn or more (moves, responses): about four simple steps."""
    repeats: ClassVar[bool] = False
    """The states carry what the battle counts (damage dealt, taken...)."""

    units: tuple[Unit, ...]
    pcs: tuple[int, ...]
    enemies: tuple[int, ...]
    defeat: tuple[int, ...]
    rounds: int
    policies: tuple[Policy, ...]
    """The policy of each character's side."""
    final: tuple[str, bool, bool]
    """The final damage's rulings: ties, whether damage and guard fumbles fail."""
    op_rounding: str
    shortfall: bool
    link_aid: str
    guard_weapon: str
    immediate: bool
    tie_keys: tuple[tuple[int, int], ...]
    specs: dict[tuple[int, int, int], CheckSpec]
    strength: dict[tuple[int, int, int], tuple[int, bool]]
    danger: tuple[Fraction, ...]
    actions: dict[tuple[int, int], int]
    op_matters: tuple[bool, ...]
    aid: bool
    reads: frozenset[str] = frozenset()
    taken_cap: int = 0
    notes: tuple[Note, ...] = ()
    """What the simulation leaves out of this encounter (the simulator's notes)."""
    merged: bool = False

    # -- the step machine ---------------------------------------------------------------

    def start(self) -> State:
        return self._play(_Board(self.before()))

    def before(self) -> State:
        """The board before the first round (ruling battle_start: HP and OP at their
        maxima; guard_weapon: the melee weapon held)."""
        u, zero = self.units, (0,) * len(self.units)
        first: Totals = (0, (), 0, 0, 0, (0,) * len(self.actions))
        hp, op, cell = (x.max_hp for x in u), (x.max_op for x in u), (x.start for x in u)
        return (0, "", (), tuple(hp), zero, zero, tuple(op), tuple(cell), (False,) * len(u), first)

    def step(self, state: State) -> Roll[State] | Battle:
        if state[1]:
            return self._battle(state[0], state[9], state[1])
        i, m, d, guarded = state[2]  # type: ignore[misc]
        if m >= 0:
            dice = self._damage(i, m, d, guarded)
            if self.merged:  # one outcome for each state the damage can leave
                room = self.taken_cap - min(state[9][2], self.taken_cap) if self.units[d].pc else 0
                dice = self._merged(i, m, d, guarded, state[3][d], state[6][i], room)
            return Roll(dice, lambda x: self._hit(state, i, m, d, x))
        foes = [k for k in (self.enemies if self.units[i].pc else self.pcs) if state[3][k] > 0]
        return Roll(_uniform(len(foes)), lambda k: self._play(_Board(state), i, foes[k]))

    def _play(self, b: _Board, i: int = -1, t: int = -1) -> State:
        """Play on to the next roll (first ``i``'s turn on ``t``, when given): its state."""
        if i >= 0:
            pending = self._turn(b, i, t)
            if pending:
                return b.state(pending)
        while True:
            i = self._next_actor(b)
            if i < 0:
                if end := self._round_over(b):
                    return b.state((), end)
                continue
            pc = self.units[i].pc
            if pc and self.aid and self._link_aid(b, i):
                continue
            targets = [k for k in (self.enemies if pc else self.pcs) if b.hp[k] > 0]
            if not targets:  # ruling battle_end round_end: the other side is down
                b.ap[i] = 0
                continue
            how = self.policies[i].target
            if how == "random" and len(targets) > 1:
                return b.state((i, -1, -1, False))
            pending = self._turn(b, i, self._pick(b, how, targets))
            if pending:
                return b.state(pending)

    def canonical(self, state: State) -> tuple[object, ...]:
        """The totals only as far as the side missions read them (damage taken up to
        :attr:`taken_cap`); at the end, of the board only the round, if they read it."""
        reads = self.reads
        board = (state[1], state[0] if "rounds" in reads else 0) if state[1] else state[:9]
        if not (reads & {"downed", "defeated", "taken", "hit_by"}):
            return board
        down, fallen, taken, _, _, actions = state[9]
        return (
            *board,
            down if "downed" in reads else 0,
            fallen if "defeated" in reads else (),
            min(taken, self.taken_cap),
            tuple(v > 0 for v in actions) if "hit_by" in reads else (),
        )

    def solvable(self) -> bool:
        """Whether the exact solver's figures are exact: every attack chain too long to
        follow (:func:`~.units.final_damage`) deals at least the defender's maximum HP, the
        melee attacker's missing OP (when its OP matters) and :attr:`taken_cap`."""
        for (i, m, d), spec in self.specs.items():
            foe, unit = self.units[d], self.units[i]
            hp = max(foe.max_hp, self.taken_cap if foe.pc else 0)
            op = unit.max_op if unit.moves[m].melee and self.op_matters[i] else 0
            for g in (None, foe.guard) if foe.guard and self.policies[d].guard else (None,):
                floor = final_damage(spec, g, *self.final)[1]
                if floor is not None and (floor < hp or self._gained(floor) < op):
                    return False
        return True

    # -- rounds, ends and hits ----------------------------------------------------------

    def _ended(self, hp: list[int]) -> str:
        if max((hp[k] for k in self.defeat), default=0) <= 0:
            return "win"
        return "wipe" if max((hp[k] for k in self.pcs), default=0) <= 0 else ""

    def _round_over(self, b: _Board) -> str:
        """Everyone is at 0 AP: end the round (ruling battle_end) or start the next one."""
        end = self._ended(b.hp) if b.round and not self.immediate else ""
        if end or b.round >= self.rounds:
            return end or "timeout"
        b.round += 1
        for k, u in enumerate(self.units):
            if b.hp[k] > 0:  # ruling downed: a downed character recovers nothing
                b.ap[k] = recovered(b.ap[k], u.max_ap)
                b.st[k] = recovered(b.st[k], u.max_st)
        return ""

    def _battle(self, rounds: int, tot: Totals, end: str) -> Battle:
        down, fallen, taken, dealt, aids, damage = tot
        acts = tuple(
            (f"{self.units[k].key}:{self.units[k].moves[m].name}", v)
            for (k, m), v in zip(self.actions, damage, strict=True)
            if v
        )
        return Battle(
            win=end == "win",
            end=end,
            rounds=rounds,
            downed=tuple(bool(down >> k & 1) for k in self.pcs),
            taken=taken,
            defeated=fallen,
            dealt=dealt,
            actions=acts,
            sums=(("link_aid", aids),) if aids else (),
        )

    def _gained(self, damage: int) -> int:
        return op_recovery(damage, rounding=self.op_rounding)

    @memo
    def _damage(self, i: int, m: int, d: int, guarded: bool) -> Dist[int]:
        """The final damage of ``i``'s move ``m`` on ``d``, guarded or not."""
        guard = self.units[d].guard if guarded else None
        return final_damage(self.specs[(i, m, d)], guard, *self.final)[0]

    @memo
    def _merged(  # noqa: PLR0917 - the memo's key
        self, i: int, m: int, d: int, g: bool, hp: int, op: int, room: int
    ) -> Dist[int]:
        """The final damage in :attr:`merged` rules: one outcome for each state it can leave
        (the defender's HP of ``hp``, the attacker's OP of ``op``, the damage taken as read
        up to ``room``), the least damage that leaves it."""
        unit = self.units[i]
        gains = unit.moves[m].melee and self.op_matters[i]
        least: dict[tuple[int, int, int], int] = {}  # each state left: its least damage

        def left(dmg: int) -> int:  # (damages come in ascending order)
            gained = gain_op(op, self._gained(dmg), unit.max_op) if gains else op
            return least.setdefault((min(dmg, hp), gained, min(dmg, room)), dmg)

        return self._damage(i, m, d, g).map(left)

    def _hit(self, s: State, i: int, m: int, d: int, damage: int) -> State:
        """The attack's final damage taken: HP, OP recovery, 〔戦闘不能〕 (ruling downed);
        then play on."""
        b = _Board(s)
        if damage <= 0:
            return self._play(b)
        down, fallen, taken, dealt, aids, acts = b.tot
        unit = self.units[i]
        if unit.pc:
            dealt += damage
        else:
            taken += damage
            n = self.actions[(i, m)]
            acts = (*acts[:n], acts[n] + damage, *acts[n + 1 :])
        if unit.moves[m].melee and self.op_matters[i]:
            b.op[i] = gain_op(b.op[i], self._gained(damage), unit.max_op)
        b.hp[d] -= damage
        if b.hp[d] <= 0:
            b.hp[d] = b.ap[d] = 0
            if self.units[d].pc:
                down |= 1 << d
            else:
                fallen = (*fallen, self.units[d].index)
            if not (self.units[d].pc and self.aid):  # it never stands again
                b.st[d], b.op[d], b.cell[d], b.gun[d] = 0, 0, "", False
        b.tot = (down, fallen, taken, dealt, aids, acts)
        end = self._ended(b.hp) if self.immediate and not b.hp[d] else ""  # ruling battle_end
        return b.state((), end) if end else self._play(b)

    # -- a turn -------------------------------------------------------------------------

    def _next_actor(self, b: _Board) -> int:
        """Whoever has the most AP (ties: ruling ap_tie), or -1 when everyone is at 0."""
        hp, ties = b.hp, self.tie_keys
        best, key = -1, (1, (0, 0), 0)  # after every (-AP, tie, k) of a character with AP
        for k, ap in enumerate(b.ap):
            if ap > 0 and hp[k] > 0 and (mine := (-ap, ties[k], k)) < key:
                best, key = k, mine
        return best

    def _pick(self, b: _Board, how: str, targets: list[int]) -> int:
        """Tactics: the lowest HP, or the strongest attacker (ties: the first listed)."""
        if how == "most_dangerous":
            return max(targets, key=lambda k: (self.danger[k], -k))
        return min(targets, key=lambda k: (b.hp[k], k))

    def _turn(self, b: _Board, i: int, t: int) -> Pending | None:
        """Move, 〈変形〉, declare and pay the attack, the responses: the roll awaited
        (``None``: no attack, the turn is over)."""
        cell, run, m = self._plan(i, t, b.cell[i], b.cell[t], b.st[i], b.op[i], b.ap[i])
        b.cell[i] = cell
        if m < 0:
            b.ap[i] = waited(b.ap[i]) if m == -1 else 0
            return None
        unit = self.units[i]
        cost = unit.moves[m].cost
        b.st[i] -= run.st + cost.st
        b.op[i] -= cost.op
        b.ap[i] = ap_after(b.ap[i] - run.ap, cost.ap)
        if unit.pc:  # 〈変形〉 in the side action when the other form is needed
            b.gun[i] = unit.moves[m].gun
        d, guarded = self._response(b, t)
        if guarded:
            b.st[d] -= (GUARD_COST if d == t else COVER_COST).st
        return i, m, d, guarded

    def _pays(self, st: int, op: int, ap: int, cost: Cost) -> bool:
        return can_pay(st, op, ap, cost, allow_ap_shortfall=self.shortfall)

    @memo
    def _plan(  # noqa: PLR0917 - the memo's key
        self, i: int, t: int, here: str, goal: str, st: int, op: int, ap: int
    ) -> Plan:
        """Tactics: the turn of ``i`` (on ``here``, with ``st``, ``op`` and ``ap``) on ``t``
        (on ``goal``). The strongest attack on ``t`` from where it stands or one 〈戦闘移動〉
        away (free; staying wins a tie, then the nearer cell, then the first listed); failing
        that, the shortest 〈全力移動〉 that brings an attack in range and leaves its cost.
        With no attack this turn: 〈行動放棄〉 when it can pay none this round; otherwise a
        ``close_in`` character makes a 〈戦闘移動〉 towards where its affordable attacks reach
        ``t``, then 〈待機〉 to act again later."""
        unit, free, rank = self.units[i], Cost(), self.strength

        def best(cell: str, run: Cost) -> int:  # the strongest attack from cell after run
            left, time = st - run.st, ap - run.ap
            if left < 0 or time < 0:
                return -1
            dist = distance(cell, goal)
            fits = [
                m
                for m, move in enumerate(unit.moves)
                if move.reach[0] <= dist <= move.reach[1] and self._pays(left, op, time, move.cost)
            ]
            return max(fits, key=lambda m: rank[(i, m, t)], default=-1)

        pays = [m for m, move in enumerate(unit.moves) if self._pays(st, op, ap, move.cost)]
        if not pays:
            return here, free, -2
        m = best(here, free)
        if m >= 0 and rank[(i, m, t)] == max(rank[(i, k, t)] for k in pays):
            return here, free, m  # nothing stronger one cell away
        close_in = self.policies[i].close_in
        near = [
            ((*rank[(i, m, t)], c == here, -distance(c, goal)), (c, free, m))
            for c in ((here, *neighbours(here, unit.pc)) if close_in else (here,))
            if (m := best(c, free)) >= 0
        ]
        if near or not close_in:
            return max(near, key=itemgetter(0))[1] if near else (here, free, -1)
        far = []
        for x in cells(unit.pc):
            steps = walk(here, x, unit.pc)
            if steps > 1 and (m := best(x, run := full_move_cost(steps))) >= 0:
                far.append(((steps, -rank[(i, m, t)][0], x), (x, run, m)))
        if far:
            return min(far, key=itemgetter(0))[1]
        reaches = tuple(unit.moves[m].reach for m in pays)

        def towards(c: str) -> tuple[int, int]:
            return approach(c, goal, reaches, unit.pc), distance(c, goal)

        step = min(neighbours(here, unit.pc), key=towards)
        return (step if towards(step)[0] < towards(here)[0] else here), free, -1

    @memo
    def _guards(self, k: int, st: int, op: int, ap: int, gun: bool) -> bool:
        """Whether ``k`` guards (or covers) with ``st``, ``op`` and ``ap`` left and its gun
        held or not: it has a shield, may guard (ruling guard_weapon) and keeps the ST of an
        attack it could still make this round (tactics; true when it has none left to make
        anyway)."""
        moves = self.units[k].moves
        now, after = (
            any(self._pays(s, op, ap, m.cost) for m in moves) for s in (st, st - GUARD_COST.st)
        )
        return (
            self.units[k].guard is not None
            and can_guard(st, not gun, weapon_rule=self.guard_weapon)
            and (not now or after)
        )

    def _response(self, b: _Board, t: int) -> tuple[int, bool]:
        """The response step: the target guards, or an ally in its cell covers it (ruling
        covering; the ally with the most guard dice, then the first listed); who takes the
        attack and whether it guards."""
        if not self.policies[t].guard:
            return t, False
        if self._guards(t, b.st[t], b.op[t], b.ap[t], b.gun[t]):
            return t, True
        side, cell = self.units[t].pc, b.cell[t]
        best, value = -1, (0, 0, 0)
        for k, u in enumerate(self.units):
            if k == t or u.pc != side or b.hp[k] <= 0 or b.cell[k] != cell:
                continue
            if self._guards(k, b.st[k], b.op[k], b.ap[k], b.gun[k]):
                mine = (u.guard.dice, u.guard.modifier, -k) if u.guard else (0, 0, -k)
                if best < 0 or mine > value:
                    best, value = k, mine
        return (best, True) if best >= 0 else (t, False)

    def _link_aid(self, b: _Board, i: int) -> bool:
        """Tactics: a PC whose side guards first rescues the nearest downed ally it can reach
        and pay for this turn (〈戦闘移動〉 of one cell or 〈全力移動〉, then 〈リンクエイド〉)."""
        down = [k for k in self.pcs if b.hp[k] <= 0]
        if not down:
            return False
        steps, k = min((walk(b.cell[i], b.cell[k]), k) for k in down)
        run = full_move_cost(steps) if steps > 1 else Cost()
        st, ap = b.st[i] - run.st, b.ap[i] - run.ap
        if st < 0 or ap < 0 or (self.link_aid == "transfer" and b.hp[i] < 2):
            return False
        if not self._pays(st, b.op[i], ap, LINK_AID_COST):
            return False
        b.cell[i] = b.cell[k]
        b.st[i] = st - LINK_AID_COST.st
        b.ap[i] = ap_after(ap, LINK_AID_COST.ap)
        b.hp[k] = link_aid_hp(self.link_aid, b.hp[i], self.units[k].max_hp)
        if self.link_aid == "transfer":
            b.hp[i] -= b.hp[k]
        b.tot = (*b.tot[:4], b.tot[4] + 1, b.tot[5])
        return True
