"""An attack and its two checks: damage check and guard check."""

from __future__ import annotations

from saikoro.systems._flow import Flow, Step

from .common import A, C, D, E, S, X
from .common import edges as _e

__all__ = ["ATTACK", "DAMAGE_CHECK", "GUARD_CHECK"]


ATTACK = Flow(
    "getb.attack",
    "攻撃",
    (
        Step("start", "攻撃開始", S, next=_e("declare")),
        Step(
            "declare",
            "攻撃方法と対象を宣言し、コストを払う（ショート ST1・AP2、ロング ST1・AP3、"
            "バスター ST1・AP4、射撃 OP1・AP1、スキルは効果による）",
            A,
            actor="攻撃側",
            next=_e("response"),
        ),
        Step(
            "response",
            "レスポンス：攻撃側以外の全員が同時に1つ選ぶ（ステップ ST1で1セル移動、"
            "ガード ST1・近接武器の装備中のみ、カバーリング ST1・ガードと同じ条件、"
            "スキル・携行品、放棄）",
            A,
            actor="攻撃側以外",
            next=_e("in_range"),
        ),
        Step(
            "in_range",
            "対象はまだ射程内？",
            D,
            next=_e(("fail", "いいえ：自動失敗（コストは戻らない）"), ("damage", "はい")),
        ),
        Step("damage", "ダメージ判定", X, flow="getb.damage_check", next=_e("damage_ok")),
        Step(
            "damage_ok",
            "攻撃は成立した？（ダイス1個以上、ファンブルでない、達成値1以上）",
            D,
            next=_e(("fail", "いいえ"), ("guarding", "はい")),
        ),
        Step(
            "guarding",
            "対象（またはカバーリングした者）はガードした？",
            D,
            next=_e(("guard", "はい"), ("no_guard", "いいえ")),
        ),
        Step("guard", "ガード判定", X, flow="getb.guard_check", next=_e("perfect")),
        Step("no_guard", "ガードなし：達成値がそのままダメージ", A, next=_e("modify")),
        Step(
            "perfect",
            "ガード判定はクリティカル？",
            D,
            next=_e(("zero", "はい：完全防御"), ("guard_ok", "いいえ")),
        ),
        Step(
            "guard_ok",
            "ガードは成立した？（ダイス1個以上、ファンブルでない）",
            D,
            next=_e(("compare", "はい"), ("no_guard", "いいえ：ガード失敗（達成値0）")),
        ),
        Step(
            "compare",
            "達成値の比較：攻撃側が上？",
            D,
            next=_e(("diff", "はい"), ("one", "いいえ（同値を含む）")),
        ),
        Step("diff", "差分がダメージ", A, next=_e("modify")),
        Step("one", "ほぼ防ぎきった：ダメージ1", A, next=_e("modify")),
        Step(
            "modify",
            "ダメージ1以上なら最終ダメージ修正を加える（0未満にはならない）",
            A,
            next=_e("apply"),
        ),
        Step(
            "apply",
            "最終ダメージをHPから引き、ダメージを与えた時の効果を処理。"
            "近接攻撃ならダメージ÷10（切り捨て）のOPを回復",
            A,
            actor="攻撃側・防御側",
            next=_e("end"),
        ),
        Step("zero", "最終ダメージ0", A, next=_e("end")),
        Step("fail", "攻撃失敗", A, next=_e("end")),
        Step("end", "攻撃終了", E),
    ),
    summary="宣言、レスポンス、ダメージ判定、ガード判定、最終ダメージ。"
    "コマンド GF でまとめて解決できる。",
)


def _chain_check(
    flow_id: str, title: str, command: str, *, actor: str, what: str, failed: str
) -> Flow:
    return Flow(
        flow_id,
        title,
        (
            Step("start", f"{title}開始", S, next=_e("count")),
            Step(
                "count",
                f"ダイスの数を決める（{what}、増減する効果を合計）",
                A,
                actor=actor,
                next=_e("enough"),
            ),
            Step("enough", "ダイスは1個以上？", D, next=_e(("roll", "はい"), ("failed", "いいえ"))),
            Step("roll", "ダイスを振る", C, actor=actor, check=command, next=_e("crit")),
            Step(
                "crit",
                "クリティカル値以上の出目がある？",
                D,
                next=_e(("extra", "はい"), ("fumble", "いいえ")),
            ),
            Step(
                "extra",
                "クリティカルのダイス1個につき1個追加して振る（連鎖する）",
                A,
                actor=actor,
                next=_e("crit"),
            ),
            Step(
                "fumble",
                "出目がすべてファンブル値以下？",
                D,
                next=_e(("failed", "はい：ファンブル"), ("total", "いいえ")),
            ),
            Step(
                "total", "出目をすべて合計し、固定値と修正を加えて達成値にする", A, next=_e("end")
            ),
            Step("failed", failed, A, next=_e("end")),
            Step("end", f"{title}終了", E),
        ),
        summary=f"コマンド {command[:2]} で振れる（例: {command}）。",
    )


DAMAGE_CHECK = _chain_check(
    "getb.damage_check",
    "ダメージ判定",
    "GDL+7",
    actor="攻撃側",
    what="ショート2・ロング3・バスター4・射撃1＋バレット",
    failed="攻撃失敗",
)


GUARD_CHECK = _chain_check(
    "getb.guard_check",
    "ガード判定",
    "GGS+5",
    actor="防御側",
    what="バックラー2・シールド3・タワー4",
    failed="ガード失敗（達成値0）",
)
