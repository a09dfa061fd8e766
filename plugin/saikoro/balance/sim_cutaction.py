"""カットアクション: cuts of initiative, movement between rows and attacks; then a chase.

The fight (``cutaction.cut``): every cut each standing character makes an initiative body
check (:func:`~saikoro.systems.cutaction.checks.initiative_order`: successes first,
fumbles lose the cut, PCs first on ties; ruling ``failed_initiative_order``). On its turn
a character picks a target by its policy. A melee attacker with ``close_in`` moves one
row towards it (leaving a row an enemy blockades takes a won body contest,
:func:`~saikoro.systems.cutaction.checks.contest_wins`); it attacks when it shares the
target's row. A shooter attacks from where it stands, but never a target in full cover
from another row, and at half its head success value against half cover from another
row; characters in half cover do not melee, in full cover do not attack. The attack is a
check (body for melee, head for shooting, ruling saikoro's); on a success the target
makes a body resist check and takes
:func:`~saikoro.systems.cutaction.damage.resolve_damage` (ruling ``resist_failure``)
on its :class:`~saikoro.systems.cutaction.damage.Condition`. At 体力 0 or less a character
is 消耗 and, every check but recovery failing, out of the fight. ``win`` for the fight:
every enemy in ``balance.defeat`` is down (default: every enemy without a vehicle when
the scenario has a chase, else all) within the round limit (10 cuts when none).

The chase (``cutaction.chase``), when a difficulty target is ``kind: chase``: the standing
PCs flee and the enemies with a vehicle pursue (everyone on foot when none has one), on
:class:`~saikoro.systems.cutaction.chase.Chase` with the goal 10 x the target. Each cut
everyone makes a body movement check (ruling ``failed_move``), the leader changes the
route and rolls the chase event table (:meth:`Chase.apply_event`), a pursuer that
reaches the leading PC's value tries a body contest to capture it, and runners beyond
-5 drop out. The PCs escape when a PC reaches the goal, every pursuer drops out, or a PC
leads when the chase ends otherwise. ``win`` is the fight won and the chase escaped.

A chase with no fight before it and two runners is solved exactly (:func:`exact`).
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from saikoro.systems.cutaction.chase import FLEEING, PURSUING, Chase
from saikoro.systems.cutaction.checks import (
    CheckResult,
    InitiativeEntry,
    contest_wins,
    dice_shape,
    initiative_order,
)
from saikoro.systems.cutaction.damage import Condition, resolve_damage

from .model import CutAttack, CutEnemy, CutPC, Encounter
from .stats import Tally
from .tactics import Policy, Tactics

__all__ = ["AREAS", "FLOWS", "Prepared", "battle", "exact", "notes", "prepare"]

FLOWS = ("cutaction.cut", "cutaction.chase")
"""The system flows this simulator follows."""

AREAS = ("home-base", "home", "front", "enemy", "enemy-base")
"""The battle rows, from the PCs' headquarters to the enemy's."""

DEFAULT_CUTS = 10
"""Cut limit when the main mission gives none."""

CHASE_CUTS = 30
"""Safety limit on chase cuts (the chase normally ends by its own rules first)."""


@dataclass
class _Char:
    name: str
    pc: bool
    index: int
    body: int
    head: int
    row: int
    cover: str
    attacks: tuple[CutAttack, ...]
    blockade: bool
    vehicle: str | None
    cond: Condition
    in_fight: bool = True

    @property
    def up(self) -> bool:
        return self.cond.hp > 0 and not self.cond.dead


@dataclass(frozen=True)
class Prepared:
    """The encounter, the tactics and the options in force."""

    pcs: tuple[CutPC, ...]
    enemies: tuple[CutEnemy, ...]
    defeat: frozenset[str]
    cuts: int
    chase_goal: int | None
    dice: str
    shape: tuple[int, int]
    exhausted_fail: bool
    resist_failure: str
    pc_policy: Policy
    enemy_policy: Policy
    options: Any


def prepare(enc: Encounter, tactics: Tactics) -> Prepared:
    """The defeat condition and options."""
    if enc.defeat:
        ids = frozenset(enc.defeat)
    elif enc.chase_goal is not None:
        ids = frozenset(e.id for e in enc.enemies if not e.vehicle)
    else:
        ids = frozenset(e.id for e in enc.enemies)
    return Prepared(
        pcs=enc.party.members,
        enemies=enc.enemies,
        defeat=ids,
        cuts=enc.round_limit or DEFAULT_CUTS,
        chase_goal=enc.chase_goal,
        dice=str(enc.options["check_dice"]),
        shape=dice_shape(str(enc.options["check_dice"])),
        exhausted_fail=bool(enc.options["exhausted_resist_fails"]),
        resist_failure=str(enc.options["resist_failure"]),
        pc_policy=tactics.pc,
        enemy_policy=tactics.enemy,
        options=dict(enc.options),
    )


def _check(rng: random.Random, prep: Prepared, value: int) -> CheckResult:
    """A check as :func:`~saikoro.systems.cutaction.checks.resolve_check` resolves it.

    The roll is always a valid total of the check dice, so the result is built directly
    (the highest total is the fumble); a test compares it with ``resolve_check``.
    """
    count, sides = prep.shape
    rand = rng.random
    roll = (
        int(rand() * sides) + 1
        if count == 1
        else sum(int(rand() * sides) + 1 for _ in range(count))
    )
    return CheckResult(value, roll, 0, roll == count * sides)


def _chars(prep: Prepared) -> list[_Char]:
    out = [
        _Char(
            p.name,
            True,
            i,
            p.body,
            p.head,
            AREAS.index(p.area),
            "none",
            (p.attack,),
            False,
            None,
            Condition(max_hp=p.hp, hp=p.hp),
        )
        for i, p in enumerate(prep.pcs)
    ]
    out += [
        _Char(
            e.id,
            False,
            i,
            e.body,
            e.head,
            AREAS.index(e.area),
            e.cover,
            e.attacks,
            e.blockade,
            e.vehicle,
            Condition(max_hp=e.hp, hp=e.hp),
            in_fight=e.id in prep.defeat or not (prep.chase_goal is not None and e.vehicle),
        )
        for i, e in enumerate(prep.enemies)
    ]
    return out


def _choose(policy: Policy, foes: list[_Char], rng: random.Random) -> _Char:
    if policy.target == "random":
        return foes[int(rng.random() * len(foes))]
    if policy.target == "most_dangerous":
        return max(foes, key=lambda c: (max((a.damage for a in c.attacks), default=0), -c.index))
    return min(foes, key=lambda c: (c.cond.hp, c.index))


def _usable(a: _Char, t: _Char) -> list[tuple[CutAttack, int]]:
    """Attacks ``a`` can make on ``t`` now, with their success value."""
    out = []
    for atk in a.attacks:
        if a.cover == "full":
            continue
        if atk.kind == "melee":
            if a.cover == "none" and a.row == t.row:
                out.append((atk, a.body))
        else:
            if t.cover == "full" and t.row != a.row:
                continue
            value = a.head // 2 if (t.cover == "half" and t.row != a.row) else a.head
            out.append((atk, value))
    return out


def _hit(prep: Prepared, rng: random.Random, atk: CutAttack, value: int, t: _Char) -> int:
    check = _check(rng, prep, value)
    if not check.success:
        return 0
    auto = prep.exhausted_fail and t.cond.auto_fails()
    resist = None if auto else _check(rng, prep, t.body)
    result = resolve_damage(atk.damage, resist, failure=prep.resist_failure, auto_fail=auto)
    t.cond = t.cond.take(result)
    return result.hp_loss


def _fight(
    prep: Prepared, rng: random.Random, chars: list[_Char], tally: Tally
) -> tuple[bool, int, int, int]:
    dealt = taken = 0
    cut = 0
    fighters = [c for c in chars if c.in_fight]
    if not any(not c.pc and c.name in prep.defeat for c in fighters):
        return True, 0, 0, 0
    order_rule = str(prep.options["failed_initiative_order"])
    contest_rule = str(prep.options["contest_rule"])
    while cut < prep.cuts:
        cut += 1
        entries = []
        for key, c in enumerate(fighters):
            if c.up:
                r = _check(rng, prep, c.body)
                entries.append(InitiativeEntry(str(key), r.achievement, r.fumble, c.pc))
        for e in initiative_order(entries, failed_order=order_rule):
            a = fighters[int(e.name)]
            if not a.up:
                continue
            foes = [c for c in fighters if c.up and c.pc != a.pc]
            if not foes:
                break
            policy = prep.pc_policy if a.pc else prep.enemy_policy
            reachable = [f for f in foes if _usable(a, f)]
            t = _choose(policy, reachable or foes, rng)
            if not _usable(a, t) and policy.close_in and not a.blockade and a.cover == "none":
                step = 1 if t.row > a.row else -1
                blockers = [
                    b for b in fighters if b.up and b.pc != a.pc and b.blockade and b.row == a.row
                ]
                free = not blockers or contest_wins(
                    _check(rng, prep, a.body),
                    [_check(rng, prep, b.body) for b in blockers],
                    rule=contest_rule,
                )
                if free and t.row != a.row:
                    a.row += step
            usable = _usable(a, t)
            if not usable:
                continue
            atk, value = max(usable, key=lambda av: (av[0].damage, av[1]))
            loss = _hit(prep, rng, atk, value, t)
            if not t.up and not t.pc:
                tally.fallen.append(t.index)
            if a.pc:
                dealt += loss
            else:
                taken += loss
                tally.actions[f"{a.name}:{atk.name}"] += loss
        if all(not c.up for c in fighters if not c.pc and c.name in prep.defeat):
            return True, cut, dealt, taken
        if all(not c.up for c in fighters if c.pc):
            break
    return False, cut, dealt, taken


def _chase(prep: Prepared, rng: random.Random, chars: list[_Char]) -> tuple[bool, int]:
    pcs = [c for c in chars if c.pc and c.up]
    chasers = [c for c in chars if not c.pc and c.up and c.vehicle]
    if not chasers:
        chasers = [c for c in chars if not c.pc and c.up]
    if not pcs:
        return False, 0
    if not chasers:
        return True, 0
    runners = {f"{c.pc}:{c.index}": c for c in [*pcs, *chasers]}
    failed_move = str(prep.options["failed_move"])
    rounding = str(prep.options["falling_area"])
    contest_rule = str(prep.options["contest_rule"])
    first = []
    for key, c in runners.items():
        r = _check(rng, prep, c.body)
        gain = r.achievement if (r.success or failed_move == "negative") else 0
        first.append((key, FLEEING if c.pc else PURSUING, gain, c.pc))
    chase = Chase.start(first, target=prep.chase_goal)
    cast = len(runners)
    cuts = 0
    while cuts < CHASE_CUTS:
        cuts += 1
        reason = chase.end_reason(cast=cast)
        if reason is not None:
            break
        number = int(rng.random() * 10) + 1
        active = [r.name for r in chase.active()]
        checks = {n: _check(rng, prep, runners[n].body) for n in active}
        outcome = chase.apply_event(
            number,
            checks=checks,
            moves={n: max(0, checks[n].achievement) for n in active},
            fall_roll=int(rng.random() * 10) + 1,
            rounding=rounding,
        )
        chase = outcome.chase
        if chase.end_reason(cast=cast) is not None:
            break
        for n in chase.order():
            if n in outcome.idle:
                continue
            value = chase.move_success_value(runners[n].body)
            chase = chase.move_check(n, _check(rng, prep, value), failed_move=failed_move)
        fleeing = [r for r in chase.active() if r.side == FLEEING]
        pursuing = [r for r in chase.active() if r.side == PURSUING]
        if fleeing and pursuing:
            front = max(fleeing, key=lambda r: r.position)
            hunter = max(pursuing, key=lambda r: r.position)
            if hunter.position >= front.position:
                won = contest_wins(
                    _check(rng, prep, runners[hunter.name].body),
                    [_check(rng, prep, runners[front.name].body)],
                    rule=contest_rule,
                )
                chase = chase.capture(won=won)
        chase = chase.end_cut()
    return _escaped(chase, cast), cuts


def _escaped(chase: Chase, cast: int) -> bool:
    """Whether the fleeing side got away when ``chase`` ended."""
    reason = chase.end_reason(cast=cast)
    runners_left = chase.active()
    if reason in ("目標値に到着", "追跡側が全員脱落"):
        return True
    if reason in ("逃走側が全員脱落", "捕捉"):
        return False
    top = chase.leader_position() if runners_left else 0
    lead = [r for r in runners_left if r.position == top]
    return any(r.side == FLEEING for r in lead)


def battle(prep: Prepared, rng: random.Random, tally: Tally) -> None:
    """The fight, then the chase if the scenario has one."""
    chars = _chars(prep)
    won, cuts, dealt, taken = _fight(prep, rng, chars, tally)
    escaped = True
    if won and prep.chase_goal is not None:
        escaped, chase_cuts = _chase(prep, rng, chars)
        cuts += chase_cuts
        tally.sums["escaped"] += escaped
        tally.sums["fight_won"] += 1
    downed = [not c.up for c in chars if c.pc]
    facts = {"escaped": int(won and escaped)} if prep.chase_goal is not None else {}
    tally.record(
        win=won and escaped, rounds=cuts, downed=downed, dealt=dealt, taken=taken, facts=facts
    )


EXACT_RUNNERS = 2
"""Chases with at most this many runners (and no fight before) are solved exactly
(two runners take some seconds; each more multiplies the states by about a hundred)."""


def _check_dist(prep: Prepared, value: int) -> list[tuple[CheckResult, Fraction]]:
    return _check_dist_of(prep.shape, value)


@cache
def _check_dist_of(shape: tuple[int, int], value: int) -> list[tuple[CheckResult, Fraction]]:
    count, sides = shape
    out: dict[int, Fraction] = {}
    for faces in itertools.product(range(1, sides + 1), repeat=count):
        out[sum(faces)] = out.get(sum(faces), Fraction(0)) + Fraction(1, sides**count)
    return [(CheckResult(value, roll, 0, roll == count * sides), p) for roll, p in out.items()]


def _combos(
    prep: Prepared, values: list[tuple[str, int]]
) -> list[tuple[dict[str, CheckResult], Fraction]]:
    """Every joint result of independent checks (name, success value), with its chance."""
    return _combos_of(prep.shape, tuple(values))


@cache
def _combos_of(
    shape: tuple[int, int], values: tuple[tuple[str, int], ...]
) -> list[tuple[dict[str, CheckResult], Fraction]]:
    out: list[tuple[dict[str, CheckResult], Fraction]] = [({}, Fraction(1))]
    for name, value in values:
        out = [({**d, name: r}, p * q) for d, p in out for r, q in _check_dist_of(shape, value)]
    return out


def exact(prep: Prepared) -> tuple[Fraction | None, dict[str, Fraction]]:
    """A chase with no fight before it and few runners, solved as a Markov chain.

    The states are :class:`~saikoro.systems.cutaction.chase.Chase` values; each cut
    branches over the event table, the checks the event asks for, every runner's
    movement check and the capture contest, exactly as :func:`battle` plays them.
    """
    if prep.chase_goal is None:
        return None, {}
    chars = _chars(prep)
    if any(c.in_fight and not c.pc and c.name in prep.defeat for c in chars):
        return None, {}
    pcs = [c for c in chars if c.pc]
    chasers = [c for c in chars if not c.pc and c.vehicle] or [c for c in chars if not c.pc]
    if not chasers or len(pcs) + len(chasers) > EXACT_RUNNERS:
        return None, {}
    runners = {f"{c.pc}:{c.index}": c for c in [*pcs, *chasers]}
    failed_move = str(prep.options["failed_move"])
    rounding = str(prep.options["falling_area"])
    contest_rule = str(prep.options["contest_rule"])
    cast = len(runners)
    states: dict[Chase, Fraction] = {}
    for checks, p in _combos(prep, [(k, c.body) for k, c in runners.items()]):
        first = []
        for key, c in runners.items():
            r = checks[key]
            gain = r.achievement if (r.success or failed_move == "negative") else 0
            first.append((key, FLEEING if c.pc else PURSUING, gain, c.pc))
        start = Chase.start(first, target=prep.chase_goal)
        states[start] = states.get(start, Fraction(0)) + p
    escaped = Fraction(0)
    contests: dict[tuple[int, int], Fraction] = {}

    def contest(pair: tuple[int, int]) -> Fraction:
        if pair not in contests:
            contests[pair] = sum(
                (
                    x * y
                    for a, x in _check_dist(prep, pair[0])
                    for d, y in _check_dist(prep, pair[1])
                    if contest_wins(a, [d], rule=contest_rule)
                ),
                Fraction(0),
            )
        return contests[pair]

    for _ in range(CHASE_CUTS):
        if not states:
            break
        # the leader's route change: the event and the checks it asks for
        evented: dict[tuple[Chase, frozenset[str]], Fraction] = {}
        for chase, w in states.items():
            if chase.end_reason(cast=cast) is not None:
                escaped += w * _escaped(chase, cast)
                continue
            active = [r.name for r in chase.active()]
            for number in range(1, 11):
                combos = (
                    _combos(prep, [(n, runners[n].body) for n in active])
                    if number in (2, 5, 6)
                    else [({}, Fraction(1))]
                )
                for checks, p in combos:
                    out = chase.apply_event(number, checks=checks, fall_roll=1, rounding=rounding)
                    slot = (out.chase, out.idle)
                    evented[slot] = evented.get(slot, Fraction(0)) + w * p / 10
        # everyone's movement check
        moved_states: dict[Chase, Fraction] = {}
        for (after, idle), w in evented.items():
            if after.end_reason(cast=cast) is not None:
                escaped += w * _escaped(after, cast)
                continue
            movers = [
                (n, after.move_success_value(runners[n].body))
                for n in after.order()
                if n not in idle
            ]
            for moves, q in _combos(prep, movers):
                moved = after
                for n, _ in movers:
                    moved = moved.move_check(n, moves[n], failed_move=failed_move)
                moved_states[moved] = moved_states.get(moved, Fraction(0)) + w * q
        # the capture contest, then the end of the cut
        nxt: dict[Chase, Fraction] = {}
        for moved, w in moved_states.items():
            branches = [(moved, Fraction(1))]
            fleeing = [r for r in moved.active() if r.side == FLEEING]
            pursuing = [r for r in moved.active() if r.side == PURSUING]
            if fleeing and pursuing:
                front = max(fleeing, key=lambda r: r.position)
                hunter = max(pursuing, key=lambda r: r.position)
                if hunter.position >= front.position:
                    won = contest((runners[hunter.name].body, runners[front.name].body))
                    branches = [(moved.capture(won=True), won), (moved, 1 - won)]
            for state, share in branches:
                if share:
                    ended = state.end_cut()
                    nxt[ended] = nxt.get(ended, Fraction(0)) + w * share
        states = nxt
    if states:
        return None, {}  # did not finish within the safety limit: no exact answer
    return escaped, {"P(逃げ切る)": escaped}


def notes(_prep: Prepared) -> tuple[str, ...]:
    """What is not modelled."""
    return (
        "攻撃の効果テキスト・サポートアクション・遮蔽の取り直し・回復判定（シーン行動）は扱わない。",
        "チェイスでは加速・減速・封鎖・妨害・飛び移りを使わず、シナリオ独自のランダム表ではなく"
        "ルールのチェイスイベント表を使う。",
    )
