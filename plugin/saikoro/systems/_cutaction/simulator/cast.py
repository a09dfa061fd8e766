"""Cut-action: who is in one encounter's battles, what a hit does to them, how a battle ends.

A battle's state keeps every character's 体力 (PCs first, as :attr:`Prepared.chars
<.prepare.Prepared.chars>`) and a :class:`Log` of what its figures count; :class:`Cast`
applies a hit to both and makes the :class:`~saikoro.balance.Battle` at the end.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple, TypeAlias

from saikoro.balance import Battle, End, Policy, Roll
from saikoro.systems._cutaction import chase as engine
from saikoro.systems._cutaction.chase import FLEEING, PURSUING

from .prepare import Prepared
from .rolls import Rolls

if TYPE_CHECKING:
    from .chase import Chase
    from .fight import Fight

__all__ = ["ENDS", "END_KEYS", "Cast", "Log", "State", "Step"]

State: TypeAlias = "Fight | Chase"
"""A battle between two rolls: in the fight or in the chase."""
Step: TypeAlias = "Roll[State] | Battle"
"""What comes next: a roll, or the battle's end."""

ENDS: Mapping[str, End] = MappingProxyType(
    {
        "win": End("勝利（メインミッションのエネミーを倒した）", True),
        "wipe": End("全滅（PCが全員消耗）", False),
        "timeout": End("時間切れ（戦闘のカット上限）", False),
        # the PCs flee
        "chase_goal": End("チェイス: 目標値に着いて逃げ切った", True),
        "chase_shaken": End("チェイス: 追跡側が全員脱落して逃げ切った", True),
        "chase_time_escaped": End("チェイス: カットの上限まで捕まらずに逃げ切った", True),
        "chase_dead_end_escaped": End("チェイス: 行き止まりで終わり、捕まらなかった", True),
        "chase_caught": End("チェイス: 追いつかれ、封鎖されて捕まった", False),
        "chase_time_overtaken": End("チェイス: カットの上限で追跡側に先頭を取られていた", False),
        "chase_dead_end_cornered": End("チェイス: 行き止まりで追い詰められた", False),
        # either way
        "chase_pcs_out": End("チェイス: PCが全員脱落した（引き離された・イベント・消耗）", False),
        # the PCs pursue
        "chase_quarry_caught": End("チェイス: 逃げる相手に追いつき、封鎖して捕まえた", True),
        "chase_quarry_out": End("チェイス: 逃げる相手が全員脱落した", True),
        "chase_quarry_time_overtaken": End(
            "チェイス: カットの上限で逃げる相手から先頭を奪っていた", True
        ),
        "chase_quarry_cornered": End("チェイス: 行き止まりで逃げる相手を追い詰めた", True),
        "chase_quarry_goal": End("チェイス: 逃げる相手が目標値に着いた", False),
        "chase_quarry_time": End("チェイス: カットの上限まで逃げる相手を捕まえられなかった", False),
        "chase_quarry_dead_end": End(
            "チェイス: 行き止まりで終わり、逃げる相手を捕まえられなかった", False
        ),
    }
)
"""Every way a cut-action battle ends, from the PCs' side (the fight's three, the chase's
by its end and by who flees; rulings ``chase_caught``, ``chase_time_limit``,
``chase_dead_end``)."""

END_KEYS: dict[tuple[str, bool, bool], str] = {
    # (why the chase ended, the PCs flee, the fleeing side got away): the battle's end
    (engine.END_GOAL, True, True): "chase_goal",
    (engine.END_PURSUING_OUT, True, True): "chase_shaken",
    (engine.END_TIME, True, True): "chase_time_escaped",
    (engine.END_TIME, True, False): "chase_time_overtaken",
    (engine.END_DEAD_END, True, True): "chase_dead_end_escaped",
    (engine.END_DEAD_END, True, False): "chase_dead_end_cornered",
    (engine.END_CAPTURED, True, False): "chase_caught",
    (engine.END_FLEEING_OUT, True, False): "chase_pcs_out",
    (engine.END_GOAL, False, True): "chase_quarry_goal",
    (engine.END_PURSUING_OUT, False, True): "chase_pcs_out",
    (engine.END_TIME, False, True): "chase_quarry_time",
    (engine.END_TIME, False, False): "chase_quarry_time_overtaken",
    (engine.END_DEAD_END, False, True): "chase_quarry_dead_end",
    (engine.END_DEAD_END, False, False): "chase_quarry_cornered",
    (engine.END_CAPTURED, False, False): "chase_quarry_caught",
    (engine.END_FLEEING_OUT, False, False): "chase_quarry_out",
}
"""The battle's end (a key of :data:`ENDS`) when the chase is over (rulings ``chase_caught``,
``chase_time_limit``, ``chase_dead_end``)."""


