"""The ``saikoro`` MkDocs plugin: scenario YAML -> pages of a mkdocs-material site.

Layout (after mkdocs-material's plugins): :mod:`.config` (options), :mod:`.plugin`
(the thin plugin class, one hook per event), :mod:`.structure` (which files and nav
entries are generated), :mod:`.pages` (the Markdown/HTML of generated pages),
:mod:`.fences` (the ``dice`` / ``flow`` / ``scenario`` fences of hand-written pages),
:mod:`.profiles` (per-system choice of commands for enemies and targets), and the
helpers :mod:`.safe` (escaping), :mod:`.charts`, :mod:`.oddscache`, :mod:`.mermaid`.
"""

from __future__ import annotations

__all__: list[str] = []
