"""The ``saikoro`` MkDocs plugin: scenario YAML -> pages of a mkdocs-material site.

Layout (after mkdocs-material's plugins): :mod:`._config` (options), :mod:`._plugin`
(the thin plugin class, one hook per event), :mod:`._structure` (which files and nav
entries are generated), :mod:`._pages` (the Markdown/HTML of generated pages),
:mod:`._fences` (the ``dice`` / ``flow`` / ``scenario`` fences of hand-written pages),
:mod:`._profiles` (per-system choice of commands for enemies and targets), and the
helpers :mod:`._safe` (escaping), :mod:`._charts`, :mod:`._oddscache`, :mod:`._mermaid`.

Public: :class:`SaikoroPlugin` (the ``mkdocs.plugins`` entry point ``saikoro``, imported
on first use so that the site's helpers do not load MkDocs) and what a system's page
profile (its bundle's ``page`` part, ``System.page_profile``) is made of:
:class:`Profile`, :class:`Grid`, :class:`Metric`, :class:`Attack`, and the helpers
:func:`given` (what a model object holds), :func:`placement` and :func:`status` (labels).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._pages.labels import placement, status
from ._profiles.base import Attack, Grid, Metric, Profile, given
from ._roller import RollerAssetError

if TYPE_CHECKING:
    from ._plugin import SaikoroPlugin

__all__ = [
    "Attack",
    "Grid",
    "Metric",
    "Profile",
    "RollerAssetError",
    "SaikoroPlugin",
    "given",
    "placement",
    "status",
]


def __getattr__(name: str) -> object:
    if name == "SaikoroPlugin":
        from ._plugin import SaikoroPlugin

        return SaikoroPlugin
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
