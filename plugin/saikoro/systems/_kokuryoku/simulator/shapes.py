"""The simulator's own shapes of kokuryoku PCs, enemies and targets, read from the scenario model.

Interim: the encounter holds the scenario model's objects; :func:`members` and the others give
the simulator its frozen shapes (a GETB attack's range as two numbers, and so on).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from saikoro.balance import Encounter
from saikoro.dice import InternalError
from saikoro.scenario.model import to_data
from saikoro.systems._kokuryoku import model as sm


@dataclass(frozen=True)
class KokuryokuMember:
    """A nation (with a power gauge) or a character (abilities, attack, defence)."""

    name: str
    kind: str
    power: int | None
    abilities: Mapping[str, int]
    attack: int
    defence: int
    skills: tuple[str, ...] = ()
    """The names of its skills (their effects are text)."""

    @property
    def best(self) -> int:
        """The highest ability (checks may use any ability)."""
        return max(self.abilities.values(), default=0)


@dataclass(frozen=True)
class KokuryokuTarget:
    """A middle-phase check: target, power gained, the starting ability (if set)."""

    name: str
    target: int
    gain: int
    ability: str | None


def _abilities(value: sm.KokuryokuAbilities) -> dict[str, int]:
    """A model's abilities as name -> value (those given, in the definition's order)."""
    data = to_data(value)
    if not isinstance(data, dict):
        raise InternalError(f"abilities are not an object: {value!r}")
    return {str(k): int(v) for k, v in data.items()}


def _member(pc: sm.KokuryokuPC) -> KokuryokuMember:
    return KokuryokuMember(
        pc.name, pc.kind, pc.power, _abilities(pc.abilities), pc.attack, pc.defence
    )


def _enemy(e: sm.KokuryokuEnemy) -> KokuryokuMember:
    return KokuryokuMember(
        e.name,
        e.kind,
        e.power,
        _abilities(e.abilities),
        e.attack,
        e.defence,
        tuple(s.name for s in e.skills),
    )


def _target(t: sm.KokuryokuTarget) -> KokuryokuTarget:
    return KokuryokuTarget(t.name, t.target, t.gain, t.ability)


def members(enc: Encounter) -> tuple[KokuryokuMember, ...]:
    """The party, in the simulator's shapes."""
    out = []
    for pc in enc.party.members:
        if not isinstance(pc, sm.KokuryokuPC):
            raise InternalError(f"kokuryoku: {pc!r} is not a KokuryokuPC")
        out.append(_member(pc))
    return tuple(out)


def enemies(enc: Encounter) -> tuple[KokuryokuMember, ...]:
    """The enemies, in the simulator's shapes."""
    out = []
    for e in enc.enemies:
        if not isinstance(e, sm.KokuryokuEnemy):
            raise InternalError(f"kokuryoku: {e!r} is not a KokuryokuEnemy")
        out.append(_enemy(e))
    return tuple(out)


def targets(enc: Encounter) -> tuple[KokuryokuTarget, ...]:
    """The difficulty targets, in the simulator's shapes."""
    out = []
    for t in enc.targets:
        if not isinstance(t, sm.KokuryokuTarget):
            raise InternalError(f"kokuryoku: {t!r} is not a KokuryokuTarget")
        out.append(_target(t))
    return tuple(out)
