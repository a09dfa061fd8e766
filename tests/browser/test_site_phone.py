"""The project's site in a player's hand (issue 31), in headless Chromium.

- Nothing wider than a 340 px phone's column; no control smaller than a thumb (44 px); no
  probability in exponent form; no line break inside a word.
- A rules page rolls the reader's own value (steppers on its check), the free roller reads
  what an IME writes (``≧``) and offers the page's system.
- Search finds the rule: the rules first, then the scenarios, the rulings, the author
  guide; previews read as text; the open dialog is contrasted (axe-core).
- A rules page is no longer than the wiki page of the same rules (the seed text set in the
  same page), at most 1.2 times, on a phone.
"""

from __future__ import annotations

import re
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from phone import (
    BROKEN_WORDS,
    EXPONENTS,
    OVERFLOW,
    PHONE,
    SMALL_CONTROLS,
    rules_page_screens,
    seed_systems,
)
from widgets import ENGINE_TIMEOUT

import saikoro
from saikoro.site._charts import percent

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
RULES = ("akatsuki", "cutaction", "getb", "kegare", "kokuryoku")
SCENARIOS = sorted(p.stem for p in (REPO / "scenarios").glob("*.yaml"))
PAGES = [
    "",
    *(f"systems/{s}/" for s in RULES),
    "rulings/",
    "commands/",
    "scenarios/",
    *(f"scenarios/{s}/" for s in SCENARIOS),
    "authoring/",
    "authoring/balance/",
]
AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"


def _phone(browser: Any, width: int = 390, scheme: str = "light") -> Any:
    profile = {**PHONE, "viewport": {"width": width, "height": 844}}
    return browser.new_context(**profile, color_scheme=scheme)


@pytest.mark.parametrize("width", [340, 390])
def test_nothing_is_wider_than_a_phone(browser: Any, project_url: str, width: int) -> None:
    context = _phone(browser, width)
    page = context.new_page()
    found = {}
    try:
        for path in PAGES:
            page.goto(project_url + path)
            page.wait_for_load_state("load")
            result = page.evaluate(OVERFLOW)
            if result["page"] > 0 or result["wide"]:
                found[path or "home"] = result
    finally:
        context.close()
    assert found == {}, found


def test_controls_are_a_thumb_wide(browser: Any, project_url: str) -> None:
    context = _phone(browser)
    page = context.new_page()
    found, total = {}, 0
    try:
        for path in PAGES:
            page.goto(project_url + path)
            page.wait_for_load_state("load")
            result = page.evaluate(SMALL_CONTROLS)
            total += result["count"]
            if result["small"]:
                found[path or "home"] = result["small"][:5]
    finally:
        context.close()
    print(f"controls on {len(PAGES)} pages: {total}, under 44 px: {len(found)} pages")
    assert total > 500
    assert found == {}, found


def test_no_probability_in_exponent_form(browser: Any, project_url: str) -> None:
    """Every table open, the long ones built from the page's JSON: the tails of a GETB
    damage distribution (10^-11) read 「0.1%未満」."""
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    try:
        for path in ("systems/getb/", "commands/", "scenarios/getb-kyuuchi/"):
            page.goto(project_url + path)
            page.wait_for_load_state("load")
            page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
            page.wait_for_function(
                "[...document.querySelectorAll('details[data-lazy]')]"
                ".every((d) => d.querySelector('table'))",
                timeout=30_000,
            )
            assert page.evaluate(EXPONENTS) == [], path
            if path == "systems/getb/":
                assert "0.1%未満" in page.locator("article").inner_text()
    finally:
        context.close()


@pytest.mark.parametrize("width", [340, 390])
def test_no_line_break_inside_a_word(browser: Any, project_url: str, width: int) -> None:
    context = _phone(browser, width)
    page = context.new_page()
    found = {}
    try:
        for path in PAGES:
            page.goto(project_url + path)
            page.wait_for_load_state("load")
            broken = page.evaluate(BROKEN_WORDS)
            if broken:
                found[path or "home"] = broken[:5]
    finally:
        context.close()
    assert found == {}, found


def _wait(page: Any, output: Any) -> str:
    page.wait_for_function(
        "(el) => el.textContent && !el.classList.contains('saikoro-loading')",
        arg=output.element_handle(),
        timeout=ENGINE_TIMEOUT,
    )
    return str(output.inner_text())


