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
from saikoro.systems.base import CommandDoc, OptionValue, System
from saikoro.systems.flow import Flow

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
from .commands import Settings, odds_command, roll_command
from .flows import FLOWS
from .rulings import RULINGS

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

_COMMANDS: tuple[CommandDoc, ...] = (
    CommandDoc(
        "KK[能力値][±修正]>=[目標値]",
        "能力値＋ダイス（既定 1D10）の判定。目標値は省略できる。",
        ("KK3", "KK3>=9", "KK2+1>=8"),
        (
            ("能力値", "判定に使う能力値"),
            ("修正", "スキルなどの修正（任意）"),
            ("目標値", "これ以上で成功（任意）"),
        ),
    ),
    CommandDoc(
        "KKM[能力値,能力値,...]>=[目標値]G[増加国力]",
        "中間フェーズの支援つき判定。起点から順に振り、合計が目標値に届いた時点で止まる。"
        "成功なら増加国力のすべて、失敗なら半分（切り捨て）を得る。",
        ("KKM[3,3]>=20G25", "KKM[3,2,2,1]>=25G30", "KKM[4]>=10"),
        (
            ("能力値", "起点、支援1人目、2人目…が使う能力値"),
            ("目標値", "合計の目標"),
            ("増加国力", "成功時に加わる国力（任意）"),
        ),
    ),
    CommandDoc(
        "KKA[攻撃側の能力値,...]/[攻撃力]VS[防御側の能力値,...]/[防御力]>=[ダメージ]",
        "最終フェーズの攻撃。攻撃側と防御側がそれぞれ支援込みで判定し、合計を比べる"
        "（同値は攻撃側の勝ち）。/攻撃力 を付けると勝ったときのダメージ"
        "（攻撃力＋ダイス−防御力−ダイス）まで求める。VS- はリアクションなし。",
        ("KKA[3,2]VS[3,2]", "KKA[3,2]/3+6VS[3,2]/6", "KKA[3]/9VS-", "KKA[3,2]/9VS[3]/6>=5"),
        (
            ("能力値", "判定役、支援役…が使う能力値"),
            ("攻撃力", "攻撃力＋スキル攻撃力（任意）"),
            ("防御力", "防御判定をした者の防御力（任意、既定 0）"),
            ("ダメージ", "このダメージ以上を与える確率を成功とする（任意）"),
        ),
    ),
    CommandDoc(
        "KKD[攻撃力]VS[防御力]>=[ダメージ]",
        "ダメージ算出だけを行う。最終攻撃力（攻撃力＋ダイス）から最終防御力（防御力＋ダイス）を"
        "引く。VS を省くとリアクションなし（防御 0）。",
        ("KKD3+6VS6", "KKD9", "KKD5VS4>=3"),
        (
            ("攻撃力", "攻撃力＋スキル攻撃力"),
            ("防御力", "防御力（任意）"),
            ("ダメージ", "このダメージ以上を成功とする（任意）"),
        ),
    ),
    CommandDoc(
        "KKI[PC国力]VS[NPC国力]",
        "ラウンドの先攻を決める。国力の大きい側が先攻、同値は裁定 equal_power に従う。",
        ("KKI90VS100", "KKI80VS80"),
        (("PC国力", "PC 陣営の現在の国力"), ("NPC国力", "NPC 陣営の現在の国力")),
    ),
)


class Kokuryoku(System):
    """The nation-building game: national power as a gauge, support checks."""

    __slots__ = ()

    id = "kokuryoku"
    scenario_def = "saikoro.scenario.defs.kokuryoku"
    page_profile = "saikoro.site.profiles.kokuryoku"
    vtt_export = "saikoro.export.kokuryoku"
    name = "国力ゲーム（国家運営TRPG）"
    aliases = ("国力", "国力ゲーム", "国家運営", "nation", "kokuryoku-game")
    commands = _COMMANDS
    rulings = RULINGS

    def __init__(self, **options: OptionValue) -> None:
        super().__init__(**options)
        self._int_option("die", 2, 20, " sides")
        self._int_option("die_count", 1, 3)
        self._int_option("damage_floor", 0)

    @property
    def settings(self) -> Settings:
        """The options as the commands read them."""
        return Settings(
            die=int(self.option("die")),
            count=int(self.option("die_count")),
            floor=int(self.option("damage_floor")),
            equal_power=str(self.option("equal_power")),
        )

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
