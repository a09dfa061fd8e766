"""The project's site for every reader: axe-core finds nothing on any page type (light
and dark, phone and desktop), graphics and text are large and contrasted enough, charts
on a phone load late, open at their start and speak of taps, the scenario index reads as
cards on a phone.

axe-core is the npm dev dependency pinned in ``package.json`` (``node_modules/axe-core``),
injected into each page by Playwright.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"

PAGE_TYPES = (
    "",  # home
    "systems/getb/",  # a rules page: flowcharts, odds cards, tables
    "systems/cutaction/",
    "rulings/",
    "commands/",
    "authoring/",  # a guide with code blocks
    "authoring/fields/",
    "scenarios/",  # the scenario index
    "scenarios/akatsuki-toride/",  # one scenario page per system (their stat blocks differ)
    "scenarios/cutaction-tou/",
    "scenarios/getb-kyuuchi/",
    "scenarios/kegare-yashiro/",
    "scenarios/kokuryoku-yama/",
    "scenarios/book/",  # the whole book
)

RUN_AXE = """async () => {
  if (window.saikoroFlows) await window.saikoroFlows.drawAll();
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, count: v.nodes.length,
    nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': '
      + (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 200)),
  }));
}"""


def _axe_source() -> str:
    if not AXE.is_file():
        message = f"{AXE} is missing: run `npm ci` (axe-core is a dev dependency)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return AXE.read_text("utf-8")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [390, 1280])
def test_axe_finds_no_violation(browser: Any, project_url: str, width: int, scheme: str) -> None:
    source = _axe_source()
    context = browser.new_context(
        viewport={"width": width, "height": 900}, color_scheme=scheme, has_touch=width < 500
    )
    page = context.new_page()
    found: dict[str, list[dict[str, Any]]] = {}
    try:
        for path in PAGE_TYPES:
            page.goto(project_url + path)
            page.wait_for_load_state("load")
            page.add_script_tag(content=source)
            violations = page.evaluate(RUN_AXE)
            if violations:
                found[path or "home"] = violations
    finally:
        context.close()
    counts = {p: sum(v["count"] for v in vs) for p, vs in found.items()}
    print(f"axe at {width} px, {scheme}: {sum(counts.values())} violations", counts)
    assert found == {}, found


GRAPHICS = """() => {
  function rgb(text) {
    const srgb = text.match(/color\\(srgb ([^)]+)\\)/);
    if (srgb) return srgb[1].split(/[ /]+/).filter(Boolean).slice(0, 3).map(v => Number(v) * 255);
    const m = text.match(/rgba?\\(([^)]+)\\)/);
    return m ? m[1].split(/[ ,/]+/).filter(Boolean).slice(0, 3).map(Number) : null;
  }
  function lum(c) {
    const s = c.map(v => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * s[0] + 0.7152 * s[1] + 0.0722 * s[2];
  }
  function ratio(a, b) {
    const x = lum(a), y = lum(b);
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  }
  const main = getComputedStyle(document.querySelector('.md-main') || document.body);
  const page = rgb(main.getPropertyValue('--md-default-bg-color'))
    || rgb(getComputedStyle(document.body).backgroundColor);
  const out = [];
  for (const rect of [...document.querySelectorAll('.saikoro-chart rect')].slice(0, 40)) {
    const style = getComputedStyle(rect);
    out.push({what: 'bar', ratio: ratio(rgb(style.fill), page), opacity: Number(style.opacity)});
  }
  return out;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_chart_bars_stand_out_from_the_page(browser: Any, project_url: str, scheme: str) -> None:
    """WCAG 1.4.11: a bar is a graphic that carries the numbers: at least 3:1."""
    context = browser.new_context(color_scheme=scheme)
    page = context.new_page()
    try:
        bars = []
        for path in ("systems/kegare/", "scenarios/cutaction-tou/"):
            page.goto(project_url + path)
            page.wait_for_load_state("load")
            bars += page.evaluate(GRAPHICS)
    finally:
        context.close()
    assert len(bars) >= 10
    low = [b for b in bars if b["ratio"] < 3 or b["opacity"] < 1]
    print(scheme, "lowest bar contrast", round(min(b["ratio"] for b in bars), 2))
    assert low == [], low[:3]


SMALL_TEXT = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.querySelector('article'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || !el.getClientRects().length) continue;
    if (el.closest('.headerlink, .mermaid, .saikoro-print-only, [hidden]')) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    const size = parseFloat(style.fontSize);
    if (size < 11.95) {
      out.push({size, tag: el.tagName, cls: el.className, text: node.textContent.slice(0, 20)});
    }
  }
  return out;
}"""


@pytest.mark.parametrize("width", [390, 1280])
def test_no_text_below_12_px(browser: Any, project_url: str, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    small: list[tuple[str, Any]] = []
    try:
        for path in ("systems/getb/", "commands/", "scenarios/getb-kyuuchi/", "scenarios/"):
            page.goto(project_url + path)
            page.wait_for_load_state("load")
            small += [(path, s) for s in page.evaluate(SMALL_TEXT)]
    finally:
        context.close()
    assert small == [], small[:5]


def test_charts_load_late_on_a_phone(browser: Any, project_url: str) -> None:
    """Mermaid (3.6 MB) is fetched only once a chart is opened (a rules page folds its
    charts under a line naming each) and near the viewport."""
    context = browser.new_context(viewport={"width": 390, "height": 800}, has_touch=True)
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    try:
        page.goto(f"{project_url}systems/kokuryoku/")
        page.wait_for_load_state("networkidle")
        assert page.locator(".saikoro-flow pre.mermaid").count() > 0
        fold = page.locator("details.saikoro-flow-fold").first
        fold.scroll_into_view_if_needed()
        page.wait_for_timeout(1_000)
        # in view but folded: nothing drawn, nothing fetched
        assert not [u for u in requests if u.endswith("mermaid.min.js")]
        fold.locator("summary").tap()
        page.wait_for_function(
            "() => { const h = document.querySelector('.saikoro-flow .mermaid');"
            " return h && h.saikoroShadow; }",
            timeout=30_000,
        )
        assert [u for u in requests if u.endswith("mermaid.min.js")]
        # the other charts, folded, are still waiting
        assert page.evaluate("window.saikoroFlows.pending()") > 0
    finally:
        context.close()


def _drawn(page: Any) -> None:
    page.evaluate("window.saikoroFlows.drawAll()")
    page.wait_for_function(
        "document.querySelectorAll('.saikoro-flow pre.mermaid').length === 0 && "
        "[...document.querySelectorAll('.saikoro-flow .mermaid')].every(h => h.saikoroShadow)",
        timeout=30_000,
    )


START = """() => [...document.querySelectorAll('.saikoro-flow-chart.saikoro-scrolls')]
.map(frame => {
  const shadow = frame.querySelector('.mermaid').saikoroShadow;
  const first = shadow.querySelector('g.node');
  const box = first.getBoundingClientRect(), view = frame.getBoundingClientRect();
  return {flow: frame.closest('figure').dataset.flow,
          visible: box.left >= view.left - 1 && box.right <= view.right + 1};
})"""


def test_charts_on_a_phone_start_at_their_first_node(browser: Any, project_url: str) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 800}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    try:
        seen = 0
        for system in ("getb", "kegare", "cutaction", "akatsuki", "kokuryoku"):
            page.goto(f"{project_url}systems/{system}/")
            _drawn(page)
            for chart in page.evaluate(START):
                assert chart["visible"], chart
                seen += 1
            # a touch screen is told to swipe and tap, not to click or press Enter
            shown = page.evaluate(
                "() => [...document.querySelectorAll('.saikoro-flow-hint span')]"
                ".filter(s => getComputedStyle(s).display !== 'none').map(s => s.textContent)"
            )
            assert shown, system
            assert all("タップ" in t and "クリック" not in t for t in shown), shown
    finally:
        context.close()
    assert seen >= 1


def test_full_screen_chart_opens_fitted(browser: Any, project_url: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 800}, has_touch=True)
    page = context.new_page()
    try:
        page.goto(f"{project_url}systems/cutaction/")
        _drawn(page)
        page.locator(".saikoro-flow-chart").first.click()
        dialog = page.locator("dialog.saikoro-flow-dialog")
        fits = dialog.evaluate(
            "d => { const s = d.saikoroRoot.querySelector('svg').getBoundingClientRect();"
            " const p = d.querySelector('.saikoro-flow-pane');"
            " return s.width <= p.clientWidth && s.height <= p.clientHeight; }"
        )
        assert fits
        assert dialog.evaluate("d => d.querySelector('.saikoro-flow-pane').scrollWidth") <= 390
    finally:
        context.close()


def test_decision_nodes_fit_a_phone_screen(browser: Any, project_url: str) -> None:
    """GETB's 判定 chart: three questions stacked; each diamond well under a third of
    the screen (they were 1.5 screens together)."""
    context = browser.new_context(viewport={"width": 390, "height": 800}, has_touch=True)
    page = context.new_page()
    try:
        page.goto(f"{project_url}systems/getb/")
        _drawn(page)
        heights = page.evaluate(
            "() => [...document.querySelector('figure[data-flow=\"getb.check\"] .mermaid')"
            ".saikoroShadow.querySelectorAll('g.node polygon')]"
            ".map(p => p.getBoundingClientRect().height)"
        )
    finally:
        context.close()
    assert heights
    assert max(heights) < 800 / 4, heights


def test_scenario_index_reads_on_a_phone(browser: Any, project_url: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 800}, has_touch=True)
    page = context.new_page()
    try:
        page.goto(f"{project_url}scenarios/")
        box = page.locator(".saikoro-index-box")
        assert box.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
        row = page.locator("table.saikoro-index tbody tr").first
        for cell in ("title", "system", "players", "verdict", "win"):
            bounds = row.locator(f"td.saikoro-index-{cell}").bounding_box()
            assert bounds is not None
            assert bounds["x"] >= 0 and bounds["x"] + bounds["width"] <= 390, (cell, bounds)
    finally:
        context.close()
