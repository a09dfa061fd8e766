"""The printed sample book (``saikoro pdf`` of the project's site): the paper asked for, a
cover, the contents with the right page numbers, a number on every page, each scenario's
handouts on pages of their own, the colophon, odds as tables, the balance section short
unless asked for whole, and no word of a button.

How full each page is (a figure, not a test) is printed by ``bench/bench_print.py``.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from print_figures import SIZES_PT, destinations, paper_of, parts

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
SCENARIOS = {
    p.stem: yaml.safe_load(p.read_text("utf-8"))
    for p in sorted((REPO / "scenarios").glob("*.yaml"))
}
ONE = "cutaction-sokou"
"""The scenario printed alone (B5, the balance whole, a handout a page)."""


def _kana(text: str) -> str:
    """``text`` without spaces and kanji: a PDF's text holds some kanji as the radicals
    that look the same (長 as U+2ED1), which NFKC does not map back."""
    return re.sub(r"[\s\u2e80-\u2fdf\u3400-\u9fff]", "", unicodedata.normalize("NFKC", text))


@dataclass
class Printed:
    reader: Any
    pages: list[str]

    @property
    def text(self) -> str:
        return "\n".join(self.pages)


def _read(path: Path) -> Printed:
    import pypdf

    reader = pypdf.PdfReader(str(path))
    pages = [unicodedata.normalize("NFKC", p.extract_text() or "") for p in reader.pages]
    return Printed(reader, pages)


@pytest.fixture(scope="module")
def books(
    browser: Any, project_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Printed]]:
    from saikoro.site._pdf import render_pdf

    out = tmp_path_factory.mktemp("print")
    url = f"{project_url}scenarios/book/"
    jobs = {
        "A5": {"paper": "A5"},
        "A4": {"paper": "A4"},
        "B5-one-full": {"paper": "B5", "scenario": ONE, "balance": "full", "handouts": "pages"},
        "B5-one": {"paper": "B5", "scenario": ONE},
    }
    printed = {}
    context = browser.new_context()
    try:
        for name, options in jobs.items():
            page = context.new_page()
            try:
                printed[name] = _read(render_pdf(url, out / f"{name}.pdf", page=page, **options))
            finally:
                page.close()
    finally:
        context.close()
    yield printed


@pytest.mark.parametrize(("name", "paper"), [("A5", "A5"), ("A4", "A4"), ("B5-one", "B5")])
def test_every_page_is_on_the_paper_asked_for(
    books: dict[str, Printed], name: str, paper: str
) -> None:
    reader = books[name].reader
    assert paper_of(reader) == paper
    width, height = SIZES_PT[paper]
    for number, page in enumerate(reader.pages, 1):
        box = page.mediabox
        assert abs(float(box.width) - width) < 2 and abs(float(box.height) - height) < 2, number


@pytest.mark.parametrize("name", ["A5", "A4", "B5-one"])
def test_every_page_but_the_cover_has_its_number(books: dict[str, Printed], name: str) -> None:
    pages = books[name].pages
    assert not re.search(r"(?m)^\s*1\s*$", pages[0]), "the cover has no page number"
    missing = [
        n for n, text in enumerate(pages, 1) if n > 1 and not re.search(rf"(?m)^\s*{n}\s*$", text)
    ]
    assert missing == []


def test_the_cover_names_each_scenario_its_system_players_time_and_author(
    books: dict[str, Printed],
) -> None:
    cover = re.sub(r"\s+", "", books["A5"].pages[0])
    assert "サンプルシナリオブック" in cover
    from saikoro.site._pages.scenario import system_name

    for sid, data in SCENARIOS.items():
        for fact in (data["title"], system_name(data["system"]), data["author"], data["playtime"]):
            assert re.sub(r"\s+", "", unicodedata.normalize("NFKC", str(fact))) in cover, (
                sid,
                fact,
            )
    one = re.sub(r"\s+", "", books["B5-one"].pages[0])  # one scenario: its own cover
    data = SCENARIOS[ONE]
    assert data["title"] in one and "プレイヤー" in one and "作者" in one
    assert not any(d["title"] in one for s, d in SCENARIOS.items() if s != ONE)


def test_the_contents_give_the_page_where_each_scenario_and_the_colophon_start(
    books: dict[str, Printed],
) -> None:
    for name in ("A5", "A4"):
        book = books[name]
        where = destinations(book.reader)
        contents = "\n".join(t for t in book.pages[1 : where[f"book-{next(iter(SCENARIOS))}"] - 1])
        assert "目次" in contents
        for sid, data in SCENARIOS.items():
            title = unicodedata.normalize("NFKC", data["title"])
            assert re.search(rf"{re.escape(title)}\s*{where[f'book-{sid}']}\b", contents), (
                name,
                sid,
                where[f"book-{sid}"],
            )
            sheets = where.get(f"{sid}--handouts-sheets")
            if data.get("handouts"):
                assert sheets is not None, sid
                assert re.search(rf"ハンドアウト\(配布用\)\s*{sheets}\b", contents), (name, sid)
        colophon = min(p for n, p in where.items() if n.startswith("奥付"))
        assert re.search(rf"奥付\s*{colophon}\b", contents)
        assert "VTT用ルーム" not in contents.replace(" ", "")  # a section paper leaves out


def test_handouts_print_on_pages_of_their_own_at_each_scenarios_end(
    books: dict[str, Printed],
) -> None:
    book = books["A5"]
    where = destinations(book.reader)
    starts = sorted(where[f"book-{sid}"] for sid in SCENARIOS)
    for sid, data in SCENARIOS.items():
        handouts = data.get("handouts") or []
        if not handouts:
            continue
        first = where[f"{sid}--handouts-sheets"]
        head = "ハンドアウト(プレイヤーに渡す)"
        assert head in book.pages[first - 1], sid
        assert head not in book.pages[first - 2], sid  # the page before is the GM's
        later = [s for s in starts if s > where[f"book-{sid}"]]
        end = (later[0] if later else len(book.pages)) - 1
        sheets = _kana("".join(book.pages[first - 1 : end]))
        for handout in handouts:
            secret = handout.get("secret")
            if secret:
                line = _kana(secret.strip().splitlines()[0])
                assert line[:12] in sheets, (sid, handout["pc"])
    one = books["B5-one-full"]
    cards = [n for n, t in enumerate(one.pages) if "ハンドアウト" in t and "秘匿(" in t]
    assert len(cards) == len(SCENARIOS[ONE]["handouts"])  # a page each


def test_the_colophon_ends_the_book_with_the_rights_notices(books: dict[str, Printed]) -> None:
    for name in ("A5", "A4", "B5-one"):
        book = books[name]
        back = [p for p in parts(book.reader) if p.name == "back"]
        assert back and back[0].last == len(book.pages), name
        colophon = re.sub(r"\s+", "", "".join(book.pages[back[0].first - 1 :]))
        assert "奥付" in colophon and "非公式ファン作品" in colophon and "saikoroで作成" in colophon


def test_odds_print_as_tables_not_as_sentences(books: dict[str, Printed]) -> None:
    text = books["A5"].text
    # the old print: 「耐久 1 50.0%、耐久 2 60.0%…」 on one line
    assert not re.search(r"\d%、\S+ ?\d+ \d", text)
    # a table row: a label and several percentages side by side
    rows = re.findall(r"(?m)^\S+(?: +\d+(?:\.\d)?%){4,}", text)
    assert len(rows) >= len(SCENARIOS), rows[:5]


def test_the_balance_section_prints_short_unless_asked_for_whole(books: dict[str, Printed]) -> None:
    short, full = books["B5-one"].text, books["B5-one-full"].text
    for text in (short, full):
        assert "勝率" in text and "乱数の種" in text  # the verdict and how it was made
    whole = "計算の方法"
    assert whole not in short.replace(" ", "") and whole in full.replace(" ", "")
    assert len(full) > len(short)


@pytest.mark.parametrize("name", ["A5", "A4", "B5-one-full"])
def test_no_word_of_buttons_or_taps_on_paper(books: dict[str, Printed], name: str) -> None:
    text = books[name].text
    for word in (
        "ボタン",
        "クリック",
        "タップ",
        "スワイプ",
        "🎲",
        "共有リンク",
        "ココフォリアにコピー",
    ):
        assert word not in text, word


def test_an_unknown_scenario_is_named_with_the_nearest(
    browser: Any, project_url: str, tmp_path: Path
) -> None:
    from saikoro.site._pdf import PdfError, render_pdf

    page = browser.new_page()
    try:
        with pytest.raises(PdfError, match="もしかして akatsuki-kouya") as caught:
            render_pdf(
                f"{project_url}scenarios/book/",
                tmp_path / "x.pdf",
                page=page,
                scenario="akatsuki-kouy",
            )
    finally:
        page.close()
    assert all(sid in str(caught.value) for sid in SCENARIOS)
    assert not (tmp_path / "x.pdf").exists()
