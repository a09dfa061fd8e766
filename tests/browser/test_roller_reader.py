"""The roller as a reader at the table uses it: repeated rolls on separate lines, a history
that survives instant navigation, share links that replay a roll exactly, and phones
that fetch no engine byte before a tap.

Author's site (``plugins: [saikoro]``) served under a sub-path; each test has its own
browser profile.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from widgets import DICE_2D6, FREE, HEAVY, LINE_2D6, roll, wait_result

pytestmark = pytest.mark.browser


def _free_roll(page: Any, command: str) -> Any:
    page.locator(f"{FREE} .saikoro-command").fill(command)
    page.locator(f"{FREE} .saikoro-command").press("Enter")
    return wait_result(page, FREE)


def test_repeated_roll_shows_one_line_per_result(fresh_context: Any, base_url: str) -> None:
    page = fresh_context.new_page()
    page.goto(base_url + "rules/")
    output = _free_roll(page, "x3 2D6")
    lines = output.locator(".saikoro-line")
    assert lines.count() == 3
    texts = output.inner_text().split("\n")
    assert len(texts) == 3, texts
    for i, text in enumerate(texts, start=1):
        assert re.fullmatch(rf"#{i} \(2D6\) ＞ \d+\[\d,\d\] ＞ \d+", text), text
    # each line is drawn on its own row
    tops = [lines.nth(i).bounding_box()["y"] for i in range(3)]
    assert tops[0] < tops[1] < tops[2]


def test_history_survives_instant_navigation(fresh_context: Any, base_url: str) -> None:
    page = fresh_context.new_page()
    page.goto(base_url + "rules/")
    page.evaluate("window.__sameDocument = true")
    texts = []
    for _ in range(3):
        text, _classes = roll(page, DICE_2D6)
        assert LINE_2D6.match(text), text
        texts.append(text)
    history = page.locator(f"{DICE_2D6} .saikoro-history li").all_inner_texts()
    # away and back by instant navigation (no reload)
    page.locator("article a[href$='scenarios/getb-test/']").first.click()
    page.wait_for_url(re.compile(r".*/scenarios/getb-test/$"))
    page.go_back()
    page.wait_for_url(re.compile(r".*/rules/$"))
    page.wait_for_selector(f"{DICE_2D6} .saikoro-history li")
    assert page.evaluate("window.__sameDocument") is True
    assert page.locator(f"{DICE_2D6} .saikoro-output").inner_text() == texts[-1]
    assert page.locator(f"{DICE_2D6} .saikoro-history li").all_inner_texts() == history


def test_share_link_replays_the_roll(browser: Any, base_url: str) -> None:
    first = browser.new_context()
    second = browser.new_context()
    try:
        page = first.new_page()
        page.goto(base_url + "rules/")
        output = _free_roll(page, "x2 3D6+1")
        text = output.inner_text()
        url = page.locator(FREE).get_attribute("data-share-url") or ""
        assert "#roll=" in url and "dice=" in url, url
        other = second.new_page()
        other.goto(url)
        replayed = wait_result(other, FREE)
        assert replayed.inner_text() == text
        assert "saikoro-replayed" in (replayed.get_attribute("class") or "")
        # a fixed widget's roll replays on that widget
        page.locator(f"{DICE_2D6} .saikoro-roll").click()
        fixed = wait_result(page, DICE_2D6).inner_text()
        url = page.locator(DICE_2D6).get_attribute("data-share-url") or ""
        other.goto("about:blank")
        other.goto(url)
        assert wait_result(other, DICE_2D6).inner_text() == fixed
    finally:
        first.close()
        second.close()


def test_phone_fetches_no_engine_before_a_tap(browser: Any, base_url: str) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    requests: list[str] = []
    try:
        page = context.new_page()
        page.on("request", lambda r: requests.append(r.url))
        page.goto(base_url + "rules/")
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(500)
        assert page.evaluate("window.saikoroRoller.deferred") is True
        assert page.locator(DICE_2D6).is_visible()
        assert [u for u in requests if any(h in u for h in HEAVY)] == []
        page.locator(f"{DICE_2D6} .saikoro-roll").tap()
        text = wait_result(page, DICE_2D6).inner_text()
        assert LINE_2D6.match(text), text
        assert [u for u in requests if "micropython.wasm" in u]
    finally:
        context.close()


def test_save_data_defers_on_desktop_too(browser: Any, base_url: str) -> None:
    context = browser.new_context()
    context.add_init_script(
        "Object.defineProperty(navigator, 'connection', {value: {saveData: true}})"
    )
    requests: list[str] = []
    try:
        page = context.new_page()
        page.on("request", lambda r: requests.append(r.url))
        page.goto(base_url + "rules/")
        page.wait_for_load_state("networkidle")
        assert page.evaluate("window.saikoroRoller.deferred") is True
        assert [u for u in requests if any(h in u for h in HEAVY)] == []
    finally:
        context.close()
