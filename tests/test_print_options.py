"""The print edition's options without a browser: the papers, ``saikoro pdf``'s arguments, the
plugin's ``pdf: paper:`` and what the whole-book page carries for print (cover, contents'
place, handouts to cut out, colophon). The printed result is checked in
``tests/browser/test_print_edition.py``.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from saikoro.scenario import Scenario, load_scenario
from saikoro.site._config import SaikoroConfig
from saikoro.site._pages.book import (
    TOC_PLACEHOLDER,
    book_page,
    cover_html,
    handout_sheets_html,
    print_toc,
)
from saikoro.site._paper import PAPERS, paper_css
from saikoro.site._pdf import PdfError, _paper_arg, main, render_pdf

REPO = Path(__file__).resolve().parents[1]


def test_each_paper_sets_its_size_and_type() -> None:
    assert set(PAPERS) == {"A4", "B5", "A5"}
    assert "size: A4;" in paper_css("A4") and "size: A5;" in paper_css("A5")
    assert "size: 182mm 257mm;" in paper_css("B5")  # JIS B5, not CSS's ISO B5
    sizes = [float(PAPERS[p].type_size.removesuffix("pt")) for p in ("A4", "B5", "A5")]
    assert sizes == sorted(sizes, reverse=True)  # smaller paper, smaller type


@pytest.mark.parametrize(("given", "paper"), [("A5", "A5"), ("a5", "A5"), ("b5", "B5")])
def test_the_paper_argument_is_read_in_either_case(given: str, paper: str) -> None:
    assert _paper_arg(given) == paper


def test_an_unknown_paper_is_refused_in_japanese(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="用紙 'C4' はありません"):
        _paper_arg("C4")
    assert main(["in.html", "out.pdf", "--paper", "C4"]) == 2
    assert "A4・B5・A5" in capsys.readouterr().err
    with pytest.raises(PdfError, match="用紙"):
        render_pdf("http://127.0.0.1:9/", Path("out.pdf"), paper="Letter")


@pytest.mark.parametrize(("option", "value"), [("--balance", "half"), ("--handouts", "fold")])
def test_the_balance_and_handout_choices_are_checked(
    capsys: pytest.CaptureFixture[str], option: str, value: str
) -> None:
    assert main(["in.html", "out.pdf", option, value]) == 2
    assert value in capsys.readouterr().err


def test_the_plugin_takes_a_paper_and_refuses_another() -> None:
    config = SaikoroConfig()
    config.load_dict({"pdf": {"paper": "A5"}})
    failed, _ = config.validate()
    assert failed == [] and config.pdf.paper == "A5"
    config = SaikoroConfig()
    config.load_dict({"pdf": {"paper": "Letter"}})
    failed, _ = config.validate()
    assert failed and "pdf" in failed[0][0]


def _sample(name: str) -> Scenario:
    result = load_scenario(REPO / "scenarios" / f"{name}.yaml")
    assert result.scenario is not None, result.problems
    return result.scenario


def test_the_book_page_asks_for_its_paper_and_holds_the_print_parts() -> None:
    from saikoro.site._pages.scenario import Rendered

    scenario = _sample("akatsuki-kouya")
    rendered = Rendered(markdown="## 灰の荒野を越えて\n\n本文\n")
    markdown, slots = book_page("本", [(scenario, rendered)], paper="A5")
    html = "".join(slots)
    assert 'data-saikoro-paper="A5"' in html and "size: A5;" in html
    assert "saikoro-book-cover" in html and TOC_PLACEHOLDER in html
    assert 'id="akatsuki-kouya--handouts-sheets"' in html  # its handouts, to cut out
    assert "saikoro-scenario-colophon" in html and "## 奥付" in markdown
    markdown, slots = book_page("本", [(scenario, rendered)])
    assert "data-saikoro-paper" not in "".join(slots)  # no paper: the browser's choice


def test_the_cover_names_each_scenarios_facts_and_the_sheets_hold_no_gm_text() -> None:
    scenario = _sample("akatsuki-kouya")
    model = scenario.model
    cover = cover_html("本", [scenario])
    for fact in (model.title, model.author, model.playtime, f"{model.players}人"):
        assert str(fact) in cover, fact
    sheets = handout_sheets_html(scenario, "../akatsuki-kouya/")
    assert sheets.count('class="saikoro-sheet"') == len(model.handouts)
    assert model.overview is not None
    assert model.overview.strip().splitlines()[0][:15] not in sheets  # the GM's overview


def test_the_printed_contents_link_each_section_to_its_page_number() -> None:
    page = (
        '<div class="md-typeset">'
        + TOC_PLACEHOLDER
        + '<section class="saikoro-book-scenario" id="book-x" data-scenario="x">'
        '<h2 id="t">題</h2><h3 id="a">概要</h3><h3 id="b">シーン</h3>'
        '<h3 id="v">VTT用ルーム</h3><div class="saikoro-room"></div>'  # buttons: not on paper
        '<div class="saikoro-print-only saikoro-sheets" id="x--handouts-sheets"></div></section>'
        '<section class="saikoro-book-colophon"><h2 id="c">奥付</h2></section></div>'
    )
    toc = print_toc(page)
    targets = re.findall(r'data-page-of="([^"]+)"', toc)
    assert targets == ["book-x", "a", "b", "x--handouts-sheets", "c"]
    assert "ハンドアウト（配布用）" in toc and TOC_PLACEHOLDER not in toc
