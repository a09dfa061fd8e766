"""The nation-building game's procedures as data (one :class:`Flow` each).

>>> sorted(FLOWS)
['kokuryoku.attack', 'kokuryoku.final_round', 'kokuryoku.middle_check', 'kokuryoku.support']
>>> for f in FLOWS.values():
...     f.validate()
"""

from __future__ import annotations

from saikoro.systems._flow import Edge, Flow, Step, StepKind

__all__ = ["FLOWS"]

A = StepKind.ACTION
C = StepKind.CHECK
D = StepKind.DECISION
T = StepKind.TIMING

_MIDDLE = Flow(
    "kokuryoku.middle_check",
    "中間フェーズの判定（支援つき）",
    (
        Step("start", "判定の場面", StepKind.START, next=(Edge("setup"),)),
        Step(
            "setup",
            "GM が状況・目標値・成功時の増加国力を示す（起点の能力値を指定してもよい）",
            actor="GM",
            next=(Edge("declare"),),
        ),
        Step(
            "declare",
            "起点の PL が使う能力値と行動の内容を宣言する",
            actor="起点PL",
            next=(Edge("roll"),),
        ),
        Step(
            "roll",
            "能力値＋ダイスで判定する",
            C,
            actor="起点PL",
            check="KK3",
            next=(Edge("reached"),),
        ),
        Step(
            "reached",
            "ここまでの達成値の合計は目標値以上か",
            D,
            next=(Edge("success", "以上"), Edge("more", "未満")),
        ),
        Step(
            "more",
            "まだ判定していない登場中の PC が支援するか",
            D,
            actor="PL",
            next=(Edge("support_declare", "支援する"), Edge("failure", "いない・中断")),
        ),
        Step(
            "support_declare",
            "支援役が行動を消費し、起点の行動にどう手を貸すかを宣言する",
            actor="支援PL",
            next=(Edge("support_roll"),),
        ),
        Step(
            "support_roll",
            "能力値＋ダイスで支援判定し、合計に足す",
            C,
            actor="支援PL",
            check="KK3",
            next=(Edge("reached"),),
        ),
        Step("success", "成功：増加国力をすべて国力に加える", next=(Edge("finish"),)),
        Step("failure", "失敗：増加国力の半分（切り捨て）を国力に加える", next=(Edge("finish"),)),
        Step("finish", "終了", StepKind.END),
    ),
    summary="起点の判定に支援判定を重ね、合計が目標値に届けば成功。確率は KKM コマンドで求まる。",
)

_ROUND = Flow(
    "kokuryoku.final_round",
    "最終フェーズのラウンド",
    (
        Step("start", "最終フェーズ開始", StepKind.START, next=(Edge("conditions"),)),
        Step(
            "conditions",
            "GM が終了条件を示す（相手の国力を 0 にする条件は必ず含める）",
            actor="GM",
            next=(Edge("power"),),
        ),
        Step(
            "power",
            "ラウンド開始：両陣営の現在の国力を確かめる",
            actor="全員",
            next=(Edge("order"),),
        ),
        Step(
            "order",
            "国力の大きい側が先攻（同値は裁定 equal_power）",
            C,
            check="KKI90VS100",
            next=(Edge("setup_first"),),
        ),
        Step(
            "setup_first",
            "先攻側のセットアップ：スキルなどを使う",
            T,
            actor="先攻側",
            next=(Edge("setup_second"),),
        ),
        Step(
            "setup_second",
            "後攻側のセットアップ：スキルなどを使う",
            T,
            actor="後攻側",
            next=(Edge("act_first"),),
        ),
        Step(
            "act_first",
            "先攻側の行動（攻撃・防御、回復・バフ・デバフ）",
            StepKind.SUBFLOW,
            actor="先攻側",
            flow="kokuryoku.attack",
            next=(Edge("zero_first"),),
        ),
        Step(
            "zero_first",
            "どちらかの国力が 0 以下になったか",
            D,
            next=(Edge("lost", "なった"), Edge("act_second", "なっていない")),
        ),
        Step(
            "act_second",
            "後攻側の行動",
            StepKind.SUBFLOW,
            actor="後攻側",
            flow="kokuryoku.attack",
            next=(Edge("zero_second"),),
        ),
        Step(
            "zero_second",
            "どちらかの国力が 0 以下になったか",
            D,
            next=(Edge("lost", "なった"), Edge("done", "なっていない")),
        ),
        Step(
            "done",
            "終了条件を満たしたか",
            D,
            next=(Edge("ending", "満たした"), Edge("power", "満たさない：次のラウンド")),
        ),
        Step("lost", "国力が 0 になった側の敗北", next=(Edge("ending"),)),
        Step("ending", "エンディングフェーズへ", StepKind.END),
    ),
    summary="国力はゲージ（国の HP）。毎ラウンド国力の大きい側から行動する。",
)

