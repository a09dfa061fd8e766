"""穢れ (kegare) scenarios: 2D6 checks, enemies with attack, defence, HP, initiative and position.

>>> two_d6_at_least(7)
Fraction(7, 12)
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

from saikoro.scenario.common import (
    ID,
    NAME,
    TEXT,
    chase_tables,
    fraction_text,
    root_fields,
    unique_ids,
)
from saikoro.scenario.containers import Field, ListOf, Obj
from saikoro.scenario.loader import Node, join_path
from saikoro.scenario.problems import Msg
from saikoro.scenario.schema import Bool, Choice, Ctx, Enum, Int

__all__ = ["ROOT", "two_d6_at_least"]

POSITIONS = (
    Choice("far", "遠距離(攻撃判定に互いに-4)", "far (-4 to attacks both ways)"),
    Choice("mid", "中距離(攻撃判定に互いに-2)", "middle (-2 to attacks both ways)"),
    Choice("near", "近距離(補正なし)", "near (no modifier)"),
)
SKILL_KINDS = (
    Choice("attack", "攻撃", "attack"),
    Choice("support", "支援", "support"),
    Choice("defence", "防御", "defence"),
    Choice("passive", "常駐", "always on"),
)
TARGETS = (
    Choice("single", "単体", "one target"),
    Choice("all", "全体(敵対する全員)", "every opponent"),
    Choice("self", "自身", "self"),
)
STATUSES = (
    Choice("poison", "毒", "poison"),
    Choice("paralysis", "麻痺", "paralysis"),
    Choice("weakness", "脱力", "weakness (attack down)"),
    Choice("daze", "自失", "daze (defence down)"),
    Choice("confusion", "混乱", "confusion"),
    Choice("charm", "魅了", "charm"),
    Choice("curse", "呪い", "curse"),
)


@cache
def two_d6_at_least(need: int) -> Fraction:
    """Chance that 2D6 is at least ``need``."""
    wins = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= need)
    return Fraction(wins, 36)


def _check_target(dt: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    need = dt["target"] - dt.get("bonus", 0)
    tpath = join_path(path, "target")
    where = ctx.nodes.get(tpath, node)
    if need > 12:
        ctx.warning(where, tpath, Msg("twod6.impossible", (dt["target"], need)))
    elif need <= 2:
        ctx.warning(
            where,
            tpath,
            Msg("twod6.automatic", (dt["target"], need)),
            Msg("hint.odds", (fraction_text(two_d6_at_least(need)),)),
        )


SKILL = Obj(
    (
        Field("name", NAME, required=True, ja="スキル名", en="skill name"),
        Field("kind", Enum(SKILL_KINDS), required=True, ja="種類", en="kind"),
        Field("target", Enum(TARGETS), default="single", ja="対象", en="target"),
        Field(
            "ranged",
            Bool(),
            default=False,
            ja="遠距離攻撃(ポジション補正を無視)",
            en="ranged (ignores position modifiers)",
        ),
        Field("damage", Int(0, 999), ja="基本ダメージ", en="base damage"),
        Field("effect", TEXT, ja="効果", en="effect"),
    )
)

ENEMY = Obj(
    (
        Field("id", ID, required=True, ja="エネミーのID", en="enemy id"),
        Field("name", NAME, required=True, ja="名前", en="name"),
        Field("hp", Int(1, 9999), required=True, ja="HP", en="hit points"),
        Field("attack", Int(-20, 99), required=True, ja="攻撃値(2D6に足す)", en="attack value"),
        Field("defence", Int(-20, 99), required=True, ja="防御値(2D6に足す)", en="defence value"),
        Field("initiative", Int(0, 99), required=True, ja="行動値", en="initiative"),
        Field("position", Enum(POSITIONS), default="near", ja="ポジション", en="position"),
        Field(
            "blessed",
            Bool(),
            default=False,
            ja="加護を持つ(ターン終了ごとに穢れ+2)",
            en="has a blessing (corruption +2 each turn)",
        ),
        Field("skills", ListOf(SKILL, max_items=20), default=list, ja="スキル", en="skills"),
        Field(
            "immune",
            ListOf(Enum(STATUSES), max_items=7),
            default=list,
            ja="無効な状態異常",
            en="status immunities",
        ),
        Field("notes", TEXT, ja="行動方針などのメモ", en="notes"),
    )
)

TARGET = Obj(
    (
        Field("name", NAME, required=True, ja="判定の場面", en="what the check is for"),
        Field(
            "target",
            Int(-99, 99),
            required=True,
            ja="目標値(2D6+修正がこれ以上で成功)",
            en="target (2D6 + bonus must reach it)",
        ),
        Field("bonus", Int(-20, 20), default=0, ja="2D6に足す修正", en="bonus added to 2D6"),
        Field("note", TEXT, ja="補足", en="note"),
    ),
    checks=(_check_target,),
)

ROOT = root_fields(
    "kegare",
    ListOf(TARGET, max_items=100),
    ListOf(ENEMY, max_items=50, checks=(unique_ids(),)),
    chase_tables(),
)
"""The whole kegare scenario."""
