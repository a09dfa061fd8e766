"""The nation-building game (国力): cooperative checks and national-power battles.

Checks are ability + base dice (1D10 by default, see the rulings). The middle phase
chains support checks until a target is reached; the final phase is a battle in which
national power (国力) is the gauge, attack and defence checks are built up with
support, ties go to the attacker, and the damage is the difference between the attack
side's and the defence side's final values.

>>> from saikoro.dice import DiceSource
>>> s = Kokuryoku()
>>> s.roll_command("KKM[3,3]>=20G25", DiceSource(dice=[(10, 6), (10, 9)])).text
'(KKM[3,3]>=20G25) ＞ 6[6]+3=9, 9[9]+3=12 ＞ 21 ＞ 成功 ＞ 国力+25'
>>> s.odds_command("KKD3+6VS6").distribution[4]
Fraction(9, 100)
>>> Kokuryoku(die=6).odds_command("KK0").distribution[6]
Fraction(1, 6)
"""

from __future__ import annotations

from collections.abc import Mapping

from saikoro.dice import DiceSource, Odds, Roll
from saikoro.systems._base import FAN_WORK, OptionValue, RightsNotice, System
from saikoro.systems._flow import Flow

from . import checks
from .checks import (
    AttackResult,
    CooperativeResult,
    attack,
    base_dist,
    check,
    contest,
    cooperative,
    damage,
    first_player,
    gain_for,
    group_total,
)
from .commands import odds_command, roll_command
from .flows import FLOWS
from .reference import COMMANDS
from .rulings import RULINGS, Settings

__all__ = [
    "SYSTEM",
    "AttackResult",
    "CooperativeResult",
    "Kokuryoku",
    "attack",
    "base_dist",
    "check",
    "checks",
    "contest",
    "cooperative",
    "damage",
    "first_player",
    "gain_for",
    "group_total",
]


class Kokuryoku(System):
    """The nation-building game: national power as a gauge, support checks."""

    __slots__ = ()

    id = "kokuryoku"
    sample_scenario = "saikoro.systems._kokuryoku:sample.yaml"
    sample_flow = "kokuryoku.middle_check"
    name = "国力ゲーム（国家運営TRPG）"
    rights = RightsNotice(
        game="国力ゲーム（国家運営TRPG）",
        holder="ルールの作者",
        guideline=FAN_WORK,
        source="作者による判定方法の解説記事",
    )
    aliases = ("国力", "国力ゲーム", "国家運営", "nation", "kokuryoku-game")
    commands = COMMANDS
    rulings = RULINGS

    def __init__(self, **options: OptionValue) -> None:
        super().__init__(**options)
        self._int_option("die", 2, 20, " sides")
        self._int_option("die_count", 1, 3)
        self._int_option("damage_floor", 0)

    @property
    def settings(self) -> Settings:
        """The options as the commands read them."""
        return Settings.from_options(self.options)

    def roll_command(self, command: str, source: DiceSource) -> Roll | None:
        """Roll a ``KK`` command (see :mod:`.commands`)."""
        if not command.startswith("KK"):
            return None
        return roll_command(command, source, self.settings)

    def odds_command(self, command: str) -> Odds | None:
        """Exact odds of a ``KK`` command."""
        if not command.startswith("KK"):
            return None
        return odds_command(command, self.settings)

    def flows(self) -> Mapping[str, Flow]:
        """Middle-phase check, final-phase round, attack, and support actions."""
        return dict(FLOWS)


SYSTEM = Kokuryoku
