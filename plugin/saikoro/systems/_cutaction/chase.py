"""Chase combat: running movement values, relative distance, dropping out, the event table.

Each runner has a movement value (移動値) accumulated over the chase (ruling
``failed_move``). The runner with the highest value leads; everyone else sits behind by the
difference (relative distance, 0 down to -5). Beyond -5 a runner drops out at once, except
while someone accelerates (加速): runners left behind by an acceleration stay until the next
change or the end of the cut (ruling ``chase_drop``). The leader may change the route and
roll 1D10 on the chase event table.

>>> c = Chase.start([("逃げる男", "逃走", 6), ("刑事", "追跡", 4), ("巡査", "追跡", -1)])
>>> [(n, c.relative(n)) for n in c.order()], c.runner("巡査").dropped
([('逃げる男', 0), ('刑事', -2)], True)
>>> c = c.accelerate("逃げる男", CheckResult(9, 5))
>>> [(n, c.relative(n)) for n in c.order()]
[('逃げる男', 0), ('刑事', -6)]
>>> c.end_cut().order(), c.end_cut().end_reason(cast=3)
(['逃げる男'], '追跡側が全員脱落')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from .checks import CheckResult
from .errors import CutActionError
from .events import (
    CHASE_EVENTS,
    END_DEAD_END,
    ChaseEvent,
    EventOutcome,
    apply_event,
    chase_event,
    chase_target,
    curve_retreat,
    falling_area,
    oncoming_damage,
)

__all__ = [
    "CHASE_AREA_DEPTH",
    "CHASE_EVENTS",
    "DEAD_END_RULES",
    "DROP_RULES",
    "END_CAPTURED",
    "END_DEAD_END",
    "END_FLEEING_OUT",
    "END_GOAL",
    "END_PURSUING_OUT",
    "END_TIME",
    "FLEEING",
    "PURSUING",
    "TIME_LIMIT_RULES",
    "Chase",
    "ChaseEvent",
    "EventOutcome",
    "Runner",
    "accelerate_gain",
    "acting_order",
    "apply_event",
    "at_relative",
    "beyond_area",
    "can_obstruct",
    "caught_up",
    "chase_event",
    "chase_target",
    "curve_retreat",
    "end_reason",
    "escaped",
    "falling_area",
    "in_reach",
    "move_gain",
    "oncoming_damage",
    "rearmost",
    "retreat_position",
    "road_success_value",
]

CHASE_AREA_DEPTH = 5
"""How far behind the leader the chase area reaches (relative distance -5)."""
DROP_RULES = ("immediate", "cut_end")
"""When runners beyond the chase area drop out (ruling ``chase_drop``)."""

FLEEING = "逃走"
"""The side of the runners who declared the move (they flee)."""
PURSUING = "追跡"
"""The side of the runners who declared they follow them."""

END_CAPTURED = "捕捉"
"""A pursuer caught up with the fleeing leader, blockaded and won the agility contest."""
END_FLEEING_OUT = "逃走側が全員脱落"
"""Every fleeing runner dropped out."""
END_PURSUING_OUT = "追跡側が全員脱落"
"""Every pursuer dropped out."""
END_GOAL = "目標値に到着"
"""A fleeing runner's movement value reached the goal."""
END_TIME = "カット数が登場キャラクター数に達した"
"""As many cuts as there are characters in the chase have passed."""

TIME_LIMIT_RULES = ("not_caught", "leader")
"""Who got away when the cuts run out (ruling ``chase_time_limit``)."""
DEAD_END_RULES = ("as_time_limit", "cornered")
"""What a dead end means for the fleeing side (ruling ``chase_dead_end``)."""


# -- the rules on plain values (the Chase class and the simulator both use these) ----------


def beyond_area(positions: Sequence[int], inside: Sequence[bool]) -> tuple[int, ...]:
    """Indices of the runners still in but more than 5 behind the leader (outside the area).

    >>> beyond_area((9, 3, 4), (True, True, True)), beyond_area((9, 3), (True, False))
    ((1,), ())
    """
    lead = max((p for p, i in zip(positions, inside, strict=True) if i), default=None)
    if lead is None:
        return ()
    floor = lead - CHASE_AREA_DEPTH
    return tuple(
        k for k, (p, i) in enumerate(zip(positions, inside, strict=True)) if i and p < floor
    )


