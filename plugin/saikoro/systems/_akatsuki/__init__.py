"""君ヨ、暁ノ大地ニ死スベシ (``akatsuki``): 2D6 roll-under checks with awakening cards.

>>> from saikoro.dice import DiceSource
>>> SYSTEM().roll_command("AK7Z", DiceSource(dice=[(6, 3), (6, 3)])).text
'(AK7Z) ＞ 目標値7 ＞ 6[3,3] ＞ ゾロ目 ＞ 成功 ＞ 達成度2 ＞ 覚醒札1枚獲得'
>>> SYSTEM().odds_command("AK5").success
Fraction(5, 18)
>>> SYSTEM().roll_command("2D6", DiceSource(dice=[])) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping

from saikoro.dice import DiceSource, Odds, Roll
from saikoro.systems._base import FAN_WORK, OptionValue, RightsNotice, System
from saikoro.systems._flow import Flow

from .cards import AwakeningHand, CardError, reward_after_check
from .checks import (
    AfterMode,
    CheckResult,
    CheckRules,
    CheckSpec,
    CheckSpecError,
    CheckStatus,
    can_support,
    resolve_check,
    supporter_bonus,
    target_value,
)
from .commands import (
    format_check,
    format_opposed,
    odds_command,
    parse_check,
    parse_opposed,
    roll_command,
)
from .flows import FLOWS
from .odds import (
    check_odds,
    enumerate_check,
    opposed_dist,
    opposed_odds,
    outcome_dist,
    success_probability,
)
from .opposed import BothFail, OpposedKind, OpposedResult, Winner, resolve_opposed
from .reference import COMMANDS
from .rulings import RULINGS, Settings

__all__ = [
    "SYSTEM",
    "AfterMode",
    "Akatsuki",
    "AwakeningHand",
    "BothFail",
    "CardError",
    "CheckResult",
    "CheckRules",
    "CheckSpec",
    "CheckSpecError",
    "CheckStatus",
    "OpposedKind",
    "OpposedResult",
    "Winner",
    "can_support",
    "check_odds",
    "enumerate_check",
    "format_check",
    "format_opposed",
    "opposed_dist",
    "opposed_odds",
    "outcome_dist",
    "parse_check",
    "parse_opposed",
    "resolve_check",
    "resolve_opposed",
    "reward_after_check",
    "success_probability",
    "supporter_bonus",
    "target_value",
]


class Akatsuki(System):
    """君ヨ、暁ノ大地ニ死スベシ: checks, opposed checks, support, boosts and their odds."""

    id = "akatsuki"
    sample_scenario = "saikoro.systems._akatsuki:sample.yaml"
    sample_flow = "akatsuki.check"
    name = "君ヨ、暁ノ大地ニ死スベシ"
    rights = RightsNotice(
        game="君ヨ、暁ノ大地ニ死スベシ。",
        holder="九城ツカサ／石造りのヒポグリフ",
        guideline=(
            "作者は著作権を保持しており、ルール文の無断転載・複製・配布を認めていません。"
            + FAN_WORK
        ),
        source="作者の公開したルール文書",
    )
    aliases = ("君ヨ、暁ノ大地ニ死スベシ。", "暁ノ大地", "キミアカ", "Akatsuki", "KimiyoAkatsuki")
    commands = COMMANDS
    rulings = RULINGS

    __slots__ = ()

    def __init__(self, **options: OptionValue) -> None:
        super().__init__(**options)
        self._int_option("card_points", 1, 99)

    @property
    def settings(self) -> Settings:
        """The options as the commands read them."""
        return Settings.from_options(self.options)

    @property
    def both_fail(self) -> BothFail:
        """The both-fail ruling in force."""
        return self.settings.both_fail

    def roll_command(self, command: str, source: DiceSource) -> Roll | None:
        """Roll ``AK…`` checks and ``AK[R|I|C]…/…`` opposed checks."""
        return roll_command(command, source, self.settings)

    def odds_command(self, command: str) -> Odds | None:
        """Exact odds of ``AK…`` and ``AK[R|I|C]…/…``."""
        return odds_command(command, self.settings)

    def flows(self) -> Mapping[str, Flow]:
        """Check, opposed check, support and boost procedures."""
        return dict(FLOWS)


SYSTEM = Akatsuki
