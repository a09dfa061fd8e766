"""From the typed scenario model to the simulators' shapes (:mod:`.shapes`).

:mod:`.model` builds the :class:`~.model.Encounter`; the functions here turn one PC, enemy
or difficulty target of the model into the frozen shape its simulator reads.
"""

from __future__ import annotations

from typing import Any

from saikoro.scenario import model as sm
from saikoro.systems._kegare.status import Status

from ._errors import BalanceError
from ._shapes import (
    AkatsukiPC,
    AkatsukiTarget,
    CutAttack,
    CutEnemy,
    CutPC,
    GetbAttack,
    GetbEnemy,
    GetbPC,
    KegareEnemy,
    KegarePC,
    KegareSkill,
    KokuryokuMember,
    KokuryokuTarget,
)

__all__ = ["enemy", "member", "target"]


def _range(value: int | str) -> tuple[int, int]:
    if isinstance(value, int):
        return value, value
    low, _, high = str(value).partition("-")
    return int(low), int(high or low)


def _abilities(value: sm.GetbAbilities | sm.KokuryokuAbilities) -> dict[str, int]:
    """A model's abilities as name -> value (those given, in the definition's order)."""
    data = sm.to_data(value)
    if not isinstance(data, dict):  # pragma: no cover - a model object gives a dict
        raise TypeError(f"abilities are not an object: {value!r}")
    return {str(k): int(v) for k, v in data.items()}


def member(pc: sm.PC) -> Any:
    if isinstance(pc, sm.AkatsukiPC):
        return AkatsukiPC(pc.name, dict(pc.abilities), pc.specialties, pc.cards)
    if isinstance(pc, sm.KokuryokuPC):
        return KokuryokuMember(
            pc.name, pc.kind, pc.power, _abilities(pc.abilities), pc.attack, pc.defence
        )
    if isinstance(pc, sm.KegarePC):
        return KegarePC(
            pc.name,
            pc.hp,
            pc.attack,
            pc.defence,
            pc.initiative,
            pc.position,
            pc.damage,
            pc.ranged,
            pc.blessed,
        )
    if isinstance(pc, sm.GetbPC):
        return GetbPC(
            pc.name,
            _abilities(pc.abilities),
            pc.hp,
            pc.ap,
            pc.st,
            pc.op,
            pc.weapon,
            pc.power,
            pc.gun_power,
            _range(pc.gun_range),
            pc.shield,
            pc.armor,
            pc.element,
            tuple(
                GetbAttack(
                    b.name,
                    "shooting",
                    pc.gun_power or 0,
                    _range(b.range if b.range is not None else pc.gun_range),
                    1 + b.dice,
                    b.element,
                )
                for b in pc.bullets or ()
            ),
        )
    if isinstance(pc, sm.CutactionPC):
        return CutPC(
            pc.name, pc.body, pc.head, pc.hp, pc.area, CutAttack("攻撃", pc.attack, pc.damage)
        )
    raise BalanceError(f"no simulator for {type(pc).__name__}")


def _status_named(text: str | None) -> str | None:
    """The first status effect a skill's effect text names (``None``: none)."""
    if not text:
        return None
    for status in Status:  # the system's status effects, by their Japanese names
        if status.value in text:
            return status.name.lower()
    return None


_BLADE_DICE = {"short-blade": 2, "long-blade": 3, "buster-blade": 4}
"""Damage dice by weapon when an attack gives none (``dice: 0`` too); others roll 1."""


def enemy(e: sm.Enemy) -> Any:
    if isinstance(e, sm.AkatsukiEnemy):
        return e.id
    if isinstance(e, sm.KokuryokuEnemy):
        return KokuryokuMember(
            e.name,
            e.kind,
            e.power,
            _abilities(e.abilities),
            e.attack,
            e.defence,
            tuple(s.name for s in e.skills),
        )
    if isinstance(e, sm.KegareEnemy):
        every = tuple(
            KegareSkill(
                s.name,
                s.damage or 0,
                s.ranged,
                s.target == "all",
                _status_named(s.effect),
                s.kind,
                s.effect,
            )
            for s in e.skills
        )
        skills = tuple(s for s in every if s.kind == "attack")
        return KegareEnemy(
            e.id,
            e.name,
            e.hp,
            e.attack,
            e.defence,
            e.initiative,
            e.position,
            e.blessed,
            skills or (KegareSkill("攻撃", 0),),
            frozenset(e.immune),
            tuple(s for s in every if s.kind != "attack"),
        )
    if isinstance(e, sm.GetbEnemy):
        return GetbEnemy(
            e.id,
            e.name,
            _abilities(e.abilities),
            e.hp,
            e.ap,
            e.st,
            e.op,
            e.placement,
            tuple(
                GetbAttack(
                    a.name,
                    a.weapon,
                    a.power,
                    _range(a.range),
                    a.dice or _BLADE_DICE.get(a.weapon, 1),
                    a.element,
                    a.effect,
                )
                for a in e.attacks
            ),
            e.guard.shield if e.guard else None,
            e.guard.armor if e.guard else 0,
            frozenset(e.weak or ()),
        )
    if isinstance(e, sm.CutactionEnemy):
        return CutEnemy(
            e.id,
            e.name,
            e.body,
            e.head,
            e.hp,
            e.area,
            e.cover,
            tuple(CutAttack(a.name, a.kind, a.damage, a.effect) for a in e.attacks),
            e.vehicle,
            e.blockade,
        )
    raise BalanceError(f"no simulator for {type(e).__name__}")


def target(t: sm.DifficultyTarget) -> Any:
    if isinstance(t, sm.AkatsukiTarget):
        return AkatsukiTarget(
            t.name, t.ability, t.style, t.difficulty, t.preparation, t.support, t.level
        )
    if isinstance(t, sm.KokuryokuTarget):
        return KokuryokuTarget(t.name, t.target, t.gain, t.ability)
    return t  # the other simulators read no targets (cut-action's chase: chase_goal)