_ATTACK = Flow(
    "kokuryoku.attack",
    "最終フェーズの攻撃と防御",
    (
        Step("start", "攻撃の手番", StepKind.START, next=(Edge("declare"),)),
        Step(
            "declare",
            "マイナーで攻撃力を上げるスキル、メジャーで攻撃を宣言する",
            T,
            actor="攻撃側",
            next=(Edge("target"),),
        ),
        Step(
            "target",
            "対象を決める：単体攻撃は国力ゲージ、複数攻撃はゲージ・PC・NPC から選ぶ",
            actor="攻撃側",
            next=(Edge("atk_roll"),),
        ),
        Step(
            "atk_roll",
            "好きな能力値＋ダイスで攻撃力判定",
            C,
            actor="攻撃側",
            check="KK3",
            next=(Edge("atk_more"),),
        ),
        Step(
            "atk_more",
            "同陣営の行動可能なキャラクターが支援を続けるか",
            D,
            actor="攻撃側",
            next=(Edge("atk_support", "続ける"), Edge("reaction", "終える")),
        ),
        Step(
            "atk_support",
            "行動を消費し、能力値＋ダイスで支援判定して合計に足す",
            C,
            actor="攻撃側の支援役",
            check="KK2",
            next=(Edge("atk_more"),),
        ),
        Step(
            "reaction",
            "攻撃側の合計を見て、リアクションするか",
            D,
            actor="防御側",
            next=(Edge("def_roll", "する"), Edge("dmg_free", "しない")),
        ),
        Step(
            "def_roll",
            "防御役を選び、出番を消費して能力値＋ダイスで防御判定"
            "（リアクション用のスキルも使える）",
            C,
            actor="防御側",
            check="KK3",
            next=(Edge("def_more"),),
        ),
        Step(
            "def_more",
            "同陣営の行動可能なキャラクターが支援を続けるか",
            D,
            actor="防御側",
            next=(Edge("def_support", "続ける"), Edge("compare", "終える")),
        ),
        Step(
            "def_support",
            "行動を消費し、能力値＋ダイスで支援判定して合計に足す",
            C,
            actor="防御側の支援役",
            check="KK2",
            next=(Edge("def_more"),),
        ),
        Step(
            "compare",
            "合計を比べる（同値は攻撃側の勝ち）",
            C,
            check="KKA[3,2]VS[3,2]",
            next=(Edge("dmg_roll", "攻撃側が上か同値"), Edge("finish", "防御側が上")),
        ),
        Step(
            "dmg_roll",
            "ダメージロール前のスキルを使い、攻撃力＋スキル＋ダイスで最終攻撃力",
            C,
            actor="攻撃判定をした者",
            check="KKD3+6VS6",
            next=(Edge("guard"),),
        ),
        Step(
            "guard",
            "ダメージロール後のスキルを使い、防御力＋ダイスで最終防御力",
            C,
            actor="防御判定をした者",
            check="KKD3+6VS6",
            next=(Edge("apply"),),
        ),
        Step(
            "dmg_free",
            "リアクションなし：最終防御力は 0、攻撃力＋スキル＋ダイスがそのまま入る",
            C,
            actor="攻撃判定をした者",
            check="KKD9",
            next=(Edge("apply"),),
        ),
        Step(
            "apply",
            "差の分だけ対象の国力ゲージか愛を減らす（差が負なら裁定 damage_floor）",
            next=(Edge("zero"),),
        ),
        Step(
            "zero",
            "対象の値が 0 以下になったか",
            D,
            next=(Edge("down", "なった"), Edge("finish", "なっていない")),
        ),
        Step(
            "down", "国力ゲージなら敗北、愛ならそのキャラクターは戦闘不能", next=(Edge("finish"),)
        ),
        Step("finish", "手番終了", StepKind.END),
    ),
    summary="攻撃判定と防御判定をそれぞれ支援で積み上げて比べ、攻撃側が勝てばダメージを算出する。",
)

_SUPPORT = Flow(
    "kokuryoku.support",
    "最終フェーズの回復・バフ・デバフ",
    (
        Step("start", "回復・バフ・デバフの手番", StepKind.START, next=(Edge("target"),)),
        Step(
            "target",
            "行動できるキャラクターが対象と効果を選ぶ（例：味方にポーション）",
            actor="行動者",
            next=(Edge("need"),),
        ),
        Step("need", "判定が必要か", D, next=(Edge("check", "必要"), Edge("effect", "不要"))),
        Step(
            "check",
            "中間フェーズと同じく、支援を重ねて判定する",
            StepKind.SUBFLOW,
            actor="行動者と支援役",
            flow="kokuryoku.middle_check",
            next=(Edge("ok"),),
        ),
        Step("ok", "判定に成功したか", D, next=(Edge("effect", "成功"), Edge("finish", "失敗"))),
        Step(
            "effect",
            "効果を発動する。効果量に判定があれば振る（例：ポーションは 2D6 点の愛を回復）",
            C,
            actor="行動者",
            check="2D6",
            next=(Edge("finish"),),
        ),
        Step("finish", "手番終了", StepKind.END),
    ),
)

FLOWS: dict[str, Flow] = {f.id: f for f in (_MIDDLE, _ROUND, _ATTACK, _SUPPORT)}
"""Every flow of the system, by id."""
