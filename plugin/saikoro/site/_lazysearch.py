"""The search index loaded on first use of search, not with every page.

mkdocs-material's bundle requests ``search/search_index.json`` (with ``XMLHttpRequest``)
as soon as it runs on a page served over HTTP (``setupSearchWorker`` subscribes to the
index at once unless the page is a ``file:`` one); on this site that is about 140 kB of
gzip on every first visit, before the reader has done anything. ``assets/search-shim.js``
holds back that one request until the reader shows an interest in search (focus on the
search field -- a tap on the search icon or Material's f, s and / keys focus it --, the
search dialog opening, a pointer over the field, a ``?q=`` link); the bundle's own code
then carries on as if the response had merely been slow.

The shim must run before the bundle, so it is inlined just before the bundle's
``<script>`` on every page (``on_post_page``); a page without that script (another theme,
or a Material without the bundle) is left as it is.

>>> page = '<script src="../assets/javascripts/bundle.1234.min.js"></script>'
>>> held = hold_search_index(page)
>>> held.index("saikoroLazySearch") < held.index("bundle.1234")
True
>>> hold_search_index(held) == held  # once only
True
>>> hold_search_index("<p>no bundle</p>")
'<p>no bundle</p>'
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from saikoro.dice import InternalError

__all__ = ["hold_search_index", "shim"]

_BUNDLE = re.compile(r'<script src="[^"]*assets/javascripts/bundle\.[0-9a-f]+\.min\.js"')
_MARK = "saikoroLazySearch"


@cache
def shim() -> str:
    """The shim's source without its leading comment, as an inline ``<script>``."""
    source = (Path(__file__).parent / "assets" / "search-shim.js").read_text(encoding="utf-8")
    body = source[source.index("*/") + 2 :].strip()
    if "</script" in body.lower():  # pragma: no cover - guards against editing the asset
        raise InternalError("search-shim.js must not contain </script")
    return f"<script>{body}</script>"


def hold_search_index(html: str) -> str:
    """``html`` with the shim before Material's bundle script (unchanged without one)."""
    if _MARK in html:
        return html
    match = _BUNDLE.search(html)
    if match is None:
        return html
    return html[: match.start()] + shim() + html[match.start() :]
