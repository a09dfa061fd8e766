"""GOD EATER TABLE BURST scenarios: checks by ability, enemies on the dial-clock map.

>>> cells()[:3], len(cells())
(('centre', 'in1', 'in2'), 25)
>>> diameter()
4
>>> check_success(5, 8)
Fraction(4, 5)
>>> check_success(0, 16)
Fraction(1, 10)
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

from saikoro.scenario import (
    BATTLE_CHECKS,
    NAME,
    PC_NAME,
    TEXT,
    Choice,
    Ctx,
    Enum,
    Field,
    Int,
    IntOrRange,
    ListOf,
    Msg,
    Node,
    Obj,
    Str,
    did_you_mean,
    enemy_obj,
    fraction_text,
    join_path,
    odds_hint,
    scenario_root,
    show_value,
    target_obj,
    warn_at,
    with_party,
)
from saikoro.systems import Board
from saikoro.systems import get as get_system

__all__ = ["ROOT", "cells", "check_success", "diameter", "distance"]

ABILITIES = (
    Choice("strength", "筋力", "strength"),
    Choice("agility", "敏捷", "agility"),
    Choice("intellect", "知力", "intellect"),
    Choice("endurance", "耐久", "endurance"),
)
WEAPONS = (
    Choice("short-blade", "ショートブレード(ダメージ2D)", "short blade (2 damage dice)"),
    Choice("long-blade", "ロングブレード(ダメージ3D)", "long blade (3 damage dice)"),
    Choice("buster-blade", "バスターブレード(ダメージ4D)", "buster blade (4 damage dice)"),
    Choice("shooting", "射撃", "shooting"),
    Choice("skill", "スキル", "skill"),
)
ELEMENTS = (
    Choice("physical", "物理", "physical"),
    Choice("fire", "炎", "fire"),
    Choice("ice", "氷", "ice"),
    Choice("thunder", "雷", "thunder"),
    Choice("divine", "神", "divine"),
)
SHIELDS = (
    Choice("buckler", "バックラー(ガード2D)", "buckler (2 guard dice)"),
    Choice("shield", "シールド(ガード3D)", "shield (3 guard dice)"),
    Choice("tower", "タワー(ガード4D)", "tower (4 guard dice)"),
)
BLADES = ("short-blade", "long-blade", "buster-blade")
BLADE_REACH = (0, 1)
"""Every blade reaches its own cell and the adjacent ones; the rules fix it per weapon."""
CELL = Str(
    max_length=8,
    pattern=r"centre|(?:in|out)(?:[1-9]|1[0-2])",
    pattern_msg=Msg("t.cell"),
    suggest=("centre", *(f"in{i}" for i in range(1, 13)), *(f"out{i}" for i in range(1, 13))),
)
"""A cell of the dial-clock map: ``in1``..``in12``, ``out1``..``out12`` or ``centre``."""


@cache
def _board() -> Board:
    board = get_system("getb").board()
    if board is None:  # pragma: no cover - the getb system always has its map
        raise RuntimeError("the getb system has no board")
    return board


@cache
def cells() -> tuple[str, ...]:
    """Every cell of the map (from the getb system's board)."""
    return tuple(_board().cells())


@cache
def distance(a: str, b: str) -> int:
    """Cells between ``a`` and ``b`` (from the getb system's board)."""
    return int(_board().distance(a, b))


@cache
def diameter() -> int:
    """The largest distance between two cells."""
    all_cells = cells()
    return max(distance(a, b) for a in all_cells for b in all_cells)


@cache
def check_success(ability: int, target: int) -> Fraction:
    """Chance that 1D10 + ``ability`` reaches ``target`` (10 always succeeds, 1 always fails)."""
    wins = sum(1 for d in range(1, 11) if d == 10 or (d > 1 and d + ability >= target))
    return Fraction(wins, 10)


def _odds_by_ability(target: int) -> Msg:
    """The chance of reaching a 16+ target at a few abilities, from critical-only upwards."""
    low = target - 10
    parts = [f"≤{low}: {fraction_text(check_success(low, target))}"]
    parts += [
        f"{a}: {fraction_text(check_success(a, target))}" for a in (low + 1, low + 3, low + 5)
    ]
    return Msg("hint.odds_by_ability", (", ".join(parts),))


def _check_target(dt: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    target: int = dt["target"]
    if target >= 16 and ctx.options["miracle_tier"] is True:
        msg, hint = Msg("getb.miracle", (target,)), odds_hint(Fraction(1, 10))
    elif target >= 16:
        msg, hint = Msg("getb.hard_tier", (target, target - 10)), _odds_by_ability(target)
    elif target <= 2:
        msg, hint = Msg("getb.automatic", (target,)), odds_hint(check_success(0, target))
    else:
        return
    warn_at(ctx, node, path, "target", msg, hint=hint)


def _check_cell(enemy: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    cell = enemy["placement"]  # required
    if cell not in cells():
        cpath = join_path(path, "placement")
        ctx.error(
            ctx.nodes.get(cpath, node),
            cpath,
            Msg("getb.cell", (show_value(cell),)),
            did_you_mean(cell, cells()),
        )


def _check_range(attack: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    if "range" not in attack:
        return
    low, high = IntOrRange.bounds(attack["range"])
    rpath = join_path(path, "range")
    where = ctx.nodes.get(rpath, node)
    far = diameter()
    if attack["weapon"] in BLADES and (low, high) != BLADE_REACH:
        reach = f"{BLADE_REACH[0]}-{BLADE_REACH[1]}"
        msg = Msg("getb.blade_range", (attack["weapon"], reach, attack["range"]))
        ctx.error(where, rpath, msg, Msg("hint.getb.blade_range"))
    elif low > far:
        ctx.error(where, rpath, Msg("getb.range_unreachable", (attack["range"], far)))
    elif high > far:
        ctx.warning(where, rpath, Msg("getb.range_beyond", (attack["range"], far)))


TARGET = target_obj(
    Field("check", Enum(ABILITIES), required=True, ja="使う能力値", en="the ability used"),
    Field(
        "target",
        Int(1, 99),
        required=True,
        ja="目標値(1D10+能力値がこれ以上で成功)",
        en="target (1D10 + ability must reach it)",
    ),
    checks=(_check_target,),
)

ATTACK = Obj(
    (
        Field("name", NAME, required=True, ja="攻撃の名前", en="attack name"),
        Field("weapon", Enum(WEAPONS), required=True, ja="攻撃方法の種類", en="kind of attack"),
        Field("element", Enum(ELEMENTS), required=True, ja="属性", en="element"),
        Field("power", Int(0, 999), required=True, ja="威力", en="power"),
        Field(
            "range",
            IntOrRange(0, 24),
            default="0-1",
            ja="射程(0-1 など、セル数)",
            en="range in cells (0-1...)",
        ),
        Field(
            "dice",
            Int(0, 20),
            ja="ダメージ判定のダイス数(省略時は種類から)",
            en="damage dice (default: by kind)",
        ),
        Field("effect", TEXT, ja="追加の効果", en="extra effect"),
    ),
    checks=(_check_range,),
)

ENEMY = enemy_obj(
    Field(
        "abilities",
        Obj(tuple(Field(c.value, Int(0, 30), required=True, ja=c.ja, en=c.en) for c in ABILITIES)),
        required=True,
        ja="能力値(筋力・敏捷・知力・耐久)",
        en="abilities",
    ),
    Field("hp", Int(1, 99999), required=True, ja="HP", en="hit points"),
    Field("ap", Int(0, 99), required=True, ja="最大AP", en="maximum AP"),
    Field("st", Int(0, 99), required=True, ja="最大ST", en="maximum ST"),
    Field("op", Int(0, 99), ja="最大OP", en="maximum OP"),
    Field(
        "placement",
        CELL,
        required=True,
        ja="初期配置のセル(in1〜in12, out1〜out12, centre)",
        en="starting cell",
    ),
    Field(
        "attacks",
        ListOf(ATTACK, min_items=1, max_items=20),
        required=True,
        ja="攻撃",
        en="attacks",
    ),
    Field(
        "guard",
        Obj(
            (
                Field("shield", Enum(SHIELDS), required=True, ja="盾の種類", en="shield"),
                Field("armor", Int(0, 99), required=True, ja="装甲値", en="armour value"),
            )
        ),
        ja="ガード(盾と装甲値)",
        en="guard (shield and armour)",
    ),
    Field("weak", ListOf(Enum(ELEMENTS), max_items=5), ja="弱点属性", en="weak elements"),
    checks=(_check_cell,),
)


SIDE_CHECKS: tuple[str, ...] = BATTLE_CHECKS
"""The side-mission ``check:`` keys this system's scenarios offer."""

ROOT = scenario_root("getb", TARGET, ENEMY, side_checks=SIDE_CHECKS)
"""The whole GETB scenario."""


BULLET = Obj(
    (
        Field("name", NAME, required=True, ja="バレットの名前", en="bullet name"),
        Field("element", Enum(ELEMENTS), default="physical", ja="属性", en="element"),
        Field(
            "dice",
            Int(0, 20),
            default=0,
            ja="バレットのアビリティで銃の1個に足すダメージダイス",
            en="damage dice the bullet adds to the gun's one",
        ),
        Field(
            "range",
            IntOrRange(0, 24),
            ja="射程(省略時は gun_range)",
            en="range in cells (default: gun_range)",
        ),
    )
)
"""A PC's bullet: the shooting attack's element, extra dice and range (the gun's power)."""

PC = Obj(
    (
        PC_NAME,
        Field(
            "abilities",
            Obj(
                tuple(
                    Field(c.value, Int(0, 30), required=True, ja=c.ja, en=c.en) for c in ABILITIES
                )
            ),
            required=True,
            ja="能力値(筋力・敏捷・知力・耐久)",
            en="abilities",
        ),
        Field("hp", Int(1, 99999), required=True, ja="HP", en="hit points"),
        Field("ap", Int(0, 99), required=True, ja="最大AP", en="maximum AP"),
        Field("st", Int(0, 99), required=True, ja="最大ST", en="maximum ST"),
        Field("op", Int(0, 99), default=0, ja="最大OP", en="maximum OP"),
        Field(
            "weapon",
            Enum(WEAPONS[:3]),
            default="long-blade",
            ja="近接武器の種類",
            en="melee weapon",
        ),
        Field("power", Int(0, 999), default=5, ja="近接武器の威力", en="melee weapon power"),
        Field("gun_power", Int(0, 999), ja="銃の威力(省略時は射撃しない)", en="gun power"),
        Field("gun_range", IntOrRange(0, 24), default="1-3", ja="銃の射程", en="gun range"),
        Field("shield", Enum(SHIELDS), default="buckler", ja="盾の種類", en="shield"),
        Field("armor", Int(0, 99), default=0, ja="装甲値", en="armour value"),
        Field(
            "element",
            Enum(ELEMENTS),
            default="physical",
            ja="近接武器の属性",
            en="melee weapon element",
        ),
        Field(
            "bullets",
            ListOf(BULLET, min_items=1, max_items=20),
            ja="銃のバレット(省略時は gun_power があれば物理・追加ダイスなしの1種)",
            en="the gun's bullets (default: one physical bullet when gun_power is given)",
        ),
    )
)

ROOT = with_party(ROOT, PC)


REFERENCE_PARTY: tuple[dict[str, object], ...] = (
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
)
"""The four archetypes of the reference party (``party:`` format), in the order a party
takes them: a party of *n* takes the first *n*, cycling with numbered names beyond four."""
