"""GETB: a battle as a state that plays itself on to its next dice roll.

:func:`advance` plays every deterministic part of the battle (round starts, the turn
order, movement, the choice and payment of an attack, the responses, link aid) until a
draw is needed: an enemy picking a target at random (``CHOICE``) or an attack's checks
(``HIT``). :func:`choose` and :func:`hit` apply the draw's outcome. The sampled battle
(:func:`battle`) draws each outcome; the exact solver (:mod:`.exact`) follows every one.
So both play the very same rules, and each rule is the engine's:

* round start: :func:`~saikoro.systems._getb.states.recovered` (AP and ST);
* turn order: the most AP, ties by :func:`~saikoro.systems._getb.states.tie_key`;
* costs: :func:`~saikoro.systems._getb.states.can_pay`,
  :func:`~saikoro.systems._getb.states.ap_after`,
  :func:`~saikoro.systems._getb.states.full_move_cost`,
  :data:`~saikoro.systems._getb.states.LINK_AID_COST`, 〈待機〉
  :func:`~saikoro.systems._getb.states.waited`;
* guard and cover: :func:`~saikoro.systems._getb.states.can_guard` (ruling ``guard_weapon``);
* the attack: the damage and guard checks drawn from the engine's weights and settled by
  :func:`~saikoro.systems._getb.damage.resolve` (:func:`exchange`), as the ``GF``
  command rolls them; OP by :func:`~saikoro.systems._getb.damage.op_recovery` and
  :func:`~saikoro.systems._getb.states.gain_op`; link aid by
  :func:`~saikoro.systems._getb.states.link_aid_hp`;
* the map: :class:`~saikoro.systems._getb.board.DialClock` distances.

The tactics (who is targeted, where to move, when to guard) are in the functions named
after them and documented in the guide (plugin/saikoro/site/_guide/balance.md).
"""

from __future__ import annotations

import random

from saikoro.balance import Tally
from saikoro.dice import InternalError
from saikoro.systems._getb.damage import op_recovery, resolve
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

from .units import Prepared, approach, cells, distance, neighbours, walk

__all__ = [
    "CHOICE",
    "HIT",
    "NEXT",
    "TARGETED",
    "State",
    "advance",
    "battle",
    "choose",
    "exchange",
    "foes",
    "hit",
    "start",
]

NEXT, CHOICE, TARGETED, HIT = range(4)
"""Where a state stands: before the next turn; a random target to draw; a target picked;
an attack declared, its checks to draw."""


class State:
    """Everything that changes during a battle (plain lists: the hot path).

    ``hp``, ``ap``, ``st``, ``op``, ``cell``, ``gun`` (the PC holds its gun) per unit;
    ``stage`` and the turn being played (``actor``, ``target``, ``defender`` — the target
    or the ally covering it —, ``move``, ``guarded``); ``end``: how the battle ended (a key
    of the simulator's ends). The rest is counted for the tally.
    """

    __slots__ = (
        "actor",
        "ap",
        "cell",
        "dealt",
        "defender",
        "downed",
        "end",
        "fallen",
        "guarded",
        "gun",
        "hp",
        "move",
        "op",
        "rescues",
        "round",
        "st",
        "stage",
        "taken",
        "target",
    )

    def __init__(self, prep: Prepared) -> None:
        units = prep.units
        self.hp = [u.max_hp for u in units]  # ruling battle_start: HP and OP at their maxima
        self.ap = [0] * len(units)
        self.st = [0] * len(units)
        self.op = [u.max_op for u in units]
        self.cell = [u.start for u in units]
        self.gun = [False] * len(units)  # ruling guard_weapon: the melee weapon to start with
        self.downed = [False] * len(units)
        self.fallen: list[int] = []
        self.round = 0
        self.stage = NEXT
        self.actor = self.target = self.defender = self.move = -1
        self.guarded = False
        self.end: str | None = None
        self.dealt = self.taken = self.rescues = 0

    def copy(self) -> State:
        """An independent copy (the exact solver branches on it)."""
        new = State.__new__(State)
        new.hp, new.ap, new.st, new.op = self.hp[:], self.ap[:], self.st[:], self.op[:]
        new.cell, new.gun, new.downed = self.cell[:], self.gun[:], self.downed[:]
        new.fallen = self.fallen[:]
        new.round, new.stage, new.end = self.round, self.stage, self.end
        new.actor, new.target, new.defender = self.actor, self.target, self.defender
        new.move, new.guarded = self.move, self.guarded
        new.dealt, new.taken, new.rescues = self.dealt, self.taken, self.rescues
        return new

    def key(self) -> tuple[object, ...]:
        """What the rest of the battle depends on (HP 0 or less alike)."""
        return (
            self.round,
            self.stage,
            self.actor,
            self.target,
            self.defender,
            self.move,
            self.guarded,
            tuple(h if h > 0 else 0 for h in self.hp),
            tuple(self.ap),
            tuple(self.st),
            tuple(self.op),
            tuple(self.cell),
            tuple(self.gun),
        )


