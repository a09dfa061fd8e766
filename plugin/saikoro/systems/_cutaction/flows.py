"""The cut-action procedures as data (the site draws its flowcharts from these).

CHECK steps name an example of the command that performs them (success value 7).

>>> fs = flows()
>>> sorted(f.split('.')[1] for f in fs)
['chase', 'chase_action', 'chase_event', 'cut', 'damage', 'escape', 'recovery']
>>> all(f.validate() is None for f in fs.values())
True
"""

from __future__ import annotations

from saikoro.systems._flow import Edge, Flow, Step, StepKind, split_subflow

from .chase import CHASE_EVENTS

__all__ = ["flows"]

A, C, D, T, S = (
    StepKind.ACTION,
    StepKind.CHECK,
    StepKind.DECISION,
    StepKind.TIMING,
    StepKind.SUBFLOW,
)


def _s(sid: str, label: str, kind: StepKind = A, *edges: Edge, **kw: str) -> Step:
    return Step(sid, label, kind, next=edges, **kw)


def _e(to: str, label: str = "") -> Edge:
    return Edge(to, label)


CUT = Flow(
    "cutaction.cut",
    "カットアクション",
    (
        _s("start", "カットアクションの申請", StepKind.START, _e("call")),
        _s("call", "コールタイミング: 行動するPC・NPCを宣言", A, _e("init"), actor="全員"),
        _s(
            "init",
            "イニシアチブ判定: 敏捷に関わる経験・スキルでボディ判定",
            C,
            _e("order"),
            actor="未行動の全員",
            check="CAI7",
        ),
        _s(
            "order",
            "成功者は達成値の高い順、失敗者はその後にマイナスの小さい順(同値はPC優先)、"
            "ファンブルはこのカット行動不能",
            A,
            _e("next"),
        ),
        _s(
            "next",
            "未行動のキャラクターが残っている?",
            D,
            _e("cut_in", "はい"),
            _e("cut_end", "いいえ"),
        ),
        _s(
            "cut_in",
            "割り込みを宣言する者がいる?",
            D,
            _e("cut_in_check", "はい"),
            _e("move", "いいえ"),
        ),
        _s(
            "cut_in_check",
            "敏捷の対抗判定(割り込む側が上回れば先に行動)",
            C,
            _e("move"),
            actor="割り込む側と手番の者",
            check="CAC7,7",
        ),
        _s(
            "move",
            "ムーブアクション: 隣のエリアへ移動・姿勢の変更・エリアの封鎖など",
            A,
            _e("support"),
            actor="手番の者",
        ),
        _s(
            "support",
            "サポートアクション(1カット1回): 阻害への抵抗・消費アイテム・装備変更など",
            A,
            _e("main"),
            actor="手番の者",
        ),
        _s(
            "main",
            "メインアクションの内容は?",
            D,
            _e("attack", "攻撃"),
            _e("skill", "その他の判定"),
            _e("full_move", "全力移動"),
            actor="手番の者",
        ),
        _s(
            "attack",
            "攻撃の判定と、対象のリアクション(防御・回避)の対抗判定。攻撃側が成功して上回れば命中",
            C,
            _e("hit"),
            actor="攻撃側と対象",
            check="CAA7,5,8R6",
        ),
        _s("hit", "命中した?", D, _e("damage", "命中"), _e("acted", "命中せず")),
        _s(
            "skill",
            "技能の判定。対象がいれば指定の抵抗技能でリアクション(行動済みでも可)",
            C,
            _e("acted"),
            actor="手番の者と対象",
            check="CAC7,7",
        ),
        _s("full_move", "メインアクションを捨ててもう1エリア移動(計2エリア)", A, _e("acted")),
        _s("damage", "ダメージの処理", S, _e("acted"), flow="cutaction.damage"),
        _s("acted", "手番の者は行動済み", A, _e("next")),
        _s(
            "cut_end",
            "カットエンド: 状態異常の抵抗判定",
            C,
            _e("again"),
            actor="該当者",
            check="CA7",
        ),
        _s(
            "again", "次のカット行動を宣言する者がいる?", D, _e("call", "はい"), _e("end", "いいえ")
        ),
        _s("end", "シーン行動に戻る", StepKind.END),
    ),
    summary="数秒で終わる行動を、イニシアチブ順に1人ずつ処理する単位。",
)