def rearmost(positions: Sequence[int], inside: Sequence[bool]) -> tuple[int, ...]:
    """Indices of the runners in the rearmost occupied area (道が閉ざされる).

    >>> rearmost((9, 3, 3), (True, True, True))
    (1, 2)
    """
    last = min((p for p, i in zip(positions, inside, strict=True) if i), default=None)
    return tuple(
        k for k, (p, i) in enumerate(zip(positions, inside, strict=True)) if i and p == last
    )


def at_relative(positions: Sequence[int], inside: Sequence[bool], relative: int) -> tuple[int, ...]:
    """Indices of the runners at ``relative`` distance from the leader (falling objects).

    >>> at_relative((9, 7, 4), (True, True, True), -2)
    (1,)
    """
    lead = max((p for p, i in zip(positions, inside, strict=True) if i), default=None)
    if lead is None:
        return ()
    return tuple(
        k
        for k, (p, i) in enumerate(zip(positions, inside, strict=True))
        if i and p - lead == relative
    )


def acting_order(
    positions: Sequence[int], inside: Sequence[bool], pcs: Sequence[bool]
) -> tuple[int, ...]:
    """Indices of the runners still in, in acting order: from the leader back, PCs first on
    equal values, then as given.

    >>> acting_order((4, 6, 6), (True, True, True), (True, False, True))
    (2, 1, 0)
    """
    ranked = sorted(
        (k for k in range(len(positions)) if inside[k]),
        key=lambda k: (-positions[k], 0 if pcs[k] else 1, k),
    )
    return tuple(ranked)


def move_gain(check: CheckResult, *, failed_move: str = "negative") -> int:
    """How far a movement check (initiative timing) moves its runner (ruling ``failed_move``).

    >>> move_gain(CheckResult(5, 8)), move_gain(CheckResult(5, 8), failed_move="zero")
    (-3, 0)
    """
    if failed_move not in ("negative", "zero"):
        raise CutActionError(f"unknown failed move rule {failed_move!r}")
    if not check.success and failed_move == "zero":
        return 0
    return check.achievement


def accelerate_gain(check: CheckResult) -> int:
    """How far 加速 moves its runner forward: the achievement of a successful check, else 0.

    >>> accelerate_gain(CheckResult(7, 3)), accelerate_gain(CheckResult(7, 9))
    (4, 0)
    """
    return check.achievement if check.success else 0


def caught_up(pursuer: int, fleeing_leader: int) -> bool:
    """Whether a pursuer at movement value ``pursuer`` has caught up with the fleeing leader
    (it is in the leader's area or ahead of it).

    >>> caught_up(7, 7), caught_up(6, 7)
    (True, False)
    """
    return pursuer >= fleeing_leader


def road_success_value(success_value: int, *, bad_road: bool) -> int:
    """The success value of a movement check (the initiative timing's or 加速): -2 on 悪路.

    >>> road_success_value(7, bad_road=True)
    5
    """
    return success_value - 2 if bad_road else success_value


def retreat_position(position: int, distance: int, blocked: Iterable[int] = ()) -> int:
    """Where a runner at ``position`` ends after falling back ``distance`` (減速, 連続カーブ,
    進路妨害): never behind a blockaded area at or behind it (``blocked``: their values).

    >>> retreat_position(8, 6), retreat_position(8, 6, {5}), retreat_position(8, 2, {8})
    (2, 5, 8)
    """
    floor = max((b for b in blocked if b <= position), default=None)
    new = position - max(0, distance)
    return new if floor is None else max(new, floor)


def in_reach(attacker: int, target: int, *, melee: bool) -> bool:
    """Whether an attack reaches another runner in the chase (ruling ``chase_actions``):
    melee needs the same area (the same movement value), shooting anyone still in it.

    >>> in_reach(5, 5, melee=True), in_reach(5, 2, melee=True), in_reach(5, 2, melee=False)
    (True, False, True)
    """
    return attacker == target or not melee


def can_obstruct(obstructor: int, target: int) -> bool:
    """Whether 進路妨害 can target a runner: it is in the obstructor's area or behind it.

    >>> can_obstruct(5, 5), can_obstruct(5, 7)
    (True, False)
    """
    return target <= obstructor


