"""The roller in real headless Chromium, on an author's site built with ``plugins: [saikoro]``
and served under a sub-path on 127.0.0.1.

The tests of the first part share one page (``session_page``) and run in order, so the
engine starts once: home (no roller) -> rules page by instant navigation -> scenario page
by instant navigation. Dice are random, so each result is checked against the shape of a
BCDice line and its own arithmetic (the dice shown add up to the total shown).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import pytest
from harness import Session
from widgets import (
    DICE_2D6,
    FREE,
    HEAVY,
    LINE_1D6_PLUS,
    LINE_1D10,
    LINE_2D6,
    check_2d6,
    clear,
    follow,
    no_xss,
    ready,
    roll,
    visit,
    wait_result,
)

pytestmark = pytest.mark.browser


# ---- one shared page: home -> rules -> scenario ------------------------------------------


def test_page_without_rollers_loads_no_engine(
    session_page: Session, fresh_context: Any, base_url: str
) -> None:
    if session_page.page.url != "about:blank":  # run out of order: use a fresh page
        session_page = Session(fresh_context.new_page())
    page = session_page.page
    page.goto(base_url)
    page.wait_for_load_state("networkidle")
    assert page.locator(".saikoro-roller").count() == 0
    assert page.evaluate("window.saikoroRoller.state") == "idle"
    assert [u for u in session_page.requests if any(h in u for h in HEAVY)] == []


def test_engine_starts_when_the_reader_points_at_a_roller(
    session_page: Session, base_url: str
) -> None:
    page = visit(session_page, base_url, "")
    assert page.evaluate("window.saikoroRoller.state") == "idle"
    page.evaluate("window.__sameDocument = true")
    follow(page, "rules/", "/rules/")
    # policy "intent" (the default): a roller on screen loads nothing by itself
    page.wait_for_timeout(500)
    assert page.evaluate("window.saikoroRoller.state") == "idle"
    held: list[Any] = []  # MicroPython's script waits until the click below
    page.context.route("**/micropython/micropython.mjs*", lambda route: held.append(route))  # noqa: PLW0108 - Playwright wants a function
    page.locator(f"{DICE_2D6} .saikoro-roll").hover()
    page.wait_for_function("window.saikoroRoller.state !== 'idle'", timeout=5_000)
    assert page.evaluate("window.saikoroRoller.state") == "loading"
    # a click while loading says so (with the download's size), is queued and answered
    # once the engine is ready
    page.locator(f"{DICE_2D6} .saikoro-roll").click()
    shown = page.locator(f"{DICE_2D6} .saikoro-output").text_content()
    assert re.fullmatch(r"ダイスエンジンを読み込み中（\d+ kB）…", shown or ""), shown
    for _ in range(200):  # the worker asks for it once it has started
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1
    held[0].continue_()
    page.context.unroute("**/micropython/micropython.mjs*")
    output = wait_result(page, DICE_2D6)
    check_2d6(output.text_content() or "", (output.get_attribute("class") or "").split())
    assert page.evaluate("window.saikoroRoller.state") == "ready"
    wasm = "/sub/path/assets/saikoro/micropython/micropython.wasm"
    assert any(wasm in u for u in session_page.requests)


def test_roll_shows_bcdice_text(session_page: Session, base_url: str) -> None:
    page = visit(session_page, base_url, "rules/")
    ready(page)
    assert page.locator(f"{DICE_2D6} output").get_attribute("aria-live") == "polite"
    for _ in range(5):
        text, classes = roll(page, DICE_2D6)
        check_2d6(text, classes)
    # a short history of the earlier rolls, and a copy button
    history = page.locator(f"{DICE_2D6} .saikoro-history li")
    assert history.count() >= 4  # the earlier rolls, newest first
    assert history.count() <= 5  # and no more than five
    for item in history.all_text_contents():
        assert LINE_2D6.match(item), item
    assert page.locator(f"{DICE_2D6} .saikoro-copy").is_visible()


def test_copy_button(session_page: Session, base_url: str) -> None:
    page = visit(session_page, base_url, "rules/")
    ready(page)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    if not page.locator(f"{DICE_2D6} .saikoro-copy").count():
        roll(page, DICE_2D6)
    text = page.locator(f"{DICE_2D6} .saikoro-output").text_content()
    copy = page.locator(f"{DICE_2D6} .saikoro-copy")
    copy.click()
    page.wait_for_function("(el) => el.textContent === 'コピーしました'", arg=copy.element_handle())
    assert page.evaluate("navigator.clipboard.readText()") == text


def test_keyboard_free_roller(session_page: Session, base_url: str) -> None:
    page = visit(session_page, base_url, "rules/")
    ready(page)
    assert page.locator(f"{FREE} .saikoro-system").input_value() == "getb"  # the page's system
    field = page.locator(f"{FREE} .saikoro-command")
    field.focus()
    page.keyboard.type("1D6+1")
    # Enter that confirms an IME conversion must not roll
    field.dispatch_event("keydown", {"key": "Enter", "isComposing": True, "bubbles": True})
    page.wait_for_timeout(100)
    assert page.locator(f"{FREE} .saikoro-output").text_content() == ""
    page.keyboard.press("Enter")
    text = wait_result(page, FREE).text_content() or ""
    match = LINE_1D6_PLUS.match(text)
    assert match, text
    assert int(match.group(1)) == int(match.group(2))
    assert int(match.group(3)) == int(match.group(2)) + 1
    # Tab to the button (past the system <select>) and press it with the keyboard
    clear(page, FREE)
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.classList.contains('saikoro-roll')")
    page.keyboard.press("Enter")
    assert LINE_1D6_PLUS.match(wait_result(page, FREE).text_content() or "")


def test_invalid_and_oversized_commands(session_page: Session, base_url: str) -> None:
    page = visit(session_page, base_url, "rules/")
    ready(page)
    output = page.locator(f"{FREE} .saikoro-output")
    field = page.locator(f"{FREE} .saikoro-command")
    field.fill("1D6+1")
    clear(page, FREE)
    field.press("Enter")
    previous = wait_result(page, FREE).text_content()
    assert LINE_1D6_PLUS.match(previous or "")
    field.fill("こんにちは")
    clear(page, FREE)
    field.press("Enter")
    wait_result(page, FREE)
    assert output.text_content() == "コマンドとして認識できません"
    assert "saikoro-error" in (output.get_attribute("class") or "")
    # the result the error replaced is kept at the top of the history
    assert page.locator(f"{FREE} .saikoro-history li").first.text_content() == previous
    # beyond the engine's bounds: its own message, quickly, and the page stays usable
    field.fill("999999D999999")
    clear(page, FREE)
    field.press("Enter")
    wait_result(page, FREE)
    message = output.text_content() or ""
    assert message
    assert "内部エラー" not in message
    assert "saikoro-error" in (output.get_attribute("class") or "")
    # over the page's length cap: refused before reaching the engine
    result = page.evaluate("window.saikoroRoller.roll('1D6+'.repeat(400), '')")
    assert result["ok"] is False
    assert "長すぎます" in result["message"]
    assert page.evaluate("window.saikoroRoller.state") == "ready"


def test_scenario_page_after_instant_navigation(session_page: Session, base_url: str) -> None:
    page = visit(session_page, base_url, "rules/")
    page.evaluate("window.__sameDocument = true")
    follow(page, "getb-test/", "/scenarios/getb-test/")
    no_xss(page)  # content inserted by instant navigation ran no markup
    chase = ".saikoro-roller[data-command='1D10']"
    for _ in range(3):
        text, _ = roll(page, chase)
        match = LINE_1D10.match(text)
        assert match, text
        assert 1 <= int(match.group(1)) <= 10
    # one worker for the whole visit: MicroPython was fetched once
    assert sum("micropython.wasm" in u for u in session_page.requests) == 1
    assert sum("worker.js" in u for u in session_page.requests) == 1


def test_system_commands_on_scenario_page(session_page: Session, base_url: str) -> None:
    page = visit(session_page, base_url, "scenarios/getb-test/")
    ready(page)
    widgets = page.locator(".saikoro-roller[data-system='getb']:not(.saikoro-free)")
    assert widgets.count() > 0
    for index in range(widgets.count()):
        command = widgets.nth(index).get_attribute("data-command")
        selector = f".saikoro-roller[data-system='getb'][data-command='{command}']"
        text, classes = roll(page, selector)
        assert "saikoro-error" not in classes, (command, text)
        assert text.startswith(f"({command}) ＞"), (command, text)
    no_xss(page)


def _dice_of_last_result(page: Any) -> list[list[int]]:
    """The ``(sides, value)`` pairs of the newest ``saikoro:result`` event's roll."""
    dice: list[list[int]] = page.evaluate(
        "window.__saikoroResults[window.__saikoroResults.length - 1].dice"
    )
    return dice


