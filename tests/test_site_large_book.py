"""A book larger than the plugin's caches, and pages that cost nothing per nav entry.

Two costs grew with the square of a book's size or doubled it, both measured on the
1,000-scenario benchmark (``bench/bench_build.py``): every scenario page carried a front
matter, and mkdocs-material's nav template looks up three more keys of every entry whose
``meta`` is not empty on every page; and the rendered-page cache was smaller than the
book, so the whole-book page rendered every scenario a second time.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config

from saikoro.site import SaikoroPlugin
from saikoro.site import _structure as structure
from saikoro.site._safe import safe_title
from test_site_support import NAME, TWO_D6, Q

HOOK = """\
import json
from pathlib import Path

def on_page_context(context, page, config, nav):
    out = Path(config.config_file_path).parent / "meta.json"
    seen = json.loads(out.read_text("utf-8")) if out.is_file() else {}
    seen[page.file.src_uri] = {"meta": page.meta, "title": page.title}
    out.write_text(json.dumps(seen, ensure_ascii=False), "utf-8")
    return context
"""


def _site(root: Path, count: int) -> Path:
    (root / "docs").mkdir(parents=True)
    (root / "scenarios").mkdir()
    (root / "docs" / "index.md").write_text("# home\n", "utf-8")
    (root / "hooks.py").write_text(HOOK, "utf-8")
    (root / "mkdocs.yml").write_text(
        "site_name: s\ntheme:\n  name: material\n  features: [navigation.footer]\n"
        "hooks:\n  - hooks.py\nplugins:\n"
        "  - saikoro:\n      roller:\n        enabled: false\n",
        "utf-8",
    )
    for i in range(count):
        text = TWO_D6.replace("id: twod6", f"id: s{i}")
        text = text.replace("title: 二つのダイスの表", f"title: 表{i}")
        text += f"summary: {root.name}\n"  # content of this test only: no cached page
        (root / "scenarios" / f"s{i}.yaml").write_text(text, "utf-8")
    return root


def _config(root: Path) -> Any:
    return load_config(config_file=str(root / "mkdocs.yml"), site_dir=str(root / "site"))


def _plugin(config: Any) -> SaikoroPlugin:
    plugin = config.plugins["saikoro"]
    assert isinstance(plugin, SaikoroPlugin)
    return plugin


def test_each_scenario_is_rendered_once_though_the_book_outgrows_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(structure, "MAX_PAGES", 1)
    root = _site(tmp_path / "s", 3)
    config = _config(root)
    config.plugins.on_startup(command="serve", dirty=False)
    plugin = _plugin(config)
    before = plugin.book.rendered  # MkDocs may hand back an instance of an earlier test
    build(config)
    # three pages, and the whole-book page reused them instead of rendering them again
    assert plugin.book.rendered == before + 3
    book = (root / "site" / "scenarios" / "book" / "index.html").read_text("utf-8")
    assert all(f"表{i}" in book for i in range(3))
    (root / "scenarios" / "s1.yaml").write_text(
        (root / "scenarios" / "s1.yaml").read_text("utf-8").replace("表1", "表1改"), "utf-8"
    )
    build(_config(root))
    assert plugin.book.rendered == before + 4  # a serve rebuild after one edit: that one only
    _config(root).plugins.on_startup(command="build", dirty=False)


def test_scenario_pages_have_no_meta_and_keep_their_titles(tmp_path: Path) -> None:
    root = _site(tmp_path / "m", 2)
    hostile = TWO_D6.replace("id: twod6", "id: s1")
    hostile = hostile.replace("title: 二つのダイスの表", f"title: {Q(NAME)}")
    (root / "scenarios" / "s1.yaml").write_text(hostile, "utf-8")
    config = _config(root)
    config.plugins.on_startup(command="build", dirty=False)
    build(config)
    seen = json.loads((root / "meta.json").read_text("utf-8"))
    assert seen["scenarios/s0.md"] == {"meta": {}, "title": "表0"}
    assert seen["scenarios/s1.md"]["meta"] == {}
    title = seen["scenarios/s1.md"]["title"]
    assert title == safe_title(NAME)
    assert not set("<>&\"'") & set(title)  # the theme prints titles unescaped
    page = (root / "site" / "scenarios" / "s0" / "index.html").read_text("utf-8")
    assert "<title>表0 - s</title>" in page
    # the next-page link names the other scenario by its title, not by its file name
    assert title in page and "S1" not in page
    assert 'href="../s1/"' in page


def test_dirty_serve_rebuild_keeps_the_titles_of_pages_not_read_again(tmp_path: Path) -> None:
    root = _site(tmp_path / "d", 2)
    config = _config(root)
    config.plugins.on_startup(command="serve", dirty=True)
    build(config, dirty=True)
    target = root / "scenarios" / "s0.yaml"
    target.write_text(target.read_text("utf-8").replace("表0", "表0改"), "utf-8")
    build(_config(root), dirty=True)
    page = (root / "site" / "scenarios" / "s0" / "index.html").read_text("utf-8")
    assert "表0改" in page
    assert "表1" in page  # s1 was not read again, its next-page link still has its title
    _config(root).plugins.on_startup(command="build", dirty=False)


def test_a_large_book_is_printed_in_volumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from saikoro.site._pages import book as book_pages

    monkeypatch.setattr(book_pages, "VOLUME", 2)
    root = _site(tmp_path / "v", 3)
    config = _config(root)
    config.plugins.on_startup(command="serve", dirty=True)
    build(config, dirty=True)
    site = root / "site" / "scenarios"
    first = (site / "book" / "index.html").read_text("utf-8").replace("<wbr>", "")
    second = (site / "book-2" / "index.html").read_text("utf-8").replace("<wbr>", "")
    parts = [f'id="book-s{i}"' for i in range(3)]  # each scenario's part of a volume
    assert parts[0] in first and parts[1] in first and parts[2] not in first
    assert parts[2] in second and parts[0] not in second
    assert "印刷用（全シナリオ） 3〜3" in second
    index = (site / "index.html").read_text("utf-8").replace("<wbr>", "")
    assert 'href="book/"' in index and 'href="book-2/"' in index
    assert "1 ページに 2 本ずつ" in index
    page = (site / "s0" / "index.html").read_text("utf-8")
    assert 'href="../book/"' in page and "book-2" not in page  # the nav lists volume 1 only
    # an edit of one stat (a slot of the page, not its Markdown) reaches its volume
    target = root / "scenarios" / "s2.yaml"
    text = target.read_text("utf-8")
    assert "target: 12" in text
    target.write_text(text.replace("target: 12", "target: 11"), "utf-8")
    before = (site / "book" / "index.html").stat().st_mtime_ns
    build(_config(root), dirty=True)
    assert (site / "book-2" / "index.html").read_text("utf-8") != second
    assert (site / "book" / "index.html").stat().st_mtime_ns == before  # not re-rendered
    _config(root).plugins.on_startup(command="build", dirty=False)


def test_ids_of_the_print_volumes_are_reserved(tmp_path: Path) -> None:
    from mkdocs.exceptions import Abort

    root = _site(tmp_path / "r", 1)
    (root / "scenarios" / "s0.yaml").write_text(TWO_D6.replace("id: twod6", "id: book-2"), "utf-8")
    config = _config(root)
    config.plugins.on_startup(command="build", dirty=False)
    with pytest.raises(Abort):
        build(config)


# -- issue 28: the book's output grows linearly --------------------------------------------------

KEGARE = """\
system: kegare
id: k0
title: 港0
enemies:
  - id: oni
    name: 鬼
    hp: 60
    attack: 2
    defence: 1
    initiative: 3
    skills:
      - {name: 爪, kind: attack, damage: 3}
