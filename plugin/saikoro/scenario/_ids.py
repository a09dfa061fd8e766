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

Ids become file names (``<id>/index.html``, ``<enemy id>.zip``), and a site is unzipped,
checked out or synced on Windows too, where some names are devices, not files: ``CON``,
``PRN``, ``AUX``, ``NUL``, ``COM0``-``COM9`` and ``LPT0``-``LPT9`` (with superscript digits
too), in any case and with any extension (``nul.zip`` is ``NUL``). Such an id is refused.

>>> names = ("con", "NUL.txt", "aux ", "com1", "lpt9.tar.gz", "com10", "cons")
>>> [windows_reserved(name) for name in names]
[True, True, True, True, True, False, False]
"""

from __future__ import annotations

import re

__all__ = [
    "BOOK",
    "INDEX",
    "RESERVED",
    "WINDOWS_RESERVED",
    "is_reserved",
    "volume_id",
    "windows_reserved",
]

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


_DIGITS = "0123456789\u00b9\u00b2\u00b3"
WINDOWS_RESERVED = frozenset(
    {"con", "prn", "aux", "nul", "conin$", "conout$"}
    | {f"{device}{digit}" for device in ("com", "lpt") for digit in _DIGITS}
)
"""Device names Windows keeps in every folder (lower case): Microsoft's list ("Naming
Files, Paths, and Namespaces"), with ``COM0``/``LPT0`` and the console names."""


def windows_reserved(name: str) -> bool:
    """Whether Windows takes the file name ``name`` for a device (case-insensitive; an
    extension and trailing spaces do not help: the part before the first dot counts)."""
    return name.partition(".")[0].rstrip(" ").lower() in WINDOWS_RESERVED
