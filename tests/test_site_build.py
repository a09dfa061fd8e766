"""Real MkDocs builds: a minimal author site (``plugins: [saikoro]``) and the project's site.

Each site is built ONCE per session (subprocess ``mkdocs build --strict``); the tests
then read the HTML. Probabilities on the pages are compared with independent brute-force
computations from the rules (not with the engine).
"""

from __future__ import annotations

import html
import io
import itertools
import json
import re
import xml.etree.ElementTree as ET
import zipfile
from fractions import Fraction
from pathlib import Path

import pytest

from test_site_support import REPO, build, env, event_handlers, make_author_site, tags

pytestmark = pytest.mark.slow


@pytest.fixture(scope="session")
def author_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_author_site(tmp_path_factory.mktemp("author"))
    result = build(root)
    assert result.returncode == 0, result.stderr[-4000:]
    return root / "site"


@pytest.fixture(scope="session")
def project_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("project") / "site"
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
        cwd=REPO,
        env=env(),
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    return out


def page(site: Path, *parts: str) -> str:
    return (site.joinpath(*parts) / "index.html").read_text("utf-8")


def exact(fragment: str) -> list[Fraction]:
    return [Fraction(m) for m in re.findall(r'data-probability="(\d+/\d+)"', fragment)]


def getb_check(ability: int, target: int) -> tuple[Fraction, Fraction, Fraction]:
    """1D10+ability >= target; 10 always succeeds (critical), 1 always fails (fumble)."""
    wins = sum(1 for d in range(1, 11) if d == 10 or (d != 1 and d + ability >= target))
    return Fraction(wins, 10), Fraction(1, 10), Fraction(1, 10)


def test_no_page_shows_a_question_mark_for_a_value(author_site: Path, project_site: Path) -> None:
    for site in (author_site, project_site):
        for path in site.rglob("*.html"):
            text = path.read_text("utf-8")
            assert 'class="saikoro-na" title=' not in text, path
            assert not re.search(r">\s*[?？]\s*</(?:td|dd|span)>", text), path


def test_author_site_has_scenario_pages_and_index(author_site: Path) -> None:
    index = page(author_site, "scenarios")
    assert 'href="twod6/"' in index
    assert 'href="hostile/"' in index
    assert (author_site / "scenarios" / "twod6" / "index.html").is_file()
    # the nav links the index, not each scenario (every page carries it: issue 28)
    home = (author_site / "index.html").read_text("utf-8")
    assert 'href="scenarios/"' in home
    assert "scenarios/twod6/" not in home


def test_sample_book_pages(author_site: Path) -> None:
    samples = sorted(p.stem for p in (REPO / "scenarios").glob("*.y*ml"))
    for stem in samples:
        text = (
            (REPO / "scenarios" / f"{stem}.yaml").read_text("utf-8")
            if (REPO / "scenarios" / f"{stem}.yaml").exists()
            else ""
        )
        match = re.search(r"^id:\s*(\S+)", text, re.M)
        sid = match.group(1) if match else stem
        assert (author_site / "scenarios" / sid / "index.html").is_file(), sid


def test_getb_target_odds_match_the_rules(author_site: Path) -> None:
    text = page(author_site, "scenarios", "twod6")
    for ability in range(1, 9):
        cell = re.search(rf'<td data-command="GB{ability}&gt;=12">(.*?)</td>', text, re.S)
        assert cell, ability
        values = exact(cell.group(1))
        assert values == list(getb_check(ability, 12)), ability


def test_two_d6_table_has_its_triangle(author_site: Path) -> None:
    text = page(author_site, "scenarios", "twod6")
    rows = re.findall(r'<tr data-entry="(\d+)">.*?data-probability="(\d+/\d+)"', text, re.S)
    got = {int(k): Fraction(p) for k, p in rows}
    counts = dict.fromkeys(range(2, 13), 0)
    for a, b in itertools.product(range(1, 7), repeat=2):
        counts[a + b] += 1
    assert got == {s: Fraction(c, 36) for s, c in counts.items()}


