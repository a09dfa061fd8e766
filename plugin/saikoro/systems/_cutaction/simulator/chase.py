"""Cut-action: the chase, cut by cut, as steps of the balance engine's step machine.

Each cut: whether its route change will bring 対向車 (the table's die is rolled at the
cut's start: nothing before the route change reads it, and only 対向車 needs this cut's
movement achievements, which the state keeps for that cut alone); everyone's movement
check, the drops; then each runner in acting order: its move action (a pursuer that caught
up with the fleeing leader tries the capture contest, anyone else accelerates) and its main
action (the leader changes the route; a pursuer attacks a runner in reach, else obstructs;
a fleeing runner obstructs one in its area or behind, else attacks); the cut's end drops
who is still beyond -5. The rules are the engine's (:mod:`saikoro.systems._cutaction.chase`
and ``events``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from saikoro.balance import Roll, memo
from saikoro.systems._cutaction import chase as engine
from saikoro.systems._cutaction.chase import END_CAPTURED, END_DEAD_END, FLEEING, PURSUING
from saikoro.systems._cutaction.events import (
    FALLING_DAMAGE,
    RUNNER_CHECKS,
    event_number,
    falling_area,
)

from .cast import END_KEYS, Cast, Log
from .prepare import Prepared
from .rolls import ONCOMING

if TYPE_CHECKING:
    from .cast import State, Step

__all__ = ["Chase", "ChaseRules"]

START, MOVING, TURN, MAIN, ATTACK, EVENT, FALL = range(7)
"""Where a cut of the chase is: its start, the movement checks, a runner's move action,
its main action, its attack, the route change's event, falling objects."""

CURVES, BAD_ROAD, JUMP, FALLING, CLOSED, DEAD_END, NARROW = (
    event_number(name)
    for name in ("連続カーブ", "悪路", "ジャンプ", "落下物", "道が閉ざされる", "行き止まり", "小道")
)


class Chase(NamedTuple):
    """The chase between two rolls.

    Attributes:
        cut: the cut under way (1 first); ``limit``: the cuts the chase lasts at most (the
            runners that started it).
        hp / log: every character's 体力, what the figures count (:class:`~.cast.Log`).
        pos / inn: each runner's movement value, whether it is still in (the order of
            :attr:`Cast.slots <.cast.Cast.slots>`).
        fought: the cuts of the fight before the chase (0: none).
        stage: where the cut is (``START``, ``MOVING``... ``FALL``).
        j: the next runner a roll everyone makes reaches (the movement checks, an event's
            checks, falling objects).
        moves: this cut's movement damage of each runner, kept when the route change is
            to bring 対向車 (else ``None``).
        order / turn: this cut's acting order (runners), the acting runner's place in it.
        target: the runner its attack aims at.
        event: the route change's event (0: an entry without a modelled effect; -1: none).
        falls: the runners falling objects hit (bits).
        idle: the runners who cannot act this cut (bits).
        bad / narrow: 悪路 (until the next route change), 小道 (until the cut's end).
        finished: why the chase ended before its time (the capture, a dead end).
    """

    cut: int
    limit: int
    hp: tuple[int, ...]
    log: Log
    pos: tuple[int, ...]
    inn: tuple[bool, ...]
    fought: int = 0
    stage: int = START
    j: int = 0
    moves: tuple[int, ...] | None = None
    order: tuple[int, ...] = ()
    turn: int = 0
    target: int = -1
    event: int = -1
    falls: int = 0
    idle: int = 0
    bad: bool = False
    narrow: bool = False
    finished: str = ""


def _put(t: tuple[int, ...], i: int, v: int) -> tuple[int, ...]:
    return (*t[:i], v, *t[i + 1 :])


def _out(inn: tuple[bool, ...], i: int) -> tuple[bool, ...]:
    return (*inn[:i], False, *inn[i + 1 :])


