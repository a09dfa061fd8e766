"""The smaller promises of issue 30: Japanese by default, one JSON shape, ``simulate`` and
``tune`` read the book's ``scenarios/`` as ``validate`` does, the guide's balance page
renders its options and names files a new book has, an unknown flow lists the known ones,
and a key pulled to the start of the line is reported at its own line.
"""

from __future__ import annotations

import io
import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import markdown
import pytest

from saikoro._new import book_files
from saikoro.scenario import validate_text
from saikoro.systems import SYSTEM_IDS

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "plugin" / "saikoro" / "site" / "_guide" / "balance.md"


def _saikoro(*argv: str, cwd: Path, lang: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in {"LANG", "LC_ALL", "LC_MESSAGES"}}
    if lang is not None:
        env["LANG"] = lang
    return subprocess.run(
        [sys.executable, "-m", "saikoro", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=env,
    )


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A book as ``saikoro new`` writes it, with one kegare sample."""
    root = tmp_path_factory.mktemp("book")
    for name, text in book_files(["kegare"], title="本", site_url=None).items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    (root / "scenarios" / "broken.yaml").write_text("system: kegare\ntitle: t\nhp: 3\n", "utf-8")
    return root


@pytest.mark.parametrize("lang", [None, "C.UTF-8", "ja_JP.UTF-8"])
def test_validate_speaks_japanese_unless_asked_for_english(book: Path, lang: str | None) -> None:
    done = _saikoro("validate", cwd=book / "docs", lang=lang)
    assert done.returncode == 1
    assert "不明なキー 'hp'" in done.stdout and "ファイルを検査" in done.stdout, done.stdout
    english = _saikoro("validate", cwd=book, lang="en_US.UTF-8")
    assert "unknown key 'hp'" in english.stdout


def test_simulate_and_tune_read_the_books_scenarios_as_validate_does(book: Path) -> None:
    """With no file named, from the book or a folder in it; the broken file is reported,
    as validate reports it."""
    for command in ("simulate", "tune"):
        done = _saikoro(command, "--format", "json", cwd=book / "docs", lang=None)
        assert "broken.yaml:3:1" in done.stderr, (command, done.stderr)
    sample = book / "scenarios" / "kegare-sample.yaml"
    argv = ["--battles", "200", "--jobs", "1", "--format", "json"]
    one = _saikoro("simulate", str(sample), *argv, cwd=book, lang=None)
    assert one.returncode == 0, one.stderr
    (only,) = json.loads(one.stdout)  # one file: a list of one, as a folder gives a list
    assert only["scenario"] == "kegare-sample"
    outside = _saikoro("tune", cwd=book.parent, lang=None)
    assert outside.returncode == 2 and "saikoro tune シナリオ.yaml" in outside.stderr


def test_the_guides_options_table_renders_and_its_examples_name_a_new_books_files() -> None:
    text = GUIDE.read_text("utf-8")
    html = markdown.Markdown(extensions=["tables", "fenced_code"]).convert(text)
    for option in ("--format text", "--no-exact", "--sensitivity-max"):
        assert option in text
    assert not re.search(r"<p>\|", html), "a table row rendered as a paragraph"
    assert "<code>--no-exact</code></td>" in html and "<code>--battles N</code></td>" in html
    files = set(book_files(list(SYSTEM_IDS), title="t", site_url=None))
    named = re.findall(r"^\$ saikoro (?:simulate|tune) (scenarios/\S+\.yaml)", text, re.MULTILINE)
    assert named and all(path in files for path in named), named


def test_an_unknown_flow_lists_the_known_ones(caplog: pytest.LogCaptureFixture) -> None:
    from saikoro.site._fences import FenceContext, _flow

    with caplog.at_level(logging.WARNING):
        html = _flow(FenceContext(page="index.md", line=3), ["kegare.atack"])
    (message,) = [r.getMessage() for r in caplog.records]
    assert "index.md:3: flow fence: フロー 'kegare.atack' はありません" in message
    assert "もしかして 'kegare.attack'" in message and "kegare.turn" in message
    assert "kegare.attack" in html


def test_notes_at_the_start_of_the_line_is_reported_at_its_own_line() -> None:
    text = (
        "system: kegare\ntitle: t\nenemies:\n  - id: oni\n    name: 鬼\n    hp: 10\n"
        "    attack: 1\n    defence: 1\n    initiative: 3\n"
        "notes: 夜にだけ現れる。\n  - id: imp\n    name: 小鬼\n"
    )
    (problem,) = validate_text(text, "s.yaml").problems
    assert (problem.line, problem.column) == (10, 1)
    assert "'notes'" in problem.text("ja") and "4 個" in (problem.hint_text("ja") or "")
    assert "引用符" not in problem.format("ja")


def test_the_build_logs_a_missed_target_in_japanese(caplog: pytest.LogCaptureFixture) -> None:
    from typing import Any, cast

    from saikoro.balance import encounter, simulate
    from saikoro.site._pages.balance import Settings, _report

    text = (ROOT / "scenarios" / "akatsuki-kouya.yaml").read_text("utf-8")
    text = re.sub(r"win: .*", "win: 99%-100%", text)
    sc = validate_text(text, "akatsuki-kouya.yaml").scenario
    assert sc is not None
    settings = Settings(store=cast(Any, None), battles=100)  # the plugin's default language
    with caplog.at_level(logging.INFO):
        _report(settings, sc, simulate(encounter(sc), battles=100, seed=0))
    (message,) = [r.getMessage() for r in caplog.records]
    assert "balance.win: " in message and "99%-100%" in message
    assert "saikoro tune" in message and "範囲に入れる変更を探します" in message
    assert "の外です" in message and "outside" not in message, message


def test_tune_json_is_a_list_for_one_file(tmp_path: Path) -> None:
    from saikoro.tune import tune_main

    path = tmp_path / "a.yaml"
    path.write_text(
        "system: akatsuki\ntitle: t\nplayers: 2\ndifficulty_targets:\n"
        "  - {name: a, ability: 体躯}\nbalance:\n  win: 0%-100%\n",
        "utf-8",
    )
    out = io.StringIO()
    assert tune_main([str(path), "--format", "json", "--jobs", "1"], out, io.StringIO()) == 0
    (entry,) = json.loads(out.getvalue())
    assert entry["in_range"] is True and entry["file"] == str(path)
