"""国力 (nation-building) scenarios: middle-phase checks with a power gain, rival nations.

National power (国力) is the nation's gauge; 愛 is a character's.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from typing import Any

from saikoro.scenario import (
    NAME,
    PC_NAME,
    TEXT,
    Choice,
    Ctx,
    Enum,
    Field,
    Int,
    ListOf,
    Msg,
    Node,
    Obj,
    SideFact,
    Str,
    enemy_obj,
    join_path,
    scenario_root,
    show_value,
    target_obj,
    warn_at,
    with_party,
)

__all__ = ["ROOT"]

KINDS = (
    Choice("nation", "国(国力ゲージを持つ)", "nation (has a power gauge)"),
    Choice("character", "人物(愛を持つ)", "character (has love points)"),
)
ABILITIES = (
    Choice("force", "武力", "force"),
    Choice("perception", "知覚", "perception"),
    Choice("charisma", "カリスマ", "charisma"),
    Choice("luck", "運", "luck"),
)


def _check_enemy(enemy: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    kind = enemy["kind"]
    needed = "power" if kind == "nation" else "love"
    if needed not in enemy:
        ctx.error(node, join_path(path, needed), Msg("kokuryoku.needs", (kind, needed)))


def _check_target(dt: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    if dt["gain"] == 1:
        warn_at(ctx, node, path, "gain", Msg("kokuryoku.half_zero"))


_POWER_TO_ZERO = re.compile(
    r"国力.*(?:[0０零]|ゼロ|削りき|削り切|尽き)|power\b.*\b(?:0|zero)\b", re.IGNORECASE | re.DOTALL
)
"""How a success condition says "bring the enemy's national power to 0"."""


def _check_final_phase(scenario: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    """The final phase's end conditions always include reducing the enemy's power to 0."""
    missions = scenario.get("missions")
    if missions is None:
        return
    main = missions["main"]
    text = unicodedata.normalize("NFKC", main["success"])
    if _POWER_TO_ZERO.search(text) is None:
        spath = join_path(join_path(join_path(path, "missions"), "main"), "success")
        ctx.warning(ctx.nodes.get(spath, node), spath, Msg("kokuryoku.no_power_zero"))


ENEMY = enemy_obj(
    Field("kind", Enum(KINDS), default="character", ja="国か人物か", en="nation or character"),
    Field("power", Int(1, 9999), ja="国力(国のゲージ、0で敗北)", en="national power (0 loses)"),
    Field("love", Int(1, 999), ja="愛(人物のHP、0で戦闘不能)", en="love (a character's HP)"),
    Field(
        "abilities",
        Obj(tuple(Field(c.value, Int(0, 20), ja=c.ja, en=c.en) for c in ABILITIES)),
        default=dict,
        ja="能力値",
        en="abilities",
    ),
    Field("attack", Int(0, 999), default=0, ja="攻撃力", en="attack power"),
    Field("defence", Int(0, 999), default=0, ja="防御力", en="defence power"),
    Field(
        "skills",
        ListOf(
            Obj(
                (
                    Field("name", NAME, required=True, ja="スキル名", en="name"),
                    Field("timing", Str(max_length=40), ja="タイミング", en="timing"),
                    Field("effect", TEXT, ja="効果", en="effect"),
                )
            ),
            max_items=20,
        ),
        default=list,
        ja="スキル",
        en="skills",
    ),
    checks=(_check_enemy,),
    short=True,
)

TARGET = target_obj(
    Field(
        "target",
        Int(1, 999),
        required=True,
        ja="目標値(支援判定の達成値と合計)",
        en="target (totals of the check and its supports)",
    ),
    Field(
        "gain",
        Int(0, 999),
        required=True,
        ja="成功時の増加国力(失敗時は半分、切り捨て)",
        en="power gained (half, rounded down, on failure)",
    ),
    Field(
        "ability",
        Enum(ABILITIES),
        ja="GMが指定する起点の能力(省略時は自由)",
        en="starting ability set by the GM (default: free)",
    ),
    checks=(_check_target,),
    name=Field("name", NAME, required=True, ja="判定させたい状況", en="the situation"),
)


POWER_AT_LEAST = SideFact(
    Field(
        "power_at_least",
        Int(0, 9999),
        ja="終了時の自国の国力がこの値以上",
        en="the PCs' national power at the end is at least this",
    ),
    fact="power",
    compare=">=",
)
"""A side mission won with the nation's power kept: the simulator records it at the end."""

SIDE_CHECKS: tuple[str | SideFact, ...] = (
    "win",
    "rounds_at_most",
    "taken_at_most",
    POWER_AT_LEAST,
    "targets",
    "targets_at_least",
)
"""The side-mission ``check:`` keys this system's scenarios offer."""

ROOT = scenario_root(
    "kokuryoku", TARGET, ENEMY, checks=(_check_final_phase,), side_checks=SIDE_CHECKS
)
"""The whole kokuryoku scenario."""


PC = Obj(
    (
        PC_NAME,
        Field("kind", Enum(KINDS), default="character", ja="国か人物か", en="nation or character"),
        Field("power", Int(1, 9999), ja="国力(国のゲージ)", en="national power"),
        Field("love", Int(1, 999), ja="愛(人物のHP)", en="love (a character's HP)"),
        Field(
            "abilities",
            Obj(tuple(Field(c.value, Int(0, 20), ja=c.ja, en=c.en) for c in ABILITIES)),
            default=dict,
            ja="能力値",
            en="abilities",
        ),
        Field("attack", Int(0, 999), default=0, ja="攻撃力", en="attack power"),
        Field("defence", Int(0, 999), default=0, ja="防御力", en="defence power"),
    ),
    checks=(_check_enemy,),
)


def _one_nation(root: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    """The PCs play one nation: a second ``kind: nation`` in ``party`` is an error."""
    nations = [i for i, pc in enumerate(root.get("party") or ()) if pc.get("kind") == "nation"]
    party = join_path(path, "party")
    for i in nations[1:]:
        kpath = join_path(join_path(party, i), "kind")
        first = root["party"][nations[0]]["name"]
        msg = Msg(
            "kokuryoku.two_nations", (show_value(first), show_value(root["party"][i]["name"]))
        )
        ctx.error(ctx.nodes.get(kpath, node), kpath, msg, Msg("hint.kokuryoku.two_nations"))


ROOT = with_party(ROOT, PC, defeat=False)
ROOT = dataclasses.replace(ROOT, checks=(*ROOT.checks, _one_nation))


REFERENCE_PARTY: tuple[dict[str, object], ...] = (
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
)
"""The four archetypes of the reference party (``party:`` format), in the order a party
takes them: a party of *n* takes the first *n*, cycling with numbered names beyond four."""

REFERENCE_PARTY_FIXED: tuple[dict[str, object], ...] = (
    {"name": "我が国", "kind": "nation", "power": 50, "attack": 2, "defence": 2},
)
"""Members every reference party has: the PCs' nation (its power grows in the middle phase)."""
