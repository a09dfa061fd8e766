"""Cut-action: one encounter's battle as the balance engine's step machine.

The fight (:mod:`.fight`), then the chase (:mod:`.chase`): :class:`CutactionRules` starts
the battle and steps it, and :meth:`~CutactionRules.canonical` names the states that are
the same for the rest of the battle by one key, so that the exact solver meets them once:

* a state the battle's end follows at once is that end (what a side mission can read of it);
* the figures' running totals are left out (but what a side mission reads);
* 体力 beyond what a character can still lose is one value, where no tactic compares it
  with another's and no side mission reads the damage taken (with 対向車 to come, also the
  movement damage it will meet);
* in the chase, a runner out of it keeps only whether it stands, and the movement values
  count from the leader's once the goal is out of the fleeing side's reach for good.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from functools import cached_property
from itertools import product
from math import comb, prod
from typing import Any

from saikoro.balance import Battle, Roll, Rules
from saikoro.systems._cutaction.chase import FLEEING
from saikoro.systems._cutaction.events import FALLING_DAMAGE

from .cast import Log, State
from .chase import ATTACK, FALL, FALLING, MOVING, START, TURN, Chase
from .fight import Fight, FightRules
from .prepare import Prepared
from .rolls import ONCOMING

__all__ = ["CutactionRules"]

ANY = 10**9
"""The cap of 体力 a tactic compares: none."""


class CutactionRules(FightRules, Rules[State]):
    """The battles of one prepared encounter."""

    work = 16
    """An outcome takes many times the work of a plain system's to step and key: charged so
    that a budget takes about the time the hand-written solver took (10,000,000 steps:
    625,000 outcomes, tens of seconds; everything it solved is still solved)."""

    def __init__(self, prep: Prepared) -> None:
        super().__init__(prep)
        self.reads = prep.reads
        self._goal = prep.chase.goal if prep.chase else 0
        self._caps: dict[tuple[object, ...], Any] = {}
        """The caps of 体力 (:meth:`_fight_caps`, :meth:`_chase_caps`) at the times met."""

    def start(self) -> State:
        hp = tuple(c.hp for c in self.chars)
        log = Log(0, (), (0,) * len(self.actions))
        if self.prep.defeat:
            return Fight(1, hp, log, tuple(c.row for c in self.chars))
        return self.chase_start(hp, log)

    def step(self, state: State) -> Roll[State] | Battle:
        fight, chase = self.fight, self.chase
        while True:
            nxt = fight(state) if state.__class__ is Fight else chase(state)  # type: ignore[arg-type]
            if nxt.__class__ is not Fight and nxt.__class__ is not Chase:
                return nxt  # type: ignore[return-value]
            state = nxt

    def canonical(self, state: State) -> Hashable:
        s = state
        if isinstance(s, Fight) and s.order is not None and s.turn == len(s.order):
            after = self.cut_end(s)  # the cut's end: what follows
            if isinstance(after, Battle):
                return self._end_key(after.end, after.rounds, s.hp, s.log)
            s = after
        if isinstance(s, Fight):
            return self._fight_key(s)
        if s.stage == MOVING and self.next_runner(s, s.j) == len(self.slots):
            s = self.turns(s)  # the end is judged once everyone has moved
        elif s.stage == TURN and s.turn == len(s.order):
            s = self.next_cut(s)
        end = self.over(s)
        return self._end_key(end[0], end[1], s.hp, s.log) if end else self._chase_key(s)

    def size(self) -> int:
        """A bound of the fight's 体力 states: summed over the cuts, the product over both
        sides of the fewer of their fighters' values (体力 + 1, but no more than the damage
        the other side can have dealt by then, each foe hitting once a cut) multiplied and
        of the ways to share that damage out among them."""
        total = 0
        for cut in range(1, self.prep.cuts + 1):
            term = 1
            for pc in (True, False):
                side = [c for c in self.fighters if self.chars[c].pc == pc]
                most = cut * sum(max(self._hits[c][o] for c in side) for o in self.fighters)
                values = prod(1 + min(self.chars[c].hp, most) for c in side)
                term *= min(values, comb(most + len(side), len(side)))
            total += term
        return total

    # -- keys ---------------------------------------------------------------------------

    def _fight_key(self, s: Fight) -> Hashable:
        hp, rest = s.hp, s.order and s.order[s.turn :]
        if "taken" not in self.reads:
            standing = acting = 0
            for c in self.fighters if rest is None else rest:
                acting |= 1 << c
            for c, h in enumerate(hp):
                standing |= (h > 0) << c
            caps = self._caps.get((s.cut, acting, standing))
            if caps is None:
                caps = self._caps[s.cut, acting, standing] = self._fight_caps(s, acting)
            hp = tuple([min(max(h, 0), cap) for h, cap in zip(hp, caps, strict=True)])
        return s.cut, hp, s.rows, rest, s.target, s.moved, s.rolled, self._log_key(s.log)

    def _chase_key(self, s: Chase) -> Hashable:
        pos, hp, moves = s.pos, s.hp, s.moves
        later = s.limit - s.cut
        inside = [p for p, i in zip(pos, s.inn, strict=True) if i]
        fleeing = [
            p for p, i, side in zip(pos, s.inn, self.sides, strict=True) if i and side == FLEEING
        ]
        reach, speed = self._reach
        ahead = (later + 1) * reach if s.stage < TURN else later * reach + speed
        far = not fleeing or self._goal - max(fleeing) > ahead
        if far and inside:  # only the distances between the runners matter any more
            top = max(inside)
            pos = tuple(p - top if i else 0 for p, i in zip(pos, s.inn, strict=True))
        elif len(inside) < len(pos):
            pos = tuple(p if i else 0 for p, i in zip(pos, s.inn, strict=True))
        if "taken" not in self.reads:
            hp, moves = self._capped(s, later)
        fought = s.fought if "rounds" in self.reads else 0
        when = (s.cut, s.limit, s.stage, s.j, s.turn == 0, s.order[s.turn :], s.target)
        road = (s.event, s.falls, s.idle, s.bad, s.narrow, s.finished)
        return far, pos, s.inn, hp, moves, fought, self._log_key(s.log), when, road

    def _end_key(self, end: str, rounds: int, hp: tuple[int, ...], log: Log) -> Hashable:
        """One key for the ways to the same end (what a side mission can read of it)."""
        pcs = hp[: self.pcs]
        taken = sum(pcs) if "taken" in self.reads else 0
        return end, rounds, tuple(h <= 0 for h in pcs), taken, self._log_key(log)

    def _log_key(self, log: Log) -> Log:
        """What a side mission reads of the figures' running totals."""
        reads = self.reads
        return Log(
            0,
            log.fallen if "defeated" in reads else (),
            tuple(int(bool(h)) for h in log.hurt) if "hit_by" in reads else (),
        )

    # -- 体力 that can still be lost ----------------------------------------------------------

    def _capped(self, s: Chase, later: int) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
        """Every character's 体力 as far as the rest of the chase can tell, and this cut's
        movement damages (unread for 体力 that stays above its cap after 対向車)."""
        clock = (later, s.stage, s.turn, s.order, s.j, s.event, s.falls, s.idle, s.inn, s.moves)
        caps = self._caps.get(clock)
        if caps is None:
            caps = self._caps[clock] = self._chase_caps(s, later)
        moves = list(s.moves) if s.moves else None
        hp = []
        for h, (q, cap, hit) in zip(s.hp, caps, strict=True):
            if h >= cap + hit:
                if hit and moves:
                    moves[q] = 0
                hp.append(cap)
            else:
                hp.append(max(h, 0))
        return tuple(hp), None if moves is None else tuple(moves)

    def _fight_caps(self, s: Fight, acting: int) -> tuple[int, ...]:
        """For each character, one more than the most it can still lose in the battle (the
        fighters of ``acting``'s bits still act this cut; then the chase's runners)."""
        out = []
        later = self.prep.cuts - s.cut
        for c, hits in enumerate(self._hits):
            q = self.slots.index(c) if c in self.slots else -1
            mates = (f for f in self.fighters if s.hp[f] > 0 and f != c)
            runners = (r for r in self.slots if r != c)
            if self._compared(c, mates) or (q >= 0 and self._compared(c, runners)):
                out.append(ANY)
                continue
            left = sum((later + (acting >> f & 1)) * hits[f] for f in self.fighters)
            out.append(1 + left + (len(self.slots) * self._per_cut[q] if q >= 0 else 0))
        return tuple(out)

    def _chase_caps(self, s: Chase, later: int) -> tuple[tuple[int, int, int], ...]:
        """For each character: its runner, one more than the most it can still lose in the
        chase (but 対向車's hit to come of a known movement damage), the most that hit
        can take."""
        out = [(-1, 1, 0)] * len(self.chars)  # out of the chase: standing or not
        for q, c in enumerate(self.slots):
            if not s.inn[q]:
                continue
            if self._compared(
                c, (r for r, i in zip(self.slots, s.inn, strict=True) if i and r != c)
            ):
                out[c] = (q, ANY, 0)
                continue
            left, hit = (later + (s.stage == START)) * self._per_cut[q], 0
            if s.stage != START:
                if (s.stage == MOVING or not s.turn) and s.moves is not None:  # 対向車 to come
                    if s.stage == MOVING and q >= s.j:
                        left += self._oncoming(q)
                    elif s.stage == MOVING or q >= s.j:
                        hit = self._oncoming(q, s.moves[q])
                elif s.stage == MOVING or not s.turn:  # falling objects may come
                    if s.stage == FALL:
                        left += self._fall(q) if s.falls >> q & 1 and q >= s.j else 0
                    elif s.stage < ATTACK or s.event == FALLING:
                        left += self._fall(q)
                acting = range(len(self.slots)) if s.stage == MOVING else s.order[max(s.turn, 1) :]
                left += sum(
                    self._hits[c][self.slots[o]] for o in acting if s.inn[o] and not s.idle >> o & 1
                )
            out[c] = (q, 1 + left, hit)
        return tuple(out)

    def _compared(self, c: int, others: Iterable[int]) -> bool:
        """Whether a tactic compares character ``c``'s 体力 with one of ``others`` (the
        other side targets the weakest, and one of them is on ``c``'s side)."""
        me = self.chars[c]
        policy = self.prep.enemy_policy if me.pc else self.prep.pc_policy
        return policy.target == "lowest_hp" and any(self.chars[o].pc == me.pc for o in others)

    @cached_property
    def _hits(self) -> tuple[tuple[int, ...], ...]:
        """The most one attack of each character can take from each character of the
        other side (``[target][attacker]``; cover and reach left out)."""
        out = [[0] * len(self.chars) for _ in self.chars]
        for (t, it), (a, me) in product(enumerate(self.chars), repeat=2):
            for atk in me.attacks if me.pc != it.pc else ():
                hit = self.rolls.hit(me.value(atk), atk.damage, it.reaction, it.body)
                out[t][a] = max(out[t][a], *hit.outcomes())
        return tuple(map(tuple, out))

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
        return max(rolls.damage(FALLING_DAMAGE, self.chars[self.slots[q]].body).outcomes())

    @cached_property
    def _per_cut(self) -> tuple[int, ...]:
        """The most each runner can lose in one cut of the chase: the worst event, then an
        attack of each runner of the other side."""
        oncoming = 0 in self.rolls.kind.outcomes()
        return tuple(
            max(self._oncoming(q) if oncoming else 0, self._fall(q))
            + sum(self._hits[c][o] for o in self.slots)
            for q, c in enumerate(self.slots)
        )

    @cached_property
    def _reach(self) -> tuple[int, int]:
        """The most a fleeing runner can move forward in one cut, and by 加速 alone."""
        rolls, rolled = self.rolls, self.rolls.check.outcomes()
        reach = speed = 0
        for c, side in zip(self.slots, self.sides, strict=True):
            if side == FLEEING:
                body = self.chars[c].body
                most = max(rolls.speed(body, roll) for roll in rolled)
                reach = max(reach, most + max(0, *(rolls.move(body, roll)[0] for roll in rolled)))
                speed = max(speed, most)
        return reach, speed
