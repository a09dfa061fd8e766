"""Japanese search that finds katakana+kanji words (チェイス表, 鉄塔崩落表).

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

from mkdocs.plugins import PluginCollection

__all__ = ["BOUNDARIES", "japanese_search", "with_boundaries"]

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
