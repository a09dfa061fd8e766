"""Per-system profiles: which engine commands a scenario page shows for enemies and targets.

One module per system id (``profiles/getb.py`` ...), each exposing ``PROFILE``. Every
system has one: a module that fails to import is a bug and fails the build (it must not
quietly drop the odds from pages).
"""

from __future__ import annotations

import importlib

from saikoro.systems import SYSTEM_IDS, UnknownSystemError

from .base import Character, Grid, Metric, Profile

__all__ = ["Character", "Grid", "Metric", "Profile", "profile"]

_cache: dict[str, Profile] = {}


def profile(system: str) -> Profile:
    """The profile of ``system`` (a system id).

    Raises:
        UnknownSystemError: ``system`` is not a system id.
    """
    found = _cache.get(system)
    if found is None:
        if system not in SYSTEM_IDS:
            raise UnknownSystemError(f"no profile for unknown system {system!r}")
        found = importlib.import_module(f"{__name__}.{system}").PROFILE
        if not isinstance(found, Profile):  # pragma: no cover - a broken module
            raise TypeError(f"{__name__}.{system}.PROFILE is not a Profile")
        _cache[system] = found
    return found