def test_one_d10_ranges_and_dice_fence(author_site: Path) -> None:
    home = (author_site / "index.html").read_text("utf-8")
    block = home[home.index('data-command="2D6&gt;=7"') :]
    assert "7/12" in exact_strings(block[:3000])
    gb = home[home.index('data-command="GB3&gt;=8"') :]
    assert exact(gb[:1500])[:3] == list(getb_check(3, 8))
    # the scenario fence embedded the 2D6 table
    assert 'data-die="2D6"' in home


def _rollers(text: str) -> list[dict[str, str | None]]:
    return [t for t in tags(text, "div") if "saikoro-roller" in (t.get("class") or "").split()]


def test_scenario_rulings_go_on_its_roll_widgets(author_site: Path) -> None:
    import yaml

    # kkdie6 rolls one six-sided die (rulings: die: 6): odds and every roll widget say so
    text = page(author_site, "scenarios", "kkdie6")
    cell = re.search(r'<td data-command="KKM\[3\]&gt;=7G4">(.*?)</td>', text, re.S)
    assert cell
    assert exact(cell.group(1))[0] == Fraction(sum(3 + d >= 7 for d in range(1, 7)), 6)
    rollers = [t for t in _rollers(text) if t.get("data-system") == "kokuryoku"]
    commands = {t.get("data-command") for t in rollers}
    assert "KKM[3,3,3]>=7G4" in commands  # the target's button
    assert None in commands  # the free-form roller
    for roller in rollers:
        assert json.loads(roller["data-options"] or "") == {"die": 6}, roller
    assert 'data-options="{&quot;die&quot;:6}"' in text  # escaped in the attribute
    # every sample scenario: its rulings on each of its system's widgets, or no attribute
    for path in sorted((REPO / "scenarios").glob("*.yaml")):
        data = yaml.safe_load(path.read_text("utf-8"))
        chosen = data.get("rulings") or {}
        widgets = [
            t
            for t in _rollers(page(author_site, "scenarios", data.get("id", path.stem)))
            if t.get("data-system")
        ]
        assert widgets, path.name
        for widget in widgets:
            options = widget.get("data-options")
            assert (json.loads(options) if options else {}) == chosen, (path.name, widget)
    assert "data-options" not in page(author_site, "scenarios", "twod6")


def exact_strings(fragment: str) -> list[str]:
    return re.findall(r'data-probability="(\d+/\d+)"', fragment)


def test_hostile_text_arrives_escaped(author_site: Path) -> None:
    text = page(author_site, "scenarios", "hostile")
    body = text[text.index("<article") : text.index("</article>")]
    assert "<script>alert" not in text
    assert "<img src=x" not in text
    assert "<iframe" not in body
    head_title = re.search(r"<title>(.*?)</title>", text, re.S)
    assert head_title is not None and "<" not in head_title.group(1)
    # no element anywhere carries an event-handler attribute (quotes never break out)
    assert event_handlers(text) == []
    assert all(t.get("src") != "x" for t in tags(text, "img"))
    assert 'href="javascript' not in text.lower()
    assert 'href="data:' not in text.lower()
    assert 'href="vbscript' not in text.lower()
    assert "evil.example" not in body
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    assert "＜/title＞＜script＞" in text  # the page title, defused
    # every text field shows the markup as text
    assert body.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 10
    # the ココフォリア JSON sits in an attribute, escaped; no inline data <script>
    assert '<script type="application/json"' not in body
    for value in re.findall(r'data-ccfolia="([^"]*)"', body):
        assert "<" not in value
        data = json.loads(html.unescape(value))
        assert data["data"]["name"].startswith("</title><script>")
    # nav and title too
    assert "<title><script>" not in text


def test_every_systems_text_fields_arrive_escaped(author_site: Path) -> None:
    pages = sorted((author_site / "scenarios").glob("evil-*/index.html"))
    samples = list((REPO / "scenarios").glob("*.y*ml"))
    assert len(pages) == len(samples)
    for path in pages:
        text = path.read_text("utf-8")
        assert "<script>alert" not in text, path
        assert "<img src=x" not in text, path
        assert event_handlers(text) == [], path
        assert 'href="javascript' not in text.lower(), path
        assert text.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 3, path
        head_title = re.search(r"<title>(.*?)</title>", text, re.S)
        assert head_title is not None and "<" not in head_title.group(1)
    index = page(author_site, "scenarios")
    assert "<script>alert" not in index


