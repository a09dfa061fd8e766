"""Every word an author writes reaches every output (issue 29), and a player's page holds no
word meant for the GM.

The free-text fields are found from the scenario definitions, not listed here: every
string field without a pattern (:func:`text_fields`). The sample book uses every field of
every system (``tests/test_scenario_samples.py``), so each of its string values is
replaced by a unique marker (``ZQ0001Q``...) wherever the scenario stays valid with it
(a name other fields refer to is replaced there too). Every text field must have taken a
marker in some sample, but the few that name files or hold settings
(:data:`NOT_TEXT`, each with why).

The marked book is built (``mkdocs build --strict``), printed to PDF (``saikoro pdf``'s
:func:`render_pdf`) and written as text (``saikoro text``); each marker must be on its
scenario page, in the PDF's text and in the text edition, and each marker of an enemy or
an NPC in both VTT memos (the ココフォリア JSON on the page and the ユドナリウム zip). A
player's handout page (and its PDF) must hold none of the GM's markers.
"""

from __future__ import annotations

import html
import io
import json
import os
import re
import shutil
import subprocess
import sys
import unicodedata
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml
from harness import serve

from saikoro.scenario import DEFINITIONS, ListOf, MapOf, Obj, Str, Type, validate_text
from saikoro.systems import SYSTEM_IDS

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]

NOT_TEXT = {
    "images.file": "the image file's path: a marker is no file",
    "balance.win": "a win-rate range (60%-90%), read as numbers",
    "balance.tactics": "a tactics preset, read by the simulator",
    "balance.enemy_tactics": "a tactics preset, read by the simulator",
}
"""String fields that hold no prose, and why."""

REFERENCES = {
    "missions.side.check.standing": "names a PC: in a sample without party:, one of the "
    "reference party, whose names are fixed",
}
"""String fields that name another part of the scenario (a PC, a check): they take a
marker where what they name does, and may not in some system's samples. Every other
string field must take a marker (a new prose field that the outputs drop cannot hide)."""

_MARK = re.compile(r"ZQ\d{4}Q")


def text_fields(kind: Type, path: str = "") -> set[str]:
    """The dotted path of every string field without a pattern under ``kind`` (list items
    share their list's path; a free mapping's values are ``path.*``)."""
    if isinstance(kind, Obj):
        out: set[str] = set()
        for f in kind.fields:
            out |= text_fields(f.type, f"{path}.{f.name}" if path else f.name)
        return out
    if isinstance(kind, ListOf):
        return text_fields(kind.item, path)
    if isinstance(kind, MapOf):
        return text_fields(kind.value, f"{path}.*")
    if isinstance(kind, Str) and kind.pattern is None:
        return {path}
    return set()


@dataclass
class Marked:
    """One sample with markers: its data, and each marker's field path."""

    system: str
    scenario_id: str
    data: dict[str, Any]
    paths: dict[str, set[str]] = field(default_factory=dict)
    """marker -> the dotted field paths it stands in (``enemies.attacks.effect``; a name
    and the fields that refer to it)."""


def _leaves(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str]]:
    """(path, value) of every string; list indices are ints, mapping keys strings."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _leaves(value, (*path, str(key)))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _leaves(value, (*path, i))
    elif isinstance(node, str):
        yield path, node


def _field_path(path: tuple[Any, ...]) -> str:
    out: list[str] = []
    for i, key in enumerate(path):
        if isinstance(key, int):
            continue
        out.append("*" if i and path[i - 1] in ("entries", "abilities") else str(key))
    return ".".join(out)


def _replace(node: Any, old: str, new: str) -> Any:
    """``node`` with every string equal to ``old`` (or ending in ``:old``) replaced."""
    if isinstance(node, dict):
        return {k: _replace(v, old, new) for k, v in node.items()}
    if isinstance(node, list):
        return [_replace(v, old, new) for v in node]
    if node == old:
        return new
    if isinstance(node, str) and node.endswith(":" + old):
        return node[: -len(old)] + new
    return node


def _get(node: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        node = node[key] if isinstance(key, int) or key in node else node[int(key)]
    return node


def mark(path: Path, counter: list[int]) -> Marked:
    """The sample at ``path`` with a marker in every string that takes one."""
    data = yaml.safe_load(path.read_text("utf-8"))
    marked = Marked(data["system"], data.get("id", path.stem), data)
    for where, _ in list(_leaves(data)):
        if where[0] in {"system", "id"} or where[-1] == "id":
            continue
        value = _get(marked.data, where)
        if not isinstance(value, str) or _MARK.fullmatch(value):
            continue
        counter[0] += 1
        marker = f"ZQ{counter[0]:04d}Q"
        candidate = _replace(marked.data, value, marker)
        text = json.dumps(candidate, ensure_ascii=False)
        if validate_text(text, f"{path.stem}.yaml").ok:
            marked.data = candidate
            marked.paths[marker] = {
                _field_path(at)
                for at, found in _leaves(candidate)
                if found == marker or found.endswith(":" + marker)
            }
    return marked


@dataclass
class Book:
    site: Path
    scenarios: list[Marked]
    pdf_text: str
    player_pdfs: dict[str, str]
    """handout page path -> its PDF's text."""


