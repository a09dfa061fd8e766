"""Rulings for the 穢れ game where its rule text is silent or unclear.

>>> [r.option_name for r in RULINGS if r.option]
... # doctest: +NORMALIZE_WHITESPACE
['position_stack', 'min_damage', 'critical_guard', 'status_recovery', 'random_status',
 'defence_skill_uses', 'downing_hit_effects', 'status_check_down', 'paralysis_rounding',
 'corruption_effects']
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
        key="kegare.position_stack",
        title="攻撃側と対象のポジション補正の重なり",
        seed="ポジションはシナリオの始めに PC が選ぶもので、敵からどれだけ離れているかを表す"
        "（遠 -4、中 -2、近 0）。その補正は、その PC が受ける攻撃にも、"
        "その PC 自身の攻撃にもかかり、"
        "遠距離攻撃では無視される。敵にポジションがあるとは書かれておらず、"
        "攻撃する側とされる側の双方がポジションを持つ場合も書かれていない。",
        decision="既定 max：攻撃側と対象のどちらか一方だけがポジションを持つならその補正、"
        "両方が持つなら悪い方だけを使う（遠から中への攻撃は -4）。"
        "オプション position_stack=sum で両方を足す（-6）。遠距離攻撃ではどちらも 0。",
        reasoning="ポジションは PC と敵との間の一つの距離で、同じ距離を攻撃側と対象の両方から"
        "数えると二重に数えることになる。本文どおり PC だけがポジションを持つ（敵には付けない）なら"
        "max と sum は同じ値になるので、max が字義に最も近い。"
        "同梱のサンプルシナリオも max を選んでいる。"
        "敵にもポジションを与えて距離を足し合わせる卓のために sum を残した。",
        option=True,
        default="max",
        choices=("max", "sum"),
        words=(
            ("max", "悪い方だけ"),
            ("sum", "合計する"),
        ),
    ),
    Ruling(
        key="kegare.min_damage",
        title="差で減ったダメージの下限",
        seed="防御判定値が上回るとダメージは差の分だけ減る。HP はマイナスまで計算するとあるが、"
        "ダメージ自体が 0 未満になる場合は書かれていない。毒の (LV)D6-2 も同様。",
        decision="ダメージは 0 未満にならない（オプション min_damage が下限、既定 0）。"
        "攻撃のダメージと毒のダメージの両方に使う。完全防御・回避・ファンブルは常に 0。",
        reasoning="負のダメージで HP が回復するのは不自然。1 点は必ず通すという卓のために"
        "下限を選べるようにした。",
        option=True,
        default=0,
    ),
    Ruling(
        key="kegare.critical_guard",
        title="クリティカルと防御スキル",
        seed="出目12のクリティカルでは対象は防御判定を振らず、ダメージがそのまま（+12 されて）"
        "入る。防御スキルの効果を打ち消すと書かれているのは粉砕だけである。",
        decision="既定ではクリティカルに対して防御スキル（ダメージ軽減）は働かない"
        "（オプション critical_guard=apply で働かせる）。",
        reasoning="防御判定そのものが行われないので、その判定に合わせて使う防御スキルも"
        "使う機会がないと読む。",
        option=True,
        default="nullify",
        choices=("nullify", "apply"),
        words=(
            ("nullify", "防御スキルを無効にする"),
            ("apply", "防御スキルも効く"),
        ),
    ),
    Ruling(
        key="kegare.status_recovery",
        title="異常回復判定の成功条件",
        seed="異常回復判定は 2D6 を振り、10 から状態異常の数を引いた値を目標値とするが、"
        "目標値ちょうどで成功かは書かれていない。",
        decision="既定では目標値以上で成功（オプション status_recovery=above で目標値を超えたとき"
        "だけ成功）。",
        reasoning="国産 TRPG と BCDice の慣習では目標値は『以上』で達成する。",
        option=True,
        default="at_least",
        choices=("at_least", "above"),
        words=(
            ("at_least", "目標値以上で成功"),
            ("above", "目標値を超えて成功"),
        ),
    ),
    Ruling(
        key="kegare.critical_damage",
        title="クリティカルのダメージ",
        seed="クリティカルでは防御判定を行わず、ダメージに +12 する。",
        decision="ダメージはスキルのダメージ +12。防御判定が無いので判定値の差は加えない。",
        reasoning="差を取る相手がいないため。",
    ),
    Ruling(
        key="kegare.value_modifiers",
        title="判定値への修正の順序",
        seed="穢れ 9 以上で攻撃値・防御値が半減、5 以上であらゆる判定に -1、"
        "脱力・自失は判定値を自身の LV の半分だけ下げる。",
        decision="まず攻撃値・防御値を半分（切り捨て）にし、そこに 2D6、その他の修正、"
        "ポジション補正、脱力・自失（そのキャラクターの LV の半分、切り捨て）、穢れ 5 以上の -1 を"
        "足し引きする。コマンドの最初の数値が攻撃値（防御値）、続く ± がその他の修正。",
        reasoning="半減するのは『値』（能力値）で、ほかは判定への修正と書き分けられているため。"
        "脱力・自失の LV は状態異常ではなくキャラクターのレベルと読む。",
    ),
    Ruling(
        key="kegare.success_flag",
        title="攻撃の成功フラグ",
        seed="攻撃判定値が防御判定値を下回ってもダメージは（減って）発生する。",
        decision="コマンドの『成功』はクリティカル・粉砕・命中（攻撃判定値が上回った）のとき。"
        "軽減は失敗扱いだがダメージは出る。ダメージ分布は別に示す。",
        reasoning="成功率の表示を『判定で上回る確率』に揃えるため。",
    ),
    Ruling(
        key="kegare.recovery",
        title="再起判定の値",
        seed="再起判定は 1D6 の分だけ HP を回復し、呪いで -2、穢れ 4 以上で -3 の修正を受ける。",
        decision="修正後の値が 0 未満なら回復は 0。穢れ 5 以上の -1 も『判定』なので重ねて"
        "かかる（穢れ 5 以上で合計 -4）。穢れ 10 以上では回復しても戦闘不能は解けない。",
        reasoning="再起判定は本文でも判定と呼ばれ、5 以上の修正は他の修正と重なると明記されて"
        "いるため。回復の判定で HP が減るのは不自然。",
    ),
    Ruling(
        key="kegare.down_kegare",
        title="戦闘不能時の穢れの増加",
        seed="穢れ 3 以上では戦闘不能になったときに増える穢れが 2 になる。"
        "それ未満の場合の増加量はこの文書には無い。",
        decision="穢れ 3 未満では 1、3 以上では 2 増えるものとする（関数の引数で変えられる）。",
        reasoning="『2 になる』は通常より多いことを示すので、通常は 1 と読むのが最小の仮定。",
    ),
    Ruling(
        key="kegare.random_status",
        title="ランダム異常表",
        seed="穢れ 6 以上ではターン開始ごとにランダム異常表を振るが、表の中身は書かれていない。",
        decision="saikoro のコマンドは表を作らない。GM が choice[...] などの汎用コマンドや"
        "シナリオの表で用意する。バランス計算（saikoro simulate）では既定 uniform："
        "穢れ 6 以上 10 未満で立っているキャラクターは、ターン開始時（行動順を決める前）に"
        "状態異常の一覧の 7 つ（毒は LV1）から等確率で 1 つを受ける。無効な状態異常なら何も起きず、"
        "すでに受けている状態異常なら変わらない。オプション random_status=none で振らない。",
        reasoning="書かれていない表を推測で作ると本来のルールと食い違うため、コマンドでは作らない。"
        "一方、勝率の見積もりで表を無視すると穢れ 6 以上の不利を丸ごと落とすので、"
        "本文が名前を挙げる状態異常だけを等しく扱うのが最も仮定の少ない代わりになる。行動順の前に振るのは、"
        "ターン開始の最初の処理として書かれ、麻痺がそのターンの行動値に効くと読めるため。",
        option=True,
        default="uniform",
        choices=("uniform", "none"),
        words=(
            ("uniform", "等確率で受ける"),
            ("none", "振らない"),
        ),
    ),
    Ruling(
        key="kegare.defence_skill_uses",
        title="防御スキルを使える回数",
        seed="防御スキルは粉砕で打ち消され、混乱すると使えなくなる。"
        "1 ターンに何度使えるかは書かれていない。",
        decision="既定 every：防御スキルは防御判定のたびに使える（シナリオの書式にコストや回数が"
        "無いため）。オプション defence_skill_uses=once_per_turn で 1 ターンに 1 回"
        "（その回は最初に受けた攻撃）。",
        reasoning="回数の制限は本文にもシナリオの書式にも無いので、制限しないのが字義どおり。"
        "リアクションを手番ごとに 1 回とする卓のために once_per_turn を用意した。",
        option=True,
        default="every",
        choices=("every", "once_per_turn"),
        words=(
            ("every", "防御判定のたびに"),
            ("once_per_turn", "1ターンに1回"),
        ),
    ),
    Ruling(
        key="kegare.poison_timing",
        title="毒のダメージの時機",
        seed="毒はターン終了時にダメージを与える。全員の行動が終わった時点がターン終了で、"
        "そこで戦闘不能のキャラクターが再起判定を行う。戦闘不能のキャラクターが受け付けないと"
        "されるのはスキルや特殊能力の効果である。",
        decision="毒のダメージは全員の行動の後、再起判定の前に処理する。-2 は合計から1回だけ引き、"
        "0 未満にはしない（min_damage）。すでに倒れているキャラクターにも入る"
        "（穢れ 10 で永続的に戦闘不能になった者を除く）。"
        "バランス計算では、毒のダメージはその毒を与えた行動のダメージとして数える"
        "（最も危険な行動・no_damage_from）。",
        reasoning="毒で倒れたキャラクターも同じターンの再起判定を行えるようにするため。"
        "毒のダメージは状態異常そのものの効果で、倒れたあとに新しく受けるスキルの効果ではない。",
    ),
    Ruling(
        key="kegare.down_and_checks",
        title="戦闘不能と回復判定",
        seed="戦闘不能は特別な状態異常で、HP が 1 以上に戻れば解ける。穢れ 8 以上では HP や"
        "状態異常を治すスキル・アイテムが効かなくなる。",
        decision="戦闘不能は異常回復判定で治す対象にも、目標値を下げる状態異常の数にも含めない。"
        "穢れ 8 以上でも、スキルやアイテムではない再起判定と異常回復判定は行える。",
        reasoning="戦闘不能は HP で解ける状態として別に扱われており、8 以上の効果は"
        "スキルとアイテムに限って書かれているため。",
    ),
    Ruling(
        key="kegare.downing_hit_effects",
        title="戦闘不能にした攻撃の状態異常",
        seed="HP が 0 以下になると戦闘不能になり、原則として誰のスキルや特殊能力の効果も"
        "受け付けない（再起判定への修正は例外）。攻撃スキルのダメージとダメージ以外の効果の"
        "どちらを先に処理するかは書かれていない。",
        decision="既定 none：ダメージを先に処理し、その攻撃で戦闘不能になった対象には"
        "毒・麻痺などの効果は付かない。オプション downing_hit_effects=apply で、戦闘不能に"
        "した攻撃でも効果を与える。",
        reasoning="攻撃判定と防御判定の比べ合いはダメージの処理として書かれ、戦闘不能はダメージで"
        "HP が 0 以下になった時点で起きる。その時点から効果を受け付けないと読むのが字義どおり。"
        "ダメージと効果を同時に与える卓のために apply を残した。",
        option=True,
        default="none",
        choices=("none", "apply"),
        words=(
            ("none", "効果は付かない"),
            ("apply", "効果も与える"),
        ),
    ),
    Ruling(
        key="kegare.status_check_down",
        title="戦闘不能のキャラクターの異常回復判定",
        seed="異常回復判定は、状態異常にかかった者が、望むなら試みられる。"
        "戦闘不能のあいだは一切の行動ができないが、同じターン終了時の再起判定は戦闘不能の"
        "キャラクターが行う判定として書かれている。",
        decision="既定 yes：倒れているキャラクターも状態異常があれば異常回復判定を行う"
        "（再起判定の後なので、再起判定で起き上がった者も行う）。"
        "オプション status_check_down=no で、HP 1 以上のキャラクターだけが行う。",
        reasoning="判定は手番の行動（主行動・補助行動）ではなく、本文は異常回復判定を行える者を"
        "状態異常にかかっている者としか絞っていない。倒れていれば判定もできないとする"
        "卓のために no を残した。",
        option=True,
        default="yes",
        choices=("yes", "no"),
        words=(
            ("yes", "行う"),
            ("no", "行わない"),
        ),
    ),
    Ruling(
        key="kegare.skillless_enemy",
        title="攻撃スキルのないエネミー",
        seed="主行動はスキル・アイテム・パスの3つで、能動的に使えるスキルは基本的に攻撃か"
        "支援のスキルである。スキルを持たない攻撃（素手の攻撃など）は書かれていない。",
        decision="バランス計算では、攻撃スキル（kind: attack）を持たないエネミーは手番をパスする"
        "（支援スキルは使わない）。結果の注記にその名前を出す。",
        reasoning="攻撃判定は攻撃スキルを使ったときに行うと書かれているので、攻撃スキルがなければ"
        "攻撃はできない。ダメージ 0 の攻撃を補うと本文に無い行動を足すことになる。"
        "攻撃させたいエネミーには damage を書いた攻撃スキルを与える。",
    ),
    Ruling(
        key="kegare.kegare_floor",
        title="穢れの下限",
        seed="穢れの初期値は 0 で、拒絶で 1 減らせる。",
        decision="穢れは 0 未満にならない。",
        reasoning="初期値 0 が最小値と読むのが自然。",
    ),
    Ruling(
        key="kegare.kegare_ten",
        title="穢れ10以上のキャラクターと攻撃",
        seed="穢れが 10 に達したキャラクターは永久に戦闘不能になる。"
        "戦闘不能のあいだは何も行動できず、"
        "原則としてどのスキルや特殊能力の効果も受けない（再起判定への修正だけは受ける）。",
        decision="KGA の攻撃側に K10 以上を指定すると、"
        "ダイスを振らずに『行動不能』（ダメージ0、失敗）。"
        "対象側に K10 以上を指定すると、その対象は防御判定を振らず『効果なし』（ダメージ0）。"
        "KGR も同じく、穢れ10以上では HP が戻っても成功にならない。",
        reasoning="永続的な戦闘不能は行動も効果の受け取りも止めるので、攻撃判定も防御判定も成り立たない。"
        "エラーにせず結果として示すと、全体攻撃の中の一人や確率表でも同じ規則がそのまま働く。",
    ),
    Ruling(
        key="kegare.group_attack",
        title="全体攻撃の判定と『命中』",
        seed="全体攻撃では、攻撃判定のあと敵対するキャラクター全員がそれぞれ防御判定を行い、"
        "攻撃判定の値とそれぞれ比べる。",
        decision="KGA攻撃値VS防御値1,防御値2,…D ダメージ で、攻撃判定を 1 回だけ振り、対象ごとに"
        "防御判定を振って結果を出す。出目12・2 は全員に共通"
        "（クリティカルなら誰も防御判定を振らない）。"
        "ポジションや自失・軽減・穢れは対象ごとに付けられる。『命中』は攻撃判定値が上回った対象"
        "（クリティカル・粉砕・命中）、>=N を付けたときは N 以上のダメージを受けた対象。"
        "確率は攻撃の出目を共有したまま厳密に求め、合計ダメージの分布と命中人数の分布を示す。"
        "成功は 1 人以上に命中する確率。バランス計算の全体攻撃も同じく、攻撃判定 1 回に"
        "対象それぞれの防御判定で処理する。",
        reasoning="攻撃判定は一度なので対象どうしの結果は独立ではない。対象ごとの確率を掛け合わせると"
        "誤るため、攻撃の出目ごとに分けて数え上げる。",
    ),
    Ruling(
        key="kegare.paralysis_rounding",
        title="麻痺で行動値を半分にするときの端数",
        seed="麻痺は行動値を半分として扱う。端数は書かれていないが、脱力・自失・穢れ9以上の半減には"
        "いずれも切り捨てと明記されている。",
        decision="既定 down：端数は切り捨て（行動値 7 の麻痺は 3）。同値なら PC が先。"
        "オプション paralysis_rounding=up で切り上げ（7 は 4）。",
        reasoning="同じ本文の半減がすべて切り捨てなので、それに揃えるのが最も一貫する。行動値は"
        "整数として卓で読み上げる値でもある。切り上げる卓もあり得るので選べるようにした"
        "（違いが出るのは奇数の行動値だけ）。",
        option=True,
        default="down",
        choices=("down", "up"),
        words=(
            ("down", "切り捨て"),
            ("up", "切り上げ"),
        ),
    ),
    Ruling(
        key="kegare.corruption_effects",
        title="穢れの効果を受けるのは誰か",
        seed="ターン終了時の穢れの上昇は加護を持つキャラクター全員に起こる"
        "（敵でも加護があれば穢れは増える）。一方、穢れ 3〜10 の段階ごとの効果の表は、"
        "見出しで PC に起きる効果として示されている。",
        decision="既定 pcs：敵も穢れを得る（加護による上昇と、戦闘不能での増加は通常の 1 点）が、"
        "表の効果はどれも受けない。戦闘不能時の増加が 2 点になる、再起判定 -3、判定 -1、"
        "ランダム異常表、行動値 0、攻撃値・防御値の半減、穢れ 10 での永続的な戦闘不能は PC だけ。"
        "敵の穢れは『穢れがN以上のあいだ』のようなスキルの条件にだけ使う。"
        "オプション corruption_effects=all で敵にも表の効果を与える（以前の扱い）。"
        "KGA・KGR の穢れの指定（K）は GM がコマンドに書いた値をそのまま使う"
        "（敵に指定するかは卓の判断。サイトの確率表は敵に穢れを指定しない）。",
        reasoning="表の見出しが効果の対象を PC と限っているので、字義どおりなら敵は穢れが増えても"
        "弱らない。敵の穢れが増えるのはスキルの条件のためと読める"
        "（サンプルの宮司には穢れ 5 以上で働く防御のスキルがある）。"
        "敵も同じ表で弱る、あるいは穢れ 10 で倒れるとする卓のために all を残した。",
        option=True,
        default="pcs",
        choices=("pcs", "all"),
        words=(
            ("pcs", "PCだけ"),
            ("all", "敵にも"),
        ),
    ),
    Ruling(
        key="kegare.balance_skills",
        title="バランス計算でのスキルの読み方",
        seed="防御スキルは粉砕で打ち消され混乱で使えなくなり、支援スキルは魅了で使えなくなる。"
        "スキルの中身はシナリオごとに違い、シナリオの書式では効果は文章で書かれる。",
        decision="saikoro simulate は効果の文章のうち決まった言い回しだけを読む："
        "攻撃スキルの状態異常の名前（毒はLVも）、防御スキル・常駐スキルの「ダメージ-N」"
        "「ダメージをN軽減」、「穢れがN以上のあいだ」、防御スキルの「代わりに受ける」（かばう）。"
        "常駐スキルの軽減は受けるダメージすべて（毒のダメージも）に働く。"
        "それ以外の効果と支援スキルは使わず、結果の注記にスキル名を出す。"
        "異常回復判定で治すのは 毒・麻痺・混乱・呪い・魅了・脱力・自失 の順で最初に当たるもの。",
        reasoning="文章を推測で数値にすると作者の意図と食い違うので、誤読しない言い回しだけを"
        "扱い、残りは扱っていないことをはっきり示す。治す順は、計算で効果の大きいものから"
        "（毒はダメージ、麻痺は手番、混乱は防御スキル、呪いは再起判定に効く）。",
    ),
)


@dataclass(frozen=True)
class Settings:
    """The ruling options the commands read (see :mod:`.rulings`)."""

    position_stack: str = "max"
    min_damage: int = 0
    critical_guard: str = "nullify"
    status_recovery: str = "at_least"

    @classmethod
    def from_options(cls, options: Mapping[str, OptionValue]) -> Settings:
        """The settings for the options in force (option name -> value)."""
        return cls(
            position_stack=str(options["position_stack"]),
            min_damage=int(options["min_damage"]),
            critical_guard=str(options["critical_guard"]),
            status_recovery=str(options["status_recovery"]),
        )