def start(prep: Prepared) -> State:
    """The battle before its first round."""
    return State(prep)


def foes(prep: Prepared, s: State, i: int) -> list[int]:
    """The standing characters unit ``i`` may attack (the other side), in order."""
    side = prep.units[i].pc
    return [k for k, u in enumerate(prep.units) if u.pc != side and s.hp[k] > 0]


def _won(prep: Prepared, s: State) -> bool:
    hp = s.hp
    return all(hp[k] <= 0 for k in prep.defeat)


def _wiped(prep: Prepared, s: State) -> bool:
    hp = s.hp
    return all(hp[k] <= 0 for k in prep.pcs)


def _round_over(prep: Prepared, s: State) -> None:
    """Everyone is at 0 AP: end the round (ruling battle_end) and start the next one."""
    if s.round and not prep.immediate:
        if _won(prep, s):
            s.end = "win"
            return
        if _wiped(prep, s):
            s.end = "wipe"
            return
    if s.round >= prep.rounds:
        s.end = "timeout"
        return
    s.round += 1
    units = prep.units
    for k, u in enumerate(units):
        if s.hp[k] > 0:  # ruling downed: a downed character recovers nothing
            s.ap[k] = recovered(s.ap[k], u.max_ap)
            s.st[k] = recovered(s.st[k], u.max_st)


def _next_actor(prep: Prepared, s: State) -> int:
    """Whoever has the most AP (ties: ruling ap_tie), or -1 when everyone is at 0."""
    best = -1
    key: tuple[int, tuple[int, int], int] | None = None
    hp, ap, ties = s.hp, s.ap, prep.tie_keys
    for k in range(len(ap)):
        if ap[k] > 0 and hp[k] > 0:
            mine = (-ap[k], ties[k], k)
            if key is None or mine < key:
                best, key = k, mine
    return best


def advance(prep: Prepared, s: State) -> int | None:
    """Play on to the next draw: ``CHOICE`` or ``HIT`` (``None``: the battle is over)."""
    while s.end is None:
        if s.stage == TARGETED:
            if _declare(prep, s):
                return HIT
            s.stage = NEXT
            continue
        i = _next_actor(prep, s)
        if i < 0:
            _round_over(prep, s)
            continue
        s.actor = i
        if prep.units[i].pc and _link_aid(prep, s, i):
            continue
        targets = foes(prep, s, i)
        if not targets:  # ruling battle_end round_end: the other side is down
            s.ap[i] = 0
            continue
        policy = prep.policy(i)
        if policy.target == "random" and len(targets) > 1:
            s.stage = CHOICE
            return CHOICE
        s.target = _pick(prep, s, policy.target, targets)
        s.stage = TARGETED
    return None


def choose(prep: Prepared, s: State, k: int) -> None:
    """The random target drawn: the ``k``-th of :func:`foes`."""
    s.target = foes(prep, s, s.actor)[k]
    s.stage = TARGETED