def _pdf_text(path: Path) -> str:
    import pypdf

    reader = pypdf.PdfReader(str(path))
    return "\n".join(unicodedata.normalize("NFKC", p.extract_text() or "") for p in reader.pages)


@pytest.fixture(scope="module")
def book(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Book]:
    from saikoro.site._pdf import render_pdf

    root = tmp_path_factory.mktemp("marked")
    (root / "docs").mkdir()
    (root / "docs" / "index.md").write_text("# 本\n", "utf-8")
    (root / "mkdocs.yml").write_text(
        "site_name: 印の本\ntheme:\n  name: material\n  language: ja\n  font: false\n"
        "plugins:\n  - search\n  - saikoro:\n      balance:\n        enabled: false\n",
        "utf-8",
    )
    shutil.copytree(REPO / "scenarios" / "images", root / "scenarios" / "images")
    counter = [0]
    scenarios = []
    for path in sorted((REPO / "scenarios").glob("*.yaml")):
        marked = mark(path, counter)
        text = json.dumps(marked.data, ensure_ascii=False, indent=1)
        (root / "scenarios" / f"{marked.scenario_id}.yaml").write_text(text, "utf-8")
        scenarios.append(marked)
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q"],
        cwd=root,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    site = root / "site"
    with serve(site, root / "served") as url:
        context = browser.new_context(service_workers="block")
        page = context.new_page()
        try:
            pdf = render_pdf(f"{url}scenarios/book/", root / "book.pdf", page=page)
            players = {}
            for handout in sorted((site / "scenarios").glob("*/handout-*.html")):
                rel = handout.relative_to(site).as_posix()
                out = render_pdf(f"{url}{rel}", root / f"{handout.stem}.pdf", page=page)
                players[rel] = _pdf_text(out)
        finally:
            context.close()
    yield Book(site, scenarios, _pdf_text(pdf), players)


def _page_text(markup: str) -> str:
    """What a reader of the page can see or copy: text and attribute values (alt)."""
    markup = re.sub(r"<(script|style)\b.*?</\1>", " ", markup, flags=re.S)
    alts = " ".join(re.findall(r'\balt="([^"]*)"', markup))
    return html.unescape(re.sub(r"<[^>]+>", " ", markup) + " " + alts)


def test_every_text_field_of_every_system_took_a_marker(book: Book) -> None:
    """The markers cover every string field of the definitions, but :data:`NOT_TEXT`."""
    for system in SYSTEM_IDS:
        fields = text_fields(DEFINITIONS[system])
        took = {
            p for s in book.scenarios if s.system == system for ps in s.paths.values() for p in ps
        }
        assert fields - took <= set(NOT_TEXT) | set(REFERENCES), (system, sorted(fields - took))
        assert not took & set(NOT_TEXT), (system, sorted(took & set(NOT_TEXT)))
        assert took <= fields, (system, sorted(took - fields))


def test_every_marker_is_on_its_page_in_the_pdf_and_in_the_text(book: Book) -> None:
    missing: list[str] = []
    for marked in book.scenarios:
        page = _page_text(
            (book.site / "scenarios" / marked.scenario_id / "index.html").read_text("utf-8")
        )
        text = (
            book.site / "scenarios" / marked.scenario_id / f"{marked.scenario_id}.txt"
        ).read_text("utf-8-sig")
        for marker, paths in marked.paths.items():
            path = sorted(paths)
            for where, haystack in (("page", page), ("pdf", book.pdf_text), ("text", text)):
                if marker not in haystack:
                    missing.append(f"{marked.scenario_id} {path} ({marker}) not in the {where}")
    assert missing == []


