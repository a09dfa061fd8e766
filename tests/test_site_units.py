"""Unit tests of the site's parts: escaping, Mermaid, fences, charts, nav, odds cache."""

from __future__ import annotations

import doctest
import importlib
import itertools
import logging
import re
from fractions import Fraction
from pathlib import Path

import markdown
import pytest

from saikoro.scenario import Scenario, validate_text
from saikoro.site._charts import bar_chart, prob
from saikoro.site._fences import FenceContext, add_custom_fences
from saikoro.site._mermaid import flow_html, flow_to_mermaid, mermaid_label
from saikoro.site._navigation import expand_nav
from saikoro.site._oddscache import OddsCache
from saikoro.site._pages.chase import entry_probability, entry_range
from saikoro.site._safe import esc, is_safe_url, md_escape, render_markdown, safe_title
from saikoro.systems import Edge, Flow, Step, StepKind

SITE_MODULES = [
    "saikoro.site._safe",
    "saikoro.site._charts",
    "saikoro.site._mermaid",
    "saikoro.site._navigation",
    "saikoro.site._pages.chase",
    "saikoro.site._pages.scenario",
    "saikoro.systems._akatsuki.page",
    "saikoro.export",
    "saikoro.export._ccfolia",
    "saikoro.export._udonarium",
]


@pytest.mark.parametrize("name", SITE_MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        " JAVASCRIPT:alert(1)",
        "java\nscript:x",
        "data:text/html,x",
        "vbscript:msgbox",
        "&#106;avascript:x",
        "jav&#x09;ascript:x",
    ],
)
def test_unsafe_urls(url: str) -> None:
    assert not is_safe_url(url)
    out = render_markdown(f"[click]({url})")
    assert "href" not in out
    assert "click" in out


@pytest.mark.parametrize("url", ["https://example.com/", "../a.html", "#x", "mailto:a@b.c"])
def test_safe_urls(url: str) -> None:
    assert is_safe_url(url)
    assert 'href="' in render_markdown(f"[ok]({url})")


@pytest.mark.parametrize(
    "text",
    [
        "<script>alert(1)</script>",
        '"><img src=x onerror=alert(1)>',
        "<iframe src=x>",
        "<a href='javascript:x'>y</a>",
        "<svg onload=alert(1)>",
        "<!-- x --><b>bold</b>",
    ],
)
def test_markdown_escapes_raw_html(text: str) -> None:
    out = render_markdown(text)
    assert "<script" not in out and "<img" not in out and "<iframe" not in out
    assert "<svg" not in out and "<a " not in out and "<!--" not in out and "<b>" not in out


def test_markdown_still_formats() -> None:
    out = render_markdown("**太字** と *斜体*\n\n- 一\n- 二")
    assert "<strong>太字</strong>" in out and "<li>一</li>" in out


def test_external_images_dropped() -> None:
    assert "<img" not in render_markdown("![alt](https://evil.example/x.png)")
    assert "alt" in render_markdown("![alt](https://evil.example/x.png)")


def test_md_escape_neutralises_markdown() -> None:
    md = markdown.Markdown()
    html = md.convert("# " + md_escape("[x](javascript:1) <b>*y*</b>"))
    assert "<a" not in html and "<b>" not in html and "<em>" not in html
    assert "[x](javascript:1)" in html.replace("&lt;", "<").replace("&gt;", ">")


def test_safe_title_has_no_html_specials() -> None:
    title = safe_title("</title><script>\"x\"&'y'")
    assert not set("<>&\"'") & set(title)


def test_esc_quotes() -> None:
    assert esc("\"'<>&") == "&quot;&#x27;&lt;&gt;&amp;"


def test_mermaid_labels_escape_specials() -> None:
    label = mermaid_label('a"b[c]d{e}f(g)h|i<j>k#l;m`n')
    assert not set('"[]{}()|<>`') & set(label.replace("#quot;", "").replace("#lt;", ""))
    flow = Flow(
        "t.flow",
        "題",
        (
            Step("start", '開始 "<script>"', StepKind.START, next=(Edge("d"),)),
            Step(
                "d",
                "分岐 [A]",
                StepKind.DECISION,
                next=(Edge("end", "はい #1"), Edge("end", "いいえ")),
            ),
            Step("end", "終了", StepKind.END),
        ),
    )
    text = flow_to_mermaid(flow)
    assert text.startswith("flowchart TD")
    assert "<script>" not in text
    assert 's_d -->|"はい #35;1"| s_end' in text
    html = flow_html(flow)
    assert '<pre class="mermaid"><code>' in html and "<script>" not in html


