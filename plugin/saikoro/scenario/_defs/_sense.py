"""Settings that are valid one by one but mean nothing together (issue 22).

Each is refused with the reason and the fix, at the value that makes no sense:

* ``balance.defeat: []`` -- no enemy to defeat: one simulator counted every battle a
  win, another read it as "everyone". Omitting ``defeat`` means every enemy.
* the same enemy twice in ``balance.defeat``, the same name twice in ``party`` (side
  missions and reports name PCs by name), two chase tables of one name (a ``scenario``
  fence names a table by its name);
* a side mission's ``check`` whose conditions cannot hold together: the main mission is
  won exactly when the enemies of ``balance.defeat`` (every enemy by default) are
  defeated, so ``{win: false, all_defeated: true}`` never happens (unless a chase must
  also be won).

>>> from saikoro.scenario import validate_text
>>> text = "system: getb\\ntitle: t\\nbalance:\\n  defeat: []\\n"
>>> print(validate_text(text, "s.yaml").problems[0].format())  # doctest: +ELLIPSIS
s.yaml:4:11: error: scenario.balance.defeat: an empty defeat list names no enemy ...
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from saikoro.scenario._common import unique_names
from saikoro.scenario._loader import Node, join_path
from saikoro.scenario._problems import Msg
from saikoro.scenario._schema import Ctx

__all__ = ["check_settings"]


def check_settings(system_id: str) -> Callable[[dict[str, Any], Node, str, Ctx], None]:
    """The root check of the settings that mean nothing together (see the module)."""
    del system_id  # the same rules in every system; kept for the definitions' signature

    def check(root: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
        tables = root.get("chase_tables")
        if isinstance(tables, list):
            unique_names("dup.table")(tables, node, join_path(path, "chase_tables"), ctx)
        _side_contradictions(root, node, path, ctx)

    return check


def _side_contradictions(root: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    """Side missions whose ``win`` contradicts what they say of the enemies."""
    enemies = root.get("enemies") or []
    balance = root.get("balance") or {}
    if not enemies or not isinstance(balance, dict):
        return
    targets = root.get("difficulty_targets") or []
    if any(isinstance(t, dict) and t.get("kind") == "chase" for t in targets):
        return  # the main mission also needs the chase: all defeated may still lose
    ids = [e.get("id") for e in enemies if isinstance(e, dict)]
    defeat = balance.get("defeat") or ids
    everyone = set(defeat) >= set(ids)
    missions = root.get("missions") or {}
    for i, side in enumerate(missions.get("side") or []):
        cond = side.get("check") if isinstance(side, dict) else None
        if not isinstance(cond, dict) or not isinstance(cond.get("win"), bool):
            continue
        win = cond["win"]
        base = join_path(join_path(join_path(join_path(path, "missions"), "side"), i), "check")
        clash = _clash(win, cond, set(defeat), everyone=everyone)
        if clash is None:
            continue
        key, words = clash
        kpath = join_path(base, "win")
        shown = ", ".join(str(d) for d in defeat)
        msg = Msg("side.win_contradiction", ("true" if win else "false", words, shown))
        ctx.error(ctx.nodes.get(kpath, node), kpath, msg, Msg("hint.win_contradiction", (key,)))


def _clash(
    win: bool, cond: dict[str, Any], defeat: set[Any], *, everyone: bool
) -> tuple[str, str] | None:
    """(the key, what it says) of ``cond`` that ``win`` contradicts, or ``None``."""
    defeated = set(cond.get("defeated") or ()) | set(cond.get("defeated_first") or ())
    spared = set(cond.get("spared") or ())
    if not win and cond.get("all_defeated") is True:
        return "all_defeated", "all_defeated: true"
    if not win and defeat <= defeated:
        return "defeated", "defeated: " + ", ".join(sorted(str(d) for d in defeated))
    if win and everyone and cond.get("all_defeated") is False:
        return "all_defeated", "all_defeated: false"
    if win and spared & defeat:
        return "spared", "spared: " + ", ".join(sorted(str(d) for d in spared & defeat))
    return None
