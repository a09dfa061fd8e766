"""The simulator's own shapes of akatsuki PCs, enemies and targets, read from the scenario model.

Interim: the encounter holds the scenario model's objects; :func:`members` and the others give
the simulator its frozen shapes (a GETB attack's range as two numbers, and so on).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from saikoro.balance import Encounter
from saikoro.dice import InternalError
from saikoro.systems._akatsuki import model as sm


@dataclass(frozen=True)
class AkatsukiPC:
    """A PC of 君ヨ、暁ノ大地ニ死スベシ: ability levels, specialties, awakening cards."""

    name: str
    abilities: Mapping[str, int]
    specialties: tuple[str, ...] = ()
    cards: int = 0


@dataclass(frozen=True)
class AkatsukiTarget:
    """A difficulty target: ability, style, base difficulty, preparation, NPC support."""

    name: str
    ability: str
    style: str | None
    difficulty: int
    preparation: int
    support: int
    level: int | None


def _member(pc: sm.AkatsukiPC) -> AkatsukiPC:
    return AkatsukiPC(pc.name, dict(pc.abilities), pc.specialties, pc.cards)


def _target(t: sm.AkatsukiTarget) -> AkatsukiTarget:
    return AkatsukiTarget(
        t.name, t.ability, t.style, t.difficulty, t.preparation, t.support, t.level
    )


def members(enc: Encounter) -> tuple[AkatsukiPC, ...]:
    """The party, in the simulator's shapes."""
    out = []
    for pc in enc.party.members:
        if not isinstance(pc, sm.AkatsukiPC):
            raise InternalError(f"akatsuki: {pc!r} is not a AkatsukiPC")
        out.append(_member(pc))
    return tuple(out)


def targets(enc: Encounter) -> tuple[AkatsukiTarget, ...]:
    """The difficulty targets, in the simulator's shapes."""
    out = []
    for t in enc.targets:
        if not isinstance(t, sm.AkatsukiTarget):
            raise InternalError(f"akatsuki: {t!r} is not a AkatsukiTarget")
        out.append(_target(t))
    return tuple(out)
