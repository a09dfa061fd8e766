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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from .checks import CheckResult
from .errors import CutActionError
from .events import (
    CHASE_EVENTS,
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
    "DROP_RULES",
    "Chase",
    "ChaseEvent",
    "EventOutcome",
    "Runner",
    "apply_event",
    "chase_event",
    "chase_target",
    "curve_retreat",
    "falling_area",
    "oncoming_damage",
]

CHASE_AREA_DEPTH = 5
"""How far behind the leader the chase area reaches (relative distance -5)."""
DROP_RULES = ("immediate", "cut_end")
"""When runners beyond the chase area drop out (ruling ``chase_drop``)."""

FLEEING = "逃走"
PURSUING = "追跡"


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
        """Acting order: from the leader back; PCs first on equal values."""
        ranked = sorted(self.active(), key=lambda r: (-r.position, 0 if r.pc else 1))
        return [r.name for r in ranked]

    def blocked_positions(self) -> set[int]:
        """Movement values of the blockaded areas."""
        if self.narrow:
            return {r.position for r in self.active()}
        return {self.runner(n).position for n in self.blockers if not self.runner(n).dropped}

    def end_reason(self, *, cast: int) -> str | None:
        """Why the chase is over, or ``None``; ``cast`` = number of characters on stage."""
        if self.finished:
            return self.finished
        sides = {r.side for r in self.active()}
        if FLEEING not in sides:
            return "逃走側が全員脱落"
        if PURSUING not in sides:
            return "追跡側が全員脱落"
        if self.target is not None and any(
            r.position >= self.target for r in self.active() if r.side == FLEEING
        ):
            return "目標値に到着"
        if self.cut > cast:
            return "カット数が登場キャラクター数に達した"
        return None

    def beyond(self) -> list[str]:
        """Runners still in but beyond the chase area (left behind by an acceleration)."""
        if not self.active():
            return []
        lead = self.leader_position()
        return [r.name for r in self.active() if r.position - lead < -CHASE_AREA_DEPTH]

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
        """The success value of a movement check now (悪路: -2).

        >>> Chase(()).move_success_value(7), Chase((), bad_road=True).move_success_value(7)
        (7, 5)
        """
        return success_value - 2 if self.bad_road else success_value

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
            gain = check.achievement
            if not check.success and failed_move == "zero":
                gain = 0
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
        return self._move(name, self.runner(name).position + check.achievement)

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
        floor = max((b for b in self.blocked_positions() if b <= pos), default=None)
        new = pos - max(0, distance)
        if floor is not None:
            new = max(new, floor)
        return self._move(name, new)

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
        last = min(r.position for r in self.active())
        return self._drop(*(r.name for r in self.active() if r.position == last))._settled()

    def in_area(self, relative: int) -> list[str]:
        """Runners at a relative distance from the leader (e.g. hit by falling objects)."""
        lead = self.leader_position()
        return [r.name for r in self.active() if r.position - lead == relative]

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
        return replace(self, finished="捕捉") if won else self

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
