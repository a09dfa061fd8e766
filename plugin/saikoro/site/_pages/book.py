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
import html
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, InclusionLevel

from saikoro.scenario import Scenario, volume_id
from saikoro.site._paper import paper_css
from saikoro.site._safe import esc, md_escape, render_markdown

from . import story
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
    "cover_html",
    "demote",
    "handout_sheets_html",
    "print_toc",
    "scenario_cover_html",
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
    title: str,
    parts: Sequence[tuple[Scenario, Rendered]],
    page_title: str = BOOK_TITLE,
    *,
    paper: str | None = None,
    base: Callable[[str], str] = lambda sid: f"../{sid}/",
) -> tuple[str, list[str]]:
    """Markdown of a book page and the HTML of its placeholders (see ``fill_slots``).

    On screen: the title, a list of the scenarios, then each scenario. In print (the
    print-only parts): a cover, the contents (with page numbers once ``saikoro pdf`` knows
    them: :func:`print_toc`), each scenario from a new page with its handouts at its end
    on pages to cut out and hand to the players, then the colophon. ``paper``: the
    author's paper (the page asks the browser's print for it); ``base``: the URL of a
    scenario's folder from the page (its images).
    """
    out = [
        "---\n",
        f"title: {page_title}\n",
        "search:\n  exclude: true\n",  # each scenario is already indexed on its own page
        "---\n\n",
        f"# {md_escape(title)}\n\n",
    ]
    slots: list[str] = []
    toc = [
        '<nav class="saikoro-book-toc saikoro-screen-only">'
        '<p class="saikoro-card-title">目次</p><ol>'
    ]
    for scenario, _ in parts:
        toc.append(
            f'<li><a href="#book-{esc(scenario.id)}">{esc(scenario.title)}</a>'
            f'<span class="saikoro-meta">（{esc(system_name(scenario.system))}）</span></li>'
        )
    toc.append("</ol></nav>")
    settings = ""
    if paper is not None:
        settings = (
            f'<style media="print">{paper_css(paper)}</style>'
            f'<div class="saikoro-print-settings" data-saikoro-paper="{esc(paper)}" hidden></div>'
        )
    scenarios = [s for s, _ in parts]
    slots.append(settings + cover_html(title, scenarios) + "".join(toc) + TOC_PLACEHOLDER)
    out.append(SLOT.format(0) + "\n\n")
    for scenario, rendered in parts:
        body = rendered.markdown
        offset = len(slots)
        body = _SLOT.sub(functools.partial(_renumber, offset), body)
        slots.extend(rendered.slots)
        slots.append(
            f'<section class="saikoro-book-scenario" id="book-{esc(scenario.id)}"'
            f' data-scenario="{esc(scenario.id)}">{scenario_cover_html(scenario)}'
        )
        out.append(SLOT.format(len(slots) - 1) + "\n\n")
        out.append(demote(body) + "\n\n")
        slots.append(
            handout_sheets_html(scenario, base(scenario.id))
            + '<div class="saikoro-print-only saikoro-scenario-colophon">'
            '<p class="saikoro-colophon-head">奥付</p>'
            f"{colophon_html(scenario.title, [scenario])}</div></section>"
        )
        out.append(SLOT.format(len(slots) - 1) + "\n\n")
    slots.append('<section class="saikoro-book-colophon">')
    out.append(SLOT.format(len(slots) - 1) + "\n\n")
    out.append("## 奥付\n\n")
    slots.append(colophon_html(title, scenarios) + "</section>")
    out.append(SLOT.format(len(slots) - 1) + "\n\n")
    return "".join(out), slots


def _facts(scenario: Scenario) -> list[tuple[str, str]]:
    """(label, value) of a scenario's facts: system, players, play time, author."""
    model = scenario.model
    facts = [("システム", system_name(scenario.system))]
    if model.players is not None:
        facts.append(("プレイヤー", f"{model.players}人"))
    if model.playtime:
        facts.append(("プレイ時間", model.playtime))
    if model.author:
        facts.append(("作者", model.author))
    return facts


def cover_html(title: str, scenarios: Sequence[Scenario]) -> str:
    """The book's cover (print only): its title and each scenario with its facts."""
    items = "".join(
        f'<li data-scenario="{esc(s.id)}"><span class="saikoro-cover-name">{esc(s.title)}</span>'
        f'<span class="saikoro-cover-facts">{esc(" ／ ".join(v for _, v in _facts(s)))}</span></li>'
        for s in scenarios
    )
    count = f"シナリオ集（{len(scenarios)}本）" if len(scenarios) > 1 else "シナリオ"
    return (
        '<div class="saikoro-print-only saikoro-cover saikoro-book-cover">'
        f'<p class="saikoro-cover-title">{esc(title)}</p>'
        f'<p class="saikoro-cover-kind">{esc(count)}</p>'
        f'<ol class="saikoro-cover-list">{items}</ol></div>'
    )


def scenario_cover_html(scenario: Scenario) -> str:
    """A scenario's own cover (print only, when ``saikoro pdf --scenario`` prints it
    alone): its title and facts."""
    facts = "".join(f"<div><dt>{esc(k)}</dt><dd>{esc(v)}</dd></div>" for k, v in _facts(scenario))
    return (
        '<div class="saikoro-print-only saikoro-cover saikoro-scenario-cover">'
        f'<p class="saikoro-cover-title">{esc(scenario.title)}</p>'
        f'<dl class="saikoro-cover-dl">{facts}</dl></div>'
    )


