"""The root of every system's scenario definition, made from its model; warnings.

>>> from saikoro.systems._kegare.model import KegareScenario
>>> root = scenario_root("kegare", KegareScenario)
>>> [f.name for f in root.fields][:4], root.field("enemies").type.max_items
(['system', 'id', 'title', 'author'], 50)
>>> odds_hint(Fraction(1, 2)).code
'hint.odds'
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from fractions import Fraction

from saikoro.scenario._common import check_table, fraction_text
from saikoro.scenario._containers import Field, ListOf, MapOf, Obj
from saikoro.scenario._defs._party import balance_obj, check_defeat
from saikoro.scenario._defs._sense import check_settings
from saikoro.scenario._defs._side import SideFact, check_side_refs, side_check
from saikoro.scenario._loader import Node, join_path
from saikoro.scenario._problems import Msg
from saikoro.scenario._rulings import check_rulings
from saikoro.scenario._schema import Check, Ctx, Enum, Tolerant, Type
from saikoro.scenario._story import Branch as BranchObj
from saikoro.scenario._story import check_flow, check_image, check_story
from saikoro.scenario.model._common import Balance, Branch, Image, ScenarioModel, Scene, SideCheck
from saikoro.scenario.model._keys import fields_of, obj_of

__all__ = ["odds_hint", "scenario_root", "warn_at"]


def _item(hint: object) -> type:
    """The model class of a list's items (``tuple[X, ...] | None`` -> ``X``)."""
    for arg in typing.get_args(hint):
        if typing.get_origin(arg) is tuple:
            return _item(arg)
        if isinstance(arg, type) and dataclasses.is_dataclass(arg):
            return arg
    raise TypeError(f"no model class in {hint!r}")


def _chases(target: Obj) -> bool:
    """Whether a difficulty target can be a chase (``kind: chase``)."""
    return any(
        f.name == "kind" and isinstance(f.type, Enum) and "chase" in f.type.values
        for f in target.fields
    )


def _with_checks(field: Field, checks: tuple[Check, ...]) -> Field:
    if not isinstance(field.type, ListOf | MapOf):
        raise TypeError(f"{field.name} is not a list or a mapping")
    return dataclasses.replace(field, type=dataclasses.replace(field.type, checks=checks))


def scenario_root(
    system_id: str,
    model: type[ScenarioModel],
    *,
    checks: Mapping[type, tuple[Check, ...]] | None = None,
    side_checks: tuple[str | SideFact, ...] = ("win",),
    defeat: bool = True,
) -> Obj:
    """The whole scenario of ``system_id``: the keys of ``model`` (the system's
    :class:`~saikoro.scenario.model.ScenarioModel`, with its targets, enemies and PCs).

    ``checks`` are the system's checks by model class (its target's, its enemy's... and
    ``model``'s own, on the whole scenario); side missions' ``check`` offers
    ``side_checks``; ``defeat`` offers ``balance.defeat`` (systems whose main mission is
    beating enemies). Scenes name chases where the targets can be chases (``kind: chase``).

    Raises:
        TypeError: ``checks`` names a class ``model`` does not hold (a mistake in the
            system, at import), or a key is declared wrongly (see the model's ``key``).
    """
    own = dict(checks or {})
    hints = typing.get_type_hints(model)
    target = obj_of(_item(hints["difficulty_targets"]), checks=own)
    every: dict[type, tuple[Check, ...]] = {
        Image: (check_image,),
        _item(hints["chase_tables"]): (Tolerant(check_table),),
        **own,
    }
    branch: dict[type, Type] = {Branch: BranchObj(fields_of(Branch))}
    using = {
        Scene: obj_of(Scene, using=branch, without=() if _chases(target) else ("chases",)),
        SideCheck: side_check(system_id, side_checks),
        Balance: balance_obj(defeat=defeat),
    }
    reached: set[type] = set()
    fields = tuple(
        _with_checks(f, (check_rulings(system_id),)) if f.name == "rulings" else f
        for f in fields_of(model, checks=every, using=using, reached=reached)
    )
    stray = [c.__name__ for c in own if c not in reached]
    if stray:
        raise TypeError(f"{system_id}: checks for {stray}, which are not in {model.__name__}")
    return Obj(
        fields,
        checks=(
            *own.get(model, ()),
            check_settings(system_id),
            check_side_refs(system_id),
            check_story,
            check_flow,
            Tolerant(check_defeat),
        ),
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
