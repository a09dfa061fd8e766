"""GETB rulings (where the rule text is silent or ambiguous) and the settings they give.

>>> [r.option_name for r in RULINGS if r.option][:4]
['final_damage_tie', 'damage_fumble', 'guard_fumble', 'op_rounding']
>>> Settings.from_options({r.option_name: r.default for r in RULINGS if r.option}) == Settings()
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from saikoro.systems._base import OptionValue, Ruling

__all__ = ["RULINGS", "Settings"]

RULINGS: tuple[Ruling, ...] = (
    Ruling(
        key="getb.final_damage_tie",
        title="最終ダメージ計算で達成値が同値のとき",
        seed="攻撃側が上回れば差分がダメージ、防御側が勝てばダメージ1とあるが、"
        "同値の扱いは書かれていない。",
        decision="同値は防御側の勝利として、ダメージ1とする。"
        "オプション zero では、差分0として何も通らない扱いにする。",
        reasoning="対決の規定では、防御側は攻撃側の達成値を目標値として判定するので、"
        "同値なら防御側の判定は成功となる。攻撃もこれに揃えた。",
        option=True,
        default="defender",
        choices=("defender", "zero"),
        words=(
            ("defender", "防御側の勝ち"),
            ("zero", "ダメージ0"),
        ),
    ),
    Ruling(
        key="getb.damage_fumble",
        title="ダメージ判定のファンブル",
        seed="判定のファンブルは自動失敗とされるが、ダメージ判定でファンブルした場合の"
        "処理は個別には書かれていない。",
        decision="ダメージ判定で全ダイスがファンブル値以下なら、攻撃は失敗して攻撃終了"
        "（最終ダメージ0、ガード判定は行わない）。オプション none ではファンブルを"
        "無視して出目をそのまま合計する。",
        reasoning="ファンブルは判定全般の自動失敗であり、ダメージ判定の失敗は"
        "達成値0と同じく攻撃の失敗と読むのが自然。",
        option=True,
        default="fail",
        choices=("fail", "none"),
        words=(
            ("fail", "失敗扱い"),
            ("none", "ファンブルを無視"),
        ),
    ),
    Ruling(
        key="getb.guard_fumble",
        title="ガード判定のファンブル",
        seed="ガード判定にもダイスの規定はダメージ判定と同じとあるが、"
        "ファンブル時の処理は明記されていない。ダイスが0個なら自動失敗とある。",
        decision="全ダイスがファンブル値以下ならガードは自動失敗。失敗したガードは達成値0"
        "として扱い、攻撃側の達成値がそのままダメージになる。オプション none では"
        "ファンブルを無視して合計する。",
        reasoning="ダイス0個の自動失敗と同じ扱いにそろえた。ガードしなかった場合と"
        "同じ結果になり、失敗したガードが有利にも不利にもならない。",
        option=True,
        default="fail",
        choices=("fail", "none"),
        words=(
            ("fail", "失敗扱い"),
            ("none", "ファンブルを無視"),
        ),
    ),
    Ruling(
        key="getb.no_guard",
        title="ガードしない（放棄した）対象",
        seed="ガード判定はレスポンスでガードを選んだ対象だけが行う。"
        "ガードしなかった場合の最終ダメージの計算は書かれていない。",
        decision="ガード判定は振らず、防御側の達成値を0とみなす。"
        "ダメージ判定の達成値がそのままダメージ（最終ダメージ修正は適用）。",
        reasoning="比較の相手がいないので、攻撃側の達成値の全量が有効打になると読んだ。"
        "装甲や筋力はガード判定の一部なので、ガードしなければ加わらない。",
    ),
    Ruling(
        key="getb.attack_zero",
        title="ダメージ判定の達成値が0以下",
        seed="達成値が0なら自動的に失敗とある。マイナスの場合は書かれていない。",
        decision="達成値が0以下なら攻撃は失敗し、攻撃終了（最終ダメージ0）。",
        reasoning="負の達成値でガードと比べると防御側勝利でダメージ1になってしまい、"
        "0より悪い結果が有利になる矛盾を避けるため。",
    ),
    Ruling(
        key="getb.attack_critical",
        title="ダメージ判定のクリティカルと対決表",
        seed="対決表では攻撃側のクリティカルが勝利になるが、攻撃の最終ダメージ計算は"
        "達成値の比較で決まるとされている。",
        decision="ダメージ判定のクリティカルはダイスを増やす効果だけを持ち、勝敗は"
        "達成値の比較（とガード側のクリティカル）で決まる。対決表は対決（GC）にだけ使う。",
        reasoning="攻撃判定の手順は独自の比較規定を持ち、差分をダメージとする以上"
        "クリティカルでも低い達成値では差分が出ないため。",
    ),
    Ruling(
        key="getb.guard_floor",
        title="ガード判定の達成値が負・最終ダメージが負",
        seed="修正で合計が負になりうるが、ガード達成値の下限も最終ダメージの下限も書かれていない。",
        decision="ガード判定の達成値は0未満にならない。最終ダメージ修正を加えた結果も0未満にならない。",
        reasoning="ガードすることでダメージが増えるのは不自然であり、"
        "最終ダメージ0はダメージなしと明記されているため。",
    ),
    Ruling(
        key="getb.op_rounding",
        title="近接攻撃のOP回復の端数",
        seed="近接攻撃でダメージを与えると、与えたダメージの10分の1のOPを回復するとあるが、"
        "端数の扱いは書かれていない。",
        decision="端数は切り捨て（ダメージ9以下では回復しない）。"
        "オプションで up（切り上げ）、nearest（四捨五入）を選べる。",
        reasoning="国産TRPGの慣例として、特記のない端数は切り捨てが一般的。",
        option=True,
        default="down",
        choices=("down", "up", "nearest"),
        words=(
            ("down", "切り捨て"),
            ("up", "切り上げ"),
            ("nearest", "四捨五入"),
        ),
    ),
    Ruling(
        key="getb.ap_tie",
        title="APが同じキャラクターの行動順",
        seed="行動順はAPの高い順とあるが、同値の扱いは書かれていない。"
        "ラウンド開始時の効果は最大APの高い順に処理するとある。",
        decision="同値なら最大APの高い順、それも同じならPCを先にする（max_ap）。"
        "オプションで pc_first（PCを先、次に最大AP）、enemy_first（エネミー・NPCを先）を選べる。"
        "それでも同じなら並べた順（GMが決める）。",
        reasoning="規定の中で最大APを順序付けに使っている箇所に合わせた。",
        option=True,
        default="max_ap",
        choices=("max_ap", "pc_first", "enemy_first"),
        words=(
            ("max_ap", "最大APの高い順"),
            ("pc_first", "PCが先"),
            ("enemy_first", "エネミーが先"),
        ),
    ),
    Ruling(
        key="getb.ap_shortfall",
        title="APがコストに足りないとき",
        seed="攻撃などのコストとしてAPを消費するとあるが、"
        "残りAPがコストより少ない場合に行動できるかは書かれていない。",
        decision="APはコスト全額を払えなければその行動をできない（require）。"
        "オプション allow では、APが1以上残っていれば行動でき、APは0になる"
        "（ST・OPは常に全額必要）。",
        reasoning="コストは消費するものと明記されており、足りない分を無視する根拠がない。",
        option=True,
        default="require",
        choices=("require", "allow"),
        words=(
            ("require", "行えない"),
            ("allow", "APが1以上あれば行える"),
        ),
    ),
    Ruling(
        key="getb.miracle_tier",
        title="目標値16以上",
        seed="判定の成否は達成値が目標値以上かどうかで決まる。目標値の目安表の最上段（16以上）は、"
        "奇跡でもなければほぼ成功しない難しさとされ、本文はクリティカルでしか成功しない判定を"
        "奇跡が要る判定とも言い換えている。",
        decision="既定（false）：目標値16以上でも、成否は他の判定と同じく達成値と目標値の比較"
        "（クリティカルは常に成功、ファンブルは常に失敗）。"
        "オプション miracle_tier を true にすると、GM が決める目標値16以上の判定は"
        "クリティカルでしか成功しない。対決の防御側（目標値は攻撃側の達成値）には適用しない。",
        reasoning="目安表は GM が目標値を選ぶための目安で、16以上の段も『まず成功しない』という"
        "見込みを述べているだけで、比較の規則を変えるとは書かれていない。能力値が低ければ"
        "16以上はもともとクリティカルでしか届かないので、目安の言葉とも矛盾しない。"
        "目安の段を規則として読む卓のために true を残した。",
        option=True,
        default=False,
    ),
    Ruling(
        key="getb.weak_element",
        title="弱点属性を突いた攻撃",
        seed="攻撃はどれも物理・炎・氷・雷・神のいずれかの属性を持つと定めるが、"
        "エネミーの弱点属性を突いたときに何が変わるかは書かれていない。",
        decision="既定 die：攻撃の属性が対象の弱点属性のどれかなら、〈ダメージ判定〉のダイスを1個"
        "増やす。オプション none では弱点属性は描写だけとし、判定は変わらない。",
        reasoning="本文が攻撃の強さを変える手段として挙げるのは、ダメージ判定のダイスの増減・達成値の"
        "増減・最終ダメージの増減の三つ。属性の有利は武器の性能差に近く、ダイス1個が最も小さく"
        "規則の言葉に沿った変化になる。シナリオが弱点属性を書く以上、何も変わらない読みを既定に"
        "すると作者の意図が数字に表れないので、none はオプションに残した。",
        option=True,
        default="die",
        choices=("die", "none"),
        words=(
            ("die", "ダイスを1個増やす"),
            ("none", "描写だけ"),
        ),
    ),
    Ruling(
        key="getb.link_aid",
        title="リンクエイドのコスト・射程・回復量",
        seed="リンクエイドは戦闘不能の味方を救助するメインアクションで、コストのかかる行動の例に"
        "挙げられているが、コスト・届く距離・救助された者のHPは書かれていない。",
        decision="コストは【ST】1と【AP】2、対象は同じセルにいる戦闘不能の味方1人。既定 transfer："
        "救助する者が自分の【HP】の半分（切り捨て、最低1）を分け与え、救助された者はその【HP】で"
        "戦闘不能でなくなる（【HP】が2以上ないと救助できない）。オプション one では分け与えずに"
        "HP1、half では最大HPの半分（切り捨て、最低1）で立ち上がる。救助された者のAP・STは"
        "次のラウンド開始時に回復する。",
        reasoning="メインアクションの中で最も安い近接攻撃（ショートブレード）と同じ重さにそろえた。"
        "手を貸すには隣に立つ必要があると読み、射程は同じセルとした。リンクエイドは原作で自分の"
        "体力を分け与えて仲間を起こす行動であり、代償のない蘇生を繰り返せないよう既定を transfer "
        "にした。戦闘不能を解くだけの最小の読み（one）と、立て直しまで含める読み（half）も選べる。",
        option=True,
        default="transfer",
        choices=("transfer", "one", "half"),
        words=(
            ("transfer", "HPを分け与える"),
            ("one", "HP1で立ち上がる"),
            ("half", "最大HPの半分で立ち上がる"),
        ),
    ),
    Ruling(
        key="getb.skill_attack",
        title="スキル攻撃のコスト",
        seed="スキルによる攻撃のコストは、そのスキルの記述に従うとだけある。",
        decision="シナリオのエネミーの攻撃で種類がスキルのものは、コストが書かれていないので"
        "【ST】1・【AP】3（ロングブレードと同じ）とみなす。射程0を含むスキルは近接攻撃"
        "（【筋力】を加え、OPを回復する）、含まないものは射撃攻撃（【知力】を加える）として扱う。"
        "スキルの効果の文章はバランス計算では扱わず、その旨を結果に示す。",
        reasoning="スキルの記述がない以上、標準的な近接攻撃の重さを仮に置くのが最も中立。"
        "効果の文章は自由記述で機械的に解釈できないので、推測で数値にしない。",
    ),
    Ruling(
        key="getb.guard_weapon",
        title="ガードとカバーリングのコストと条件",
        seed="ターンの説明ではガードもカバーリングも【ST】1を消費するとある。攻撃のレスポンス"
        "ステップの表では二つのコスト欄が空で、ガードは近接武器を装備している間に行えると書き"
        "足され、カバーリングは味方の代わりにガードを行うものとされている。",
        decision="ガードとカバーリングはどちらも【ST】1。どちらもガードなので、近接武器を装備して"
        "いるときだけ行える（guard_weapon: melee）。PCは近接武器を装備して戦闘を始め、銃で撃つ"
        "ときはそのターンのサイドアクションの〈変形〉で銃に持ち替え、次に剣で攻撃するターンに"
        "また〈変形〉で戻す。銃を構えている間はガードもカバーリングもできない。シナリオで "
        "guard（盾と装甲値）を持つエネミーは、武器の形態がないので常にガードできる。"
        "オプション any では、銃を構えていてもガードできる。",
        reasoning="表の空欄は、ブレードの射程や対応する能力値の欄と同じく、上の行の【ST】1が"
        "三行にまたがっていると読めば、ターンの説明と食い違わない。装備の条件は表がはっきり"
        "書いているので既定に入れ、条件を気にしない卓のために any を残した。",
        option=True,
        default="melee",
        choices=("melee", "any"),
        words=(
            ("melee", "近接武器のときだけ"),
            ("any", "銃を構えていても行える"),
        ),
    ),
    Ruling(
        key="getb.covering",
        title="カバーリングできる味方",
        seed="カバーリングは、レスポンスで放棄を宣言した味方の代わりに自分が攻撃の対象になって"
        "ガードを行う行動だが、どこにいる味方を庇えるかは書かれていない。",
        decision="庇えるのは同じセルにいる味方だけ。庇われる側はそのレスポンスでガードも他の"
        "行動もしなかった（放棄した）味方。庇う側は【ST】1を払い、ガードの条件"
        "（getb.guard_weapon）を満たす必要があり、攻撃はその者を対象にしたものとして"
        "〈ダメージ判定〉（弱点属性も庇った者のもの）と〈ガード判定〉を行う。",
        reasoning="身を挺して庇うには隣に立っている必要があると読んだ。同じセルなら攻撃の射程も"
        "変わらないので、対象が入れ替わっても射程の判定が食い違わない。",
    ),
    Ruling(
        key="getb.downed",
        title="HP0と〔戦闘不能〕",
        seed="最終ダメージを【HP】から引くとあり、リンクエイドは〔戦闘不能〕の味方を救助すると"
        "あるが、何が〔戦闘不能〕にするのか、その間に何ができないのかは書かれていない。",
        decision="【HP】が0以下になったキャラクターは〔戦闘不能〕。その場で【AP】が0になり、"
        "以後ターンもレスポンスも行わず、攻撃の対象にもならず、ラウンド開始時にも何も回復しない。"
        "リンクエイドで救助されると立ち上がり、【AP】・【ST】は次のラウンド開始時に回復する。",
        reasoning="【HP】はダメージを受け止める値なので、尽きれば戦えないと読むのが自然。"
        "救助されたラウンドにすぐ動けると、倒れる前の【AP】が残っている者だけが得をするため、"
        "次のラウンドからにそろえた。",
    ),
    Ruling(
        key="getb.battle_start",
        title="戦闘開始時の【HP】【OP】",
        seed="ラウンド開始時に【AP】と【ST】を最大値まで回復するとあるが、戦闘開始時の【HP】と"
        "【OP】がいくつかは書かれていない。",
        decision="戦闘開始時の【HP】と【OP】は最大値。【AP】と【ST】は最初のラウンド開始時の"
        "回復で最大値になる。",
        reasoning="バトルパートの前の消耗はシナリオの側で描くもので、データの値をそのまま"
        "使うのが最も中立。",
    ),
    Ruling(
        key="getb.op_cap",
        title="OP回復の上限",
        seed="近接攻撃でダメージを与えると【OP】を回復するとあるが、【AP】【ST】と違い、"
        "回復の上限は書かれていない。",
        decision="回復した【OP】は【最大OP】を超えない。",
        reasoning="回復という言葉は最大値までを指すと読み、【AP】【ST】の回復の規定にそろえた。",
    ),
    Ruling(
        key="getb.battle_end",
        title="戦闘が終わる時点",
        seed="バトルパートはメインミッションの達成条件か失敗条件を満たすことで終わり、"
        "戦闘終了を宣言したら以後の戦闘処理はすべて終わるとある。一方でラウンドの処理は、"
        "条件が満たされるまでラウンドを繰り返すとも書かれている。",
        decision="既定 immediate：条件を満たしたその時点（倒すべきエネミーが全員〔戦闘不能〕に"
        "なった攻撃、PCが全員〔戦闘不能〕になった攻撃の直後）に戦闘が終わる。オプション "
        "round_end では、ラウンド終了時にだけ確かめる（両方を満たしていればメインミッションの"
        "達成）。ラウンドの上限が来たら時間切れ。",
        reasoning="戦闘終了の宣言の後は何も処理しないとあるので、満たした時点で終わる読みを"
        "既定にした。ラウンドの区切りで確かめる卓のために round_end を残した。",
        option=True,
        default="immediate",
        choices=("immediate", "round_end"),
        words=(
            ("immediate", "条件を満たした時点"),
            ("round_end", "ラウンドの終わり"),
        ),
    ),
    Ruling(
        key="getb.wait_rounding",
        title="待機でAPを半分にするときの端数",
        seed="待機はAPを半分にするとあるが、端数の扱いは書かれていない。",
        decision="切り捨て（AP1で待機すると0）。",
        reasoning="端数切り捨ての慣例に従い、全員のAPがいずれ0になってラウンドが終わるようにする。",
    ),
    Ruling(
        key="getb.dial_clock",
        title="ダイアクロックマップの隣接と距離",
        seed="中央の周りにinセル12個、その外側にoutセル12個が円形に並び、"
        "射程は数えたセル数とある。隣接の細目は図に依る。",
        decision="中央は全inセルと、inセルは左右のinセル・中央・同じ番号のoutセルと、"
        "outセルは左右のoutセル・同じ番号のinセルと隣接する。距離は最短経路のセル数で、"
        "射程は中央を通って数えてよい。PCの移動は中央を通らない経路で数える。",
        reasoning="円形の二重リングと中心の自然な読み。PCが中央に進入できない規定を"
        "移動にだけ適用し、射程は位置関係として数える。",
    ),
    Ruling(
        key="getb.check_dice",
        title="判定のダイスとクリティカルの連鎖の順",
        seed="判定は1D10に能力値を足す。ファンブルは出目が全てファンブル値以下のとき。"
        "ダメージ・ガード判定では、クリティカルのダイスの数だけダイスを追加する。",
        decision="通常の判定はダイス1個でクリティカル・ファンブルを見る。"
        "ダメージ・ガード判定ではダイスを1個ずつ、クリティカルの連鎖が終わるまで振ってから"
        "次のダイスに進む（BCDice の xU10[10] と同じ順）。",
        reasoning="合計は振る順によらないので、既存ツールと同じ出目で同じ結果になる順を選んだ。",
    ),
)
"""Every GETB ruling, options first in the order the commands use them."""


@dataclass(frozen=True)
class Settings:
    """The ruling options that change how commands resolve (defaults as in :data:`RULINGS`)."""

    miracle_tier: bool = False
    damage_fumble: str = "fail"
    guard_fumble: str = "fail"
    final_damage_tie: str = "defender"
    op_rounding: str = "down"

    @classmethod
    def from_options(cls, options: Mapping[str, OptionValue]) -> Settings:
        """The settings for the options in force (option name -> value)."""
        return cls(
            miracle_tier=bool(options["miracle_tier"]),
            damage_fumble=str(options["damage_fumble"]),
            guard_fumble=str(options["guard_fumble"]),
            final_damage_tie=str(options["final_damage_tie"]),
            op_rounding=str(options["op_rounding"]),
        )
