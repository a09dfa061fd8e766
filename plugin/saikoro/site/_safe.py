"""Escaping for text that comes from scenario files: nothing in a scenario may run script.

Plain fields go through :func:`esc` (HTML) or :func:`md_escape` (a literal inside
generated Markdown). ``summary`` and effect texts are Markdown: :func:`render_markdown`
escapes every ``<``/``>``/``&`` *before* Markdown sees the text (so raw HTML cannot pass)
and drops links and images whose URL has a scheme other than http(s)/mailto
(``javascript:``, ``data:``, ``vbscript:`` ...).

>>> esc('<script>"x"</script>')
'&lt;script&gt;&quot;x&quot;&lt;/script&gt;'
>>> render_markdown('**a** <img src=x onerror=alert(1)>')
'<p><strong>a</strong> &lt;img src=x onerror=alert(1)&gt;</p>'
>>> render_markdown('[x](javascript:alert(1))')
'<p>x</p>'
>>> render_markdown('[x](https://example.com/)', inline=True)
'<a href="https://example.com/" rel="nofollow noopener">x</a>'
"""

from __future__ import annotations

import functools
import html
import re
import xml.etree.ElementTree as ET

import markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

from ._typography import JapaneseLineBreaks, join_lines

__all__ = ["esc", "is_safe_url", "md_escape", "render_markdown", "safe_title"]

_SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.\-]*):")
_CONTROL = re.compile(r"[\x00-\x20\x7f-\x9f]+")
_LOCAL_SRC = re.compile(r"^(?![/\\]{2})[A-Za-z0-9_.~/\-]+$")
"""Image sources allowed in scenario Markdown: plain site-relative paths only."""
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!])")
"""Characters Python-Markdown unescapes after a backslash (its default ESCAPED_CHARS)."""
_MD_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "|": "&#124;", "~": "&#126;"}
_MD_ENTITY = re.compile("[&<>|~]")


def esc(text: object) -> str:
    """HTML-escape ``text`` (quotes too, so it is safe in attribute values).

    A line break between Japanese characters is dropped (it would show as a space).
    """
    return html.escape(join_lines(str(text)), quote=True)


def md_escape(text: object) -> str:
    r"""``text`` as a literal inside Markdown: HTML-escaped, Markdown syntax backslashed.

    Markdown syntax gets a backslash; ``& < > | ~`` become entities (a backslash before
    them would show in some configurations).

    >>> md_escape('[x](javascript:1) <b>|~')
    '\\[x\\]\\(javascript:1\\) &lt;b&gt;&#124;&#126;'
    """
    flat = " ".join(join_lines(str(text)).split())
    escaped = _MD_SPECIAL.sub(r"\\\1", flat)
    return _MD_ENTITY.sub(lambda m: _MD_ENTITIES[m.group(0)], escaped)


_TITLE_SWAP = str.maketrans({"<": "＜", ">": "＞", "&": "＆", '"': "＂", "'": "＇"})


def safe_title(text: object) -> str:
    """A page title safe for every place a theme puts it, escaped or not.

    Themes render ``page.title`` unescaped, sometimes through ``striptags`` (which
    unescapes entities) and inside attributes. So the title MkDocs gets has no HTML
    special character at all: they are swapped for their full-width look-alikes.

    >>> safe_title('</title><b a="x">&')
    '＜/title＞＜b a=＂x＂＞＆'
    """
    return " ".join(str(text).split()).translate(_TITLE_SWAP)


def is_safe_url(url: str) -> bool:
    """Whether a link target is harmless: relative, or http(s)/mailto.

    >>> is_safe_url(" JaVa\\tScript:alert(1)"), is_safe_url("../a.html"), is_safe_url("data:x")
    (False, True, False)
    """
    cleaned = url
    for _ in range(4):  # entities may be nested (&amp;#106;): decode until stable
        decoded = html.unescape(cleaned)
        if decoded == cleaned:
            break
        cleaned = decoded
    cleaned = _CONTROL.sub("", cleaned)
    match = _SCHEME.match(cleaned)
    return match is None or match.group(1).lower() in _SAFE_SCHEMES


class _DropUnsafe(Treeprocessor):
    """Unwrap links with unsafe targets, drop images that point anywhere but the site."""

    def run(self, root: ET.Element) -> None:
        for parent in list(root.iter()):
            for index, child in reversed(list(enumerate(parent))):
                if child.tag == "a":
                    if is_safe_url(child.get("href", "")):
                        child.set("rel", "nofollow noopener")
                    else:
                        _unwrap(parent, index, child)
                elif child.tag == "img":
                    src = child.get("src", "")
                    if not _LOCAL_SRC.match(src):
                        _replace_with_text(parent, index, child, child.get("alt", ""))


def _unwrap(parent: ET.Element, index: int, child: ET.Element) -> None:
    """Replace ``child`` by its text and children."""
    tail = child.tail or ""
    kids = list(child)
    parent.remove(child)
    text = child.text or ""
    if index == 0:
        parent.text = (parent.text or "") + text
    else:
        prev = parent[index - 1]
        prev.tail = (prev.tail or "") + text
    for offset, kid in enumerate(kids):
        parent.insert(index + offset, kid)
    if kids:
        last = kids[-1]
        last.tail = (last.tail or "") + tail
    elif index == 0:
        parent.text = (parent.text or "") + tail
    else:
        prev = parent[index - 1]
        prev.tail = (prev.tail or "") + tail


def _replace_with_text(parent: ET.Element, index: int, child: ET.Element, text: str) -> None:
    child.tail = text + (child.tail or "")
    child.text = ""
    _unwrap(parent, index, child)


class _SafeExtension(Extension):
    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802 (Markdown's API)
        md.treeprocessors.register(_DropUnsafe(md), "saikoro_drop_unsafe", 0)


_md = markdown.Markdown(extensions=["sane_lists", _SafeExtension(), JapaneseLineBreaks()])


def render_markdown(text: str, *, inline: bool = False) -> str:
    """Render scenario Markdown with raw HTML escaped and unsafe URLs dropped.

    Args:
        text: Markdown written by a scenario author.
        inline: drop the wrapping ``<p>`` of a single-paragraph result.
    """
    return _render(str(text), inline)


@functools.lru_cache(maxsize=8192)
def _render(text: str, inline: bool) -> str:
    _md.reset()
    out: str = _md.convert(html.escape(str(text), quote=False))
    if inline and out.startswith("<p>") and out.endswith("</p>") and out.count("<p>") == 1:
        out = out[3:-4]
    return out