def test_scenario_rulings_reach_the_roll(session_page: Session, base_url: str) -> None:
    # kokuryoku-d6 sets `rulings: {die: 6}`: its odds use 1D6 checks, so must its rolls
    page = visit(session_page, base_url, "scenarios/kokuryoku-d6/")
    ready(page)
    page.evaluate(
        """() => { window.__saikoroResults = [];
        document.addEventListener('saikoro:result',
          (e) => window.__saikoroResults.push(e.detail)); }"""
    )
    command = "KKM[3,3,3]>=7G4"
    selector = f".saikoro-roller[data-system='kokuryoku'][data-command='{command}']"
    assert page.locator(selector).get_attribute("data-options") == '{"die":6}'
    for _ in range(3):
        text, classes = roll(page, selector)
        assert "saikoro-error" not in classes, text
        assert text.startswith(f"({command}) ＞"), text
        dice = _dice_of_last_result(page)
        assert dice and all(sides == 6 and 1 <= value <= 6 for sides, value in dice), dice
        assert all(int(v) <= 6 for v in re.findall(r"\d+\[(\d+)\]", text)), text
    # the free-form roller: the scenario's options while its own system is chosen ...
    assert page.locator(f"{FREE} .saikoro-system").input_value() == "kokuryoku"
    field = page.locator(f"{FREE} .saikoro-command")
    for typed, system, sides in (("KK0", "kokuryoku", 6), ("GB3>=8", "getb", 10)):
        page.locator(f"{FREE} .saikoro-system").select_option(system)
        field.fill(typed)
        clear(page, FREE)
        field.press("Enter")
        output = wait_result(page, FREE)
        text = output.text_content() or ""
        assert text.startswith(f"({typed}) ＞"), text  # ... and not for another system
        assert [s for s, _ in _dice_of_last_result(page)] == [sides], text
    page.locator(f"{FREE} .saikoro-system").select_option("kokuryoku")


