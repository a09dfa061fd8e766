"""Every exported chat-palette line rolls in the VTT's real BCDice, with saikoro's odds.

The sample book's scenario pages are rendered as the site renders them; the ココフォリア
clipboard JSON (``data-ccfolia`` on the copy button) and the ユドナリウム zips are parsed
back, and every palette line goes through BCDice (npm ``bcdice``, pinned in
package.json) in one Node process: the game system the export names (ユドナリウム's
``<chat-palette dicebot>``; ``DiceBot`` for ココフォリア, whose room picks the bot), as the
VTT sends it. Then the exported roll is checked against the system command it stands
for: the same distribution of the total, or the same chance of success.
"""

from __future__ import annotations

import html
import io
import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import saikoro
from saikoro.export import DICEBOT, PaletteLine, enemy_character, enemy_palette
from saikoro.export._enemy import compare_options
from saikoro.export._memo import enemy_definition
from saikoro.scenario import (
    Bool,
    Enum,
    Int,
    IntOrRange,
    ListOf,
    MapOf,
    Obj,
    Scenario,
    Str,
    Type,
    load_scenarios,
    validate_text,
)
from saikoro.scenario.model import Enemy, enemy_model, to_data
from saikoro.site._oddscache import OddsCache
from saikoro.site._pages.scenario import render_scenario, rulings
from saikoro.site._vtt import VttSettings
from saikoro.systems import SYSTEM_IDS

ROOT = Path(__file__).resolve().parents[1]
SITE = "https://example.org/book/"

# Runs in the repository root, so require() finds the pinned node_modules/bcdice.
NODE_SCRIPT = r"""
const { DynamicLoader, Version } = require('bcdice');
(async () => {
  const jobs = JSON.parse(require('fs').readFileSync(0, 'utf8'));
  const loader = new DynamicLoader();
  const systems = {};
  const out = [];
  for (const [system, line] of jobs) {
    systems[system] = systems[system] || await loader.dynamicLoad(system);
    const G = systems[system];
    const result = G.eval(line);
    out.push({
      system: G.ID,
      pattern: G.COMMAND_PATTERN.test(line),
      text: result ? result.text : null,
      success: result ? result.success : null,
    });
  }
  process.stdout.write(JSON.stringify({ version: Version, results: out }));
})().catch((e) => { console.error(e); process.exit(1); });
"""


@dataclass(frozen=True)
class Exported:
    """One enemy's two exports, parsed back from the rendered page and zip."""

    scenario: Scenario
    enemy: Mapping[str, Any]
    ccfolia: Mapping[str, Any]
    udonarium: ET.Element


@cache
def _scenarios() -> tuple[Scenario, ...]:
    results = load_scenarios(ROOT / "scenarios")
    bad = [p.format() for r in results for p in r.errors]
    assert not bad, bad
    return tuple(r.scenario for r in results if r.scenario is not None)


def _plain(enemy: Enemy) -> dict[str, Any]:
    """An enemy of the model as plain validated data (what these checks read)."""
    data = to_data(enemy)
    assert isinstance(data, dict)
    return data


@cache
def _exports() -> tuple[Exported, ...]:
    """Every enemy of the sample book, as the site exports it."""
    out = []
    cache_ = OddsCache()
    for scenario in _scenarios():
        rendered = render_scenario(scenario, cache_, zip_href="./", vtt=VttSettings(SITE))
        page = "".join(rendered.slots)
        # the enemies' cards (NPCs have export buttons too, in their own cards)
        cards = page.split('<div class="saikoro-enemy" ')[1:]
        clips = [
            json.loads(html.unescape(re.findall(r'data-ccfolia="([^"]*)"', card)[0]))
            for card in cards
        ]
        enemies = [_plain(e) for e in scenario.model.enemies]
        names = {f"{e['id']}.zip" for e in enemies}
        zips = {f.name: f.content for f in rendered.files if f.name in names}
        assert len(clips) == len(enemies) == len(zips), scenario.id
        for enemy, clip in zip(enemies, clips, strict=True):
            with zipfile.ZipFile(io.BytesIO(zips[f"{enemy['id']}.zip"])) as archive:
                root = ET.fromstring(archive.read("data.xml"))  # noqa: S314 - our own output
            out.append(Exported(scenario, enemy, clip, root))
    return tuple(out)


def _udonarium_palette(root: ET.Element) -> tuple[str, list[str]]:
    palette = root.find("chat-palette")
    assert palette is not None
    return palette.get("dicebot", ""), (palette.text or "").splitlines()


def _ccfolia_palette(clip: Mapping[str, Any]) -> list[str]:
    commands = clip["data"]["commands"]
    assert isinstance(commands, str)
    return commands.splitlines()


