"""Validation from the per-system definitions: each kind of problem, exact text and place."""

from __future__ import annotations

import hashlib
import json
import re
from fractions import Fraction
from itertools import product
from pathlib import Path

from saikoro.scenario import default_lang, field_reference, load_scenario, validate_text
from saikoro.scenario._common import die_outcomes
from saikoro.scenario._problems import catalogue
from saikoro.scenario.model import to_data
from saikoro.systems._akatsuki.scenario import two_d6_at_most
from saikoro.systems._getb import scenario as getb
from saikoro.systems._getb.model import GetbEnemy, GetbGuard
from saikoro.systems._kegare import scenario as kegare
from saikoro.systems._kegare.model import KegareEnemy

ROOT = Path(__file__).resolve().parent.parent

GETB_EXAMPLE = """\
system: getb
title: 廃都の捕喰者
author: saikoro サンプル
summary: 崩れた高架の下で、小型アラガミの群れを掃討する。
players: 3-5
playtime: 2〜3時間
overview: |
  旧市街の高架下に、オウガテイルの群れが巣を作った。物資の回収路が塞がれ、
  フェンリル極東支部は第四部隊に掃討を命じる。

  群れは4体。散らばっているうちに一体ずつ倒せば難しくないが、囲まれると危ない。
  オペレーターの橘が通信で群れの位置を知らせてくれる。3ラウンド以内に勝てば報酬が増える。
trailer: |
  崩れた高架、錆びた線路、灰色の空。
  喰われた街の底で、尾を振る獣たちが待っている。

  ――神機を握れ。ここはまだ、人の街だ。
handouts:
  - id: pc1
    pc: PC1
    title: 隊長
    text: |
      第四部隊の隊長。今回の掃討作戦の指揮を任された。
    secret: |
      高架下には、半年前の作戦で行方不明になった隊員の神機が残っているという噂がある。
  - id: pc2
    pc: PC2
    title: 新人
    text: |
      配属されて二週間の新人。群れとの実戦はこれが初めてだ。
    secret: |
      適合試験の結果が少しだけ異常だった。あなたは、アラガミの気配をほかの隊員より早く感じ取れる。
  - id: pc3
    pc: PC3
    title: 衛生兵
    text: |
      回復弾の扱いに長けた支援役。隊の全員の体調を把握している。
    secret: |
      隊長が古傷を隠して出撃していることを、知っているのはあなただけだ。
scenes:
  - id: briefing
    phase: opening
    title: 出撃前のブリーフィング
    text: |
      支部の作戦室で、橘が廃都の地図を映す。群れの巣は高架下。回収路を取り戻すのが任務だ。
    npcs: [tachibana]
    image: haito-map
  - id: approach
    phase: middle
    title: 崩れた高架
    text: |
      巣へ向かう道は、崩れた高架の上しかない。移動のたびに廃都チェイス表を振ってもよい。
    checks: [崩れた足場を渡る]
    tables: [廃都チェイス表]
  - id: nest
    phase: climax
    title: 高架下の巣
    text: |
      線路の影から、オウガテイルが一体、また一体と姿を見せる。4体目はインセルで待ち構えている。
    enemies: [ogretail, ogretail-2, ogretail-3, ogretail-4]
    next:
      - scene: return
        condition: 群れを全て倒す
      - scene: retreat
        condition: PC全員が戦闘不能になる
  - id: return
    phase: ending
    title: 帰投
    text: |
      巣の奥で、古い神機の腕輪が見つかる。橘は通信の向こうで、しばらく黙り込む。
  - id: retreat
    phase: ending
    title: 撤退
    text: |
      回収班のヘリが隊員を吊り上げる。高架下の群れは、次の部隊に引き継がれる。
npcs:
  - id: tachibana
    name: 橘 ミオ
    text: |
      第四部隊担当のオペレーター。落ち着いた声で、群れの位置を一体ずつ読み上げる。
    secret: |
      半年前に行方不明になった隊員は、橘の姉だ。腕輪が見つかれば、橘は作戦後に一人で高架下へ向かおうとする。
images:
  - id: haito-map
    file: images/haito-map.png
    alt: 廃都の作戦区域図。北の支部から崩れた高架を通り、南の高架下の巣へ向かう経路
    caption: 作戦区域。巣は高架下
    width: 480
difficulty_targets:
  - name: 崩れた足場を渡る
    check: agility          # strength | agility | intellect | endurance
    target: 8
enemies:  # 群れは4体。1体ずつなら怖くないが、囲まれると盾が追いつかない
  - id: ogretail
    name: オウガテイル
    abilities: {strength: 4, agility: 3, intellect: 1, endurance: 4}
    hp: 45
    ap: 6
    st: 3
    placement: out3        # in1..in12, out1..out12, centre
    attacks:
      - name: 噛みつき
        weapon: long-blade  # short-blade | long-blade | buster-blade | shooting | skill
        element: physical   # physical | fire | ice | thunder | divine
        power: 8
        range: 0-1
    guard: {shield: buckler, armor: 2}
  - id: ogretail-2
    name: オウガテイル(2体目)
    abilities: {strength: 4, agility: 3, intellect: 1, endurance: 4}
    hp: 45
    ap: 6
    st: 3
    placement: out5
    attacks:
      - name: 噛みつき
        weapon: long-blade
        element: physical
        power: 8
        range: 0-1
    guard: {shield: buckler, armor: 2}
  - id: ogretail-3
    name: オウガテイル(3体目)
    abilities: {strength: 4, agility: 3, intellect: 1, endurance: 4}
    hp: 45
    ap: 6
    st: 3
    placement: out1
    attacks:
      - name: 噛みつき
        weapon: long-blade
        element: physical
        power: 8
        range: 0-1
    guard: {shield: buckler, armor: 2}
  - id: ogretail-4
    name: オウガテイル(4体目)
    abilities: {strength: 4, agility: 3, intellect: 1, endurance: 4}
    hp: 45
    ap: 6
    st: 3
    placement: in4
    attacks:
      - name: 噛みつき
        weapon: long-blade
        element: physical
        power: 8
        range: 0-1
    guard: {shield: buckler, armor: 2}
missions:
  main:
    success: エネミーを全て倒す
    failure: PC全員が戦闘不能になる
  side:
    - success: 3ラウンド以内に勝利する
      check: {win: true, rounds_at_most: 3}
      reward: 報酬+500fc
balance:
  win: 70%-92%             # 群れに押し切られて全滅することもある
  defeat: [ogretail, ogretail-2, ogretail-3, ogretail-4]   # メインミッション: 全て倒す
chase_tables:
  - name: 廃都チェイス表
    die: 1D10               # any table die: 1D6, 1D10, 2D6, D66, 1D100, ...
    entries:
      1: {title: 小道, effect: 全員のいるエリアが封鎖される}
      2-3: {title: 悪路, effect: 移動判定の達成値-2}
      4-10: {title: 静かな道}
credits:
  - シナリオ：saikoro サンプル
notice: |
  このサンプルシナリオは、saikoro の利用者が自由に改変・再配布してかまいません。
"""

