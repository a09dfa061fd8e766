"""Documentation of the akatsuki commands (shown on the site's command reference)."""

from __future__ import annotations

from saikoro.systems._base import CommandDoc

__all__ = ["COMMANDS"]

_TOKENS = (
    ("Z", "スタイルが得意分野（ゾロ目の効果が有効）"),
    ("D±n", "基本難易度：+1 簡単、0 普通、-1 手強い、-2 困難、-3 至難、-4以下は超人のみ"),
    ("Pn", "下準備の修正 +1〜+3"),
    ("H…", "サポーター（2人まで）：1人ごとに 1（人並み以上）か 2（専門家・超人）を並べる"),
    ("Bn", "事前ブースト：振る前に使った覚醒札の覚醒ポイント合計"),
    ("An", "事後ブースト：振った後に必ず n 枚使う（1枚+1）"),
    ("Un", "事後ブースト：失敗したときだけ、成功に必要な最少枚数を n 枚まで使う"),
    ("±n", "その他の修正（業物のバフ、高天力など）"),
)

COMMANDS: tuple[CommandDoc, ...] = (
    CommandDoc(
        syntax="AK[能力レベル][修正…]",
        summary=(
            "行為判定。2D6の合計が目標値以下なら成功。目標値が2未満なら振らずに自動失敗。"
            "Z を付けると得意分野のゾロ目（成功・覚醒札・達成度+1）を扱う。"
        ),
        examples=("AK7", "AK7Z", "AK6D-1P1H1", "AK9ZD-4H2", "AK5B3", "AK6ZU2"),
        parameters=(("能力レベル", "判定に使う能力のレベル（0〜99）"), *_TOKENS),
    ),
    CommandDoc(
        syntax="AK[R|I|C][能動側]/[受動側]",
        summary=(
            "対抗判定。両者成功なら達成度、同じなら目標値、それも同じなら種別で勝敗を決める"
            "（R 抵抗：受動側、I 妨害：能動側、C 競争：引き分け）。各側は AK の後ろと同じ書き方。"
        ),
        examples=("AKR7/6", "AKI8Z/7D-1", "AKC6Z/6Z", "AKR5H1/9Z"),
        parameters=(
            ("R / I / C", "抵抗 / 妨害 / 競争"),
            ("能動側", "行為を行う側の能力レベルと修正（例 7ZP1）"),
            ("受動側", "それに挑む側の能力レベルと修正"),
        ),
    ),
)
