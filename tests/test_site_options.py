"""Issue 28, the plugin's options and the book's layout: nothing ignored, nothing lost.

A ``prefix`` that is empty, leaves the site or is left out by MkDocs, a generated page over
one of the author's, an option that would do nothing: each is an error naming the option
(or both files) and the fix, in Japanese, never a traceback or a book dropped without a word.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mkdocs.config import config_options, load_config
from mkdocs.config.defaults import MkDocsConfig

from test_site_support import KEGARE, NAME, TWO_D6, Q, env

MKDOCS = [sys.executable, "-m", "mkdocs"]


def _site(root: Path, options: str = "", extra: str = "") -> Path:
    """A book of two scenarios (``twod6``, ``port``); ``options``: lines under the plugin."""
    (root / "docs").mkdir(parents=True)
    (root / "scenarios").mkdir()
    (root / "docs" / "index.md").write_text("# home\n", "utf-8")
    (root / "scenarios" / "twod6.yaml").write_text(TWO_D6, "utf-8")
    (root / "scenarios" / "port.yaml").write_text(KEGARE, "utf-8")
    plugin = "  - saikoro:\n      balance:\n        enabled: false\n" + options
    (root / "mkdocs.yml").write_text(
        f"site_name: s\ntheme:\n  name: material\n  font: false\n{extra}plugins:\n{plugin}",
        "utf-8",
    )
    return root


def _build(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*MKDOCS, "build", *args],
        cwd=root,
        env=env(),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def _config(root: Path) -> Any:
    option = MkDocsConfig.plugins
    assert isinstance(option, config_options.Plugins)
    option.plugin_cache.clear()
    config = load_config(config_file=str(root / "mkdocs.yml"), site_dir=str(root / "site"))
    config.plugins.on_startup(command="build", dirty=False)
    return config


def _refused(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode != 0, result.stderr[-3000:]
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    return result.stderr


# -- item 3: prefix -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("prefix", "words"),
    [
        ('""', "空です"),
        ('"/"', "空です"),
        ('".."', "docs の外"),
        ('"../x"', "docs の外"),
        ('"a/../../b"', "docs の外"),
        ('"/abs/../.."', "docs の外"),
        ('"a//b"', "空の部分"),
        ('"x#y"', "使えない文字"),
        ('"CON"', "Windows で使えない名前"),
        ('"books/nul.x"', "Windows で使えない名前"),
        ('".scenarios"', "exclude_docs の既定「.*」"),
        ('"templates"', "exclude_docs の既定「/templates/」"),
    ],
)
def test_a_prefix_that_escapes_is_empty_or_is_excluded_is_refused(
    tmp_path: Path, prefix: str, words: str
) -> None:
    root = _site(tmp_path / "book", f"      prefix: {prefix}\n")
    stderr = _refused(_build(root, "--strict"))
    assert "prefix" in stderr and words in stderr, stderr[-3000:]
    assert "ください" in stderr  # the fix
    assert not (root / "site").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book"]  # nothing written beside it


@pytest.mark.parametrize(
    "rules",
    [
        "exclude_docs: |\n  drafts/\n",
        "draft_docs: |\n  drafts/\n",
        "not_in_nav: |\n  /drafts/\n",
    ],
)
def test_a_prefix_the_sites_own_rules_drop_is_refused(tmp_path: Path, rules: str) -> None:
    root = _site(tmp_path / "s", "      prefix: drafts\n", extra=rules)
    stderr = _refused(_build(root))
    option = rules.split(":", maxsplit=1)[0]
    assert "オプション prefix: 'drafts'" in stderr, stderr[-3000:]
    assert f"mkdocs.yml の {option} の「" in stderr


def test_a_scenario_page_the_sites_rules_drop_is_an_error_naming_it(tmp_path: Path) -> None:
    root = _site(tmp_path / "s", extra="exclude_docs: |\n  scenarios/port.md\n")
    stderr = _refused(_build(root))
    assert "scenarios/port.md（シナリオ scenarios/port.yaml のページ）" in stderr, stderr
    assert "exclude_docs の「scenarios/port.md」" in stderr


def test_a_nested_prefix_builds_the_book_there(tmp_path: Path) -> None:
    root = _site(tmp_path / "s", "      prefix: /books/2024/\n")
    result = _build(root, "--strict")
    assert result.returncode == 0, result.stderr[-3000:]
    site = root / "site" / "books" / "2024"
    assert (site / "twod6" / "index.html").is_file()
    assert 'href="twod6/"' in (site / "index.html").read_text("utf-8")


# -- item 3: battles, title, options that would do nothing ----------------------------------------


@pytest.mark.parametrize("battles", ["0", "100001", "true", "'400'", "1.5"])
def test_the_battles_of_the_site_are_bounded(tmp_path: Path, battles: str) -> None:
    root = _site(tmp_path / "s")
    text = (root / "mkdocs.yml").read_text("utf-8")
    (root / "mkdocs.yml").write_text(
        text.replace("        enabled: false\n", f"        battles: {battles}\n"), "utf-8"
    )
    stderr = _refused(_build(root))
    assert "battles" in stderr and "戦闘回数は" in stderr and "100000" in stderr, stderr


def test_the_largest_number_of_battles_is_accepted(tmp_path: Path) -> None:
    root = _site(tmp_path / "s")
    text = (root / "mkdocs.yml").read_text("utf-8")
    (root / "mkdocs.yml").write_text(text + "        battles: 100000\n", "utf-8")
    assert _config(root).plugins["saikoro"].config.balance.battles == 100000


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ("      title: '  '\n", "option 'title': 空です"),
        ("      mermaid_url: https://cdn.example/m.js\n      mermaid_dir: m\n", "mermaid_dir"),
        ("      schema_path: ../schema.json\n", "docs の外"),
        ("      reference: true\n      reference_prefix: ../x\n", "docs の外"),
    ],
)
def test_options_that_would_do_nothing_or_escape_are_refused(
    tmp_path: Path, options: str, words: str
) -> None:
    root = _site(tmp_path / "s", options)
    stderr = _refused(_build(root))
    assert words in stderr, stderr[-3000:]


def test_the_title_is_text_everywhere(tmp_path: Path) -> None:
    root = _site(tmp_path / "s", f"      title: {Q(NAME)}\n")
    result = _build(root, "--strict")
    assert result.returncode == 0, result.stderr[-3000:]
    for path in (root / "site").rglob("*.html"):
        text = path.read_text("utf-8")
        assert "<script>alert" not in text and "<img src=x" not in text, path
        assert not re.search(r"<[^<>]*\sonclick=", text), path  # no attribute of a tag
    index = (root / "site" / "scenarios" / "index.html").read_text("utf-8")
    title = re.search(r"<title>(.*?)</title>", index, re.S)
    assert title is not None and "＜/title＞＜script＞" in title.group(1)
    assert "&lt;/title&gt;&lt;script&gt;" in index  # the heading shows what was written
    home = (root / "site" / "index.html").read_text("utf-8")
    assert "＜/title＞＜script＞alert(1)" in home  # the nav's section


# -- item 3: reference_prefix ---------------------------------------------------------------------


def test_reference_pages_over_the_authors_are_an_error_and_reference_prefix_moves_them(
    tmp_path: Path,
) -> None:
    root = _site(tmp_path / "s", "      reference: true\n")
    (root / "docs" / "rulings.md").write_text("# 私の裁定\n", "utf-8")
    stderr = _refused(_build(root))
    assert "docs/rulings.md（作者のファイル）" in stderr and "rulings.md（reference: true" in stderr
    assert "reference_prefix を変えて" in stderr
    text = (root / "mkdocs.yml").read_text("utf-8")
    (root / "mkdocs.yml").write_text(text + "      reference_prefix: reference\n", "utf-8")
    result = _build(root, "--strict")  # --strict: every link of the moved pages resolves
    assert result.returncode == 0, result.stderr[-3000:]
    site = root / "site"
    assert "私の裁定" in (site / "rulings" / "index.html").read_text("utf-8")
    assert (site / "reference" / "rulings" / "index.html").is_file()
    assert (site / "reference" / "commands" / "index.html").is_file()
    guide = (site / "reference" / "authoring" / "index.html").read_text("utf-8")
    assert 'href="../../schema/scenario.schema.json"' in guide
    fields = (site / "reference" / "authoring" / "fields" / "index.html").read_text("utf-8")
    assert 'href="../../../schema/scenario.schema.json"' in fields


# -- item 4: generated pages over the author's --------------------------------------------------


@pytest.mark.parametrize(
    ("mine", "generated"),
    [
        ("scenarios/port.md", "scenarios/port.md（シナリオ scenarios/port.yaml のページ）"),
        ("scenarios/port/index.md", "scenarios/port.md（シナリオ scenarios/port.yaml のページ）"),
        ("scenarios/index.md", "scenarios/index.md（シナリオ一覧・印刷用のページ）"),
        ("scenarios/README.md", "scenarios/index.md（シナリオ一覧・印刷用のページ）"),
        ("scenarios/book.md", "scenarios/book.md（シナリオ一覧・印刷用のページ）"),
        (
            "scenarios/port/oni.zip",
            "scenarios/port/oni.zip（シナリオ scenarios/port.yaml のページ）",
        ),
        ("scenarios/twod6/notes.txt", None),
    ],
)
def test_a_generated_page_over_the_authors_is_an_error_naming_both(
    tmp_path: Path, mine: str, generated: str | None
) -> None:
    root = _site(tmp_path / "s")
    target = root / "docs" / mine
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("# 私のページ\n", "utf-8")
    if generated is None:  # a file of the author's where no generated file goes: kept
        result = _build(root, "--strict")
        assert result.returncode == 0, result.stderr[-3000:]
        assert (root / "site" / mine).read_text("utf-8") == "# 私のページ\n"
        return
    stderr = _refused(_build(root))
    assert f"docs/{mine}（作者のファイル）" in stderr, stderr[-3000:]
    assert generated in stderr
    assert not (root / "site").exists()


def test_a_schema_path_over_the_home_page_is_an_error_naming_it(tmp_path: Path) -> None:
    root = _site(tmp_path / "s", "      schema_path: index.md\n")
    stderr = _refused(_build(root))
    assert "schema_path: 'index.md'" in stderr and "docs/index.md（作者のページ）" in stderr
    assert ".json で終わる名前" in stderr


def test_a_schema_over_an_authors_file_is_an_error(tmp_path: Path) -> None:
    root = _site(tmp_path / "s")
    (root / "docs" / "schema").mkdir()
    (root / "docs" / "schema" / "scenario.schema.json").write_text("{}", "utf-8")
    stderr = _refused(_build(root))
    assert "docs/schema/scenario.schema.json（作者のファイル）" in stderr
    assert "schema_path を変えて" in stderr


@pytest.mark.parametrize(
    ("options", "name"),
    [
        ("      reference_prefix: ref\n", "reference_prefix"),
        ("      schema: false\n      schema_path: s.json\n", "schema_path"),
        ("        battles: 50\n", "balance.battles"),
    ],
)
def test_an_option_another_switches_off_is_said_and_strict_fails(
    tmp_path: Path, options: str, name: str
) -> None:
    root = _site(tmp_path / "s", options)
    result = _build(root)
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"オプション {name}" in result.stderr and "何もしません" in result.stderr
    assert _build(root, "--strict").returncode != 0
