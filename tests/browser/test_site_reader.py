"""The project's own site (``mkdocs.yml`` at the repository root: the five rules pages and
the sample scenario book) as a reader sees it in headless Chromium, at desktop and phone
widths: flowcharts, odds tables, Japanese text.

The site is built once per session into a temporary folder and served under a sub-path.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from harness import serve

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from print_figures import parts

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
RULES = ("getb", "kegare", "akatsuki", "kokuryoku", "cutaction")
WIDTHS = (1280, 390)
MIN_LABEL_PX = 12.0


FLOW_LABELS = """() => Array.from(document.querySelectorAll('.saikoro-flow')).map(figure => {
  const host = figure.querySelector('.mermaid');
  const shadow = host && host.saikoroShadow;
  if (!shadow) return {flow: figure.dataset.flow, error: 'not rendered'};
  const svg = shadow.querySelector('svg');
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const sizes = Array.from(shadow.querySelectorAll('.nodeLabel, .edgeLabel'))
    .filter(el => el.textContent.trim())
    .map(el => parseFloat(getComputedStyle(el).fontSize) * scale);
  const frame = figure.querySelector('.saikoro-flow-chart');
  return {flow: figure.dataset.flow, labels: sizes.length, min: Math.min(...sizes),
          overflows: frame.scrollWidth > frame.clientWidth + 1,
          cue: frame.classList.contains('saikoro-scrolls'),
          hint: getComputedStyle(figure.querySelector('.saikoro-flow-hint')).display !== 'none',
          pageOverflow: document.documentElement.scrollWidth > window.innerWidth};
})"""


def _rendered(page: Any) -> list[dict[str, Any]]:
    """Every chart of the page, drawn (charts are drawn as they near the viewport: all of
    them at once here, as for print)."""
    page.evaluate("window.saikoroFlows.drawAll()")
    page.wait_for_function(
        "document.querySelectorAll('.saikoro-flow').length > 0 && "
        "document.querySelectorAll('.saikoro-flow pre.mermaid').length === 0 && "
        "Array.from(document.querySelectorAll('.saikoro-flow .mermaid'))"
        ".every(h => h.saikoroShadow)",
        timeout=30_000,
    )
    result: list[dict[str, Any]] = page.evaluate(FLOW_LABELS)
    return result


@pytest.mark.parametrize("width", WIDTHS)
def test_flowchart_labels_are_readable(browser: Any, project_url: str, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    seen = 0
    try:
        for system in RULES:
            page.goto(f"{project_url}systems/{system}/")
            for chart in _rendered(page):
                assert "error" not in chart, chart
                assert chart["labels"] > 0, chart
                assert chart["min"] >= MIN_LABEL_PX, (width, chart)
                # a chart wider than the column scrolls inside its frame, with a visible cue
                assert chart["overflows"] == chart["cue"] == chart["hint"], (width, chart)
                assert not chart["pageOverflow"], (width, chart)
                seen += 1
    finally:
        context.close()
    assert seen >= 20


def test_flowchart_opens_full_screen_with_zoom(browser: Any, project_url: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 800}, has_touch=True)
    page = context.new_page()
    try:
        page.goto(f"{project_url}systems/cutaction/")
        _rendered(page)
        frame = page.locator(".saikoro-flow-chart").first
        frame.focus()
        page.keyboard.press("Enter")
        dialog = page.locator("dialog.saikoro-flow-dialog")
        assert dialog.evaluate("d => d.open") is True
        width = dialog.evaluate(
            "d => d.saikoroRoot.querySelector('svg').getBoundingClientRect().width"
        )
        page.locator("dialog button[data-zoom='in']").click()
        wider = dialog.evaluate(
            "d => d.saikoroRoot.querySelector('svg').getBoundingClientRect().width"
        )
        assert wider > width * 1.2
        page.keyboard.press("Escape")
        assert dialog.evaluate("d => d.open") is False
        # a click (tap) opens it too
        page.locator(".saikoro-flow-chart").nth(1).click()
        assert dialog.evaluate("d => d.open") is True
    finally:
        context.close()


def test_subflow_steps_link_to_their_charts(browser: Any, project_url: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(f"{project_url}systems/getb/")
        links = page.locator("figure[data-flow='getb.attack'] .saikoro-flow-links a")
        assert links.count() == 2
        for i in range(links.count()):
            target = (links.nth(i).get_attribute("href") or "").rsplit("#", 1)[-1]
            assert page.locator(f"figure#{target}").count() == 1, target
        text = page.locator("article").inner_text()
        assert "→ getb." not in text
    finally:
        context.close()


SCENARIOS = sorted(p.stem for p in (REPO / "scenarios").glob("*.yaml"))

OVERFLOW = """() => {
  const wide = [];
  const boxes = '.saikoro-grid, .saikoro-chase, .saikoro-index-box, .md-typeset__scrollwrap, '
    + '.saikoro-flow-chart';
  for (const el of document.querySelectorAll(boxes)) {
    if (el.scrollWidth <= el.clientWidth + 1) continue;
    // inside our own boxes Material's table wrapper does not scroll: the box does
    if (el.matches('.md-typeset__scrollwrap') && el.parentElement.closest(
      '.saikoro-grid, .saikoro-chase')) continue;
    const style = getComputedStyle(el);
    wide.push({cls: el.className, scrolls: ['auto', 'scroll'].includes(style.overflowX),
               cue: style.backgroundImage.includes('gradient')
                 || el.classList.contains('saikoro-scrolls')});
  }
  return {page: document.documentElement.scrollWidth - window.innerWidth, wide};
}"""


def test_nothing_overflows_a_phone_without_a_cue(browser: Any, project_url: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 800}, has_touch=True)
    page = context.new_page()
    try:
        paths = [f"systems/{s}/" for s in RULES] + ["commands/"]
        paths += ["scenarios/"] + [f"scenarios/{s}/" for s in SCENARIOS]
        for path in paths:
            page.goto(project_url + path)
            page.wait_for_load_state("load")
            result = page.evaluate(OVERFLOW)
            assert result["page"] <= 0, (path, result)
            for box in result["wide"]:
                assert box["scrolls"] and box["cue"], (path, box)
    finally:
        context.close()


def test_target_odds_read_at_a_glance(browser: Any, project_url: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 800})
    page = context.new_page()
    try:
        page.goto(f"{project_url}scenarios/getb-kyuuchi/")
        grid = page.locator(".saikoro-grid.saikoro-glance").first
        heads = grid.locator("thead .saikoro-heads span").all_inner_texts()
        assert heads == ["成功", "クリティカル", "ファンブル"]
        rows = grid.locator("tbody tr")
        assert rows.count() == 8
        # one line per ability: the three values side by side, each with a bar
        first = rows.first.locator(".saikoro-cell > span")
        boxes = [first.nth(i).bounding_box() for i in range(3)]
        assert all(b is not None for b in boxes)
        tops = {round(b["y"]) for b in boxes if b}
        assert len(tops) == 1, boxes
        assert all("--p:" in (first.nth(i).get_attribute("style") or "") for i in range(3))
        # the table fits the phone's column
        assert grid.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
    finally:
        context.close()


def test_long_values_and_tables_load_on_demand(browser: Any, project_url: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    try:
        page.goto(f"{project_url}systems/getb/")
        page.wait_for_load_state("networkidle")
        assert not [u for u in requests if u.endswith(".odds.json")]
        details = page.locator("details[data-lazy]").first
        # the distributions are folded under their fence's rows: open the fold first
        details.evaluate("d => { d.closest('details.saikoro-more').open = true; }")
        details.locator("summary").click()
        page.wait_for_function(
            "d => d.querySelector('table tbody tr')", arg=details.element_handle()
        )
        cells = details.locator("td[data-probability]")
        assert cells.count() > 24
        assert re.fullmatch(r"\d+/\d+", cells.first.get_attribute("data-probability") or "")
        assert [u for u in requests if u.endswith("index.odds.json")]
        missing = page.evaluate(
            "() => [...document.querySelectorAll('[data-exact]')]"
            ".filter(el => !/^\\d+\\/\\d+$/.test(el.getAttribute('data-probability') || ''))"
            ".map(el => el.outerHTML.slice(0, 200))"
        )
        assert missing == [], (len(missing), missing[:3])
        long_tips = page.evaluate(
            "() => [...document.querySelectorAll('[title]')].map(e => e.title)"
            ".filter(t => /[0-9/]{25,}/.test(t)).length"
        )
        assert long_tips == 0
    finally:
        context.close()


JAPANESE = "[\\u3040-\\u30ff\\u3400-\\u9fff\\u3000-\\u303f\\uff01-\\uff60]"
SPACED = f"""() => {{
  const article = document.querySelector('article').cloneNode(true);
  // BCDice's result lines (in code) are spaced by design: 「(AKR7/6) ＞ 能動側 目標値7」
  article.querySelectorAll('code, pre').forEach(el => el.replaceWith('CODE'));
  document.body.appendChild(article);
  const text = article.innerText;
  article.remove();
  const re = new RegExp('{JAPANESE}[ \\u00a0]+{JAPANESE}', 'g');
  return [...text.matchAll(re)].map(m => text.slice(Math.max(0, m.index - 10), m.index + 10));
}}"""


def test_no_space_between_japanese_characters(browser: Any, project_url: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    try:
        for system in RULES:
            page.goto(f"{project_url}systems/{system}/")
            assert page.evaluate(SPACED) == [], system
            # internal ids are not reader text: rulings are named by their titles
            text = page.locator("article").inner_text()
            assert not re.findall(r"裁定\s*[a-z][a-z_.]{2,}|→ [a-z]+\.[a-z_]+", text), system
    finally:
        context.close()


ENUM_WORDS = [
    "centre",
    "center",
    "charm",
    "confusion",
    "poison",
    "paralysis",
    "curse",
    "rounds",
    "turns",
    "both_fail",
    "draw",
    "final_damage_tie",
    "zero",
    "miracle_tier",
    "position_stack",
    "min_damage",
    "check_dice",
    "die",
    "True",
    "False",
    "physical",
    "fire",
    "ice",
    "thunder",
    "divine",
    "buckler",
    "shield",
    "tower",
    "long-blade",
    "short-blade",
    "buster-blade",
    "near",
    "mid",
    "far",
    "strength",
    "agility",
    "intellect",
    "endurance",
]


def test_scenario_pages_show_no_yaml_ids(browser: Any, project_url: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    # a ruling's key (``kokuryoku.die``, shown beside the rulings a figure used) is not a
    # stray YAML value: a word right after a dot is part of such a key
    pattern = r"(?<![A-Za-z_.-])(" + "|".join(re.escape(w) for w in ENUM_WORDS) + r")(?![A-Za-z_-])"
    try:
        for scenario in SCENARIOS:
            page.goto(f"{project_url}scenarios/{scenario}/")
            text = page.locator("article").inner_text()
            found = re.findall(pattern, text)
            assert found == [], (scenario, found)
    finally:
        context.close()


def _search(page: Any, query: str) -> list[str]:
    """Type ``query`` in Material's search box; the titles of the results.

    A query typed before the index is loaded gets no answer: it is typed again then.
    """
    meta = page.locator(".md-search-result__meta")
    for _ in range(6):
        page.locator("label.md-search__icon, .md-search__input").first.click()
        page.fill(".md-search__input", query)
        page.wait_for_timeout(3_000)
        answered = re.search("件|見つかりません", meta.inner_text())
        titles: list[str] = page.locator(
            ".md-search-result__item h1, .md-search-result__item h2"
        ).all_inner_texts()
        page.keyboard.press("Escape")
        if answered:
            return titles
    raise AssertionError(f"search never answered {query!r}: {meta.inner_text()!r}")


def test_search_finds_japanese_table_names(browser: Any, project_url: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(project_url)
        titles = _search(page, "チェイス表")
        assert titles, "チェイス表"
        assert any("チェイス表" in t for t in titles), titles
        assert _search(page, "警戒表")
    finally:
        context.close()


def test_search_finds_kanji_compounds(browser: Any, tmp_path: Path) -> None:
    """A name of kanji only (鉄塔崩落表) is found with the separator of ``mkdocs.yml``."""
    import yaml

    separator = next(
        p["search"]["separator"]
        for p in yaml.safe_load((REPO / "mkdocs.yml").read_text("utf-8"))["plugins"]
        if isinstance(p, dict) and "search" in p
    )
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# ホーム\n\n表の一覧です。\n", "utf-8")
    (docs / "towers.md").write_text(
        "# 廃墟の塔\n\n## 鉄塔崩落表\n\n| 出目 | 出来事 |\n|---|---|\n| 1 | 鉄塔が崩れる |\n",
        "utf-8",
    )
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\ntheme:\n  name: material\n  language: ja\n  font: false\n"
        f"plugins:\n  - search:\n      lang: ja\n      separator: {json.dumps(separator)}\n",
        "utf-8",
    )
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)],
        check=True,
        cwd=tmp_path,
        env=env,
    )
    context = browser.new_context()
    page = context.new_page()
    try:
        with serve(site, tmp_path / "served") as url:
            page.goto(url)
            for query in ("鉄塔崩落表", "崩落表", "鉄塔"):
                assert any("鉄塔崩落表" in t for t in _search(page, query)), query
    finally:
        context.close()


def test_scenario_index_sorts_and_nav_groups_by_system(browser: Any, project_url: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(f"{project_url}scenarios/")
        table = page.locator("table.saikoro-index")
        assert table.locator("tbody tr").count() == len(SCENARIOS)
        heads = table.locator("thead th").all_inner_texts()
        # a GM's columns: no count of checks that reads like a rating
        assert heads == ["タイトル", "システム", "人数", "バランス", "勝率"]
        column = heads.index("勝率")

        def rates() -> list[float]:
            cells = table.locator(f"tbody tr td:nth-child({column + 1})")
            return [float(c.get_attribute("data-sort") or "nan") for c in cells.all()]

        verdicts = table.locator("tbody .saikoro-verdict").all_inner_texts()
        assert len(verdicts) == len(SCENARIOS)
        assert set(verdicts) <= {"易しい", "標準", "厳しい", "非常に厳しい"}
        table.locator("thead th button").nth(column).click()
        assert rates() == sorted(rates())
        table.locator("thead th button").nth(column).click()
        assert rates() == sorted(rates(), reverse=True)
        assert table.locator("thead th").nth(column).get_attribute("aria-sort") == "descending"
        # the nav: the book's section holds one sub-section per system
        nav = page.locator(".md-nav--primary").inner_text()
        assert "GOD EATER TABLE BURST" in nav.split("サンプルシナリオブック", 1)[-1]
    finally:
        context.close()


def test_whole_book_prints_to_pdf(browser: Any, project_url: str, tmp_path: Path) -> None:
    import unicodedata

    import pypdf
    import yaml

    from saikoro.site._pdf import render_pdf

    context = browser.new_context()
    page = context.new_page()
    try:
        out = render_pdf(f"{project_url}scenarios/book/", tmp_path / "book.pdf", page=page)
    finally:
        context.close()
    reader = pypdf.PdfReader(str(out))
    pages = [unicodedata.normalize("NFKC", p.extract_text() or "") for p in reader.pages]
    titles = [
        str(yaml.safe_load((REPO / "scenarios" / f"{s}.yaml").read_text("utf-8"))["title"])
        for s in SCENARIOS
    ]
    # every scenario is there, in order, and no page is left nearly empty but the last of a
    # part (the cover, the contents, a scenario's text, its handouts to cut out, which start a
    # page of their own, the colophon: tests/print_figures.py)
    starts = [next((i for i, t in enumerate(pages) if title in t), -1) for title in titles]
    assert all(i >= 0 for i in starts), list(zip(titles, starts, strict=True))
    fill = _fullness(reader)
    ends = {part.last for part in parts(reader)}
    sparse = [(i + 1, f) for i, f in enumerate(fill) if f < 0.25 and i + 1 not in ends]
    assert sparse == [], (len(fill), sparse)
    text = "\n".join(pages)
    assert re.search("[\u3040-\u30ff\u4e00-\u9fff]{20}", text)  # Japanese text, as text
    for button in (
        "ココフォリアにコピー",
        "ユドナリウム用",
        "共有リンク",
        "🎲",
        "クリック（Enter）で拡大",
    ):
        assert button not in text, button
    print(f"book.pdf: {len(pages)} pages, {out.stat().st_size // 1024} KB, fullness {fill}")


def _fullness(reader: Any) -> list[float]:
    """How far down each page its text reaches, from 0 (empty) to 1 (to the bottom margin),
    from the positions of the page's text; the page number, in the bottom margin, left out.
    The margins are A4's (15 mm above, 17 mm below: ``saikoro.site._paper``)."""
    out = []
    for pdf_page in reader.pages:
        height = float(pdf_page.mediabox.height)
        ys: list[float] = []

        def visit(text: str, cm: Any, tm: Any, *_: Any, ys: list[float] = ys) -> None:
            if text.strip():
                ys.append(float(tm[5]) * float(cm[3]) + float(cm[5]) if cm[3] else float(tm[5]))

        pdf_page.extract_text(visitor_text=visit)
        top, bottom = height - 15 / 25.4 * 72, 17 / 25.4 * 72
        body = [y for y in ys if y > bottom - 2]  # the page number sits below the margin
        low = min(body) if body else top
        out.append(round((top - low) / (top - bottom), 2))
    return out