class ChaseRules(Cast):
    """The chase's steps."""

    def __init__(self, prep: Prepared) -> None:
        super().__init__(prep)
        self._kept: dict[tuple[object, ...], object] = {}
        """The ends of the positions met (they recur)."""

    def chase_start(self, hp: tuple[int, ...], log: Log, fought: int = 0) -> Chase:
        """The chase's first cut: the runners still standing join it."""
        inn = tuple(hp[c] > 0 for c in self.slots)
        return Chase(1, sum(inn), hp, log, (0,) * len(inn), inn, fought)

    def chase(self, s: Chase) -> State | Step:
        """What follows ``s`` in the chase: the next state, a roll, or the battle's end."""
        end = self.over(s)
        return self.end(end[0], s.hp, s.log, *end[1:]) if end else self._stages[s.stage](self, s)

    def over(self, s: Chase) -> tuple[str, int, int, bool] | None:
        """The battle's end when the chase is judged over before the step from ``s``: the
        end, the battle's cuts (the fight's, if any), the chase's, the fleeing side away."""
        end = self.judged(s) and self.ending(s)
        if not end:
            return None
        cuts = s.cut - (s.stage == START)
        return end[0], s.fought if self.prep.defeat else cuts, cuts, end[1]

    @staticmethod
    def judged(s: Chase) -> bool:
        """Whether the chase's end is judged before the step from ``s``: at the cut's start
        and before each part of a turn; not during the movement checks and an event's
        checks, which are everyone's at once (ruling chase_caught: both sides out together
        is the fleeing side's loss)."""
        if s.stage == TURN:
            return s.turn < len(s.order)
        return s.stage != MOVING and not (s.j and s.stage >= EVENT)

    # -- the cut's start ----------------------------------------------------------------

    def _start(self, s: Chase) -> Step:
        n = len(s.pos)
        return Roll(
            self.rolls.kind, lambda x: s._replace(stage=MOVING, moves=None if x else (0,) * n)
        )

    def _moving(self, s: Chase) -> State | Step:
        """Each runner's movement check (initiative timing), then the drops."""
        j = self.next_runner(s, s.j)
        if j == len(self.slots):
            return self.turns(s)
        value = engine.road_success_value(self.chars[self.slots[j]].body, bad_road=s.bad)
        move = self.rolls.move

        def moved(roll: int) -> Chase:
            gain, damage, fumble = move(value, roll)
            moves = s.moves and _put(s.moves, j, damage)
            pos = _put(s.pos, j, s.pos[j] + gain)
            return s._replace(j=j + 1, pos=pos, moves=moves, idle=s.idle | fumble << j)

        return Roll(self.rolls.check, moved)

    # -- a runner's turn ----------------------------------------------------------------

    def _turn(self, s: Chase) -> State | Step:
        """The cut's end, or a runner's move action: a pursuer that caught up with the
        fleeing leader blockades and tries the capture contest; anyone else accelerates
        (not under 小道)."""
        if s.turn == len(s.order):
            return self.next_cut(s)
        r = s.order[s.turn]
        if not s.inn[r] or s.idle >> r & 1:
            return self._finish(s)
        me = self.chars[self.slots[r]]
        fleeing = [q for q, side in enumerate(self.sides) if s.inn[q] and side == FLEEING]
        if self.sides[r] == PURSUING and engine.caught_up(s.pos[r], max(s.pos[q] for q in fleeing)):
            front = self.chars[self.slots[max(fleeing, key=lambda q: (s.pos[q], -q))]]
            return Roll(
                self.rolls.contest(me.body, (front.body,)),
                lambda x: self._finish(s) if x else s._replace(finished=END_CAPTURED),
            )
        if s.narrow:
            return s._replace(stage=MAIN)
        value = engine.road_success_value(me.body, bad_road=s.bad)
        speed = self.rolls.speed

        def sped(roll: int) -> Chase:
            return s._replace(stage=MAIN, pos=_put(s.pos, r, s.pos[r] + speed(value, roll)))

        return Roll(self.rolls.check, sped)

    def _main(self, s: Chase) -> State | Step:
        """The main action: the leader changes the route (対向車 as foreseen at the cut's
        start); the others, by the tactics, attack or obstruct."""
        if not s.turn:
            if s.moves is not None:
                return s._replace(stage=EVENT, event=ONCOMING, bad=False)
            events = self.rolls.events
            return Roll(
                self.rolls.route,
                lambda i: s._replace(stage=EVENT, event=events[i], bad=events[i] == BAD_ROAD),
            )
        r = s.order[s.turn]
        me, here = self.chars[self.slots[r]], s.pos[r]
        foes = [q for q, side in enumerate(self.sides) if s.inn[q] and side != self.sides[r]]
        targets = [
            q
            for q in foes
            if any(engine.in_reach(here, s.pos[q], melee=a.melee) for a in me.attacks)
        ]
        pushable = [] if s.narrow else [q for q in foes if engine.can_obstruct(here, s.pos[q])]
        if targets and (self.sides[r] == PURSUING or not pushable):
            at = [self.slots[q] for q in targets]
            ready = s._replace(stage=ATTACK)
            return self.aim(
                self.slots[r], at, s.hp, lambda c: ready._replace(target=self.slots.index(c))
            )
        if not pushable:
            return self._finish(s)
        q = max(pushable, key=lambda q: (s.pos[q], self.chars[self.slots[q]].pc, -q))

        def pushed(back: int) -> Chase:
            if not back:
                return self._finish(s)
            pos = _put(s.pos, q, engine.retreat_position(s.pos[q], back))
            return self._settle(self._finish(s._replace(pos=pos)))

        return Roll(self.rolls.obstruct(me.body, self.chars[self.slots[q]].body), pushed)

    def _attack(self, s: Chase) -> State | Step:
        """The attack that deals most (then the highest success value) on the target."""
        r, q = s.order[s.turn], s.target
        me, it = self.chars[self.slots[r]], self.chars[self.slots[q]]
        usable = [a for a in me.attacks if engine.in_reach(s.pos[r], s.pos[q], melee=a.melee)]
        if not usable:
            return self._finish(s)
        atk = max(usable, key=lambda a: (a.damage, me.value(a)))

        def struck(loss: int) -> Chase:
            t = self._finish(self._hurt(s, q, loss, self.slots[r], atk.name))
            return t if t.inn[q] else self._settle(t)

        return Roll(self.rolls.hit(me.value(atk), atk.damage, it.reaction, it.body), struck)

    # -- the route change's event ---------------------------------------------------------

    def _event(self, s: Chase) -> State | Step:
        """The event: everyone's check, one runner after the other, or its effect on the
        chase; every event is a change, after which the drops."""
        number = s.event
        if number in RUNNER_CHECKS:
            j = self.next_runner(s, s.j)
            if j == len(self.slots):
                return self._settle(self._finish(s))
            blocked = {p for p, i in zip(s.pos, s.inn, strict=True) if i} if s.narrow else ()

            def affected(x: int) -> Chase:
                t = s._replace(j=j + 1)
                if not x:
                    return t
                if number == CURVES:  # falls back
                    back = engine.retreat_position(s.pos[j], x, blocked)
                    return t._replace(pos=_put(s.pos, j, back))
                if number == JUMP:  # drops out
                    return t._replace(inn=_out(s.inn, j))
                if number != ONCOMING:  # スリップ: loses the cut
                    return t._replace(idle=s.idle | 1 << j)
                return self._hurt(t, j, x)

            move = s.moves[j] if number == ONCOMING and s.moves else 0
            body = self.chars[self.slots[j]].body
            return Roll(self.rolls.event(number, body, move), affected)
        if number == FALLING:
            rounding = self.settings.falling_area

            def landed(roll: int) -> Chase:
                hit = engine.at_relative(s.pos, s.inn, falling_area(roll, rounding=rounding))
                return s._replace(stage=FALL, falls=sum(1 << q for q in hit))

            return Roll(self.rolls.falling, landed)
        if number == DEAD_END:
            return s._replace(finished=END_DEAD_END)
        after = self._finish(s)
        if number == NARROW:
            after = after._replace(narrow=True)
        elif number == CLOSED:
            gone = engine.rearmost(s.pos, s.inn)
            after = after._replace(inn=tuple(i and q not in gone for q, i in enumerate(s.inn)))
        return self._settle(after)  # (悪路 is set with the event; さらなる追跡者 changes nothing)

    def _falling(self, s: Chase) -> State | Step:
        """Falling objects' damage on each runner they hit, one after the other."""
        j = self.next_runner(s, s.j, s.falls)
        if j == len(self.slots):
            return self._settle(self._finish(s))
        body = self.chars[self.slots[j]].body
        return Roll(
            self.rolls.damage(FALLING_DAMAGE, body), lambda x: self._hurt(s._replace(j=j + 1), j, x)
        )

    _stages: tuple[Callable[[ChaseRules, Chase], State | Step], ...] = (
        _start,
        _moving,
        _turn,
        _main,
        _attack,
        _event,
        _falling,
    )

    # -- changes and ends ---------------------------------------------------------------

    def _hurt(self, s: Chase, q: int, loss: int, by: int = -1, attack: str = "") -> Chase:
        """``s`` once runner ``q`` has lost ``loss`` 体力 (to ``by``'s ``attack``, else to an
        event): at 0 or less it is out."""
        c = self.slots[q]
        hp, log = self.hurt(s.hp, s.log, c, loss, by, attack)
        return s._replace(hp=hp, log=log, inn=s.inn if hp[c] > 0 else _out(s.inn, q))

    def next_runner(self, s: Chase, j: int, among: int = -1) -> int:
        """The first runner from ``j`` on who is still in (and among the bits of ``among``)."""
        n = len(self.slots)
        while j < n and not (s.inn[j] and among >> j & 1):
            j += 1
        return j

    def turns(self, s: Chase) -> Chase:
        """``s`` once the movement checks are made: the drops, then the acting order."""
        s = self._settle(s)
        pcs = tuple(self.chars[c].pc for c in self.slots)
        return s._replace(stage=TURN, j=0, order=engine.acting_order(s.pos, s.inn, pcs))

    def next_cut(self, s: Chase) -> Chase:
        """The next cut's start: the cut's end drops who is beyond the area, 小道 ends."""
        return Chase(
            s.cut + 1, s.limit, s.hp, s.log, s.pos, self._inside(s.pos, s.inn), s.fought, bad=s.bad
        )

    def _finish(self, s: Chase) -> Chase:
        """``s`` once the acting runner's turn is over (the idleness of who has acted
        forgotten)."""
        later = sum(1 << q for q in s.order[s.turn + 1 :])
        return s._replace(
            stage=TURN,
            turn=s.turn + 1,
            j=0,
            moves=None,
            target=-1,
            event=-1,
            falls=0,
            idle=s.idle & later,
        )

    @memo
    def _inside(self, pos: tuple[int, ...], inn: tuple[bool, ...]) -> tuple[bool, ...]:
        """Who is still in once the runners beyond the chase area drop out."""
        gone = engine.beyond_area(pos, inn)
        return tuple(i and q not in gone for q, i in enumerate(inn))

    def _settle(self, s: Chase) -> Chase:
        """After a change, runners beyond the chase area drop out (ruling ``chase_drop``:
        at once, unless they wait for the cut's end)."""
        if self.settings.chase_drop != "immediate":
            return s
        inn = self._inside(s.pos, s.inn)
        return s if inn == s.inn else s._replace(inn=inn)

    def ending(self, s: Chase) -> tuple[str, bool] | None:
        """How the battle ends (from the PCs' side) if the chase is over in ``s``, and
        whether its fleeing side got away."""
        key = (s.pos, s.inn, s.cut > s.limit, s.finished)
        found = self._kept.get(key, ())
        if found == ():
            st, runners = self.settings, tuple(zip(self.sides, s.pos, s.inn, strict=True))
            goal = self.prep.chase.goal if self.prep.chase else None
            reason = engine.end_reason(
                runners, target=goal, cut=s.cut, cast=s.limit, finished=s.finished
            )
            found = None
            if reason is not None:
                fled = engine.escaped(
                    reason, runners, time_limit=st.chase_time_limit, dead_end=st.chase_dead_end
                )
                found = END_KEYS[reason, self.pcs_flee, fled], fled
            self._kept[key] = found
        return found  # type: ignore[return-value]
