"""Cut-action scenarios: body/head checks, a five-row battle area, chase event tables."""

from __future__ import annotations

from typing import Any

from saikoro.scenario._common import NAME, TEXT, chase_tables
from saikoro.scenario._containers import Field, ListOf, Obj
from saikoro.scenario._defs._party import PC_NAME, with_party
from saikoro.scenario._defs._shared import enemy_obj, scenario_root, target_obj, warn_at
from saikoro.scenario._defs._side import BATTLE_CHECKS
from saikoro.scenario._loader import Node
from saikoro.scenario._problems import Msg
from saikoro.scenario._schema import Bool, Choice, Ctx, Enum, Int

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
    target = dt["target"]
    if target >= 10 and dt["kind"] != "chase":
        warn_at(ctx, node, path, "target", Msg("cutaction.high", (target,)))
    elif target >= 10:  # a chase's goal is ten times its target: 40 is a goal of 400
        goal = Msg("cutaction.chase_goal", (target, target * 10))
        meant = Msg("hint.cutaction.chase_goal", (target, target // 10))
        warn_at(ctx, node, path, "target", goal, hint=meant if target % 10 == 0 else None)


ENEMY = enemy_obj(
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
    short=True,
)

TARGET = target_obj(
    Field("check", Enum(CHECKS), required=True, ja="ボディかヘッドか", en="body or head"),
    Field(
        "target",
        Int(0, 99),
        required=True,
        ja="目標値(行為の要素の数が目安。達成値がこれ以上で成功)",
        en="target (about the number of parts of the act)",
    ),
    Field("kind", Enum(KINDS), default="action", ja="判定の種類", en="kind of check"),
    checks=(_check_target,),
)


SIDE_CHECKS: tuple[str, ...] = (*BATTLE_CHECKS, "escaped")
"""The side-mission ``check:`` keys this system's scenarios offer."""

ROOT = scenario_root(
    "cutaction",
    TARGET,
    ENEMY,
    chase_tables(ja="チェイスイベント表などのランダム表", en="chase event and other tables"),
    side_checks=SIDE_CHECKS,
)
"""The whole cut-action scenario."""


PC = Obj(
    (
        PC_NAME,
        Field("body", Int(0, 30), required=True, ja="ボディの成功値", en="body success value"),
        Field("head", Int(0, 30), required=True, ja="ヘッドの成功値", en="head success value"),
        Field("hp", Int(1, 999), required=True, ja="体力", en="stamina"),
        Field("area", Enum(AREAS), default="home", ja="初期配置のエリア", en="starting row"),
        Field(
            "attack", Enum(ATTACK_KINDS), default="shooting", ja="格闘か射撃か", en="attack kind"
        ),
        Field("damage", Int(0, 999), default=4, ja="攻撃のダメージ", en="attack damage"),
    )
)

ROOT = with_party(ROOT, PC)


REFERENCE_PARTY: tuple[dict[str, object], ...] = (
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
)
"""The four archetypes of the reference party (``party:`` format), in the order a party
takes them: a party of *n* takes the first *n*, cycling with numbered names beyond four."""
