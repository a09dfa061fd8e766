"""Cut-action: one encounter's battle as the balance engine's step machine.

The fight (:mod:`.fight`), then the chase (:mod:`.chase`): :class:`CutactionRules` starts
the battle and steps it, and :meth:`~CutactionRules.canonical` names the states that are
the same for the rest of the battle by one key, so that the exact solver meets them once:

* the figures' running totals are left out (but what a side mission reads);
* in the chase, a runner out of it keeps only whether it is standing, and the movement
  values count from the leader's once the goal is out of the fleeing side's reach for the
  rest of the chase;
* 体力 beyond what a runner can still lose in the chase is one value, where no tactic
  compares it (the other side does not target the weakest, or it runs alone) and no side
  mission reads the damage taken.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import cached_property

from saikoro.balance import Battle, Roll, Rules
from saikoro.systems._cutaction.area import Cover
from saikoro.systems._cutaction.chase import FLEEING

from .cast import Log, State
from .chase import ATTACK, FALL, FALLING, MOVING, START, TURN, Chase
from .fight import Fight, FightRules
from .prepare import Prepared
from .rolls import ONCOMING

__all__ = ["CutactionRules"]


class CutactionRules(FightRules, Rules[State]):
    """The battles of one prepared encounter (``wins``: the ends that are wins)."""

    cost = 8
    """An outcome steps rules and keys states several times a plain system's work (the
    budget bought as much of the exact chase as the hand-written solver's did)."""

    def __init__(self, prep: Prepared, wins: frozenset[str]) -> None:
        super().__init__(prep, wins)
        self.reads = prep.reads
        self._fleeing = tuple(side == FLEEING for side in self.sides)
        self._goal = prep.chase.goal if prep.chase else 0
        self._caps: dict[tuple[object, ...], tuple[tuple[int, int, int], ...]] = {}

    @cached_property
    def _hits(self) -> tuple[tuple[int, ...], ...]:
        """The most one attack of each runner can take from each runner of the other side
        (``[target][attacker]``; 0 for the same side)."""
        runners = [self.chars[c] for c in self.slots]
        return tuple(
            tuple(
                max(
                    (
                        max(self.rolls.hit(me.value(a), a.damage, it.reaction, it.body).outcomes())
                        for a in me.attacks
                    ),
                    default=0,
                )
                if self.sides[o] != self.sides[q]
                else 0
                for o, me in enumerate(runners)
            )
            for q, it in enumerate(runners)
        )

    def _oncoming(self, q: int, damage: int | None = None) -> int:
        """The most 対向車 can take from runner ``q`` (``damage``: this cut's, when known)."""
        rolls, body = self.rolls, self.chars[self.slots[q]].body
        if damage is None:
            damage = max(rolls.move(body, roll)[1] for roll in rolls.check.outcomes())
        return max(rolls.event(ONCOMING, body, damage).outcomes())

    def _fall(self, q: int) -> int:
        """The most falling objects can take from runner ``q`` (0: the table has none)."""
        rolls = self.rolls
        if all(rolls.events[i] != FALLING for i in rolls.route.outcomes()):
            return 0
        return max(rolls.fall(self.chars[self.slots[q]].body).outcomes())

    @cached_property
    def _per_cut(self) -> tuple[int, ...]:
        """The most each runner can lose in one cut: the worst event, an attack of each
        runner of the other side."""
        oncoming = 0 in self.rolls.kind.outcomes()
        return tuple(
            max(self._oncoming(q) if oncoming else 0, self._fall(q)) + sum(self._hits[q])
            for q in range(len(self.slots))
        )

    @cached_property
    def _fight_hits(self) -> tuple[tuple[int, ...], ...]:
        """The most one attack of each fighter can take from each character of the other
        side in the fight (``[target][attacker]``)."""
        chars = self.chars
        return tuple(
            tuple(
                max(
                    (
                        max(self.rolls.hit(me.value(a), a.damage, it.reaction, it.body).outcomes())
                        for a in me.attacks
                    ),
                    default=0,
                )
                if f in self.fighters and me.pc != it.pc and me.cover is not Cover.FULL
                else 0
                for f, me in enumerate(chars)
            )
            for it in chars
        )

    @cached_property
    def _fight_safe(self) -> tuple[bool, ...]:
        """Whether no tactic compares each character's 体力 in the fight."""
        prep = self.prep
        return tuple(
            sum(self.chars[f].pc == me.pc for f in self.fighters) <= 1
            or (prep.enemy_policy if me.pc else prep.pc_policy).target != "lowest_hp"
            for me in self.chars
        )

    @cached_property
    def _safe(self) -> tuple[bool, ...]:
        """Whether no tactic compares each runner's 体力 (the other side does not target the
        weakest, or the runner's side has no one else)."""
        prep = self.prep
        return tuple(
            self.sides.count(side) == 1
            or (prep.enemy_policy if self.chars[c].pc else prep.pc_policy).target != "lowest_hp"
            for c, side in zip(self.slots, self.sides, strict=True)
        )

    @cached_property
    def _reach(self) -> tuple[int, int]:
        """The most a fleeing runner can move forward in one cut, and by 加速 alone."""
        rolls, rolled = self.rolls, self.rolls.check.outcomes()
        moves, speeds = [0], [0]
        for c, side in zip(self.slots, self.sides, strict=True):
            if side == FLEEING:
                body = self.chars[c].body
                speed = max(rolls.speed(body, roll) for roll in rolled)
                moves.append(max(0, *(rolls.move(body, roll)[0] for roll in rolled)) + speed)
                speeds.append(speed)
        return max(moves), max(speeds)

    def start(self) -> State:
        hp = tuple(c.hp for c in self.chars)
        log = Log(0, (), (0,) * len(self.actions))
        if self.prep.defeat:
            return Fight(1, hp, log, tuple(c.row for c in self.chars))
        return self.chase_start(hp, log)

    def step(self, state: State) -> Roll[State] | Battle:
        if state.__class__ is Fight:
            return self.fight(state)  # type: ignore[arg-type]
        return self.chase(state)  # type: ignore[arg-type]

    def canonical(self, state: State) -> Hashable:
        if state.__class__ is Fight:
            return self._fight_key(state)  # type: ignore[arg-type]
        return self._chase_key(state)  # type: ignore[arg-type]

    def _fight_key(self, s: Fight) -> Hashable:
        if s.order is not None and s.turn == len(s.order):  # the cut's end: what follows it
            verdict = self.verdict(s)
            if verdict == "chase":
                return self._chase_key(self.chase_start(s.hp, s.log, s.cut))
            if verdict:
                return self._end_key(verdict, s.cut, s.hp, s.log)
            s = Fight(s.cut + 1, s.hp, s.log, s.rows)
        hp = s.hp
        if "taken" not in self.reads:  # 体力 as far as the rest of the battle can tell
            standing = 0
            for c, h in enumerate(hp):
                standing |= (h > 0) << c
            clock = (s.cut, s.order, s.turn, standing)
            caps = self._caps.get(clock)
            if caps is None:
                caps = self._caps[clock] = self._fight_caps(s)
            hp = tuple([min(max(h, 0), cap) for h, cap in zip(hp, caps, strict=True)])
        rest = s.order and s.order[s.turn :]
        return s.cut, hp, s.rows, rest, s.target, s.moved, self._log_key(s.log)

    def _chase_key(self, s: Chase) -> Hashable:
        if s.stage == MOVING:  # the end is judged once everyone has moved
            judged = self._next(s, s.j, -1) == len(self.slots)
            s = self.turns(s) if judged else s
        elif s.stage == TURN and s.turn == len(s.order):
            s, judged = self.next_cut(s), True
        else:
            judged = self.judged(s)
        end = self.ending(s) if judged else None
        if end:
            return self._end_key(end[0], self.rounds(s), s.hp, s.log)
        inn, pos, hp, moves = s.inn, s.pos, s.hp, s.moves
        opening = s.stage < TURN
        later = s.limit - s.cut
        top = lead = -(10**9)
        for p, i, fleeing in zip(pos, inn, self._fleeing, strict=True):
            if i:
                top = max(top, p)
                lead = max(lead, p) if fleeing else lead
        reach, speed = self._reach
        far = self._goal - lead > (later + opening) * reach + (0 if opening else speed)
        if far:
            pos = tuple(p - top if i else 0 for p, i in zip(pos, inn, strict=True))
        elif not all(inn):
            pos = tuple(p if i else 0 for p, i in zip(pos, inn, strict=True))
        if "taken" not in self.reads:
            hp, moves = self._capped(s, later)
        fought = s.fought if "rounds" in self.reads else 0
        return (
            far,
            pos,
            hp,
            moves,
            s.order[s.turn :],
            s.turn == 0,
            fought,
            self._log_key(s.log),
            s.cut,
            s.limit,
            s.inn,
            s.stage,
            s.j,
            s.target,
            s.event,
            s.falls,
            s.idle,
            s.bad,
            s.narrow,
            s.finished,
        )

    def _end_key(self, end: str, rounds: int, hp: tuple[int, ...], log: Log) -> Hashable:
        """One key for the ways to the same end."""
        pcs = hp[: self.pcs]
        taken = sum(pcs) if "taken" in self.reads else 0
        return end, rounds, tuple(h <= 0 for h in pcs), taken, self._log_key(log)

    def _fight_caps(self, s: Fight) -> tuple[int, ...]:
        """For each character, one more than the most it can still lose in the battle
        (10**9 where a tactic compares it with another's)."""
        prep = self.prep
        acting = self.fighters if s.order is None else s.order[s.turn :]
        out = []
        for c, hits in enumerate(self._fight_hits):
            me = self.chars[c]
            q = self.slots.index(c) if c in self.slots else -1
            compared = (prep.enemy_policy if me.pc else prep.pc_policy).target == "lowest_hp"
            if (q >= 0 and not self._safe[q]) or (
                compared
                and any(f != c and s.hp[f] > 0 and self.chars[f].pc == me.pc for f in self.fighters)
            ):
                out.append(10**9)
                continue
            left = (prep.cuts - s.cut) * sum(hits) + sum(hits[f] for f in acting)
            left += len(self.slots) * self._per_cut[q] if q >= 0 else 0
            out.append(1 + left)
        return tuple(out)

    def _log_key(self, log: Log) -> Log:
        """What a side mission reads of the figures' running totals."""
        reads = self.reads
        return Log(
            0,
            log.fallen if "defeated" in reads else (),
            tuple(int(bool(h)) for h in log.hurt) if "hit_by" in reads else (),
        )

    def _capped(self, s: Chase, later: int) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
        """Every character's 体力 as far as the rest of the chase can tell (and this cut's
        movement damages, which 体力 far enough above them make unread)."""
        clock = (later, s.stage, s.turn, s.order, s.j, s.event, s.falls, s.idle, s.inn, s.moves)
        caps = self._caps.get(clock)
        if caps is None:
            caps = self._caps[clock] = self._caps_at(s, later)
        moves = list(s.moves) if s.moves else None
        hp = []
        for h, (q, cap, hit) in zip(s.hp, caps, strict=True):
            if h <= 0:
                h = 0
            elif h >= cap + hit:
                h = cap
                if hit and moves:
                    moves[q] = 0
            hp.append(h)
        return tuple(hp), moves and tuple(moves)

    def _caps_at(self, s: Chase, later: int) -> tuple[tuple[int, int, int], ...]:
        """For each character: its runner, the 体力 that tells it apart from more (one more
        than it can still lose, but 対向車's hit of a known movement damage), the most
        that hit can take."""
        out = [(-1, 1, 0)] * len(self.chars)  # out of the chase: standing or not
        for q, c in enumerate(self.slots):
            if not s.inn[q]:
                continue
            if not self._safe[q]:
                out[c] = (q, 10**9, 0)
                continue
            left, hit = later * self._per_cut[q], 0
            if s.stage == START:
                left += self._per_cut[q]
            else:
                pending = s.stage == MOVING or not s.turn  # the leader's route change's event
                if pending and s.moves is not None:
                    if s.stage == MOVING and q >= s.j:
                        left += self._oncoming(q)
                    elif s.stage == MOVING or q >= s.j:
                        hit = self._oncoming(q, s.moves[q])
                elif pending and s.stage == FALL:
                    left += self._fall(q) if s.falls >> q & 1 and q >= s.j else 0
                elif pending and (s.stage < ATTACK or s.event == FALLING):
                    left += self._fall(q)
                hits = self._hits[q]
                order = range(len(self.slots)) if s.stage == MOVING else s.order[max(s.turn, 1) :]
                for o in order:
                    if s.inn[o] and not s.idle >> o & 1:
                        left += hits[o]
            out[c] = (q, 1 + left, hit)
        return tuple(out)