def test_real_flows_render() -> None:
    import saikoro

    count = 0
    for system_id in ("getb", "kegare", "akatsuki", "kokuryoku", "cutaction"):
        for flow_id, flow in saikoro.get_system(system_id).flows().items():
            text = flow_to_mermaid(flow)
            assert text.count("\n") >= len(flow.steps), flow_id
            # every node line is well formed: id + shape
            for line in text.splitlines()[1 : len(flow.steps) + 1]:
                assert re.match(r"^  [A-Za-z][A-Za-z0-9_]*[\[\(\{>/]", line), line
            count += 1
    assert count > 0


def test_chase_entry_ranges() -> None:
    assert entry_range(5) == (5, 5)
    assert entry_range("11-16") == (11, 16)
    assert entry_range("2～3") == (2, 3)
    assert entry_range(True) is None
    two_d6: dict[int | str, Fraction] = {s: Fraction(0) for s in range(2, 13)}
    for a, b in itertools.product(range(1, 7), repeat=2):
        two_d6[a + b] += Fraction(1, 36)
    assert entry_probability(two_d6, "6-8") == Fraction(16, 36)
    assert entry_probability(two_d6, 7) == Fraction(6, 36)


def test_prob_and_chart_carry_exact_values() -> None:
    assert 'data-probability="1/3"' in prob(Fraction(1, 3))
    d6: dict[int | str, Fraction] = {k: Fraction(1, 6) for k in range(1, 7)}
    svg = bar_chart(d6, label="<1D6>")
    assert svg.count('data-probability="1/6"') == 6
    assert "<1D6>" not in svg


def test_long_chart_is_trimmed_but_table_is_not() -> None:
    dist: dict[int | str, Fraction] = {k: Fraction(1, 2 ** (k + 1)) for k in range(100)}
    dist[99] += 1 - sum(dist.values())
    svg = bar_chart(dist)
    assert svg.count("<rect") < 100


def test_expand_nav() -> None:
    nav: list[object] = ["index.md", {"本": ["a.md", "scenarios/index.md"]}]
    assert expand_nav(nav, "scenarios/index.md", "S", ["scenarios/x.md"])
    assert nav[1] == {"本": ["a.md", "scenarios/index.md", "scenarios/x.md"]}
    nav2: list[object] = ["index.md"]
    assert not expand_nav(nav2, "scenarios/index.md", "S", [])


def _fence_md(ctx: FenceContext, *extensions: str) -> markdown.Markdown:
    """Markdown configured as the plugin configures MkDocs (superfences custom fences)."""
    names, configs = list(extensions), {}  # type: ignore[var-annotated]
    add_custom_fences(names, configs, ctx)
    return markdown.Markdown(extensions=names, extension_configs=configs)


def test_dice_fence_renders_exact_odds() -> None:
    ctx = FenceContext()
    html = _fence_md(ctx).convert("text\n\n```dice\n2D6>=7\n1D6\n```\n\nafter")
    assert 'data-command="2D6&gt;=7"' in html
    assert 'data-probability="7/12"' in html
    assert html.count('data-probability="1/6"') >= 6
    assert "<p>after</p>" in html


def test_dice_fence_system_line_and_page_default() -> None:
    ctx = FenceContext(page_system="getb")
    html = _fence_md(ctx).convert("```dice\nGB3>=8\n```")
    assert 'data-system="getb"' in html and 'data-probability="3/5"' in html
    ctx = FenceContext()
    html = _fence_md(ctx).convert("```dice\nsystem: getb\nGB3>=8\n```")
    assert 'data-probability="3/5"' in html


def test_fence_examples_inside_longer_fences_stay_code() -> None:
    html = _fence_md(FenceContext()).convert("````markdown\n```dice\n2D6\n```\n````")
    assert "saikoro-odds" not in html and "```dice" in html