def _bcdice(jobs: list[tuple[str, str]]) -> dict[str, Any]:
    node = shutil.which("node")
    assert node, "node is needed to run BCDice (make setup installs the npm packages)"
    assert (ROOT / "node_modules" / "bcdice").is_dir(), "run make setup (npm ci) for bcdice"
    done = subprocess.run(
        [node, "-e", NODE_SCRIPT],
        input=json.dumps(jobs),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    assert len(result["results"]) == len(jobs)
    return result


def _extreme(kind: Type, high: bool) -> Any:
    """A value of ``kind`` at one end of every range (optional fields included)."""
    if isinstance(kind, Enum):
        return kind.values[-1 if high else 0]
    if isinstance(kind, Bool):
        return high
    if isinstance(kind, Int):
        return kind.high if high else kind.low
    if isinstance(kind, IntOrRange):
        return f"{kind.low}-{kind.high}" if high else kind.low
    if isinstance(kind, Str):
        return kind.suggest[-1 if high else 0] if kind.suggest else "名前 {x} <b>"
    if isinstance(kind, Obj):
        return {f.name: _extreme(f.type, high) for f in kind.fields}
    if isinstance(kind, ListOf):
        if isinstance(kind.item, Enum):
            return list(kind.item.values[: kind.max_items])
        return [_extreme(kind.item, high) for _ in range(min(2, kind.max_items))]
    if isinstance(kind, MapOf):
        return {"能力A": _extreme(kind.value, high), "能力B": _extreme(kind.value, not high)}
    raise TypeError(kind)


RULINGS: dict[str, tuple[Mapping[str, Any], ...]] = {
    "cutaction": ({}, {"check_dice": "2D6"}),
    "kokuryoku": ({}, {"die": 20, "die_count": 3}, {"die": 2}),
    "kegare": ({}, {"position_stack": "max", "status_recovery": "above"}),
}
"""Rulings that change an export's dice, tried on the extreme enemies."""


@cache
def _extreme_enemies() -> tuple[tuple[str, Mapping[str, Any], Mapping[str, Any]], ...]:
    """(system, rulings, enemy) with every number at its lowest or highest, that validate."""
    out: list[tuple[str, Mapping[str, Any], Mapping[str, Any]]] = []
    for system in SYSTEM_IDS:
        for high in (False, True):
            enemy = {**_extreme(enemy_definition(system), high), "id": "edge"}
            for chosen in RULINGS.get(system, ({},)):
                doc = {"system": system, "title": "t", "enemies": [enemy], "rulings": chosen}
                result = validate_text(json.dumps(doc, ensure_ascii=False), "x.yaml")
                if result.ok and result.scenario is not None:
                    out.append((system, chosen, _plain(result.scenario.model.enemies[0])))
    return tuple(out)


def test_extreme_enemies_cover_every_system() -> None:
    assert {system for system, _, _ in _extreme_enemies()} == set(SYSTEM_IDS)


@cache
def _rolled() -> tuple[list[tuple[str, str, str]], dict[str, Any]]:
    """(where, system, line) of every exported palette line, and BCDice's answers.

    The sample book's exports as parsed back from the pages and zips, then the extreme
    enemies' palettes (every number at an end of its range), all in one Node process.
    """
    where: list[tuple[str, str, str]] = []
    for e in _exports():
        name = f"{e.scenario.id}/{e.enemy['id']}"
        where.extend(
            (f"{name} (ココフォリア)", DICEBOT, line) for line in _ccfolia_palette(e.ccfolia)
        )
        dicebot, lines = _udonarium_palette(e.udonarium)
        where.extend((f"{name} (ユドナリウム)", dicebot, line) for line in lines)
    for system, chosen, enemy in _extreme_enemies():
        character = enemy_character(system, enemy_model(system, enemy), options=chosen)
        name = f"{system} extreme {chosen}"
        where.extend((name, character.dicebot, line) for line in character.commands)
    return where, _bcdice([(system, line) for _, system, line in where])


def test_every_palette_line_rolls_in_bcdice() -> None:
    where, answer = _rolled()
    results = answer["results"]
    failed = [
        f"{w}: {line!r}"
        for (w, _, line), r in zip(where, results, strict=True)
        if r["text"] is None or not r["pattern"]
    ]
    assert not failed, failed
    # Enough lines that the test means something: every enemy has a palette.
    samples = sum(1 for w, _, _ in where if w.endswith(("ア)", "ム)")))
    assert samples >= 2 * len(_exports()) * 3
    print(
        f"BCDice {answer['version']}: {len(where)} palette lines ({samples} of the book), all roll"
    )


def test_exports_name_the_generic_dice_bot() -> None:
    where, answer = _rolled()
    assert {system for _, system, _ in where} == {DICEBOT}
    assert {r["system"] for r in answer["results"]} == {DICEBOT}


def test_both_exports_carry_the_same_palette() -> None:
    for e in _exports():
        assert _ccfolia_palette(e.ccfolia) == _udonarium_palette(e.udonarium)[1]


def test_memos_mention_every_attack_and_skill() -> None:
    for e in _exports():
        memo = e.ccfolia["data"]["memo"]
        assert memo.strip(), e.enemy["id"]
        note = e.udonarium.find(".//data[@name='メモ']")
        assert note is not None and note.get("type") == "note" and note.text == memo
        for key in ("attacks", "skills"):
            for entry in e.enemy.get(key) or ():
                assert entry["name"] in memo, (e.enemy["id"], entry["name"])
                if entry.get("effect"):
                    assert entry["effect"].strip().splitlines()[0] in memo
        if e.enemy.get("notes"):
            assert e.enemy["notes"].strip().splitlines()[0] in memo


def test_external_url_points_at_the_enemy() -> None:
    for e in _exports():
        url = e.ccfolia["data"]["externalUrl"]
        assert url == f"{SITE}scenarios/{e.scenario.id}/#enemy-{e.enemy['id']}"
        info = e.udonarium.find(".//data[@name='URL']")
        assert info is not None and info.text == url


def _difference(a: Mapping[Any, Fraction], b: Mapping[Any, Fraction]) -> Fraction:
    return sum(
        (abs(a.get(k, Fraction(0)) - b.get(k, Fraction(0))) for k in set(a) | set(b)), Fraction(0)
    )


def _model(e: Exported) -> Enemy:
    """The model of an exported enemy (the one its scenario's model holds)."""
    return e.scenario.model.enemy(str(e.enemy["id"]))


def _enemy(system: str, **data: object) -> Enemy:
    """A made-up enemy of ``system`` (id and name ``x``), defaults filled in."""
    return enemy_model(system, {"id": "x", "name": "x", **data})


def _lines() -> list[tuple[Scenario, PaletteLine]]:
    return [
        (e.scenario, line)
        for e in _exports()
        for line in enemy_palette(e.scenario.system, _model(e), rulings(e.scenario))
    ]


def test_palette_lines_are_the_exported_lines() -> None:
    for e in _exports():
        lines = enemy_palette(e.scenario.system, _model(e), rulings(e.scenario))
        assert [line.text for line in lines] == _ccfolia_palette(e.ccfolia)


def _all_lines() -> list[tuple[str, Mapping[str, Any], PaletteLine]]:
    """(system, rulings, line): the sample book's lines, then the extreme enemies'."""
    out: list[tuple[str, Mapping[str, Any], PaletteLine]] = [
        (s.system, rulings(s), line) for s, line in _lines()
    ]
    out.extend(
        (system, chosen, line)
        for system, chosen, enemy in _extreme_enemies()
        for line in enemy_palette(system, enemy_model(system, enemy), chosen)
    )
    return out


def test_generic_rolls_have_the_system_odds() -> None:
    """The exported roll is the system command's roll: the proof of the translation."""
    compared = {"same": 0, "success": 0}
    for system_id, chosen, line in _all_lines():
        if not line.system_command:
            continue
        options = {**chosen, **compare_options(system_id)}
        system = saikoro.get_system(system_id, **options)
        mine = saikoro.odds(line.system_command, system=system)
        generic = saikoro.odds(line.command)
        assert mine is not None and generic is not None, line
        where = f"{system!r}: {line.command} vs {line.system_command}"
        if line.compare == "same":
            slack = max(mine.truncated, generic.truncated)
            assert _difference(mine.distribution, generic.distribution) <= 2 * slack, where
        else:
            assert line.compare == "success", where
        if line.compare == "success" or (mine.success is not None and generic.success is not None):
            assert mine.success == generic.success, where
        compared[line.compare] += 1
    assert compared["same"] >= 20 and compared["success"] >= 10, compared


@pytest.mark.parametrize("value", [0, 1, 5, 9, 10, 11, 15])
def test_cutaction_cap_keeps_the_fumble(value: int) -> None:
    """A success value at or above the top face still fails on the fumble."""
    line = enemy_palette("cutaction", _enemy("cutaction", body=value, head=1, hp=1))[0]
    system = saikoro.odds(line.system_command, system="cutaction")
    generic = saikoro.odds(line.command)
    assert system is not None and generic is not None
    assert system.success == generic.success


def test_kokuryoku_and_cutaction_dice_follow_the_rulings() -> None:
    enemy = _enemy("kokuryoku", abilities={"force": 2}, attack=1, defence=1)
    lines = enemy_palette("kokuryoku", enemy, {"die": 6, "die_count": 2})
    assert [line.command for line in lines] == ["2D6+2", "2D6+1", "2D6+1"]
    cut = enemy_palette(
        "cutaction", _enemy("cutaction", body=12, head=3, hp=1), {"check_dice": "2D6"}
    )
    assert [line.command for line in cut][:2] == ["2D6<=11", "2D6<=3"]
    for line in cut:
        system = saikoro.get_system("cutaction", check_dice="2D6")
        mine = saikoro.odds(line.system_command, system=system)
        assert mine is not None and mine.success == saikoro.odds(line.command).success  # type: ignore[union-attr]
