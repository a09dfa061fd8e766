"""Each common author mistake gets a message naming it, at its line, with the fix.

The cases are the ones a new author met (issue 21): a key indented one space too deep
or too shallow, an unquoted ``: `` in a value or inside ``{…}``, a missing ``,`` in
``{…}``, ``yes``/``on`` for booleans (text in YAML 1.2), a gap in a chase table, a chase
target written as its goal, several problems that used to arrive one fix at a time,
ranges written with 〜 or ~, and ``saikoro validate`` run outside a book.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from saikoro.scenario import validate_text

HEAD = "system: getb\ntitle: t\n"
ENEMY = (
    "enemies:\n"
    "  - id: ogre\n"
    "    name: オウガ\n"
    "    abilities: {strength: 4, agility: 3, intellect: 1, endurance: 4}\n"
    "    hp: 40\n"
    "    ap: 6\n"
    "    st: 3\n"
    "    placement: out3\n"
    "    attacks:\n"
    "      - {name: 噛みつき, weapon: long-blade, element: physical, power: 5}\n"
)

# name: (text, line, column, English message part, English hint part, Japanese part)
CASES: dict[str, tuple[str, int, int, str, str, str]] = {
    "key-one-space-deeper": (
        HEAD + "difficulty_targets:\n  - name: x\n    check: agility\n     target: 8\n",
        6,
        6,
        "the key 'target' is indented by 5 spaces, deeper than the key 'check' above (4)",
        "indent 'target' by 4 spaces",
        "キー 'target' が 5 個の空白でインデントされていて",
    ),
    "key-one-space-shallower": (
        HEAD + ENEMY.replace("    hp: 40\n", "   hp: 40\n"),
        7,
        4,
        "the key 'hp' is indented by 3 spaces, which lines up neither with the key 'abilities'",
        "indent 'hp' by 4 spaces",
        "キー 'hp' のインデント(3 個の空白)が",
    ),
    "top-level-key-indented": (
        "system: getb\n title: t\n",
        2,
        2,
        "the key 'title' is indented by 1 spaces, deeper than the key 'system' above (0)",
        "start 'title' at the beginning of the line",
        "キー 'title'",
    ),
    "colon-in-flow-value": (
        HEAD + "chase_tables:\n  - name: x\n    die: 1D6\n    entries:\n"
        "      1-6: {title: a, effect: 効果: 大}\n",
        7,
        31,
        "the value '効果: 大' inside '{…}' holds a ': '",
        'put the value in quotes: effect: "効果: 大"',
        "'{…}' の中の値 '効果: 大' に ': ' があり",
    ),
    "comma-missing-in-flow": (
        HEAD + ENEMY.replace("agility: 3, intellect", "agility: 3 intellect"),
        6,
        41,
        "a ',' is missing before the key 'intellect' inside '{…}'",
        "separate the items with ',': agility: 3, intellect: 1",
        "キー 'intellect' の前の ',' が抜けています",
    ),
    "colon-in-plain-value": (
        "system: getb\ntitle: 霧: 序章\n",
        2,
        8,
        "the value '霧: 序章' holds a ': '",
        'put the value in quotes: title: "霧: 序章"',
        "値 '霧: 序章' の中に ': ' があります",
    ),
    "yes-for-true": (
        "system: kegare\ntitle: t\nenemies:\n  - {id: a, name: A, hp: 3, attack: 1, "
        "defence: 1, initiative: 3, blessed: yes}\n",
        4,
        76,
        "expected true or false, got 'yes'",
        "in YAML 1.2, 'yes' is text: write true",
        "YAML 1.2 では 'yes' は文字列です。真偽値は true と書いてください",
    ),
    "off-for-false": (
        "system: kegare\ntitle: t\nenemies:\n  - {id: a, name: A, hp: 3, attack: 1, "
        "defence: 1, initiative: 3, blessed: off}\n",
        4,
        76,
        "expected true or false, got 'off'",
        "in YAML 1.2, 'off' is text: write false",
        "真偽値は false と書いてください",
    ),
    "table-gap-at-the-broken-row": (
        HEAD + "chase_tables:\n  - name: x\n    die: 1D6\n    entries:\n"
        "      1: {title: a}\n      2: {title: b}\n      4-6: {title: c}\n",
        9,
        7,
        "3 is not covered by any entry of this 1D6 table",
        "change 2 to 2-3 or 4-6 to 3-6, or add an entry for 3",
        "出目 3 に対応する項目がありません",
    ),
    "no-space-after-colon": (
        HEAD + "players:3\n",
        3,
        8,
        "the ':' after the key 'players' has no space after it",
        "write players: 3",
        "キー 'players' の ':' のあとに空白がありません",
    ),
    "full-width-colon": (
        HEAD + "players：3\n",
        3,
        8,
        "the '：' after the key 'players' is full-width",
        "write players: 3",
        "'：' は全角です",
    ),
    "full-width-space-indent": (
        HEAD + "difficulty_targets:\n\u3000\u3000- {name: x, check: agility, target: 8}\n",
        4,
        1,
        "the line starts with full-width spaces",
        "indent with half-width spaces",
        "行頭に全角の空白があります",
    ),
    "list-without-dashes": (
        HEAD + "enemies:\n  id: a\n  name: A\n",
        4,
        3,
        "expected a list of a mapping",
        "the items of a list begin with '- '",
        "リストの項目は '- ' で始めます",
    ),
    "chase-target-as-goal": (
        "system: cutaction\ntitle: t\ndifficulty_targets:\n"
        "  - {name: 追う, check: body, target: 40, kind: chase}\n"
        "enemies:\n  - {id: car, name: 車, body: 5, head: 5, hp: 8, vehicle: 車}\n",
        4,
        37,
        "a chase's target is the movement target and its goal is ten times it: target 40 "
        "makes a goal of 400",
        "for a goal of 40, write target: 4",
        "到着点が 400 になります",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_message_names_the_mistake_and_the_fix(name: str) -> None:
    text, line, column, message, hint, japanese = CASES[name]
    result = validate_text(text, "s.yaml")
    problems = result.problems
    assert problems, name
    first = problems[0]
    assert (first.line, first.column) == (line, column), first.format()
    assert message in first.text("en"), first.format()
    assert hint in (first.hint_text("en") or ""), first.format()
    assert japanese in first.format("ja"), first.format("ja")


def test_every_problem_of_a_file_in_one_run() -> None:
    """A typo in an enemy no longer hides the side mission's and the table's problems."""
    text = (
        HEAD
        + ENEMY.replace("hp: 40", "hp: forty")
        + "  - id: ogre\n    name: 二匹目\n    hp: 1\n"
        + "missions:\n  main: {success: 倒す}\n  side:\n"
        + "    - {success: 逃がさない, check: {defeated: [orge], rounds_at_most: 0}}\n"
        + "chase_tables:\n  - name: x\n    die: 1D6\n    entries:\n"
        + "      1: {title: a}\n      2: {titel: b}\n      4-6: {title: c}\n"
    )
    found = {p.path: p.text("en") for p in validate_text(text, "s.yaml").problems}
    assert "expected an integer" in found["scenario.enemies[0].hp"]
    assert "duplicate id 'ogre'" in found["scenario.enemies[1].id"]
    assert "no enemy has the id 'orge'" in found["scenario.missions.side[0].check.defeated[0]"]
    assert "expected an integer" in found["scenario.missions.side[0].check.rounds_at_most"]
    assert "unknown key 'titel'" in found["scenario.chase_tables[0].entries.2.titel"]
    assert "3 is not covered" in found["scenario.chase_tables[0].entries.4-6"]


def test_an_invalid_enemy_id_keeps_side_checks_quiet() -> None:
    """A partly invalid scenario reports no reference it cannot be sure of."""
    text = (
        HEAD
        + ENEMY.replace("id: ogre", "id: Ogre")
        + "missions:\n  main: {success: 倒す}\n  side:\n"
        + "    - {success: x, check: {defeated: [ogre]}}\n"
    )
    paths = [p.path for p in validate_text(text, "s.yaml").problems]
    assert paths == ["scenario.enemies[0].id"]


@pytest.mark.parametrize("written", ["3〜4", "3~4", "3～4", "3-4", "3 - 4"])
def test_ranges_with_any_separator(written: str) -> None:
    text = (
        HEAD + f"players: {written}\nchase_tables:\n  - name: x\n    die: 1D6\n    entries:\n"
        f"      {written.replace('3', '1').replace('4', '3')}: {{title: a}}\n"
        "      4〜6: {title: b}\n"
    )
    result = validate_text(text, "s.yaml")
    assert result.ok, [p.format() for p in result.problems]
    assert result.scenario is not None and result.scenario.model.players == "3-4"


def test_validate_outside_a_book_says_where_to_run_it(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "saikoro", "validate"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": str(tmp_path)},
    )
    assert done.returncode == 2
    # LANG=C (a CI runner's): Japanese, as every saikoro command speaks by default
    assert "このフォルダにもその上にも mkdocs.yml がありません" in done.stderr
    assert "saikoro validate シナリオ.yaml" in done.stderr
    assert "scenarios:1:1" not in done.stderr + done.stdout


def test_validate_from_inside_a_book_finds_its_scenarios(tmp_path: Path) -> None:
    from saikoro._new import create_book

    create_book(tmp_path / "b", ["kegare"], title="t")
    done = subprocess.run(
        [sys.executable, "-m", "saikoro", "validate"],
        cwd=tmp_path / "b" / "docs",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "1 file(s) checked: 0 error(s), 0 warning(s)" in done.stdout
