"""``missions.side[].check``: a side mission's condition, stated so it can be simulated.

A side mission's ``success:`` is free text for the reader; ``check:`` says the same
thing in a small vocabulary that :mod:`saikoro.balance` counts battle by battle. Every
key given must hold (they are joined by "and"). :data:`FIELDS` holds the keys any battle
can offer, and a key means the same in every system that offers it. Each system's
scenario definition names the keys it offers (``SIDE_CHECKS``, passed to
:func:`side_check`): keys of :data:`FIELDS`, and the system's own :class:`SideFact`
declarations (穢れ's ``kegare_at_most``, 国力ゲーム's ``power_at_least``...), each
comparing a fact its simulator records battle by battle.

>>> [f.name for f in side_check("x", ("win", "rounds_at_most")).fields]
['win', 'rounds_at_most']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, Literal

from saikoro.scenario._containers import Field, Obj
from saikoro.scenario._loader import Node, join_path
from saikoro.scenario._problems import Msg, show_value
from saikoro.scenario._schema import INVALID, Ctx, Tolerant, did_you_mean
from saikoro.scenario.model._common import SideCheck
from saikoro.scenario.model._keys import fields_of
from saikoro.systems import registry

__all__ = [
    "BATTLE_CHECKS",
    "FIELDS",
    "SideFact",
    "check_side_refs",
    "known_keys",
    "offered_by",
    "side_check",
    "side_keys",
]

FIELDS: dict[str, Field] = {f.name: f for f in fields_of(SideCheck)}
"""The keys any battle may offer (the model's :class:`~saikoro.scenario.model.SideCheck`);
a system's own facts are its :class:`SideFact` declarations."""


@dataclass(frozen=True)
class SideFact:
    """A side-mission ``check:`` key a system adds: it compares one per-battle fact the
    system's simulator records (a battle's ``facts``) with the value written.

    Attributes:
        field: the key, its type (an integer or a boolean) and its words.
        fact: the simulator's fact (``corruption``).
        compare: how the fact must compare with the value: ``<=`` (at most), ``>=`` (at
            least) or ``==`` (a boolean: ``true`` holds when the fact is non-zero).
        missing: why the key cannot be counted when the simulator does not record the fact
            for an encounter (「チェイスがない」), in Japanese.
    """

    field: Field
    fact: str
    compare: Literal["<=", ">=", "=="]
    missing: str = ""

    @property
    def name(self) -> str:
        """The key (``kegare_at_most``)."""
        return self.field.name


def side_keys(checks: Iterable[str | SideFact]) -> tuple[str, ...]:
    """The keys of a system's ``SIDE_CHECKS``."""
    return tuple(c if isinstance(c, str) else c.name for c in checks)


def known_keys() -> set[str]:
    """Every key some registered system offers (a key another system offers is named as
    such in a message, not taken for a typo)."""
    from saikoro.scenario._defs import SIDE_CHECKS

    return set(FIELDS).union(*SIDE_CHECKS.values())


BATTLE_CHECKS: tuple[str, ...] = (
    "win",
    "rounds_at_most",
    "downed_at_most",
    "standing",
    "all_defeated",
    "defeated",
    "spared",
    "defeated_first",
    "taken_at_most",
    "no_damage_from",
)
"""The keys a battle of PCs against enemies offers (a system adds its own facts)."""


def offered_by(key: str) -> list[str]:
    """The ids of the registered systems whose side missions offer ``key``."""
    from saikoro.scenario._defs import SIDE_CHECKS

    return [s for s in registry() if key in SIDE_CHECKS[s]]


@dataclass(frozen=True)
class _Check(Obj):
    """The ``check`` mapping: a key another system offers is named as such (not a typo)."""

    system: str = ""

    def check(self, node: Node, path: str, ctx: Ctx) -> Any:
        if node.kind != "map":
            return super().check(node, path, ctx)
        own = {f.name for f in self.fields}
        kept: dict[object, tuple[Node, Node]] = {}
        foreign = False
        for key, pair in node.value.items():
            if key not in own and key in known_keys():
                foreign = True
                offered = offered_by(str(key))
                ctx.error(
                    pair[0],
                    join_path(path, str(key)),
                    Msg("side.other_system", (show_value(key), self.system, ", ".join(offered))),
                    Msg("hint.known", (", ".join(f.name for f in self.fields),)),
                )
            else:
                kept[key] = pair
        if not foreign:
            return super().check(node, path, ctx)
        Obj.check(replace(self, checks=()), replace(node, value=kept), path, ctx)  # the rest
        return INVALID


def side_check(system_id: str, checks: tuple[str | SideFact, ...] = ("win",)) -> Obj:
    """The ``check`` mapping of ``system_id``'s side missions, offering ``checks`` (keys of
    :data:`FIELDS` and the system's own :class:`SideFact` declarations)."""
    keys = side_keys(checks)

    def not_empty(value: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
        if not value:
            ctx.error(node, path, Msg("side.empty"), Msg("hint.known", (", ".join(keys),)))

    fields = tuple(c.field if isinstance(c, SideFact) else FIELDS[c] for c in checks)
    return _Check(fields, checks=(not_empty,), system=system_id)


def _where(ctx: Ctx, node: Node, path: str) -> Node:
    return ctx.nodes.get(path, node)


def _refs(
    ctx: Ctx,
    node: Node,
    path: str,
    values: list[str],
    *,
    known: list[str],
    code: str,
) -> None:
    """Each of ``values`` (the list at ``path``) must be one of ``known``."""
    for i, value in enumerate(values):
        if not isinstance(value, str) or value in known:  # INVALID: reported already
            continue
        ipath = join_path(path, i)
        hint = did_you_mean(value, known) or Msg("hint.known", (", ".join(known) or "-",))
        ctx.error(_where(ctx, node, ipath), ipath, Msg(code, (show_value(value),)), hint)


def _names(items: object, key: str) -> list[str] | None:
    """The ``key`` of every item, or ``None`` when one is not known (a partial value)."""
    if not isinstance(items, list):
        return None
    if not all(isinstance(i, dict) and isinstance(i.get(key), str) for i in items):
        return None
    return [i[key] for i in items]


def _texts(values: object) -> list[str]:
    """The valid texts of a list (a partial list holds INVALID items too)."""
    return [v for v in values if isinstance(v, str)] if isinstance(values, list) else []


def _actions(system_id: str, enemies: list[dict[str, Any]]) -> list[str]:
    """Every enemy action a ``no_damage_from`` may name (``name`` and ``id:name``)."""
    from saikoro.scenario._defs import enemy_actions

    out: list[str] = []
    for e in enemies:
        for n in enemy_actions(system_id, e):
            out.extend(x for x in (n, f"{e['id']}:{n}") if x not in out)
    return out


def _pc_names(system_id: str, root: dict[str, Any]) -> tuple[list[str] | None, Msg]:
    """The names of the PCs the scenario is simulated with, and that party's label."""
    party = root.get("party")
    if party:
        return _names(party, "name"), Msg("party.scenario", (len(party),))
    from saikoro.scenario._defs import reference_party
    from saikoro.scenario._ranges import party_size

    size = party_size(root.get("players"))
    names = [str(p["name"]) for p in reference_party(system_id, size)]
    return names, Msg("party.reference", (size,))


def _check_one(
    system_id: str,
    root: dict[str, Any],
    cond: dict[str, Any],
    *,
    node: Node,
    base: str,
    ctx: Ctx,
    complete: bool,
) -> None:
    """The cross-references of one side mission's ``check`` (at ``base``); with
    ``complete`` false, the enemies are a partial value (some with errors)."""
    enemies = root.get("enemies", [])
    ids = _names(enemies, "id")
    targets = root.get("difficulty_targets", [])
    names = _names(targets, "name")
    lists: list[tuple[str, list[str] | None, str]] = [
        ("defeated", ids, "side.enemy"),
        ("spared", ids, "side.enemy"),
        ("defeated_first", ids, "side.enemy"),
        ("targets", names, "side.target"),
    ]
    if "no_damage_from" in cond:  # what an enemy with errors can do is not known
        actions = _actions(system_id, enemies) if complete and ids is not None else None
        lists.append(("no_damage_from", actions, "side.action"))
    for key, known, code in lists:
        values = cond.get(key, [])
        if known is not None and isinstance(values, list):  # None: not known (partial)
            _refs(ctx, node, join_path(base, key), values, known=known, code=code)
    pcs, label = _pc_names(system_id, root) if "standing" in cond else (None, Msg(""))
    if pcs is not None and isinstance(cond["standing"], list):
        for j, name in enumerate(cond["standing"]):
            if isinstance(name, str) and name not in pcs:
                jpath = join_path(join_path(base, "standing"), j)
                hint = did_you_mean(name, pcs) or Msg("hint.known", (", ".join(pcs),))
                msg = Msg("side.pc", (show_value(name), label))
                ctx.error(_where(ctx, node, jpath), jpath, msg, hint)
    spared, defeated, first = (
        _texts(cond.get(k)) for k in ("spared", "defeated", "defeated_first")
    )
    both = set(spared) & (set(defeated) | set(first))
    if both or (spared and cond.get("all_defeated")):
        kpath = join_path(base, "spared")
        shown = ", ".join(sorted(both)) or ", ".join(spared)
        ctx.error(_where(ctx, node, kpath), kpath, Msg("side.contradiction", (shown,)))
    if names is None:  # a target with errors: its kind is not known
        return
    if cond.get("targets_at_least", 0) > len(targets):
        kpath = join_path(base, "targets_at_least")
        msg = Msg("side.too_many_targets", (cond["targets_at_least"], len(targets)))
        ctx.error(_where(ctx, node, kpath), kpath, msg)


def check_side_refs(system_id: str) -> Tolerant:
    """The root check: what each side mission's ``check`` names exists in the scenario
    (tolerant: also when other parts of the file have errors)."""

    def check(root: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
        missions = root.get("missions") or {}
        if not isinstance(missions, dict) or not isinstance(missions.get("side", []), list):
            return
        complete = join_path(path, "enemies") not in ctx.partial
        for i, side in enumerate(missions.get("side", [])):
            if isinstance(side, dict) and isinstance(side.get("check"), dict):
                base = join_path(join_path(join_path(path, "missions"), "side"), i)
                _check_one(
                    system_id,
                    root,
                    side["check"],
                    node=node,
                    base=join_path(base, "check"),
                    ctx=ctx,
                    complete=complete,
                )

    return Tolerant(check)
