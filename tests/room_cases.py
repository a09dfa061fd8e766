"""Scenarios the room tests use beside the sample book: what a sample never holds.

Numbered copies (three enemies named alike), several pieces in one cell of a map, a
party, tables on 2D6 and D66, and text that is hostile to every format a room is
written in: XML (``</data>``, ``&amp;``, quotes), Udonarium's palette (``{HP}``
variables, a ``//x=1`` line), JSON, HTML, U+FFFD (which Udonarium strips from a file it
reads), a zero-width joiner and an emoji beyond the BMP.
"""

from __future__ import annotations

import json

from saikoro.scenario import Scenario, validate_text

HOSTILE = '</data><data name="x">&amp;&lt;\'{HP}｛MP｝ //x=1 \ufffd\u200d🎲'
"""Text no format may change or break."""


def q(text: str) -> str:
    """``text`` as a YAML double-quoted scalar (JSON's string syntax is YAML's)."""
    return json.dumps(text, ensure_ascii=False)


CUTACTION = f"""\
system: cutaction
id: room-cut
title: {q("ルーム " + HOSTILE)}
summary: {q("あらすじ " + HOSTILE)}
players: 2-3
difficulty_targets:
  - name: {q("鍵 " + HOSTILE)}
    check: head
    target: 2
    note: {q("補足 " + HOSTILE)}
enemies:
  - {{id: g1, name: ゴブリン, body: 5, head: 3, hp: 6, area: front,
      attacks: [{{name: {q("棍棒 " + HOSTILE)}, kind: melee, damage: 2}}]}}
  - {{id: g2, name: ゴブリン, body: 5, head: 3, hp: 6, area: front,
      attacks: [{{name: 棍棒, kind: melee, damage: 2}}]}}
  - {{id: g3, name: ゴブリン, body: 5, head: 3, hp: 6, area: enemy}}
  - {{id: boss, name: {q("親玉 " + HOSTILE)}, body: 7, head: 6, hp: 12, area: enemy-base,
      notes: {q("方針 " + HOSTILE)}}}
party:
  - {{name: {q("探偵 " + HOSTILE)}, body: 6, head: 7, hp: 10, area: home}}
  - {{name: 運び屋, body: 7, head: 4, hp: 12, area: home, attack: melee, damage: 3}}
chase_tables:
  - name: {q("裏道表 " + HOSTILE)}
    die: 2D6
    description: {q("説明 " + HOSTILE)}
    entries:
      2-6: {{title: {q("袋小路 " + HOSTILE)}, effect: "全員-1 {{HP}}"}}
      7: {{title: 直線}}
      8-12: {{title: 近道, effect: 先頭+2, event: 小道}}
"""

GETB = f"""\
system: getb
id: room-getb
title: 環の試し
players: 3
enemies:
  - id: a
    name: オウガテイル
    abilities: {{strength: 4, agility: 3, intellect: 1, endurance: 4}}
    hp: 40
    ap: 6
    st: 3
    placement: in3
    attacks: [{{name: 噛みつき, weapon: long-blade, element: physical, power: 5}}]
    guard: {{shield: buckler, armor: 2}}
  - id: b
    name: オウガテイル
    abilities: {{strength: 4, agility: 3, intellect: 1, endurance: 4}}
    hp: 40
    ap: 6
    st: 3
    placement: in3
    attacks: [{{name: 噛みつき, weapon: long-blade, element: physical, power: 5}}]
  - id: c
    name: {q("ヴァジュラ " + HOSTILE)}
    abilities: {{strength: 6, agility: 5, intellect: 4, endurance: 6}}
    hp: 120
    ap: 8
    st: 4
    op: 3
    placement: centre
    attacks:
      - {{name: 雷球, weapon: skill, element: thunder, power: 6, dice: 3, range: 0-3}}
party:
  - name: 新型
    abilities: {{strength: 4, agility: 4, intellect: 3, endurance: 3}}
    hp: 40
    ap: 6
    st: 3
    weapon: buster-blade
    power: 6
    gun_power: 4
chase_tables:
  - name: 廃墟の表
    die: D66
    entries:
      11-36: {{title: 瓦礫}}
      41-66: {{title: 雨, effect: 移動-1}}
"""

STORY = f"""\
system: kegare
id: room-story
title: 社の夜
author: 作者-PUBLIC-AUTHOR
players: 2
playtime: 2時間
overview: GM-OVERVIEW-SECRET 黒幕は宮司。
trailer: PUBLIC-TRAILER 祭りの夜に鈴が鳴る。
handouts:
  - {{id: a, pc: PC1, title: 巫女, text: PUBLIC-HO1 社を守れ。,
      secret: HO1-SECRET あなたは狐の子。}}
  - {{id: b, pc: PC2, text: PUBLIC-HO2 兄を探せ。, secret: {q("HO2-SECRET " + HOSTILE)}}}
scenes:
  - {{id: s1, phase: 導入, title: 鈴の音, text: GM-SCENE1-SECRET 境内に集まる。,
      enemies: [oni], npcs: [miko], next: [{{scene: s2, condition: 鈴を鳴らす}}]}}
  - {{id: s2, phase: climax, title: 本殿, text: GM-SCENE2-SECRET 宮司が正体を現す。}}
npcs:
  - {{id: miko, name: 老巫女, text: PUBLIC-NPC 社の番人。, secret: NPC-SECRET 宮司の母。}}
enemies:
  - {{id: oni, name: 祟り神, hp: 20, attack: 3, defence: 2, initiative: 4}}
credits: [PUBLIC-CREDIT 絵・誰か]
notice: PUBLIC-NOTICE 転載禁止。
"""

SECRETS = (
    "GM-OVERVIEW-SECRET",
    "HO1-SECRET",
    "HO2-SECRET",
    "GM-SCENE1-SECRET",
    "GM-SCENE2-SECRET",
    "NPC-SECRET",
)
"""Markers of the text only the GM (and a handout's own player) may read."""
PUBLIC = (
    "PUBLIC-AUTHOR",
    "PUBLIC-TRAILER",
    "PUBLIC-HO1",
    "PUBLIC-HO2",
    "PUBLIC-NPC",
    "PUBLIC-CREDIT",
    "PUBLIC-NOTICE",
)
"""Markers of the text every player may read."""

HELD_OUT = {"room-cut": CUTACTION, "room-getb": GETB, "room-story": STORY}
"""Scenarios beside the sample book, by id."""


def held_out() -> list[Scenario]:
    """The held-out scenarios, validated (a test fails if one is not valid)."""
    out = []
    for name, text in HELD_OUT.items():
        result = validate_text(text, f"{name}.yaml")
        assert result.scenario is not None, [p.format() for p in result.problems]
        out.append(result.scenario)
    return out
