"""The book in the site's navigation: its index, its systems and the pages of the whole
book, never a list of every scenario.

Every page of the site carries the navigation, so a navigation listing each scenario
makes the site grow with the square of the book (500 scenarios made 102 MB, 2,000 made
1.1 GB). The book's section holds the index page, one entry per system (its first listing
page, see :mod:`._pages.index`) and the pages of the whole book (the print book...:
:attr:`BookNav.after`): a size that does not grow with the book. Scenario pages and
further listing pages are not in the navigation; each is placed under the entry it
belongs to (a scenario under its system), so the theme opens the book's section and
marks the system on it, and its breadcrumbs lead back.

With an explicit ``nav`` the plugin rewrites it before MkDocs reads it (``on_files`` runs
first): an entry pointing at ``<prefix>/index.md`` becomes a section holding the index
and the entries; without such an entry the section is appended. Without a ``nav``, MkDocs
lists the files itself, and :func:`arrange_nav` puts the entries into the section of the
index's folder once MkDocs has made it (``on_nav``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure import StructureItem
from mkdocs.structure.files import Files
from mkdocs.structure.nav import Navigation, Section
from mkdocs.structure.pages import Page

__all__ = ["BookNav", "NavItem", "add_to_nav", "arrange_nav", "expand_nav"]

NavItem = object
"""An entry of ``nav``: a page path, or ``{title: path or list of entries}`` (YAML data)."""


@dataclass
class BookNav:
    """Where the book's pages go in the navigation (made with its pages, each build)."""

    index: str
    """The index page (``<prefix>/index.md``)."""
    title: str
    """The title of the book's section (safe for the theme: see ``safe_title``)."""
    systems: list[tuple[str, str]] = field(default_factory=list)
    """(title, page) of each system's entry, listed after the index, in order."""
    after: list[tuple[str, str]] = field(default_factory=list)
    """(title, page) listed last, in order: pages of the whole book (the print book...)."""
    parents: dict[str, str] = field(default_factory=dict)
    """Page not in the navigation -> the listed page it belongs under."""
    sequence: list[str] = field(default_factory=list)
    """The scenario pages in the book's order (their previous/next links)."""

    def listed(self) -> list[str]:
        """The pages the navigation lists."""
        return [self.index, *(uri for _, uri in (*self.systems, *self.after))]


def _section(index: str, title: str, pages: Sequence[NavItem]) -> dict[str, list[NavItem]]:
    return {title: [index, *pages]}


def expand_nav(nav: list[NavItem], index: str, title: str, pages: Sequence[NavItem]) -> bool:
    """Replace the entry of ``index`` in ``nav`` (recursively) by a section; found?

    >>> nav = ["index.md", {"本": "scenarios/index.md"}]
    >>> expand_nav(nav, "scenarios/index.md", "シナリオ", ["scenarios/a.md"])
    True
    >>> nav[1]
    {'本': ['scenarios/index.md', 'scenarios/a.md']}
    """
    for i, item in enumerate(nav):
        if item == index:
            nav[i] = _section(index, title, pages)
            return True
        if isinstance(item, dict):
            for key, value in item.items():
                if value == index:
                    item[key] = [index, *pages]
                    return True
                if isinstance(value, list):
                    if index in value:
                        value[:] = [v for v in value if v not in pages]
                        at = value.index(index)
                        value[at + 1 : at + 1] = list(pages)
                        return True
                    if expand_nav(value, index, title, pages):
                        return True
    return False


def add_to_nav(config: MkDocsConfig, plan: BookNav) -> None:
    """Put the book's index and entries into an explicit ``nav`` (no-op without one)."""
    nav = config.nav
    if nav is None:
        return
    entries = [*plan.systems, *plan.after]
    pages: list[NavItem] = [{title: uri} for title, uri in entries]
    if not expand_nav(nav, plan.index, plan.title, pages):
        nav.append(_section(plan.index, plan.title, pages))


def _pages(items: Sequence[StructureItem]) -> list[Page]:
    """The pages of ``items``, depth first (as MkDocs lists the pages of the nav)."""
    out: list[Page] = []
    for item in items:
        if isinstance(item, Page):
            out.append(item)
        elif isinstance(item, Section):
            out.extend(_pages(item.children))
    return out


def _link(pages: Sequence[Page]) -> None:
    """Previous/next links along ``pages`` (as MkDocs links the pages of the nav)."""
    for i, page in enumerate(pages):
        page.previous_page = pages[i - 1] if i else None
        page.next_page = pages[i + 1] if i + 1 < len(pages) else None


def arrange_nav(nav: Navigation, files: Files, plan: BookNav, *, listed: bool) -> None:
    """Place the book's pages in ``nav`` (``on_nav``).

    ``listed``: the site has an explicit ``nav`` (then :func:`add_to_nav` listed the
    entries already); else the entries are put into the section of the index's folder,
    which gets the book's title. Either way each page not in the navigation gets its
    parent (the theme opens and marks the entry it belongs to) and the scenario pages
    previous/next links in the book's order.
    """

    def page(uri: str) -> Page | None:
        file = files.get_file_from_path(uri)
        return None if file is None else file.page

    index = page(plan.index)
    if index is None:
        return
    if not listed:
        section = index.parent
        siblings: list[StructureItem] = section.children if section is not None else nav.items
        systems = [p for p in (page(uri) for _, uri in plan.systems) if p is not None]
        last = [p for p in (page(uri) for _, uri in plan.after) if p is not None]
        ours = [index, *systems, *last]
        rest = [c for c in siblings if all(c is not p for p in ours)]
        siblings[:] = [index, *systems, *rest, *last]
        for item in siblings:
            item.parent = section
        if section is not None:
            section.title = plan.title
        nav.pages = _pages(nav.items)
        _link(nav.pages)
    for uri, above in plan.parents.items():
        below, parent = page(uri), page(above)
        if below is not None and parent is not None and below is not parent:
            # a page as the parent: the theme reads only .active, .title, .url and
            # .children of an ancestor, which a page has (Page.active marks it too)
            below.parent = parent  # type: ignore[assignment]
    scenarios = [p for p in (page(uri) for uri in plan.sequence) if p is not None]
    _link(scenarios)