ENEMY = (
    "  - id: ogre\n    name: オウガ\n"
    "    abilities: {strength: 4, agility: 3, intellect: 1, endurance: 4}\n"
    "    hp: 40\n    ap: 6\n    st: 3\n    placement: out3\n"
)


def problems(text: str, name: str = "t.yaml", lang: str = "en") -> list[str]:
    return [p.format(lang) for p in validate_text(text, name).problems]


def test_getb_example_validates_unchanged() -> None:
    sample = ROOT / "scenarios" / "getb-haito.yaml"
    assert sample.read_text("utf-8") == GETB_EXAMPLE
    result = load_scenario(sample)
    assert result.ok and result.problems == []
    sc = result.scenario
    assert sc is not None
    assert (sc.id, sc.system, sc.title) == ("getb-haito", "getb", "廃都の捕喰者")
    assert sc.digest == hashlib.sha256(sample.read_bytes()).hexdigest()
    assert sc.model.chase_tables[0].entries["2-3"].title == "悪路"
    ogre = sc.model.enemies[0]
    assert isinstance(ogre, GetbEnemy) and ogre.guard == GetbGuard(shield="buckler", armor=2)


def test_defaults_are_filled() -> None:
    text = "system: getb\ntitle: t\nenemies:\n" + ENEMY + "    attacks:\n"
    text += "      - {name: a, weapon: skill, element: fire, power: 1}\n"
    data = validate_text(text, "dir/my-file.yaml").scenario
    assert data is not None
    assert data.id == "my-file"
    plain = to_data(data.model)
    assert isinstance(plain, dict)
    assert plain["enemies"][0]["attacks"][0]["range"] == "0-1"
    assert "missions" not in plain and data.model.missions is None
    assert plain["rulings"] == {} and plain["chase_tables"] == []
    kegare_text = "system: kegare\ntitle: t\nenemies:\n"
    kegare_text += "  - {id: a, name: b, hp: 1, attack: 0, defence: 0, initiative: 1}\n"
    enemy = validate_text(kegare_text, "k.yaml").scenario
    assert enemy is not None
    (kegare_enemy,) = enemy.model.enemies
    assert isinstance(kegare_enemy, KegareEnemy)
    assert kegare_enemy.position == "near" and kegare_enemy.skills == ()


