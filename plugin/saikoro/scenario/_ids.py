"""Scenario ids the site keeps for pages of its own: one definition for validation and the build.

The scenario folder's pages sit side by side (``<prefix>/<id>.md``), next to the pages
saikoro generates there: the book's index (``index``) and its print volumes (``book``,
``book-2``, ``book-3``, ...; see :mod:`saikoro.site._pages.book`). A scenario with one of
those ids would replace a generated page, so ``saikoro validate`` refuses it at its
``id:`` (or its file name), before a build would.

>>> [is_reserved(i) for i in ("index", "book", "book-7", "book-0", "bookish", "index-2")]
[True, True, True, True, False, False]
>>> volume_id(1), volume_id(3)
('book', 'book-3')
"""

from __future__ import annotations

import re

__all__ = ["BOOK", "INDEX", "RESERVED", "is_reserved", "volume_id"]

INDEX = "index"
"""The id of the book's index page."""
BOOK = "book"
"""The id of the first print volume; the others are ``book-2``, ``book-3``, ..."""
RESERVED = re.compile(rf"{INDEX}|{BOOK}(-[0-9]+)?")
"""Every reserved id (``book-N`` for any number: a book may grow more volumes)."""


def is_reserved(scenario_id: str) -> bool:
    """Whether a page saikoro generates uses this id (the index, the book's volumes)."""
    return RESERVED.fullmatch(scenario_id) is not None


def volume_id(number: int) -> str:
    """The page id of print volume ``number`` (from 1)."""
    return BOOK if number == 1 else f"{BOOK}-{number}"
