"""The roller in real headless Chromium, on an author's site built with ``plugins: [saikoro]``
and served under a sub-path on 127.0.0.1.

The tests of the first part share one page (``session_page``) and run in order, so the
engine starts once: home (no roller) -> rules page by instant navigation -> scenario page
by instant navigation. Dice are random, so each result is checked against the shape of a
BCDice line and its own arithmetic (the dice shown add up to the total shown).
"""

from __future__ import annotations

import hashlib
import io
import re
import zipfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from harness import Session

import saikoro
from saikoro.site.roller import engine_zip

pytestmark = pytest.mark.browser

ENGINE_TIMEOUT = 60_000  # ms: a cold Pyodide start is ~5 s here; generous for loaded CI hosts
LINE_2D6 = re.compile(r"^\(2D6>=7\) ＞ (\d+)\[(\d),(\d)\] ＞ (\d+) ＞ (成功|失敗)$")
LINE_1D10 = re.compile(r"^\(1D10\) ＞ (\d+)$")
LINE_1D6_PLUS = re.compile(r"^\(1D6\+1\) ＞ (\d)\[(\d)\]\+1 ＞ (\d)$")
HEAVY = ("/pyodide/", "worker.js", "engine.zip")
DICE_2D6 = ".saikoro-roller[data-command='2D6>=7']"
FREE = ".saikoro-roller.saikoro-free"
ASSETS = Path(saikoro.__file__).parent / "site" / "assets"


def wait_result(page: Any, widget: str) -> Any:
    """Wait until ``widget``'s output holds a result or an error (not "loading"); return it."""
    output = page.locator(f"{widget} .saikoro-output").first
    page.wait_for_function(
        """(el) => el.textContent && !el.classList.contains('saikoro-loading')""",
        arg=output.element_handle(),
        timeout=ENGINE_TIMEOUT,
    )
    return output


def clear(page: Any, widget: str) -> None:
    page.locator(f"{widget} .saikoro-output").first.evaluate("el => { el.textContent = ''; }")


def roll(page: Any, widget: str) -> tuple[str, list[str]]:
    """Click ``widget``'s roll button; return the new output text and classes."""
    clear(page, widget)
    page.locator(f"{widget} .saikoro-roll").first.click()
    output = wait_result(page, widget)
    return output.text_content() or "", (output.get_attribute("class") or "").split()


def check_2d6(text: str, classes: list[str]) -> None:
    match = LINE_2D6.match(text)
    assert match, text
    total, a, b, again, word = match.groups()
    assert int(a) + int(b) == int(total) == int(again)
    assert word == ("成功" if int(total) >= 7 else "失敗")
    assert ("saikoro-success" in classes) == (word == "成功")
    assert ("saikoro-failure" in classes) == (word == "失敗")


def follow(page: Any, href_end: str, url_end: str) -> None:
    """Follow a link in the page's text by instant navigation (no reload)."""
    page.locator(f"article a[href$='{href_end}']").first.click()
    page.wait_for_url(re.compile(rf".*{url_end}$"))
    assert page.evaluate("window.__sameDocument") is True  # the document was not reloaded


def visit(session: Session, base_url: str, path: str) -> Any:
    """Make the shared page show ``path`` and return the page.

    In the normal order the tests have navigated there already. Run alone (``-k``, xdist)
    the page is opened, or reached by instant navigation so a running engine survives.
    """
    page = session.page
    target = base_url + path
    if page.url == target:
        return page
    if not page.url.startswith(base_url):
        page.goto(target)
        page.evaluate("window.__sameDocument = true")
        return page
    page.evaluate(
        """(href) => { const a = document.createElement('a'); a.href = href;
        a.textContent = 'go'; document.querySelector('article').appendChild(a); a.click(); }""",
        target,
    )
    page.wait_for_url(target)
    return page


def ready(page: Any) -> None:
    """Wait for the engine (starting it if this page has not yet)."""
    page.evaluate("window.saikoroRoller.load()")
    page.wait_for_function("window.saikoroRoller.state === 'ready'", timeout=ENGINE_TIMEOUT)