def test_all_problems_in_one_run() -> None:
    text = (
        "system: getb\ntitel: x\nplayers: 0\ndifficulty_targets:\n"
        "  - {name: a, check: luck, target: 8}\n  - {name: b, check: agility, target: 30}\n"
    )
    assert problems(text) == [
        "t.yaml:2:1: error: scenario.titel: unknown key 'titel' (hint: did you mean 'title'?)",
        "t.yaml:3:10: error: scenario.players: expected an integer or a range like 2-4, "
        "within 1..20, got 0",
        "t.yaml:5:22: error: scenario.difficulty_targets[0].check: expected one of strength | "
        "agility | intellect | endurance, got 'luck'",
        "t.yaml:6:39: warning: scenario.difficulty_targets[1].target: target 30 is in the 16+ "
        "tier of the target guide (all but impossible): with an ability of 20 or less only a "
        "critical (a natural 10) reaches it (hint: chance of success by ability: "
        "≤20: 1/10 (10.0%), 21: 1/5 (20.0%), 23: 2/5 (40.0%), 25: 3/5 (60.0%))",
    ]


def test_missing_key_message_in_japanese() -> None:
    assert problems("system: getb\n", lang="ja") == [
        "t.yaml:1:1: error: scenario.title: 必須のキー 'title' がありません(文字列)"
    ]


def test_system_problems() -> None:
    assert problems("title: x\n") == [
        "t.yaml:1:1: error: scenario.system: missing required key 'system' "
        "(one of akatsuki | cutaction | getb | kegare | kokuryoku)"
    ]
    assert problems("system: ゴッドイーター\ntitle: x\n") == [
        "t.yaml:1:9: error: scenario.system: unknown system 'ゴッドイーター' "
        "(hint: use the system id 'getb')"
    ]
    assert problems("system: [getb]\ntitle: x\n") == [
        "t.yaml:1:9: error: scenario.system: expected one of akatsuki | cutaction | getb | "
        "kegare | kokuryoku, got a list"
    ]


def test_getb_cells_and_ranges() -> None:
    attack = (
        "    attacks:\n      - {name: a, weapon: shooting, element: ice, power: 1, range: %s}\n"
    )
    far = problems("system: getb\ntitle: t\nenemies:\n" + ENEMY + attack % "5-6")
    assert far == [
        "t.yaml:12:68: error: scenario.enemies[0].attacks[0].range: range 5-6 starts beyond "
        "the farthest two cells of the map (4 apart)"
    ]
    wide = problems("system: getb\ntitle: t\nenemies:\n" + ENEMY + attack % "0-9")
    assert wide == [
        "t.yaml:12:68: warning: scenario.enemies[0].attacks[0].range: range 0-9 reaches beyond "
        "the map: no two cells are more than 4 apart"
    ]


