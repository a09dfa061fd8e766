"""The ``party`` and ``balance`` keys every system's scenarios accept (issue 13).

``party`` lists the PCs a scenario is written for, with the system's stat block (the
way ``enemies`` list the enemies); ``balance`` states the win rate the author aims for,
which ``saikoro validate`` checks by simulation (see :mod:`saikoro.balance`).

>>> [f.name for f in BALANCE.fields]
['win', 'battles', 'defeat', 'tactics', 'enemy_tactics']
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from saikoro.scenario._common import ID, NAME
from saikoro.scenario._containers import Field, ListOf, Obj
from saikoro.scenario._defs._sense import check_defeat_list, unique_names
from saikoro.scenario._loader import Node, join_path
from saikoro.scenario._problems import Msg, show_value
from saikoro.scenario._schema import Ctx, Int, Str, Tolerant, WinRange
from saikoro.scenario._tactics import TacticsError, parse_policy

__all__ = ["BALANCE", "PC_NAME", "with_party"]

PC_NAME = Field("name", NAME, required=True, ja="PCの名前", en="PC name")
"""Every PC's first field."""


def _check_balance(balance: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    for key in ("tactics", "enemy_tactics"):
        if key in balance:
            try:
                parse_policy(balance[key])
            except TacticsError as e:
                kpath = join_path(path, key)
                ctx.error(ctx.nodes.get(kpath, node), kpath, Msg("balance.tactic", (str(e),)))


def _check_defeat(root: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    balance = root.get("balance")
    if not balance:
        return
    enemies = root.get("enemies", [])
    if not isinstance(balance, dict) or not all(isinstance(e, dict) and "id" in e for e in enemies):
        return  # an enemy whose id is invalid: the ids are not known (tolerant check)
    ids = {e["id"] for e in enemies}
    for i, enemy_id in enumerate(balance.get("defeat", [])):
        if isinstance(enemy_id, str) and enemy_id not in ids:
            dpath = join_path(join_path(join_path(path, "balance"), "defeat"), i)
            known = ", ".join(sorted(str(x) for x in ids)) or "-"
            ctx.error(
                ctx.nodes.get(dpath, node),
                dpath,
                Msg("balance.unknown_enemy", (show_value(enemy_id),)),
                Msg("hint.known", (known,)),
            )


def _balance(defeat: bool) -> Obj:
    fields = (
        Field(
            "win",
            WinRange(),
            ja="狙う勝率の範囲(60%-90% など)。saikoro validate がシミュレーションで確かめる",
            en="target win rate (60%-90%...), checked by simulation in saikoro validate",
        ),
        Field(
            "battles",
            Int(10, 100000),
            default=400,
            ja="validate で確かめるときの戦闘回数",
            en="battles simulated by validate",
        ),
        *(
            (
                Field(
                    "defeat",
                    ListOf(ID, max_items=50, checks=(check_defeat_list,)),
                    ja="倒せばメインミッション達成となるエネミーのID(省略時は全員)",
                    en="enemy ids whose defeat is the main mission (default: all)",
                ),
            )
            if defeat
            else ()
        ),
        Field(
            "tactics",
            Str(max_length=80),
            ja="PCの行動方針(focus, hunt, random...)",
            en="PCs' tactics (focus, hunt, random...)",
        ),
        Field(
            "enemy_tactics",
            Str(max_length=80),
            ja="エネミーの行動方針",
            en="enemies' tactics",
        ),
    )
    return Obj(fields, checks=(Tolerant(_check_balance),))


BALANCE = _balance(True)
"""``balance:`` of the systems whose battles have enemies to defeat."""


def with_party(root: Obj, pc: Obj, *, defeat: bool = True) -> Obj:
    """``root`` with the ``party`` (a list of ``pc``) and ``balance`` keys added.

    ``defeat`` offers ``balance.defeat`` (systems whose main mission is beating enemies).
    """
    extra = (
        Field(
            "party",
            ListOf(pc, min_items=1, max_items=20, checks=(unique_names("dup.pc"),)),
            ja="想定するPCたち(省略時は人数に合わせた標準パーティ)",
            en="the PCs the scenario is written for (default: a reference party)",
        ),
        Field(
            "balance",
            BALANCE if defeat else _balance(False),
            ja="バランスの目標",
            en="balance targets",
        ),
    )
    return replace(root, fields=root.fields + extra, checks=(*root.checks, Tolerant(_check_defeat)))
