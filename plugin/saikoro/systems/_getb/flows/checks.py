"""A check and a contest (対決)."""

from __future__ import annotations

from saikoro.systems._flow import Flow, Step

from .common import A, C, D, E, S
from .common import edges as _e

__all__ = ["CHECK", "CONTEST"]


CHECK = Flow(
    "getb.check",
    "判定",
    (
        Step("start", "判定開始（GMが指示・許可）", S, next=_e("target")),
        Step("target", "GMが能力値と目標値を決める", A, actor="GM", next=_e("roll")),
        Step("roll", "1D10＋能力値を振る", C, actor="判定者", check="GB3>=8", next=_e("crit")),
        Step(
            "crit",
            "出目はクリティカル値以上？",
            D,
            next=_e(("success", "はい：クリティカル"), ("fumble", "いいえ")),
        ),
        Step(
            "fumble",
            "出目はファンブル値以下？",
            D,
            next=_e(("failure", "はい：ファンブル"), ("compare", "いいえ")),
        ),
        Step(
            "compare",
            "達成値は目標値以上？",
            D,
            next=_e(("success", "はい"), ("failure", "いいえ")),
        ),
        Step("success", "成功", A, next=_e("end")),
        Step("failure", "失敗", A, next=_e("end")),
        Step("end", "判定終了", E),
    ),
    summary="1D10＋能力値。クリティカルは自動成功、ファンブルは自動失敗。",
)


CONTEST = Flow(
    "getb.contest",
    "対決",
    (
        Step("start", "対決開始", S, next=_e("attacker")),
        Step(
            "attacker",
            "攻撃側（仕掛けた側）が判定する",
            C,
            actor="攻撃側",
            check="GB3",
            next=_e("a_fumble"),
        ),
        Step(
            "a_fumble",
            "攻撃側はファンブル？",
            D,
            next=_e(("defender_wins", "はい：防御側は振らない"), ("defender", "いいえ")),
        ),
        Step(
            "defender",
            "攻撃側の達成値を目標値として防御側が判定する",
            C,
            actor="防御側",
            check="GB3>=10",
            next=_e("a_crit"),
        ),
        Step(
            "a_crit",
            "攻撃側はクリティカル？",
            D,
            next=_e(("both", "はい"), ("d_success", "いいえ")),
        ),
        Step(
            "both",
            "防御側もクリティカル？",
            D,
            next=_e(("defender_wins", "はい"), ("attacker_wins", "いいえ（ファンブル含む）")),
        ),
        Step(
            "d_success",
            "防御側の判定は成功？（クリティカルは成功、ファンブルは失敗）",
            D,
            next=_e(("defender_wins", "はい"), ("attacker_wins", "いいえ")),
        ),
        Step("attacker_wins", "攻撃側の勝利", A, next=_e("end")),
        Step("defender_wins", "防御側の勝利", A, next=_e("end")),
        Step("end", "対決終了", E),
    ),
    summary="コマンド GC で勝敗の確率を出せる。",
)
