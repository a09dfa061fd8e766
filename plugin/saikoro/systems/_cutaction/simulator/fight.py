"""Cut-action: the fight, cut by cut, as steps of the balance engine's step machine.

Each cut opens with everyone's initiative check, rolled as one acting order
(``Rolls.initiative``, :class:`~.rolls.Rolls`; with many fighters, check by check). On its
turn a fighter picks a target by its side's tactics, closes in on it by a row when it
cannot reach it (out of a row a foe blockades only by winning the agility contest) and
attacks with the attack that deals most. At the cut's end the fight is won when every
enemy of the main mission is down (then the chase, if any), lost when every PC is, and
runs out after the cut limit. Reach and cover are the battle area's
(:class:`~saikoro.systems._cutaction.area.BattleArea`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from saikoro.balance import Battle, Roll, memo
from saikoro.systems._cutaction.area import ROWS, BattleArea, Cover
from saikoro.systems._cutaction.checks import InitiativeEntry, initiative_order

from .cast import Log
from .chase import Chase, ChaseRules
from .prepare import Attack, Prepared

if TYPE_CHECKING:
    from .cast import State, Step

__all__ = ["Fight", "FightRules"]

AREA = BattleArea()

JOINT = 6
"""The most fighters whose initiative is one roll of the acting order (more have too many
orders to list: each rolls its own check, and the engine ranks them once all are made)."""


class Fight(NamedTuple):
    """The fight between two rolls.

    Attributes:
        cut: the cut under way (1 first).
        hp / log: every character's 体力, what the figures count (:class:`~.cast.Log`).
        rows: every character's row.
        order: this cut's acting order (``None``: the initiative is still to roll).
        turn: the acting character's place in ``order``.
        target: its target (-1: not chosen yet).
        moved: its move is over (its attack comes next).
        rolled: the initiative checks' rolls made so far (more than :data:`JOINT` fighters).
    """

    cut: int
    hp: tuple[int, ...]
    log: Log
    rows: tuple[int, ...]
    order: tuple[int, ...] | None = None
    turn: int = 0
    target: int = -1
    moved: bool = False
    rolled: tuple[int, ...] = ()


class FightRules(ChaseRules):
    """The fight's steps (then the chase's, when the fight is won and one follows)."""

    def __init__(self, prep: Prepared) -> None:
        super().__init__(prep)
        self._blockaders = [
            [f for f in self.fighters if self.chars[f].blockade and self.chars[f].pc == pc]
            for pc in (False, True)
        ]

    def fight(self, s: Fight) -> State | Step:
        """What follows ``s`` in the fight: the next state, a roll, or the battle's end."""
        if s.order is None:  # everyone's initiative check
            standing = tuple(f for f in self.fighters if s.hp[f] > 0)
            if len(standing) <= JOINT:
                return Roll(self.rolls.initiative(standing), lambda order: s._replace(order=order))
            return self._checks(s, standing)
        if s.turn == len(s.order):
            return self.cut_end(s)
        a = s.order[s.turn]
        if s.hp[a] <= 0:
            return s._replace(turn=s.turn + 1)
        if s.target < 0:
            return self._aim(s, a)
        if not s.moved:
            return self._close_in(s, a)
        return self._strike(s, a)

    def _checks(self, s: Fight, standing: tuple[int, ...]) -> State | Step:
        """The initiative of more than :data:`JOINT` fighters: each check, then the order."""
        if len(s.rolled) < len(standing):
            return Roll(self.rolls.check, lambda roll: s._replace(rolled=(*s.rolled, roll)))
        entries = []
        for f, roll in zip(standing, s.rolled, strict=True):
            r = self.rolls.result(self.chars[f].body, roll)
            entries.append(InitiativeEntry(str(f), r.achievement, r.fumble, self.chars[f].pc))
        ranked = initiative_order(entries, failed_order=self.settings.failed_initiative_order)
        return s._replace(order=tuple(int(e.name) for e in ranked), rolled=())

    def cut_end(self, s: Fight) -> Fight | Chase | Battle:
        """What follows the cut ``s`` ends: the mission (the chase when one follows, else
        ``win``), then a wipe, then the cut limit (``timeout``); else the next cut."""
        if all(s.hp[d] <= 0 for d in self.prep.defeat):
            if self.prep.chase:
                return self.chase_start(s.hp, s.log, s.cut)
            end = "win"
        elif all(s.hp[p] <= 0 for p in range(self.pcs)):
            end = "wipe"
        elif s.cut == self.prep.cuts:
            end = "timeout"
        else:
            return Fight(s.cut + 1, s.hp, s.log, s.rows)
        # lost before the chase: the fleeing PCs caught, the quarry gone
        return self.end(end, s.hp, s.log, s.cut, None, not self.pcs_flee)

    @memo
    def usable(self, a: int, t: int, row_a: int, row_t: int) -> tuple[tuple[Attack, int], ...]:
        """The attacks ``a`` can make on ``t`` from rows ``row_a`` and ``row_t`` with their
        success values (the battle area's cover and reach)."""
        me, it = self.chars[a], self.chars[t]
        mine, theirs = ROWS[row_a], ROWS[row_t]
        out = []
        for atk in me.attacks:
            if not AREA.can_attack(me.cover, ranged=not atk.melee):
                continue
            if atk.melee:
                value = me.body if AREA.can_melee(mine, theirs) else None
            else:
                value = AREA.ranged_success_value(me.head, mine, theirs, it.cover)
            if value is not None:
                out.append((atk, value))
        return tuple(out)

    def _aim(self, s: Fight, a: int) -> State | Step:
        """``a`` picks its target among the foes it can attack (any foe when it can attack
        none); with no foe standing the cut's turns are over."""
        pc = self.chars[a].pc
        foes = [f for f in self.fighters if s.hp[f] > 0 and self.chars[f].pc != pc]
        if not foes:
            return s._replace(turn=len(s.order or ()))
        candidates = [f for f in foes if self.usable(a, f, s.rows[a], s.rows[f])] or foes
        return self.aim(a, candidates, s.hp, lambda t: s._replace(target=t))

    def _close_in(self, s: Fight, a: int) -> State | Step:
        """A melee fighter out of reach moves one row towards its target (tactic
        ``close_in``); out of a row a foe blockades only by winning the agility contest."""
        me, t, rows = self.chars[a], s.target, s.rows
        stay = s._replace(moved=True)
        if self.usable(a, t, rows[a], rows[t]) or not self.policy(a).close_in or rows[t] == rows[a]:
            return stay
        if me.blockade or me.cover is not Cover.NONE:  # it holds its row, its cover
            return stay
        row = rows[a] + (1 if rows[t] > rows[a] else -1)
        went = stay._replace(rows=(*rows[:a], row, *rows[a + 1 :]))
        blockers = tuple(
            self.chars[b].body
            for b in self._blockaders[not me.pc]
            if s.hp[b] > 0 and rows[b] == rows[a]
        )
        if not blockers:
            return went
        return Roll(self.rolls.contest(me.body, blockers), lambda x: stay if x else went)

    def _strike(self, s: Fight, a: int) -> State | Step:
        """The attack with the most damage (then the highest success value) on the target."""
        t = s.target
        done = s._replace(turn=s.turn + 1, target=-1, moved=False)
        usable = self.usable(a, t, s.rows[a], s.rows[t])
        if not usable:
            return done
        atk, value = max(usable, key=lambda av: (av[0].damage, av[1]))

        def struck(loss: int) -> Fight:
            hp, log = self.hurt(s.hp, s.log, t, loss, a, atk.name)
            return done._replace(hp=hp, log=log)

        it = self.chars[t]
        return Roll(self.rolls.hit(value, atk.damage, it.reaction, it.body), struck)
