"""Documentation of the system's commands (shown on the site's command reference).

>>> [c.syntax.split("[")[0] for c in COMMANDS]
['CA', 'CAI', 'CAI', 'CAR', 'CAM', 'CAC', 'CAO', 'CAD', 'CAA', 'CET', 'CFO']
"""

from __future__ import annotations

from saikoro.systems._base import CommandDoc

__all__ = ["COMMANDS"]

_SV = ("成功値", "判定の基準値(数式可: 8-2、(9)/2 は切り捨て)。出目がこれ以下なら達成値0以上")

COMMANDS: tuple[CommandDoc, ...] = (
    CommandDoc(
        syntax="CA[成功値]>=[目標値]",
        summary=(
            "行為判定。判定ダイス(既定1D10)を振り、達成値 = 成功値 - 出目。"
            "目標値(省略時0)以上で成功。"
            "出目が最大ならファンブル(自動失敗)。"
        ),
        examples=("CA7", "CA7>=3", "CA8-2", "CA(9)/2"),
        parameters=(_SV, ("目標値", "必要な達成値。行為の要素の数が目安。省略すると0")),
    ),
    CommandDoc(
        syntax="CAI[成功値]",
        summary="イニシアチブ判定(敏捷のボディ判定)。達成値が行動値。ファンブルはそのカット行動不能。",
        examples=("CAI6",),
        parameters=(_SV,),
    ),
    CommandDoc(
        syntax="CAI[成功値],P[成功値],...",
        summary=(
            "複数人のイニシアチブ判定と行動順。P を付けた者はPC(同値ならNPCより先)。"
            "確率は4人まで、行動順ごとに出す。番号は書いた順。"
        ),
        examples=("CAI7,P5,6", "CAIP6,P6,7,4"),
        parameters=(("成功値", "各キャラクターの成功値。先頭に P でPC"),),
    ),
    CommandDoc(
        syntax="CAR[成功値]",
        summary="回復判定(負傷はヘッド、消耗はボディ)。成功なら達成値が回復量、失敗なら0。",
        examples=("CAR6",),
        parameters=(_SV,),
    ),
    CommandDoc(
        syntax="CAM[成功値]",
        summary=(
            "チェイスの移動判定(毎カットのはじめ)。達成値を移動値に足す。失敗のマイナス分も足す"
            "(オプション failed_move で0にできる)。ファンブルはそのカット行動不能。"
            "悪路なら成功値-2。加速は CA で判定し、成功したときだけ達成値分前に出る。"
        ),
        examples=("CAM7", "CAM7-2"),
        parameters=(_SV,),
    ),
    CommandDoc(
        syntax="CAC[能動側の成功値],[受動側の成功値],...",
        summary=(
            "対抗判定(割り込み、封鎖からの離脱、飛び移る、振り落とす)。能動側の達成値が受動側を"
            "上回れば勝利、同値は受動側の勝ち、ファンブルは最下位。受動側が複数なら最も高い結果と比べる。"
        ),
        examples=("CAC7,5", "CAC6,5,7"),
        parameters=(
            ("能動側の成功値", "勝つ必要のある側"),
            ("受動側の成功値", "封鎖した者など。複数可"),
        ),
    ),
    CommandDoc(
        syntax="CAO[妨害側の成功値],[対象の成功値]",
        summary="進路妨害のボディ対抗判定。勝てば対象が後退する(既定は達成値の差、最低1)。",
        examples=("CAO7,6",),
        parameters=(("妨害側の成功値", "進路妨害をする者"), ("対象の成功値", "妨害される者")),
    ),
    CommandDoc(
        syntax="CAD[ダメージ]R[抵抗の成功値]H[体力]/[最大体力]",
        summary=(
            "物理ダメージの処理。ボディ抵抗判定に成功すれば達成値だけ軽減、失敗すれば全額を受けて"
            "同じ値の負傷。R を省くと抵抗できないHPロス。H を付けると消耗・危篤の確率も出す"
            "(体力0以下なら消耗中として抵抗判定は自動失敗)。"
        ),
        examples=("CAD8R6", "CAD2D6+3R6", "CAD10R6H12/15", "CAD5"),
        parameters=(
            ("ダメージ", "固定値かダイス(2D6+3)"),
            ("抵抗の成功値", "ボディ抵抗判定の成功値(省略でHPロス)"),
            ("体力/最大体力", "現在の体力と(負傷を引いた)最大体力。省略可"),
        ),
    ),
    CommandDoc(
        syntax="CAA[攻撃の成功値],[防御の成功値],[ダメージ]R[抵抗の成功値]H[体力]/[最大体力]",
        summary=(
            "攻撃一回の全体。攻撃と対象のリアクション(防御・回避)の対抗判定で、攻撃側が成功して"
            "上回れば命中し、ダメージとボディ抵抗判定を処理する。分布は体力の減少(外れは0)。"
        ),
        examples=("CAA7,5,8R6", "CAA(9)/2,5,2D6R6", "CAA8,6,2D6+3R6H12/15"),
        parameters=(
            ("攻撃の成功値", "攻撃側の判定(遮蔽で半分なら (9)/2)"),
            ("防御の成功値", "対象のリアクションの判定"),
            ("ダメージ", "固定値かダイス"),
            ("抵抗の成功値", "ボディ抵抗判定(省略でHPロス)"),
            ("体力/最大体力", "省略可。消耗・危篤の確率を出す"),
        ),
    ),
    CommandDoc(
        syntax="CET",
        summary="チェイスイベント表(1D10)。落下物ならさらに1D10を振って当たるエリアも決める。",
        examples=("CET",),
    ),
    CommandDoc(
        syntax="CFO",
        summary="落下物の当たるエリア: 1D10÷2(既定は切り上げ)で先頭からの相対距離を決める。",
        examples=("CFO",),
    ),
)
"""Every command of the system, documented."""
