"""Small encounters shared by the balance tests (mid-range win rates, easy to vary)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import yaml

from saikoro.balance import Encounter, encounter
from saikoro.scenario import validate_text

Data = dict[str, Any]

AKATSUKI: Data = {
    "system": "akatsuki",
    "title": "三つの難所",
    "players": 2,
    "party": [
        {"name": "甲", "abilities": {"体躯": 7, "知性": 5}, "specialties": ["登攀"], "cards": 1},
        {"name": "乙", "abilities": {"体躯": 5, "知性": 7}, "specialties": ["観察"], "cards": 1},
    ],
    "difficulty_targets": [
        {"name": "崖", "ability": "体躯", "style": "登攀", "difficulty": -1},
        {"name": "謎", "ability": "知性", "style": "観察", "difficulty": -2},
        {"name": "川", "ability": "体躯", "difficulty": 0},
    ],
}

KOKURYOKU: Data = {
    "system": "kokuryoku",
    "title": "小国の戦い",
    "players": 2,
    "party": [
        {"name": "我が国", "kind": "nation", "power": 20, "attack": 1, "defence": 1},
        {"name": "将", "abilities": {"force": 3}, "attack": 3, "defence": 2, "love": 9},
        {"name": "相", "abilities": {"charisma": 3}, "attack": 1, "defence": 3, "love": 8},
    ],
    "enemies": [
        {"id": "rival", "name": "隣国", "kind": "nation", "power": 30, "attack": 2, "defence": 1},
        {
            "id": "gen",
            "name": "隣国の将",
            "abilities": {"force": 3},
            "attack": 3,
            "defence": 2,
            "love": 9,
        },
    ],
    "missions": {"main": {"success": "隣国の国力を0にする", "rounds": 4}},
    "rulings": {"die": 6},
}

KEGARE_DUEL: Data = {
    "system": "kegare",
    "title": "一騎打ち",
    "players": 1,
    "party": [
        {"name": "祓い手", "hp": 22, "attack": 4, "defence": 3, "initiative": 6, "damage": 6}
    ],
    "enemies": [
        {
            "id": "oni",
            "name": "鬼",
            "hp": 24,
            "attack": 4,
            "defence": 3,
            "initiative": 5,
            "skills": [{"name": "爪", "kind": "attack", "damage": 6}],
        }
    ],
    "missions": {"main": {"success": "鬼を倒す", "rounds": 6}},
}

KEGARE: Data = {
    "system": "kegare",
    "title": "二対二",
    "players": 2,
    "party": [
        {"name": "前衛", "hp": 26, "attack": 4, "defence": 3, "initiative": 5, "damage": 6},
        {
            "name": "後衛",
            "hp": 20,
            "attack": 3,
            "defence": 2,
            "initiative": 7,
            "position": "mid",
            "damage": 5,
            "ranged": True,
        },
    ],
    "enemies": [
        {
            "id": "oni",
            "name": "鬼",
            "hp": 30,
            "attack": 4,
            "defence": 3,
            "initiative": 5,
            "skills": [{"name": "爪", "kind": "attack", "damage": 7}],
        },
        {
            "id": "imp",
            "name": "小鬼",
            "hp": 14,
            "attack": 3,
            "defence": 2,
            "initiative": 6,
            "skills": [
                {"name": "毒針", "kind": "attack", "damage": 3, "effect": "命中した相手は毒。"}
            ],
        },
    ],
    "missions": {"main": {"success": "全滅させる", "rounds": 5}},
}

GETB_EXCHANGE: Data = {
    "system": "getb",
    "title": "一合",
    "players": 1,
    "party": [
        {
            "name": "神機使い",
            "abilities": {"strength": 5, "agility": 4, "intellect": 3, "endurance": 4},
            "hp": 30,
            "ap": 4,
            "st": 2,
            "weapon": "long-blade",
            "power": 6,
            "shield": "buckler",
            "armor": 2,
        }
    ],
    "enemies": [
        {
            "id": "beast",
            "name": "獣",
            "abilities": {"strength": 4, "agility": 3, "intellect": 1, "endurance": 3},
            "hp": 14,
            "ap": 5,
            "st": 2,
            "placement": "in1",
            "attacks": [{"name": "牙", "weapon": "long-blade", "element": "physical", "power": 5}],
            "guard": {"shield": "buckler", "armor": 1},
        }
    ],
    "missions": {"main": {"success": "倒す", "rounds": 1}},
}

GETB: Data = {
    "system": "getb",
    "title": "二人で一体",
    "players": 2,
    "party": [
        {
            "name": "ロング",
            "abilities": {"strength": 4, "agility": 4, "intellect": 3, "endurance": 4},
            "hp": 40,
            "ap": 7,
            "st": 3,
            "op": 2,
            "weapon": "long-blade",
            "power": 4,
            "shield": "shield",
            "armor": 2,
        },
        {
            "name": "ショート",
            "abilities": {"strength": 3, "agility": 6, "intellect": 3, "endurance": 3},
            "hp": 34,
            "ap": 8,
            "st": 3,
            "op": 2,
            "weapon": "short-blade",
            "power": 3,
            "gun_power": 3,
            "shield": "buckler",
            "armor": 1,
        },
    ],
    "enemies": [
        {
            "id": "beast",
            "name": "大型種",
            "abilities": {"strength": 5, "agility": 3, "intellect": 2, "endurance": 4},
            "hp": 110,
            "ap": 8,
            "st": 4,
            "placement": "in3",
            "attacks": [
                {"name": "爪", "weapon": "long-blade", "element": "physical", "power": 6},
                {"name": "咆哮", "weapon": "skill", "element": "fire", "power": 8, "dice": 3},
            ],
            "guard": {"shield": "shield", "armor": 3},
        }
    ],
    "missions": {"main": {"success": "倒す", "rounds": 3}},
}

CUTACTION: Data = {
    "system": "cutaction",
    "title": "路地裏",
    "players": 2,
    "party": [
        {"name": "刑事", "body": 7, "head": 6, "hp": 12, "attack": "shooting", "damage": 4},
        {
            "name": "拳士",
            "body": 8,
            "head": 4,
            "hp": 14,
            "area": "front",
            "attack": "melee",
            "damage": 5,
        },
    ],
    "enemies": [
        {
            "id": "boss",
            "name": "首領",
            "body": 6,
            "head": 6,
            "hp": 10,
            "area": "enemy",
            "cover": "half",
            "attacks": [{"name": "拳銃", "kind": "shooting", "damage": 5}],
        },
        {
            "id": "thug",
            "name": "手下",
            "body": 6,
            "head": 3,
            "hp": 10,
            "area": "front",
            "attacks": [{"name": "棍棒", "kind": "melee", "damage": 4}],
        },
    ],
    "missions": {"main": {"success": "制圧する", "rounds": 6}},
}

CHASE: Data = {
    "system": "cutaction",
    "title": "逃走",
    "players": 1,
    "party": [{"name": "運び屋", "body": 7, "head": 5, "hp": 12}],
    "difficulty_targets": [{"name": "港まで逃げる", "check": "body", "target": 1, "kind": "chase"}],
    "enemies": [
        {"id": "car", "name": "追跡車", "body": 6, "head": 4, "hp": 10, "vehicle": "黒い車"}
    ],
    "missions": {"main": {"success": "逃げ切る"}},
}

CASES: dict[str, Data] = {
    "akatsuki": AKATSUKI,
    "kokuryoku": KOKURYOKU,
    "kegare": KEGARE,
    "getb": GETB,
    "cutaction": CUTACTION,
}
"""One mid-range encounter per system."""


def text(data: Data) -> str:
    """The scenario as YAML."""
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


def build(data: Data, change: Callable[[Data], None] | None = None) -> Encounter:
    """The encounter of ``data`` (after ``change`` on a copy)."""
    d = copy.deepcopy(data)
    if change:
        change(d)
    result = validate_text(text(d), f"{d['system']}.yaml")
    assert result.scenario is not None, [p.format() for p in result.problems]
    return encounter(result.scenario)


def documented_notes(system: str) -> dict[str, str]:
    """The notes the author guide's balance page lists for ``system`` (key -> text as
    written), from its ``<!-- notes:<system> -->`` table."""
    import re
    from pathlib import Path

    guide = (
        Path(__file__).resolve().parents[1]
        / "plugin"
        / "saikoro"
        / "site"
        / "_guide"
        / "balance.md"
    )
    doc = guide.read_text("utf-8")
    found = re.search(rf"<!-- notes:{system} -->\n(.*?)<!-- /notes:{system} -->", doc, re.DOTALL)
    assert found, f"{guide.name} has no notes table for {system}"
    rows = re.findall(r"^\| `(\w+)` \| (.*) \|$", found.group(1), re.MULTILINE)
    return dict(rows)
