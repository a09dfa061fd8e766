"""Exact values that are too long for the page, served on demand from a JSON file per page.

Every shown probability keeps its exact value. Short fractions (``1/6``, ``271/1000``)
stay inline as ``data-probability="n/d"``; a long one (a GETB damage distribution has
40-digit denominators) would make a rules page megabytes of digits nobody reads, so the
element carries ``data-exact="<key>"`` instead and the page's ``<page>.odds.json`` maps
the key to ``n/d``. Long distribution tables are kept whole in the same file and built
when the reader opens them (``data-lazy="<key>"``). ``saikoro.js`` fetches the file on
the first hover, focus or opening of an odds element and fills ``data-probability`` in.

Keys are content hashes, so an HTML fragment can be cached and reused on several pages.

>>> from fractions import Fraction
>>> exact_attr(Fraction(1, 6))
'data-probability="1/6"'
>>> exact_attr(Fraction(2**70, 3**60)).startswith('data-exact="')
True
"""

from __future__ import annotations

import hashlib
import json
import posixpath
from fractions import Fraction
from pathlib import Path
from typing import TypedDict

from saikoro.dice import fraction_text
from saikoro.scenario import replace_file

__all__ = [
    "LONG",
    "compact",
    "exact_attr",
    "forget_pages",
    "is_short",
    "json_name",
    "lazy_table",
    "write",
]

LONG = 24
"""Fractions longer than this many characters (``n/d``) go to the page's JSON file."""


class Table(TypedDict):
    """A distribution table kept in a page's JSON: column names, then one row per outcome
    (the outcome, then exact ``n/d`` strings or ``None``), and the text each of those
    values is shown as (``shown[i][j]`` for ``rows[i][j + 1]``: the site's one formatting
    of a probability, :func:`saikoro.site._charts.percent`, so the browser formats none)."""

    head: list[str]
    rows: list[list[str | None]]
    shown: list[list[str | None]]


class PageValues(TypedDict):
    """A page's ``<page>.odds.json``: long exact values and tables by key."""

    exact: dict[str, str]
    tables: dict[str, Table]


_values: dict[str, str] = {}
_tables: dict[str, Table] = {}
_pages: dict[str, PageValues] = {}


def is_short(text: str) -> bool:
    """Whether ``n/d`` stays inline."""
    return len(text) <= LONG


def _key(kind: str, text: str) -> str:
    return hashlib.sha1(f"{kind}:{text}".encode(), usedforsecurity=False).hexdigest()[:12]


def exact_attr(p: Fraction) -> str:
    """The attribute that carries ``p`` exactly: inline when short, a key when long."""
    text = fraction_text(p)
    if is_short(text):
        return f'data-probability="{text}"'
    key = _key("p", text)
    _values[key] = text
    return f'data-exact="{key}"'


def lazy_table(head: list[str], rows: list[list[str | None]], shown: list[list[str | None]]) -> str:
    """The key of a table kept in the page's JSON (``head``: column names; ``rows``:
    outcome, then exact ``n/d`` strings or ``None``; ``shown``: how each of those is
    shown)."""
    payload: Table = {"head": head, "rows": rows, "shown": shown}
    key = _key("t", json.dumps(payload, ensure_ascii=False))
    _tables[key] = payload
    return key


def json_name(dest_uri: str) -> str:
    """The JSON file of a page: ``a/b/index.html`` -> ``a/b/index.odds.json``."""
    return posixpath.splitext(dest_uri)[0] + ".odds.json"


def compact(html: str, dest_uri: str) -> str:
    """Record the long values ``html`` refers to for ``dest_uri``; add the file's address.

    Returns ``html`` unchanged when it refers to none.
    """
    import re

    values = {k: _values[k] for k in re.findall(r'data-exact(?:-mean)?="([0-9a-f]{12})"', html)}
    tables = {k: _tables[k] for k in re.findall(r'data-lazy="([0-9a-f]{12})"', html)}
    if not values and not tables:
        return html
    name = json_name(dest_uri)
    _pages[name] = {"exact": values, "tables": tables}
    src = posixpath.basename(name)
    return html + f'<span class="saikoro-exact-src" hidden data-src="{src}"></span>'


def write(site_dir: str) -> list[Path]:
    """Write the JSON files of the pages built since the last call."""
    written = []
    for name, payload in sorted(_pages.items()):
        path = Path(site_dir) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
        replace_file(path, text.encode("utf-8"), sync=False)
        written.append(path)
    _pages.clear()
    return written


def forget_pages() -> None:
    """Drop what pages recorded for their JSON files (a build that failed writes none).

    The values and tables by key stay: they are content-keyed, and cached fragments of
    HTML (kept between serve rebuilds) refer to them.
    """
    _pages.clear()