def test_nested_dice_fence_in_admonition() -> None:
    html = _fence_md(FenceContext(), "admonition").convert(
        '!!! note "x"\n\n    ```dice\n    2D6>=7\n    ```\n'
    )
    assert 'data-probability="7/12"' in html and "admonition" in html


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ("```dice\nNOT A COMMAND\n```", "NOT A COMMAND"),
        ("```flow\ngetb.nope\n```", "getb.nope"),
        ("```flow\nnosystem.flow\n```", "nosystem"),
        ("```scenario\nmissing#enemy:x\n```", "missing"),
        ("```dice\nsystem: nosuch\n2D6\n```", "nosuch"),
    ],
)
def test_fence_problems_warn_naming_the_page(
    body: str, needle: str, caplog: pytest.LogCaptureFixture
) -> None:
    ctx = FenceContext(page="guide/page.md")
    with caplog.at_level(logging.WARNING):
        html = _fence_md(ctx).convert(body)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings, body
    assert any("guide/page.md" in w for w in warnings)
    assert "saikoro-error" in html
    assert needle in html or needle.upper() in html


def test_flow_fence_draws_the_engine_flow() -> None:
    import saikoro

    flows = saikoro.get_system("getb").flows()
    flow_id = next(iter(flows))
    html = _fence_md(FenceContext()).convert(f"```flow\n{flow_id}\n```")
    assert f'data-flow="{flow_id}"' in html and 'class="mermaid"' in html


def test_odds_cache_memoises_and_reports() -> None:
    cache = OddsCache()
    a = cache.odds("2D6>=7")
    b = cache.odds("2D6>=7")
    assert a is b and cache.computed == 1
    assert a.at_least(7) == Fraction(7, 12)
    assert a.at_least(13) == 0 and a.at_least(-5) == 1
    bad = cache.odds("1D6", "nosuch")
    assert bad.odds is None and bad.error


def _fake_scenario(data: dict[str, object], system: str = "kokuryoku") -> Scenario:
    """A validated scenario of ``data`` (JSON is YAML), as the site receives it."""
    import json

    doc = {"system": system, "id": "fake", "title": "T", **data}
    result = validate_text(json.dumps(doc, ensure_ascii=False), "fake.yaml")
    assert result.ok and result.scenario is not None, [p.format() for p in result.problems]
    return result.scenario


def test_scenario_rulings_change_the_odds() -> None:
    import saikoro
    from saikoro.site._pages.scenario import fill_slots, render_scenario

    target = {"name": "x", "target": 12, "gain": 10}
    pages = {}
    for die in (6, 10):
        scenario = _fake_scenario({"difficulty_targets": [target], "rulings": {"die": die}})
        rendered = render_scenario(scenario, OddsCache(), roller=False)
        pages[die] = fill_slots(rendered.markdown, rendered.slots)
    command = "KKM[3,3]>=12G10"
    for die, html in pages.items():
        expected = saikoro.odds(command, system=saikoro.get_system("kokuryoku", die=die))
        assert expected is not None and expected.success is not None
        cell = re.search(
            rf'data-command="{re.escape(esc(command))}"><span class="saikoro-cell">'
            r'<span[^>]*data-probability="(\d+/\d+)"',
            html,
        )
        assert cell, die
        assert Fraction(cell.group(1)) == expected.success
    assert "裁定: 判定に使うダイス：6" in pages[6]


def test_scenario_page_markdown_has_no_raw_text_html() -> None:
    from saikoro.site._pages.scenario import render_scenario

    evil = "<script>x</script>"
    scenario = _fake_scenario(
        {
            "summary": evil,
            "missions": {"main": {"success": evil}},
            "chase_tables": [
                {"name": evil, "die": "1D6", "entries": {"1-6": {"title": evil, "effect": evil}}}
            ],
        },
        system="getb",
    )
    rendered = render_scenario(scenario, OddsCache(), roller=False)
    assert "<script>" not in rendered.markdown
    assert all("<script>" not in html for html in rendered.slots)
    assert any('data-probability="1"' in h or 'data-probability="1/1"' in h for h in rendered.slots)


