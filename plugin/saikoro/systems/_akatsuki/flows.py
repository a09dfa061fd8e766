"""The system's procedures as data: check, opposed check, support and boost.

>>> sorted(FLOWS)
['akatsuki.boost', 'akatsuki.check', 'akatsuki.opposed', 'akatsuki.support']
>>> all(f.validate() is None for f in FLOWS.values())
True
"""

from __future__ import annotations

from saikoro.systems._flow import Edge, Flow, Step, StepKind

__all__ = ["FLOWS"]

A, C, D, E, T, S = (
    StepKind.ACTION,
    StepKind.CHECK,
    StepKind.DECISION,
    StepKind.END,
    StepKind.TIMING,
    StepKind.SUBFLOW,
)


def _e(*targets: str | tuple[str, str]) -> tuple[Edge, ...]:
    return tuple(Edge(t) if isinstance(t, str) else Edge(t[0], t[1]) for t in targets)


CHECK = Flow(
    "akatsuki.check",
    "行為判定",
    (
        Step(
            "start",
            "行為を宣言し、取り掛かるところまでを語る",
            StepKind.START,
            actor="PL",
            next=_e("need"),
        ),
        Step(
            "need",
            "判定が必要か",
            D,
            actor="GM",
            next=_e(("pick", "成否が読めない／展開を左右する"), ("auto", "できて当然")),
        ),
        Step("auto", "判定なしで成功", E),
        Step(
            "pick",
            "対応する能力とスタイルを決める（PLの提案はGMが却下できる）",
            A,
            actor="GM",
            next=_e("band"),
        ),
        Step(
            "band",
            "基本難易度が-4以下で、能力が超人（レベル9以上）でない？",
            D,
            actor="GM",
            next=_e(("refused", "はい"), ("support", "いいえ")),
        ),
        Step("refused", "判定不可（失敗扱い）", E),
        Step(
            "support",
            "サポーターを募る（2人まで）",
            S,
            actor="味方",
            flow="akatsuki.support",
            next=_e("target"),
        ),
        Step(
            "target",
            "目標値＝能力レベル＋基本難易度＋下準備(+1〜+3)＋サポート＋その他の修正",
            A,
            actor="PL",
            next=_e("pre"),
        ),
        Step(
            "pre",
            "事前ブースト：使った覚醒札の覚醒ポイント合計を目標値に加える",
            T,
            actor="PL",
            next=_e("low"),
        ),
        Step("low", "目標値が2未満？", D, next=_e(("autofail", "はい"), ("roll", "いいえ"))),
        Step("autofail", "ダイスを振らずに自動失敗", E),
        Step("roll", "2D6を振る", C, actor="PL", check="AK7", next=_e("zoro")),
        Step(
            "zoro",
            "スタイルが得意分野で、出目がゾロ目？",
            D,
            next=_e(("post_z", "はい"), ("post", "いいえ")),
        ),
        Step(
            "post",
            "事後ブースト：使った覚醒札の枚数だけ目標値に加える",
            T,
            actor="PL",
            next=_e("cmp"),
        ),
        Step("cmp", "出目の合計が目標値以下？", D, next=_e(("ok", "はい"), ("ng", "いいえ"))),
        Step("ng", "失敗", E),
        Step("ok", "成功：達成度＝目標値－出目の合計", A, next=_e("done")),
        Step(
            "post_z",
            "事後ブースト：使った覚醒札の枚数だけ目標値に加える",
            T,
            actor="PL",
            next=_e("cmp_z"),
        ),
        Step(
            "cmp_z", "出目の合計が目標値以下？", D, next=_e(("alpha", "はい"), ("beta", "いいえ"))
        ),
        Step("alpha", "α：覚醒札を1枚得る（サポーターも同じ枚数を得る）", A, next=_e("ok_z")),
        Step("beta", "β：目標値を超えていても成功になる", A, next=_e("ok_z")),
        Step("ok_z", "成功：達成度＝目標値－出目の合計＋1", A, next=_e("done")),
        Step("done", "成功（結果の描写は必要ならGMが行う）", E),
    ),
    summary="2D6の合計が目標値以下なら成功する下方ロール。得意分野のスタイルではゾロ目に特典がある。",
)

