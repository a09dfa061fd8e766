"""The author guide, shipped with the package: one Markdown file per page.

The pages are written for the site saikoro's reference pages make (``reference: true``
of the plugin): they sit under ``authoring/`` beside the generated field reference
(``authoring/fields.md``), and link to it, to each other and to ``../rulings.md``,
``../commands.md`` and ``../schema/scenario.schema.json``. The project's own site and
``saikoro docs`` (the guide served offline from an install) both build them from here.

>>> [name for name, _ in guide_pages()]
['index.md', 'balance.md', 'vtt.md', 'ci.md']
>>> dict(guide_pages())["index.md"].startswith("---\\ntitle: シナリオを書く")
True
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

__all__ = ["PAGES", "folder", "guide_pages"]

PAGES = ("index.md", "balance.md", "vtt.md", "ci.md")
"""The guide's pages in reading order (the field reference is generated beside them)."""


def folder() -> Traversable:
    """Where the pages are (package data)."""
    return resources.files(__name__)


def guide_pages() -> list[tuple[str, str]]:
    """(file name, Markdown) of every page, in reading order."""
    return [(name, folder().joinpath(name).read_text(encoding="utf-8")) for name in PAGES]
