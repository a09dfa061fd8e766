"""Where the rule text is silent or unclear, what saikoro does (and why).

>>> [r.option_name for r in RULINGS if r.option]
['both_fail', 'alpha', 'beta_achievement', 'card_points']
>>> Settings.from_options({r.option_name: r.default for r in RULINGS if r.option}) == Settings()
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from saikoro.systems._base import OptionValue, Ruling

from .checks import CheckRules
from .opposed import BothFail

__all__ = ["RULINGS", "Settings"]

RULINGS: tuple[Ruling, ...] = (
    Ruling(
        key="akatsuki.both_fail",
        title="対抗判定で双方が失敗したとき",
        seed=(
            "対抗判定は双方成功なら達成度を比べ、同値なら目標値、さらに同値なら種別"
            "（抵抗・妨害・競争）で勝者を決めると定めるが、両者とも失敗した場合には触れていない。"
        ),
        decision=(
            "既定は passive：能動側の行為そのものが成り立たないので受動側の勝ち"
            "（競争だけは引き分け）。"
            "draw を選ぶと常に引き分け、compare を選ぶと成功同士と同じく達成度（負の値もそのまま）"
            "→目標値→種別の順で比べる。"
        ),
        reasoning=(
            "抵抗では加害の行為が、妨害では妨げられる側の行為が、失敗した時点で受動側の狙いは"
            "達成されている。競争は双方が同じことを試みるので、どちらも届かなければ優劣がない。"
            "卓によっては失敗の度合いで比べたいこともあるため選択肢にした。"
        ),
        option=True,
        default="passive",
        choices=("passive", "draw", "compare"),
        words=(
            ("passive", "受動側の勝ち"),
            ("draw", "引き分け"),
            ("compare", "達成度を比べる"),
        ),
    ),
    Ruling(
        key="akatsuki.alpha",
        title="事後ブーストとゾロ目の覚醒札",
        seed=(
            "得意分野のゾロ目は、目標値以下で成功していれば覚醒札を1枚もたらし、目標値を超えていても"
            "成功になる。ダイスを振った後のブーストは使った枚数だけ目標値を上げる。"
            "事後ブーストで目標値内に収まったゾロ目がどちらに当たるかは書かれていない。"
        ),
        decision=(
            "既定は final：事後ブースト込みの最終的な目標値以下なら覚醒札を得る。"
            "before を選ぶと、振る前に確定した目標値以下のゾロ目だけが覚醒札を得る"
            "（事後ブーストは達成度と成否にだけ効く）。"
        ),
        reasoning=(
            "ブーストは目標値そのものを上げる効果と書かれており、成否は目標値と出目の比較なので、"
            "上がった後の目標値で判断するのが文面に素直。ただし札を払って札を得る循環を嫌う卓のために"
            "選択肢を用意した。"
        ),
        option=True,
        default="final",
        choices=("final", "before"),
        words=(
            ("final", "事後ブースト込みの目標値で判断"),
            ("before", "振る前の目標値で判断"),
        ),
    ),
    Ruling(
        key="akatsuki.beta_achievement",
        title="目標値を超えたゾロ目成功の達成度",
        seed=(
            "達成度は目標値と出目の合計の差で、ゾロ目ではさらに1点増える。目標値を超えたゾロ目の"
            "成功で達成度がいくつになるかは本文に明記がない（参考の表は本文に含まれていない）。"
        ),
        decision=(
            "既定は raw：目標値－出目＋1をそのまま使う（0や負になりうる）。"
            "clamp を選ぶと差を0とみなし、ゾロ目の+1で達成度1とする。"
        ),
        reasoning=(
            "差分という定義を一貫して当てはめると負の値が自然に出る。対抗判定で目標値内の成功が"
            "超過成功に負けない点も定義どおり。ただし成功に負の達成度を嫌う卓もあるので選べるようにした。"
        ),
        option=True,
        default="raw",
        choices=("raw", "clamp"),
        words=(
            ("raw", "そのまま"),
            ("clamp", "目標値までに抑える"),
        ),
    ),
    Ruling(
        key="akatsuki.auto_failure",
        title="自動失敗の判定時点",
        seed="振る前の目標値が2未満なら判定は自動的に失敗すると定めている。",
        decision=(
            "振る前の目標値（事前ブースト・下準備・サポーター込み）が2未満ならダイスを振らずに失敗。"
            "ダイスを振らないので、ゾロ目の効果も事後ブーストも起こらない。"
        ),
        reasoning=(
            "事前ブーストは振る前に目標値を上げるので判定に含まれ、事後ブーストは振った後の効果なので"
            "振らない判定には使えない。"
        ),
    ),
    Ruling(
        key="akatsuki.superhuman_band",
        title="超人でない者の-4以下の難易度",
        seed="常人の領域を超える難易度（-4以下）は、その能力がレベル9以上の者だけが挑めるとしている。",
        decision=(
            "レベル9未満で基本難易度-4以下を指定した判定は「判定不可」としてダイスを振らずに失敗扱い。"
            "判定不可かどうかは基本難易度（D）だけで決め、その他の修正値（±n）では決めない。"
            "基本難易度の上限は+1（簡単）、下準備は+1〜+3、サポーターは2人まで。"
        ),
        reasoning=(
            "文面は「判定そのものができない」とするので、成功の可能性は0。エラーにせず失敗として"
            "扱えば、確率表や対抗判定の中でも自然に使える。"
        ),
    ),
    Ruling(
        key="akatsuki.interfere_sides",
        title="妨害で能動側になるのはどちらか",
        seed=(
            "対抗判定は、誰かが行っている行為に挑む形で振る判定と定義されている。妨害は相手の行為を"
            "横から打ち消そうとするもので、達成度も目標値も同じなら妨害では能動側が勝つ。"
            "能動側・受動側がそれぞれ誰を指すかは、種別ごとには書かれていない。"
        ),
        decision=(
            "どの種別でも、挑まれている行為をしている側が能動側、それに挑む側が受動側。"
            "妨害では行為者が能動側、妨害者が受動側なので、完全な同点では妨害は失敗し行為が通る。"
            "コマンド AKI は能動側（行為者）を先に書く。同点を妨害者の勝ちとしたい卓は、"
            "妨害者を先（能動側）に書けばよい。"
        ),
        reasoning=(
            "定義が対抗判定を『行われている行為に挑む判定』としているので、挑む側を受動側と読めば"
            "三つの種別で役割が一貫する。抵抗では被害者（挑む側）が受動側で同点なら守りきり、"
            "妨害では行為者が能動側で同点なら行為が通る。妨害者を能動側とする読み"
            "（仕掛けるのは妨害者だから）も成り立つが、その場合は入力の順を入れ替えるだけで同じ結果が"
            "得られるので、オプションは設けない。"
        ),
    ),
    Ruling(
        key="akatsuki.opposed_target",
        title="対抗判定の同値比較に使う目標値",
        seed="達成度が同じなら目標値の高い方が勝つとしている。",
        decision="比べるのは事後ブースト込みの最終的な目標値。自動失敗側の達成度はどの値より低いとみなす。",
        reasoning="達成度もその最終目標値から計算されるので、同じ値で比べるのが一貫している。",
    ),
    Ruling(
        key="akatsuki.card_points",
        title="覚醒札1枚の覚醒ポイント（バランス計算）",
        seed=(
            "振る前のブーストは使った札の覚醒ポイントの合計、振った後のブーストは枚数だけ目標値を"
            "上げる。1枚が何ポイントかはこの文書に無く、シナリオの書式も札の枚数しか持たない。"
        ),
        decision=(
            "コマンドの B n はポイントをそのまま受け取る。バランス計算（saikoro simulate）では"
            "札1枚を card_points ポイント（既定 1）とみなし、得た札も同じ値とする。"
        ),
        reasoning=(
            "札は少なくとも1枚1ポイント分の価値があるので、1 が最も仮定の少ない値になる。"
            "このとき事前ブーストは事後ブーストより大きくならず、目標値が2未満の自動失敗を避ける"
            "とき（と alpha=before でゾロ目の札を狙うとき）だけ意味を持つ。"
            "札の点数が大きい卓は card_points で合わせる。"
        ),
        option=True,
        default=1,
    ),
    Ruling(
        key="akatsuki.after_boost_policy",
        title="事後ブーストの枚数",
        seed="ダイスの後でも覚醒札を好きな枚数使えるが、1枚につき目標値+1にしかならない。",
        decision=(
            "コマンドでは A<n> で常に n 枚使うか、U<n> で「失敗したときだけ、成功に必要な最少枚数"
            "（n枚まで）」を使うかを選ぶ。U でも足りない場合は使わない。"
            "ゾロ目で既に成功なら使わない。"
        ),
        reasoning=(
            "プレイヤーは出目を見てから使う枚数を決められるので、確率計算には方針が必要になる。"
            "最もよくある使い方（失敗を救うのに必要なだけ）と固定枚数の両方を表せるようにした。"
        ),
    ),
    Ruling(
        key="akatsuki.npc_support",
        title="シナリオの補佐（support）とサポーターの枠（バランス計算）",
        seed="サポーターは1人につき目標値+1（専門家・超人なら+2）で、1つの判定に2人までしか"
        "加われない。判定者がゾロ目で覚醒札を得れば、サポーターも同じ枚数を受け取る。",
        decision="シナリオの判定の support は NPC の補佐の修正の合計で、saikoro simulate では"
        "その1点を NPC の補佐1人分とし、2人の枠を先に埋める（support 1 なら PC の補佐は"
        "1人まで、2 以上なら PC は補佐に入れない）。NPC は覚醒札を持たないので、ゾロ目の"
        "おこぼれは PC のサポーターだけが受け取る。",
        reasoning="ふつうの補佐は1人+1なので、1点を1人と読むのが最も多い場合に合う。"
        "こう読めば、NPC と PC を合わせても2人の上限を超えない。",
    ),
    Ruling(
        key="akatsuki.series",
        title="難易度の判定の列（バランス計算）",
        seed="ルールは1回の行為判定を定めるだけで、シナリオの難所を続けて越えることや、"
        "失敗した判定をやり直せるかについては書いていない。",
        decision="saikoro simulate は、シナリオの difficulty_targets を上から順に1回ずつ判定する。"
        "前の判定に失敗しても次の判定は行い（覚醒札はそのまま持ち越す）、すべてに成功すれば"
        "メインミッションの成功、1つでも失敗すれば失敗（結末には最初に失敗した判定が出る）。"
        "メインミッションの rounds は使わない。",
        reasoning="難所の列は『すべて越えれば目的地に着く』と読むのが最も素直。"
        "失敗の後も判定を続けるので、『3つ以上越える』のようなサイドミッションも数えられる。",
    ),
    Ruling(
        key="akatsuki.balance_boosts",
        title="バランス計算での覚醒札の使い方",
        seed="ブーストはいつでも好きな枚数でき、振る前は札のポイント合計、振った後は枚数だけ"
        "目標値を上げる。使う時機と枚数はプレイヤーが決める。",
        decision="saikoro simulate（spend_cards の方針）では、判定する PC がまず振る前に、"
        "その判定の成功率が最も高くなる最少枚数を使い、残りの札で失敗を救える最少枚数を振った後に使う。"
        "札は card_points ポイントとみなし、ゾロ目で得た札は判定者と PC のサポーターが受け取る。",
        reasoning="その判定を確実にしながら札を無駄にしない、最も素直な使い方。"
        "後の判定のために札を残す駆け引きは方針として表しきれないので、"
        "frugal（使わない）と比べられるようにした。",
    ),
)


@dataclass(frozen=True)
class Settings:
    """The ruling options the commands read (defaults as in :data:`RULINGS`).

    Attributes:
        check: the check rulings (``alpha``, ``beta_achievement``).
        both_fail: what an opposed check gives when both sides fail (``both_fail``).
    """

    check: CheckRules = field(default_factory=CheckRules)
    both_fail: BothFail = BothFail.PASSIVE

    @classmethod
    def from_options(cls, options: Mapping[str, OptionValue]) -> Settings:
        """The settings for the options in force (option name -> value)."""
        return cls(
            check=CheckRules(
                alpha=str(options["alpha"]),
                beta_achievement=str(options["beta_achievement"]),
            ),
            both_fail=BothFail(str(options["both_fail"])),
        )
