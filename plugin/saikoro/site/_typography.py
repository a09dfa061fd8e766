"""Japanese line breaks: a newline between two Japanese characters is not a space.

Markdown (and HTML) turn a soft line break into a space, which is right between English
words and wrong in Japanese: 「示します。\\n起点の」 must read 「示します。起点の」.
CSS's rule for this (segment break transformation) is not implemented by browsers, and
no maintained Python-Markdown extension does it (``mdit-py-cjk-friendly`` is for
markdown-it-py), so this module does, in three places:

* :class:`JapaneseLineBreaks`, a Python-Markdown extension (added to every page by the
  plugin, and used for scenario Markdown by :func:`saikoro.site._safe.render_markdown`);
* :func:`join_lines` for plain text from YAML (``|`` blocks), used by ``esc`` and
  ``md_escape``.

>>> join_lines("示します。\\n  起点の\\nHP が\\n0 になる")
'示します。起点の\\nHP が\\n0 になる'
>>> import markdown
>>> markdown.markdown("日本語の\\n文章。\\n\\nEnglish\\ntext", extensions=[JapaneseLineBreaks()])
'<p>日本語の文章。</p>\\n<p>English\\ntext</p>'
"""

from __future__ import annotations

import re

import markdown
from markdown.extensions import Extension
from markdown.postprocessors import Postprocessor

__all__ = ["JAPANESE", "JapaneseLineBreaks", "join_lines"]

JAPANESE = (
    "\u3000-\u303f"  # CJK symbols and punctuation (、。「」)
    "\u3040-\u30ff"  # hiragana, katakana
    "\u31f0-\u31ff"  # katakana extensions
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # kanji
    "\uff01-\uff60\uff61-\uff9f"  # full-width forms, half-width katakana
)
"""Characters between which a line break is not a space (a regex class body)."""

_BREAK = re.compile(rf"(?<=[{JAPANESE}])[ \t]*\r?\n[ \t]*(?=[{JAPANESE}])")
# In HTML a tag may sit at either side of the break: 「**太字**\n次」.
_TAG = r"(?:<[A-Za-z/][^<>]*>)*"
_HTML_BREAK = re.compile(rf"(?<=[{JAPANESE}])({_TAG})[ \t]*\r?\n[ \t]*({_TAG})(?=[{JAPANESE}])")
_INLINE = r"(?:strong|em|b|i|code|a|span|mark|kbd|abbr)"
_SPACE_OPEN = re.compile(rf"(?<=[{JAPANESE}])[ \t]+(<{_INLINE}\b[^<>]*>)(?=[{JAPANESE}])")
_SPACE_CLOSE = re.compile(rf"([{JAPANESE}])(</{_INLINE}>)[ \t]+(?=[{JAPANESE}])")
_KEEP = re.compile(r"(<(pre|code|script|style|textarea)\b[\s\S]*?</\2>)", re.I)


def join_lines(text: str) -> str:
    """``text`` with the line breaks between Japanese characters removed."""
    return _BREAK.sub("", text)


def join_html(html: str) -> str:
    r"""``html`` with the line breaks between Japanese characters removed, outside
    ``<pre>``, ``<code>``, ``<script>``, ``<style>`` and ``<textarea>``.

    Spaces set around an inline element in Japanese text (``使う **能力** と``) go too:
    Japanese is not spaced around emphasis. Spaces next to Latin text stay.

    >>> join_html("使う <strong>能力</strong> と <code>GB3</code> を\n振る")
    '使う<strong>能力</strong>と <code>GB3</code> を振る'
    """
    html = _SPACE_CLOSE.sub(r"\1\2", _SPACE_OPEN.sub(r"\1", html))
    parts = _KEEP.split(html)
    out = []
    skip = 0
    for part in parts:
        if skip:  # the tag-name group of the previous match
            skip -= 1
            continue
        if _KEEP.fullmatch(part):
            out.append(part)
            skip = 1
        else:
            out.append(_HTML_BREAK.sub(r"\1\2", part))
    return "".join(out)


class _Join(Postprocessor):
    def run(self, text: str) -> str:
        return join_html(text)


class JapaneseLineBreaks(Extension):
    """Python-Markdown extension: no space at a soft line break between Japanese characters.

    Runs before raw HTML and code blocks are put back (they are placeholders then), so
    code is never touched.
    """

    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802 (Markdown's API)
        md.postprocessors.register(_Join(md), "saikoro_japanese_breaks", 35)
