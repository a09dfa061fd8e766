"""The ``saikoro`` MkDocs plugin: scenario YAML -> pages of a mkdocs-material site.

Layout (after mkdocs-material's plugins): :mod:`.config` (options), :mod:`.plugin`
(the thin plugin class, one hook per event), :mod:`.structure` (which files and nav
entries are generated), :mod:`.pages` (the Markdown/HTML of generated pages),
:mod:`.fences` (the ``dice`` / ``flow`` / ``scenario`` fences of hand-written pages),
:mod:`.profiles` (per-system choice of commands for enemies and targets), and the
helpers :mod:`.safe` (escaping), :mod:`.charts`, :mod:`.oddscache`, :mod:`.mermaid`.

Public: :class:`SaikoroPlugin` (the ``mkdocs.plugins`` entry point ``saikoro``, imported
on first use so that the site's helpers do not load MkDocs) and what a system's page
profile (``System.page_profile``) is made of: :class:`Profile`, :class:`Grid`,
:class:`Metric`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._profiles.base import Grid, Metric, Profile

if TYPE_CHECKING:
    from ._plugin import SaikoroPlugin

__all__ = ["Grid", "Metric", "Profile", "SaikoroPlugin"]


def __getattr__(name: str) -> object:
    if name == "SaikoroPlugin":
        from ._plugin import SaikoroPlugin

        return SaikoroPlugin
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
