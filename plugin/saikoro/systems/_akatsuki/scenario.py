"""君ヨ、暁ノ大地ニ死スベシ scenarios: 2D6 roll-under against ability level plus modifiers.

>>> two_d6_at_most(7)
Fraction(7, 12)
>>> two_d6_at_most(1)
Fraction(0, 1)
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

from saikoro.scenario import (
    PC_NAME,
    Ctx,
    Field,
    Int,
    ListOf,
    MapOf,
    Msg,
    Node,
    Obj,
    SideFact,
    Str,
    enemy_obj,
    odds_hint,
    scenario_root,
    target_obj,
    warn_at,
    with_party,
)

__all__ = ["ROOT", "two_d6_at_most"]

AVERAGE_LEVEL = 5
"""An ordinary person's ability level; supporters need at least this."""
SUPERHUMAN = 9
"""Levels from here up are superhuman: only they may try base difficulty -4 or worse."""


@cache
def two_d6_at_most(target: int) -> Fraction:
    """Chance that 2D6 is at most ``target``; a target below 2 always fails."""
    if target < 2:
        return Fraction(0)
    wins = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= target)
    return Fraction(wins, 36)


def _check_target(dt: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    level = dt.get("level", AVERAGE_LEVEL)
    target = level + dt["difficulty"] + dt["preparation"] + dt["support"]
    if dt["difficulty"] <= -4 and level < SUPERHUMAN:
        msg = Msg("akatsuki.superhuman", (dt["difficulty"], level, SUPERHUMAN))
        warn_at(ctx, node, path, "difficulty", msg)
    if target < 2:
        msg = Msg("akatsuki.always_fails", (target, level))
        warn_at(ctx, node, path, "difficulty", msg, hint=odds_hint(Fraction(0)))
    elif target >= 12:
        msg = Msg("akatsuki.always_succeeds", (target, level))
        warn_at(ctx, node, path, "difficulty", msg, hint=odds_hint(two_d6_at_most(target)))


ABILITY_NAME = Str(max_length=20)

ENEMY = enemy_obj(
    Field(
        "abilities",
        MapOf(ABILITY_NAME, Int(1, 20), max_items=20),
        required=True,
        ja="能力名→レベル(5が人並み、9以上は超人)",
        en="ability -> level (5 ordinary, 9+ superhuman)",
    ),
    Field(
        "specialties",
        ListOf(Str(max_length=40), max_items=20),
        default=list,
        ja="得意分野(スタイル)。ゾロ目の効果が働く",
        en="specialties (styles with doublets)",
    ),
    Field("cards", Int(0, 99), default=0, ja="覚醒札の枚数", en="awakening cards"),
)

TARGET = target_obj(
    Field("ability", ABILITY_NAME, required=True, ja="使う能力", en="the ability"),
    Field("style", Str(max_length=40), ja="スタイル", en="style"),
    Field(
        "difficulty",
        Int(-10, 1),
        default=0,
        ja="基本難易度(+1 簡単 / 0 普通 / -1 手強い / -2 困難 / -3 至難 / -4 常人の領域外)",
        en="base difficulty (+1 easy ... -4 beyond ordinary people)",
    ),
    Field(
        "preparation",
        Int(0, 3),
        default=0,
        ja="下準備の修正(+1〜+3)",
        en="preparation (+1..+3)",
    ),
    Field(
        "support",
        Int(0, 4),
        default=0,
        ja="補佐の修正(1人+1、専門家・超人+2、2人まで)",
        en="supporters' bonus (+1 each, +2 for experts, two at most)",
    ),
    Field(
        "level",
        Int(1, 20),
        ja="想定する能力レベル(省略時5)",
        en="assumed ability level (default 5)",
    ),
    checks=(_check_target,),
)


CARDS_LEFT_AT_LEAST = SideFact(
    Field(
        "cards_left_at_least",
        Int(0, 9999),
        ja="終了時にパーティが持つ覚醒札の合計がこの値以上",
        en="the party holds at least this many awakening cards at the end",
    ),
    fact="cards_left",
    compare=">=",
)
"""A side mission ended with 覚醒札 in hand: the simulator records the party's at the end."""

SIDE_CHECKS: tuple[str | SideFact, ...] = (
    "win",
    "targets",
    "targets_at_least",
    CARDS_LEFT_AT_LEAST,
)
"""The side-mission ``check:`` keys this system's scenarios offer."""

ROOT = scenario_root("akatsuki", TARGET, ENEMY, side_checks=SIDE_CHECKS)
"""The whole akatsuki scenario."""


PC = Obj(
    (
        PC_NAME,
        Field(
            "abilities",
            MapOf(ABILITY_NAME, Int(1, 20), max_items=20),
            required=True,
            ja="能力名→レベル",
            en="ability -> level",
        ),
        Field(
            "specialties",
            ListOf(Str(max_length=40), max_items=20),
            default=list,
            ja="得意分野(スタイル)",
            en="specialties (styles)",
        ),
        Field("cards", Int(0, 99), default=0, ja="覚醒札の枚数", en="awakening cards"),
    )
)

ROOT = with_party(ROOT, PC, defeat=False)


REFERENCE_PARTY: tuple[dict[str, object], ...] = (
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
)
"""The four archetypes of the reference party (``party:`` format), in the order a party
takes them: a party of *n* takes the first *n*, cycling with numbered names beyond four."""
