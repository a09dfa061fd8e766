"""Scenario pages in an explicit ``nav``: next to the scenario index, or appended.

Without a ``nav`` MkDocs lists every file (generated ones included) by itself. With an
explicit ``nav`` the plugin rewrites it before MkDocs reads it (``on_files`` runs first):
an entry pointing at ``<prefix>/index.md`` becomes a section holding the index and one
entry per scenario; without such an entry the section is appended.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mkdocs.config.defaults import MkDocsConfig

__all__ = ["NavItem", "add_to_nav", "expand_nav"]

NavItem = object
"""An entry of ``nav``: a page path, or ``{title: path or list of entries}`` (YAML data)."""


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


def add_to_nav(
    config: MkDocsConfig,
    prefix: str,
    title: str,
    ids: Sequence[str],
    groups: Mapping[str, str] | None = None,
    *,
    book: tuple[str, str] | None = None,
) -> None:
    """Put the scenario index and pages into an explicit ``nav`` (no-op without one).

    ``ids`` come in the book's order (by system, then id) and stay in it; ``groups``
    (scenario id -> system name): the pages are grouped in one sub-section per system,
    in the order the systems first appear, so a book of many scenarios does not list
    them flat. ``book``: (title, file name) of the print book, listed last.
    """
    nav = config.nav
    if nav is None:
        return
    index = f"{prefix}/index.md"
    pages: list[NavItem] = [f"{prefix}/{i}.md" for i in ids]
    if groups and len(set(groups.values())) > 1:
        by_group: dict[str, list[str]] = {}
        for i in ids:
            by_group.setdefault(groups.get(i, ""), []).append(f"{prefix}/{i}.md")
        pages = [{name: items} for name, items in by_group.items()]
    if book is not None:  # (title, page) of the whole book for print, last
        pages.append({book[0]: f"{prefix}/{book[1]}"})
    if not expand_nav(nav, index, title, pages):
        nav.append(_section(index, title, pages))
