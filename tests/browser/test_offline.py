"""Light until needed, instant when needed, offline at the table (issue 20, Deliver 2).

The project's own site (``mkdocs.yml`` at the repository root), built once, served under a
sub-path by a server that gzips like a web host and logs every byte it sends (so requests
of workers and of the service worker count too), in real headless Chromium:

- a phone fetches at most 300 kB (gzip) before its first tap on any rules or scenario page;
- the search index comes with the first use of search, not with every page;
- the engine shows its download's progress;
- a second visit rolls with the network off, on any page; the service worker's scope is
  the site's sub-path; a new build replaces the old cache and keeps what did not change;
- under ``mkdocs serve`` a worker left by a built copy on the same origin removes itself,
  and live reload works.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import Network, Session, build_author_site, serve
from widgets import ENGINE_TIMEOUT, wait_result

from saikoro.site._offline import write_service_worker
from saikoro.site._roller import RollerSettings, engine_paths

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
KB = 1024
BUDGET = 300 * KB
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
ENGINE = ("/micropython/", "/engine/", "/worker.js", "/mphost.mjs")
GRID_ROW = ".saikoro-target .saikoro-grid tbody tr:not(.saikoro-row-result) .saikoro-pick"


def _build(out: Path) -> Path:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(out)],
        check=True,
        cwd=REPO,
        env=env,
    )
    return out


@pytest.fixture(scope="module")
def project_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build(tmp_path_factory.mktemp("offline-site") / "site")


@pytest.fixture(scope="module")
def network() -> Network:
    return Network()


@pytest.fixture(scope="module")
def site_url(project_site: Path, network: Network) -> Iterator[str]:
    with serve(project_site, project_site.parent / "served", network) as url:
        yield url


def _pages(site: Path) -> list[str]:
    rules = [f"systems/{p.name}/" for p in sorted((site / "systems").iterdir())]
    scenarios = [  # the pages of the book's folder (index/ holds the systems' listings)
        f"scenarios/{p.name}/"
        for p in sorted((site / "scenarios").iterdir())
        if (p / "index.html").is_file()
    ]
    return ["", "commands/", "rulings/", *rules, "scenarios/", *scenarios]


def _settle(page: Any) -> None:
    page.wait_for_load_state("networkidle")
    page.wait_for_function(
        "window.saikoroRoller && ['active', 'failed', 'unsupported']"
        ".includes(window.saikoroRoller.offline.state)",
        timeout=10_000,
    )
    page.wait_for_timeout(500)


def test_a_phone_fetches_little_before_its_first_tap(
    browser: Any, project_site: Path, site_url: str, network: Network
) -> None:
    figures = []
    for path in _pages(project_site):
        context = browser.new_context(**PHONE)
        session = Session(context.new_page())
        try:
            start = len(network.log)
            session.page.goto(site_url + path)
            _settle(session.page)
            assert session.page.evaluate("window.saikoroRoller.offline.state") == "active"
            sent = network.log[start:]
            total = network.sent(since=start)  # every byte, Mermaid's too
            figures.append((path or "(home)", total, len(sent)))
            urls = [u for u, _ in sent]
            assert not [u for u in urls if any(e in u for e in ENGINE)], (path, urls)
            assert not [u for u in urls if "search_index.json" in u], (path, urls)
            assert total <= BUDGET, (path, total, sorted(sent, key=lambda s: -s[1])[:8])
            assert session.errors == []
        finally:
            context.close()
    print("\nbytes before the first tap (phone, gzip):")
    for path, total, count in figures:
        print(f"  {path:28} {total / KB:6.1f} kB in {count} requests")
    assert len(figures) >= 18


def test_search_index_comes_with_the_first_use_of_search(
    browser: Any, site_url: str, network: Network
) -> None:
    context = browser.new_context(service_workers="block", **PHONE)
    page = context.new_page()
    try:
        start = len(network.log)
        page.goto(site_url + "systems/getb/")
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(500)
        assert not [u for u, _ in network.log[start:] if "search_index.json" in u]
        page.locator("label.md-header__button[for='__search']").tap()  # the search icon
        page.locator("input[data-md-component='search-query']").fill("チェイス表")
        page.wait_for_selector(".md-search-result__item", timeout=20_000)
        assert [u for u, _ in network.log[start:] if "search_index.json" in u]
        # a search deep link (?q=) loads it at once
        other = context.new_page()
        other.goto(site_url + "?q=" + "判定")
        other.wait_for_selector(".md-search-result__item", timeout=20_000)
    finally:
        context.close()


def test_the_engine_shows_its_download(browser: Any, site_url: str, network: Network) -> None:
    context = browser.new_context(service_workers="block", **PHONE)
    page = context.new_page()
    network.throttle(4 * 1024 * 1024)  # 4 MB/s: the download takes a few seconds
    try:
        page.goto(site_url + "scenarios/getb-kyuuchi/")
        page.wait_for_load_state("load")
        page.locator(GRID_ROW).first.tap()
        page.wait_for_function(
            "() => { const p = document.querySelector('.saikoro-loading progress');"
            " return p && p.value > 0 && p.value < 100; }",
            timeout=20_000,
        )
        text = page.locator(".saikoro-row-result .saikoro-output").inner_text()
        assert re.match(r"ダイスエンジンを読み込み中（\d+ kB）", text), text
    finally:
        network.throttle(None)
        context.close()


def _eventually(page: Any, expression: str, timeout: float = 30.0, arg: object = None) -> None:
    """Wait until an async ``expression`` (a function of ``arg``) resolves truthy (asked
    again when the page navigates while it is evaluated: the worker reloads pages)."""
    from playwright.sync_api import Error as PlaywrightError

    deadline = time.monotonic() + timeout
    while True:
        try:
            if page.evaluate(expression, arg):
                return
        except PlaywrightError as exc:
            if "Execution context was destroyed" not in str(exc):
                raise
        if time.monotonic() > deadline:
            raise AssertionError(f"never true: {expression}")
        page.wait_for_timeout(250)


def _offline_ready(page: Any, scope: str = "site") -> None:
    """The reader taps 「オフライン用に保存（… MB）」 (shown after the first roll); the whole
    book is then kept. Nothing of it is fetched before that tap."""
    if scope == "site":
        offer = page.locator(".saikoro-offline-save").first
        offer.wait_for(timeout=ENGINE_TIMEOUT)
        assert re.fullmatch(r"オフライン用に保存（\d+\.\d MB）", offer.inner_text()), (
            offer.inner_text()
        )
        assert page.evaluate("window.saikoroRoller.offline.site") is False
        offer.tap()
    page.wait_for_function(
        f"window.saikoroRoller.offline.{scope} === true", timeout=ENGINE_TIMEOUT * 2
    )


def _tap_row(page: Any, index: int = 0) -> str:
    page.locator(GRID_ROW).nth(index).tap()
    return str(wait_result(page, ".saikoro-row-result").inner_text())


def test_second_visit_rolls_with_the_network_off(
    browser: Any, site_url: str, network: Network
) -> None:
    context = browser.new_context(**PHONE)
    session = Session(context.new_page())
    page = session.page
    try:
        start = len(network.log)
        page.goto(site_url + "scenarios/getb-kyuuchi/")
        _settle(page)
        registration = page.evaluate(
            "navigator.serviceWorker.ready.then(r => [r.scope, r.active.scriptURL])"
        )
        assert registration == [site_url, site_url + "saikoro-sw.js"]  # the sub-path's root
        assert re.match(r"^\(GB1>=9\) ＞ ", _tap_row(page)), "first roll"
        page.wait_for_timeout(3000)  # the worker keeps the engine: from the HTTP cache
        # nothing big without a tap: no other page fetched, no file fetched twice
        fetched = [p for p, _ in network.log[start:]]
        assert not [p for p in fetched if p.endswith("/") and "getb-kyuuchi" not in p], fetched
        assert len(fetched) == len(set(fetched)), sorted(fetched)
        _offline_ready(page)
        assert "通信がなくても" in page.locator(".saikoro-offline").first.inner_text()
        # the network goes away: the server refuses, the browser is offline
        network.down = True
        context.set_offline(True)
        later = context.new_page()
        later_session = Session(later)
        later.goto(site_url + "scenarios/kegare-minato/")
        assert later.locator(".saikoro-target").count() > 0
        # the engine is kept: the phone starts it without a tap (no network), and rolls
        later.wait_for_function(
            "!window.saikoroRoller.deferred && window.saikoroRoller.state !== 'idle'",
            timeout=10_000,
        )
        assert re.match(r"^\(2D6", _tap_row(later)), "offline roll"
        # a rules page, opened afresh, offline
        rules = context.new_page()
        rules.goto(site_url + "systems/getb/")
        assert rules.locator(".saikoro-odds").count() > 0
        # a page the book does not have says so in Japanese
        missing = context.new_page()
        missing.goto(site_url + "no-such-page/")
        assert "オフラインです" in missing.locator("h1").inner_text()
        # the network was asked only whether there is a new build (the browser's update
        # check of the worker) and whether kept pages are still the server's (the
        # worker's check in the background): both fail quietly offline
        pages = ("saikoro-sw.js", "scenarios/kegare-minato/", "systems/getb/", "no-such-page/")
        assert all(p.endswith(pages) for p in network.refused), network.refused
        assert session.errors == [] and later_session.errors == []
    finally:
        network.down = False
        context.close()


def test_new_build_replaces_the_cache_and_keeps_what_did_not_change(
    browser: Any, project_site: Path, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    shutil.copytree(project_site, site, symlinks=True)
    network = Network()
    with serve(site, tmp_path / "served", network) as url:
        context = browser.new_context(**PHONE)
        page = context.new_page()
        try:
            page.goto(url + "scenarios/getb-kyuuchi/")
            _settle(page)
            _tap_row(page)
            _offline_ready(page)
            before = page.evaluate("caches.keys()")
            assert len(before) == 1
            # a new build: one page changed
            page_file = site / "systems" / "getb" / "index.html"
            page_file.write_text(
                page_file.read_text("utf-8").replace(
                    "</article>", "<p id='new-build'>新</p></article>"
                ),
                "utf-8",
            )
            version = write_service_worker(str(site), engine_paths(RollerSettings()))
            assert before != [f"saikoro-{version}"]
            start = len(network.log)
            page.reload()
            _eventually(
                page,
                "(name) => caches.keys().then(k => k.length === 1 && k[0] === name)",
                timeout=90,
                arg=f"saikoro-{version}",
            )
            fetched = [u for u, _ in network.log[start:]]
            assert any("offline.json" in u for u in fetched), fetched
            assert not [u for u in fetched if any(e in u for e in ENGINE)], fetched
            # the changed page was fetched again before the new version took over
            assert [u for u in fetched if u.endswith("/systems/getb/")], fetched
            # the changed page comes from the server, the rest from the new cache, offline too
            network.down = True
            context.set_offline(True)
            fresh = context.new_page()
            fresh.goto(url + "systems/getb/")
            assert fresh.locator("#new-build").count() == 1
            again = context.new_page()
            again.goto(url + "scenarios/getb-kyuuchi/")
            assert re.match(r"^\(GB1>=9\) ＞ ", _tap_row(again))
        finally:
            network.down = False
            context.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_mkdocs_serve_is_not_hidden_by_a_left_worker(browser: Any, tmp_path: Path) -> None:
    port = _free_port()
    site_url = f"http://127.0.0.1:{port}/sub/path/"
    site = build_author_site(tmp_path, site_url)
    context = browser.new_context()
    page = context.new_page()
    server = None
    try:
        # a built copy on the origin: its worker keeps the pages
        with serve(site, tmp_path / "served", port=port) as url:
            assert url == site_url
            page.goto(site_url + "rules/")
            page.wait_for_function(
                "window.saikoroRoller.offline.state === 'active'", timeout=10_000
            )
            page.goto(site_url)  # kept by the worker
        # now the author runs `mkdocs serve` on the same origin
        env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "mkdocs",
                "serve",
                "-a",
                f"127.0.0.1:{port}",
                "-f",
                str(tmp_path / "mkdocs.yml"),
            ],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                time.sleep(0.3)
        time.sleep(1)
        # the kept home page shows once; the worker finds the server's page is no offline
        # build, removes itself and its caches and loads the page again from the server
        page.goto(site_url)
        _eventually(
            page, "() => navigator.serviceWorker.getRegistrations().then(r => r.length === 0)"
        )
        _eventually(page, "() => caches.keys().then(k => k.length === 0)")
        page.wait_for_function(
            "!document.querySelector('meta[name=saikoro-offline]')", timeout=30_000
        )
        page.goto(site_url + "rules/")
        assert page.evaluate("window.saikoroRoller.config.serviceWorker") is None
        # live reload: an edit shows without a manual reload
        docs = tmp_path / "docs" / "rules.md"
        docs.write_text(docs.read_text("utf-8") + "\n\nライブリロードの印\n", "utf-8")
        page.wait_for_function(
            "document.body && document.body.textContent.includes('ライブリロードの印')",
            timeout=60_000,
        )
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
        context.close()
