"""Fixtures of the browser tests: one built site, one server, one Chromium per session.

Pyodide takes seconds to start, so the tests share one browser context whose engine is
started once (see ``session_page``); tests that need a fresh profile open their own
context and never wait for the engine. Sites are built once per session.

The shared contexts block service workers: their requests would bypass the routes some
tests set up, and what the site's worker keeps would leak from one test into the next
(``test_offline.py`` tests the worker in contexts of its own).

In CI (``$CI`` set) a missing Chromium or Playwright fails the tests instead of skipping.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from harness import Session, build_author_site, build_site, serve

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"browser tests cannot run in CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright.

    Module scope, not session: Playwright's sync API runs one instance per thread at a
    time, and other test modules start their own once this one is done.
    """
    if not Path(CHROMIUM).exists():
        _unavailable(f"{CHROMIUM} is missing (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed")
    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.fixture(scope="session")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An author's site (``plugins: [saikoro]``), built once, served under a sub-path."""
    workdir = tmp_path_factory.mktemp("author-site")
    with serve(workdir / "site") as url:
        build_author_site(workdir, url)
        yield url


@pytest.fixture(scope="session")
def plain_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A small hand-made site (MkDocs hook, no plugin) with a roller far down one page."""
    workdir = tmp_path_factory.mktemp("plain-site")
    with serve(workdir / "site") as url:
        build_site(workdir, url)
        yield url


REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def project_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The repository's site, built with ``mkdocs build --strict``, served under a sub-path
    (shared by the modules that read it: built once per session)."""
    site = tmp_path_factory.mktemp("project-site") / "site"
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(site)],
        check=True,
        cwd=REPO,
        env=env,
    )
    with serve(site) as url:
        yield url


@pytest.fixture(scope="module")
def session_page(browser: Any, base_url: str) -> Iterator[Session]:
    """One page in a fresh profile, shared by the tests that need a running engine."""
    context = browser.new_context(service_workers="block")
    session = Session(context.new_page())
    yield session
    context.close()


@pytest.fixture
def fresh_context(browser: Any) -> Iterator[Any]:
    """A new, empty profile for one test (no service worker)."""
    context = browser.new_context(service_workers="block")
    yield context
    context.close()
