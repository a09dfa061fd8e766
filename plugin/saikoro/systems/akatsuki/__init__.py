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
from saikoro.systems.base import CommandDoc, System
from saikoro.systems.flow import Flow

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
from .commands import format_check, format_opposed, parse_check, parse_opposed, run_odds, run_roll
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
from .rulings import RULINGS

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

_TOKENS = (
    ("Z", "スタイルが得意分野（ゾロ目の効果が有効）"),
    ("D±n", "基本難易度：+1 簡単、0 普通、-1 手強い、-2 困難、-3 至難、-4以下は超人のみ"),
    ("Pn", "下準備の修正 +1〜+3"),
    ("H…", "サポーター（2人まで）：1人ごとに 1（人並み以上）か 2（専門家・超人）を並べる"),
    ("Bn", "事前ブースト：振る前に使った覚醒札の覚醒ポイント合計"),
    ("An", "事後ブースト：振った後に必ず n 枚使う（1枚+1）"),
    ("Un", "事後ブースト：失敗したときだけ、成功に必要な最少枚数を n 枚まで使う"),
    ("±n", "その他の修正（業物のバフ、高天力など）"),
)

COMMANDS: tuple[CommandDoc, ...] = (
    CommandDoc(
        syntax="AK[能力レベル][修正…]",
        summary=(
            "行為判定。2D6の合計が目標値以下なら成功。目標値が2未満なら振らずに自動失敗。"
            "Z を付けると得意分野のゾロ目（成功・覚醒札・達成度+1）を扱う。"
        ),
        examples=("AK7", "AK7Z", "AK6D-1P1H1", "AK9ZD-4H2", "AK5B3", "AK6ZU2"),
        parameters=(("能力レベル", "判定に使う能力のレベル（0〜99）"), *_TOKENS),
    ),
    CommandDoc(
        syntax="AK[R|I|C][能動側]/[受動側]",
        summary=(
            "対抗判定。両者成功なら達成度、同じなら目標値、それも同じなら種別で勝敗を決める"
            "（R 抵抗：受動側、I 妨害：能動側、C 競争：引き分け）。各側は AK の後ろと同じ書き方。"
        ),
        examples=("AKR7/6", "AKI8Z/7D-1", "AKC6Z/6Z", "AKR5H1/9Z"),
        parameters=(
            ("R / I / C", "抵抗 / 妨害 / 競争"),
            ("能動側", "行為を行う側の能力レベルと修正（例 7ZP1）"),
            ("受動側", "それに挑む側の能力レベルと修正"),
        ),
    ),
)


class Akatsuki(System):
    """君ヨ、暁ノ大地ニ死スベシ: checks, opposed checks, support, boosts and their odds."""

    id = "akatsuki"
    scenario_def = "saikoro.scenario.defs.akatsuki"
    page_profile = "saikoro.site.profiles.akatsuki"
    vtt_export = "saikoro.export.akatsuki"
    name = "君ヨ、暁ノ大地ニ死スベシ"
    aliases = ("君ヨ、暁ノ大地ニ死スベシ。", "暁ノ大地", "キミアカ", "Akatsuki", "KimiyoAkatsuki")
    commands = COMMANDS
    rulings = RULINGS

    __slots__ = ()

    @property
    def check_rules(self) -> CheckRules:
        """The check rulings in force."""
        return CheckRules(
            alpha=str(self.option("alpha")),
            beta_achievement=str(self.option("beta_achievement")),
        )

    @property
    def both_fail(self) -> BothFail:
        """The both-fail ruling in force."""
        return BothFail(str(self.option("both_fail")))

    def roll_command(self, command: str, source: DiceSource) -> Roll | None:
        """Roll ``AK…`` checks and ``AK[R|I|C]…/…`` opposed checks."""
        return run_roll(command, source, self.check_rules, self.both_fail)

    def odds_command(self, command: str) -> Odds | None:
        """Exact odds of ``AK…`` and ``AK[R|I|C]…/…``."""
        return run_odds(command, self.check_rules, self.both_fail)

    def flows(self) -> Mapping[str, Flow]:
        """Check, opposed check, support and boost procedures."""
        return dict(FLOWS)


SYSTEM = Akatsuki
