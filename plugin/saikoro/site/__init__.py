"""The ``saikoro`` MkDocs plugin: scenario YAML -> pages of a mkdocs-material site.

Layout (after mkdocs-material's plugins): :mod:`._config` (options), :mod:`._plugin`
(the thin plugin class, one hook per event), :mod:`._structure` (which files and nav
entries are generated), :mod:`._pages` (the Markdown/HTML of generated pages),
:mod:`._fences` (the ``dice`` / ``flow`` / ``scenario`` fences of hand-written pages),
:mod:`._profiles` (per-system choice of commands for enemies and targets), and the
helpers :mod:`._safe` (escaping), :mod:`._charts`, :mod:`._oddscache`, :mod:`._mermaid`.

Public: :class:`SaikoroPlugin` (the ``mkdocs.plugins`` entry point ``saikoro``, imported
on first use so that the site's helpers do not load MkDocs) and what a system's page
profile (its ``page`` part: :meth:`saikoro.systems.System.part`) is made of:
:class:`Profile`, :class:`Grid`, :class:`Metric`, :class:`Attack`, :class:`Personal` (how a
difficulty target's roll follows the reader's own value), and the helper :func:`given`
(what a model object holds). A system's words for its own values (map cells, statuses,
ruling choices) are its own: on its profile and its :class:`~saikoro.systems.Ruling`.

saikoro's own documentation as Markdown (what ``reference: true`` adds to a site, and
``saikoro docs`` serves): :func:`guide_pages` (the author guide, shipped in the package),
:func:`rulings_page`, :func:`commands_page` and :func:`fields_page`; and
:func:`pdf_main` (``saikoro pdf``) and :func:`text_main` (``saikoro text``: the plain-text
edition). The reference pages are imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._guide import guide_pages
from ._pdf import main as pdf_main
from ._profiles.base import Attack, Grid, Metric, Personal, Profile, given
from ._roller import RollerAssetError
from ._textcli import main as text_main

if TYPE_CHECKING:
    from ._pages.reference import commands_page, fields_page, rulings_page
    from ._plugin import SaikoroPlugin

__all__ = [
    "Attack",
    "Grid",
    "Metric",
    "Personal",
    "Profile",
    "RollerAssetError",
    "SaikoroPlugin",
    "commands_page",
    "fields_page",
    "given",
    "guide_pages",
    "pdf_main",
    "rulings_page",
    "text_main",
]


_LAZY = {
    "SaikoroPlugin": "._plugin",
    "commands_page": "._pages.reference",
    "fields_page": "._pages.reference",
    "rulings_page": "._pages.reference",
}
"""Names imported on first use: the plugin (MkDocs) and the reference pages (the simulator)."""


def __getattr__(name: str) -> object:
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(where, __name__), name)