"""


def _mixed(root: Path, getb: int, kegare: int, extra: str = "") -> Path:
    """``getb`` GetB scenarios ``s<i>`` and ``kegare`` Kegare ones ``k<i>``."""
    _site(root, getb)
    for i in range(kegare):
        text = KEGARE.replace("id: k0", f"id: k{i}").replace("title: 港0", f"title: 港{i}")
        (root / "scenarios" / f"k{i}.yaml").write_text(text, "utf-8")
    config = root / "mkdocs.yml"
    text = config.read_text("utf-8") + "      balance:\n        enabled: false\n"
    config.write_text(text.replace("site_name: s\n", f"site_name: s\n{extra}"), "utf-8")
    return root


def _primary_nav(page: str) -> list[str]:
    """The hrefs of the site's navigation (not the table of contents) on a page."""
    return re.findall(r'<a href="([^"]*)" class="md-nav__link(?: md-nav__link--active)?">', page)


def _hrefs(page: str) -> list[str]:
    """The links of a page's content (what a reader without JavaScript can follow)."""
    article = page[page.index("<article") : page.index("</article>")]
    return re.findall(r'href="([^"#:]+)"', article)


def _crawl(site: Path, start: Path, html: bool) -> set[Path]:
    """Every page reached from ``start`` by plain links inside ``site``."""
    seen: set[Path] = set()
    todo = [start]
    while todo:
        path = todo.pop()
        if path in seen or not path.is_file():
            continue
        seen.add(path)
        for href in _hrefs(path.read_text("utf-8")):
            target = (path.parent / href).resolve()
            if not html and (href.endswith("/") or target.is_dir()):
                target = target / "index.html"
            if site.resolve() in target.parents and target.suffix == ".html":
                todo.append(target)
    return seen


