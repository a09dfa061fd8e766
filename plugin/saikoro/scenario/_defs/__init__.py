"""One declarative definition per system: the whole scenario's :class:`~saikoro.scenario.Obj`.

Each system's definition is its ``scenario`` part (:meth:`saikoro.systems.System.part`);
:data:`DEFINITIONS` finds it through the system registry, so a system registered once
(built in or from an installed package) is validated too. The module holds:

``ROOT``
    the whole scenario's :class:`Obj` (required);
``SIDE_CHECKS``
    the side-mission ``check:`` keys its scenarios offer (default ``("win",)``): keys any
    battle offers, and the system's own :class:`~saikoro.scenario._defs._side.SideFact`
    declarations;
``REFERENCE_PARTY`` / ``REFERENCE_PARTY_FIXED``
    the reference party's archetypes and the members every reference party has
    (``party:`` format; default none: such a system's scenarios need a ``party:``);
``enemy_actions(enemy)``
    the action names of an enemy's validated data (default: its ``attacks``' names).

>>> sorted(DEFINITIONS)
['akatsuki', 'cutaction', 'getb', 'kegare', 'kokuryoku']
>>> DEFINITIONS["getb"] is definition("getb")
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import ModuleType
from typing import Any

from saikoro.dice import InternalError
from saikoro.scenario._containers import Obj
from saikoro.scenario._defs._side import SideFact, side_keys
from saikoro.systems import RegistryError, registered, registry, system_class

__all__ = [
    "DEFINITIONS",
    "SIDE_CHECKS",
    "definition",
    "definition_module",
    "enemy_actions",
    "reference_party",
    "side_facts",
]


def definition_module(system_id: str) -> ModuleType:
    """The module of ``system_id``'s scenario definition (its ``scenario`` part).

    Raises:
        UnknownSystemError: no system is registered as ``system_id``.
        RegistryError: the system has no definition.
    """
    return system_class(system_id).part("scenario")


def definition(system_id: str) -> Obj:
    """The definition of ``system_id``'s scenarios (imported on first use).

    Raises:
        UnknownSystemError: no system is registered as ``system_id``.
        RegistryError: the system has no definition, or its ``ROOT`` is not an ``Obj``.
    """
    module = definition_module(system_id)
    root = getattr(module, "ROOT", None)
    if not isinstance(root, Obj):
        raise RegistryError(f"system {system_id!r}: {module.__name__}.ROOT is not a scenario Obj")
    return root


class _Definitions(Mapping[str, Obj]):
    """System id -> definition, for every registered system, each loaded on first use."""

    def __getitem__(self, system_id: str) -> Obj:
        if not registered(system_id):
            raise KeyError(system_id)
        return definition(system_id)

    def __iter__(self) -> Iterator[str]:
        return iter(registry())

    def __len__(self) -> int:
        return len(registry())


DEFINITIONS: Mapping[str, Obj] = _Definitions()
"""System id -> the definition of its scenarios."""


def _side_checks(system_id: str) -> tuple[str | SideFact, ...]:
    """A system's ``SIDE_CHECKS`` (``("win",)`` when it declares none)."""
    if not registered(system_id):
        raise KeyError(system_id)
    checks = getattr(definition_module(system_id), "SIDE_CHECKS", ("win",))
    if not (isinstance(checks, tuple) and all(isinstance(k, str | SideFact) for k in checks)):
        raise RegistryError(
            f"system {system_id!r}: SIDE_CHECKS is not a tuple of keys and SideFacts"
        )
    return checks


class _SideChecks(Mapping[str, tuple[str, ...]]):
    """System id -> the side-mission ``check:`` keys it offers (its ``SIDE_CHECKS``)."""

    def __getitem__(self, system_id: str) -> tuple[str, ...]:
        return side_keys(_side_checks(system_id))

    def __iter__(self) -> Iterator[str]:
        return iter(registry())

    def __len__(self) -> int:
        return len(registry())


SIDE_CHECKS: Mapping[str, tuple[str, ...]] = _SideChecks()
"""System id -> the side-mission ``check:`` keys its scenarios offer."""


def side_facts(system_id: str) -> tuple[SideFact, ...]:
    """The side-mission keys ``system_id`` declares itself (:class:`SideFact`): what each
    compares of its simulator's per-battle facts."""
    return tuple(c for c in _side_checks(system_id) if isinstance(c, SideFact))


def enemy_actions(system_id: str, enemy: Mapping[str, Any]) -> list[str]:
    """The action names of one enemy's validated data (what ``no_damage_from`` may name)."""
    own = getattr(definition_module(system_id), "enemy_actions", None)
    if own is not None:
        return [str(n) for n in own(enemy)]
    return [str(a["name"]) for a in enemy.get("attacks", [])]


def reference_party(system_id: str, size: int) -> list[dict[str, Any]]:
    """The reference party of ``size`` PCs for ``system_id`` (in ``party:`` format).

    The system's fixed members (``REFERENCE_PARTY_FIXED``), then ``size`` archetypes
    (``REFERENCE_PARTY``) in order, cycling with numbered names beyond the last.

    Examples:
        >>> [m["name"] for m in reference_party("kegare", 5)]
        ['前衛', '射手', '祓い手', '斥候', '前衛2']
        >>> [m["name"] for m in reference_party("kokuryoku", 2)]
        ['我が国', '将軍', '宰相']

    Raises:
        RegistryError: the system has no reference party.
        InternalError: ``size`` is below 1 (callers check what users give).
    """
    if size < 1:
        raise InternalError(f"a reference party of {size} PCs")
    module = definition_module(system_id)
    base = tuple(getattr(module, "REFERENCE_PARTY", ()))
    if not base:
        raise RegistryError(f"system {system_id!r} has no REFERENCE_PARTY")
    out: list[dict[str, Any]] = [dict(m) for m in getattr(module, "REFERENCE_PARTY_FIXED", ())]
    for i in range(size):
        pc = dict(base[i % len(base)])
        if i >= len(base):
            pc["name"] = f"{pc['name']}{i // len(base) + 1}"
        out.append(pc)
    return out
