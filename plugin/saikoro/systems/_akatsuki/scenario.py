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
    Ctx,
    Field,
    Int,
    Msg,
    Node,
    SideFact,
    odds_hint,
    scenario_root,
    warn_at,
)

from .model import AkatsukiScenario, AkatsukiTarget

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

ROOT = scenario_root(
    "akatsuki",
    AkatsukiScenario,
    checks={AkatsukiTarget: (_check_target,)},
    side_checks=SIDE_CHECKS,
    defeat=False,
)
"""The whole akatsuki scenario (its keys: :mod:`.model`)."""


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