def test_dark_mode_and_phone_width(session_page: Session, base_url: str) -> None:
    page = visit(session_page, base_url, "scenarios/getb-test/")
    page.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
    success = page.evaluate(
        "(() => { const o = document.createElement('output'); o.className = 'saikoro-success';"
        " document.querySelector('.saikoro-roller').appendChild(o);"
        " const c = getComputedStyle(o).color; o.remove(); return c; })()"
    )
    assert success == "rgb(111, 214, 143)"  # the slate variant
    page.evaluate("document.body.setAttribute('data-md-color-scheme', 'default')")
    page.set_viewport_size({"width": 360, "height": 740})
    overflow = page.evaluate(
        "[...document.querySelectorAll('.saikoro-roller')].filter("
        "el => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1"
        ").length"
    )
    assert overflow == 0
    page.set_viewport_size({"width": 1280, "height": 720})


def test_no_request_leaves_the_site(session_page: Session, base_url: str) -> None:
    host = urlsplit(base_url).netloc
    assert session_page.requests
    outside = [u for u in session_page.requests if urlsplit(u).netloc != host]
    assert outside == []


def test_no_script_errors_during_the_visit(session_page: Session) -> None:
    # mkdocs-material's instant navigation re-creates every inline <script> of the new
    # page's content as a classic script (dropping its type), so data blocks such as
    # <script type="application/json"> are run as JavaScript and throw here.
    assert session_page.errors == []