DAMAGE = Flow(
    "cutaction.damage",
    "ダメージの処理",
    (
        _s("start", "ダメージを受ける", StepKind.START, _e("kind")),
        _s("kind", "物理ダメージ?", D, _e("resist", "はい"), _e("loss", "いいえ(HPロス)")),
        _s(
            "resist",
            "ボディ抵抗判定(消耗中なら自動失敗)",
            C,
            _e("ok"),
            actor="受ける側",
            check="CAD10R7",
        ),
        _s("ok", "抵抗判定に成功?", D, _e("reduce", "成功"), _e("injure", "失敗")),
        _s("reduce", "ダメージから達成値を引いた分だけ体力が減る", A, _e("zero")),
        _s(
            "injure",
            "ダメージ全額だけ体力が減り、同じ値の負傷を得る(最大体力が下がる)",
            A,
            _e("crit"),
        ),
        _s("loss", "体力がそのまま減る(防御も回避もできない)", A, _e("zero")),
        _s("crit", "最大体力が0以下?", D, _e("kitoku", "はい"), _e("zero", "いいえ")),
        _s("kitoku", "危篤: 回復しないままシーンが終われば死亡", A, _e("zero")),
        _s("zero", "体力が0以下?", D, _e("shoumou", "はい"), _e("end", "いいえ")),
        _s("shoumou", "消耗: 体力のマイナス分が消耗値。回復判定以外の判定は自動失敗", A, _e("end")),
        _s("end", "処理終了", StepKind.END),
    ),
    summary="物理ダメージはボディ抵抗判定で軽減し、失敗すれば負傷を得る。",
)

RECOVERY = Flow(
    "cutaction.recovery",
    "回復判定",
    (
        _s("start", "シーンアクションで回復を試みる", StepKind.START, _e("which")),
        _s("which", "治したい状態は?", D, _e("head", "負傷"), _e("body", "消耗")),
        _s("head", "ヘッド判定", C, _e("head_ok"), actor="回復する者", check="CAR7"),
        _s("head_ok", "成功なら達成値だけ負傷値を減らす(最大体力が戻る)", A, _e("end")),
        _s(
            "body",
            "ボディ判定(消耗中でも自動失敗しない)",
            C,
            _e("body_ok"),
            actor="回復する者",
            check="CAR7",
        ),
        _s("body_ok", "成功なら達成値だけ体力が戻り、消耗値が0になれば消耗が治る", A, _e("end")),
        _s("end", "終了", StepKind.END),
    ),
    summary="負傷はヘッド判定、消耗はボディ判定で、達成値の分だけ回復する。",
)

ESCAPE = Flow(
    "cutaction.escape",
    "戦闘エリアからの離脱",
    (
        _s("start", "離脱を考える", StepKind.START, _e("where")),
        _s(
            "where",
            "離脱できるエリア(通常は自陣本営)にいる?",
            D,
            _e("blocked", "はい"),
            _e("walk", "いいえ"),
        ),
        _s("walk", "ムーブアクションで1エリア、全力移動で2エリア進む", A, _e("where")),
        _s("blocked", "エリアが封鎖されている?", D, _e("contest", "はい"), _e("leave", "いいえ")),
        _s(
            "contest",
            "封鎖した者のうち最高の結果と敏捷で対抗判定",
            C,
            _e("won"),
            actor="離脱する者",
            check="CAC7,7",
        ),
        _s("won", "上回った?", D, _e("leave", "勝利"), _e("stay", "敗北・同値")),
        _s("leave", "離脱を宣言して戦闘エリアを去る", StepKind.END),
        _s("stay", "離脱できない", StepKind.END),
    ),
    summary="封鎖されたエリアから出るには敏捷の対抗判定に勝つ必要がある。",
)