def test_getb_board_distances_match_brute_force() -> None:
    cells = getb.cells()
    assert len(cells) == 25 and "centre" in cells
    assert getb.diameter() == max(getb.distance(a, b) for a in cells for b in cells) == 4
    assert getb.distance("out1", "out7") == 4
    assert getb.distance("in3", "in3") == 0


def test_getb_check_odds_by_enumeration() -> None:
    for ability, target in product(range(8), range(1, 20)):
        wins = 0
        for die in range(1, 11):
            if die == 10 or (die != 1 and die + ability >= target):
                wins += 1
        assert getb.check_success(ability, target) == Fraction(wins, 10)


def test_getb_miracle_tier_ruling_changes_the_warning() -> None:
    text = (
        "system: getb\ntitle: t\ndifficulty_targets:\n  - {name: a, check: agility, target: 17}\n"
    )
    # the literal rule (default): the total decides; the warning gives the odds by ability
    assert (
        problems(text + "rulings: {miracle_tier: false}\n")
        == problems(text)
        == [
            "t.yaml:4:39: warning: scenario.difficulty_targets[0].target: target 17 is in the "
            "16+ tier of the target guide (all but impossible): with an ability of 7 or less "
            "only a critical (a natural 10) reaches it (hint: chance of success by ability: "
            "≤7: 1/10 (10.0%), 8: 1/5 (20.0%), 10: 2/5 (40.0%), 12: 3/5 (60.0%))"
        ]
    )
    for ability, p in ((7, Fraction(1, 10)), (8, Fraction(2, 10)), (12, Fraction(6, 10))):
        assert getb.check_success(ability, 17) == p
    on = problems(text + "rulings: {miracle_tier: true}\n")
    assert on == [
        "t.yaml:4:39: warning: scenario.difficulty_targets[0].target: target 17 succeeds "
        "only on a critical (a natural 10) under the miracle_tier ruling "
        "(hint: chance of success: 1/10 (10.0%))"
    ]
    easy = "system: getb\ntitle: t\ndifficulty_targets:\n  - {name: a, check: agility, target: 2}\n"
    assert problems(easy) == [
        "t.yaml:4:39: warning: scenario.difficulty_targets[0].target: target 2 succeeds on every "
        "roll except a fumble (a natural 1) (hint: chance of success: 9/10 (90.0%))"
    ]


def test_kegare_odds_warnings() -> None:
    text = "system: kegare\ntitle: t\ndifficulty_targets:\n"
    text += "  - {name: a, target: 14, bonus: 1}\n  - {name: b, target: 3, bonus: 1}\n"
    assert problems(text) == [
        "t.yaml:4:23: warning: scenario.difficulty_targets[0].target: target 14 needs 13 or more "
        "on 2D6: it can never succeed",
        "t.yaml:5:23: warning: scenario.difficulty_targets[1].target: target 3 needs only 2 or "
        "more on 2D6: it always succeeds (hint: chance of success: 1 (100%))",
    ]
    for need in range(15):
        wins = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b >= need)
        assert kegare.two_d6_at_least(need) == Fraction(wins, 36)


def test_akatsuki_targets() -> None:
    for target in range(-3, 15):
        wins = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b <= target)
        assert two_d6_at_most(target) == (Fraction(wins, 36) if target >= 2 else 0)
    text = "system: akatsuki\ntitle: t\ndifficulty_targets:\n"
    text += "  - {name: a, ability: 体躯, difficulty: 1, preparation: 3, support: 4, level: 9}\n"
    assert problems(text) == [
        "t.yaml:4:40: warning: scenario.difficulty_targets[0].difficulty: the target comes to 17 "
        "for a level-9 character: 2D6 always rolls under it; consider not rolling "
        "(hint: chance of success: 1 (100%))"
    ]


