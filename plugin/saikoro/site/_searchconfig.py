"""Japanese search that finds whole terms, the rules first.

The plugin serves its own search worker on a Japanese site (``assets/search.js``,
put in place of mkdocs-material's in each page's configuration, :func:`use_worker`): it
speaks Material's protocol, so the theme's search box and results are unchanged, and
reads Japanese with the browser's dictionary segmenter (``Intl.Segmenter``), the index and
the query alike, so 「回避」 finds 回避, not 回る and 回復. Each entry of the search index
gets the kind of its page (:func:`add_tiers`: rules pages first, then scenarios and other
pages, then the rulings and commands lists, then the author guide), which orders the
results before their scores.

Why the browser's segmenter: it is ICU's dictionary-based word breaker, in every current
browser and in its workers, at no download; a dictionary segmenter at build time
(lindera, sudachi, janome: 15-70 MB of dictionary in every author's install) would still
need the query cut in the browser the same way, and one in the browser (kuromoji's
dictionary is 17 MB, lindera's WebAssembly build more) costs a phone far more than the
page. TinySegmenter (lunr's, which Material uses) is statistical and cut the index and the
query differently. Without ``Intl.Segmenter`` the worker cuts text into runs of one script.

Material's own worker stays in place for a site of another language; for it, too, the
separator below splits katakana from kanji:

Japanese search that finds katakana+kanji words (チェイス表, 鉄塔崩落表).

mkdocs-material's search indexes Japanese with TinySegmenter, which splits チェイス表
into チェイス / 表; a query, though, is segmented only on runs of kanji, so チェイス表
stays one term and matches nothing. Adding zero-width splits at katakana/kanji
boundaries to the search ``separator`` makes the index and the query split alike.

The plugin adds them to Material's search configuration of a Japanese site, to the
separator the author chose or Material's default, unless they are there already.

>>> with_boundaries(r"[\\s\\-]+") == r"[\\s\\-]+|" + BOUNDARIES
True
>>> with_boundaries(with_boundaries(r"[\\s]+")) == with_boundaries(r"[\\s]+")
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import PluginCollection
from mkdocs.structure.files import File

__all__ = [
    "BOUNDARIES",
    "TIERS",
    "WORKER",
    "add_tiers",
    "japanese_search",
    "page_tier",
    "use_worker",
    "with_boundaries",
    "worker_file",
]

WORKER = "assets/saikoro/search.js"
"""The site-relative path of saikoro's search worker."""

TIERS = {"rules": 0, "scenario": 1, "page": 1, "reference": 2, "guide": 3}
"""The order of the kinds of page in search results (lower first)."""

_MATERIAL_WORKER = re.compile(
    r'("search":\s*")([^"]*?)assets/javascripts/workers/search\.[0-9a-f]+\.min\.js(")'
)

BOUNDARIES = r"(?<=[\u30a0-\u30ff])(?=[\u4e00-\u9fff])|(?<=[\u4e00-\u9fff])(?=[\u30a0-\u30ff])"
"""Zero-width separators between katakana and kanji (both ways)."""


def with_boundaries(separator: str) -> str:
    """``separator`` that also splits at katakana/kanji boundaries."""
    if BOUNDARIES in separator:
        return separator
    return f"{separator}|{BOUNDARIES}" if separator else BOUNDARIES


def japanese_search(plugins: PluginCollection) -> bool:
    """Extend the separator of Material's search on a Japanese site; whether it did.

    Runs after the search plugin's own ``on_config`` (which fills in the defaults).
    """
    search = plugins.get("material/search") or plugins.get("search")
    options = getattr(search, "config", None)
    if options is None or "separator" not in options or "lang" not in options:
        return False
    if not options.get("enabled", True) or "ja" not in (options["lang"] or ()):
        return False
    separator = options["separator"]
    if not separator:
        return False
    options["separator"] = with_boundaries(str(separator))
    # Material copies its options into the index it builds (SearchIndex(**config))
    index = getattr(search, "search_index", None)
    copied = getattr(index, "config", None)
    if isinstance(copied, dict) and "separator" in copied:
        copied["separator"] = options["separator"]
    return True


def use_worker(html: str) -> str:
    """A page's HTML with Material's search worker replaced by saikoro's (in the page's
    ``__config``; unchanged when there is none).

    >>> use_worker('{"search": "../assets/javascripts/workers/search.a7633da7.min.js"}')
    '{"search": "../assets/saikoro/search.js"}'
    """
    return _MATERIAL_WORKER.sub(lambda m: f"{m.group(1)}{m.group(2)}{WORKER}{m.group(3)}", html)


def page_tier(src_uri: str, meta: Mapping[str, object], *, scenario: bool) -> int:
    """Where a page's sections stand in search results (:data:`TIERS`).

    A rules page (front matter ``system:``) first; scenario pages and other pages next;
    the generated rulings and commands lists, then the author guide (``authoring/``).
    A page's front matter may set its own: ``search: {tier: 3}``.

    >>> page_tier("systems/getb.md", {"system": "getb"}, scenario=False)
    0
    >>> page_tier("rulings.md", {}, scenario=False)
    2
    >>> page_tier("authoring/ci.md", {}, scenario=False)
    3
    """
    search = meta.get("search")
    if isinstance(search, Mapping) and isinstance(search.get("tier"), int):
        return int(search["tier"])
    if scenario:
        return TIERS["scenario"]
    if meta.get("system"):
        return TIERS["rules"]
    if src_uri in {"rulings.md", "commands.md"}:
        return TIERS["reference"]
    if src_uri.startswith("authoring/"):
        return TIERS["guide"]
    return TIERS["page"]


def add_tiers(site_dir: str, tiers: Mapping[str, int]) -> bool:
    """Write each entry's page tier into the built search index (by the page's URL, the
    entry's location before ``#``); whether there was an index to write to."""
    path = Path(site_dir) / "search" / "search_index.json"
    if not path.is_file():
        return False
    index = json.loads(path.read_text(encoding="utf-8"))
    for doc in index.get("docs", []):
        page = str(doc.get("location", "")).split("#", 1)[0]
        doc["tier"] = tiers.get(page, TIERS["page"])
    path.write_text(json.dumps(index, separators=(",", ":"), ensure_ascii=False), "utf-8")
    return True


def worker_file(config: MkDocsConfig) -> File:
    """saikoro's search worker, as a file of the site (:data:`WORKER`)."""
    source = Path(__file__).parent / "assets" / "search.js"
    return File.generated(config, WORKER, abs_src_path=str(source))