OPPOSED = Flow(
    "akatsuki.opposed",
    "対抗判定",
    (
        Step(
            "start",
            "誰かの行為判定に、別のキャラクターが判定で挑む",
            StepKind.START,
            next=_e("kind"),
        ),
        Step(
            "kind",
            "種別を決める：抵抗（被害を受ける側が抗う）／妨害（横から無効化を狙う）／"
            "競争（同じ行為で成果を競う）",
            A,
            actor="GM",
            next=_e("same"),
        ),
        Step(
            "same",
            "スタイルは原則として相手と同じ（ルールやGMの指定があればそれに従う）",
            A,
            actor="GM",
            next=_e("roll"),
        ),
        Step(
            "roll",
            "能動側と受動側がそれぞれ行為判定を行う",
            C,
            actor="両者",
            check="AKR7/7",
            next=_e("both"),
        ),
        Step(
            "both",
            "双方の成否は？",
            D,
            next=_e(("ach", "両者成功"), ("one", "片方だけ成功"), ("fail", "両者失敗")),
        ),
        Step("one", "成功した側の勝ち", E),
        Step("fail", "両者失敗：受動側の勝ち、競争なら引き分け（ルーリング、選択可）", E),
        Step("ach", "達成度に差がある？", D, next=_e(("win_ach", "ある"), ("tgt", "同じ"))),
        Step("win_ach", "達成度の高い側の勝ち", E),
        Step("tgt", "目標値に差がある？", D, next=_e(("win_tgt", "ある"), ("kind2", "同じ"))),
        Step("win_tgt", "目標値の高い側の勝ち", E),
        Step(
            "kind2",
            "種別は？",
            D,
            next=_e(("passive", "抵抗"), ("active", "妨害"), ("draw", "競争")),
        ),
        Step("passive", "受動側の勝ち", E),
        Step("active", "能動側の勝ち", E),
        Step("draw", "引き分け", E),
    ),
    summary="達成度の比べ合い。同値なら目標値、さらに同値なら種別で決める。",
)

SUPPORT = Flow(
    "akatsuki.support",
    "補佐（サポーター）",
    (
        Step(
            "start",
            "自分は判定せず、判定者の補佐に回ると申し出る",
            StepKind.START,
            actor="サポーター",
            next=_e("count"),
        ),
        Step(
            "count",
            "この判定のサポーターが既に2人いる？",
            D,
            next=_e(("no", "はい"), ("combat", "いいえ")),
        ),
        Step("combat", "戦闘中？", D, next=_e(("lane", "はい"), ("qual", "いいえ"))),
        Step(
            "lane",
            "対象と同じレーンにいて、マイナーアクションを消費できる？",
            D,
            next=_e(("minor", "はい"), ("no", "いいえ")),
        ),
        Step("minor", "マイナーアクションを消費する", A, actor="サポーター", next=_e("qual")),
        Step(
            "qual",
            "その行為が得意分野、または能力が超人（レベル9以上）？",
            D,
            next=_e(("plus2", "はい"), ("level", "いいえ")),
        ),
        Step(
            "level",
            "その行為の能力レベルが5（人並み）以上？",
            D,
            next=_e(("plus1", "はい"), ("no", "いいえ")),
        ),
        Step("plus2", "目標値+2", A, next=_e("ok")),
        Step("plus1", "目標値+1", A, next=_e("ok")),
        Step("ok", "補佐が成立（判定者がゾロ目で覚醒札を得れば、同じ枚数を得る）", E),
        Step("no", "サポーターになれない", E),
    ),
    summary="1つの判定に2人まで。専門家と超人は+2、人並み以上は+1。",
)

BOOST = Flow(
    "akatsuki.boost",
    "ブースト",
    (
        Step(
            "start",
            "覚醒札を好きな枚数使ってブーストを宣言（いつでも可）",
            StepKind.START,
            actor="PL",
            next=_e("when"),
        ),
        Step("when", "ダイスを振る前？", D, next=_e(("before", "振る前"), ("after", "振った後"))),
        Step("before", "使った札の覚醒ポイントの合計だけ目標値が上がる", A, next=_e("done")),
        Step("after", "使った札の枚数だけ目標値が上がる", A, next=_e("done")),
        Step("done", "その判定1回にだけ有効", E),
    ),
    summary="同じ札でも、振る前に使う方が上昇幅が大きい。",
)

FLOWS: dict[str, Flow] = {f.id: f for f in (CHECK, OPPOSED, SUPPORT, BOOST)}