def handout_sheets_html(scenario: Scenario, base: str) -> str:
    """The scenario's handouts on pages of their own (print only), after its last section:
    one card per handout, its edge a line to cut along, holding what that player may read
    (the handout's public part and its secret) and nothing else."""
    handouts = scenario.model.handouts
    if not handouts:
        return ""
    cards = []
    for handout in handouts:
        secret = ""
        if handout.secret:
            secret = (
                '<div class="saikoro-secret"><p class="saikoro-secret-label">'
                f"秘匿（{esc(handout.pc)}のプレイヤーだけが読む）</p>"
                f"{render_markdown(handout.secret)}</div>"
            )
        cards.append(
            '<div class="saikoro-sheet">'
            f'<p class="saikoro-sheet-head">{esc(scenario.title)}　ハンドアウト</p>'
            f'<p class="saikoro-sheet-pc">{esc(story.handout_title(handout))}</p>'
            f"{story.image_html(scenario, handout.image, base)}"
            f'<div class="saikoro-sheet-text">{render_markdown(handout.text)}</div>'
            f"{secret}</div>"
        )
    sheets = esc(story.anchor(scenario.id, "handouts", "sheets"))
    return (
        f'<div class="saikoro-print-only saikoro-sheets" id="{sheets}">'
        '<p class="saikoro-sheets-title">ハンドアウト（プレイヤーに渡す）</p>'
        '<p class="saikoro-note">点線で切り取って、それぞれのPCのプレイヤーに渡してください。'
        "秘匿はそのプレイヤーだけが読みます。</p>"
        f"{''.join(cards)}</div>"
    )


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


TOC_PLACEHOLDER = '<nav class="saikoro-print-only saikoro-print-toc" aria-label="目次"></nav>'
"""Where :func:`print_toc` puts the printed contents (known once the page is rendered)."""

_TOC_PARTS = re.compile(
    r'<section class="saikoro-book-scenario" id="book-([^"]+)"'
    r'|<section class="saikoro-book-colophon">'
    r'|<h([23]) id="([^"]+)"[^>]*>(.*?)</h\2>'
    r'|<div class="saikoro-print-only saikoro-sheets" id="([^"]+)"',
    re.S,
)
_TAG = re.compile(r"<[^>]+>")


def _heading_text(inner: str) -> str:
    """A heading's text (its permalink dropped), as HTML."""
    inner = re.sub(r'<a class="headerlink"[^>]*>.*?</a>', "", inner, flags=re.S)
    return esc(html.unescape(_TAG.sub("", inner)).strip())


def _toc_entry(text: str, target: str, css: str) -> str:
    return (
        f'<li class="{css}"><a href="#{esc(target)}"><span class="saikoro-toc-text">{text}</span>'
        f'<span class="saikoro-toc-leader"></span>'
        f'<span class="saikoro-page" data-page-of="{esc(target)}"></span></a>'
    )


def print_toc(content: str) -> str:
    """The rendered book page with its printed contents filled in: each scenario and its
    sections, its handouts to hand out, and the colophon, each linking to where it starts
    (``saikoro pdf`` reads where each link's target lands and writes its page number in
    the ``data-page-of`` span: :mod:`saikoro.site._pdf`)."""
    if TOC_PLACEHOLDER not in content:
        return content
    items: list[str] = []
    scenario: str | None = None
    sections: list[str] = []

    def close() -> None:
        if scenario is not None:
            items.append(f'<ol class="saikoro-toc-sections">{"".join(sections)}</ol></li>')
            sections.clear()

    after_title = False
    for match in _TOC_PARTS.finditer(content):
        sid, level, target, inner, sheets = match.groups()
        if sid is not None:
            close()
            scenario = html.unescape(sid)
            after_title = True
            continue
        if match.group(0).startswith("<section"):
            close()
            scenario = None
            continue
        if sheets is not None:
            if scenario is not None:
                sections.append(
                    _toc_entry("ハンドアウト（配布用）", html.unescape(sheets), "") + "</li>"
                )
            continue
        text = _heading_text(inner)
        target = html.unescape(target)
        rest = content[match.end() : match.end() + 300]
        if "saikoro-free" in rest or rest.lstrip().startswith('<div class="saikoro-room"'):
            continue  # buttons (the free roller, the VTT room): nothing to print
        if level == "2" and scenario is not None and after_title:
            items.append(
                _toc_entry(text, f"book-{scenario}", "saikoro-toc-scenario").replace(
                    "<li ", f'<li data-scenario="{esc(scenario)}" ', 1
                )
            )
            after_title = False
        elif level == "3" and scenario is not None:
            sections.append(_toc_entry(text, target, "") + "</li>")
        elif level == "2" and scenario is None:
            items.append(_toc_entry(text, target, "saikoro-toc-end") + "</li>")
    close()
    nav = (
        '<nav class="saikoro-print-only saikoro-print-toc" aria-label="目次">'
        f'<p class="saikoro-toc-title">目次</p><ol class="saikoro-toc">{"".join(items)}</ol></nav>'
    )
    return content.replace(TOC_PLACEHOLDER, nav, 1)


def book_files(
    store: ScenarioBook,
    config: MkDocsConfig,
    book: BookResult,
    prefix: str,
    title: str,
    *,
    roller: bool,
    ctx: BuildContext,
    paper: str | None = None,
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

    def base(scenario_id: str) -> str:
        return f"../{scenario_id}/" if directory_urls else f"{scenario_id}/"

    out = []
    split = volumes(len(parts))
    for stem, first, last in split:
        name = BOOK_TITLE if len(split) == 1 else f"{BOOK_TITLE} {first}〜{last}"
        markdown, slots = book_page(title, parts[first - 1 : last], name, paper=paper, base=base)
        uri = f"{prefix}/{stem}.md"
        store.slots[uri] = slots
        # the nav lists the first volume (see ._navigation); the index page links every one
        out.append(store._file(config, uri, markdown, slots, InclusionLevel.NOT_IN_NAV))
    return out