def test_exports_parse(author_site: Path) -> None:
    text = page(author_site, "scenarios", "hostile")
    payloads = re.findall(r'data-ccfolia="([^"]*)"', text)
    assert payloads
    data = json.loads(html.unescape(payloads[0]))
    assert data["kind"] == "character"
    assert {"name", "initiative", "status", "params", "commands", "memo", "externalUrl"} <= set(
        data["data"]
    )
    assert data["data"]["status"][0] == {"label": "HP", "value": 40, "max": 40}
    assert data["data"]["commands"].split("\n")[0].startswith("3U10[10]+9 ")  # GDL+9 in BCDice
    href = re.search(r'href="([^"]+\.zip)" download', text)
    assert href
    zpath = author_site / "scenarios" / "hostile" / html.unescape(href.group(1))
    with zipfile.ZipFile(io.BytesIO(zpath.read_bytes())) as archive:
        assert archive.namelist() == ["data.xml"]
        root = ET.fromstring(archive.read("data.xml"))  # noqa: S314 - our own output
    assert root.tag == "character"
    sheet = root.find("data[@name='character']")
    assert sheet is not None
    name = sheet.find("data[@name='common']/data[@name='name']")
    assert name is not None and name.text is not None and name.text.startswith("</title>")
    palette = root.find("chat-palette")
    assert palette is not None and "3U10[10]+9 " in (palette.text or "")


def test_mermaid_is_self_hosted(author_site: Path) -> None:
    home = (author_site / "index.html").read_text("utf-8")
    shim = home.index("assets/saikoro/mermaid-shim.js")
    bundle = home.index("assets/javascripts/bundle.")
    assert shim > bundle  # runs before DOMContentLoaded, when Material looks for `mermaid`
    assert (author_site / "assets" / "saikoro" / "mermaid.min.js").is_file()
    js = (author_site / "assets" / "saikoro" / "mermaid-shim.js").read_text("utf-8")
    assert "null" in js and "http" not in js


def test_project_site_builds_strict(project_site: Path) -> None:
    assert (project_site / "rulings" / "index.html").is_file()
    assert (project_site / "commands" / "index.html").is_file()
    assert (project_site / "authoring" / "fields" / "index.html").is_file()
    schema = json.loads((project_site / "schema" / "scenario.schema.json").read_text("utf-8"))
    assert schema["$schema"].endswith("2020-12/schema")
    assert schema["$id"] == "http://127.0.0.1:8000/schema/scenario.schema.json"
    index = page(project_site, "scenarios")
    assert "getb-haito" in index
    commands = page(project_site, "commands")
    assert 'data-command="2D6&gt;=7"' in commands
    home = (project_site / "index.html").read_text("utf-8")
    # the nav lists the book's systems (their listing pages), not each scenario
    assert 'href="scenarios/index/getb/"' in home
    assert 'href="scenarios/getb-haito/"' not in home
    listing = page(project_site, "scenarios", "index", "getb")
    assert 'href="../../getb-haito/"' in listing
    rulings = page(project_site, "rulings")
    assert "既定値" in rulings


def test_project_site_flowcharts(project_site: Path) -> None:
    pages = [p.read_text("utf-8") for p in (project_site / "systems").rglob("index.html")]
    assert any('class="mermaid"' in p for p in pages), "no rules page draws a flowchart"
    assert all("unpkg.com" not in p for p in pages)


def test_search_index_has_scenarios(project_site: Path) -> None:
    index = json.loads((project_site / "search" / "search_index.json").read_text("utf-8"))
    locations = {d["location"] for d in index["docs"]}
    assert any(loc.startswith("scenarios/getb-haito/") for loc in locations)


