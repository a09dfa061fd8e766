"""Japanese search on an author's site: the plugin adds katakana/kanji boundaries to
Material's search separator (see :mod:`saikoro.site._searchconfig`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from saikoro.site._searchconfig import BOUNDARIES
from test_site_support import build

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(
    ("plugins", "language", "expected"),
    [
        ("  - search\n  - saikoro\n", "ja", True),
        ("  - saikoro\n  - search\n", "ja", True),  # order does not matter
        ("  - search:\n      separator: '[\\s]+'\n  - saikoro\n", "ja", True),
        ("  - search\n  - saikoro\n", "en", False),  # only Japanese sites
    ],
)
def test_author_site_search_splits_katakana_and_kanji(
    tmp_path: Path, plugins: str, language: str, expected: bool
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# ホーム\n\nチェイス表を振る。\n", "utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        f"site_name: a\ntheme:\n  name: material\n  language: {language}\n  font: false\n"
        f"plugins:\n{plugins}",
        "utf-8",
    )
    result = build(tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    index = json.loads((tmp_path / "site" / "search" / "search_index.json").read_text("utf-8"))
    separator = index["config"]["separator"]
    assert (BOUNDARIES in separator) is expected, separator
    if "[\\s]+" in plugins:
        assert separator.startswith("[\\s]+|"), separator  # the author's own is kept
