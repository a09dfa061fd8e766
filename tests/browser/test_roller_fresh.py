"""The roller in fresh browser profiles: failures say why, loading policies, markup.

Each test opens its own context (an empty profile) and never waits for the engine to
finish loading, except where it must.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from widgets import DICE_2D6, no_xss, roll, wait_result

import saikoro
from saikoro.site._roller import engine_bundles

pytestmark = pytest.mark.browser

ASSETS = Path(saikoro.__file__).parent / "site" / "assets"


def test_scenario_markup_never_runs_on_full_load(fresh_context: Any, base_url: str) -> None:
    page = fresh_context.new_page()
    page.goto(base_url + "scenarios/getb-test/")
    page.wait_for_load_state("load")
    no_xss(page)
    for link in page.locator("a[href^='javascript:' i]").all():
        raise AssertionError(f"javascript: link survived: {link.get_attribute('href')}")
    page.goto(base_url + "scenarios/")
    no_xss(page)


def test_blocked_engine_says_why(fresh_context: Any, base_url: str) -> None:
    fresh_context.route("**/micropython/**", lambda route: route.abort())
    page = fresh_context.new_page()
    page.goto(base_url + "rules/")
    text, classes = roll(page, DICE_2D6)
    assert "読み込めませんでした" in text or "起動できませんでした" in text
    assert "saikoro-error" in classes


def test_no_worker_support_says_why(fresh_context: Any, base_url: str) -> None:
    fresh_context.add_init_script("delete window.Worker;")
    page = fresh_context.new_page()
    page.goto(base_url + "rules/")
    text, classes = roll(page, DICE_2D6)
    assert "対応していない" in text
    assert "saikoro-error" in classes


def with_config(context: Any, old: str, new: str) -> None:
    """Serve roller.js with one setting changed (as if the site were built with it)."""

    def handle(route: Any) -> None:
        response = route.fetch()
        body = response.text()
        assert old in body
        route.fulfill(response=response, body=body.replace(old, new))

    context.route("**/assets/saikoro/roller.js*", handle)


def with_policy(context: Any, policy: str) -> None:
    with_config(context, '"policy": "intent"', f'"policy": "{policy}"')


def test_load_timeout_says_why(fresh_context: Any, base_url: str) -> None:
    with_config(fresh_context, '"loadTimeout": 120000', '"loadTimeout": 50')
    page = fresh_context.new_page()
    page.goto(base_url + "rules/")
    text, classes = roll(page, DICE_2D6)
    assert "時間切れ" in text
    assert "saikoro-error" in classes
    assert page.evaluate("window.saikoroRoller.state") == "failed"


def test_click_policy_waits_for_a_click(fresh_context: Any, base_url: str) -> None:
    with_policy(fresh_context, "click")
    page = fresh_context.new_page()
    page.goto(base_url + "rules/")
    button = page.locator(f"{DICE_2D6} .saikoro-roll")
    button.hover()
    button.focus()
    page.wait_for_timeout(300)
    assert page.evaluate("window.saikoroRoller.state") == "idle"
    button.click()
    assert page.evaluate("window.saikoroRoller.state") in ("loading", "ready")
    wait_result(page, DICE_2D6)


def test_eager_policy_loads_at_once(fresh_context: Any, base_url: str) -> None:
    with_policy(fresh_context, "eager")
    page = fresh_context.new_page()
    page.set_viewport_size({"width": 1280, "height": 100})  # nothing needs to be visible
    page.goto(base_url + "scenarios/getb-test/")
    page.wait_for_function("window.saikoroRoller.state !== 'idle'", timeout=5_000)


def test_visible_policy_waits_until_seen_or_approached(fresh_context: Any, plain_url: str) -> None:
    page = fresh_context.new_page()
    page.goto(plain_url + "bench/")  # its only roller is far below the fold
    page.wait_for_timeout(500)
    assert page.evaluate("window.saikoroRoller.state") == "idle"
    page.locator(".saikoro-roller").scroll_into_view_if_needed()
    page.wait_for_function("window.saikoroRoller.state !== 'idle'", timeout=5_000)
    other = fresh_context.new_page()
    other.goto(plain_url + "bench/")
    other.wait_for_timeout(300)
    assert other.evaluate("window.saikoroRoller.state") == "idle"
    other.locator(".saikoro-roll").focus()  # keyboard intent (focus scrolls it in, too)
    other.wait_for_function("window.saikoroRoller.state !== 'idle'", timeout=5_000)


def test_worker_reads_the_engine_bundles_exactly(fresh_context: Any, base_url: str) -> None:
    # the worker ungzips each engine bundle in the browser; every file must come out exact
    page = fresh_context.new_page()
    page.goto(base_url)
    bundles = engine_bundles()
    for bundle in bundles.values():
        url = base_url + bundle.path
        files = page.evaluate(
            """async (url) => {
              const response = await fetch(url);
              const stream = response.body.pipeThrough(new DecompressionStream("gzip"));
              return JSON.parse(await new Response(stream).text()).files;
            }""",
            url,
        )
        assert [tuple(f) for f in files] == list(bundle.files), bundle.name
