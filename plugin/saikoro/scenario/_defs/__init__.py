"""One declarative definition per system: the whole scenario's :class:`~..schema.Obj`.

Each system names the module of its definition (:attr:`saikoro.systems.System.scenario_def`,
a module with ``ROOT``); :data:`DEFINITIONS` finds it through the system registry, so a
system registered once (built in or from an installed package) is validated too.

>>> sorted(DEFINITIONS)
['akatsuki', 'cutaction', 'getb', 'kegare', 'kokuryoku']
>>> DEFINITIONS["getb"] is definition("getb")
True
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping

from saikoro.scenario._containers import Obj
from saikoro.systems import RegistryError, registry, system_class

__all__ = ["DEFINITIONS", "definition"]

_cache: dict[str, Obj] = {}


def definition(system_id: str) -> Obj:
    """The definition of ``system_id``'s scenarios (imported on first use).

    Raises:
        UnknownSystemError: no system is registered as ``system_id``.
        RegistryError: the system names no definition, or its ``ROOT`` is not an ``Obj``.
    """
    found = _cache.get(system_id)
    if found is None:
        where = system_class(system_id).scenario_def
        if not where:
            raise RegistryError(f"system {system_id!r} names no scenario_def")
        root = getattr(importlib.import_module(where), "ROOT", None)
        if not isinstance(root, Obj):
            raise RegistryError(f"system {system_id!r}: {where}.ROOT is not a scenario Obj")
        found = _cache[system_id] = root
    return found


class _Definitions(Mapping[str, Obj]):
    """System id -> definition, for every registered system, each loaded on first use."""

    def __getitem__(self, system_id: str) -> Obj:
        if system_id not in registry():
            raise KeyError(system_id)
        return definition(system_id)

    def __iter__(self) -> Iterator[str]:
        return iter(registry())

    def __len__(self) -> int:
        return len(registry())


DEFINITIONS: Mapping[str, Obj] = _Definitions()
"""System id -> the definition of its scenarios."""