CONTRAST = """(selectors) => {
  function rgba(text) {
    const srgb = text.match(/color\\(srgb ([^)]+)\\)/);  // color-mix() computes to this
    if (srgb) {
      const p = srgb[1].split(/[ /]+/).filter(Boolean).map(Number);
      return [p[0] * 255, p[1] * 255, p[2] * 255, p.length > 3 ? p[3] : 1];
    }
    const m = text.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  }
  function over(top, bottom) {
    const a = top[3];
    return [0, 1, 2].map(i => top[i] * a + bottom[i] * (1 - a)).concat([1]);
  }
  function background(el) {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let bg = [255, 255, 255, 1];
    for (let i = layers.length - 1; i >= 0; i--) bg = over(layers[i], bg);
    return bg;
  }
  function lum(c) {
    const s = c.slice(0, 3).map(v => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * s[0] + 0.7152 * s[1] + 0.0722 * s[2];
  }
  const out = [];
  for (const selector of selectors) {
    for (const el of [...document.querySelectorAll(selector)].slice(0, 5)) {
      if (!el.getClientRects().length || !el.textContent.trim()) continue;
      const bg = background(el);
      const fg = over(rgba(getComputedStyle(el).color), bg);
      const a = lum(fg), b = lum(bg);
      out.push({selector, ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05),
                text: el.textContent.trim().slice(0, 20)});
    }
  }
  return out;
}"""

