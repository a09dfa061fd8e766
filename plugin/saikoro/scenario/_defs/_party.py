"""The ``party`` and ``balance`` keys every system's scenarios accept (issue 13).

``party`` lists the PCs a scenario is written for, with the system's stat block (the
way ``enemies`` list the enemies); ``balance`` states the win rate the author aims for,
which ``saikoro validate`` checks by simulation (see :mod:`saikoro.balance`). Their keys
are the model's (:class:`~saikoro.scenario.model.ScenarioModel`,
:class:`~saikoro.scenario.model.Balance`); here are the checks across them.

>>> [f.name for f in BALANCE.fields]
['win', 'battles', 'defeat', 'tactics', 'enemy_tactics']
"""

from __future__ import annotations

from typing import Any

from saikoro.scenario._containers import Obj
from saikoro.scenario._loader import Node, join_path
from saikoro.scenario._problems import Msg, show_value
from saikoro.scenario._schema import Ctx, Tolerant
from saikoro.scenario._tactics import TacticsError, parse_policy
from saikoro.scenario.model._common import Balance
from saikoro.scenario.model._keys import obj_of

__all__ = ["BALANCE", "balance_obj", "check_defeat"]


def _check_balance(balance: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    for key in ("tactics", "enemy_tactics"):
        if key in balance:
            try:
                parse_policy(balance[key])
            except TacticsError as e:
                kpath = join_path(path, key)
                ctx.error(ctx.nodes.get(kpath, node), kpath, Msg("balance.tactic", (str(e),)))


def check_defeat(root: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
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


def balance_obj(*, defeat: bool) -> Obj:
    """``balance:``; ``defeat`` offers ``balance.defeat`` (systems whose main mission is
    beating enemies)."""
    return obj_of(
        Balance,
        checks={Balance: (Tolerant(_check_balance),)},
        without=() if defeat else ("defeat",),
    )


BALANCE = balance_obj(defeat=True)
"""``balance:`` of the systems whose battles have enemies to defeat."""
