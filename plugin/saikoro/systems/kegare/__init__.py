"""The 穢れ game: positions, 2D6 attack against 2D6 defence, statuses and the 穢れ track.

>>> from saikoro.dice import DiceSource
>>> s = Kegare()
>>> s.roll_command("KGA7VS5D8", DiceSource(dice=[(6, 6), (6, 6)])).text
'(KGA7VS5D8) ＞ 攻撃 12[6,6]+7=19 ＞ クリティカル ＞ ダメージ20'
>>> s.odds_command("KGA7VS5D8").events["クリティカル"]
Fraction(1, 36)
>>> s.board().distance("near", "far")
2
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from saikoro.dice import DiceSource, Odds, Roll
from saikoro.systems.base import CommandDoc, OptionValue, System
from saikoro.systems.flow import Flow

from .board import PositionBoard
from .combat import (
    AttackOdds,
    AttackSpec,
    Outcome,
    Position,
    Resolution,
    attack_odds,
    attack_table,
    check_penalty,
    effective_value,
    position_penalty,
    resolve,
)
from .commands import Settings, odds_command, roll_command
from .flows import FLOWS
from .rulings import RULINGS
from .status import (
    KEGARE_TRACK,
    Combatant,
    KegareChange,
    Status,
    initiative,
    kegare_after,
    kegare_effects,
    kegare_on_down,
    poison,
    recovery,
    recovery_success,
    status_recovery,
    turn_order,
)

__all__ = [
    "KEGARE_TRACK",
    "SYSTEM",
    "AttackOdds",
    "AttackSpec",
    "Combatant",
    "Kegare",
    "KegareChange",
    "Outcome",
    "Position",
    "PositionBoard",
    "Resolution",
    "Status",
    "attack_odds",
    "attack_table",
    "check_penalty",
    "effective_value",
    "initiative",
    "kegare_after",
    "kegare_effects",
    "kegare_on_down",
    "poison",
    "position_penalty",
    "recovery",
    "recovery_success",
    "resolve",
    "status_recovery",
    "turn_order",
]

_COMMANDS: tuple[CommandDoc, ...] = (
    CommandDoc(
        "KGA[攻撃値][±修正][攻撃側の指定]VS[防御値][±修正][防御側の指定]D[ダメージ][R]>=[目標]",
        "攻撃判定（2D6＋攻撃値）と防御判定（2D6＋防御値）を比べ、差の分だけスキルのダメージを"
        "上下させる。出目12はクリティカル（防御判定なし、ダメージ+12）、出目2はファンブル。"
        "差10以上は粉砕・回避、同値は完全防御。成功は攻撃判定値が上回ったとき（クリティカル含む）。"
        "VS 以降を省くと攻撃判定だけを振る（>=N でその値以上を成功とする。出目2は常に失敗、"
        "出目12は常に成功）。",
        ("KGA7VS5D8", "KGA7@MVS5@FD8", "KGA6K5VS4J4G2D10", "KGA5VS5D12R", "KGA7VS5D8>=15", "KGA7"),
        (
            ("攻撃値・防御値", "能力値（穢れ9以上で半減）。続く ±n は判定への修正"),
            (
                "@F / @M / @N",
                "ポジション（遠 -4・中 -2・近 0、@遠 @中 @近 も可。両側にあれば悪い方）",
            ),
            (
                "K[穢れ]",
                "その側の穢れ（5以上で判定-1、9以上で値が半減、10以上は行動不能・効果なし）",
            ),
            ("W[LV]", "攻撃側が脱力：攻撃判定値 -LV/2（切り捨て）"),
            ("J[LV]", "防御側が自失：防御判定値 -LV/2（切り捨て）"),
            ("G[軽減]", "防御スキルによるダメージ軽減（粉砕で無効）"),
            ("D[ダメージ]", "攻撃スキルのダメージ（0 以上）"),
            ("R", "遠距離攻撃（ポジション補正を無視）"),
            (">=[目標]", "このダメージ以上を成功とする（対象の残り HP など）"),
        ),
    ),
    CommandDoc(
        "KGA[攻撃値][±修正][攻撃側の指定]VS[防御値1][防御側の指定],[防御値2]…D[ダメージ][R]>=[目標]",
        "全体攻撃：攻撃判定を1回だけ振り、カンマで区切った対象それぞれが自分の防御判定を振る。"
        "対象ごとの結果と、命中した人数・合計ダメージを1つの結果にまとめる。出目12・2は全員に共通。"
        "確率は攻撃の出目を共有したまま厳密に求め、命中人数の分布と合計ダメージの分布（平均が期待値）を示す。"
        "成功は1人以上に命中すること。>=N では N 以上のダメージを受けた対象を命中と数える。",
        ("KGA7VS5,3,4D8", "KGA7@MVS5@F,3,4J4G2D8", "KGA7VS5,3D8>=10"),
        (
            (
                "防御値1,防御値2,…",
                "対象ごとの防御値と指定（@ポジション・K穢れ・J自失・G軽減）、10人まで",
            ),
            ("命中", "攻撃判定値が防御判定値を上回った対象（>=N があれば N 以上のダメージ）"),
        ),
    ),
    CommandDoc(
        "KGR[±修正][C][K[穢れ]][H[HP]]",
        "再起判定：1D6 だけ HP を回復する（呪い C で -2、穢れ4以上で -3、5以上でさらに -1）。"
        "H で現在の HP を与えると、HP が 1 以上に戻る確率を成功とする。",
        ("KGR", "KGRH-2", "KGRCK5H-1"),
        (
            ("修正", "その他の修正"),
            ("C", "呪いを受けている"),
            ("K[穢れ]", "穢れの値"),
            ("H[HP]", "現在の HP（0 以下。1 以上は再起判定の対象外でエラー）"),
        ),
    ),
    CommandDoc(
        "KGS[状態異常の数][±修正][K[穢れ]]",
        "異常回復判定：2D6 で 10-(状態異常の数) 以上なら状態異常を1つ回復する。",
        ("KGS1", "KGS3", "KGS2K5"),
        (("状態異常の数", "受けている状態異常の数（1〜7）"), ("K[穢れ]", "穢れの値")),
    ),
    CommandDoc(
        "KGP[LV]",
        "毒のダメージ：ターン終了時に (LV)D6-2（0 未満にはならない）。",
        ("KGP1", "KGP3", "KGP5"),
        (("LV", "毒の LV（1〜5）"),),
    ),
)


class Kegare(System):
    """The 穢れ game: positions, attack against defence, statuses and 穢れ."""

    __slots__ = ()

    id = "kegare"
    scenario_def = "saikoro.scenario.defs.kegare"
    page_profile = "saikoro.site.profiles.kegare"
    vtt_export = "saikoro.export.kegare"
    name = "穢れ（ケガレ）TRPG"
    aliases = ("穢れ", "ケガレ", "けがれ", "kegare-trpg")
    commands = _COMMANDS
    rulings = RULINGS

    def __init__(self, **options: OptionValue) -> None:
        super().__init__(**options)
        self._int_option("min_damage", 0)

    @property
    def settings(self) -> Settings:
        """The options as the commands read them."""
        return Settings(
            position_stack=str(self.option("position_stack")),
            min_damage=int(self.option("min_damage")),
            critical_guard=str(self.option("critical_guard")),
            status_recovery=str(self.option("status_recovery")),
        )

    def roll_command(self, command: str, source: DiceSource) -> Roll | None:
        """Roll a ``KG`` command (see :mod:`.commands`)."""
        if not command.startswith("KG"):
            return None
        return roll_command(command, source, self.settings)

    def odds_command(self, command: str) -> Odds | None:
        """Exact odds of a ``KG`` command."""
        if not command.startswith("KG"):
            return None
        return odds_command(command, self.settings)

    def turn_order(self, combatants: Sequence[Combatant]) -> list[Combatant]:
        """The acting order for a turn under the options in force (``paralysis_rounding``).

        >>> people = [Combatant("鬼", 5), Combatant("A", 9, pc=True, paralysed=True)]
        >>> [c.name for c in Kegare().turn_order(people)]
        ['鬼', 'A']
        >>> [c.name for c in Kegare(paralysis_rounding="up").turn_order(people)]
        ['A', '鬼']
        """
        return turn_order(combatants, rounding=str(self.option("paralysis_rounding")))

    def flows(self) -> Mapping[str, Flow]:
        """Battle, turn, a character's action, and the attack."""
        return dict(FLOWS)

    def board(self) -> PositionBoard:
        """The three positions (near, mid, far)."""
        return PositionBoard()


SYSTEM = Kegare