def end_reason(
    runners: Iterable[tuple[str, int, bool]],
    *,
    target: int | None,
    cut: int,
    cast: int,
    finished: str = "",
) -> str | None:
    """Why a chase is over, or ``None``, from ``(side, position, still in)`` of every runner.

    ``cut`` is the cut about to be played (1 first), ``cast`` the number of characters in
    the chase: the chase is over once ``cast`` cuts have passed. ``finished`` is an end
    that already happened (:data:`END_CAPTURED`, :data:`END_DEAD_END`). Only a fleeing
    runner reaching the goal ends the chase (the goal is where it flees to).

    >>> end_reason([("逃走", 3, True), ("追跡", 1, False)], target=None, cut=1, cast=2)
    '追跡側が全員脱落'
    >>> end_reason([("逃走", 3, True), ("追跡", 1, True)], target=None, cut=3, cast=2)
    'カット数が登場キャラクター数に達した'
    """
    if finished:
        return finished
    sides = set()
    arrived = False
    for side, position, inside in runners:
        if inside:
            sides.add(side)
            arrived = arrived or (side == FLEEING and target is not None and position >= target)
    if FLEEING not in sides:
        return END_FLEEING_OUT
    if PURSUING not in sides:
        return END_PURSUING_OUT
    if arrived:
        return END_GOAL
    if cut > cast:
        return END_TIME
    return None


def escaped(
    reason: str,
    runners: Iterable[tuple[str, int, bool]],
    *,
    time_limit: str = "not_caught",
    dead_end: str = "as_time_limit",
) -> bool:
    """Whether the fleeing side got away when a chase ended for ``reason``.

    Reaching the goal or shaking off every pursuer is an escape; a capture, or every
    fleeing runner dropping out, is not. When the cuts run out (ruling
    ``chase_time_limit``) the fleeing runners still in have escaped (``not_caught``: nobody
    caught them), or only when one of them is at the leader's value (``leader``). A
    dead end (ruling ``chase_dead_end``) ends the chase as the time limit does
    (``as_time_limit``) or corners the fleeing side (``cornered``).

    >>> rs = [("逃走", 3, True), ("追跡", 5, True)]
    >>> escaped(END_TIME, rs), escaped(END_TIME, rs, time_limit="leader")
    (True, False)
    >>> escaped(END_DEAD_END, rs), escaped(END_DEAD_END, rs, dead_end="cornered")
    (True, False)
    """
    if time_limit not in TIME_LIMIT_RULES:
        raise CutActionError(f"unknown chase time limit rule {time_limit!r}")
    if dead_end not in DEAD_END_RULES:
        raise CutActionError(f"unknown chase dead end rule {dead_end!r}")
    if reason in (END_GOAL, END_PURSUING_OUT):
        return True
    if reason in (END_CAPTURED, END_FLEEING_OUT):
        return False
    if reason == END_DEAD_END and dead_end == "cornered":
        return False
    if reason not in (END_TIME, END_DEAD_END):
        raise CutActionError(f"unknown chase end {reason!r}")
    inside = [(side, position) for side, position, i in runners if i]
    if time_limit == "not_caught":
        return any(side == FLEEING for side, _ in inside)
    top = max((position for _, position in inside), default=None)
    return any(side == FLEEING and position == top for side, position in inside)


@dataclass(frozen=True)
class Runner:
    """One runner in a chase.

    Attributes:
        name: who.
        side: ``"逃走"`` (fleeing) or ``"追跡"`` (pursuing).
        position: accumulated movement value (移動値).
        pc: a player character (acts first on ties).
        dropped: dropped out of the chase.
        vehicle: the vehicle the runner is in (``""`` on foot).
        driver: the runner drives ``vehicle`` (only drivers roll movement; passengers follow).
    """

    name: str
    side: str
    position: int
    pc: bool = False
    dropped: bool = False
    vehicle: str = ""
    driver: bool = False