def test_rules_page_rolls_your_own_value(browser: Any, project_url: str) -> None:
    context = _phone(browser)
    page = context.new_page()
    try:
        for system in RULES:  # every rules page's check rolls the reader's own value
            page.goto(f"{project_url}systems/{system}/")
            assert page.locator(".saikoro-own").count() >= 1, system
            field = page.locator(".saikoro-free .saikoro-command")
            example = saikoro.get_system(system).commands[0].examples[0]
            assert field.get_attribute("placeholder") == example, system
        page.goto(f"{project_url}systems/getb/")
        row = page.locator(".saikoro-own").first
        steppers = row.locator(".saikoro-stepper")
        assert row.locator(".saikoro-roll").inner_text() == "GB3>=8"
        steppers.nth(0).locator("[data-step='1']").tap()
        steppers.nth(0).locator("[data-step='1']").tap()
        steppers.nth(1).locator("[data-step='-1']").tap()
        assert row.locator(".saikoro-roll").inner_text() == "GB5>=7"
        odds = saikoro.odds("GB5>=7", system="getb")
        assert odds is not None and odds.success is not None
        success = row.locator(".saikoro-summary dd").first.locator("span")
        assert success.inner_text() == percent(odds.success)
        assert Fraction(success.get_attribute("data-probability") or "") == odds.success
        # the chips of the free roller follow
        assert "GB5>=7" in page.locator(".saikoro-free .saikoro-chip").all_inner_texts()
        row.locator(".saikoro-roll").tap()
        text = _wait(page, row.locator(".saikoro-output"))
        match = re.fullmatch(r"\(GB5>=7\) ＞ (\d+)\[(\d+)\]\+5 ＞ (\d+) ＞ \S+", text)
        assert match, text
        assert int(match.group(3)) == int(match.group(1)) + 5
        # the free roller reads ≧ as an IME writes it
        field = page.locator(".saikoro-free .saikoro-command")
        field.fill("GB3≧8")
        field.press("Enter")
        text = _wait(page, page.locator(".saikoro-free .saikoro-output"))
        assert re.fullmatch(r"\(GB3>=8\) ＞ \d+\[\d+\]\+3 ＞ \d+ ＞ \S+", text), text
        # kept on the device
        page.reload()
        assert page.locator(".saikoro-own .saikoro-roll").first.inner_text() == "GB5>=7"
    finally:
        context.close()


def _search(page: Any, query: str) -> list[dict[str, str]]:
    """Search for ``query`` in Material's dialog; each result's page, section and preview."""
    for _ in range(6):
        page.keyboard.press("s")  # Material's key for search
        field = page.locator("input[data-md-component='search-query']")
        field.fill(query)
        field.press("End")  # a keyup: Material reads the field on keyup
        page.wait_for_timeout(1_000)
        meta = page.locator(".md-search-result__meta").inner_text()
        if re.search("件", meta):
            results: list[dict[str, str]] = page.evaluate(
                """() => [...document.querySelectorAll('.md-search-result__item')].map((li) => {
                  const a = li.querySelector('a');
                  return {href: a.getAttribute('href'),
                          title: (li.querySelector('h1') || {}).textContent || '',
                          text: [...li.querySelectorAll('article')]
                            .map((e) => e.innerText).join(' ')};
                })"""
            )
            page.keyboard.press("Escape")
            return results
        page.keyboard.press("Escape")
    raise AssertionError(f"search never answered {query!r}")


def _kind(href: str, base: str) -> int:
    path = href.removeprefix(base).lstrip("./")
    if path.startswith("systems/"):
        return 0
    if path.startswith(("rulings/", "commands/")):
        return 2
    if path.startswith(("authoring/", "api/")):
        return 3
    return 1  # scenarios, the home page


@pytest.mark.parametrize("query", ["回避", "クリティカル", "追跡", "穢れ"])
def test_search_finds_the_rule(browser: Any, project_url: str, query: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.goto(project_url)
        page.wait_for_load_state("load")
        results = _search(page, query)
    finally:
        context.close()
    assert results, query
    kinds = [_kind(r["href"], project_url) for r in results]
    # a rules section first, then scenarios and other pages, the rulings, the guide
    assert kinds[0] == 0, results[0]
    assert kinds == sorted(kinds), [(k, r["href"]) for k, r in zip(kinds, results, strict=True)]
    # whole terms: every result holds the query as it was typed (回避, not 回る or 回復)
    for r in results:
        assert query in r["text"] or query in r["title"], (query, r)
    # previews read as text: no button labels, no stat blocks run together
    for r in results:
        assert "ココフォリアにコピー" not in r["text"], r
        assert not re.search(r"\dD\d+を振る", r["text"]), r
        assert not re.search(r"[一-龥]\d+[一-龥]+\d+[一-龥]", r["text"]), r


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_search_dialog_is_contrasted(browser: Any, project_url: str, scheme: str) -> None:
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: run `npm ci` (axe-core is a dev dependency)")
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=scheme)
    page = context.new_page()
    try:
        page.goto(project_url + "systems/getb/")
        page.wait_for_load_state("load")
        page.keyboard.press("s")
        field = page.locator("input[data-md-component='search-query']")
        field.fill("クリティカル")
        field.press("End")
        page.wait_for_selector(".md-search-result__item mark", timeout=20_000)
        page.add_script_tag(content=AXE.read_text("utf-8"))
        violations = page.evaluate(
            """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
              .map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', '))"""
        )
    finally:
        context.close()
    assert violations == [], violations


def test_rules_pages_are_no_longer_than_the_wiki(browser: Any, project_url: str) -> None:
    sys.path.insert(0, str(REPO / "tests"))
    from shared_data import SEEDS, require

    seeds = seed_systems(require(SEEDS, "the seed rule texts"))
    assert set(seeds) == set(RULES)
    context = _phone(browser)
    page = context.new_page()
    figures = {}
    try:
        for system in RULES:
            text = seeds[system].read_text("utf-8")
            figures[system] = rules_page_screens(page, f"{project_url}systems/{system}/", text)
    finally:
        context.close()
    print({s: f"{ours:.1f} / {wiki:.1f}" for s, (ours, wiki) in figures.items()})
    for system, (ours, wiki) in figures.items():
        assert ours <= 1.2 * wiki, (system, ours, wiki)
