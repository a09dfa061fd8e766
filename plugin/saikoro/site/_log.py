"""The plugin's logger: warnings go through MkDocs, so ``mkdocs build --strict`` fails on them."""

from __future__ import annotations

from mkdocs.plugins import get_plugin_logger

__all__ = ["log"]

log = get_plugin_logger(__name__)