@dataclass(frozen=True)
class Chase:
    """The state of a chase (immutable; every action returns a new state).

    Attributes:
        runners: everyone who declared taking part.
        target: the goal value (ten times the move target) or ``None``.
        cut: the current cut (1 first).
        blockers: runners who blockaded their area.
        narrow: 小道 is in force: nobody leaves their area this cut.
        bad_road: 悪路 is in force: movement checks at -2 success value.
        finished: why the chase ended early (行き止まり, 捕捉), or ``""``.
        drop_rule: ``"immediate"`` (default): beyond -5 drops out after every change but an
            acceleration, and at cut end; ``"cut_end"``: only at cut end (ruling
            ``chase_drop``).
    """

    runners: tuple[Runner, ...]
    target: int | None = None
    cut: int = 1
    blockers: frozenset[str] = frozenset()
    narrow: bool = False
    bad_road: bool = False
    finished: str = ""
    drop_rule: str = "immediate"

    def __post_init__(self) -> None:
        if self.drop_rule not in DROP_RULES:
            raise CutActionError(f"drop_rule must be one of {', '.join(DROP_RULES)}")

    @classmethod
    def start(
        cls,
        entries: Iterable[tuple[str, str, int] | tuple[str, str, int, bool]],
        *,
        target: int | None = None,
        drop_rule: str = "immediate",
    ) -> Chase:
        """A chase from ``(name, side, first movement achievement[, pc])`` entries.

        The first movement checks are made together; whoever ends up beyond -5 drops out.
        """
        runners = []
        for e in entries:
            name, side, move = e[0], e[1], e[2]
            if side not in (FLEEING, PURSUING):
                raise CutActionError(f"side must be {FLEEING} or {PURSUING}, not {side!r}")
            runners.append(Runner(name, side, move, bool(e[3]) if len(e) > 3 else False))
        return cls(tuple(runners), target, drop_rule=drop_rule)._settled()

    # -- reading --------------------------------------------------------------------

    def runner(self, name: str) -> Runner:
        """The runner called ``name``."""
        for r in self.runners:
            if r.name == name:
                return r
        raise KeyError(name)

    def active(self) -> list[Runner]:
        """Runners still in the chase."""
        return [r for r in self.runners if not r.dropped]

    def leader_position(self) -> int:
        """The leader's movement value."""
        return max(r.position for r in self.active())

    def relative(self, name: str) -> int:
        """Relative distance of ``name`` from the leader (0 or negative)."""
        return self.runner(name).position - self.leader_position()

    def order(self) -> list[str]:
        """Acting order: from the leader back; PCs first on equal values (:func:`acting_order`)."""
        positions = [r.position for r in self.runners]
        inside = [not r.dropped for r in self.runners]
        pcs = [r.pc for r in self.runners]
        return [self.runners[k].name for k in acting_order(positions, inside, pcs)]

    def blocked_positions(self) -> set[int]:
        """Movement values of the blockaded areas."""
        if self.narrow:
            return {r.position for r in self.active()}
        return {self.runner(n).position for n in self.blockers if not self.runner(n).dropped}

    def _plain(self) -> list[tuple[str, int, bool]]:
        return [(r.side, r.position, not r.dropped) for r in self.runners]

    def end_reason(self, *, cast: int) -> str | None:
        """Why the chase is over, or ``None`` (:func:`end_reason`); ``cast`` = number of
        characters in the chase."""
        return end_reason(
            self._plain(), target=self.target, cut=self.cut, cast=cast, finished=self.finished
        )

    def escaped(
        self, *, cast: int, time_limit: str = "not_caught", dead_end: str = "as_time_limit"
    ) -> bool | None:
        """Whether the fleeing side got away (:func:`escaped`); ``None`` while it goes on.

        >>> c = Chase.start([("A", "逃走", 3), ("B", "追跡", 5)], target=30)
        >>> c.escaped(cast=2), c.end_cut().end_cut().escaped(cast=2)
        (None, True)
        """
        reason = self.end_reason(cast=cast)
        if reason is None:
            return None
        return escaped(reason, self._plain(), time_limit=time_limit, dead_end=dead_end)

    def beyond(self) -> list[str]:
        """Runners still in but beyond the chase area (left behind by an acceleration)."""
        positions = [r.position for r in self.runners]
        inside = [not r.dropped for r in self.runners]
        return [self.runners[k].name for k in beyond_area(positions, inside)]

    # -- actions --------------------------------------------------------------------

    def _settled(self) -> Chase:
        """Drop runners beyond -5 at once (unless ruling ``chase_drop`` waits for cut end)."""
        if self.drop_rule != "immediate":
            return self
        gone = self.beyond()
        return self._drop(*gone) if gone else self

    def _move(self, name: str, position: int) -> Chase:
        """Move a runner; a driver takes its vehicle's passengers along."""
        me = self.runner(name)
        moving = {name}
        if me.driver and me.vehicle:
            moving |= {r.name for r in self.runners if r.vehicle == me.vehicle}
        runners = tuple(
            replace(r, position=position) if r.name in moving else r for r in self.runners
        )
        return replace(self, runners=runners)

    def move_success_value(self, success_value: int) -> int:
        """The success value of a movement check now (悪路: -2, :func:`road_success_value`).

        >>> Chase(()).move_success_value(7), Chase((), bad_road=True).move_success_value(7)
        (7, 5)
        """
        return road_success_value(success_value, bad_road=self.bad_road)

    def move_check(self, name: str, check: CheckResult, *, failed_move: str = "negative") -> Chase:
        """Add one runner's movement check to its movement value (then drop who is beyond -5).

        The initiative timing's checks are made together: use :meth:`move_checks` for them,
        so that nobody drops before everyone has moved.
        """
        return self.move_checks({name: check}, failed_move=failed_move)

    def move_checks(
        self, checks: Mapping[str, CheckResult], *, failed_move: str = "negative"
    ) -> Chase:
        """This cut's movement checks (initiative timing), all at once; then the drops.

        >>> c = Chase.start([("A", "逃走", 0), ("B", "追跡", 0), ("C", "追跡", 0)])
        >>> checks = {"A": CheckResult(9, 1), "B": CheckResult(9, 5), "C": CheckResult(9, 7)}
        >>> c = c.move_checks(checks)
        >>> [(n, c.relative(n)) for n in c.order()], c.runner("C").dropped
        ([('A', 0), ('B', -4)], True)
        """
        out = self
        for name, check in checks.items():
            gain = move_gain(check, failed_move=failed_move)
            out = out._move(name, out.runner(name).position + gain)
        return out._settled()

    def blockaded(self, name: str) -> bool:
        """Whether ``name`` cannot freely leave its area.

        Either another runner blockades it (leaving takes a won agility contest) or 小道 is in
        force (nobody leaves until the cut ends).

        >>> c = Chase.start([("A", "逃走", 5), ("B", "追跡", 5), ("C", "追跡", 2)]).blockade("B")
        >>> c.blockaded("A"), c.blockaded("B"), c.blockaded("C")
        (True, False, False)
        """
        me = self.runner(name)
        others = {self.runner(n).position for n in self.blockers if n != name}
        return self.narrow or me.position in others

    def accelerate(self, name: str, check: CheckResult) -> Chase:
        """加速: a successful movement check moves the runner forward by its achievement.

        Nobody moves under 小道; out of a blockaded area only after winning the contest.
        Runners left beyond -5 by an acceleration do not drop yet (the only exception).
        """
        if not check.success or self.narrow:
            return self
        return self._move(name, self.runner(name).position + accelerate_gain(check))

    def fall_back(self, name: str, distance: int) -> Chase:
        """Move a runner back (curve, obstruction), no further than a blockade behind it."""
        return self._retreat(name, distance)._settled()

    def decelerate(self, name: str, distance: int) -> Chase:
        """減速: move back by ``distance``, but not behind a blockaded area.

        >>> c = Chase.start([("A", "逃走", 8), ("B", "追跡", 5)]).blockade("B")
        >>> c.decelerate("A", 6).relative("A")
        0
        >>> c.decelerate("A", 6).runner("A").position
        5
        """
        return self._retreat(name, distance)._settled()

    def _retreat(self, name: str, distance: int) -> Chase:
        pos = self.runner(name).position
        return self._move(name, retreat_position(pos, distance, self.blocked_positions()))

    def blockade(self, name: str) -> Chase:
        """封鎖: the runner blockades its area."""
        self.runner(name)
        return replace(self, blockers=self.blockers | {name})._settled()

    def join(self, name: str, side: str, position: int | None = None) -> Chase:
        """A runner joins (さらなる追跡者: the authorities appear at the rear by default).

        >>> Chase.start([("A", "逃走", 9), ("B", "追跡", 6)]).join("警察", "追跡").relative("警察")
        -3
        """
        if side not in (FLEEING, PURSUING):
            raise CutActionError(f"side must be {FLEEING} or {PURSUING}, not {side!r}")
        if position is None:
            position = min(r.position for r in self.active())
        return replace(self, runners=(*self.runners, Runner(name, side, position)))._settled()

    def drop(self, *names: str) -> Chase:
        """Drop runners out of the chase."""
        return self._drop(*names)._settled()

    def _drop(self, *names: str) -> Chase:
        runners = tuple(replace(r, dropped=True) if r.name in names else r for r in self.runners)
        return replace(self, runners=runners)

    def close_road(self) -> Chase:
        """道が閉ざされる: everyone in the rearmost occupied area drops out."""
        positions = [r.position for r in self.runners]
        inside = [not r.dropped for r in self.runners]
        return self._drop(*(self.runners[k].name for k in rearmost(positions, inside)))._settled()

    def in_area(self, relative: int) -> list[str]:
        """Runners at a relative distance from the leader (e.g. hit by falling objects)."""
        positions = [r.position for r in self.runners]
        inside = [not r.dropped for r in self.runners]
        return [self.runners[k].name for k in at_relative(positions, inside, relative)]

    def end_cut(self) -> Chase:
        """Cut end: runners beyond -5 drop out (whatever the ruling), 小道 ends, next cut."""
        return replace(self._drop(*self.beyond()), cut=self.cut + 1, narrow=False)

    # -- vehicles, capture, events ---------------------------------------------------

    def board(self, name: str, vehicle: str, *, driver: bool = False) -> Chase:
        """Put a runner in a vehicle (as its driver, or as a passenger at the driver's place)."""
        drivers = [r for r in self.active() if r.vehicle == vehicle and r.driver and r.name != name]
        position = drivers[0].position if drivers and not driver else self.runner(name).position
        runners = tuple(
            replace(r, vehicle=vehicle, driver=driver, position=position) if r.name == name else r
            for r in self.runners
        )
        return replace(self, runners=runners)._settled()

    def jump_over(self, name: str, vehicle: str, *, won: bool) -> Chase:
        """飛び移る: after a won body contest the runner is in ``vehicle``.

        A driver who jumps leaves its old vehicle behind: that vehicle and its passengers drop out.

        >>> c = Chase.start([("A", "逃走", 5), ("B", "追跡", 5), ("C", "追跡", 5)])
        >>> c = c.board("A", "車", driver=True).board("B", "バイク", driver=True)
        >>> c = c.board("C", "バイク").jump_over("B", "車", won=True)
        >>> c.order(), c.runner("B").vehicle
        (['A', 'B'], '車')
        """
        if not won:
            return self
        me = self.runner(name)
        out = self
        if me.driver and me.vehicle:
            out = out._drop(
                *(r.name for r in self.runners if r.vehicle == me.vehicle and r.name != name)
            )
        return out.board(name, vehicle)

    def shake_off(self, boarder: str, *, won: bool) -> Chase:
        """振り落とす: a driver who wins the body contest throws ``boarder`` out (it drops out;
        the high-speed fall damage is the GM's, ruling ``fall_damage``)."""
        return self.drop(boarder) if won else self

    def capture(self, *, won: bool) -> Chase:
        """A pursuer caught up with the fleeing leader, blockaded and won the agility contest."""
        return replace(self, finished=END_CAPTURED) if won else self

    def apply_event(
        self,
        number: int,
        *,
        checks: Mapping[str, CheckResult] | None = None,
        moves: Mapping[str, int] | None = None,
        fall_roll: int | None = None,
        rounding: str = "up",
    ) -> EventOutcome:
        """Apply chase event ``number`` (a route change): see :func:`.events.apply_event`.

        >>> from saikoro.systems._cutaction.checks import resolve_check
        >>> c = Chase.start([("A", "逃走", 9), ("B", "追跡", 7), ("C", "追跡", 4)])
        >>> o = c.apply_event(7, fall_roll=4)
        >>> o.damage
        {'B': 5}
        >>> o = c.apply_event(2, checks={"A": resolve_check(6, 2), "B": resolve_check(6, 5)})
        >>> o.chase.runner("A").position, o.chase.runner("B").position
        (9, 5)
        """
        return apply_event(
            self, number, checks=checks, moves=moves, fall_roll=fall_roll, rounding=rounding
        )