CONTRAST_TARGETS = {
    "scenarios/getb-kyuuchi/": [
        "article p",
        ".saikoro-meta",
        ".saikoro-note",
        ".saikoro-axisrow span",
        ".saikoro-stats dt",
        ".saikoro-export .md-button",
        ".saikoro-roll",
        ".saikoro-heat",
        ".saikoro-glance .saikoro-heads span",
        ".saikoro-grid-title",
    ],
    "scenarios/": [".saikoro-index td", ".saikoro-index th button", ".saikoro-index a"],
    "systems/getb/": [
        ".saikoro-flow-hint",
        ".saikoro-flow-links a",
        ".saikoro-flow-fold > summary",
    ],
}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_and_buttons_meet_wcag_aa(browser: Any, project_url: str, scheme: str) -> None:
    context = browser.new_context(color_scheme=scheme, viewport={"width": 390, "height": 900})
    page = context.new_page()
    low = []
    measured = 0
    lowest: dict[str, float] = {}
    try:
        for path, selectors in CONTRAST_TARGETS.items():
            page.goto(project_url + path)
            page.wait_for_load_state("load")
            for item in page.evaluate(CONTRAST, selectors):
                measured += 1
                lowest[item["selector"]] = min(lowest.get(item["selector"], 99), item["ratio"])
                if item["ratio"] < 4.5:
                    low.append((path, item))
        print(scheme, {k: round(v, 2) for k, v in lowest.items()})
    finally:
        context.close()
    assert measured >= 20
    assert low == [], low