class Log(NamedTuple):
    """What a battle's figures count, so far.

    Attributes:
        dealt: 体力 the PCs' attacks took from the enemies.
        fallen: the enemies that fell (their indices among the enemies), in order.
        hurt: 体力 each enemy attack took from the PCs (in the order of ``Cast.actions``).
    """

    dealt: int
    fallen: tuple[int, ...]
    hurt: tuple[int, ...]


class Cast:
    """The characters of ``prep``'s battles: the fight's, the chase's runners, their rolls."""

    def __init__(self, prep: Prepared) -> None:
        self.prep = prep
        self.settings = prep.settings
        self.rolls = Rolls(prep)
        self.chars = prep.chars
        self.pcs = prep.pcs
        self.fighters = (*range(prep.pcs), *prep.fight)
        """The characters of the fight (PCs first)."""
        self.slots: tuple[int, ...] = (*range(prep.pcs), *prep.chase.runners) if prep.chase else ()
        """The chase's runners (characters): a chase state counts runners in this order."""
        self.pcs_flee = prep.chase is None or prep.chase.pcs_flee
        pcs, enemies = (FLEEING, PURSUING) if self.pcs_flee else (PURSUING, FLEEING)
        self.sides = tuple(pcs if self.chars[c].pc else enemies for c in self.slots)
        self.actions = tuple(
            (c, a.name) for c in range(prep.pcs, len(self.chars)) for a in self.chars[c].attacks
        )
        """Every enemy attack (character, name): what :attr:`Log.hurt` counts."""

    def policy(self, c: int) -> Policy:
        """The tactics of character ``c``'s side."""
        return self.prep.pc_policy if self.chars[c].pc else self.prep.enemy_policy

    def aim(
        self, actor: int, candidates: list[int], hp: tuple[int, ...], then: Callable[[int], State]
    ) -> State | Step:
        """What follows the actor's choice of a target among ``candidates`` by its side's
        tactics (``random``: a roll)."""
        target = self.policy(actor).target
        if target == "random" and len(candidates) > 1:
            return Roll(self.rolls.uniform(len(candidates)), lambda i: then(candidates[i]))
        if target == "most_dangerous":
            return then(max(candidates, key=lambda c: (self.chars[c].danger, -c)))
        return then(min(candidates, key=lambda c: (hp[c], c)))

    def hurt(  # noqa: PLR0917 - the hit, then who dealt it
        self, hp: tuple[int, ...], log: Log, c: int, loss: int, by: int = -1, attack: str = ""
    ) -> tuple[tuple[int, ...], Log]:
        """``hp`` and ``log`` once character ``c`` has lost ``loss`` 体力 to ``by``'s
        ``attack`` (-1: a chase event's; a hit's 負傷 never lowers 体力 further: its 体力
        loss is at least its 負傷, so the lowered maximum stays above what is left)."""
        if not loss:
            return hp, log
        dealt, fallen, hurt = log
        if c >= self.pcs:
            dealt += loss if 0 <= by < self.pcs else 0
            if hp[c] > 0 >= hp[c] - loss:
                fallen = (*fallen, self.chars[c].index)
        elif by >= self.pcs:
            k = self.actions.index((by, attack))
            hurt = (*hurt[:k], hurt[k] + loss, *hurt[k + 1 :])
        return (*hp[:c], hp[c] - loss, *hp[c + 1 :]), Log(dealt, fallen, hurt)

    def end(  # noqa: PLR0917 - what a battle's end reads
        self, end: str, hp: tuple[int, ...], log: Log, rounds: int, chase: int | None, fled: bool
    ) -> Battle:
        """The battle that ended as ``end`` after ``rounds`` cuts (the fight's, when there is
        one) and ``chase`` cuts of the chase (``None``: the fight was lost before it), the
        chase's fleeing side away or not (``fled``)."""
        facts: dict[str, int] = {}
        sums: tuple[tuple[str, int], ...] = ()
        if self.prep.chase is not None:
            facts["escaped"] = int(fled)
            sums = (("escaped", int(fled)),)
            if self.prep.defeat:
                sums += (("fight_won", int(chase is not None)), ("chase_cuts", chase or 0))
        pcs = range(self.pcs)
        return Battle(
            win=ENDS[end].win,
            end=end,
            rounds=rounds,
            downed=tuple(hp[c] <= 0 for c in pcs),
            taken=sum(self.chars[c].hp - hp[c] for c in pcs),
            defeated=log.fallen,
            facts=facts,
            dealt=log.dealt,
            actions=tuple(
                (f"{self.chars[c].key}:{name}", v)
                for (c, name), v in zip(self.actions, log.hurt, strict=True)
                if v
            ),
            sums=sums,
        )