def test_kokuryoku_and_cutaction_checks() -> None:
    text = "system: kokuryoku\ntitle: t\nenemies:\n  - {id: a, name: 国, kind: nation}\n"
    text += "difficulty_targets:\n  - {name: x, target: 5, gain: 1}\n"
    assert problems(text) == [
        "t.yaml:4:5: error: scenario.enemies[0].power: a nation needs 'power'",
        "t.yaml:6:32: warning: scenario.difficulty_targets[0].gain: a gain of 1 halves to 0 on "
        "failure: failing gives nothing",
    ]
    cut = (
        "system: cutaction\ntitle: t\ndifficulty_targets:\n  - {name: x, check: body, target: 12}\n"
    )
    assert problems(cut) == [
        "t.yaml:4:36: warning: scenario.difficulty_targets[0].target: target 12 is very high for a "
        "cut-action check (the rules suggest the number of parts of the act)"
    ]


def table(die: str, entries: str) -> str:
    head = "system: getb\ntitle: t\nchase_tables:\n  - name: n\n"
    return f"{head}    die: {die}\n    entries:\n{entries}"


def test_table_coverage_messages() -> None:
    entries = (
        "      1-2: {title: a}\n      2-4: {title: b}\n      3: {title: c}\n      12: {title: d}\n"
    )
    assert problems(table("1D6", entries)) == [
        "t.yaml:8:7: error: scenario.chase_tables[0].entries.2-4: 2 is covered twice "
        "(entries 1-2 and 2-4)",
        "t.yaml:8:7: error: scenario.chase_tables[0].entries.2-4: 5-6 are not covered by any "
        "entry of this 1D6 table (hint: change 2-4 to 2-6, or add an entry for 5-6)",
        "t.yaml:9:7: error: scenario.chase_tables[0].entries.3: 3 is covered twice "
        "(entries 2-4 and 3)",
        "t.yaml:10:7: error: scenario.chase_tables[0].entries.12: entry 12 is not a possible "
        "result of 1D6 (1-6)",
    ]
    d66 = "      11-16: {title: a}\n      21-36: {title: b}\n      41-55: {title: c}\n"
    assert problems(table("D66", d66)) == [
        "t.yaml:9:7: error: scenario.chase_tables[0].entries.41-55: 56-66 are not covered by any "
        "entry of this D66 table (hint: change 41-55 to 41-66, or add an entry for 56-66)"
    ]
    assert problems(table("2D6", "      2-11: {title: a}\n")) == [
        "t.yaml:7:7: error: scenario.chase_tables[0].entries.2-11: 12 is not covered by any entry "
        "of this 2D6 table (hint: change 2-11 to 2-12, or add an entry for 12)"
    ]
    assert problems(table("3D", "      1: {title: a}\n"))[0].startswith(
        "t.yaml:5:10: error: scenario.chase_tables[0].die: expected a die like 1D6"
    )
    assert problems(table("0D6", "      1: {title: a}\n")) == [
        "t.yaml:5:10: error: scenario.chase_tables[0].die: '0D6' is not a table die "
        "(use NdM like 1D10 or 2D6, or D66)"
    ]


def test_die_outcomes_agree_with_the_dice_engine() -> None:
    import saikoro
    from saikoro.scenario._common import _engine_outcomes

    for die in ("1D6", "2D6", "1D10", "D66", "1D100", "3D6"):
        odds = saikoro.odds(die)
        assert odds is not None
        assert _engine_outcomes(die) == die_outcomes(die) == tuple(sorted(odds.distribution))