def test_the_cli_text_edition_is_the_sites(book: Book, tmp_path: Path) -> None:
    from saikoro.site import text_main

    marked = book.scenarios[0]
    out = io.StringIO()
    source = book.site.parent / "scenarios" / f"{marked.scenario_id}.yaml"
    assert text_main([str(source)], out) == 0
    site_text = book.site / "scenarios" / marked.scenario_id / f"{marked.scenario_id}.txt"
    assert out.getvalue() == site_text.read_text("utf-8-sig")


def _vtt_memos(site: Path, scenario_id: str) -> tuple[str, str]:
    """(every ココフォリア character's name and memo on the page, every ユドナリウム zip's
    data.xml) of a scenario."""
    page = (site / "scenarios" / scenario_id / "index.html").read_text("utf-8")
    ccfolia = []
    for value in re.findall(r'data-ccfolia="([^"]*)"', page):
        data = json.loads(html.unescape(value))["data"]
        ccfolia.append(f"{data['name']}\n{data['memo']}")
    udonarium = []
    for path in sorted((site / "scenarios" / scenario_id).rglob("*.zip")):
        if path.name.startswith("room."):  # the whole room: tests/test_export_room.py
            continue
        with zipfile.ZipFile(path) as z:
            udonarium.append(html.unescape(z.read("data.xml").decode("utf-8")))
    return "\n".join(ccfolia), "\n".join(udonarium)


def test_enemy_and_npc_fields_are_in_both_vtt_memos(book: Book) -> None:
    missing = []
    checked = 0
    for marked in book.scenarios:
        ccfolia, udonarium = _vtt_memos(book.site, marked.scenario_id)
        for marker, paths in marked.paths.items():
            path = sorted(paths)
            if not any(p.startswith(("enemies.", "npcs.")) for p in paths):
                continue
            checked += 1
            for where, haystack in (("ココフォリア", ccfolia), ("ユドナリウム", udonarium)):
                if marker not in haystack:
                    missing.append(f"{marked.scenario_id} {path} ({marker}) not in {where}")
    assert checked >= 40, checked
    assert missing == []


PLAYER = ("title", "author", "playtime", "trailer", "credits", "notice")
"""The top-level fields a player may read (with the handouts' public parts)."""


def _player_markers(marked: Marked, handout: dict[str, Any]) -> set[str]:
    data = marked.data
    allowed = {data.get(k) for k in PLAYER if k != "credits"} | set(data.get("credits", []))
    images = {i["id"]: i for i in data.get("images", [])}
    for other in data.get("handouts", []):
        allowed |= {other.get("pc"), other.get("title"), other.get("text")}
        if other.get("pc") == handout.get("pc"):
            allowed.add(other.get("secret"))
        image = images.get(other.get("image"))
        if image:
            allowed |= {image.get("alt"), image.get("caption")}
    return {m for m in marked.paths if m in allowed}


def test_a_players_page_and_pdf_hold_no_gm_text(book: Book) -> None:
    checked = 0
    for marked in book.scenarios:
        for handout in marked.data.get("handouts", []):
            rel = f"scenarios/{marked.scenario_id}/handout-{handout['id']}.html"
            markup = (book.site / rel).read_text("utf-8")
            allowed = _player_markers(marked, handout)
            gm_only = set(marked.paths) - allowed
            page, pdf = _page_text(markup), book.player_pdfs[rel]
            assert gm_only & set(_MARK.findall(markup)) == set(), rel
            assert gm_only & set(_MARK.findall(pdf)) == set(), rel
            # what the player may read is all there, in the page and its print
            for marker in allowed:
                assert marker in page and marker in pdf, (rel, marker, marked.paths[marker])
            # the page loads nothing: no script, no stylesheet or JSON from elsewhere
            assert "<script" not in markup and "<link" not in markup and "fetch(" not in markup
            checked += 1
    assert checked >= 20, checked
    index = json.loads((book.site / "search" / "search_index.json").read_text("utf-8"))
    assert not any("handout-" in doc["location"] for doc in index["docs"])