def test_mermaid_shim_and_cdn_option(tmp_path: object) -> None:
    from types import SimpleNamespace

    from mkdocs.exceptions import PluginError

    from saikoro.site._assets import Assets, _shim

    assert "null" in _shim(None) and "https://cdn.example/m.js" in _shim("https://cdn.example/m.js")
    roller = SimpleNamespace(enabled=False, loading="visible", pyodide_url=None, pyodide_dir=None)
    cdn = Assets()
    cdn.configure(
        SimpleNamespace(mermaid_url="https://cdn.example/m.js", mermaid_dir=None, roller=roller),  # type: ignore[arg-type]  # a stand-in config
        Path(str(tmp_path)),
    )
    assert cdn.mermaid_file is None
    with pytest.raises(PluginError, match=r"mermaid_dir .*nowhere.* holds no mermaid\.min\.js"):
        Assets().configure(
            SimpleNamespace(mermaid_url=None, mermaid_dir="nowhere", roller=roller),  # type: ignore[arg-type]  # a stand-in config
            Path(str(tmp_path)),
        )
    missing = Assets()
    missing.configure(
        SimpleNamespace(mermaid_url=None, mermaid_dir=None, roller=roller),  # type: ignore[arg-type]  # a stand-in config
        Path(str(tmp_path)),
    )
    assert missing.mermaid_file is not None  # the copy bundled in the package
    missing.mermaid_file, missing.mermaid_missing = None, "no bundled Mermaid (reinstall)"
    missing.post_build(SimpleNamespace(site_dir=str(tmp_path)))  # type: ignore[arg-type]
    missing.note_page('<pre class="mermaid"><code>flowchart TD</code></pre>')
    with pytest.raises(PluginError, match=r"no bundled Mermaid \(reinstall\).*mermaid_url"):
        missing.post_build(SimpleNamespace(site_dir=str(tmp_path)))  # type: ignore[arg-type]


def test_scenario_rulings_reach_the_roll_widgets() -> None:
    import json

    from saikoro.site._pages.scenario import fill_slots, render_scenario
    from test_site_support import tags

    chosen = {"final_damage_tie": "zero", "miracle_tier": True}
    scenario = _fake_scenario(
        {
            "difficulty_targets": [{"name": "t", "check": "agility", "target": 8}],
            "enemies": [
                {
                    "id": "ogre",
                    "name": "ogre",
                    "hp": 40,
                    "ap": 6,
                    "st": 3,
                    "placement": "out3",
                    "abilities": {"strength": 4, "agility": 3, "intellect": 1, "endurance": 4},
                    "attacks": [
                        {
                            "name": "a",
                            "weapon": "long-blade",
                            "element": "physical",
                            "power": 5,
                            "range": "0-1",
                        }
                    ],
                    "guard": {"shield": "buckler", "armor": 2},
                }
            ],
            "chase_tables": [{"name": "c", "die": "1D6", "entries": {"1-6": {"title": "x"}}}],
            "rulings": chosen,
        },
        system="getb",
    )
    rendered = render_scenario(scenario, OddsCache(), roller=True)
    html = fill_slots(rendered.markdown, rendered.slots)
    widgets = [t for t in tags(html, "div") if "saikoro-roller" in (t.get("class") or "")]
    system_widgets = [t for t in widgets if t.get("data-system")]
    # a target, an attack and the free-form roller, all with the scenario's options
    assert {t.get("data-command") for t in system_widgets} >= {None, "GB3>=8"}
    assert any(str(t.get("data-command", "")).startswith("GD") for t in system_widgets)
    for widget in system_widgets:
        assert json.loads(widget["data-options"] or "") == chosen, widget
    # the chase table rolls a generic die: no system, so no options
    generic = [t for t in widgets if not t.get("data-system")]
    assert [t.get("data-command") for t in generic] == ["1D6"]
    assert "data-options" not in generic[0]
    # without rulings: no options attribute anywhere
    plain = _fake_scenario({"difficulty_targets": [{"name": "t", "target": 12, "gain": 10}]})
    rendered = render_scenario(plain, OddsCache(), roller=True)
    assert "data-options" not in fill_slots(rendered.markdown, rendered.slots)


def test_the_page_widgets_pass_options_and_follow_roller_enabled() -> None:
    from saikoro.site import _roller as rolling

    evil = '"><script>x</script>'
    markup = rolling.widget("KK3", enabled=True, system="kokuryoku", options={"die": 6, evil: evil})
    assert "<script>" not in markup and "data-options=" in markup
    free = rolling.free_widget(enabled=True, system="kokuryoku", options={"die": 6})
    assert 'data-options="{&quot;die&quot;:6}"' in free
    assert "data-options" not in rolling.widget("1D6", enabled=True, options={"die": 6})
    # the plugin's roller.enabled, passed down: off means no widget at all
    assert rolling.widget("KK3", enabled=False, system="kokuryoku") == ""
    assert rolling.free_widget(enabled=False, system="kokuryoku") == ""


