"""Helpers of the browser tests: roll a widget, wait for it, check a BCDice line."""

from __future__ import annotations

import re
from typing import Any

from harness import Session

ENGINE_TIMEOUT = (
    60_000  # ms: a cold MicroPython start is under 1 s here; generous for loaded CI hosts
)
LINE_2D6 = re.compile(r"^\(2D6>=7\) ＞ (\d+)\[(\d),(\d)\] ＞ (\d+) ＞ (成功|失敗)$")
LINE_1D10 = re.compile(r"^\(1D10\) ＞ (\d+)$")
LINE_1D6_PLUS = re.compile(r"^\(1D6\+1\) ＞ (\d)\[(\d)\]\+1 ＞ (\d)$")
HEAVY = ("/micropython/", "worker.js", "/engine/")
DICE_2D6 = ".saikoro-roller[data-command='2D6>=7']"
FREE = ".saikoro-roller.saikoro-free"


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
