"""Cut-action: one battle as a chain of small steps, for sampling and for exact solving.

A battle is a state (:class:`S`) and :meth:`Play.step`, which says what happens next: the
battle is over (:class:`Done`), it moves on without dice (:class:`Go`), or one roll decides
(:class:`Roll`: a :class:`Table` of outcomes with integer weights, and the function that
applies the outcome drawn). :mod:`.drivers` either draws each roll (a simulated battle) or
follows every outcome with its weight (the exact solution): both play the same steps, but
that solving exactly rolls a chase cut's event (whether it is 対向車, falling objects or
another) at the cut's start and 対向車's damage with each movement check, which nothing
reads before the route change: the odds are the same, with fewer states to keep.

Every rule a step applies is a function of the engine (checks, contests, attacks and
reactions, damage, the chase's area, events and ends); a table is built from the engine's
exact distribution of the roll it stands for. The choices the rules leave to the players are
the tactics documented in docs/authoring/balance.md.

The clock of a state, ``(stage, cut, part, k, sub, j)``, grows with every step (stage 0 is
the fight, 1 the chase), so that the exact solver meets every state once, after all the
ways into it.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from itertools import accumulate
from math import gcd, lcm
from typing import Generic, NamedTuple, TypeVar

from saikoro.balance import Policy
from saikoro.dice import InternalError
from saikoro.systems._cutaction.area import ROWS, BattleArea, Cover
from saikoro.systems._cutaction.chase import (
    END_CAPTURED,
    END_DEAD_END,
    END_FLEEING_OUT,
    END_GOAL,
    END_PURSUING_OUT,
    END_TIME,
    FLEEING,
    PURSUING,
    accelerate_gain,
    acting_order,
    at_relative,
    beyond_area,
    can_obstruct,
    caught_up,
    end_reason,
    escaped,
    in_reach,
    move_gain,
    rearmost,
    retreat_position,
    road_success_value,
)
from saikoro.systems._cutaction.checks import (
    CheckResult,
    InitiativeEntry,
    check_results,
    contest_odds,
    initiative_order,
    obstruct_dist,
)
from saikoro.systems._cutaction.damage import (
    Condition,
    DamageResult,
    attack_table,
    damage_table,
    exhausted_at,
)
from saikoro.systems._cutaction.events import (
    FALLING_DAMAGE,
    RUNNER_CHECKS,
    event_number,
    falling_area,
    oncoming_damage,
    runner_effect,
)

from .prepare import Attack, Char, Prepared

__all__ = ["Done", "Go", "Play", "Roll", "S", "Table"]

T = TypeVar("T")

# -- the pieces of a step ----------------------------------------------------------------


class Table(Generic[T]):
    """Outcomes of one roll with integer weights summing to :attr:`total`.

    Built from an exact distribution (a mapping or pairs of outcome and probability), so
    that ``weight / total`` is each outcome's exact probability.

    >>> t = Table([("a", Fraction(1, 4)), ("b", Fraction(3, 4))])
    >>> t.weights, t.total, t.sample(lambda: 0.3)
    ((1, 3), 4, 'b')
    """

    __slots__ = ("cum", "outcomes", "total", "weights")

    def __init__(self, dist: Iterable[tuple[T, Fraction]] | Mapping[T, Fraction]) -> None:
        pairs = list(dist.items() if isinstance(dist, Mapping) else dist)
        pairs = [(o, p) for o, p in pairs if p]
        if not pairs or sum(p for _, p in pairs) != 1:
            raise InternalError("a roll's outcomes must add up to 1")
        den = lcm(*(p.denominator for _, p in pairs))
        weights = [p.numerator * (den // p.denominator) for _, p in pairs]
        g = gcd(den, *weights)
        self.outcomes: tuple[T, ...] = tuple(o for o, _ in pairs)
        self.weights: tuple[int, ...] = tuple(w // g for w in weights)
        self.total: int = den // g
        self.cum: tuple[int, ...] = tuple(accumulate(self.weights))

    def sample(self, rand: Callable[[], float]) -> T:
        """One outcome drawn with ``rand`` (uniform in [0, 1))."""
        return self.outcomes[bisect_right(self.cum, int(rand() * self.total))]


Clock = tuple[int, int, int, int, int, int]
"""``(stage, cut, part, k, sub, j)``: when a state is."""


class S(NamedTuple):
    """A battle between two steps (hashable; the exact solver merges equal states).

    Attributes:
        clock: ``(stage, cut, part, k, sub, j)``; stage 0 the fight, 1 the chase.
        hp: every character's 体力 (PCs first).
        rows: every character's row in the fight.
        pos: every runner's movement value in the chase (the order of ``Play.slots``).
        inn: every runner still in the chase.
        order: the acting order of this cut (fight: characters; chase: runners).
        scratch: the fight's initiative results so far; the chase's movement
            achievements of this cut (for 対向車), or the runners hit by falling objects.
        idle: runners who cannot act this cut (bits).
        bad: 悪路 in force; narrow: 小道 in force.
        aim: the target of the action under way, the pending event, or why the chase ended.
        cast: how many characters started the chase.
        base: the movement value ``pos`` counts from (the leader's at the cut's start).
    """

    clock: Clock
    hp: tuple[int, ...]
    rows: tuple[int, ...] = ()
    pos: tuple[int, ...] = ()
    inn: tuple[bool, ...] = ()
    order: tuple[int, ...] = ()
    scratch: tuple[int, ...] = ()
    idle: int = 0
    bad: bool = False
    narrow: bool = False
    aim: int = -1
    cast: int = 0
    base: int = 0


class Move(NamedTuple):
    """A movement check's outcome: how far it moved, 対向車's damage this cut, a fumble."""

    gain: int
    oncoming: int
    fumble: bool


class MoveHit(NamedTuple):
    """Solving exactly: a movement check's outcome in a cut with 対向車, and the 体力 its
    hit will leave."""

    gain: int
    fumble: bool
    hp: int


class EventHit(NamedTuple):
    """What an event did to one runner: fell back, took a hit, dropped out, lost the cut."""

    retreat: int
    hit: DamageResult | None
    drop: bool
    idle: bool


class Done(NamedTuple):
    """The battle is over: how it ended (a key of the simulator's ends)."""

    end: str


class Go(NamedTuple):
    """The battle moves on without a roll."""

    state: S


class Roll(NamedTuple):
    """One roll decides: ``then(state, outcome)`` is the state after ``outcome``.

    ``tag``: the roll may cost 体力 (``(actor, attack name)`` for an attack, ``(-1, "")``
    for a chase event), for the simulation's damage figures.
    """

    table: Table[object]
    then: Callable[[S, object], S]
    tag: tuple[int, str] | None = None


Step = Done | Go | Roll

FIGHT, CHASE = 0, 1
# fight parts
F_CUT, F_INIT, F_ORDER, F_TURN, F_END = 0, 1, 2, 3, 4
# chase parts
C_CUT, C_MOVE, C_SETTLE, C_TURN, C_END, C_OVER = 0, 1, 2, 3, 4, 5
# sub-steps of a turn
T_START, T_MOVE, T_ACT, T_EVENT, T_FALL = 0, 1, 2, 3, 4

DOWN = 10**6
"""The initiative of a fighter who is down (it makes no check)."""
FUMBLE = -(10**6)
"""The initiative of a fumble (no action this cut)."""

_AREA = BattleArea()
_CERTAIN: Table[object] = Table([(None, Fraction(1))])
ONCOMING = event_number("対向車")
FALLING = event_number("落下物")
_ONCOMING = frozenset({ONCOMING})
_DAMAGING = frozenset({ONCOMING, FALLING})
"""The events that take 体力 (rolled at a cut's start when solving exactly)."""
UNREACHABLE = -(10**9)
""":attr:`S.base` once the goal is out of the fleeing side's reach (values are relative)."""
_EVENT_TAG = (-1, "")


_FIELDS = {name: i for i, name in enumerate(S._fields)}


def _rep(s: S, **changes: object) -> S:
    """``s`` with ``changes`` (what ``S._replace`` does, in a third of the time)."""
    fields = list(s)
    for name, value in changes.items():
        fields[_FIELDS[name]] = value
    return tuple.__new__(S, fields)


def _is(value: object, kind: type[T]) -> T:
    """``value``, which a roll's table gives as one of ``kind``."""
    if not isinstance(value, kind):
        raise InternalError(f"cutaction: a roll gave {value!r}, not a {kind.__name__}")
    return value


def _worst(table: Table[object]) -> int:
    """The largest 体力 loss among a table's damage results."""
    return max((o.hp_loss for o in table.outcomes if isinstance(o, DamageResult)), default=0)


def _loss(res: DamageResult | None) -> DamageResult | None:
    """``res`` as far as the battle can tell: only the 体力 it takes (``None``: none).

    A hit's 負傷 never lowers 体力 further (its 体力 loss is at least its 負傷, so the
    lowered maximum stays above the 体力 left), and no step reads the rest: hits that take
    as much 体力 are one outcome, which keeps the exact solver's states few."""
    if res is None or res.hp_loss == 0:
        return None
    return _LOSSES.setdefault(res.hp_loss, DamageResult(res.hp_loss, res.hp_loss, 0, False))


_LOSSES: dict[int, DamageResult] = {}


def _merge(pairs: Iterable[tuple[T, Fraction]]) -> list[tuple[T, Fraction]]:
    """Equal outcomes of ``pairs`` as one, their probabilities added."""
    out: dict[T, Fraction] = {}
    for o, p in pairs:
        out[o] = out.get(o, Fraction(0)) + p
    return list(out.items())


def _set(t: tuple[T, ...], i: int, v: T) -> tuple[T, ...]:
    return (*t[:i], v, *t[i + 1 :])


class Play:
    """The steps of one battle of ``prep`` (tables built on first use, then kept)."""

    def __init__(self, prep: Prepared, *, exact: bool = False) -> None:
        self.prep = prep
        self.exact = exact
        st = prep.settings
        self.dice = st.check_dice
        self.rule = st.contest_rule
        self.chars = prep.chars
        self.fighters = (*range(prep.pcs), *prep.fight)
        plan = prep.chase
        self.slots: tuple[int, ...] = (*range(prep.pcs), *plan.runners) if plan else ()
        pcs_side = FLEEING if plan is None or plan.pcs_flee else PURSUING
        foes_side = PURSUING if pcs_side == FLEEING else FLEEING
        self.sides = tuple(pcs_side if self.chars[c].pc else foes_side for c in self.slots)
        self.slot_pc = tuple(self.chars[c].pc for c in self.slots)
        self._tables: dict[tuple[object, ...], Table[object]] = {}
        self._hp: dict[tuple[int, int, DamageResult], int] = {}
        self._usable: dict[tuple[int, int, int, int], tuple[tuple[Attack, int], ...]] = {}
        self._reasons: dict[tuple[tuple[int, ...], tuple[bool, ...], bool, int], str | None] = {}
        self._beyond: dict[tuple[tuple[int, ...], tuple[bool, ...]], tuple[bool, ...]] = {}
        self._reach_cut: int | None = None
        self._accel_cut: int | None = None
        self._losses: dict[int, int] = {}
        self._caps: dict[tuple[int, int], int] = {}
        self._cut_caps: dict[tuple[bool, int], tuple[int | None, ...]] = {}
        self._after: dict[tuple[tuple[int, ...], int], int] = {}
        self._bounds: dict[tuple[tuple[bool, ...], int, int, int], tuple[int | None, ...]] = {}
        # 体力 can be made one value past what can be lost only where no policy compares it
        # (the other side targets the weakest and this side has several runners)
        self._safe = tuple(
            sum(1 for x in self.sides if x == side) == 1
            or (prep.enemy_policy if self.slot_pc[q] else prep.pc_policy).target != "lowest_hp"
            for q, side in enumerate(self.sides)
        )

    # -- tables (each from the engine's exact distribution) -------------------------------

    def _table(
        self, key: tuple[object, ...], build: Callable[[], Iterable[tuple[T, Fraction]]]
    ) -> Table[object]:
        found = self._tables.get(key)
        if found is None:
            found = self._tables[key] = Table[object](build())
        return found

    def check(self, value: int) -> Table[object]:
        """A check with success value ``value``: every :class:`CheckResult`."""
        return self._table(("check", value), lambda: check_results(value, dice=self.dice))

    def move(self, value: int) -> Table[object]:
        """A movement check (initiative timing): how far it moves its runner (ruling
        ``failed_move``), the damage 対向車 would deal this cut, and a fumble."""
        failed_move = self.prep.settings.failed_move

        def build() -> list[tuple[Move, Fraction]]:
            out: dict[Move, Fraction] = {}
            for r, p in check_results(value, dice=self.dice):
                m = Move(
                    move_gain(r, failed_move=failed_move), oncoming_damage(r.achievement), r.fumble
                )
                out[m] = out.get(m, Fraction(0)) + p
            return list(out.items())

        return self._table(("move", value), build)

    def plain_move(self, value: int) -> Table[object]:
        """A movement check in a cut without 対向車: only how far it moves and a fumble
        (:meth:`move`'s outcomes that differ only in 対向車's damage as one)."""

        def build() -> list[tuple[Move, Fraction]]:
            out: dict[Move, Fraction] = {}
            move = self.move(value)
            for o, w in zip(move.outcomes, move.weights, strict=True):
                key = _is(o, Move)._replace(oncoming=0)
                out[key] = out.get(key, Fraction(0)) + Fraction(w, move.total)
            return list(out.items())

        return self._table(("plain_move", value), build)

    def oncoming_move(self, value: int, c: int, hp: int, cap: int | None) -> Table[object]:
        """Solving exactly, a movement check of character ``c`` (体力 ``hp``) in a cut whose
        route change brings 対向車: how far it moves, a fumble, and the 体力 that 対向車
        will leave it (its body check against this achievement, then the resist check;
        :meth:`runner_event`), at most ``cap``, as one roll: the achievement itself is
        never kept, and outcomes that leave the same state are one."""

        def build() -> list[tuple[MoveHit, Fraction]]:
            out: dict[MoveHit, Fraction] = {}
            move = self.move(value)
            body = self.chars[c].body
            for o, w in zip(move.outcomes, move.weights, strict=True):
                m = _is(o, Move)
                event = self.runner_event(ONCOMING, body, m.oncoming)
                for e, v in zip(event.outcomes, event.weights, strict=True):
                    hit = _is(e, EventHit).hit
                    left = hp if hit is None else self.after_hit(c, hp, hit)
                    key = MoveHit(m.gain, m.fumble, left if cap is None else min(left, cap))
                    p = Fraction(w * v, move.total * event.total)
                    out[key] = out.get(key, Fraction(0)) + p
            return list(out.items())

        return self._table(("oncoming_move", value, c, hp, cap), build)

    def accelerate(self, value: int) -> Table[object]:
        """加速: how far it moves its runner forward."""

        def build() -> list[tuple[int, Fraction]]:
            out: dict[int, Fraction] = {}
            for r, p in check_results(value, dice=self.dice):
                gain = accelerate_gain(r)
                out[gain] = out.get(gain, Fraction(0)) + p
            return list(out.items())

        return self._table(("accelerate", value), build)

    def contest(self, active: int, passive: tuple[int, ...]) -> Table[object]:
        """Whether the active side wins a contest (ruling ``contest_rule``)."""

        def build() -> list[tuple[bool, Fraction]]:
            c = contest_odds(active, passive, dice=self.dice, rule=self.rule)
            return [(True, c.win), (False, c.lose)]

        return self._table(("contest", active, passive), build)

    def hit(self, value: int, damage: int, target: Char) -> Table[object]:
        """One attack with success value ``value`` and ``damage`` on ``target``: its
        reaction, then on a hit the damage and the body resist check (``CAA``)."""
        st = self.prep.settings

        def build() -> Iterable[tuple[DamageResult | None, Fraction]]:
            table = attack_table(
                value,
                target.reaction,
                damage,
                target.body,
                dice=self.dice,
                rule=self.rule,
                failure=st.resist_failure,
            )
            return _merge((_loss(res), p) for res, p in table.items())

        return self._table(("hit", value, damage, target.reaction, target.body), build)

    def obstruct(self, active: int, passive: int) -> Table[object]:
        """How far 進路妨害 pushes its target back (ruling ``obstruct_distance``)."""
        st = self.prep.settings

        def build() -> Iterable[tuple[int, Fraction]]:
            d = obstruct_dist(
                active, passive, dice=self.dice, rule=self.rule, distance=st.obstruct_distance
            )
            return d.probabilities().items()

        return self._table(("obstruct", active, passive), build)

    def runner_event(self, number: int, body: int, move: int) -> Table[object]:
        """What event ``number`` does to a runner of body ``body`` (its check, and for
        対向車 the damage after its body resist check): (retreat, hit, drop, idle)."""
        st = self.prep.settings

        def build() -> list[tuple[EventHit, Fraction]]:
            out: dict[EventHit, Fraction] = {}
            for r, p in check_results(body, dice=self.dice):
                effect = runner_effect(number, r, move=move)
                hits: Iterable[tuple[DamageResult | None, Fraction]] = [(None, Fraction(1))]
                if number == 4 and not r.success:
                    hits = damage_table(
                        effect.damage, body, dice=self.dice, failure=st.resist_failure
                    ).items()
                for res, q in hits:
                    key = EventHit(effect.retreat, _loss(res), effect.drop, effect.idle)
                    out[key] = out.get(key, Fraction(0)) + p * q
            return list(out.items())

        key_move = move if number == 4 else 0
        return self._table(("runner", number, body, key_move), build)

    def falling(self) -> Table[object]:
        """Where falling objects land (relative distance; ruling ``falling_area``)."""
        rounding = self.prep.settings.falling_area

        def build() -> list[tuple[int, Fraction]]:
            out: dict[int, Fraction] = {}
            for roll in range(1, 11):
                a = falling_area(roll, rounding=rounding)
                out[a] = out.get(a, Fraction(0)) + Fraction(1, 10)
            return list(out.items())

        return self._table(("falling",), build)

    def fall_damage(self, body: int) -> Table[object]:
        """Falling objects' damage on a runner of body ``body`` (after its resist check)."""
        st = self.prep.settings
        return self._table(
            ("fall", body),
            lambda: _merge(
                (_loss(res), p)
                for res, p in damage_table(
                    FALLING_DAMAGE, body, dice=self.dice, failure=st.resist_failure
                ).items()
            ),
        )

    def _events(self) -> dict[int, Fraction]:
        plan = self.prep.chase
        if plan is None:
            raise InternalError("cutaction: a route change without a chase")
        out: dict[int, Fraction] = {}
        for number, p, _ in plan.table.events:
            out[number] = out.get(number, Fraction(0)) + p
        return out

    def events(self, without: frozenset[int] = frozenset()) -> Table[object]:
        """The route change: the event table's entries (0: an unmodelled entry), given that
        it is none of ``without`` (rolled beforehand, :meth:`event_kind`)."""
        events = self._events()
        rest = 1 - sum((events.pop(n, Fraction(0)) for n in without), Fraction(0))
        events = {n: p / rest for n, p in events.items()}
        return self._table(("events", without), lambda: list(events.items()))

    def event_kind(self, kinds: frozenset[int]) -> Table[object]:
        """Whether the route change's event will be one of ``kinds`` (which one), or
        another (-1; then rolled at the route change, :meth:`events`)."""
        events = self._events()
        pairs = [(n, events.get(n, Fraction(0))) for n in sorted(kinds)]
        rest = 1 - sum((p for _, p in pairs), Fraction(0))
        return self._table(("kind", kinds), lambda: [*pairs, (-1, rest)])

    def uniform(self, n: int) -> Table[object]:
        """One of ``n`` candidates, each as likely (the ``random`` policy)."""
        return self._table(("uniform", n), lambda: [(i, Fraction(1, n)) for i in range(n)])

    def after_hit(self, char: int, hp: int, res: DamageResult) -> int:
        """体力 after ``res`` (:meth:`Condition.take`; the injury never lowers it further:
        a hit's 体力 loss is at least its 負傷, so the lowered maximum stays above it)."""
        key = (char, hp, res)
        found = self._hp.get(key)
        if found is None:
            found = self._hp[key] = Condition(self.chars[char].hp, hp).take(res).hp
        return found

    # -- the start ---------------------------------------------------------------------

    def start(self) -> S:
        """The battle's first state: the fight's first cut, or the chase."""
        hp = tuple(c.hp for c in self.chars)
        rows = tuple(c.row for c in self.chars)
        if self.prep.defeat:
            return S((FIGHT, 1, F_CUT, 0, 0, 0), hp, rows)
        return self._chase_start(S((FIGHT, 0, F_END, 0, 0, 0), hp, rows))

    def _chase_start(self, s: S) -> S:
        inn = tuple(not exhausted_at(s.hp[c]) for c in self.slots)
        return S(
            (CHASE, 1, C_CUT, 0, 0, 0),
            s.hp,
            pos=(0,) * len(self.slots),
            inn=inn,
            cast=sum(inn),
        )

    def step(self, s: S) -> Step:
        """What happens next in state ``s``."""
        if s.clock[0] == FIGHT:
            return self._fight(s)
        return self._chase(s)

    # -- the fight ---------------------------------------------------------------------

    def _up(self, s: S, c: int) -> bool:
        return not exhausted_at(s.hp[c])

    def _fight(self, s: S) -> Step:
        _, cut, part, k, sub, _ = s.clock
        prep = self.prep
        if part == F_CUT:
            if cut > prep.cuts:
                return Done("timeout")
            return Go(_rep(s, clock=(FIGHT, cut, F_INIT, 0, 0, 0), scratch=()))
        if part == F_INIT:
            if k == len(self.fighters):
                return Go(_rep(s, clock=(FIGHT, cut, F_ORDER, 0, 0, 0)))
            c = self.fighters[k]
            nxt = (FIGHT, cut, F_INIT, k + 1, 0, 0)
            if not self._up(s, c):
                return Go(_rep(s, clock=nxt, scratch=(*s.scratch, DOWN)))

            def rolled(s: S, o: object) -> S:
                r = _is(o, CheckResult)
                code = FUMBLE if r.fumble else r.achievement
                return _rep(s, clock=nxt, scratch=(*s.scratch, code))

            return Roll(self.check(self.chars[c].body), rolled)
        if part == F_ORDER:
            entries = [
                InitiativeEntry(str(i), code, code == FUMBLE, self.chars[self.fighters[i]].pc)
                for i, code in enumerate(s.scratch)
                if code != DOWN
            ]
            ranked = initiative_order(entries, failed_order=prep.settings.failed_initiative_order)
            order = tuple(self.fighters[int(e.name)] for e in ranked)
            return Go(_rep(s, clock=(FIGHT, cut, F_TURN, 0, 0, 0), order=order, scratch=()))
        if part == F_TURN:
            return self._fight_turn(s, cut, k, sub)
        # F_END: the mission, then a wipe, then the next cut
        if all(not self._up(s, d) for d in prep.defeat):
            return Go(self._chase_start(s)) if prep.chase else Done("win")
        if all(not self._up(s, p) for p in range(prep.pcs)):
            return Done("wipe")
        return Go(_rep(s, clock=(FIGHT, cut + 1, F_CUT, 0, 0, 0), order=()))

    def usable(self, a: int, t: int, a_row: int, t_row: int) -> tuple[tuple[Attack, int], ...]:
        """The attacks ``a`` can make on ``t`` from these rows, with their success values
        (the battle area's cover and reach, :class:`BattleArea`)."""
        key = (a, t, a_row, t_row)
        found = self._usable.get(key)
        if found is not None:
            return found
        me, it = self.chars[a], self.chars[t]
        out = []
        for atk in me.attacks:
            if not _AREA.can_attack(me.cover, ranged=not atk.melee):
                continue
            if atk.melee:
                if _AREA.can_melee(ROWS[a_row], ROWS[t_row]):
                    out.append((atk, me.body))
                continue
            value = _AREA.ranged_success_value(me.head, ROWS[a_row], ROWS[t_row], it.cover)
            if value is not None:
                out.append((atk, value))
        found = self._usable[key] = tuple(out)
        return found

    def _policy(self, c: int) -> Policy:
        return self.prep.pc_policy if self.chars[c].pc else self.prep.enemy_policy

    def _choose(self, s: S, actor: int, candidates: list[int], then: Callable[[S, int], S]) -> Step:
        """Pick the target among ``candidates`` by the actor's policy (``random``: a roll)."""
        policy = self._policy(actor)
        if policy.target == "random" and len(candidates) > 1:

            def picked(s: S, o: object) -> S:
                i = _is(o, int)
                return then(s, candidates[i])

            return Roll(self.uniform(len(candidates)), picked)
        if policy.target == "most_dangerous":
            chosen = max(candidates, key=lambda c: (self.chars[c].danger, -c))
        elif policy.target == "random":
            chosen = candidates[0]
        else:
            chosen = min(candidates, key=lambda c: (s.hp[c], c))
        return Go(then(s, chosen))

    def _fight_turn(self, s: S, cut: int, k: int, sub: int) -> Step:
        if k == len(s.order):
            return Go(_rep(s, clock=(FIGHT, cut, F_END, 0, 0, 0)))
        a = s.order[k]
        me = self.chars[a]
        nxt = _rep(s, clock=(FIGHT, cut, F_TURN, k + 1, T_START, 0), aim=-1)
        if sub == T_START:
            if not self._up(s, a):
                return Go(nxt)
            foes = [f for f in self.fighters if self._up(s, f) and self.chars[f].pc != me.pc]
            if not foes:
                return Go(_rep(s, clock=(FIGHT, cut, F_END, 0, 0, 0)))
            reachable = [f for f in foes if self.usable(a, f, s.rows[a], s.rows[f])]

            def aimed(s: S, t: int) -> S:
                return _rep(s, clock=(FIGHT, cut, F_TURN, k, T_MOVE, 0), aim=t)

            return self._choose(s, a, reachable or foes, aimed)
        t = s.aim
        if sub == T_MOVE:
            act = _rep(s, clock=(FIGHT, cut, F_TURN, k, T_ACT, 0))
            policy = self._policy(a)
            if (
                self.usable(a, t, s.rows[a], s.rows[t])
                or not policy.close_in
                or me.blockade
                or me.cover is not Cover.NONE
                or s.rows[t] == s.rows[a]
            ):
                return Go(act)
            row = s.rows[a] + (1 if s.rows[t] > s.rows[a] else -1)
            blockers = tuple(
                self.chars[b].body
                for b in self.fighters
                if self._up(s, b)
                and self.chars[b].pc != me.pc
                and self.chars[b].blockade
                and s.rows[b] == s.rows[a]
            )
            if not blockers:
                return Go(_rep(act, rows=_set(s.rows, a, row)))

            def left(s: S, won: object) -> S:
                return _rep(act, rows=_set(s.rows, a, row)) if won else act

            return Roll(self.contest(me.body, blockers), left)
        # T_ACT: the attack with the most damage (then the highest success value)
        usable = self.usable(a, t, s.rows[a], s.rows[t])
        if not usable:
            return Go(nxt)
        atk, value = max(usable, key=lambda av: (av[0].damage, av[1]))

        def struck(s: S, res: object) -> S:
            if res is None:
                return nxt
            res = _is(res, DamageResult)
            return _rep(nxt, hp=_set(s.hp, t, self.after_hit(t, s.hp[t], res)))

        return Roll(self.hit(value, atk.damage, self.chars[t]), struck, (a, atk.name))

    # -- the chase ---------------------------------------------------------------------

    def _runners(self, s: S) -> list[tuple[str, int, bool]]:
        return list(zip(self.sides, s.pos, s.inn, strict=True))

    def _reason(self, s: S, cut: int) -> str | None:
        key = (s.pos, s.inn, cut > s.cast, s.base)
        if key in self._reasons:
            return self._reasons[key]
        plan = self.prep.chase
        goal = None if plan is None or s.base == UNREACHABLE else plan.goal - s.base
        found = end_reason(self._runners(s), target=goal, cut=cut, cast=s.cast)
        self._reasons[key] = found
        return found

    def _end(self, s: S, reason: str) -> Done:
        """How the battle ended, from the PCs' side, when the chase ended for ``reason``."""
        plan = self.prep.chase
        st = self.prep.settings
        got_away = escaped(
            reason,
            self._runners(s),
            time_limit=st.chase_time_limit,
            dead_end=st.chase_dead_end,
        )
        pcs_flee = plan is None or plan.pcs_flee
        return Done(chase_end_key(reason, got_away=got_away, pcs_flee=pcs_flee))

    def _settle(self, s: S) -> S:
        """Drop runners beyond the chase area (ruling ``chase_drop``: at once, unless it
        waits for the cut's end)."""
        if self.prep.settings.chase_drop != "immediate":
            return s
        inn = self._inside(s.pos, s.inn)
        return s if inn is s.inn else _rep(s, inn=inn)

    def _inside(self, pos: tuple[int, ...], inn: tuple[bool, ...]) -> tuple[bool, ...]:
        """Who is still in once the runners beyond the chase area drop out."""
        key = (pos, inn)
        found = self._beyond.get(key)
        if found is None:
            gone = beyond_area(pos, inn)
            found = tuple(False if i in gone else x for i, x in enumerate(inn)) if gone else inn
            self._beyond[key] = found
        return found

    def _drop_exhausted(self, s: S, slot: int) -> S:
        if s.inn[slot] and exhausted_at(s.hp[self.slots[slot]]):
            s = _rep(s, inn=_set(s.inn, slot, False))
        return s

    def _chase(self, s: S) -> Step:
        _, cut, part, k, sub, j = s.clock
        if part == C_OVER:
            return self._end(s, REASONS[s.aim])
        if part == C_CUT:
            reason = self._reason(s, cut)
            if reason is not None:
                return self._end(s, reason)
            n = len(self.slots)
            start = self._canonical(s, cut)

            # What the route change (if any) will bring is rolled here: the die is
            # independent of what comes before it. A simulated battle rolls only whether it
            # is 対向車 (which needs this cut's movement achievements, so the other states
            # need not keep them) and the other events at the route change, given that it is
            # not 対向車. Solving exactly, the whole event is rolled here, so that each
            # branch keeps only the 体力 its event and the attacks can still take.

            if self.exact:

                def foreseen(_s: S, o: object) -> S:
                    number = _is(o, int)
                    hp = start.hp
                    if number != ONCOMING:  # (対向車's cap: at each movement check)
                        caps = self._event_caps(falling=number == FALLING, later=start.cast - cut)
                        hp = self._capped(hp, caps)
                    return _rep(
                        start,
                        clock=(CHASE, cut, C_MOVE, 0, 0, 0),
                        hp=hp,
                        scratch=(0,) * n if number == ONCOMING else (),
                        idle=0,
                        aim=number,
                    )

                return Roll(self.event_kind(_DAMAGING), foreseen)

            def routed(_s: S, o: object) -> S:
                oncoming = _is(o, int) == ONCOMING
                return _rep(
                    start,
                    clock=(CHASE, cut, C_MOVE, 0, 0, 0),
                    scratch=(0,) * n if oncoming else (),
                    idle=0,
                    aim=ONCOMING if oncoming else -1,
                )

            return Roll(self.event_kind(_ONCOMING), routed)
        if part == C_MOVE:
            if k == len(self.slots):
                return Go(_rep(s, clock=(CHASE, cut, C_SETTLE, 0, 0, 0)))
            nxt = (CHASE, cut, C_MOVE, k + 1, 0, 0)
            if not s.inn[k]:
                return Go(_rep(s, clock=nxt))

            c = self.slots[k]
            body = self.chars[c].body
            value = road_success_value(body, bad_road=s.bad)
            if self.exact and s.scratch:
                # 対向車 will come if the route changes: the 体力 it would leave, capped
                # one above what the rest of the chase can take (nothing reads 体力 before
                # the route change; the hit lands at the settle if the route does change)
                cap = self._after_event(k, s.cast - cut)

                def moved_hit(s: S, o: object) -> S:
                    m = _is(o, MoveHit)
                    # and the 体力 kept for a cut without the route change, capped alike
                    hp = s.hp if cap is None or s.hp[c] <= cap else _set(s.hp, c, cap)
                    return _rep(
                        s,
                        clock=nxt,
                        hp=hp,
                        pos=_set(s.pos, k, s.pos[k] + m.gain),
                        scratch=_set(s.scratch, k, m.hp),
                        idle=s.idle | (1 << k) if m.fumble else s.idle,
                    )

                return Roll(self.oncoming_move(value, c, s.hp[c], cap), moved_hit)

            def moved(s: S, o: object) -> S:
                m = _is(o, Move)
                return _rep(
                    s,
                    clock=nxt,
                    pos=_set(s.pos, k, s.pos[k] + m.gain),
                    scratch=_set(s.scratch, k, m.oncoming) if s.scratch else (),
                    idle=s.idle | (1 << k) if m.fumble else s.idle,
                )

            return Roll(self.move(value) if s.scratch else self.plain_move(value), moved)
        if part == C_SETTLE:
            s = self._settle(s)
            reason = self._reason(s, cut)
            if reason is not None:
                return self._end(s, reason)
            if self.exact:
                s = self._settled(s, cut)
            order = acting_order(s.pos, s.inn, self.slot_pc)
            turns = (CHASE, cut, C_TURN, 0, T_START, 0)
            if not self.exact:
                return Go(_rep(s, clock=turns, order=order))
            if not self._changes_route(s, order[0]):  # no route change: no event this cut
                caps = self._event_caps(falling=False, later=s.cast - cut)
                hp = self._capped(s.hp, caps)
                return Go(_rep(s, clock=turns, order=order, scratch=(), aim=-1, hp=hp))
            if not s.scratch:
                return Go(_rep(s, clock=turns, order=order))
            # Solving exactly, 対向車 comes and the route change is known to come: the 体力
            # each runner's movement check left for it (:meth:`oncoming_move`) now (nothing
            # before the route change reads 体力; the exhausted drop at the event). A
            # simulated battle rolls the checks at the event, so that its damage figures
            # count only damage dealt.
            hit = list(s.hp)
            for q, c in enumerate(self.slots):
                if s.inn[q]:
                    hit[c] = s.scratch[q]
            return Go(_rep(s, clock=turns, order=order, scratch=(), hp=tuple(hit)))
        if part == C_TURN:
            return self._chase_turn(s, cut, k, sub, j)
        # C_END: the cut's end drops whoever is still beyond the area; 小道 ends
        inn = self._inside(s.pos, s.inn)
        return Go(
            _rep(
                s,
                clock=(CHASE, cut + 1, C_CUT, 0, 0, 0),
                inn=inn,
                narrow=False,
                idle=0,
                order=(),
                scratch=(),
                aim=-1,
            )
        )

    def _canonical(self, s: S, cut: int) -> S:
        """``s`` at a cut's start in the form equal futures share: once the goal is out of
        the fleeing side's reach for the rest of the chase, movement values counted from the
        leader's; the values of runners who dropped out made one; and (solving exactly)
        体力 beyond what the rest of the chase can take made one value."""
        plan = self.prep.chase
        inside = [p for p, i in zip(s.pos, s.inn, strict=True) if i]
        if plan is None or not inside:
            return s
        pos, base = s.pos, s.base
        left = s.cast - cut + 1
        if plan.goal - base - max(inside) > left * self._reach():
            # the goal is out of reach for good: only the relative distances matter now
            pos, base = self._relative(s.pos, s.inn), UNREACHABLE
        elif not all(s.inn):
            pos = tuple(p if i else 0 for p, i in zip(s.pos, s.inn, strict=True))
        hp = s.hp
        if self.exact:
            values = list(hp)
            for q, c in enumerate(self.slots):
                if not s.inn[q]:
                    values[c] = 0
                elif self._safe[q]:
                    values[c] = min(values[c], left * self._max_loss(q) + 1)
            hp = tuple(values)
        return _rep(s, pos=pos, base=base, hp=hp)

    @staticmethod
    def _relative(pos: tuple[int, ...], inn: tuple[bool, ...]) -> tuple[int, ...]:
        """Movement values counted from the leader's (those of runners out made 0)."""
        top = max(p for p, i in zip(pos, inn, strict=True) if i)
        return tuple(p - top if i else 0 for p, i in zip(pos, inn, strict=True))

    def _settled(self, s: S, cut: int) -> S:
        """Solving exactly, ``s`` once this cut's movement checks are rolled, in the form
        equal futures share: movement values counted from the leader's once the goal is out
        of reach (加速 this cut, then the later cuts)."""
        plan = self.prep.chase
        if plan is None or s.base == UNREACHABLE:
            return s
        top = max(p for p, i in zip(s.pos, s.inn, strict=True) if i)
        if plan.goal - s.base - top > self._accel_reach() + (s.cast - cut) * self._reach():
            return _rep(s, pos=self._relative(s.pos, s.inn), base=UNREACHABLE)
        return s

    def _accel_reach(self) -> int:
        """The most a fleeing runner can move forward by 加速 (one per cut)."""
        if self._accel_cut is None:
            self._accel_cut = max(
                [0]
                + [
                    self._top_accelerate(c)
                    for q, c in enumerate(self.slots)
                    if self.sides[q] == FLEEING
                ]
            )
        return self._accel_cut

    def _top_accelerate(self, c: int) -> int:
        """The most 加速 can move character ``c`` forward."""
        return max(_is(g, int) for g in self.accelerate(self.chars[c].body).outcomes)

    def _after_event(self, q: int, later: int) -> int | None:
        """Solving exactly: one above the most 体力 runner ``q`` can lose after this cut's
        route change event (an attack from each runner of the other side, then ``later``
        cuts), where no policy compares 体力 (``None``: no cap)."""
        if not self._safe[q]:
            return None
        key = (q, later)
        found = self._caps.get(key)
        if found is None:
            attacks = sum(
                self._attack_loss(o, q)
                for o in range(len(self.slots))
                if self.sides[o] != self.sides[q]
            )
            found = self._caps[key] = attacks + later * self._max_loss(q) + 1
        return found

    def _event_caps(self, *, falling: bool, later: int) -> tuple[int | None, ...]:
        """Solving exactly, in a cut whose route change brings no 対向車: each runner's
        体力 cap, one above the most it can lose in the rest of the chase (falling objects
        if ``falling``, an attack from each runner of the other side this cut, then
        ``later`` cuts; ``None``: no cap, a policy compares 体力)."""
        key = (falling, later)
        found = self._cut_caps.get(key)
        if found is None:
            caps: list[int | None] = []
            for q in range(len(self.slots)):
                top = self._after_event(q, later)
                fall = _worst(self.fall_damage(self.chars[self.slots[q]].body)) if falling else 0
                caps.append(None if top is None else top + fall)
            found = self._cut_caps[key] = tuple(caps)
        return found

    def _capped(self, hp: tuple[int, ...], caps: tuple[int | None, ...]) -> tuple[int, ...]:
        """``hp`` with each runner's 体力 at most its cap of ``caps`` (runners' order)."""
        for q, cap in enumerate(caps):
            c = self.slots[q]
            if cap is not None and hp[c] > cap:
                hp = _set(hp, c, cap)
        return hp

    def _reach(self) -> int:
        """The most a fleeing runner can move forward in one cut (movement check and 加速)."""
        if self._reach_cut is None:
            gains = [0]
            for q, c in enumerate(self.slots):
                if self.sides[q] == FLEEING:
                    move = max(_is(m, Move).gain for m in self.move(self.chars[c].body).outcomes)
                    gains.append(max(0, move) + self._top_accelerate(c))
            self._reach_cut = max(gains)
        return self._reach_cut

    def _max_loss(self, q: int) -> int:
        """The most 体力 runner ``q`` can lose in one cut: the route change's event (対向車
        or falling objects) and one attack from each runner of the other side."""
        found = self._losses.get(q)
        if found is not None:
            return found
        me = self.chars[self.slots[q]]
        top_move = max(_is(m, Move).oncoming for m in self.move(me.body).outcomes)
        oncoming = self.runner_event(ONCOMING, me.body, top_move)
        hits = [o.hit for o in oncoming.outcomes if isinstance(o, EventHit) and o.hit]
        event = max(max((h.hp_loss for h in hits), default=0), _worst(self.fall_damage(me.body)))
        attacks = sum(
            self._attack_loss(o, q)
            for o in range(len(self.slots))
            if self.sides[o] != self.sides[q]
        )
        found = self._losses[q] = event + attacks
        return found

    def _finish(self, s: S, cut: int, k: int, done: Clock, **changes: object) -> S:
        """``s`` at the end of turn ``k`` (with ``changes``), in the form equal futures
        share: no action under way, the idleness of who has acted forgotten, and (solving
        exactly) 体力 beyond what the rest of the chase can take made one value."""
        later = self._later(s.order, k)
        changes["idle"] = s.idle & later
        if self.exact:
            inn = changes.get("inn", s.inn)
            hp = changes.get("hp", s.hp)
            changes["hp"] = self._saturated(_is(inn, tuple), _is(hp, tuple), s, cut, later)
        return _rep(s, clock=done, aim=-1, scratch=(), **changes)

    def _later(self, order: tuple[int, ...], k: int) -> int:
        """The runners (bits) who act after turn ``k`` of ``order``."""
        key = (order, k)
        found = self._after.get(key)
        if found is None:
            found = self._after[key] = sum(1 << q for q in order[k + 1 :])
        return found

    def _saturated(
        self, inn: tuple[bool, ...], hp: tuple[int, ...], s: S, cut: int, later: int
    ) -> tuple[int, ...]:
        """``hp`` with every safe runner's value capped one above what it can still lose
        (the runners still in: ``inn``; who acts later this cut: ``later``, bits)."""
        key = (inn, s.idle & later, later, s.cast - cut)
        caps = self._bounds.get(key)
        if caps is None:
            bounds: list[int | None] = []
            for q in range(len(self.slots)):
                if not inn[q] or not self._safe[q]:
                    bounds.append(None)
                    continue
                total = (s.cast - cut) * self._max_loss(q)
                for o in range(len(self.slots)):
                    acts = later >> o & 1 and not s.idle >> o & 1 and inn[o]
                    if acts and self.sides[o] != self.sides[q]:
                        total += self._attack_loss(o, q)
                bounds.append(total + 1)
            self._bounds[key] = caps = tuple(bounds)
        return self._capped(hp, caps)

    def _attack_loss(self, o: int, q: int) -> int:
        """The most 体力 one attack of runner ``o`` can take from runner ``q``."""
        other, me = self.chars[self.slots[o]], self.chars[self.slots[q]]
        return max(
            (_worst(self.hit(other.value(a), a.damage, me)) for a in other.attacks), default=0
        )

    def _captures(self, s: S, r: int) -> bool:
        """Whether runner ``r`` spends its turn on the capture: a pursuer that caught up
        with the fleeing leader."""
        lead = self._fleeing_lead(s)
        return self.sides[r] == PURSUING and lead is not None and caught_up(s.pos[r], lead)

    def _changes_route(self, s: S, r: int) -> bool:
        """Whether the leader ``r`` will change the route this cut (it can act and does not
        spend its turn on a capture)."""
        return s.inn[r] and not s.idle >> r & 1 and not self._captures(s, r)

    def _fleeing_lead(self, s: S) -> int | None:
        values = [
            p for p, side, i in zip(s.pos, self.sides, s.inn, strict=True) if i and side == FLEEING
        ]
        return max(values, default=None)

    def _over(self, s: S, cut: int, reason: str) -> S:
        return _rep(s, clock=(CHASE, cut, C_OVER, 0, 0, 0), aim=REASONS.index(reason))

    def _chase_turn(self, s: S, cut: int, k: int, sub: int, j: int) -> Step:
        if k == len(s.order):
            return Go(_rep(s, clock=(CHASE, cut, C_END, 0, 0, 0)))
        # an event's checks are everyone's at once: the chase can end only after them all
        # (ruling chase_caught: both sides out together is the fleeing side's loss)
        if not (j and sub in (T_EVENT, T_FALL)):
            reason = self._reason(s, cut)
            if reason is not None:
                return self._end(s, reason)
        r = s.order[k]
        me = self.chars[self.slots[r]]
        done = (CHASE, cut, C_TURN, k + 1, T_START, 0)  # the clock of the next runner's turn
        if sub == T_START:  # the move action: capture, or 加速
            if not s.inn[r] or s.idle >> r & 1:
                return Go(self._finish(s, cut, k, done))
            if self._captures(s, r):
                front = max(
                    (q for q in range(len(self.slots)) if s.inn[q] and self.sides[q] == FLEEING),
                    key=lambda q: (s.pos[q], -q),
                )

                def blockaded(s: S, won: object) -> S:
                    if won:
                        return self._over(s, cut, END_CAPTURED)
                    return self._finish(s, cut, k, done)

                fb = self.chars[self.slots[front]].body
                return Roll(self.contest(me.body, (fb,)), blockaded)
            main = (CHASE, cut, C_TURN, k, T_MOVE, 0)
            if s.narrow:
                return Go(_rep(s, clock=main))

            def sped(s: S, o: object) -> S:
                gain = _is(o, int)
                if not gain:
                    return _rep(s, clock=main)
                return _rep(s, clock=main, pos=_set(s.pos, r, s.pos[r] + gain))

            return Roll(self.accelerate(road_success_value(me.body, bad_road=s.bad)), sped)
        if sub == T_MOVE:  # the main action
            event = (CHASE, cut, C_TURN, k, T_EVENT, 0)
            if k == 0:  # the leader changes the route
                if s.aim >= 0:  # as rolled at the cut's start
                    return Go(_rep(s, clock=event, bad=False))

                def routed(s: S, o: object) -> S:
                    number = _is(o, int)
                    return _rep(s, clock=event, aim=number, bad=number == 3)

                return Roll(self.events(_DAMAGING if self.exact else _ONCOMING), routed)
            return self._main_action(s, cut, k, r, done)
        if sub == T_ACT:  # the attack on the chosen runner
            return self._chase_attack(s, cut, k, r, q=s.aim, done=done)
        if sub == T_EVENT:
            return self._event(s, cut, k, j, done)
        # T_FALL: falling objects on the runners of scratch's mask
        mask = s.scratch[0]
        while j < len(self.slots) and not (mask >> j & 1 and s.inn[j]):
            j += 1
        if j == len(self.slots):
            return Go(self._settle(self._finish(s, cut, k, done)))
        slot = j
        ch = self.slots[slot]
        fall = (CHASE, cut, C_TURN, k, T_FALL, slot + 1)

        def fell(s: S, o: object) -> S:
            if o is None:  # resisted to nothing
                return _rep(s, clock=fall)
            hp = self.after_hit(ch, s.hp[ch], _is(o, DamageResult))
            inn = _set(s.inn, slot, False) if exhausted_at(hp) else s.inn
            return _rep(s, clock=fall, hp=_set(s.hp, ch, hp), inn=inn)

        return Roll(self.fall_damage(self.chars[ch].body), fell, _EVENT_TAG)

    def _main_action(self, s: S, cut: int, k: int, r: int, done: Clock) -> Step:
        """A runner's main action (tactics): pursuers attack when they can, else obstruct;
        the fleeing obstruct when they can, else attack."""
        me = self.chars[self.slots[r]]
        foes = [q for q in range(len(self.slots)) if s.inn[q] and self.sides[q] != self.sides[r]]
        targets = [
            q for q in foes if any(in_reach(s.pos[r], s.pos[q], melee=a.melee) for a in me.attacks)
        ]
        pushable = [] if s.narrow else [q for q in foes if can_obstruct(s.pos[r], s.pos[q])]
        attack_first = self.sides[r] == PURSUING
        if targets and (attack_first or not pushable):
            chars = [self.slots[q] for q in targets]
            act = (CHASE, cut, C_TURN, k, T_ACT, 0)

            def aimed(s: S, ch: int) -> S:
                return _rep(s, clock=act, aim=targets[chars.index(ch)])

            return self._choose(s, self.slots[r], chars, aimed)
        if pushable:
            q = max(pushable, key=lambda q: (s.pos[q], self.slot_pc[q], -q))
            target = self.chars[self.slots[q]]

            def pushed(s: S, o: object) -> S:
                back = _is(o, int)
                if not back:
                    return self._finish(s, cut, k, done)
                pos = _set(s.pos, q, retreat_position(s.pos[q], back))
                return self._settle(self._finish(s, cut, k, done, pos=pos))

            return Roll(self.obstruct(me.body, target.body), pushed)
        return Go(self._finish(s, cut, k, done))

    def _chase_attack(self, s: S, cut: int, k: int, r: int, *, q: int, done: Clock) -> Step:
        me = self.chars[self.slots[r]]
        usable = [a for a in me.attacks if in_reach(s.pos[r], s.pos[q], melee=a.melee)]
        if not usable:
            return Go(self._finish(s, cut, k, done))
        atk = max(usable, key=lambda a: (a.damage, me.value(a)))
        tc = self.slots[q]

        def struck(s: S, res: object) -> S:
            if res is None:
                return self._finish(s, cut, k, done)
            hp = self.after_hit(tc, s.hp[tc], _is(res, DamageResult))
            if not exhausted_at(hp):
                return self._finish(s, cut, k, done, hp=_set(s.hp, tc, hp))
            out = self._finish(s, cut, k, done, hp=_set(s.hp, tc, hp), inn=_set(s.inn, q, False))
            return self._settle(out)  # it drops out: a change, after which the drops

        return Roll(
            self.hit(me.value(atk), atk.damage, self.chars[tc]), struck, (self.slots[r], atk.name)
        )

    def _event(self, s: S, cut: int, k: int, j: int, done: Clock) -> Step:
        number = s.aim
        if number == ONCOMING and self.exact:  # its damage taken at the settle: the drops
            inn = tuple(
                i and not exhausted_at(s.hp[c]) for i, c in zip(s.inn, self.slots, strict=True)
            )
            return Go(self._settle(self._finish(s, cut, k, done, inn=inn)))
        if number in RUNNER_CHECKS:
            while j < len(self.slots) and not s.inn[j]:
                j += 1
            if j == len(self.slots):
                return Go(self._settle(self._finish(s, cut, k, done)))
            slot = j
            ch = self.slots[slot]
            body = self.chars[ch].body
            blocked = {s.pos[x] for x in range(len(s.pos)) if s.inn[x]} if s.narrow else ()
            step = (CHASE, cut, C_TURN, k, T_EVENT, slot + 1)

            def affected(s: S, o: object) -> S:
                e = _is(o, EventHit)
                pos, hp, inn, idle = s.pos, s.hp, s.inn, s.idle
                if e.retreat:
                    pos = _set(pos, slot, retreat_position(pos[slot], e.retreat, blocked))
                if e.hit is not None:
                    left = self.after_hit(ch, hp[ch], e.hit)
                    hp = _set(hp, ch, left)
                    if exhausted_at(left):
                        inn = _set(inn, slot, False)
                if e.drop:
                    inn = _set(inn, slot, False)
                if e.idle:
                    idle |= 1 << slot
                return _rep(s, clock=step, pos=pos, hp=hp, inn=inn, idle=idle)

            move = s.scratch[slot] if number == ONCOMING else 0
            tag = _EVENT_TAG if number == ONCOMING else None
            return Roll(self.runner_event(number, body, move), affected, tag)
        if number == FALLING:
            fall = (CHASE, cut, C_TURN, k, T_FALL, 0)

            def landed(s: S, o: object) -> S:
                hit = at_relative(s.pos, s.inn, _is(o, int))
                return _rep(s, clock=fall, scratch=(sum(1 << q for q in hit),))

            return Roll(self.falling(), landed)
        if number == 10:
            return Go(self._over(s, cut, END_DEAD_END))
        after = self._finish(s, cut, k, done)
        if number == 1:
            after = _rep(after, narrow=True)
        elif number == 8:
            gone = rearmost(s.pos, s.inn)
            after = _rep(after, inn=tuple(False if i in gone else x for i, x in enumerate(s.inn)))
        # 悪路 is set above; さらなる追跡者 and an unmodelled entry change nothing; every
        # event is a change of the chase, after which the drops
        return Go(self._settle(after))


REASONS: tuple[str, ...] = (END_CAPTURED, END_DEAD_END)
"""The ends a step records in :attr:`S.aim` before the chase is over."""


def chase_end_key(reason: str, *, got_away: bool, pcs_flee: bool) -> str:
    """The end key (the PCs' view) of a chase that ended for ``reason``: a key of
    :data:`~saikoro.systems._cutaction.simulator.ENDS`."""
    if pcs_flee:
        table = {
            END_GOAL: "chase_goal",
            END_PURSUING_OUT: "chase_shaken",
            END_CAPTURED: "chase_caught",
            END_FLEEING_OUT: "chase_pcs_out",
        }
        if reason in table:
            return table[reason]
        if reason == END_TIME:
            return "chase_time_escaped" if got_away else "chase_time_overtaken"
        return "chase_dead_end_escaped" if got_away else "chase_dead_end_cornered"
    table = {
        END_GOAL: "chase_quarry_goal",
        END_PURSUING_OUT: "chase_pcs_out",
        END_CAPTURED: "chase_quarry_caught",
        END_FLEEING_OUT: "chase_quarry_out",
    }
    if reason in table:
        return table[reason]
    if reason == END_TIME:
        return "chase_quarry_time" if got_away else "chase_quarry_time_overtaken"
    return "chase_quarry_dead_end" if got_away else "chase_quarry_cornered"
