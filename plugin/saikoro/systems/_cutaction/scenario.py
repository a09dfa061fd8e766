"""Cut-action scenarios: body/head checks, a five-row battle area, chase event tables."""

from __future__ import annotations

from typing import Any

from saikoro.scenario import (
    BATTLE_CHECKS,
    Bool,
    Ctx,
    Field,
    Msg,
    Node,
    SideFact,
    Tolerant,
    join_path,
    scenario_root,
    show_value,
    warn_at,
)

from .model import AREAS, CutactionScenario, CutactionTarget

__all__ = ["AREAS", "ROOT"]

CHASE_KEYS = ("flees", "runners", "table")
"""The keys only a ``kind: chase`` target takes."""


def _check_target(dt: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    target = dt["target"]
    if target >= 10 and dt["kind"] != "chase":
        warn_at(ctx, node, path, "target", Msg("cutaction.high", (target,)))
    elif target >= 10:  # a chase's goal is ten times its target: 40 is a goal of 400
        goal = Msg("cutaction.chase_goal", (target, target * 10))
        meant = Msg("hint.cutaction.chase_goal", (target, target // 10))
        warn_at(ctx, node, path, "target", goal, hint=meant if target % 10 == 0 else None)
    if dt["kind"] != "chase":
        for key in CHASE_KEYS:
            if dt.get(key) is not None:
                kpath = join_path(path, key)
                ctx.error(ctx.nodes.get(kpath, node), kpath, Msg("cutaction.chase_only", (key,)))


def _at(ctx: Ctx, node: Node, path: str) -> Node:
    return ctx.nodes.get(path, node)


def _check_chase(root: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    """The chase can start: someone on the other side, known runners and table; the
    round limit and ``balance.defeat`` mean something for it."""
    targets = root.get("difficulty_targets", [])
    chases = [(i, t) for i, t in enumerate(targets) if t.get("kind") == "chase"]
    if not chases:
        return
    enemies = root.get("enemies", [])
    ids = [str(e.get("id")) for e in enemies]
    known = ", ".join(ids) or "-"
    tables = [str(t.get("name")) for t in root.get("chase_tables", [])]
    i, chase = chases[0]
    tpath = join_path(join_path(path, "difficulty_targets"), i)
    runners = chase.get("runners")
    if runners is None:
        runners = [e["id"] for e in enemies if e.get("vehicle")] or ids
    for j, rid in enumerate(chase.get("runners") or []):
        if rid not in ids:
            rpath = join_path(join_path(tpath, "runners"), j)
            ctx.error(
                _at(ctx, node, rpath),
                rpath,
                Msg("cutaction.unknown_runner", (show_value(rid),)),
                Msg("hint.known", (known,)),
            )
    if not runners:
        ctx.error(_at(ctx, node, tpath), tpath, Msg("cutaction.no_runner", (chase.get("name"),)))
    table = chase.get("table")
    if table is not None and table not in tables:
        kpath = join_path(tpath, "table")
        ctx.error(
            _at(ctx, node, kpath),
            kpath,
            Msg("cutaction.unknown_table", (show_value(table),)),
            Msg("hint.known", (", ".join(tables) or "-",)),
        )
    if table is None and len(tables) > 1:
        ctx.error(
            _at(ctx, node, tpath),
            tpath,
            Msg("cutaction.which_table", (chase.get("name"),)),
            Msg("hint.known", (", ".join(tables),)),
        )
    fighters = [e for e in ids if e not in runners]
    main = (root.get("missions") or {}).get("main") or {}
    if main.get("rounds") is not None and not fighters:
        rpath = "scenario.missions.main.rounds"
        ctx.warning(_at(ctx, node, rpath), rpath, Msg("cutaction.chase_rounds", (len(runners),)))
    balance = root.get("balance") or {}
    for j, eid in enumerate(balance.get("defeat") or []):
        if eid in runners and eid in ids:
            dpath = join_path(join_path("scenario.balance", "defeat"), j)
            ctx.error(
                _at(ctx, node, dpath),
                dpath,
                Msg("cutaction.defeat_runner", (show_value(eid), chase.get("name"))),
            )


ESCAPED = SideFact(
    Field(
        "escaped",
        Bool(),
        ja="チェイスで逃げ切る(true)/逃げ切れない(false)",
        en="the PCs get away in the chase (true) or do not (false)",
    ),
    fact="escaped",
    compare="==",
    missing="チェイスがない",
)
"""A side mission about the chase: the simulator records whether the PCs got away."""

SIDE_CHECKS: tuple[str | SideFact, ...] = (*BATTLE_CHECKS, ESCAPED)
"""The side-mission ``check:`` keys this system's scenarios offer."""


def _check_escaped(root: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    """A side mission's ``escaped`` needs a chase among the difficulty targets (tolerant:
    skipped while a target has errors, its kind then not known)."""
    targets = root.get("difficulty_targets", [])
    if not isinstance(targets, list) or not all(isinstance(t, dict) for t in targets):
        return
    if any(t.get("kind") == "chase" for t in targets):
        return
    missions = root.get("missions") or {}
    side = missions.get("side", []) if isinstance(missions, dict) else []
    for i, mission in enumerate(side if isinstance(side, list) else []):
        check = mission.get("check") if isinstance(mission, dict) else None
        if isinstance(check, dict) and "escaped" in check:
            kpath = join_path(
                join_path(join_path(join_path(join_path(path, "missions"), "side"), i), "check"),
                "escaped",
            )
            ctx.error(ctx.nodes.get(kpath, node), kpath, Msg("side.no_chase"))


ROOT = scenario_root(
    "cutaction",
    CutactionScenario,
    checks={
        CutactionTarget: (_check_target,),
        CutactionScenario: (_check_chase, Tolerant(_check_escaped)),
    },
    side_checks=SIDE_CHECKS,
)
"""The whole cut-action scenario (its keys: :mod:`.model`)."""


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
