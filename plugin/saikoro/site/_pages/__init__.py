"""The Markdown and HTML of the pages the plugin generates."""

from __future__ import annotations

__all__: list[str] = []
