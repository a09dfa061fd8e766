"""Per-system profiles: which engine commands a scenario page shows for enemies and targets.

Each system's profile is the ``PROFILE`` of its ``page`` part
(:meth:`saikoro.systems.System.part`: ``saikoro/systems/_getb/page.py`` ...). Every
system has one: a module that fails to import is a bug and fails the build (it must not
quietly drop the odds from pages).
"""

from __future__ import annotations

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


def profile(system: str) -> AnyProfile:
    """The profile of ``system`` (a system id): the ``PROFILE`` of its ``page`` part
    (:meth:`saikoro.systems.System.part`).

    Raises:
        UnknownSystemError: ``system`` is not a system id.
        RegistryError: the system has no profile, or it is not a :class:`Profile` of it.
    """
    module = system_class(system).part("page")
    found = getattr(module, "PROFILE", None)
    if not isinstance(found, Profile) or found.system != system:
        raise RegistryError(f"system {system!r}: {module.__name__}.PROFILE is not a Profile of it")
    # a system's profile reads that system's model objects, which are what the pages pass
    # it (each scenario's own model): held as any system's here
    return found