def _pick(prep: Prepared, s: State, how: str, targets: list[int]) -> int:
    """Tactics: the lowest HP, or the strongest attacker (ties: the first listed)."""
    if how == "most_dangerous":
        return max(targets, key=lambda k: (prep.danger[k], -k))
    return min(targets, key=lambda k: (s.hp[k], k))


# -- a turn -----------------------------------------------------------------------------


def _best_move(prep: Prepared, s: State, i: int, t: int, cell: str, *, run: Cost) -> int:
    """Unit ``i``'s strongest attack on ``t`` from ``cell`` it can pay after ``run`` (-1: none)."""
    st, ap = s.st[i] - run.st, s.ap[i] - run.ap
    if st < 0 or ap < 0:
        return -1
    dist = distance(cell, s.cell[t])
    best, value = -1, (-1, False)
    for m, move in enumerate(prep.units[i].moves):
        lo, hi = move.reach
        if lo <= dist <= hi and can_pay(
            st, s.op[i], ap, move.cost, allow_ap_shortfall=prep.shortfall
        ):
            mine = (prep.strength[(i, m, t)], move.melee)
            if mine > value:
                best, value = m, mine
    return best


def _plan(prep: Prepared, s: State, i: int, t: int) -> tuple[str, Cost, int] | None:
    """Tactics: where to stand and which attack to make on ``t`` this turn.

    The strongest attack from where it stands or one 〈戦闘移動〉 away (free; staying wins a
    tie, then the nearer cell); failing that, the shortest 〈全力移動〉 that brings an
    attack in range and leaves its cost. ``None``: no attack this turn. The choice depends
    only on the two cells and the attacker's ST, OP and AP, so it is made once per battle
    preparation.
    """
    key = (i, t, s.cell[i], s.cell[t], s.st[i], s.op[i], s.ap[i])
    if key in prep.plans:
        return prep.plans[key]
    plan = prep.plans[key] = _choose_plan(prep, s, i, t)
    return plan


def _choose_plan(prep: Prepared, s: State, i: int, t: int) -> tuple[str, Cost, int] | None:
    unit = prep.units[i]
    st, op, ap = s.st[i], s.op[i], s.ap[i]
    top = (-1, False)  # the strongest attack it can pay at all, wherever it stands
    for m, move in enumerate(unit.moves):
        if can_pay(st, op, ap, move.cost, allow_ap_shortfall=prep.shortfall):
            top = max(top, (prep.strength[(i, m, t)], move.melee))
    if top[0] < 0:
        return None
    here = s.cell[i]
    free = Cost()
    m = _best_move(prep, s, i, t, here, run=free)
    choice: tuple[int, bool, int, int] | None = None
    plan: tuple[str, Cost, int] | None = None
    if m >= 0:
        choice = (prep.strength[(i, m, t)], unit.moves[m].melee, 1, 0)
        plan = (here, free, m)
        if choice[:2] == top:  # nothing stronger one cell away
            return plan
    if not prep.policy(i).close_in:
        return plan
    goal = s.cell[t]
    for c in neighbours(here, unit.pc):
        m = _best_move(prep, s, i, t, c, run=free)
        if m >= 0:
            mine = (prep.strength[(i, m, t)], unit.moves[m].melee, 0, -distance(c, goal))
            if choice is None or mine > choice:
                choice, plan = mine, (c, free, m)
    if plan is not None:
        return plan
    best: tuple[int, int, str] | None = None
    for x in cells(unit.pc):
        steps = walk(here, x, unit.pc)
        if steps < 2:
            continue
        run = full_move_cost(steps)
        m = _best_move(prep, s, i, t, x, run=run)
        if m >= 0:
            far = (steps, -prep.strength[(i, m, t)], x)
            if best is None or far < best:
                best, plan = far, (x, run, m)
    return plan


