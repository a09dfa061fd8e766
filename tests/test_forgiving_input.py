"""Forgiving, visible input: what an author writes in Japanese is read, or the message names
what to write; what an effect text is simulated as is shown, in validate, its JSON, the
simulation's notes and the page.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from saikoro.balance import encounter, simulate
from saikoro.scenario import validate_main, validate_text

KEGARE = """\
system: kegare
title: 大蛇
players: 2
enemies:
  - id: orochi
    name: 大蛇
    hp: 12
    attack: 1
    defence: 1
    initiative: 2
    position: {position}
    immune: [{immune}]
    skills:
      - {{name: 牙, kind: {kind}, damage: 2, target: 単体, effect: {effect}}}
      - {{name: 鱗, kind: 常駐, effect: 受けるダメージ-1}}
"""


def _kegare(
    position: str = "遠距離", immune: str = "毒", kind: str = "攻撃", effect: str = "猛毒にする"
) -> str:
    return KEGARE.format(position=position, immune=immune, kind=kind, effect=effect)


def _problems(text: str, lang: str = "ja") -> list[str]:
    return [p.format(lang) for p in validate_text(text, "s.yaml").problems]


def test_the_japanese_labels_the_schema_documents_are_read_as_their_values() -> None:
    result = validate_text(_kegare(), "s.yaml")
    assert result.ok, _problems(_kegare())
    assert result.scenario is not None
    enemy = result.scenario.model.enemies[0]
    assert enemy.position == "far" and enemy.immune == ("poison",)  # type: ignore[attr-defined]
    fang, scales = enemy.skills  # type: ignore[attr-defined]
    assert (fang.kind, fang.target, scales.kind) == ("attack", "single", "passive")
    cut = (Path(__file__).parents[1] / "scenarios" / "cutaction-sokou.yaml").read_text("utf-8")
    front = validate_text(cut.replace("area: front", "area: 前線"), "c.yaml")
    assert front.ok and front.scenario is not None
    assert "front" in {e.area for e in front.scenario.model.enemies}  # type: ignore[attr-defined]


def test_a_near_label_names_the_value_to_write() -> None:
    (problem,) = _problems(_kegare(immune="猛毒"))
    assert "s.yaml:12:14" in problem and "'poison'" in problem


@pytest.mark.parametrize(
    ("old", "new", "fix"),
    [
        ("    hp: 12\n", "    hp: １２\n", "12"),
        ("players: 2\n", "players: ２〜３\n", "2〜3"),
        ("players: 2\n", "players: 2\nbalance:\n  win: ６０％〜９０％\n", "60%〜90%"),
    ],
)
def test_full_width_digits_get_the_half_width_text_as_a_hint(old: str, new: str, fix: str) -> None:
    text = _kegare().replace(old, new)
    (problem,) = _problems(text)
    assert f"半角で {fix} と書いてください" in problem, problem


def test_a_full_width_table_key_gets_the_hint_too() -> None:
    text = _kegare() + (
        "chase_tables:\n  - name: 表\n    die: 1D6\n    entries:\n"
        "      1-3: {title: a}\n      ４〜６: {title: b}\n"
    )
    (problem,) = _problems(text)
    assert "半角で 4〜6 と書いてください" in problem


def test_validate_shows_what_each_effect_is_simulated_as(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(_kegare(), "utf-8")
    out = io.StringIO()
    assert validate_main([str(path), "--lang", "ja"], out) == 0
    lines = out.getvalue().splitlines()
    assert any(
        ":14:" in line and "note:" in line and "'猛毒にする'" in line and "毒 LV1" in line
        for line in lines
    ), lines
    assert any(":15:" in line and "受けるダメージ-1" in line for line in lines), lines
    assert lines[-1].endswith("エラー 0 件、警告 0 件")  # notes are not problems
    strict = io.StringIO()
    assert validate_main([str(path), "--strict", "-q"], strict) == 0
    assert strict.getvalue() == ""
    out = io.StringIO()
    validate_main([str(path), "--format", "json"], out)
    data = json.loads(out.getvalue())
    assert data["warnings"] == 0
    notes = {n["line"]: n for n in data["notes"]}
    assert notes[14]["severity"] == "note" and notes[14]["code"] == "kegare.effect_read"


def test_a_state_the_rules_do_not_have_is_a_warning_at_its_line() -> None:
    result = validate_text(_kegare(effect="命中した相手を石化させる"), "s.yaml")
    (warning,) = result.warnings
    assert (warning.line, warning.path) == (14, "scenario.enemies[0].skills[0].effect")
    assert "「石化」" in warning.text("ja") and "麻痺" in (warning.hint_text("ja") or "")


def test_the_simulation_notes_say_what_was_read() -> None:
    sc = validate_text(_kegare(), "s.yaml").scenario
    assert sc is not None
    r = simulate(encounter(sc), battles=50, seed=1)
    (read,) = [n.text for n in r.notes if n.key == "read"]
    assert "牙（大蛇）→毒 LV1" in read and "鱗（大蛇）→受けるダメージ-1" in read
    assert any(n["key"] == "read" for n in r.to_json()["notes"])


def test_the_page_shows_what_each_effect_is_read_as() -> None:
    from saikoro.site._oddscache import OddsCache
    from saikoro.site._pages.scenario import enemy_html

    sc = validate_text(_kegare(effect="<b>猛毒</b>にする"), "s.yaml").scenario
    assert sc is not None
    html = enemy_html(OddsCache(), sc, sc.model.enemies[0], "zips/", roller=False)
    assert "シミュレーションでの読み：毒 LV1" in html
    assert "シミュレーションでの読み：受けるダメージ-1" in html


def test_the_schema_says_the_effect_is_read() -> None:
    from saikoro.scenario import json_schema

    skills = json_schema("kegare")["properties"]["enemies"]["items"]["properties"]["skills"]
    effect = skills["items"]["properties"]["effect"]
    assert "シミュレーションが読む" in effect["description"] and "毒(LV2)" in effect["description"]
