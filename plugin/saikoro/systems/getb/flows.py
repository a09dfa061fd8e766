"""GETB procedures as data: battle, round, turn, attack, damage/guard checks, check, contest.

>>> sorted(FLOWS)[:3]
['getb.attack', 'getb.battle', 'getb.check']
>>> all(f.validate() is None for f in FLOWS.values())
True
"""

from __future__ import annotations

from saikoro.systems.flow import Edge, Flow, Step, StepKind

__all__ = ["FLOWS"]

A, C, D, E, S, T, X = (
    StepKind.ACTION,
    StepKind.CHECK,
    StepKind.DECISION,
    StepKind.END,
    StepKind.START,
    StepKind.TIMING,
    StepKind.SUBFLOW,
)


def _e(*targets: str | tuple[str, str]) -> tuple[Edge, ...]:
    return tuple(Edge(t) if isinstance(t, str) else Edge(t[0], t[1]) for t in targets)


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
            "ガード ST1・近接武器の装備中のみ、カバーリング ST1、スキル・携行品、放棄）",
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

FLOWS: dict[str, Flow] = {
    f.id: f for f in (BATTLE, ROUND, TURN, ATTACK, DAMAGE_CHECK, GUARD_CHECK, CHECK, CONTEST)
}
"""Every GETB flow by id."""
