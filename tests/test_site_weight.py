"""Page weight of the project's site, and the exact values kept out of its HTML.

Budgets (HTML of one page): GETB rules page 400 KB, commands page 600 KB, each sample
scenario page 300 KB. Long fractions live in ``<page>.odds.json`` (see
:mod:`saikoro.site._exact`); every shown probability still resolves to its exact value.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from test_site_support import REPO, env

pytestmark = pytest.mark.slow

KB = 1024
BUDGETS = {"systems/getb": 400 * KB, "commands": 600 * KB}
SCENARIO_BUDGET = 300 * KB


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("weight") / "site"
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


def _pages(site: Path) -> list[Path]:
    return sorted(site.rglob("index.html"))


def test_page_weights(site: Path) -> None:
    sizes = {}
    for name, budget in BUDGETS.items():
        size = (site / name / "index.html").stat().st_size
        sizes[name] = size
        assert size <= budget, f"{name}: {size / KB:.0f} KB > {budget / KB:.0f} KB"
    scenarios = [p for p in (site / "scenarios").glob("*/index.html") if p.parent.name != "book"]
    assert len(scenarios) >= 10
    # the whole-book page (for print) holds every scenario: no heavier than their pages
    book = (site / "scenarios" / "book" / "index.html").stat().st_size
    assert book <= sum(p.stat().st_size for p in scenarios), book
    for path in scenarios:
        size = path.stat().st_size
        sizes[path.parent.name] = size
        assert size <= SCENARIO_BUDGET, f"{path}: {size / KB:.0f} KB"
    print({k: f"{v / KB:.0f} KB" for k, v in sizes.items()})


def test_no_long_fraction_in_html_or_tooltips(site: Path) -> None:
    for path in _pages(site):
        html = path.read_text("utf-8")
        for value in re.findall(r'data-probability="(\d+/\d+)"', html):
            assert len(value) <= 24, (path, value)
        for tip in re.findall(r'title="([^"]*)"', html) + re.findall(r"<title>([^<]*)<", html):
            assert not re.search(r"[0-9/]{25,}", tip), (path, tip)


def test_every_probability_resolves_exactly(site: Path) -> None:
    import saikoro

    checked = 0
    for path in _pages(site):
        html = path.read_text("utf-8")
        keys = re.findall(r'data-exact(?:-mean)?="([0-9a-f]{12})"', html)
        tables = re.findall(r'data-lazy="([0-9a-f]{12})"', html)
        if not keys and not tables:
            assert "saikoro-exact-src" not in html
            continue
        src = re.search(r'class="saikoro-exact-src" hidden data-src="([^"]+)"', html)
        assert src, path
        data = json.loads((path.parent / src.group(1)).read_text("utf-8"))
        assert set(keys) <= set(data["exact"]), path
        assert set(tables) <= set(data["tables"]), path
        for value in data["exact"].values():
            assert Fraction(value) >= 0 or "/" in value
        for table in data["tables"].values():
            total = sum(Fraction(row[1]) for row in table["rows"])
            assert total == 1 or total <= 1, path  # truncated distributions sum below 1
        checked += 1
    assert checked >= 2
    # one long value, recomputed: the GETB page's first lazy table is a full distribution
    html = (site / "systems" / "getb" / "index.html").read_text("utf-8")
    blocks = re.split(r'(?=<div class="saikoro-dist" data-command=")', html)
    lazy = [b for b in blocks if b.startswith("<div") and "data-lazy=" in b]
    assert lazy
    block = re.match(
        r'<div class="saikoro-dist" data-command="([^"]+)".*?data-lazy="(\w+)"', lazy[0], re.S
    )
    assert block
    command = block.group(1).replace("&gt;", ">").replace("&lt;", "<").replace("&amp;", "&")
    data = json.loads((site / "systems" / "getb" / "index.odds.json").read_text("utf-8"))
    odds = saikoro.odds(command, system="getb")
    assert odds is not None
    rows = {row[0]: Fraction(row[1]) for row in data["tables"][block.group(2)]["rows"]}
    assert rows == {str(k): v for k, v in odds.distribution.items()}
