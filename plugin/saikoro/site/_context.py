"""One build's state: made by the plugin for each build and passed down.

Following mkdocs' search plugin (per-build state on the plugin instance), the plugin makes
a :class:`BuildContext` when a build reads its configuration (``on_config``: every serve
rebuild reads it again) and passes it to what renders pages; nothing that renders reads a
module global. A build that fails leaves nothing for the next one: its context is dropped
with it. What outlives builds (odds, rendered pages, balance figures) lives in the
plugin's bounded, content-keyed caches, whose keys cover what a context changes (the
page language among them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._exact import PageValues
    from ._pages.balance import Settings

__all__ = ["BuildContext"]


@dataclass
class BuildContext:
    """What one build's pages are made with, and what they collect for its end."""

    lang: str = "ja"
    """The language of the site's words on pages (``en`` when the theme's language is
    English: :func:`saikoro.site._pages.labels.language`)."""
    balance: Settings | None = None
    """The バランス section's settings (``None``: off, nothing simulated)."""
    odds_files: dict[str, PageValues] = field(default_factory=dict)
    """Each page's ``<page>.odds.json`` (by its path), written at the build's end."""

    def key(self) -> tuple[object, ...]:
        """What a rendered page depends on here (part of the page cache's key)."""
        settings = self.balance
        return (self.lang, None if settings is None else settings.battles)
