"""Issue 22: a corpus of hostile input through every stage, and every export parsed.

``tests/data/hostile/*.yaml`` each start with ``# expect: ok`` or ``# expect: error
<key path> <line>:<column>``: validate must give exactly that (one error, at that
place, or none). The corpus then goes through the build (which must refuse the same
files at the same places, and build the rest under ``--strict``), ``saikoro simulate``
and the API; every export of every scenario the tests know (the samples, the sample
book, the fixtures, the corpus) is parsed as its VTT would read it: the ユドナリウム zip's
``data.xml`` as XML, the ココフォリア clipboard as JSON. Commands from a hostile list go
through ``roll`` and ``odds``, in the API and the CLI: each is a result or saikoro's own
error, never a traceback.
"""

from __future__ import annotations

import contextlib
import html
import io
import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile
from functools import cache
from pathlib import Path

import pytest

import saikoro
from saikoro.dice import SaikoroError
from saikoro.export import ccfolia_attribute, ccfolia_json, enemy_character, udonarium_zip
from saikoro.scenario import Scenario, load_scenario
from test_site_support import env

ROOT = Path(__file__).resolve().parents[1]
HOSTILE = ROOT / "tests" / "data" / "hostile"
FILES = sorted(HOSTILE.glob("*.yaml"))
_EXPECT = re.compile(r"# expect: (?:ok|error (\S+) (\d+):(\d+))$")


def _expected(path: Path) -> tuple[str, int, int] | None:
    first = path.read_text("utf-8").split("\n", 1)[0]
    match = _EXPECT.fullmatch(first)
    assert match is not None, f"{path.name}: no '# expect:' line"
    if match.group(1) is None:
        return None
    return match.group(1), int(match.group(2)), int(match.group(3))


def test_the_corpus_is_there() -> None:
    assert len(FILES) >= 19
    assert sum(_expected(p) is None for p in FILES) >= 1  # some valid hostile text too


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_validate_gives_each_file_its_one_problem(path: Path) -> None:
    result = load_scenario(path)
    expected = _expected(path)
    if expected is None:
        assert result.ok and not result.problems, [p.format() for p in result.problems]
        return
    assert [(p.path, p.line, p.column) for p in result.errors] == [expected]


# -- every export of every scenario parses ----------------------------------------------------


def _scenario_files() -> list[Path]:
    found = [
        *sorted((ROOT / "scenarios").glob("*.yaml")),
        *sorted((ROOT / "plugin" / "saikoro" / "systems").glob("_*/sample.yaml")),
        *sorted((ROOT / "tests" / "data" / "scenarios").glob("*.yaml")),
        *FILES,
    ]
    assert len(found) > 40
    return found


@cache
def _valid() -> tuple[Scenario, ...]:
    out = []
    for path in _scenario_files():
        result = load_scenario(path)
        if result.scenario is not None:
            out.append(result.scenario)
    return tuple(out)


def _parse_zip(data: bytes) -> ET.Element:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert archive.namelist() == ["data.xml"]
        xml = archive.read("data.xml")
    root = ET.fromstring(xml)  # noqa: S314 - our own export: well-formed, or this raises
    assert root.tag == "character"
    return root


def test_every_export_of_every_scenario_parses() -> None:
    scenarios = _valid()
    systems = {s.system for s in scenarios}
    assert systems == set(saikoro.systems.SYSTEM_IDS)
    exported = 0
    for scenario in scenarios:
        for enemy in scenario.model.enemies:
            character = enemy_character(scenario.system, enemy, options=scenario.model.rulings)
            root = _parse_zip(udonarium_zip(character))
            names = [e.text for e in root.iter("data") if e.get("name") == "name"]
            assert names == [character.name]
            clip = json.loads(json.dumps(ccfolia_json(character), ensure_ascii=False))
            assert clip["data"]["name"] == character.name
            attribute = ccfolia_attribute(character)
            assert '"' not in attribute and "<" not in attribute
            assert json.loads(html.unescape(attribute)) == clip
            exported += 1
    assert exported > 20


# -- the build refuses what validate refuses, and builds the rest ------------------------------


def _site(root: Path, files: list[Path]) -> Path:
    (root / "docs").mkdir(parents=True)
    (root / "scenarios").mkdir()
    (root / "docs" / "index.md").write_text("# home\n", "utf-8")
    (root / "mkdocs.yml").write_text(
        "site_name: s\ntheme:\n  name: material\n  font: false\nplugins:\n"
        "  - saikoro:\n      roller:\n        enabled: false\n",
        "utf-8",
    )
    for path in files:
        shutil.copy(path, root / "scenarios" / path.name)
        images = path.parent / "images"  # the sample book's images, beside its scenarios
        if images.is_dir() and not (root / "scenarios" / "images").exists():
            shutil.copytree(images, root / "scenarios" / "images")
    return root


