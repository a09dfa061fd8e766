"""Links from the rulings and commands pages to the rules sections they concern.

A rules page (front matter ``system:``) is read as it renders (``on_page_content``): its
sections by heading anchor, with the rulings each links to or names (the anchor of the
ruling on the rulings page, its option name in code, its title in 「」) and the commands
its odds cards show. The rulings and commands pages carry a marker per ruling and per
command (:func:`marker`); once every page has rendered (``on_post_page``), each marker
becomes links to the sections that concern it (:meth:`RuleLinks.fill`), or nothing.

Anchors are the headings' own (readable, stable: see the ``toc`` slugify the plugin sets),
so a link keeps working when a section is added elsewhere on the page.
"""

from __future__ import annotations

import html as html_lib
import posixpath
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from mkdocs.structure.toc import AnchorLink

from ._safe import esc

__all__ = ["RuleLinks", "Section", "marker"]

INDEX = 4
"""A section concerning more rulings than this lists rulings (see :meth:`RuleLinks.matches`)."""
_MARKER = re.compile(r'<p class="saikoro-rule-links" data-(ruling|command)="([^"]*)"></p>')
_HEADING = re.compile(r'<h([1-6])\b[^>]*\bid="([^"]+)"[^>]*>')
_CODE = re.compile(r"<code[^>]*>([\s\S]*?)</code>")
_COMMAND = re.compile(r'data-command="([^"]*)"')
_TAG = re.compile(r"<[^>]+>")


def marker(kind: str, key: str) -> str:
    """The Markdown line replaced by links: ``kind`` is ``ruling`` or ``command``."""
    return f'<p class="saikoro-rule-links" data-{kind}="{esc(key)}"></p>\n\n'


@dataclass(frozen=True)
class Section:
    """A section of a rules page: its heading's anchor and title, and what it names."""

    url: str
    """The page's URL (site-relative, as ``page.url``)."""
    page_title: str
    anchor: str
    title: str
    level: int
    text: str
    """The section's HTML with tags removed (for titles in 「」)."""
    hrefs: frozenset[str]
    codes: tuple[str, ...]
    commands: frozenset[str]


def _titles(items: Iterable[AnchorLink]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        out[item.id] = item.title
        out.update(_titles(item.children))
    return out


def sections(url: str, page_title: str, html: str, toc: Iterable[AnchorLink]) -> list[Section]:
    """The sections of a rendered page (each up to the next heading of any level)."""
    titles = _titles(toc)
    found = list(_HEADING.finditer(html))
    out = []
    for i, match in enumerate(found):
        end = found[i + 1].start() if i + 1 < len(found) else len(html)
        body = html[match.end() : end]
        anchor = match.group(2)
        out.append(
            Section(
                url=url,
                page_title=page_title,
                anchor=anchor,
                title=titles.get(anchor, anchor),
                level=int(match.group(1)),
                text=html_lib.unescape(_TAG.sub("", body)),
                hrefs=frozenset(re.findall(r'href="([^"]*)"', body)),
                codes=tuple(html_lib.unescape(_TAG.sub("", c)) for c in _CODE.findall(body)),
                commands=frozenset(html_lib.unescape(c) for c in _COMMAND.findall(body)),
            )
        )
    return out


@dataclass(frozen=True)
class Topic:
    """What a marker stands for: the system, and what a section that concerns it shows."""

    system: str
    anchor: str = ""
    """The ruling's anchor on the rulings page."""
    names: tuple[str, ...] = ()
    """Option names (matched as words inside code)."""
    title: str = ""
    """The ruling's title (matched in 「」)."""
    commands: tuple[str, ...] = ()
    """Example commands (matched against the section's odds cards)."""


@dataclass
class RuleLinks:
    """The rules pages' sections (by system) and the topics of the markers."""

    by_system: dict[str, list[Section]] = field(default_factory=dict)
    topics: dict[tuple[str, str], Topic] = field(default_factory=dict)
    _breadths: dict[tuple[str, str], int] = field(default_factory=dict)

    def note_page(
        self, system: str, url: str, title: str, html: str, toc: Iterable[AnchorLink]
    ) -> None:
        """Record a rendered rules page (replacing what an earlier build recorded)."""
        kept = [s for s in self.by_system.get(system, []) if s.url != url]
        self.by_system[system] = kept + sections(url, title, html, toc)
        self._breadths.clear()

    @staticmethod
    def concerns(section: Section, topic: Topic) -> bool:
        """Whether ``section`` links to, names or shows ``topic``."""
        if topic.anchor and any(h.endswith("#" + topic.anchor) for h in section.hrefs):
            return True
        if topic.title and f"「{topic.title}」" in section.text:
            return True
        if set(topic.commands) & section.commands:
            return True
        return any(
            re.search(rf"(?<![A-Za-z0-9_]){re.escape(n)}(?![A-Za-z0-9_])", code)
            for n in topic.names
            if n
            for code in section.codes
        )

    def matches(self, topic: Topic) -> list[Section]:
        """The sections that concern ``topic``, deepest first (at most three).

        A section that concerns more than :data:`INDEX` rulings is a list of rulings
        (a page's 「裁定」 summary), not their rule: it is named only when nothing else is.
        """
        found = [s for s in self.by_system.get(topic.system, []) if self.concerns(s, topic)]
        specific = [s for s in found if self._breadth(s) <= INDEX]
        found = specific or found
        found.sort(key=lambda s: -s.level)
        return found[:3]

    def _breadth(self, section: Section) -> int:
        """How many rulings ``section`` concerns."""
        key = (section.url, section.anchor)
        if key not in self._breadths:
            self._breadths[key] = sum(
                1
                for (kind, _), t in self.topics.items()
                if kind == "ruling" and t.system in self.by_system and self.concerns(section, t)
            )
        return self._breadths[key]

    def fill(
        self, output: str, page_url: str, typeset: Callable[[str], str] = lambda html: html
    ) -> str:
        """``output`` (a page's final HTML) with every marker replaced by its links, each
        paragraph of links passed through ``typeset`` (the page's typography: its phrase
        breaks, added here as the links come after the page was set)."""

        def links(match: re.Match[str]) -> str:
            topic = self.topics.get((match.group(1), html_lib.unescape(match.group(2))))
            found = self.matches(topic) if topic is not None else []
            if not found:
                return ""
            items = "、".join(
                f'<a href="{esc(_relative(page_url, s.url))}#{esc(s.anchor)}">'
                f"{esc(s.page_title)}「{esc(s.title)}」</a>"
                for s in found
            )
            return typeset(f'<p class="saikoro-rule-links">ルールの該当箇所：{items}</p>')

        return _MARKER.sub(links, output)


def _relative(from_url: str, to_url: str) -> str:
    """``to_url`` relative to the page at ``from_url`` (both site-relative page URLs)."""
    base = from_url if from_url.endswith("/") or not from_url else posixpath.dirname(from_url)
    rel = posixpath.relpath(to_url or ".", base.rstrip("/") or ".")
    return rel + "/" if to_url.endswith("/") and not rel.endswith("/") else rel