def _no_attack(prep: Prepared, s: State, i: int, t: int) -> None:
    """Tactics when no attack is possible this turn.

    With nothing it could pay this round: 〈行動放棄〉 (AP 0). Otherwise a ``close_in``
    character makes a 〈戦闘移動〉 towards where its affordable attacks reach ``t``, and
    then 〈待機〉 (AP halved) to act again later in the round.
    """
    unit = prep.units[i]
    st, op, ap = s.st[i], s.op[i], s.ap[i]
    reaches = tuple(
        m.reach
        for m in unit.moves
        if can_pay(st, op, ap, m.cost, allow_ap_shortfall=prep.shortfall)
    )
    if not reaches:
        s.ap[i] = 0
        return
    if prep.policy(i).close_in:
        here, goal = s.cell[i], s.cell[t]
        now = approach(here, goal, reaches, unit.pc)
        step = min(
            neighbours(here, unit.pc),
            key=lambda c: (approach(c, goal, reaches, unit.pc), distance(c, goal)),
        )
        if approach(step, goal, reaches, unit.pc) < now:
            s.cell[i] = step
    s.ap[i] = waited(ap)


def _declare(prep: Prepared, s: State) -> bool:
    """Move, 〈変形〉, declare and pay the attack, then the responses (False: no attack)."""
    i, t = s.actor, s.target
    plan = _plan(prep, s, i, t)
    if plan is None:
        _no_attack(prep, s, i, t)
        return False
    cell, run, m = plan
    move = prep.units[i].moves[m]
    s.cell[i] = cell
    s.st[i] -= run.st + move.cost.st
    s.op[i] -= move.cost.op
    s.ap[i] = ap_after(s.ap[i] - run.ap, move.cost.ap)
    if prep.units[i].pc:
        s.gun[i] = move.gun  # 〈変形〉 in the side action when the other form is needed
    s.move = m
    s.defender, s.guarded = _response(prep, s, t)
    if s.guarded:
        s.st[s.defender] -= (GUARD_COST if s.defender == t else COVER_COST).st
    s.stage = HIT
    return True


def _keeps_attack(prep: Prepared, s: State, k: int) -> bool:
    """Tactics: whether guarding leaves ``k`` the ST of an attack it could still make this
    round (true when it has no attack left to make anyway)."""
    st, op, ap = s.st[k], s.op[k], s.ap[k]
    allow = prep.shortfall
    moves = prep.units[k].moves
    if not any(can_pay(st, op, ap, m.cost, allow_ap_shortfall=allow) for m in moves):
        return True
    st -= GUARD_COST.st
    return any(can_pay(st, op, ap, m.cost, allow_ap_shortfall=allow) for m in moves)


def _guards(prep: Prepared, s: State, k: int) -> bool:
    """Whether ``k`` guards (or covers): it has a shield, may guard (ruling guard_weapon) and
    keeps its own next attack (tactics)."""
    unit = prep.units[k]
    return (
        unit.guard is not None
        and can_guard(s.st[k], not s.gun[k], weapon_rule=prep.guard_weapon)
        and _keeps_attack(prep, s, k)
    )


def _response(prep: Prepared, s: State, t: int) -> tuple[int, bool]:
    """The response step: the target guards, or an ally in its cell covers it (ruling
    covering; the ally with the most guard dice, then the first listed); who takes the
    attack and whether it guards."""
    if not prep.policy(t).guard:
        return t, False
    if _guards(prep, s, t):
        return t, True
    side, cell = prep.units[t].pc, s.cell[t]
    best, value = -1, (0, 0, 0)
    for k, u in enumerate(prep.units):
        if k != t and u.pc == side and s.hp[k] > 0 and s.cell[k] == cell and _guards(prep, s, k):
            guard = u.guard
            mine = (guard.dice, guard.modifier, -k) if guard is not None else (0, 0, -k)
            if best < 0 or mine > value:
                best, value = k, mine
    if best >= 0:
        return best, True
    return t, False