CHASE = Flow(
    "cutaction.chase",
    "チェイス戦闘",
    (
        _s("start", "離脱やセット・ステージの移動の宣言", StepKind.START, _e("call")),
        _s(
            "call",
            "コールタイミング: 宣言した側が逃走側、追う側が追跡側。宣言しない者は脱落扱い。"
            "目標値は移動目標値の10倍",
            A,
            _e("move"),
            actor="全員",
        ),
        _s(
            "move",
            "移動判定: 敏捷に関わる経験・スキルでボディ判定(乗り物は操縦者のみ)",
            C,
            _e("place"),
            actor="登場キャラクター全員",
            check="CAM7",
        ),
        _s(
            "place",
            "移動値の最も高い者が先頭。他は先頭との差だけ後ろに並び、-5より離れた者はすぐ脱落"
            "(以後も同じ。加速で引き離されたときだけはその場では残る)。"
            "移動判定でファンブルした者はこのカット行動できない",
            A,
            _e("next"),
        ),
        _s(
            "next",
            "未行動の者が残っている?",
            D,
            _e("cut_in", "はい(先頭から順に)"),
            _e("cut_end", "いいえ"),
        ),
        _s(
            "cut_in",
            "同じエリアの者が割り込みを宣言する?",
            D,
            _e("cut_in_check", "はい"),
            _e("support", "いいえ"),
        ),
        _s(
            "cut_in_check",
            "敏捷の対抗判定(割り込む側が勝てば先に行動)",
            C,
            _e("support"),
            actor="割り込む側と手番の者",
            check="CAC7,7",
        ),
        _s(
            "support",
            "サポートアクション(任意・1カット1回・行動済みにならない)",
            A,
            _e("act"),
            actor="手番の者",
        ),
        _s(
            "act",
            "アクションを選ぶ",
            D,
            _e("accel", "加速"),
            _e("decel", "減速"),
            _e("block", "封鎖"),
            _e("obstruct", "進路妨害"),
            _e("jump", "飛び移る"),
            _e("shake", "振り落とす"),
            _e("route", "ルート変更(先頭のみ)"),
            actor="手番の者",
        ),
        _s("accel", "加速: 移動判定に成功すれば達成値だけ前進", C, _e("acted"), check="CA7"),
        _s("decel", "減速: 好きなだけ後退(封鎖されたエリアより後ろへは下がれない)", A, _e("acted")),
        _s("block", "封鎖: 自分のエリアを封鎖(出るには敏捷の対抗判定に勝つ必要)", A, _e("acted")),
        _s(
            "obstruct",
            "進路妨害: 同じか後ろのエリアの相手とボディ対抗判定、勝てば相手が後退",
            C,
            _e("acted"),
            check="CAO7,7",
        ),
        _s(
            "jump",
            "飛び移る: 同じエリアの乗り物へ。ボディ対抗に勝てば乗り移る"
            "(操縦者なら元の乗り物は脱落)",
            C,
            _e("acted"),
            check="CAC7,7",
        ),
        _s(
            "shake",
            "振り落とす: 操縦者が乗り移った者とボディ対抗。"
            "勝てば相手は高速落下ダメージを受けて脱落",
            C,
            _e("acted"),
            check="CAC7,7",
        ),
        _s("route", "チェイスイベント表を振る", S, _e("acted"), flow="cutaction.chase_event"),
        _s("acted", "手番の者は行動済み", A, _e("next")),
        _s(
            "cut_end",
            "カットエンド: 状態異常の処理。まだ相対距離-5より後ろにいる者(加速で離された者)は脱落",
            A,
            _e("over"),
        ),
        _s(
            "over",
            "終了条件(捕捉・片側全滅・目標値到着・登場人数分のカット経過・行き止まり)?",
            D,
            _e("end", "はい"),
            _e("move", "いいえ(次のカット)"),
        ),
        _s("end", "チェイス終了", StepKind.END),
    ),
    summary="逃走側と追跡側に分かれ、相対距離を競う戦闘。",
)


def _event_flow() -> Flow:
    steps = [
        _s("start", "先頭の者がルート変更を選ぶ", StepKind.START, _e("roll")),
        _s(
            "roll",
            "1D10でチェイスイベント表を振る",
            C,
            *(_e(f"ev{e.number}", str(e.number)) for e in CHASE_EVENTS),
            check="CET",
        ),
    ]
    for e in CHASE_EVENTS:
        nxt = "end_chase" if e.number == 10 else "end"
        kind = C if e.check else A
        check = {7: "CFO"}.get(e.number, "CA7" if e.check else "")
        if e.number == 7:
            kind = C
        steps.append(_s(f"ev{e.number}", f"{e.name}: {e.effect}", kind, _e(nxt), check=check))
    steps += [
        _s("end", "チェイスを続ける", StepKind.END),
        _s("end_chase", "チェイス終了", StepKind.END),
    ]
    return Flow(
        "cutaction.chase_event",
        "ルート変更とチェイスイベント",
        tuple(steps),
        summary="出目1〜10は本文の列挙順(裁定 chase_event_order)。",
    )


def flows() -> dict[str, Flow]:
    """Every procedure of the system, by flow id.

    The chase's seven actions are a procedure of their own (its widest part), drawn as
    a linked chart.
    """
    chase, actions = split_subflow(
        CHASE,
        "act",
        ("accel", "decel", "block", "obstruct", "jump", "shake", "route"),
        "cutaction.chase_action",
        "チェイスのアクション",
    )
    return {f.id: f for f in (CUT, DAMAGE, RECOVERY, ESCAPE, chase, actions, _event_flow())}
