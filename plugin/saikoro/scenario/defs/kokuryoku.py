"""国力 (nation-building) scenarios: middle-phase checks with a power gain, rival nations.

National power (国力) is the nation's gauge; 愛 is a character's.
"""

from __future__ import annotations

from typing import Any

from saikoro.scenario.common import ID, NAME, TEXT, chase_tables, root_fields, unique_ids
from saikoro.scenario.containers import Field, ListOf, Obj
from saikoro.scenario.loader import Node, join_path
from saikoro.scenario.problems import Msg
from saikoro.scenario.schema import Choice, Ctx, Enum, Int, Str

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
    gpath = join_path(path, "gain")
    if dt["gain"] == 1:
        ctx.warning(ctx.nodes.get(gpath, node), gpath, Msg("kokuryoku.half_zero"))


ENEMY = Obj(
    (
        Field("id", ID, required=True, ja="ID", en="id"),
        Field("name", NAME, required=True, ja="名前", en="name"),
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
        Field("notes", TEXT, ja="メモ", en="notes"),
    ),
    checks=(_check_enemy,),
)

TARGET = Obj(
    (
        Field("name", NAME, required=True, ja="判定させたい状況", en="the situation"),
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
        Field("note", TEXT, ja="補足", en="note"),
    ),
    checks=(_check_target,),
)

ROOT = root_fields(
    "kokuryoku",
    ListOf(TARGET, max_items=100),
    ListOf(ENEMY, max_items=50, checks=(unique_ids(),)),
    chase_tables(),
)
"""The whole kokuryoku scenario."""
