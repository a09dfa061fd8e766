"""カットアクション (cut actions): checks, damage, the battle area and chase combat.

The rule text does not name its dice; saikoro rolls under a success value with 1D10
(ruling ``cutaction.check_dice``, option ``check_dice``).

>>> s = CutAction()
>>> from saikoro.dice import DiceSource
>>> s.roll_command("CA7", DiceSource(dice=[(10, 9)])).text
'(CA7) ＞ 9 ＞ 達成値-2 ＞ 失敗'
>>> CutAction(check_dice="2D6").odds_command("CA7").success
Fraction(7, 12)
>>> s.board().distance("自陣本営", "敵陣本営")
4
>>> s.roll_command("2D6", DiceSource(dice=[])) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from saikoro.dice import DiceSource, Odds, Roll
from saikoro.systems._base import FAN_WORK, Board, RightsNotice, System
from saikoro.systems._flow import Flow

from . import commands
from .area import ROWS, BattleArea, Cover
from .chase import CHASE_EVENTS, Chase, ChaseEvent, EventOutcome, Runner, chase_event, chase_target
from .checks import (
    CheckResult,
    ContestOdds,
    InitiativeEntry,
    achievement_dist,
    check_probability,
    check_results,
    contest_odds,
    contest_wins,
    initiative_order,
    obstruct_dist,
    resolve_check,
)
from .damage import Condition, DamageResult, damage_dist, damage_table, resolve_damage
from .errors import CutActionError
from .flows import flows as _flows
from .reference import COMMANDS
from .rulings import RULINGS, Settings

__all__ = [
    "CHASE_EVENTS",
    "ROWS",
    "SYSTEM",
    "BattleArea",
    "Chase",
    "ChaseEvent",
    "CheckResult",
    "Condition",
    "ContestOdds",
    "Cover",
    "CutAction",
    "CutActionError",
    "DamageResult",
    "EventOutcome",
    "InitiativeEntry",
    "Runner",
    "achievement_dist",
    "chase_event",
    "chase_target",
    "check_probability",
    "check_results",
    "contest_odds",
    "contest_wins",
    "damage_dist",
    "damage_table",
    "initiative_order",
    "obstruct_dist",
    "resolve_check",
    "resolve_damage",
]


class CutAction(System):
    """The cut-action rules (registry id ``cutaction``)."""

    id = "cutaction"
    sample_scenario = "saikoro.systems._cutaction:sample.yaml"
    sample_flow = "cutaction.cut"
    name = "カットアクション"
    rights = RightsNotice(
        game="カットアクション",
        holder="ルールの作者",
        guideline=FAN_WORK,
        source="ルールを公開している wiki",
    )
    aliases = (
        "カットアクションルール",
        "カット行動",
        "カットアクション戦闘",
        "cut action",
        "cutactions",
    )
    commands = COMMANDS
    rulings = RULINGS

    __slots__ = ()

    @property
    def settings(self) -> Settings:
        """The options as the commands read them."""
        return Settings.from_options(self.options)

    @property
    def dice(self) -> str:
        """The check dice in force (option ``check_dice``)."""
        return str(self.option("check_dice"))

    def check(self, success_value: int, roll: int, *, target: int = 0) -> CheckResult:
        """A check resolved with the dice in force."""
        return resolve_check(success_value, roll, target=target, dice=self.dice)

    def contest_wins(self, active: CheckResult, passive: Sequence[CheckResult]) -> bool:
        """Whether ``active`` beats the best of ``passive`` (option ``contest_rule``)."""
        return contest_wins(active, passive, rule=str(self.option("contest_rule")))

    def initiative_order(self, entries: Iterable[InitiativeEntry]) -> list[InitiativeEntry]:
        """The acting order of a cut (option ``failed_initiative_order``).

        >>> s = CutAction(failed_initiative_order="lowest_first")
        >>> entries = [InitiativeEntry("a", -1), InitiativeEntry("b", -4)]
        >>> [e.name for e in s.initiative_order(entries)]
        ['b', 'a']
        """
        return initiative_order(entries, failed_order=str(self.option("failed_initiative_order")))

    def resolve_damage(
        self, damage: int, resist: CheckResult | None, *, exhausted: bool = False
    ) -> DamageResult:
        """A hit after the body resist check (options ``resist_failure``,
        ``exhausted_resist_fails``)."""
        auto = exhausted and bool(self.option("exhausted_resist_fails"))
        failure = str(self.option("resist_failure"))
        return resolve_damage(damage, None if auto else resist, failure=failure, auto_fail=auto)

    def start_chase(
        self,
        entries: Iterable[tuple[str, str, int] | tuple[str, str, int, bool]],
        *,
        target: int | None = None,
    ) -> Chase:
        """A chase under the options in force (``chase_drop``); see :meth:`Chase.start`.

        >>> s = CutAction(chase_drop="cut_end")
        >>> s.start_chase([("A", "逃走", 9), ("B", "追跡", 1)]).order()
        ['A', 'B']
        >>> CutAction().start_chase([("A", "逃走", 9), ("B", "追跡", 1)]).order()
        ['A']
        """
        return Chase.start(entries, target=target, drop_rule=str(self.option("chase_drop")))

    def chase_escaped(self, chase: Chase, *, cast: int) -> bool | None:
        """Whether the fleeing side of ``chase`` got away (options ``chase_time_limit``,
        ``chase_dead_end``); ``None`` while the chase goes on.

        >>> c = CutAction().start_chase([("A", "逃走", 2), ("B", "追跡", 5)]).end_cut()
        >>> c = c.end_cut()
        >>> leader = CutAction(chase_time_limit="leader")
        >>> CutAction().chase_escaped(c, cast=2), leader.chase_escaped(c, cast=2)
        (True, False)
        """
        return chase.escaped(
            cast=cast,
            time_limit=str(self.option("chase_time_limit")),
            dead_end=str(self.option("chase_dead_end")),
        )

    def move_check(self, chase: Chase, name: str, check: CheckResult) -> Chase:
        """Add a movement check to a chase (option ``failed_move``)."""
        return chase.move_check(name, check, failed_move=str(self.option("failed_move")))

    def move_checks(self, chase: Chase, checks: Mapping[str, CheckResult]) -> Chase:
        """The initiative timing's movement checks, together (option ``failed_move``)."""
        return chase.move_checks(checks, failed_move=str(self.option("failed_move")))

    def roll_command(self, command: str, source: DiceSource) -> Roll | None:
        """Roll a cut-action command (``CA CAI CAR CAC CAO CAD CAA CET CFO``)."""
        return commands.roll_command(command, source, self.settings)

    def odds_command(self, command: str) -> Odds | None:
        """Exact odds of a cut-action command."""
        return commands.odds_command(command, self.settings)

    def flows(self) -> Mapping[str, Flow]:
        """The cut, damage, recovery, escape, chase and chase-event procedures."""
        return _flows()

    def board(self) -> Board | None:
        """The five-row battle area."""
        return BattleArea()


SYSTEM = CutAction
