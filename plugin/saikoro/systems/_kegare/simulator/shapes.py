"""The simulator's own shapes of kegare PCs, enemies and targets, read from the scenario model.

Interim: the encounter holds the scenario model's objects; :func:`members` and the others give
the simulator its frozen shapes (a GETB attack's range as two numbers, and so on).
"""

from __future__ import annotations

from dataclasses import dataclass

from saikoro.balance import Encounter
from saikoro.dice import InternalError
from saikoro.systems._kegare import model as sm
from saikoro.systems._kegare.status import Status


@dataclass(frozen=True)
class KegareSkill:
    """A skill: base damage, ranged, single or all, the status it names, kind, effect text."""

    name: str
    damage: int
    ranged: bool = False
    area: bool = False
    status: str | None = None
    kind: str = "attack"
    effect: str | None = None


@dataclass(frozen=True)
class KegarePC:
    """A 穢れ PC: HP, attack, defence, initiative, position, its attack."""

    name: str
    hp: int
    attack: int
    defence: int
    initiative: int
    position: str = "near"
    damage: int = 5
    ranged: bool = False
    blessed: bool = False


@dataclass(frozen=True)
class KegareEnemy:
    """A 穢れ enemy with its attack skills and immunities."""

    id: str
    name: str
    hp: int
    attack: int
    defence: int
    initiative: int
    position: str
    blessed: bool
    skills: tuple[KegareSkill, ...]
    immune: frozenset[str]
    other_skills: tuple[KegareSkill, ...] = ()
    """Support, defence and always-on skills (the attack skills are ``skills``)."""


def _status_named(text: str | None) -> str | None:
    """The first status effect a skill's effect text names (``None``: none)."""
    if not text:
        return None
    for status in Status:  # the system's status effects, by their Japanese names
        if status.value in text:
            return status.name.lower()
    return None


def _member(pc: sm.KegarePC) -> KegarePC:
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


def _enemy(e: sm.KegareEnemy) -> KegareEnemy:
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


def members(enc: Encounter) -> tuple[KegarePC, ...]:
    """The party, in the simulator's shapes."""
    out = []
    for pc in enc.party.members:
        if not isinstance(pc, sm.KegarePC):
            raise InternalError(f"kegare: {pc!r} is not a KegarePC")
        out.append(_member(pc))
    return tuple(out)


def enemies(enc: Encounter) -> tuple[KegareEnemy, ...]:
    """The enemies, in the simulator's shapes."""
    out = []
    for e in enc.enemies:
        if not isinstance(e, sm.KegareEnemy):
            raise InternalError(f"kegare: {e!r} is not a KegareEnemy")
        out.append(_enemy(e))
    return tuple(out)