@pytest.mark.browser
def test_in_a_browser(author_site: Path) -> None:
    """Hostile markup never runs, Mermaid draws from our copy, the copy button works,
    and no request leaves the site."""
    import functools
    import http.server
    import os
    import threading

    chromium = Path("/usr/bin/chromium")
    if not chromium.exists():
        if os.environ.get("CI"):
            pytest.fail("chromium is missing in CI")
        pytest.skip("chromium is missing")
    from playwright.sync_api import Dialog, sync_playwright

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(author_site))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=str(chromium),
                args=[
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-quic",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                ],
            )
            context = browser.new_context()
            context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base[:-1])
            page = context.new_page()
            requests: list[str] = []
            dialogs: list[str] = []
            page.on("request", lambda r: requests.append(r.url))

            def dismiss(dialog: Dialog) -> None:
                dialogs.append(dialog.message)
                dialog.dismiss()

            page.on("dialog", dismiss)
            page.goto(base + "scenarios/hostile/")
            page.wait_for_timeout(500)
            assert page.evaluate("document.querySelectorAll('script:not([src])').length") >= 1
            page.click("button.saikoro-ccfolia")
            page.wait_for_function(
                "document.querySelector('.saikoro-copied').textContent.length > 0"
            )
            clip = json.loads(page.evaluate("navigator.clipboard.readText()"))
            assert clip["kind"] == "character"
            assert clip["data"]["name"].startswith("</title><script>")
            page.goto(base)
            page.wait_for_selector("pre.mermaid", state="attached")
            page.evaluate("window.saikoroFlows.drawAll()")  # drawn near the viewport: all now
            page.wait_for_selector("div.mermaid", timeout=15000)
            assert page.evaluate("document.querySelectorAll('pre.mermaid').length") == 0
            browser.close()
    finally:
        server.shutdown()
    assert dialogs == []
    outside = [u for u in requests if not u.startswith(base)]
    assert outside == []
    assert any(u.endswith("assets/saikoro/mermaid.min.js") for u in requests)


# -- issue 20: reading the site ----------------------------------------------------------------

JAPANESE = (
    "\u3000-\u303f\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff01-\uff60"
)
_RAW = {"code", "pre", "script", "style", "kbd", "samp", "textarea", "svg", "math"}


