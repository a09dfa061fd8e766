"""Rulings of the cut-action rules: where the rule text is silent or ambiguous.

Every ruling is summarised in our own words. Those with ``option=True`` are options of
:class:`saikoro.systems._cutaction.CutAction` (``get("cutaction", check_dice="2D6")``).

>>> [r.option_name for r in RULINGS if r.option][:3]
['check_dice', 'failed_initiative_order', 'contest_rule']
>>> OPTION_DEFAULTS["check_dice"]
'1D10'
>>> Settings.from_options(OPTION_DEFAULTS) == Settings()
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from saikoro.systems._base import OptionValue, Ruling

__all__ = ["OPTION_DEFAULTS", "RULINGS", "Settings"]

RULINGS: tuple[Ruling, ...] = (
    Ruling(
        key="cutaction.check_dice",
        title="判定に使うダイス",
        seed=(
            "ルール本文は判定のダイスを書いていない。使われる語は成功値(半分にされたり2下げられたり"
            "する値)、達成値(失敗するとマイナスになる)、"
            "行為の要素の数から決める小さな目標値(例: 3)、"
            "そしてファンブル。"
        ),
        decision=(
            "下方ロールとする。1D10を振り、達成値 = 成功値 - 出目。"
            "目標値があれば達成値が目標値以上で"
            "成功、なければ達成値0以上で成功(つまり出目が成功値以下)。出目が最大(1D10なら10)なら"
            "ファンブル: 達成値にかかわらず自動失敗。"
            "オプション check_dice で 2D6(ファンブルは12)も選べる。"
        ),
        reasoning=(
            "成功値を半分にする・2下げるという修正は、出目がそれ以下なら成功という基準値の扱いと自然に"
            "噛み合う。失敗すると達成値が負になることも、成功値-出目ならそのまま成り立つ。チェイスの"
            "相対距離(-5まで)、目標値3、落下物5点といった数の大きさから、出目の幅は10程度が妥当なので"
            "1D10を既定とした。クリティカルは本文にないので設けない。"
        ),
        option=True,
        default="1D10",
        choices=("1D10", "2D6"),
        words=(
            ("1D10", "1D10"),
            ("2D6", "2D6"),
        ),
    ),
    Ruling(
        key="cutaction.negative_achievement",
        title="マイナス達成値の意味",
        seed=(
            "失敗した判定はマイナスの達成値を持ち、イニシアチブでは失敗者の順番をその値で決める、"
            "とだけある。"
        ),
        decision=(
            "マイナス達成値は失敗を表し、その大きさは本文が使う場面でだけ意味を持つ: イニシアチブの"
            "順番、連続カーブの後退量、チェイスの移動値。ダメージを軽減することはなく、増やすかどうかは"
            "オプション resist_failure で選ぶ。"
        ),
        reasoning="本文が数として使っている箇所以外に効果を広げない方が裁定として小さい。",
    ),
    Ruling(
        key="cutaction.failed_initiative_order",
        title="失敗者のイニシアチブ順",
        seed=(
            "イニシアチブ判定に失敗した者は、成功者が全員行動した後に、マイナス達成値の小さい者から"
            "行動する。"
        ),
        decision=(
            "既定 closest_first: マイナスの幅が小さい者(-1は-3より先)から。lowest_first を選ぶと"
            "数値として小さい者(-3は-1より先)から。同値ならPCが先。ファンブルした者はそのカット行動しない。"
        ),
        reasoning=(
            "「マイナス達成値」はマイナスの量を指す言い方と読むのが自然で、失敗の程度が軽い者ほど早く"
            "動ける方が判定の意味とも合う。逆の読みもあり得るのでオプションにした。"
        ),
        option=True,
        default="closest_first",
        choices=("closest_first", "lowest_first"),
        words=(
            ("closest_first", "0に近い順"),
            ("lowest_first", "達成値の低い順"),
        ),
    ),
    Ruling(
        key="cutaction.contest_rule",
        title="対抗判定の勝敗",
        seed=(
            "割り込み、封鎖からの離脱、進路妨害、飛び移る、振り落とすはいずれも対抗判定に「勝利」"
            "すれば効果がある。同値や両者失敗の扱いは書かれていない。"
        ),
        decision=(
            "既定 success_needed: 仕掛けた側(能動側)は自分の判定に成功し、かつ達成値で受ける側を"
            "上回れば勝利。同値は受ける側の勝ち。ファンブルはどの達成値よりも下とみなし、"
            "ファンブルした能動側は勝てない。"
            "compare を選ぶと成否を問わず達成値だけを比べる(マイナス同士でも高い方が勝つ)。"
            "封鎖した者が複数いれば、その中で最も高い結果が受ける側の結果になる。"
            "攻撃(CAA)もこの規則で命中を決める。"
        ),
        reasoning=(
            "本文はどれも仕掛けた側が「勝利」する必要があると書くので、同値では状況が変わらない"
            "(受ける側の勝ち)とするのが素直。失敗した判定は何も成し遂げないと読むのが"
            "失敗の意味に合う。両者失敗時の扱いは卓で分かれやすいのでオプションにした。"
        ),
        option=True,
        default="success_needed",
        choices=("success_needed", "compare"),
        words=(
            ("success_needed", "成功した側だけが勝てる"),
            ("compare", "達成値だけを比べる"),
        ),
    ),
    Ruling(
        key="cutaction.resist_failure",
        title="抵抗判定に失敗したときのダメージ",
        seed=(
            "物理ダメージはボディ抵抗判定の達成値だけ軽減でき、失敗するとダメージと同じ値の負傷を得る。"
        ),
        decision=(
            "既定 none: 失敗したらダメージは軽減されず全額が体力から減り、同じ値の負傷を得る。"
            "add を選ぶとマイナス達成値の分だけダメージが増える(負傷はもとのダメージ値)。"
            "成功して達成値がダメージ以上なら体力の減少は0。"
        ),
        reasoning="失敗は「軽減できなかった」と読むのが本文に最も近い。増える読みも一応あり得る。",
        option=True,
        default="none",
        choices=("none", "add"),
        words=(
            ("none", "軽減なし"),
            ("add", "マイナス分のダメージを加える"),
        ),
    ),
    Ruling(
        key="cutaction.exhausted_resist_fails",
        title="消耗中の抵抗判定とリアクション",
        seed=(
            "消耗状態では回復判定以外の判定行動が自動失敗する。抵抗判定や、抵抗判定の扱いとされる"
            "防御・回避(リアクション)が含まれるかは書かれていない。"
        ),
        decision=(
            "既定 true: 抵抗判定もリアクション(防御・回避)も振らずに自動失敗。攻撃側は判定に"
            "成功すれば命中し、ダメージは軽減されず同じ値の負傷を得る(CAA・CAD で H を0以下に"
            "したとき)。false なら抵抗判定もリアクションも普通に振る。"
        ),
        reasoning=(
            "例外は回復判定だけと明記されているので、字義どおり広く読むのを既定にした。"
            "リアクションは抵抗判定の扱いと本文にあるので、抵抗判定と同じ扱いにそろえた。"
        ),
        option=True,
        default=True,
    ),
    Ruling(
        key="cutaction.reaction",
        title="攻撃へのリアクション(防御・回避)",
        seed=(
            "攻撃を受けた者は、使われた技能に書かれた抵抗技能で対抗判定(リアクション)をする。"
            "防御・回避は抵抗判定の扱いで、行動済みの者もでき、行動済みにもならない。ダメージの"
            "ボディ抵抗判定はこれとは別にある。シナリオには技能の記述がない。"
        ),
        decision=(
            "攻撃は、攻撃側の判定(格闘はボディ、射撃はヘッド)と対象のリアクションの対抗判定。"
            "攻撃側が対抗判定に勝てば命中し(裁定「対抗判定の勝敗」)、命中すればダメージと"
            "ボディ抵抗判定を処理する。リアクションの成功値はキャラクターの reaction"
            "(省略時はボディの値)。行動済みかどうかにかかわらず、攻撃されるたびに振る。"
            "CAA コマンドとバランス計算は同じ関数で命中を決める。"
        ),
        reasoning=(
            "抵抗技能は攻撃の技能ごとに決まるが、シナリオの書式には技能がないので、"
            "キャラクターごとに一つの値を書けるようにした。防御も回避も体を使う判定なので、"
            "書かれていなければボディの値を使うのが最も小さな仮定になる。"
        ),
    ),
    Ruling(
        key="cutaction.zero_hp",
        title="体力ちょうど0と消耗からの回復",
        seed=(
            "体力が0以下になると体力のマイナス分の消耗になり、回復判定の達成値分だけ回復して、"
            "消耗値が0になれば治る。体力ちょうど0のときの消耗値は0になってしまう。"
        ),
        decision=(
            "体力は負の値も取る。体力が0以下になった時点で消耗状態(消耗値 = -体力、0もあり得る)。"
            "回復判定に成功すると体力が達成値だけ戻り(最大値まで)、その結果消耗値が0なら消耗が治る。"
            "体力0で消耗した者は、達成値0でも回復判定に成功すれば治る。"
        ),
        reasoning="「0以下で消耗」と「消耗値0で回復」を両立させるには、回復判定の成功を治る契機にするしかない。",
    ),
    Ruling(
        key="cutaction.halving",
        title="成功値を半分にするときの端数",
        seed="遮蔽している相手をエリアの外から撃つと成功値が半分になる。端数は書かれていない。",
        decision="端数は切り捨て(負の値も床関数で切り捨て)。コマンドでは CA(9)/2 のように書ける。",
        reasoning="国産TRPGの一般的な慣習。",
    ),
    Ruling(
        key="cutaction.chase_event_order",
        title="チェイスイベント表の出目の割り当て",
        seed="ルート変更で1D10を振りチェイスイベント表を引くが、本文は10個のイベントを番号なしで列挙している。",
        decision=(
            "列挙された順に1〜10を割り当てる: 1 小道、2 連続カーブ、3 悪路、4 対向車、5 ジャンプ、"
            "6 スリップ、7 落下物、8 道が閉ざされる、9 さらなる追跡者、10 行き止まり。"
        ),
        reasoning="並べ替える根拠が本文にない。最後の行き止まり(チェイス終了)が10に来るのも自然。",
    ),
    Ruling(
        key="cutaction.falling_area",
        title="落下物の当たるエリア",
        seed="落下物では1D10を2で割った値のエリアにいる全員が5点のダメージを受ける。端数とエリアの数え方は不明。",
        decision=(
            "既定 up: 1D10÷2の端数を切り上げ、その値 k(1〜5、どれも 1/5)について"
            "先頭から相対距離 -k のエリアに落ちる(先頭のエリアには落ちない)。"
            "down を選ぶと切り捨て(0〜5、0 は先頭のエリア、0 と 5 は 1/10、ほかは 1/5)。"
        ),
        reasoning=(
            "ダイスの目を2で割る書き方は、国産TRPGでは端数切り上げで読むのが通例で"
            "(1D10÷2 は 1〜5 が等しく出る、いわば 1D5)、BCDice の /2U もこの読み方。"
            "その値を先頭から何エリア後ろかと読むと、ルートを変えた先頭ではなく後続の頭上に落ちる。"
            "チェイスエリアの6エリア(0〜-5)全部を対象にしたい卓のために down を残した。"
        ),
        option=True,
        default="up",
        choices=("up", "down"),
        words=(
            ("up", "切り上げ"),
            ("down", "切り捨て"),
        ),
    ),
    Ruling(
        key="cutaction.obstruct_distance",
        title="進路妨害で下がる距離",
        seed="進路妨害のボディ対抗判定に勝つと対象は後退するが、距離は書かれていない。",
        decision=("既定 difference: 達成値の差だけ後退させる。one を選ぶと1エリアだけ後退。"),
        reasoning="本文は連続カーブでも差分で後退させており、差分を使う方が一貫する。",
        option=True,
        default="difference",
        choices=("difference", "one"),
        words=(
            ("difference", "達成値の差の分"),
            ("one", "1エリア"),
        ),
    ),
    Ruling(
        key="cutaction.failed_move",
        title="チェイスの移動値と失敗した移動判定",
        seed=(
            "チェイスでは毎カットのイニシアチブで全員が移動判定を行い、その達成値が移動達成値になる。"
            "加速は達成値を移動値に足す。目標値(移動目標値の10倍)に届けば終わる。"
        ),
        decision=(
            "移動値はチェイスを通じて累積する(毎カットの移動判定と加速の達成値を足していく)。"
            "先頭からの相対距離は移動値の差。"
            "既定 negative: 失敗した移動判定のマイナス達成値もそのまま"
            "足す(後ろに下がる)。zero を選ぶと失敗は0として扱う。加速の失敗は動かない。"
            "移動判定でファンブルした者はそのカット行動できない(移動値は出た達成値で数える)。"
            "CAM コマンドがこの移動量を出す。"
        ),
        reasoning=(
            "目標値が移動目標値の10倍と大きいので、1回の判定ではなく累積と読むしかない。失敗が"
            "後退を生む読みは連続カーブの「差分後退」とも一致する。"
        ),
        option=True,
        default="negative",
        choices=("negative", "zero"),
        words=(
            ("negative", "マイナスのまま足す"),
            ("zero", "0として扱う"),
        ),
    ),
    Ruling(
        key="cutaction.chase_drop",
        title="チェイスエリアから外れたときの脱落",
        seed=(
            "チェイスエリアは先頭から相対距離 -5 までで、それより離れた者は脱落する。例外として、"
            "加速で後ろの者が引き離されたその時点では、まだ脱落しない。カットの終わりには、"
            "最後尾を越えて離れている者が脱落する。"
        ),
        decision=(
            "既定 immediate：-5 を越えた者は、その変化が起きた時点ですぐ脱落する"
            "（チェイス開始と毎カットの移動判定はまとめて処理した後、減速・後退・イベント・"
            "乗り物の移動などの後）。加速だけは例外で、引き離された者はそのまま残り、次の変化か"
            "カットの終わりまでに -5 以内へ戻らなければ脱落する。"
            "cut_end を選ぶと、脱落はカットの終わりにだけ判定する。"
        ),
        reasoning=(
            "本文は脱落を距離の条件として一般的に述べ、加速についてだけ『まだ脱落しない』と"
            "例外を置いているので、例外は加速に限るのが字義どおり。カット終わりの規定は、加速で"
            "引き離されたまま戻れなかった者を拾うものと読む。移動判定は全員が同時に振る一つの"
            "処理なので、途中の順番で脱落が変わらないようにまとめて扱う。"
            "加速で離された者の猶予をカットの終わりまで保つ読みもあり、その卓は cut_end を選べる。"
        ),
        option=True,
        default="immediate",
        choices=("immediate", "cut_end"),
        words=(
            ("immediate", "すぐに脱落"),
            ("cut_end", "カットの終わりに脱落"),
        ),
    ),
    Ruling(
        key="cutaction.chase_events_detail",
        title="チェイスイベントの細部",
        seed=(
            "イベントの多くは対象や期間を明記していない(連続カーブの対象、悪路の期間、対向車や落下物の"
            "ダメージが抵抗できるか、など)。"
        ),
        decision=(
            "連続カーブ・対向車・ジャンプ・スリップの判定はチェイスにいる全員が行う。連続カーブは"
            "達成値が3未満なら 3-達成値 だけ後退。悪路は次のルート変更かチェイス終了まで移動判定"
            "(加速の判定を含む)の成功値-2。対向車のダメージはその者の今カットの移動判定の達成値(0未満なら0)。対向車と"
            "落下物のダメージは物理ダメージとしてボディ抵抗判定で軽減できる。道が閉ざされるでは最後尾の"
            "エリアにいる全員が脱落。小道の封鎖はそのカットの終わりまで。"
        ),
        reasoning="本文の他の規則(物理ダメージの処理、差分後退)に揃えた。",
    ),
    Ruling(
        key="cutaction.battle_area_names",
        title="戦闘エリアの5つの列",
        seed="戦闘エリアは縦5マスで、本文には前線、自陣、敵陣、自陣本営の名が出る。",
        decision=(
            "自陣側から 自陣本営 / 自陣 / 前線 / 敵陣 / 敵陣本営 と名付ける(5番目は対称に命名)。"
        ),
        reasoning="自陣本営と対になる列が敵陣側にもあると読むのが自然。",
    ),
    Ruling(
        key="cutaction.chase_sides",
        title="チェイスの逃走側と追跡側",
        seed=(
            "移動を宣言した者の側が逃走側、それを追うと宣言した側が追跡側になる。乗り物も使えるが、"
            "なくてもよい。宣言しなかった者は脱落した扱いになる。"
        ),
        decision=(
            "シナリオの kind: chase の判定に flees で逃げる側を書く: party(既定)は PC が移動を"
            "宣言して逃げ、エネミーが追う。enemies はエネミーが逃げ、PC が追う(逃げる運び屋を"
            "捕まえるなど)。チェイスに加わるエネミーは runners に ID で書く(省略時は vehicle を持つ"
            "エネミー、誰も持たなければ全員)。乗り物のない者は徒歩で走る。チェイスの前に、"
            "チェイスに加わらないエネミーとの戦闘があれば先に行い、勝てば立っている PC がチェイスに"
            "加わる(消耗した PC は判定できないので加わらない)。"
        ),
        reasoning=(
            "難易度の判定は PC の判定なので、チェイスの判定を持つシナリオでは PC が移動を宣言した"
            "と読むのが字義どおり。逆向きのチェイスは本文でも普通にあり得るので、書けるようにした。"
        ),
    ),
    Ruling(
        key="cutaction.chase_cut_limit",
        title="チェイスのカット数の上限",
        seed="登場しているキャラクターの数だけカットが過ぎると、チェイスは終わる。",
        decision=(
            "チェイスに加わった者(チェイスの始まりの逃走側と追跡側の全員。途中で脱落した者も数える)"
            "の数だけカットを行い、そのカットの終わりでチェイスを終える。"
            "メインミッションの rounds はチェイスの前の戦闘だけを区切り、チェイスには効かない。"
        ),
        reasoning=(
            "移動判定は「登場キャラクター全員」が行うと本文にあり、ここでの登場キャラクターは"
            "チェイスの参加者を指す。上限は本文が決めているので、シナリオの値で置き換えない。"
        ),
    ),
    Ruling(
        key="cutaction.chase_caught",
        title="チェイスで捕まる・逃げ切る",
        seed=(
            "チェイスは、追跡側が逃走側の先頭に追いついてエリアを封鎖し敏捷の対抗判定に勝つか、"
            "どちらかの側が全員脱落するか、移動値が目標値に着くか、カットの上限で終わる。誰が"
            "逃げ切ったかは書かれていない。"
        ),
        decision=(
            "捕まるのは、逃走側の先頭と同じエリアかその前にいる追跡側が封鎖して敏捷(ボディ)の"
            "対抗判定に勝ったときで、逃走側全体が捕まりチェイスは終わる。負けたときは逃走側が封鎖を"
            "抜けたものとする。目標値は逃走側の誰かが着いたときだけ数える(逃げた先の目標なので)。"
            "追跡側が全員脱落すれば逃げ切り、逃走側が全員脱落すれば逃げ切れなかった。消耗した者"
            "(体力0以下)は判定がすべて自動失敗し移動判定もできないので、その時点で脱落する。"
            "同時に両側が全員脱落したら逃走側の負け。"
        ),
        reasoning=(
            "終了条件のうち捕捉だけが追跡側の勝ちを、目標値と追跡側の全滅が逃走側の勝ちを表す。"
            "脱落はチェイスから外れることで、逃げる側にとっては逃げ切れなかったことになる。"
        ),
    ),
    Ruling(
        key="cutaction.chase_time_limit",
        title="カットの上限でのチェイスの結末",
        seed="カットの上限が来るとチェイスは終わるが、そのとき誰が逃げ切ったのかは書かれていない。",
        decision=(
            "既定 not_caught: 捕まらずにチェイスに残っている逃走側がいれば逃げ切り。"
            "leader を選ぶと、先頭の移動値に逃走側がいるときだけ逃げ切り(追跡側と並んでいれば"
            "逃げ切りとする)。"
        ),
        reasoning=(
            "捕まったことになるのは捕捉の条件を満たしたときだけなので、時間切れで捕まっていない者は"
            "逃げ切ったと読むのが字義どおり。追い抜かれていれば逃げ切りとは言えない、という卓の"
            "ために leader を残した。"
        ),
        option=True,
        default="not_caught",
        choices=("not_caught", "leader"),
        words=(
            ("not_caught", "捕まらなければ逃げ切り"),
            ("leader", "先頭にいれば逃げ切り"),
        ),
    ),
    Ruling(
        key="cutaction.chase_dead_end",
        title="行き止まりでのチェイスの結末",
        seed="チェイスイベントの行き止まりでは、先へ進めずチェイスが終わる。その後どうなるかは書かれていない。",
        decision=(
            "既定 as_time_limit: カットの上限と同じに扱う(裁定「カットの上限でのチェイスの結末」)。"
            "cornered を選ぶと、逃走側は追い詰められて逃げ切れなかったことになる。"
        ),
        reasoning=(
            "本文はチェイスが終わるとだけ書き、誰かが捕まるとは書かないので、上限で終わるときと"
            "同じにするのが最も小さな読み。"
            "袋小路で逃げ場を失う描写を重んじる卓は cornered を選べる。"
        ),
        option=True,
        default="as_time_limit",
        choices=("as_time_limit", "cornered"),
        words=(
            ("as_time_limit", "カットの上限と同じ"),
            ("cornered", "追い詰められる"),
        ),
    ),
    Ruling(
        key="cutaction.chase_actions",
        title="チェイス中の攻撃とシナリオのチェイス表",
        seed=(
            "チェイスのメインアクションは、チェイス限定の行動(進路妨害・飛び移る・振り落とす・"
            "ルート変更)のほか、攻撃など通常のカット行動でもよい。ルート変更ではチェイスイベント表を"
            "振る。"
        ),
        decision=(
            "チェイス中の格闘攻撃は同じエリア(同じ移動値)の相手に、射撃攻撃はチェイスエリアにいる"
            "相手に届く。遮蔽はない。攻撃とリアクション、ダメージは戦闘と同じ。シナリオが"
            "chase_tables を持てば、ルート変更ではルールブックの表の代わりにその表を振る(表が複数"
            "なら kind: chase の判定の table で選ぶ)。項目に event でルールブックのイベント名を"
            "書けばそのイベントとして働き、書かれていない項目の効果(文章)は扱わない。"
        ),
        reasoning=(
            "チェイスエリアは格闘のできる距離の並びなので、同じエリアなら格闘が、エリア内なら射撃が"
            "届くと読んだ。シナリオの表はそのシナリオのために書かれたものなので優先する。"
        ),
    ),
    Ruling(
        key="cutaction.fall_damage",
        title="高速落下ダメージ",
        seed="振り落とされた者は高速落下ダメージを受けて脱落するが、その値は本文にない。",
        decision="値はGMが決める。CAD コマンドにダメージ(固定値かダイス)として渡す。",
        reasoning="本文の外のデータなので値を作らない。",
    ),
)
"""Every ruling of the system, options first among their peers."""

OPTION_DEFAULTS: dict[str, OptionValue] = {r.option_name: r.default for r in RULINGS if r.option}
"""Option name -> default value."""


@dataclass(frozen=True)
class Settings:
    """The ruling options the commands read (defaults as in :data:`RULINGS`)."""

    check_dice: str = "1D10"
    failed_initiative_order: str = "closest_first"
    contest_rule: str = "success_needed"
    resist_failure: str = "none"
    exhausted_resist_fails: bool = True
    falling_area: str = "up"
    obstruct_distance: str = "difference"
    failed_move: str = "negative"
    chase_drop: str = "immediate"
    chase_time_limit: str = "not_caught"
    chase_dead_end: str = "as_time_limit"

    @classmethod
    def from_options(cls, options: Mapping[str, OptionValue]) -> Settings:
        """The settings for the options in force (option name -> value)."""
        return cls(
            check_dice=str(options["check_dice"]),
            failed_initiative_order=str(options["failed_initiative_order"]),
            contest_rule=str(options["contest_rule"]),
            resist_failure=str(options["resist_failure"]),
            exhausted_resist_fails=bool(options["exhausted_resist_fails"]),
            falling_area=str(options["falling_area"]),
            obstruct_distance=str(options["obstruct_distance"]),
            failed_move=str(options["failed_move"]),
            chase_drop=str(options["chase_drop"]),
            chase_time_limit=str(options["chase_time_limit"]),
            chase_dead_end=str(options["chase_dead_end"]),
        )
