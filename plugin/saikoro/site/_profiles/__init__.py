"""Per-system profiles: which engine commands a scenario page shows for enemies and targets.

Each system names the module of its profile (:attr:`saikoro.systems.System.page_profile`,
a module exposing ``PROFILE``; the built-in ones are ``profiles/getb.py`` ...). Every
system has one: a module that fails to import is a bug and fails the build (it must not
quietly drop the odds from pages).
"""

from __future__ import annotations

import importlib

from saikoro.systems import RegistryError, system_class

from .base import AnyProfile, Attack, Character, Grid, Metric, Personal, Profile

__all__ = [
    "AnyProfile",
    "Attack",
    "Character",
    "Grid",
    "Metric",
    "Personal",
    "Profile",
    "profile",
]

_cache: dict[str, AnyProfile] = {}


def profile(system: str) -> AnyProfile:
    """The profile of ``system`` (a system id).

    Raises:
        UnknownSystemError: ``system`` is not a system id.
        RegistryError: the system names no profile, or it is not a :class:`Profile` of it.
    """
    found = _cache.get(system)
    if found is None:
        where = system_class(system).page_profile
        if not where:
            raise RegistryError(f"system {system!r} names no page_profile")
        found = getattr(importlib.import_module(where), "PROFILE", None)
        if not isinstance(found, Profile) or found.system != system:
            raise RegistryError(f"system {system!r}: {where}.PROFILE is not a Profile of it")
        # a system's profile reads that system's model objects, which are what the
        # pages pass it (each scenario's own model): held as any system's here
        _cache[system] = found
    return _cache[system]
