"""Per-system profiles: which engine commands a scenario page shows for enemies and targets.

One module per system id (``profiles/getb.py`` ...), each exposing ``PROFILE``; systems
without one get the generic :class:`~.base.Profile` (data, no odds).
"""

from __future__ import annotations

import importlib

from .base import Character, Grid, Metric, Profile

__all__ = ["Character", "Grid", "Metric", "Profile", "profile"]

_cache: dict[str, Profile] = {}


def profile(system: str) -> Profile:
    """The profile of ``system`` (the generic one when the system has none)."""
    found = _cache.get(system)
    if found is None:
        try:
            module = importlib.import_module(f"{__name__}.{system}")
        except ModuleNotFoundError:
            found = Profile()
        else:
            found = module.PROFILE
        _cache[system] = found
    return found
