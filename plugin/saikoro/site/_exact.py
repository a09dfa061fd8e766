"""Exact values that are too long for the page, served on demand from a JSON file per page.

Every shown probability keeps its exact value. Short fractions (``1/6``, ``271/1000``)
stay inline as ``data-probability="n/d"``; a long one (a GETB damage distribution has
40-digit denominators) would make a rules page megabytes of digits nobody reads, so the
element carries ``data-exact="<key>"`` instead and the page's ``<page>.odds.json`` maps
the key to ``n/d``. Long distribution tables are kept whole in the same file and built
when the reader opens them (``data-lazy="<key>"``). ``saikoro.js`` fetches the file on
the first hover, focus or opening of an odds element and fills ``data-probability`` in.

Keys are content hashes and a fragment carries its long values beside their keys until
:func:`compact` moves them out of the finished page, so a fragment can be cached and reused
on several pages and in later builds, and nothing is kept between pages but by the
plugin's build context (which collects each page's values for :func:`write`).

>>> from fractions import Fraction
>>> exact_attr(Fraction(1, 6))
'data-probability="1/6"'
>>> page, values = compact(f"<span {exact_attr(Fraction(2**70, 3**60))}>", "a/index.html")
>>> page.startswith('<span data-exact="') and "value" not in page
True
>>> values["exact"] == {page[18:30]: f"{2**70}/{3**60}"}
True
"""

from __future__ import annotations

import hashlib
import html
import json
import posixpath
import re
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import TypedDict

from saikoro.dice import fraction_text
from saikoro.scenario import replace_file

__all__ = [
    "LONG",
    "PageValues",
    "Table",
    "compact",
    "exact_attr",
    "is_short",
    "json_name",
    "lazy_attr",
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


def is_short(text: str) -> bool:
    """Whether ``n/d`` stays inline."""
    return len(text) <= LONG


def _key(kind: str, text: str) -> str:
    return hashlib.sha1(f"{kind}:{text}".encode(), usedforsecurity=False).hexdigest()[:12]


def exact_attr(p: Fraction) -> str:
    """The attribute that carries ``p`` exactly: inline when short; when long, its key with
    the value beside it (``data-exact-value``), which :func:`compact` moves to the page's
    JSON file. A fragment so carries its own values: nothing is recorded anywhere, and a
    cached fragment is complete on any page and in any later build."""
    text = fraction_text(p)
    if is_short(text):
        return f'data-probability="{text}"'
    return f'data-exact="{_key("p", text)}" data-exact-value="{text}"'


def lazy_attr(head: list[str], rows: list[list[str | None]], shown: list[list[str | None]]) -> str:
    """The attribute of a table kept in the page's JSON (``head``: column names; ``rows``:
    outcome, then exact ``n/d`` strings or ``None``; ``shown``: how each of those is
    shown): its key, with the table beside it (``data-lazy-table``) until :func:`compact`
    moves it to the page's JSON file."""
    payload: Table = {"head": head, "rows": rows, "shown": shown}
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return f'data-lazy="{_key("t", text)}" data-lazy-table="{html.escape(text, quote=True)}"'


_VALUE = re.compile(r'(data-exact(?:-mean)?="[0-9a-f]{12}") data-exact(?:-mean)?-value="([^"]*)"')
_TABLE = re.compile(r'(data-lazy="[0-9a-f]{12}") data-lazy-table="([^"]*)"')
_KEY = re.compile(r'="([0-9a-f]{12})"$')


def json_name(dest_uri: str) -> str:
    """The JSON file of a page: ``a/b/index.html`` -> ``a/b/index.odds.json``."""
    return posixpath.splitext(dest_uri)[0] + ".odds.json"


def compact(page_html: str, dest_uri: str) -> tuple[str, PageValues | None]:
    """``page_html`` with the long values and tables its fragments carry moved out, and
    what the page's JSON file (:func:`json_name` of ``dest_uri``) holds: ``None`` when the
    page refers to none (the HTML then unchanged)."""
    values: dict[str, str] = {}
    tables: dict[str, Table] = {}

    def value(match: re.Match[str]) -> str:
        attr = match.group(1)
        values[_KEY.search(attr).group(1)] = match.group(2)  # type: ignore[union-attr]
        return attr

    def table(match: re.Match[str]) -> str:
        attr = match.group(1)
        payload: Table = json.loads(html.unescape(match.group(2)))
        tables[_KEY.search(attr).group(1)] = payload  # type: ignore[union-attr]
        return attr

    page_html = _TABLE.sub(table, _VALUE.sub(value, page_html))
    if not values and not tables:
        return page_html, None
    name = json_name(dest_uri)
    src = posixpath.basename(name)
    page_html += f'<span class="saikoro-exact-src" hidden data-src="{src}"></span>'
    return page_html, {"exact": values, "tables": tables}


def write(site_dir: str, pages: Mapping[str, PageValues]) -> list[Path]:
    """Write the JSON files of the pages (by their :func:`json_name`) a build recorded."""
    written = []
    for name, payload in sorted(pages.items()):
        path = Path(site_dir) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
        replace_file(path, text.encode("utf-8"), sync=False)
        written.append(path)
    return written