def _reader_text(markup: str) -> str:
    """The text of a page's article a reader sees (code, scripts and charts left out)."""
    from html.parser import HTMLParser

    class Text(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.raw = 0
            self.article = False
            self.parts: list[str] = []

        def handle_starttag(self, tag: str, _attrs: list[tuple[str, str | None]]) -> None:
            self.raw += tag in _RAW
            self.article = self.article or tag == "article"

        def handle_endtag(self, tag: str) -> None:
            self.raw -= tag in _RAW and self.raw > 0
            self.article = self.article and tag != "article"

        def handle_data(self, data: str) -> None:
            if self.article and not self.raw:
                self.parts.append(data)

    parser = Text()
    parser.feed(markup)
    return "".join(parser.parts)


def test_japanese_text_uses_full_width_brackets_and_colons(project_site: Path) -> None:
    """Typography as a rule: no half-width （） after Japanese, opening on it or holding it
    before more Japanese, no 「: 」
    after Japanese, no space after 「：」, on every page of the built site."""
    pattern = re.compile(
        rf"[{JAPANESE}]\s*\(|\(\s*[{JAPANESE}]|\([^()]*[{JAPANESE}][^()]*\)\s*[{JAPANESE}]"
        rf"|[{JAPANESE}] ?:(?!//)|：[ \u00a0]"
    )
    found = {}
    pages = sorted(project_site.rglob("*.html"))
    for path in pages:
        hits = pattern.findall(_reader_text(path.read_text("utf-8")))
        if hits:
            found[str(path.relative_to(project_site))] = hits[:5]
    assert len(pages) > 20
    assert found == {}, found


def test_headings_and_table_cells_break_between_phrases(project_site: Path) -> None:
    """A word is never cut at a line end in narrow boxes: <wbr> between phrases (BudouX)
    in table cells and headings, never inside a word."""
    markup = page(project_site, "systems", "cutaction")
    assert "全員の<wbr>エリアが" in markup
    assert "クリティカ<wbr>ル" not in markup and "ファンブ<wbr>ル" not in markup
    assert not re.search(r"<code[^>]*>[^<]*<wbr>", markup)


def test_japanese_headings_have_readable_anchors(project_site: Path) -> None:
    markup = page(project_site, "systems", "getb")
    ids = re.findall(r'<h[2-6] id="([^"]+)"', markup)
    assert "目標値の目安" in ids
    assert not [i for i in ids if re.fullmatch(r"_\d+", i)], ids


def test_anchors_are_stable_across_builds(tmp_path: Path) -> None:
    """Adding a section before others changes no other heading's anchor (the default
    slugify numbered them: #_8 became #_9)."""
    root = make_author_site(tmp_path / "site", with_samples=False)
    rules = root / "docs" / "rules.md"
    body = "## 判定\n\n本文。\n\n### 目標値の目安\n\n本文。\n\n## 対決\n\n本文。\n"
    rules.write_text("---\nsystem: getb\n---\n# ルール\n\n" + body, "utf-8")

    def anchors() -> list[str]:
        result = build(root)
        assert result.returncode == 0, result.stderr[-2000:]
        return re.findall(r'<h[2-6] id="([^"]+)"', page(root / "site", "rules"))

    first = anchors()
    rules.write_text(
        "---\nsystem: getb\n---\n# ルール\n\n## はじめに\n\n新しい節。\n\n" + body, "utf-8"
    )
    second = anchors()
    assert first == ["判定", "目標値の目安", "対決"]
    assert second == ["はじめに", *first]


def test_rulings_and_commands_link_to_the_rules(project_site: Path) -> None:
    for name, least in (("rulings", 20), ("commands", 10)):
        markup = page(project_site, name).replace("<wbr>", "")  # the phrase breaks
        links = re.findall(
            r'<p class="saikoro-rule-links">ルールの該当箇所：(.*?)</p>', markup, flags=re.S
        )
        assert len(links) >= least, (name, len(links))
        for href in re.findall(r'href="\.\./systems/([a-z]+)/#([^"]+)"', "".join(links)):
            target = page(project_site, "systems", href[0])
            assert f'id="{html.unescape(href[1])}"' in target, href
        assert '<p class="saikoro-rule-links" data-' not in markup  # every marker filled


def test_search_indexes_rules_not_odds(project_site: Path) -> None:
    index = json.loads((project_site / "search" / "search_index.json").read_text("utf-8"))
    docs = index["docs"]
    rules = [d for d in docs if d["location"].startswith("systems/")]
    assert rules and all(d.get("boost") == 2.0 for d in rules)
    listed = [d for d in docs if d["location"].startswith(("rulings/", "commands/"))]
    assert listed and all(d.get("boost") == 0.5 for d in listed)
    # odds cards ("期待値3.50…16.7%100%…") and chart sources are not text to search
    noisy = [d["location"] for d in rules if re.search(r"\d%\d|flowchart (TD|LR)", d["text"])]
    assert noisy == [], noisy


def test_one_order_of_systems_everywhere(project_site: Path) -> None:
    """The rules nav of mkdocs.yml, the scenario index, the book and the reference pages
    list the games in the registry's order."""
    import yaml

    from saikoro.systems import SYSTEM_IDS

    config = yaml.safe_load((REPO / "mkdocs.yml").read_text("utf-8"))
    rules = next(
        item["ルールリファレンス"] for item in config["nav"] if "ルールリファレンス" in item
    )
    pages = [p for p in rules if isinstance(p, str) and p.startswith("systems/")]
    assert pages == [f"systems/{s}.md" for s in SYSTEM_IDS]

    def order(seq: list[str]) -> list[str]:
        return list(dict.fromkeys(seq))

    index = page(project_site, "scenarios")
    assert order(re.findall(r'data-system="([a-z]+)"', index)) == list(SYSTEM_IDS)
    book = page(project_site, "scenarios", "book")
    parts = re.findall(r'id="book-([a-z]+)-', book)
    assert order(parts) == list(SYSTEM_IDS)
    home = page(project_site)
    for system in SYSTEM_IDS:
        assert f'href="systems/{system}/"' in home, system
    assert 'href="scenarios/book/"' in home


def test_typography_can_be_turned_off(tmp_path: Path) -> None:
    """``typography: false`` leaves the page text as written; by default it is set."""
    root = make_author_site(tmp_path / "site", with_samples=False)
    (root / "docs" / "index.md").write_text("# 本\n\n毒(LV1)を受ける。システム: GETB\n", "utf-8")
    result = build(root)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "毒（LV1）を受ける。システム：GETB" in page(root / "site").replace("<wbr>", "")
    config = root / "mkdocs.yml"
    off = "  - saikoro:\n      typography: false\n"
    config.write_text(config.read_text("utf-8").replace("  - saikoro\n", off), "utf-8")
    result = build(root)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "毒(LV1)を受ける。システム: GETB" in page(root / "site")
