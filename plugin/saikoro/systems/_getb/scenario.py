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
    Ctx,
    IntOrRange,
    Msg,
    Node,
    did_you_mean,
    fraction_text,
    join_path,
    odds_hint,
    scenario_root,
    show_value,
    warn_at,
)
from saikoro.systems import Board
from saikoro.systems import get as get_system

from .model import GetbAttack, GetbEnemy, GetbScenario, GetbTarget

__all__ = ["ROOT", "cells", "check_success", "diameter", "distance"]

BLADES = ("short-blade", "long-blade", "buster-blade")
BLADE_REACH = (0, 1)
"""Every blade reaches its own cell and the adjacent ones; the rules fix it per weapon."""


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


SIDE_CHECKS: tuple[str, ...] = BATTLE_CHECKS
"""The side-mission ``check:`` keys this system's scenarios offer."""

ROOT = scenario_root(
    "getb",
    GetbScenario,
    checks={
        GetbTarget: (_check_target,),
        GetbAttack: (_check_range,),
        GetbEnemy: (_check_cell,),
    },
    side_checks=SIDE_CHECKS,
)
"""The whole GETB scenario (its keys: :mod:`.model`)."""


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
