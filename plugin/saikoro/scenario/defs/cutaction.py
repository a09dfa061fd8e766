"""Cut-action scenarios: body/head checks, a five-row battle area, chase event tables."""

from __future__ import annotations

from typing import Any

from saikoro.scenario.common import ID, NAME, TEXT, chase_tables, root_fields, unique_ids
from saikoro.scenario.containers import Field, ListOf, Obj
from saikoro.scenario.loader import Node, join_path
from saikoro.scenario.problems import Msg
from saikoro.scenario.schema import Bool, Choice, Ctx, Enum, Int

__all__ = ["ROOT"]

CHECKS = (
    Choice("body", "ボディ", "body"),
    Choice("head", "ヘッド", "head"),
)
AREAS = (
    Choice("home-base", "自陣本営", "own headquarters"),
    Choice("home", "自陣", "own side"),
    Choice("front", "前線", "front line"),
    Choice("enemy", "敵陣", "enemy side"),
    Choice("enemy-base", "敵陣本営", "enemy headquarters"),
)
KINDS = (
    Choice("action", "行動判定", "action check"),
    Choice("resist", "抵抗判定", "resistance check"),
    Choice("chase", "チェイスの移動(目標値の10倍が到着点)", "chase (goal is ten times the target)"),
)
ATTACK_KINDS = (
    Choice("melee", "格闘", "melee"),
    Choice("shooting", "射撃", "shooting"),
)


def _check_target(dt: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    tpath = join_path(path, "target")
    if dt["target"] >= 10 and dt["kind"] != "chase":
        ctx.warning(ctx.nodes.get(tpath, node), tpath, Msg("cutaction.high", (dt["target"],)))


ENEMY = Obj(
    (
        Field("id", ID, required=True, ja="ID", en="id"),
        Field("name", NAME, required=True, ja="名前", en="name"),
        Field("body", Int(0, 30), required=True, ja="ボディの成功値", en="body success value"),
        Field("head", Int(0, 30), required=True, ja="ヘッドの成功値", en="head success value"),
        Field("hp", Int(1, 999), required=True, ja="体力", en="stamina"),
        Field("area", Enum(AREAS), default="enemy", ja="初期配置のエリア", en="starting row"),
        Field(
            "cover",
            Enum(
                (
                    Choice("none", "なし", "none"),
                    Choice("half", "半遮蔽", "half cover"),
                    Choice("full", "完全遮蔽", "full cover"),
                )
            ),
            default="none",
            ja="遮蔽",
            en="cover",
        ),
        Field(
            "attacks",
            ListOf(
                Obj(
                    (
                        Field("name", NAME, required=True, ja="攻撃名", en="name"),
                        Field(
                            "kind",
                            Enum(ATTACK_KINDS),
                            required=True,
                            ja="格闘か射撃か",
                            en="melee or shooting",
                        ),
                        Field("damage", Int(0, 999), required=True, ja="ダメージ", en="damage"),
                        Field("effect", TEXT, ja="効果", en="effect"),
                    )
                ),
                max_items=20,
            ),
            default=list,
            ja="攻撃",
            en="attacks",
        ),
        Field("vehicle", NAME, ja="乗り物(チェイス用)", en="vehicle (for chases)"),
        Field("blockade", Bool(), default=False, ja="エリアを封鎖する", en="blockades its row"),
        Field("notes", TEXT, ja="メモ", en="notes"),
    )
)

TARGET = Obj(
    (
        Field("name", NAME, required=True, ja="判定の場面", en="what the check is for"),
        Field("check", Enum(CHECKS), required=True, ja="ボディかヘッドか", en="body or head"),
        Field(
            "target",
            Int(0, 99),
            required=True,
            ja="目標値(行為の要素の数が目安。達成値がこれ以上で成功)",
            en="target (about the number of parts of the act)",
        ),
        Field("kind", Enum(KINDS), default="action", ja="判定の種類", en="kind of check"),
        Field("note", TEXT, ja="補足", en="note"),
    ),
    checks=(_check_target,),
)

ROOT = root_fields(
    "cutaction",
    ListOf(TARGET, max_items=100),
    ListOf(ENEMY, max_items=50, checks=(unique_ids(),)),
    chase_tables(ja="チェイスイベント表などのランダム表", en="chase event and other tables"),
)
"""The whole cut-action scenario."""
