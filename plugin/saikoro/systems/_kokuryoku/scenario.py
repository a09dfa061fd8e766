"""国力 (nation-building) scenarios: middle-phase checks with a power gain, rival nations.

National power (国力) is the nation's gauge; 愛 is a character's.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from typing import Any

from saikoro.scenario import (
    Ctx,
    Field,
    Int,
    Msg,
    Node,
    SideFact,
    join_path,
    scenario_root,
    show_value,
    warn_at,
)

from .model import KokuryokuEnemy, KokuryokuPC, KokuryokuScenario, KokuryokuTarget

__all__ = ["ROOT"]


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


ROOT = scenario_root(
    "kokuryoku",
    KokuryokuScenario,
    checks={
        KokuryokuEnemy: (_check_enemy,),
        KokuryokuTarget: (_check_target,),
        KokuryokuPC: (_check_enemy,),
        KokuryokuScenario: (_check_final_phase,),
    },
    side_checks=SIDE_CHECKS,
    defeat=False,
)
ROOT = dataclasses.replace(ROOT, checks=(*ROOT.checks, _one_nation))
"""The whole kokuryoku scenario (its keys: :mod:`.model`)."""


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
