"""Built-in reference parties: what a scenario is simulated with when it names no party.

Each system has four archetypes of ordinary starting characters; a party of *n* takes
the first *n* (cycling, with numbered names, beyond four). They are written in the
scenario's own ``party:`` format, so the scenario schema validates them (a test does)
and the author guide (``saikoro/guide/balance.md``) shows them as an author would write
them.

>>> [m["name"] for m in reference_party("kegare", 5)]
['前衛', '射手', '祓い手', '斥候', '前衛2']
>>> [m["name"] for m in reference_party("kokuryoku", 2)]
['我が国', '将軍', '宰相']
"""

from __future__ import annotations

from typing import Any

from ._errors import BalanceError

__all__ = ["ARCHETYPES", "NATION", "reference_party"]

ARCHETYPES: dict[str, tuple[dict[str, Any], ...]] = {
    "akatsuki": (
        {
            "name": "剛力",
            "abilities": {"体躯": 10, "技巧": 5, "知性": 4, "話術": 4},
            "specialties": ["力仕事", "跳躍", "白兵"],
            "cards": 2,
        },
        {
            "name": "斥候",
            "abilities": {"体躯": 6, "技巧": 8, "知性": 6, "話術": 4},
            "specialties": ["観察", "隠密"],
            "cards": 2,
        },
        {
            "name": "学者",
            "abilities": {"体躯": 4, "技巧": 5, "知性": 8, "話術": 6},
            "specialties": ["観察", "知識"],
            "cards": 2,
        },
        {
            "name": "交渉役",
            "abilities": {"体躯": 5, "技巧": 5, "知性": 6, "話術": 8},
            "specialties": ["交渉", "威圧"],
            "cards": 2,
        },
    ),
    "kokuryoku": (
        {
            "name": "将軍",
            "abilities": {"force": 4, "perception": 2, "charisma": 2, "luck": 1},
            "attack": 5,
            "defence": 3,
            "love": 12,
        },
        {
            "name": "宰相",
            "abilities": {"force": 1, "perception": 3, "charisma": 4, "luck": 2},
            "attack": 2,
            "defence": 5,
            "love": 10,
        },
        {
            "name": "密偵",
            "abilities": {"force": 2, "perception": 4, "charisma": 1, "luck": 3},
            "attack": 3,
            "defence": 3,
            "love": 10,
        },
        {
            "name": "豪商",
            "abilities": {"force": 1, "perception": 2, "charisma": 3, "luck": 4},
            "attack": 2,
            "defence": 4,
            "love": 10,
        },
    ),
    "kegare": (
        {
            "name": "前衛",
            "hp": 34,
            "attack": 5,
            "defence": 4,
            "initiative": 5,
            "position": "near",
            "damage": 7,
        },
        {
            "name": "射手",
            "hp": 26,
            "attack": 4,
            "defence": 2,
            "initiative": 7,
            "position": "mid",
            "damage": 5,
            "ranged": True,
        },
        {
            "name": "祓い手",
            "hp": 28,
            "attack": 4,
            "defence": 3,
            "initiative": 6,
            "position": "near",
            "damage": 6,
            "blessed": True,
        },
        {
            "name": "斥候",
            "hp": 24,
            "attack": 3,
            "defence": 3,
            "initiative": 9,
            "position": "mid",
            "damage": 5,
        },
    ),
    "getb": (
        {
            "name": "ロング使い",
            "abilities": {"strength": 5, "agility": 4, "intellect": 3, "endurance": 4},
            "hp": 50,
            "ap": 7,
            "st": 3,
            "op": 3,
            "weapon": "long-blade",
            "power": 3,
            "gun_power": 4,
            "gun_range": "1-3",
            "shield": "shield",
            "armor": 3,
        },
        {
            "name": "バスター使い",
            "abilities": {"strength": 6, "agility": 3, "intellect": 2, "endurance": 5},
            "hp": 55,
            "ap": 6,
            "st": 3,
            "op": 2,
            "weapon": "buster-blade",
            "power": 4,
            "shield": "tower",
            "armor": 4,
        },
        {
            "name": "ショート使い",
            "abilities": {"strength": 4, "agility": 6, "intellect": 3, "endurance": 3},
            "hp": 45,
            "ap": 8,
            "st": 4,
            "op": 3,
            "weapon": "short-blade",
            "power": 2,
            "shield": "buckler",
            "armor": 2,
        },
        {
            "name": "狙撃手",
            "abilities": {"strength": 3, "agility": 4, "intellect": 6, "endurance": 3},
            "hp": 45,
            "ap": 7,
            "st": 3,
            "op": 5,
            "weapon": "long-blade",
            "power": 2,
            "gun_power": 5,
            "gun_range": "1-4",
            "shield": "buckler",
            "armor": 2,
        },
    ),
    "cutaction": (
        {
            "name": "刑事",
            "body": 8,
            "head": 6,
            "hp": 14,
            "area": "home",
            "attack": "shooting",
            "damage": 4,
        },
        {
            "name": "格闘家",
            "body": 9,
            "head": 4,
            "hp": 16,
            "area": "front",
            "attack": "melee",
            "damage": 5,
        },
        {
            "name": "探偵",
            "body": 5,
            "head": 8,
            "hp": 12,
            "area": "home",
            "attack": "shooting",
            "damage": 3,
        },
        {
            "name": "運び屋",
            "body": 7,
            "head": 7,
            "hp": 13,
            "area": "home",
            "attack": "shooting",
            "damage": 3,
        },
    ),
}
"""System id -> the four archetypes, in the order a party takes them."""

NATION: dict[str, Any] = {
    "name": "我が国",
    "kind": "nation",
    "power": 50,
    "attack": 2,
    "defence": 2,
}
"""kokuryoku: the PCs' nation (its power grows with the middle-phase checks)."""


def reference_party(system: str, size: int) -> list[dict[str, Any]]:
    """The reference party of ``size`` PCs for ``system`` (in ``party:`` format)."""
    if size < 1:
        raise BalanceError("a party needs at least one PC")
    base = ARCHETYPES[system]
    out: list[dict[str, Any]] = [dict(NATION)] if system == "kokuryoku" else []
    for i in range(size):
        pc = dict(base[i % len(base)])
        if i >= len(base):
            pc["name"] = f"{pc['name']}{i // len(base) + 1}"
        out.append(pc)
    return out
