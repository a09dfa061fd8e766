"""Pieces every system's scenario definition uses: common fields, the root, warnings.

>>> [f.name for f in target_obj().fields], [f.name for f in enemy_obj().fields]
(['name', 'note'], ['id', 'name', 'notes'])
>>> odds_hint(Fraction(1, 2)).code
'hint.odds'
"""

from __future__ import annotations

from fractions import Fraction

from saikoro.scenario._common import (
    ID,
    NAME,
    TEXT,
    SideChecks,
    fraction_text,
    root_fields,
    unique_ids,
)
from saikoro.scenario._containers import Field, ListOf, Obj
from saikoro.scenario._defs._sense import check_settings
from saikoro.scenario._loader import Node, join_path
from saikoro.scenario._problems import Msg
from saikoro.scenario._schema import Check, Ctx, Type

__all__ = ["enemy_obj", "odds_hint", "scenario_root", "target_obj", "warn_at"]

_CHECK_NAME = Field("name", NAME, required=True, ja="判定の場面", en="what the check is for")
_NOTE = Field("note", TEXT, ja="補足", en="note")
_ENEMY_NAME = Field("name", NAME, required=True, ja="名前", en="name")


def target_obj(*fields: Field, checks: tuple[Check, ...] = (), name: Field = _CHECK_NAME) -> Obj:
    """A difficulty target: ``name``, the system's ``fields``, then ``note``."""
    return Obj((name, *fields, _NOTE), checks=checks)


def enemy_obj(*fields: Field, checks: tuple[Check, ...] = (), short: bool = False) -> Obj:
    """An enemy: ``id`` and ``name``, the system's ``fields``, then ``notes``.

    ``short`` labels the id and the notes tersely (``ID``, ``メモ``).
    """
    return Obj(
        (
            Field(
                "id",
                ID,
                required=True,
                ja="ID" if short else "エネミーのID",
                en="id" if short else "enemy id",
            ),
            _ENEMY_NAME,
            *fields,
            Field("notes", TEXT, ja="メモ" if short else "行動方針などのメモ", en="notes"),
        ),
        checks=checks,
    )


def scenario_root(
    system_id: str,
    target: Type,
    enemy: Type,
    chase: Field | None = None,
    checks: tuple[Check, ...] = (),
    *,
    side_checks: SideChecks = ("win",),
) -> Obj:
    """The whole scenario: up to 100 targets, 50 enemies with unique ids, chase tables;
    side missions whose ``check`` offers ``side_checks``."""
    return root_fields(
        system_id,
        ListOf(target, max_items=100),
        ListOf(enemy, max_items=50, checks=(unique_ids(),)),
        chase,
        (*checks, check_settings(system_id)),
        side_checks=side_checks,
    )


def odds_hint(p: Fraction) -> Msg:
    """The hint giving a check's chance of success."""
    return Msg("hint.odds", (fraction_text(p),))


def warn_at(
    ctx: Ctx, node: Node, path: str, key: str, msg: Msg, *, hint: Msg | None = None
) -> None:
    """Warn about the ``key`` entry under ``path`` (at its own node when it has one)."""
    kpath = join_path(path, key)
    ctx.warning(ctx.nodes.get(kpath, node), kpath, msg, hint)
