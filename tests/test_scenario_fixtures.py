"""Every hostile or invalid fixture in tests/data/scenarios gets its exact problems."""

from __future__ import annotations

from pathlib import Path

import pytest

from saikoro.scenario import load_scenario

DATA = Path(__file__).parent / "data" / "scenarios"

E = "error"
W = "warning"

EXPECTED: dict[str, list[str]] = {
    "syntax-error.yaml": [
        "3:8: error: scenario: YAML syntax error: a '[' list is not closed with ']' "
        "(or an item lacks a ',')"
    ],
    "alias-bomb.yaml": [
        "6:4: error: scenario.e[5]: the document holds more than 50000 values "
        "(an alias counts as a full copy)"
    ],
    "recursive-alias.yaml": [
        "3:10: error: scenario.enemies[0]: an alias refers to a node that contains it "
        "(a recursive alias)"
    ],
    "deep-nesting.yaml": [
        "3:49: error: scenario.summary" + "[0]" * 39 + ": nesting deeper than 40 levels"
    ],
    "wrong-type.yaml": [
        "7:9: error: scenario.enemies[0].hp: expected an integer between 1 and 99999, got 'forty'"
    ],
    "typo-key.yaml": [
        "7:5: error: scenario.enemies[0].hpp: unknown key 'hpp' (hint: did you mean 'hp'?)"
    ],
    "duplicate-key.yaml": [
        "4:1: error: scenario.players: duplicate key 'players' (first defined on line 3)"
    ],
    "duplicate-id.yaml": [
        "5:10: error: scenario.enemies[1].id: duplicate id 'oni' (first used on line 4)"
    ],
    "table-gaps.yaml": [
        "9:7: error: scenario.chase_tables[0].entries.5: 5 is covered twice (entries 4-6 and 5)",
        "10:7: error: scenario.chase_tables[0].entries.9-10: 7-8 are not covered by any entry "
        "of this 1D10 table (hint: change 4-6 to 4-8 or 9-10 to 7-10, or add an entry for 7-8)",
    ],
    "bad-cell.yaml": [
        "10:16: error: scenario.enemies[0].placement: expected a map cell "
        "(in1..in12, out1..out12 or centre), got 'center' (hint: did you mean 'centre'?)"
    ],
    "huge-number.yaml": [
        "6:13: error: scenario.difficulty_targets[0].target: "
        "number too large (10^60 or more in absolute value, in any notation)"
    ],
    "python-tag.yaml": [
        "2:8: error: scenario.title: tag tag:yaml.org,2002:python/object/apply:os.system "
        "is not allowed (only plain YAML data is accepted)"
    ],
    "empty.yaml": [
        "1:1: error: scenario: the file is empty; a scenario is a mapping with at least "
        "'system' and 'title'"
    ],
    "not-mapping.yaml": [
        "1:1: error: scenario: a scenario must be a mapping of keys to values, got a list"
    ],
    "two-documents.yaml": [
        "3:1: error: scenario: the file holds more than one YAML document; "
        "a scenario is one document"
    ],
    "unknown-system.yaml": [
        "1:9: error: scenario.system: unknown system 'gteb' (hint: did you mean 'getb'?)"
    ],
    "missing-title.yaml": ["1:1: error: scenario.title: missing required key 'title' (a string)"],
    "bad-enum.yaml": [
        "5:12: error: scenario.difficulty_targets[0].check: expected one of strength | agility "
        "| intellect | endurance, got 'agilty' (hint: did you mean 'agility'?)"
    ],
    "range-backwards.yaml": [
        "12:78: error: scenario.enemies[0].attacks[0].range: range 3-1 runs backwards "
        "(hint: write it as 1-3)"
    ],
    "bad-utf8.yaml": ["3:12: error: scenario: the file is not valid UTF-8 (byte 0xff)"],
    "impossible-target.yaml": [
        "6:13: warning: scenario.difficulty_targets[0].target: target 16 is in the 16+ tier "
        "of the target guide (all but impossible): with an ability of 6 or less only a critical "
        "(a natural 10) reaches it (hint: chance of success by ability: ≤6: 1/10 (10.0%), "
        "7: 1/5 (20.0%), 9: 2/5 (40.0%), 11: 3/5 (60.0%))"
    ],
    "akatsuki-too-hard.yaml": [
        "6:17: warning: scenario.difficulty_targets[0].difficulty: base difficulty -4 is beyond "
        "ordinary people: a level-5 character may not try it (superhuman level 9+ only)",
        "6:17: warning: scenario.difficulty_targets[0].difficulty: the target comes to 1 for a "
        "level-5 character: below 2, the check fails automatically "
        "(hint: chance of success: 0 (0%))",
    ],
    "escaped-nul.yaml": [
        "2:8: error: scenario.title: control character U+0000 (at character 2) is not allowed "
        "in text"
    ],
    "ruling-out-of-range.yaml": [
        "6:8: error: scenario.rulings.die: the engine refuses this ruling: kokuryoku: option "
        "'die' must be between 2 and 20 sides"
    ],
    "yaml11-sexagesimal.yaml": [
        "6:9: error: scenario.enemies[0].hp: expected an integer between 1 and 9999, got '1:20'",
        "10:5: error: scenario.enemies[0].on: unknown key 'on' (hint: known: id, name, hp, "
        "attack, defence, initiative, position, blessed, skills, immune, notes)",
    ],
    "blade-range.yaml": [
        "16:16: error: scenario.enemies[0].attacks[0].range: a long-blade attack reaches 0-1 "
        "cells (the rules fix blade ranges), got range 0-3 (hint: leave out range, or use "
        "weapon: skill for an attack with its own reach)"
    ],
    "kokuryoku-no-power-zero.yaml": [
        "5:14: warning: scenario.missions.main.success: the final phase's end conditions should "
        "include bringing the enemy nation's power (国力) to 0 (the rules make it a condition "
        "of every final phase)"
    ],
}


def test_every_fixture_has_expectations() -> None:
    assert sorted(p.name for p in DATA.glob("*.yaml")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_problems(name: str) -> None:
    result = load_scenario(DATA / name, display=name)
    got = [p.format("en").removeprefix(f"{name}:") for p in result.problems]
    assert got == EXPECTED[name]
    errors = any(line.split(": ", 2)[1] == E for line in EXPECTED[name])
    assert (result.scenario is None) == errors
    if not errors:
        assert all(p.severity == W for p in result.problems)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_messages_in_japanese(name: str) -> None:
    result = load_scenario(DATA / name, display=name)
    for problem in result.problems:
        text = problem.format("ja")
        assert text.startswith(f"{name}:{problem.line}:{problem.column}: ")
        assert problem.text("ja") != problem.text("en") or problem.msg.code == "load.syntax"


def test_python_tag_runs_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    text = f"system: getb\ntitle: !!python/object/apply:os.system ['touch {marker}']\n"
    path = tmp_path / "evil.yaml"
    path.write_text(text, "utf-8")
    result = load_scenario(path)
    assert result.scenario is None
    assert not marker.exists()
    for tag in ("!!python/object:os.system", "!!python/name:os.system", "!!binary", "!custom"):
        path.write_text(f"system: getb\ntitle: {tag} x\n", "utf-8")
        assert load_scenario(path).errors[0].msg.code == "load.tag"