def test_a_page_without_rollers_has_no_widget() -> None:
    from saikoro.site._pages.scenario import fill_slots, render_scenario

    scenario = _fake_scenario(
        {
            "difficulty_targets": [{"name": "t", "target": 12, "gain": 10}],
            "enemies": [{"id": "e", "name": "E", "kind": "nation", "power": 5, "attack": 2}],
            "chase_tables": [{"name": "c", "die": "1D6", "entries": {"1-6": {"title": "x"}}}],
        }
    )
    off = render_scenario(scenario, OddsCache(), roller=False)
    on = render_scenario(scenario, OddsCache(), roller=True)
    assert "saikoro-roller" not in fill_slots(off.markdown, off.slots)
    assert "saikoro-roller" in fill_slots(on.markdown, on.slots)


def test_chart_labels_wrap_at_japanese_punctuation() -> None:
    import saikoro
    from saikoro.site._mermaid import WRAP, wrap_label

    for system_id in ("getb", "kegare", "akatsuki", "kokuryoku", "cutaction"):
        for flow in saikoro.get_system(system_id).flows().values():
            for step in flow.steps:
                lines = wrap_label(step.label)
                assert "".join(lines).replace(" ", "") == step.label.replace(" ", "")
                for line in lines:
                    cols = sum(2 if ord(c) > 0x2E7F else 1 for c in line)
                    # a long ASCII command may stand alone; the last line may run 4 over
                    assert cols <= WRAP + 4 or " " not in line, (step.label, line)
                    assert line[:1] not in set("、。）」"), (step.label, lines)


def test_chart_direction_fits_the_column() -> None:
    from saikoro.site._mermaid import layout

    fan = Flow(
        "t.fan",
        "表",
        (
            Step(
                "s",
                "表を振る",
                StepKind.START,
                next=tuple(Edge(f"e{i}", str(i)) for i in range(10)),
            ),
            *(Step(f"e{i}", f"出目{i}の出来事を処理する", next=(Edge("end"),)) for i in range(10)),
            Step("end", "終了", StepKind.END),
        ),
    )
    chain = Flow(
        "t.chain",
        "列",
        (
            Step("s", "開始", StepKind.START, next=(Edge("a"),)),
            Step("a", "宣言する", next=(Edge("end"),)),
            Step("end", "終了", StepKind.END),
        ),
    )
    assert layout(fan).direction == "LR"
    assert layout(chain).direction == "TD"


def test_chart_nodes_name_actors_once_and_subflows_by_title() -> None:
    import saikoro

    text = flow_to_mermaid(saikoro.get_system("getb").flows()["getb.check"])
    assert "GM：GM" not in text and "GM: GM" not in text
    turn = flow_to_mermaid(saikoro.get_system("getb").flows()["getb.turn"])
    assert "getb.attack" not in turn and "「攻撃」の図へ" in turn
    html = flow_html(saikoro.get_system("getb").flows()["getb.turn"])
    assert 'id="flow-getb-turn"' in html and 'href="#flow-getb-attack"' in html


def test_linked_charts_missing_from_a_page_are_appended() -> None:
    import saikoro
    from saikoro.site._mermaid import append_linked_flows

    page = flow_html(saikoro.get_system("getb").flows()["getb.attack"])
    out = append_linked_flows(page)
    assert 'id="flow-getb-guard_check"' in out and 'id="flow-getb-damage_check"' in out
    assert append_linked_flows(out) == out


def test_japanese_line_breaks_are_not_spaces() -> None:
    from saikoro.site._safe import esc, md_escape, render_markdown

    assert render_markdown("示します。\n起点の**能力値**を\nGB3 で振る") == (
        "<p>示します。起点の<strong>能力値</strong>を\nGB3 で振る</p>"
    )
    assert esc("示します。\n  起点の") == "示します。起点の"
    assert md_escape("Line\nbreak と\n日本語") == "Line break と日本語"
    # code keeps its text
    assert "<code>日本\n語</code>" in render_markdown("`日本\n語`")