@pytest.mark.parametrize("html", [False, True])
def test_a_large_book_is_listed_in_pages_every_scenario_reached_by_plain_links(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, html: bool
) -> None:
    monkeypatch.setattr(structure, "PAGE", 2)  # 5 scenarios: more than one page holds
    extra = "use_directory_urls: false\n" if html else ""
    root = _mixed(tmp_path / "b", 3, 2, extra)
    config = _config(root)
    config.plugins.on_startup(command="build", dirty=False)
    build(config)
    site = root / "site" / "scenarios"

    def at(name: str) -> Path:
        return site / (f"{name}.html" if html else f"{name}/index.html")

    index = (site / "index.html").read_text("utf-8").replace("<wbr>", "")
    assert "5 本のシナリオ ／ 2 システム" in index
    assert 'class="saikoro-index"' not in index  # no table of the whole book
    listing = at("index/getb").read_text("utf-8").replace("<wbr>", "")
    assert listing.count('<tr data-scenario="') == 2
    assert 'rel="next"' in listing and "3 本中 1〜2 本目" in listing
    second = at("index/getb/2").read_text("utf-8").replace("<wbr>", "")
    assert second.count('<tr data-scenario="') == 1 and 'rel="prev"' in second
    assert '<span aria-current="page">2</span>' in second
    reached = _crawl(root / "site", site / "index.html", html)
    for name in ("s0", "s1", "s2", "k0", "k1"):
        assert at(name).resolve() in reached, name
    # the navigation: the index, the two systems and the print book; never a scenario
    page = at("s1").read_text("utf-8")
    nav = _primary_nav(page)
    assert not any(re.search(r"(^|/)(s\d|k\d)(/|\.html)$", href) for href in nav), nav
    assert any(href.endswith(("index/getb/", "index/getb.html")) for href in nav), nav
    assert any(href.endswith(("index/kegare/", "index/kegare.html")) for href in nav), nav


def test_the_navigation_does_not_grow_with_the_book(tmp_path: Path) -> None:
    navs = []
    for count in (2, 12):
        root = _mixed(tmp_path / f"n{count}", count, 1)
        config = _config(root)
        config.plugins.on_startup(command="build", dirty=False)
        build(config)
        page = (root / "site" / "scenarios" / "s0" / "index.html").read_text("utf-8")
        start = page.index('<nav class="md-nav md-nav--primary"')
        navs.append(page[start : page.index('<div class="md-sidebar md-sidebar--secondary"')])
        assert "s1/" not in navs[-1]
    assert navs[0] == navs[1]  # the same bytes for 3 and 13 scenarios
    # the scenario page sits under its system: the theme marks that entry
    assert re.search(r'md-nav__item--active">\s*<a href="../index/getb/"', navs[0])


def test_an_explicit_nav_lists_the_systems_under_the_books_entry(tmp_path: Path) -> None:
    extra = "nav:\n  - index.md\n  - 本棚: scenarios/index.md\n"
    root = _mixed(tmp_path / "x", 2, 1, extra)
    config = _config(root)
    config.plugins.on_startup(command="build", dirty=False)
    build(config)
    home = (root / "site" / "index.html").read_text("utf-8")
    assert "本棚" in home
    nav = _primary_nav(home)
    assert nav[1:] == [
        "scenarios/",
        "scenarios/index/getb/",
        "scenarios/index/kegare/",
        "scenarios/book/",
    ], nav


def test_a_dirty_serve_rebuild_drops_a_listing_page_the_book_no_longer_needs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(structure, "PAGE", 2)
    root = _mixed(tmp_path / "d", 3, 1)
    config = _config(root)
    config.plugins.on_startup(command="serve", dirty=True)
    build(config, dirty=True)
    second = root / "site" / "scenarios" / "index" / "getb" / "2" / "index.html"
    assert 'data-scenario="s2"' in second.read_text("utf-8")
    (root / "scenarios" / "s2.yaml").unlink()
    build(_config(root), dirty=True)
    assert not second.exists()  # not left behind by --dirty
    first = (root / "site" / "scenarios" / "index" / "getb" / "index.html").read_text("utf-8")
    first = first.replace("<wbr>", "")  # the phrase breaks
    assert "2 本" in first and "次へ →" not in first
    _config(root).plugins.on_startup(command="build", dirty=False)
