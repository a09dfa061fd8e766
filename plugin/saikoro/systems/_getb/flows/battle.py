"""GETB's battle part: the battle, a round, a character's turn."""

from __future__ import annotations

from saikoro.systems._flow import Flow, Step

from .common import A, D, E, S, T, X
from .common import edges as _e

__all__ = ["BATTLE", "ROUND", "TURN"]


BATTLE = Flow(
    "getb.battle",
    "バトルパート",
    (
        Step("start", "バトルパート開始", S, next=_e("place")),
        Step(
            "place",
            "配置：エネミー（シナリオの位置）→NPC→PC の順。PCは中央以外の任意のセル",
            A,
            actor="GM・全員",
            next=_e("mission"),
        ),
        Step(
            "mission",
            "ミッション公開：メインの達成・失敗条件と、あればサイドミッション",
            A,
            actor="GM",
            next=_e("open"),
        ),
        Step("open", "戦闘開始の宣言（戦闘開始時の効果を処理）", T, actor="GM", next=_e("round")),
        Step("round", "ラウンドを1つ進める", X, flow="getb.round", next=_e("done")),
        Step(
            "done",
            "メインミッションの達成条件か失敗条件を満たした？",
            D,
            next=_e(("round", "いいえ：ラウンド数+1"), ("close", "はい")),
        ),
        Step(
            "close",
            "戦闘終了の宣言：以後の戦闘処理はすべて終わる",
            A,
            actor="GM",
            next=_e("epilogue"),
        ),
        Step(
            "epilogue",
            "GM が戦いの結末を語り、エンドパートに進む",
            A,
            actor="GM",
            next=_e("end"),
        ),
        Step("end", "バトルパート終了", E),
    ),
    summary="配置からシナリオ描写まで。ラウンドを終了条件が満たされるまで繰り返す。",
)


ROUND = Flow(
    "getb.round",
    "ラウンド",
    (
        Step("start", "ラウンド開始", S, next=_e("refill")),
        Step(
            "refill",
            "全員のAP・STを最大値ぶん回復（上限あり、APペナルティぶん減る）",
            A,
            actor="全員",
            next=_e("effects"),
        ),
        Step("effects", "ラウンド開始時の効果を最大APの高い順に処理", T, next=_e("order")),
        Step("order", "APの高い順に行動順を確認", A, next=_e("initiative")),
        Step(
            "initiative",
            "イニシアチブ：APが1以上のキャラクターはいる？",
            D,
            next=_e(("turn", "はい：APが最も高いキャラクター"), ("duration", "いいえ：全員0")),
        ),
        Step("turn", "そのキャラクターのターン", X, flow="getb.turn", next=_e("initiative")),
        Step(
            "duration",
            "「Xラウンドの間」の残りを1減らし、0になった状態変化を解除",
            A,
            next=_e("end_effects"),
        ),
        Step("end_effects", "ラウンド終了時の効果を処理", T, next=_e("end")),
        Step("end", "ラウンド終了", E),
    ),
    summary="AP・ST回復、行動順、APが尽きるまでのターン、ラウンド終了処理。",
)


TURN = Flow(
    "getb.turn",
    "ターン",
    (
        Step("start", "ターン開始", S, next=_e("move")),
        Step(
            "move",
            "ムーヴアクション（省略可）を選ぶ",
            D,
            actor="手番",
            next=_e(
                ("move1", "戦闘移動"),
                ("dash", "全力移動"),
                ("giveup", "行動放棄"),
                ("side", "行わない"),
            ),
        ),
        Step("move1", "1セル移動", A, actor="手番", next=_e("side")),
        Step(
            "dash",
            "ST1と任意のAPを払い、払ったAPと同じセル数だけ移動",
            A,
            actor="手番",
            next=_e("side"),
        ),
        Step("giveup", "APを0にしてターンを終える", A, actor="手番", next=_e("end")),
        Step(
            "side",
            "サイドアクション（省略可）：ジャンプ（飛行を得る）、変形（武器の持ち替え）、"
            "サイドのスキル・携行品、受け渡し、アイテムの廃棄・入手など",
            A,
            actor="手番",
            next=_e("main"),
        ),
        Step(
            "main",
            "メインアクションを選ぶ",
            D,
            actor="手番",
            next=_e(
                ("attack", "攻撃"),
                ("linkaid", "リンクエイド"),
                ("use", "メインのスキル・携行品"),
                ("wait", "待機"),
            ),
        ),
        Step(
            "attack",
            "攻撃（その前にほかの全員のレスポンス）",
            X,
            flow="getb.attack",
            next=_e("finish"),
        ),
        Step("linkaid", "戦闘不能の味方を救助", A, actor="手番", next=_e("finish")),
        Step("use", "スキル・携行品の効果を処理", A, actor="手番", next=_e("finish")),
        Step("wait", "APを半分（切り捨て）にしてターンを終える", A, actor="手番", next=_e("end")),
        Step(
            "finish", "行動終了：攻撃した者は行動終了状態になり、ターンを終える", A, next=_e("end")
        ),
        Step("end", "ターン終了：イニシアチブへ戻る", E),
    ),
    summary="ムーヴ→サイド→メインの順。戻ることはできない。",
)