def _link_aid(prep: Prepared, s: State, i: int) -> bool:
    """Tactics: a PC whose side guards first rescues the nearest downed ally it can reach
    and pay for this turn (〈戦闘移動〉 of one cell or 〈全力移動〉, then 〈リンクエイド〉)."""
    if not prep.pc_policy.guard:
        return False
    down = [k for k in prep.pcs if s.hp[k] <= 0]
    if not down:
        return False
    here = s.cell[i]
    k = min(down, key=lambda k: (walk(here, s.cell[k]), k))
    steps = walk(here, s.cell[k])
    run = full_move_cost(steps) if steps > 1 else Cost()
    st, ap = s.st[i] - run.st, s.ap[i] - run.ap
    if st < 0 or ap < 0 or (prep.link_aid == "transfer" and s.hp[i] < 2):
        return False
    if not can_pay(st, s.op[i], ap, LINK_AID_COST, allow_ap_shortfall=prep.shortfall):
        return False
    s.cell[i] = s.cell[k]
    s.st[i] = st - LINK_AID_COST.st
    s.ap[i] = ap_after(ap, LINK_AID_COST.ap)
    s.hp[k] = link_aid_hp(prep.link_aid, s.hp[i], prep.units[k].max_hp)
    if prep.link_aid == "transfer":
        s.hp[i] -= s.hp[k]
    s.rescues += 1
    return True


def exchange(prep: Prepared, s: State, rng: random.Random) -> int:
    """The declared attack's final damage: the damage check, the guard check when the target
    guards and the attack stands, :func:`~saikoro.systems._getb.damage.resolve` (as ``GF``)."""
    i, d = s.actor, s.defender
    achievement = prep.attacks[(i, s.move, d)].sample(rng)
    attack = achievement if isinstance(achievement, int) and achievement > 0 else None
    guard = None
    if s.guarded and attack is not None:
        draw = prep.guards[d]
        if draw is None:  # pragma: no cover - only a unit with a shield guards
            raise InternalError(f"getb: {prep.units[d].name} guards without a shield")
        guard = draw.sample(rng)
    damage, _ = resolve(attack, guard, tie=prep.tie)
    return damage


def hit(prep: Prepared, s: State, damage: int) -> None:
    """The attack's final damage taken: HP, OP recovery, 〔戦闘不能〕, the battle's end."""
    i, d = s.actor, s.defender
    units = prep.units
    if damage > 0:
        was_up = s.hp[d] > 0
        s.hp[d] -= damage
        if units[i].moves[s.move].melee:
            gained = op_recovery(damage, rounding=prep.op_rounding)
            s.op[i] = gain_op(s.op[i], gained, units[i].max_op)
        if units[i].pc:
            s.dealt += damage
        else:
            s.taken += damage
        if was_up and s.hp[d] <= 0:  # ruling downed
            s.ap[d] = 0
            s.downed[d] = True
            if not units[d].pc:
                s.fallen.append(units[d].index)
    s.stage = NEXT
    if prep.immediate:
        if _won(prep, s):
            s.end = "win"
        elif _wiped(prep, s):
            s.end = "wipe"


def battle(prep: Prepared, rng: random.Random, tally: Tally) -> None:
    """One battle, drawn from ``rng``, counted in ``tally``."""
    s = start(prep)
    units = prep.units
    while (event := advance(prep, s)) is not None:
        if event == CHOICE:
            choose(prep, s, int(rng.random() * len(foes(prep, s, s.actor))))
            continue
        damage = exchange(prep, s, rng)
        if damage > 0 and not units[s.actor].pc:
            unit = units[s.actor]
            tally.actions[f"{unit.key}:{unit.moves[s.move].name}"] += damage
        hit(prep, s, damage)
    if s.rescues:
        tally.sums["link_aid"] += s.rescues
    tally.record(
        win=s.end == "win",
        end=s.end,
        rounds=s.round,
        downed=[s.downed[k] for k in prep.pcs],
        dealt=s.dealt,
        taken=s.taken,
        defeated=s.fallen,
    )
