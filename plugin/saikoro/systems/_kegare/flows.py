"""The 穢れ game's procedures as data (one :class:`Flow` each).

>>> sorted(FLOWS)
['kegare.action', 'kegare.attack', 'kegare.battle', 'kegare.turn']
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
S = StepKind.SUBFLOW

_BATTLE = Flow(
    "kegare.battle",
    "戦闘の流れ",
    (
        Step("start", "戦闘開始", StepKind.START, next=(Edge("positions"),)),
        Step(
            "positions",
            "PC は遠・中・近から自分のポジションを決めておく（初期値はシナリオ開始時）",
            actor="PL",
            next=(Edge("opening"),),
        ),
        Step(
            "opening",
            "戦闘開始時に働く効果を一度だけ処理する（PC の効果が先）",
            T,
            next=(Edge("turn"),),
        ),
        Step("turn", "ターンを1回行う", S, flow="kegare.turn", next=(Edge("over"),)),
        Step(
            "over",
            "戦闘は決着したか",
            D,
            next=(Edge("finish", "決着"), Edge("turn", "続く：次のターン")),
        ),
        Step("finish", "戦闘終了（ポジションは戦闘後に自由に変えられる）", StepKind.END),
    ),
    summary="ターンを繰り返す。同じタイミングの処理は記載がなければ PC → 敵の順。",
)

_TURN = Flow(
    "kegare.turn",
    "1ターンの流れ",
    (
        Step("start", "ターン開始", StepKind.START, next=(Edge("initiative"),)),
        Step(
            "initiative",
            "全員の行動値を出し、高い順に行動順を決める"
            "（同値は PC が先。麻痺は半分、穢れ 7 以上は 0）。途中で行動値が変わっても順は固定",
            actor="全員",
            next=(Edge("random"),),
        ),
        Step(
            "random",
            "穢れ 6 以上の PC は、表でランダムに決まった状態異常を1つ受ける",
            T,
            actor="穢れ6以上のPC",
            next=(Edge("act"),),
        ),
        Step(
            "act",
            "行動順に1人ずつ手番を行う",
            S,
            actor="全員",
            flow="kegare.action",
            next=(Edge("all_done"),),
        ),
        Step(
            "all_done",
            "全員が行動したか",
            D,
            next=(Edge("poison", "した"), Edge("act", "まだ：次のキャラクター")),
        ),
        Step(
            "poison",
            "毒を受けているキャラクターは (LV)D6-2 のダメージ",
            C,
            actor="毒の対象",
            check="KGP1",
            next=(Edge("down_any"),),
        ),
        Step(
            "down_any",
            "HP 0 以下（戦闘不能）のキャラクターがいるか",
            D,
            next=(Edge("rally", "いる"), Edge("status_any", "いない")),
        ),
        Step(
            "rally",
            "再起判定：望むなら 1D6 だけ HP を回復（呪い -2、穢れ 4 以上 -3）。"
            "HP 1 以上で次のターンから行動できる",
            C,
            actor="戦闘不能のキャラクター",
            check="KGRH-2",
            next=(Edge("status_any"),),
        ),
        Step(
            "status_any",
            "状態異常のあるキャラクターはいるか",
            D,
            next=(Edge("cure", "いる"), Edge("rise", "いない")),
        ),
        Step(
            "cure",
            "異常回復判定：望むなら 2D6 で 10-(状態異常の数) 以上を出すと1つ回復",
            C,
            actor="状態異常のキャラクター",
            check="KGS1",
            next=(Edge("rise"),),
        ),
        Step(
            "rise",
            "穢れの上昇：加護を持つキャラクターは穢れ +2（常駐の祝福スキルの上昇もここ）",
            actor="加護を持つキャラクター",
            next=(Edge("finish"),),
        ),
        Step("finish", "ターン終了", StepKind.END),
    ),
    summary="全員が動いたあと、再起判定、異常回復判定、穢れの上昇と進む。誰も該当しない処理は飛ばす。",
)

_ACTION = Flow(
    "kegare.action",
    "手番（主行動と補助行動）",
    (
        Step("start", "自分の手番", StepKind.START, next=(Edge("can_act"),)),
        Step(
            "can_act",
            "戦闘不能か",
            D,
            next=(Edge("finish", "戦闘不能：行動できない"), Edge("aux_q", "行動できる")),
        ),
        Step(
            "aux_q",
            "補助行動をするか（手番ごとに1回、しなくてもよい）",
            D,
            actor="手番の者",
            next=(Edge("aux", "する"), Edge("main", "しない")),
        ),
        Step(
            "aux",
            "補助行動：受容（穢れ +1）・拒絶（穢れ -1）・移動（ポジションを変える）から1つ",
            actor="手番の者",
            next=(Edge("main"),),
        ),
        Step(
            "main",
            "主行動を選ぶ",
            D,
            actor="手番の者",
            next=(Edge("skill", "スキル"), Edge("item", "アイテム"), Edge("pass", "パス")),
        ),
        Step(
            "skill",
            "攻撃か支援のスキルを使う",
            D,
            actor="手番の者",
            next=(Edge("attack", "攻撃スキル"), Edge("support", "支援スキル")),
        ),
        Step(
            "attack",
            "攻撃の処理",
            S,
            actor="手番の者",
            flow="kegare.attack",
            next=(Edge("finish"),),
        ),
        Step(
            "support",
            "支援スキルの効果を処理する（魅了中は使えない）",
            actor="手番の者",
            next=(Edge("finish"),),
        ),
        Step("item", "持っているアイテムを使う", actor="手番の者", next=(Edge("finish"),)),
        Step("pass", "このターンの行動を放棄する", actor="手番の者", next=(Edge("finish"),)),
        Step("finish", "手番終了：次の行動順へ", StepKind.END),
    ),
)

_ATTACK = Flow(
    "kegare.attack",
    "攻撃・防御判定",
    (
        Step("start", "攻撃スキルを使う", StepKind.START, next=(Edge("target"),)),
        Step(
            "target",
            "単体なら対象を1体指定、全体なら敵対する全員が対象",
            actor="攻撃側",
            next=(Edge("atk"),),
        ),
        Step(
            "atk",
            "攻撃判定：2D6＋攻撃値（ポジション補正、脱力、穢れの修正）",
            C,
            actor="攻撃側",
            check="KGA7",
            next=(Edge("natural"),),
        ),
        Step(
            "natural",
            "2D6 の出目",
            D,
            next=(
                Edge("crit", "12：クリティカル"),
                Edge("fumble", "2：ファンブル"),
                Edge("def", "それ以外"),
            ),
        ),
        Step(
            "crit",
            "防御判定なしでダメージ＋12（防御スキルは裁定 critical_guard）",
            actor="攻撃側",
            next=(Edge("apply"),),
        ),
        Step("fumble", "防御判定なし。ダメージも効果も無効", next=(Edge("finish"),)),
        Step(
            "def",
            "防御判定：2D6＋防御値（自失、穢れの修正）。全体攻撃なら対象全員が振る",
            C,
            actor="防御側",
            check="KGA7VS5D8",
            next=(Edge("compare"),),
        ),
        Step(
            "compare",
            "攻撃判定値 − 防御判定値",
            D,
            next=(
                Edge("shatter", "+10 以上"),
                Edge("hit", "+1〜+9"),
                Edge("perfect", "0"),
                Edge("reduced", "-1〜-9"),
                Edge("evade", "-10 以下"),
            ),
        ),
        Step("shatter", "粉砕：ダメージ＋差、防御スキルの効果を打ち消す", next=(Edge("apply"),)),
        Step("hit", "ダメージが差の分だけ上がる", next=(Edge("apply"),)),
        Step(
            "reduced",
            "ダメージが差の分だけ下がる（0 未満にはしない：裁定 min_damage）",
            next=(Edge("apply"),),
        ),
        Step("perfect", "完全防御：ダメージは無効、それ以外の効果は受ける", next=(Edge("finish"),)),
        Step("evade", "回避：ダメージも効果も無効", next=(Edge("finish"),)),
        Step(
            "apply", "対象の HP を減らす（マイナスまで記録）", actor="防御側", next=(Edge("down"),)
        ),
        Step(
            "down",
            "HP が 0 以下になったか",
            D,
            next=(Edge("down_yes", "なった"), Edge("finish", "1 以上")),
        ),
        Step(
            "down_yes",
            "戦闘不能：HP 1 以上に戻るまで行動できず、再起判定への修正以外の"
            "効果を受けない。穢れが増える（3 以上なら 2）",
            actor="防御側",
            next=(Edge("finish"),),
        ),
        Step("finish", "攻撃終了", StepKind.END),
    ),
    summary="判定値の差でダメージが上下する。出目 12 と 2、差 10 以上、同値は特別な結果になる。",
)

FLOWS: dict[str, Flow] = {f.id: f for f in (_BATTLE, _TURN, _ACTION, _ATTACK)}
"""Every flow of the system, by id."""
