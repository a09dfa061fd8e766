"""Rulings for the nation-building game where its rule text is silent or unclear.

>>> [r.option_name for r in RULINGS if r.option]
['die', 'die_count', 'damage_floor', 'equal_power', 'nation_values']
>>> Settings.from_options({r.option_name: r.default for r in RULINGS if r.option}) == Settings()
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from saikoro.dice import Dist
from saikoro.systems._base import OptionValue, Ruling

from . import checks

__all__ = ["RULINGS", "Settings"]

RULINGS: tuple[Ruling, ...] = (
    Ruling(
        key="kokuryoku.die",
        title="判定に使うダイス",
        seed="判定は能力値とダイスの出目の和とされるが、何面のダイスを何個振るかは書かれていない。"
        "例に出てくる出目は 2〜9 の範囲にある。",
        decision="既定では10面ダイス1個（1D10）を振る。オプション die で面数を変えられる"
        "（2〜20、例: die=6 で 1D6）。",
        reasoning="例の出目 9・8・7 は 1D6 では出ないので、1個で振るなら 1D10 が最も自然に合う。"
        "卓ごとに別の読み方ができるよう面数は選べるようにした。",
        option=True,
        default=10,
    ),
    Ruling(
        key="kokuryoku.die_count",
        title="判定に使うダイスの個数",
        seed="ダイスの個数も書かれていない。",
        decision="既定は1個。オプション die_count で個数を変えられる"
        "（1〜3、die=6, die_count=2 で 2D6）。",
        reasoning="例の出目はすべて 2D6 の範囲にも収まるため、2D6 と読む卓のための選択肢を残した。",
        option=True,
        default=1,
    ),
    Ruling(
        key="kokuryoku.damage_floor",
        title="防御側の値が上回ったときのダメージ",
        seed="最終攻撃力と最終防御力の差の分だけダメージが入るとあるが、"
        "最終防御力の方が大きい場合については触れていない。",
        decision="差がマイナスになったときダメージは 0（オプション damage_floor の値が下限。"
        "既定 0。1 にすると勝った攻撃は必ず1点以上通る）。",
        reasoning="『差』は攻撃側から防御側を引いた値と読み（絶対値ではない）、"
        "負のダメージで相手の国力や愛が回復するのは不自然なので下限で止める。",
        option=True,
        default=0,
    ),
    Ruling(
        key="kokuryoku.equal_power",
        title="国力が同じときの先攻",
        seed="ラウンド開始時に国力の大きい側が先攻を取るとあるが、同じ値の場合は書かれていない。",
        decision="既定では PC 側が先攻（オプション equal_power: pc / npc / dice。"
        "dice は両陣営が判定ダイスを1回ずつ振り、大きい方が先攻、同値なら振り直し）。",
        reasoning="主役である PC 側を優先するのが卓で最も受け入れられやすい。",
        option=True,
        default="pc",
        choices=("pc", "npc", "dice"),
        words=(
            ("pc", "PCが先攻"),
            ("npc", "NPCが先攻"),
            ("dice", "ダイスで決める"),
        ),
    ),
    Ruling(
        key="kokuryoku.support_value",
        title="支援判定の値（例の計算違い）",
        seed="最終フェーズの攻撃側の例では、運2に出目4を足した支援判定の値が 4、"
        "合計が 15 と書かれている。ほかの例では能力値と出目の和がそのまま使われている。",
        decision="支援判定も常に能力値と出目の和とする（その例の値は 6、合計は 17）。",
        reasoning="手順の本文ははっきり『任意の能力値+ダイスの出目』と定めており、"
        "防御側の例（知覚2+出目2=4、合計13）もその通りになっている。攻撃側の例は書き誤りと読む"
        "（出目が 2 なら例の 4 と 15 に一致する）。",
    ),
    Ruling(
        key="kokuryoku.reach",
        title="目標値への到達",
        seed="中間フェーズでは目標値に到達するまで支援を重ねる。",
        decision="合計が目標値以上になった時点で成功とし、それ以降は誰も判定しない。",
        reasoning="『到達』は目標値ちょうどを含むと読むのが自然で、BCDice の >= とも揃う。",
    ),
    Ruling(
        key="kokuryoku.odds_participants",
        title="確率計算での参加者",
        seed="支援するかどうか、続けるかどうかはプレイヤーが選ぶ。",
        decision="確率計算では、中間フェーズは並べた全員が目標到達まで順に判定し、"
        "最終フェーズの攻撃・防御は並べた全員が判定すると仮定する。",
        reasoning="途中でやめる選択は成功率を上げないので、並べた人数で振り切る場合が"
        "その顔ぶれでの最善の確率になる。",
    ),
    Ruling(
        key="kokuryoku.declined_reaction",
        title="リアクションを行わない場合",
        seed="防御側がリアクションを選ばなければダメージ算出へ進み、"
        "防御力の算出は省いて 0 とする。",
        decision="攻撃は自動的に勝ち、ダメージは攻撃力+出目がそのまま入る。",
        reasoning="本文どおり。対決も防御ダイスも行わない。",
    ),
    Ruling(
        key="kokuryoku.defeat",
        title="国力ゲージ・愛が0以下",
        seed="国力ゲージが 0 になった側が負け、愛が 0 になったキャラクターは戦闘不能になる。"
        "ダメージの算出の手順の中でそう定めている。",
        decision="ダメージで 0 を下回った場合も 0 になったものとして扱う。"
        "国力ゲージが 0 になった時点で決着し、そのラウンドの残りの手番は行わない。",
        reasoning="ダメージは差の分だけ入るので、ちょうど 0 で止まることはまれだから。"
        "敗北はダメージを算出したその場で起きると書かれているので、ラウンドの終わりを待たない。",
    ),
    Ruling(
        key="kokuryoku.nation_values",
        title="国の攻撃力・防御力",
        seed="最終フェーズで判定するのは行動できる PC・NPC で、ダメージは攻撃判定をした者の攻撃力"
        "＋出目、防御は防御判定をした者の防御力＋出目で求める。国力は国のゲージ（HP）とされ、"
        "国そのものが攻撃・防御する手順や、国の攻撃力・防御力の使い道は書かれていない。",
        decision="既定（nation_values: alone）では、国の attack・defence は、その陣営に人物が"
        "1人もいないときだけ使う。そのときは国が1人の人物として行動する（能力値はすべて 0、"
        "攻撃力・防御力は国の値）。人物がいる陣営では人物の攻撃力・防御力だけを使う。"
        "add を選ぶと、国の値をその陣営の各人物の攻撃力・防御力に足す（以前の版の計算）。",
        reasoning="手順の例は『攻撃力3＋スキル＋出目』『防御力6＋出目』と、判定した人物の値だけを"
        "足している。国の値を全員に足す読みは本文のどこにも根拠がなく、勝率を大きく動かす"
        "（ある小さな戦闘では 0.36 が 0.69 になる）ので選択肢に残すだけにした。"
        "人物のいない国が何もできないとするとシナリオの国の値が無意味になるので、"
        "そのときだけ国が自ら戦うと読む。",
        option=True,
        default="alone",
        choices=("alone", "add"),
        words=(
            ("alone", "人物がいないときだけ"),
            ("add", "各人物に足す"),
        ),
    ),
    Ruling(
        key="kokuryoku.gauge",
        title="陣営の国力ゲージ",
        seed="ゲージは国力そのもので国の HP にあたり、0 になった側が負ける。1つの陣営に国が"
        "いくつあるか、国のない陣営をどう扱うかは書かれていない。",
        decision="陣営の国力ゲージはその陣営の最初の国（kind: nation）の power。"
        "パーティに国がいなければ標準パーティの国（我が国：国力50、攻撃力2、防御力2）が加わる。"
        "2つ目以降の国は使わない（結果の注記に名前が出る）。エネミーに国がいなければ、"
        "削るゲージがないのでバランスの計算はしない。",
        reasoning="相手の国力を 0 にするという勝ち方が最終フェーズの前提なので、"
        "ゲージのない相手とは勝ち負けが決まらない。複数の国の同盟はルールにないため、"
        "最初の国で代表させる。",
    ),
    Ruling(
        key="kokuryoku.round_limit",
        title="最終フェーズのラウンド上限",
        seed="最終フェーズの初めに GM が終了条件を示す。例の条件は、3 ラウンド目が終わるまでに"
        "相手のゲージを 0 にすること。相手の国力を 0 にする条件はいつも含めたいとも書いている。",
        decision="メインミッションの rounds をラウンド上限とし、書かれていなければ例にならって"
        " 3 ラウンド。上限のラウンドが終わっても相手の国力が 0 でなければ時間切れ（失敗）。",
        reasoning="ルールが示す唯一の具体的な値が例の 3 ラウンドなので、それを既定にした。",
    ),
    Ruling(
        key="kokuryoku.balance_support",
        title="バランス計算での最終フェーズの行動",
        seed="最終フェーズでは、行動できる同じ陣営の者が自分の行動を使って攻撃判定・防御判定に"
        "支援判定を足せる。誰が攻撃し誰が支援・防御に回るかは決められていない。",
        decision="saikoro simulate では、各人物がラウンドに1回、自分で攻撃する（攻撃判定への"
        "支援はしない）。判定には最も高い能力値を使う。guard の方針なら各陣営は人物の半数"
        "（切り捨て、防御力の高い順）を防御役に残し、相手の攻撃に1人ずつリアクションする。"
        "防御役が尽きた後の攻撃にはリアクションせず、防御は 0。相手の攻撃の数より多い防御役は、"
        "余った者から順に各防御判定の支援に回る。人物のスキルの効果（文章）は使わず、注記に名前を出す。",
        reasoning="攻撃の支援は自分のダメージロールを手放すので、一律に得とは言えない。"
        "余った防御役は何もしないよりも防御判定を支えるほうが必ず得なので、そこだけ支援を使う。",
    ),
)


@dataclass(frozen=True)
class Settings:
    """The ruling options the commands read.

    Attributes:
        die: sides of each base die.
        count: number of base dice per check.
        floor: lowest damage a won attack deals.
        equal_power: who goes first on equal power (``pc``, ``npc``, ``dice``).
    """

    die: int = 10
    count: int = 1
    floor: int = 0
    equal_power: str = "pc"

    @property
    def base(self) -> Dist[int]:
        """The base roll's distribution."""
        return checks.base_dist(self.die, self.count)

    @classmethod
    def from_options(cls, options: Mapping[str, OptionValue]) -> Settings:
        """The settings for the options in force (option name -> value)."""
        return cls(
            die=int(options["die"]),
            count=int(options["die_count"]),
            floor=int(options["damage_floor"]),
            equal_power=str(options["equal_power"]),
        )