def _build(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", *args],
        cwd=root,
        env=env(),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.slow
def test_the_build_refuses_the_files_validate_refuses_at_the_same_places(tmp_path: Path) -> None:
    root = _site(tmp_path / "all", FILES)
    result = _build(root)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    for path in FILES:
        expected = _expected(path)
        if expected is not None:
            key, line, column = expected
            assert f"{path.name}:{line}:{column}: error: {key}:" in result.stderr, path.name


@pytest.mark.slow
def test_the_valid_corpus_builds_strictly_and_its_exports_parse(tmp_path: Path) -> None:
    valid = [p for p in FILES if _expected(p) is None]
    samples = sorted((ROOT / "scenarios").glob("*.yaml"))
    root = _site(tmp_path / "ok", valid + samples)
    result = _build(root, "--strict")
    assert result.returncode == 0, result.stderr[-3000:]
    site = root / "site"
    # each enemy's ユドナリウム zip (the whole rooms, room.*.zip: tests/test_export_room.py)
    zips = sorted(p for p in site.rglob("*.zip") if not p.name.startswith("room."))
    assert len(zips) >= len(samples)
    for path in zips:
        _parse_zip(path.read_bytes())
    clips = 0
    for page in site.rglob("*.html"):
        text = page.read_text("utf-8")
        assert not re.search(r"<script>alert|<img[^>]*onerror|href=\"javascript:", text), page
        for attribute in re.findall(r'data-ccfolia="([^"]*)"', text):
            json.loads(html.unescape(attribute))
            clips += 1
    assert clips >= len(zips)


# -- simulate and the API take the corpus --------------------------------------------------------


def test_simulate_reports_the_corpus_without_a_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from saikoro._cli import main

    assert main(["simulate", str(HOSTILE), "--battles", "20", "--no-exact", "--jobs", "1"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    for path in FILES:
        expected = _expected(path)
        if expected is not None:
            assert f"{path.name}:{expected[1]}:{expected[2]}: error:" in err, path.name


def test_the_valid_corpus_simulates() -> None:
    from saikoro.balance import encounter, simulate

    for path in FILES:
        if _expected(path) is None:
            scenario = load_scenario(path).scenario
            assert scenario is not None
            result = simulate(encounter(scenario), battles=50, seed=1, solve=False)
            assert result.battles == 50 and 0 <= result.win <= 1


COMMANDS = [
    "15R10[2]",
    "25R10[2]",
    "200R6[2]",
    "x99 200R10[2]",
    "x100 1D6",
    "x101 1D6",
    "x100 x100 1D6",
    "1D" + "9" * 1001,
    "9" * 2000 + "D6",
    "(" * 3001 + "1D6" + ")" * 3001,
    "1D6" + "+1" * 2000,
    "200D10000",
    "10001U0[10]",
    "1U1[1]",
    "100R100[2]",
    "2D6>=" + "9" * 999,
    "choice[" + ",".join("x" * 5 for _ in range(101)) + "]",
    "C(" + "9" * 990 + "*" + "9" * 990 + "*" + "9" * 990 + "*" + "9" * 990 + ")",
    "1D6/0",
    "\x00\x01\x1b[31m",
    "２Ｄ６＞＝７",
    "S2D6 secret",
    "",
    " " * 10_001,
]


@pytest.mark.parametrize("command", COMMANDS, ids=range(len(COMMANDS)))
def test_hostile_commands_are_a_result_or_saikoro_s_error(command: str) -> None:
    for call in (saikoro.roll, saikoro.odds):
        with contextlib.suppress(SaikoroError):  # anything else fails the test
            call(command)


@pytest.mark.slow
def test_hostile_commands_through_the_cli_never_trace_back() -> None:
    for action in ("roll", "odds"):
        for command in COMMANDS:
            if "\x00" in command:  # no argument can hold a NUL
                continue
            done = subprocess.run(
                [sys.executable, "-m", "saikoro", action, "--", command],
                env=env(),
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
            assert done.returncode in (0, 1, 2), (action, command[:40], done.stderr[-2000:])
            assert "Traceback" not in done.stderr, (action, command[:40], done.stderr[-2000:])
            if action == "odds":  # long fractions are rounded, never thousands of digits
                table = done.stdout.splitlines()[1:]  # the first line is the command
                assert max((len(line) for line in table), default=0) < 500, command[:40]