def no_xss(page: Any) -> None:
    assert page.evaluate("window.__saikoroXSS") is None
    assert page.evaluate("document.querySelectorAll('img[onerror], [onerror]').length") == 0


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


def test_engine_starts_when_a_roller_is_visible(session_page: Session, base_url: str) -> None:
    page = visit(session_page, base_url, "")
    assert page.evaluate("window.saikoroRoller.state") == "idle"
    page.evaluate("window.__sameDocument = true")
    follow(page, "rules/", "/rules/")
    # policy "visible": a widget is on screen, so the engine loads without a click
    page.wait_for_function("window.saikoroRoller.state !== 'idle'", timeout=5_000)
    assert page.evaluate("window.saikoroRoller.state") == "loading"
    # a click while loading says so, is queued and answered once the engine is ready
    page.locator(f"{DICE_2D6} .saikoro-roll").click()
    assert page.locator(f"{DICE_2D6} .saikoro-output").text_content() == "エンジンを読み込み中…"
    output = wait_result(page, DICE_2D6)
    check_2d6(output.text_content() or "", (output.get_attribute("class") or "").split())
    assert page.evaluate("window.saikoroRoller.state") == "ready"
    wasm = "/sub/path/assets/saikoro/pyodide/pyodide.asm.wasm"
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
    assert history.count() == 5  # capped: the first roll and five more were made
    for item in history.all_text_contents():
        assert LINE_2D6.match(item), item
    assert page.locator(f"{DICE_2D6} .saikoro-copy").is_visible()


def test_copy_button(session_page: Session, base_url: str) -> None:
    page = visit(session_page, base_url, "rules/")
    ready(page)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
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
    field.fill("こんにちは")
    clear(page, FREE)
    field.press("Enter")
    wait_result(page, FREE)
    assert output.text_content() == "コマンドとして認識できません"
    assert "saikoro-error" in (output.get_attribute("class") or "")
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
    # one worker for the whole visit: Pyodide was fetched once
    assert sum("pyodide.asm.wasm" in u for u in session_page.requests) == 1
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


# ---- fresh profiles -----------------------------------------------------------------------


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
    fresh_context.route("**/pyodide/**", lambda route: route.abort())
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


def test_click_policy_waits_for_a_click(fresh_context: Any, click_policy_url: str) -> None:
    page = fresh_context.new_page()
    page.goto(click_policy_url + "scenario/")
    page.locator(".saikoro-roll").first.hover()
    page.locator(".saikoro-roll").first.focus()
    page.wait_for_timeout(300)
    assert page.evaluate("window.saikoroRoller.state") == "idle"
    page.locator(".saikoro-roll").first.click()
    assert page.evaluate("window.saikoroRoller.state") == "loading"
    output = page.locator(".saikoro-output").first
    assert output.text_content() == "エンジンを読み込み中…"


def test_worker_unzips_the_engine_exactly(fresh_context: Any, base_url: str) -> None:
    # the worker inflates engine.zip in JavaScript; every file must come out byte-exact
    worker = (ASSETS / "worker.js").read_text(encoding="utf-8")
    start = worker.index("async function readZip(")
    source = worker[start : worker.index("\n}\n", start) + 2]
    page = fresh_context.new_page()
    page.goto(base_url)
    digests = page.evaluate(
        "(async () => {"
        + source
        + """
          const url = new URL("assets/saikoro/engine.zip", document.baseURI);
          const buffer = await (await fetch(url)).arrayBuffer();
          const out = {};
          for (const [name, bytes] of await readZip(buffer)) {
            const hash = await crypto.subtle.digest("SHA-256", bytes);
            const hex = [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, "0"));
            out[name] = hex.join("");
          }
          return out;
        })()
        """
    )
    archive = zipfile.ZipFile(io.BytesIO(engine_zip()))
    expected = {n: hashlib.sha256(archive.read(n)).hexdigest() for n in archive.namelist()}
    assert digests == expected
