"""Cut-action: who is in one encounter's battles, what a hit does to them, how a battle ends.

A battle's state keeps every character's 体力 (PCs first, as :attr:`Prepared.chars
<.prepare.Prepared.chars>`) and a :class:`Log` of what its figures count; :class:`Cast`
applies a hit to both and makes the battle's :class:`~saikoro.balance.Battle` at its end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, TypeAlias

from saikoro.balance import Battle, Policy, Roll
from saikoro.systems._cutaction.chase import FLEEING, PURSUING

from .prepare import Prepared
from .rolls import Rolls

if TYPE_CHECKING:
    from .chase import Chase
    from .fight import Fight

__all__ = ["ESCAPES", "NOBODY", "Cast", "Log", "State", "Step"]

State: TypeAlias = "Fight | Chase"
"""A battle between two rolls: in the fight or in the chase."""
Step: TypeAlias = "Roll[State] | Battle"
"""What comes next: a roll, or the battle's end."""


class Log(NamedTuple):
    """What a battle's figures count, so far.

    Attributes:
        dealt: 体力 the PCs' attacks took from the enemies.
        fallen: the enemies that fell (indices among the enemies), in order.
        hurt: 体力 each enemy attack took from the PCs (:attr:`Cast.actions`' order).
    """

    dealt: int
    fallen: tuple[int, ...]
    hurt: tuple[int, ...]


NOBODY = -1
"""Who dealt a hit that is no one's attack (a chase event)."""

ESCAPES = frozenset(
    {
        "chase_goal",
        "chase_shaken",
        "chase_time_escaped",
        "chase_dead_end_escaped",
        "chase_quarry_goal",
        "chase_quarry_time",
        "chase_quarry_dead_end",
    }
)
"""The ends in which the chase's fleeing side got away (PCs fleeing or not)."""


class Cast:
    """The characters of ``prep``'s battles: the fight's, the chase's runners, their rolls."""

    def __init__(self, prep: Prepared, wins: frozenset[str]) -> None:
        self.prep = prep
        self.settings = prep.settings
        self.wins = wins
        self.rolls = Rolls(prep)
        self.chars = prep.chars
        self.pcs = prep.pcs
        self.fighters = (*range(prep.pcs), *prep.fight)
        """The characters of the fight (PCs first)."""
        plan = prep.chase
        self.slots: tuple[int, ...] = (*range(prep.pcs), *plan.runners) if plan else ()
        """The chase's runners (characters); a chase state counts its runners in this order."""
        self.pcs_flee = plan is None or plan.pcs_flee
        pcs_side = FLEEING if self.pcs_flee else PURSUING
        other = PURSUING if pcs_side == FLEEING else FLEEING
        self.sides = tuple(pcs_side if self.chars[c].pc else other for c in self.slots)
        self.actions = tuple(
            (c, a.name) for c in range(prep.pcs, len(self.chars)) for a in prep.chars[c].attacks
        )
        """Every enemy attack (character, name): what :attr:`Log.hurt` counts."""
        self.start_hp = tuple(c.hp for c in self.chars)

    def policy(self, c: int) -> Policy:
        """The tactics of character ``c``'s side."""
        return self.prep.pc_policy if self.chars[c].pc else self.prep.enemy_policy

    def choose(self, actor: int, candidates: list[int], hp: tuple[int, ...]) -> int | None:
        """The target among ``candidates`` by the actor's tactics (``None``: the ``random``
        policy's roll picks it)."""
        target = self.policy(actor).target
        if target == "random":
            return None if len(candidates) > 1 else candidates[0]
        if target == "most_dangerous":
            return max(candidates, key=lambda c: (self.chars[c].danger, -c))
        return min(candidates, key=lambda c: (hp[c], c))

    def hurt(
        self, hp: tuple[int, ...], log: Log, c: int, loss: int, by: int = NOBODY, attack: str = ""
    ) -> tuple[tuple[int, ...], Log]:
        """``hp`` and ``log`` once character ``c`` has lost ``loss`` 体力 to ``by``'s
        ``attack`` (a hit's 負傷 never lowers 体力 further: its 体力 loss is at least its
        負傷, so the lowered maximum stays above what is left)."""
        if not loss:
            return hp, log
        left = hp[c] - loss
        dealt, fallen, hurt = log
        if c >= self.pcs:
            if 0 <= by < self.pcs:
                dealt += loss
            if left <= 0 < hp[c]:
                fallen = (*fallen, self.chars[c].index)
        elif by >= self.pcs:
            k = self.actions.index((by, attack))
            hurt = (*hurt[:k], hurt[k] + loss, *hurt[k + 1 :])
        return (*hp[:c], left, *hp[c + 1 :]), Log(dealt, fallen, hurt)

    def end(
        self, end: str, hp: tuple[int, ...], log: Log, rounds: int, chase_cuts: int = 0
    ) -> Battle:
        """The battle that ended as ``end`` after ``rounds`` cuts (the fight's, when there
        is one) and ``chase_cuts`` of the chase."""
        prep = self.prep
        facts: dict[str, int] = {}
        sums: list[tuple[str, int]] = []
        if prep.chase is not None:
            # a fight lost before the chase: the fleeing PCs caught, or the quarry gone
            fight = end in ("win", "wipe", "timeout")
            fled = int(not self.pcs_flee if fight else end in ESCAPES)
            facts["escaped"] = fled
            sums.append(("escaped", fled))
            if prep.defeat:
                sums += [("fight_won", int(not fight)), ("chase_cuts", chase_cuts)]
        pcs = range(self.pcs)
        return Battle(
            win=end in self.wins,
            end=end,
            rounds=rounds,
            downed=tuple(hp[c] <= 0 for c in pcs),
            taken=sum(self.start_hp[c] - hp[c] for c in pcs),
            defeated=log.fallen,
            facts=facts,
            dealt=log.dealt,
            actions=tuple(
                (f"{self.chars[c].key}:{name}", v)
                for (c, name), v in zip(self.actions, log.hurt, strict=True)
                if v
            ),
            sums=tuple(sums),
        )
