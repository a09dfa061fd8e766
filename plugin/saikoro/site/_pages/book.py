"""The whole book for print (``<prefix>/book.md``): a table of contents and every
scenario, each starting on a new printed page. Printing it (or ``page.pdf`` in Chromium)
gives the book as a PDF; ``saikoro.css`` holds the print stylesheet. A book of more than
:data:`VOLUME` scenarios is printed in volumes of that many (``book.md``, ``book-2.md``, ...).

>>> demote("# 題\\n\\n## 敵\\n\\ntext #1\\n")
'## 題\\n\\n### 敵\\n\\ntext #1\\n'
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, InclusionLevel

from saikoro.scenario import Scenario, volume_id
from saikoro.site._safe import esc, md_escape

from .index import rights_html
from .scenario import SLOT, Rendered, book_order, system_name, system_order

if TYPE_CHECKING:  # structure imports the pages: a module-level import would be a circle
    from saikoro.site._context import BuildContext
    from saikoro.site._structure import BookResult, ScenarioBook

__all__ = [
    "BOOK_TITLE",
    "VOLUME",
    "book_files",
    "book_page",
    "colophon_html",
    "demote",
    "volumes",
]

BOOK_TITLE = "印刷用（全シナリオ）"

VOLUME = 100
"""Scenarios per print page. One page for a whole 1,000-scenario book is 51 MB of HTML (no
browser prints it comfortably, and the build holds 600 MB instead of 270 MB), and under
``mkdocs serve`` every edit re-renders it (4 s instead of 0.7 s after one edit)."""


def volumes(count: int) -> list[tuple[str, int, int]]:
    """(page stem, first, last scenario number from 1) of each print volume of ``count``.

    >>> volumes(3), volumes(250)[1:]
    ([('book', 1, 3)], [('book-2', 101, 200), ('book-3', 201, 250)])
    """
    return [
        (volume_id(k + 1), first + 1, min(count, first + VOLUME))
        for k, first in enumerate(range(0, count, VOLUME))
    ]


_HEADING = re.compile(r"^(#{1,5}) ", re.M)
_SLOT = re.compile(r"<!-- saikoro-slot (\d+) -->")


def _renumber(offset: int, match: re.Match[str]) -> str:
    return SLOT.format(int(match.group(1)) + offset)


def demote(markdown: str) -> str:
    """Every ATX heading one level down (the book's own title is the only ``#``)."""
    return _HEADING.sub(lambda m: "#" + m.group(1) + " ", markdown)


def book_page(
    title: str, parts: Sequence[tuple[Scenario, Rendered]], page_title: str = BOOK_TITLE
) -> tuple[str, list[str]]:
    """Markdown of a book page and the HTML of its placeholders (see ``fill_slots``)."""
    out = [
        "---\n",
        f"title: {page_title}\n",
        "search:\n  exclude: true\n",  # each scenario is already indexed on its own page
        "---\n\n",
        f"# {md_escape(title)}\n\n",
    ]
    slots: list[str] = []
    toc = ['<nav class="saikoro-book-toc"><p class="saikoro-card-title">目次</p><ol>']
    for scenario, _ in parts:
        toc.append(
            f'<li><a href="#book-{esc(scenario.id)}">{esc(scenario.title)}</a>'
            f'<span class="saikoro-meta">（{esc(system_name(scenario.system))}）</span></li>'
        )
    toc.append("</ol></nav>")
    slots.append("".join(toc))
    out.append(SLOT.format(0) + "\n\n")
    for scenario, rendered in parts:
        body = rendered.markdown
        offset = len(slots)
        body = _SLOT.sub(functools.partial(_renumber, offset), body)
        slots.extend(rendered.slots)
        slots.append(f'<div class="saikoro-book-part" id="book-{esc(scenario.id)}"></div>')
        out.append(SLOT.format(len(slots) - 1) + "\n\n")
        out.append(demote(body) + "\n\n")
    out.append("## 奥付\n\n")
    slots.append(colophon_html(title, [s for s, _ in parts]))
    out.append(SLOT.format(len(slots) - 1) + "\n\n")
    return "".join(out), slots


def colophon_html(title: str, scenarios: Sequence[Scenario]) -> str:
    """The book's colophon (奥付): its title, each scenario with its author, the rights
    notices of its systems, and the tool that made it."""
    rows = "".join(
        f"<li>{esc(s.title)}"
        + (f"（作者：{esc(s.model.author)}）" if s.model.author else "")
        + f'<span class="saikoro-meta">　{esc(system_name(s.system))}</span></li>'
        for s in scenarios
    )
    systems = sorted({s.system for s in scenarios}, key=system_order)
    return (
        f'<div class="saikoro-colophon"><p class="saikoro-card-title">{esc(title)}</p>'
        f"<p>収録シナリオ</p><ol>{rows}</ol>"
        f"<p>権利表記</p>{rights_html(systems)}"
        '<p class="saikoro-meta">saikoro で作成</p></div>'
    )


def book_files(
    store: ScenarioBook,
    config: MkDocsConfig,
    book: BookResult,
    prefix: str,
    title: str,
    *,
    roller: bool,
    ctx: BuildContext,
) -> list[File]:
    """The generated ``<prefix>/book.md`` and further volumes (their slots recorded in
    ``store.slots``).

    ``store`` is the plugin's :class:`~saikoro.site._structure.ScenarioBook`; the book
    reuses the renders of the scenario pages (same cache key), with the links to the
    exports re-pointed from the scenario's folder to the book's (every volume sits next to
    the scenario pages, so the same links serve them all).
    """
    prefix = prefix.strip("/")
    directory_urls = bool(config.use_directory_urls)
    parts = []
    seen: set[str] = set()
    for scenario in sorted(book.scenarios, key=book_order):
        if scenario.id in seen:
            continue
        seen.add(scenario.id)
        zip_href = "./" if directory_urls else f"{scenario.id}/"
        rendered = store.render(scenario, ctx, roller=roller, zip_href=zip_href)
        if directory_urls:
            moved = f'href="../{esc(scenario.id)}/'
            shown = f'src="../{esc(scenario.id)}/'
            rendered = dataclasses.replace(
                rendered,
                slots=[
                    slot.replace('href="./', moved).replace('src="./', shown)
                    for slot in rendered.slots
                ],
            )
        parts.append((scenario, rendered))
    out = []
    split = volumes(len(parts))
    for stem, first, last in split:
        name = BOOK_TITLE if len(split) == 1 else f"{BOOK_TITLE} {first}〜{last}"
        markdown, slots = book_page(title, parts[first - 1 : last], name)
        uri = f"{prefix}/{stem}.md"
        store.slots[uri] = slots
        # the nav lists the first volume (see ._navigation); the index page links every one
        out.append(store._file(config, uri, markdown, slots, InclusionLevel.NOT_IN_NAV))
    return out