def test_yaml_ids_read_as_words() -> None:
    from saikoro.site._pages import labels
    from saikoro.systems._getb.page import cell_word

    assert (
        labels.ruling("akatsuki", "both_fail", "draw") == "対抗判定で双方が失敗したとき：引き分け"
    )
    assert labels.ruling("akatsuki", "both_fail", "draw", "en") == "both_fail = draw"
    assert labels.ruling_word("getb", "getb.ap_tie", "pc_first") == "PCが先"
    assert labels.mission_field("cuts", 4, "en") == ("cut limit", "4 cuts")
    assert cell_word("in4") == "インセル4" and cell_word("centre") == "中央"


def test_every_kegare_status_has_its_japanese_word() -> None:
    """Each status a kegare scenario may name reads as the definition's Japanese word."""
    from saikoro.systems._kegare.model import STATUSES
    from saikoro.systems._kegare.page import STATUS_WORDS

    assert {c.value: c.ja for c in STATUSES} == STATUS_WORDS


def test_every_ruling_choice_has_a_word() -> None:
    """A page shows a scenario's ruling choice in the system's own words: every choice of
    every option ruling has one, and a word names a choice (no word for a value the
    option does not accept)."""
    from saikoro.systems import all_systems

    for system in all_systems():
        for rule in system.rulings:
            if rule.option and rule.choices:
                assert [value for value, _ in rule.words] == list(rule.choices), rule.key
                assert all(word.strip() for _, word in rule.words), rule.key
            else:
                assert rule.words == (), rule.key


def test_the_page_cache_follows_the_page_language() -> None:
    """The same scenario rendered for an English theme is another page (its site words
    are English): the page cache's key holds the build's language."""
    from saikoro.site import _structure as structure
    from saikoro.site._context import BuildContext

    book = structure.ScenarioBook()
    scenario = _fake_scenario(
        {"missions": {"main": {"success": "勝つ", "rounds": 3}}}, system="kegare"
    )
    ja = book.render(scenario, BuildContext("ja"), roller=False, zip_href="./")
    en = book.render(scenario, BuildContext("en"), roller=False, zip_href="./")
    assert book.rendered == 2
    assert "3ラウンド" in "".join(ja.slots) and "3 rounds" in "".join(en.slots)


def test_lru_forgets_the_least_recently_used() -> None:
    from saikoro.dice import InternalError
    from saikoro.site._lru import Lru

    cache = Lru[str, int](2)
    cache["a"], cache["b"] = 1, 2
    assert cache.get("a") == 1  # now "b" is the oldest
    cache["c"] = 3
    assert list(cache) == ["a", "c"] and "b" not in cache and len(cache) == 2
    with pytest.raises(InternalError, match="at least one"):
        Lru[str, int](0)


def test_odds_cache_is_bounded_and_keyed_by_content() -> None:
    cache = OddsCache(size=2, fragments=2)
    first = cache.odds("1D6")
    cache.odds("2D6")
    cache.odds("3D6")  # "1D6" is evicted: computed again, an equal result
    again = cache.odds("1D6")
    assert cache.computed == 4 and again is not first and again.odds == first.odds
    # the chart of equal odds is one fragment, whatever object holds them
    assert cache.chart(first, "x") is cache.chart(again, "x")
    assert len(cache.html) == 1
    # under other ruling options the same command is other content
    six = cache.odds("KK3", "kokuryoku", {"die": 6})
    ten = cache.odds("KK3", "kokuryoku", {"die": 10})
    assert six.options == (("die", 6),) and ten.options == (("die", 10),)
    assert cache.chart(six, "k") != cache.chart(ten, "k")
    assert len(cache.html) == 2  # bounded: the oldest fragment went


def test_rendered_pages_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    from saikoro.site import _structure as structure
    from saikoro.site._context import BuildContext

    monkeypatch.setattr(structure, "MAX_PAGES", 2)
    book = structure.ScenarioBook()
    scenarios = [_fake_scenario({"title": f"t{i}"}, system="kegare") for i in range(3)]
    assert len({s.digest for s in scenarios}) == 3
    for scenario in scenarios:
        book.render(scenario, BuildContext(), roller=False, zip_href="./")
    assert book.rendered == 3
    book.render(scenarios[0], BuildContext(), roller=False, zip_href="./")  # evicted: again
    book.render(scenarios[2], BuildContext(), roller=False, zip_href="./")  # kept
    assert book.rendered == 4