def test_die_outcomes_by_enumeration() -> None:
    for count, sides in [(1, 6), (2, 6), (3, 6), (1, 10), (2, 10), (1, 100)]:
        sums = {sum(r) for r in product(range(1, sides + 1), repeat=count)}
        assert die_outcomes(f"{count}D{sides}") == tuple(sorted(sums))
    assert die_outcomes("D66") == tuple(10 * a + b for a, b in product(range(1, 7), repeat=2))


def test_rulings_are_checked_against_the_system() -> None:
    text = "system: kokuryoku\ntitle: t\nrulings:\n  die: six\n  damge_floor: 0\n  equal_power: x\n"
    got = problems(text)
    assert got[0] == "t.yaml:4:8: error: scenario.rulings.die: expected an integer, got 'six'"
    assert got[1] == (
        "t.yaml:5:3: error: scenario.rulings.damge_floor: unknown ruling option 'damge_floor' for "
        "kokuryoku (hint: did you mean 'damage_floor'?)"
    )
    assert got[2].startswith("t.yaml:6:16: error: scenario.rulings.equal_power: expected one of ")
    assert problems("system: kokuryoku\ntitle: t\nrulings: {die: 6, die_count: 2}\n") == []


def test_unique_ids_and_enum_hints_in_other_systems() -> None:
    text = "system: cutaction\ntitle: t\nenemies:\n"
    text += "  - {id: a, name: x, body: 1, head: 1, hp: 1, area: frontt}\n"
    assert problems(text) == [
        "t.yaml:4:53: error: scenario.enemies[0].area: expected one of home-base | home | front | "
        "enemy | enemy-base, got 'frontt' (hint: did you mean 'front'?)"
    ]


def test_catalogues_are_complete_and_consistent() -> None:
    en, ja = catalogue("en"), catalogue("ja")
    assert set(en) == set(ja)
    for key in en:
        assert sorted(re.findall(r"\{\d\}", en[key])) == sorted(re.findall(r"\{\d\}", ja[key])), key


def test_every_template_formats() -> None:
    for lang in ("en", "ja"):
        for key, template in catalogue(lang).items():
            count = len(set(re.findall(r"\{(\d)\}", template)))
            assert template.format(*["x"] * count), key  # no stray braces


def test_every_message_code_used_is_in_the_catalogue() -> None:
    source = "\n".join(
        p.read_text("utf-8") for p in (ROOT / "plugin" / "saikoro" / "scenario").rglob("*.py")
    )
    codes = set(re.findall(r'Msg\(\s*"([a-z0-9_.]+)"', source))
    from saikoro.scenario._loader import _SYNTAX

    codes |= {c for pair in _SYNTAX.values() for c in pair if c}
    codes |= {f"v.{k}" for k in ("map", "seq", "scalar")}
    assert codes <= set(catalogue("en")), codes - set(catalogue("en"))


def test_default_lang_from_environment() -> None:
    assert default_lang({"LANG": "ja_JP.UTF-8"}) == "ja"
    assert default_lang({"LC_MESSAGES": "ja"}) == "ja"
    assert default_lang({"LC_ALL": "en_US.UTF-8", "LANG": "ja_JP.UTF-8"}) == "en"
    assert default_lang({}) == "ja"  # Japanese unless the locale asks for English
    assert default_lang({"LANG": "C.UTF-8"}) == "ja"


def test_field_reference_is_json_and_complete() -> None:
    for system in ("getb", "kegare", "akatsuki", "kokuryoku", "cutaction"):
        ref = field_reference(system)
        json.dumps(ref, ensure_ascii=False)
        names = [f["name"] for f in ref["fields"]]
        assert names[:3] == ["system", "id", "title"]
        for f in ref["fields"]:
            assert f["ja"] and f["en"] and f["expected"]["ja"]
    enemies = next(f for f in field_reference("getb")["fields"] if f["name"] == "enemies")
    hp = next(f for f in enemies["item"]["fields"] if f["name"] == "hp")
    assert hp["required"] and hp["type"] == "integer"
    assert hp["expected"] == {
        "en": "an integer between 1 and 99999",
        "ja": "1 以上 99999 以下の整数",
    }
