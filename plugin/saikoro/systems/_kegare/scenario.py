"""穢れ (kegare) scenarios: 2D6 checks, enemies with attack, defence, HP, initiative and position.

>>> two_d6_at_least(7)
Fraction(7, 12)
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

from saikoro.scenario import (
    BATTLE_CHECKS,
    Ctx,
    Field,
    Int,
    Msg,
    Node,
    SideFact,
    join_path,
    odds_hint,
    scenario_root,
    show_value,
    warn_at,
)

from .effects import describe, read_effect, unread_state
from .model import KegareScenario, KegareSkill, KegareTarget

__all__ = ["ROOT", "two_d6_at_least"]


@cache
def two_d6_at_least(need: int) -> Fraction:
    """Chance that 2D6 is at least ``need``."""
    wins = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= need)
    return Fraction(wins, 36)


def _check_target(dt: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    need = dt["target"] - dt["bonus"]
    if need > 12:
        warn_at(ctx, node, path, "target", Msg("twod6.impossible", (dt["target"], need)))
    elif need <= 2:
        msg = Msg("twod6.automatic", (dt["target"], need))
        warn_at(ctx, node, path, "target", msg, hint=odds_hint(two_d6_at_least(need)))


def _check_effect(skill: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    """What the simulator reads from the skill's ``effect`` (a note at its line), and a
    warning where the text names a state the rules do not have."""
    effect = skill.get("effect")
    where = node.get("effect")
    if not isinstance(effect, str) or where is None:
        return
    epath = join_path(path, "effect")
    shown = show_value(effect)
    if skill.get("kind") == "support":
        ctx.note(where, epath, Msg("kegare.effect_support", (shown,)))
        return
    read = describe(read_effect(str(skill.get("kind")), effect))
    if read:
        ctx.note(where, epath, Msg("kegare.effect_read", (shown, read)))
        return
    state = unread_state(effect) if skill.get("kind") == "attack" else None
    if state is not None:
        msg = Msg("kegare.effect_state", (shown, state))
        ctx.warning(where, epath, msg, Msg("hint.kegare_statuses"))
    else:
        ctx.note(where, epath, Msg("kegare.effect_unread", (shown,)))


KEGARE_AT_MOST = SideFact(
    Field(
        "kegare_at_most",
        Int(0, 10),
        ja="終了時、どのPCの穢れもこの値以下",
        en="at the end, every PC's kegare is at most this",
    ),
    fact="corruption",
    compare="<=",
)
"""A side mission kept clean of 穢れ: the simulator records the highest PC's at the end."""

SIDE_CHECKS: tuple[str | SideFact, ...] = (*BATTLE_CHECKS, KEGARE_AT_MOST)
"""The side-mission ``check:`` keys this system's scenarios offer."""

ROOT = scenario_root(
    "kegare",
    KegareScenario,
    checks={KegareSkill: (_check_effect,), KegareTarget: (_check_target,)},
    side_checks=SIDE_CHECKS,
)
"""The whole kegare scenario (its keys: :mod:`.model`)."""


REFERENCE_PARTY: tuple[dict[str, object], ...] = (
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
)
"""The four archetypes of the reference party (``party:`` format), in the order a party
takes them: a party of *n* takes the first *n*, cycling with numbered names beyond four."""


def enemy_actions(enemy: dict[str, Any]) -> list[str]:
    """The actions a side mission's ``no_damage_from`` may name: its attack skills (an
    enemy without one passes its turns: ruling ``skillless_enemy``)."""
    return [str(s["name"]) for s in enemy.get("skills", []) if s.get("kind") == "attack"]
