"""One YAML reader: validate, simulate, tune and tune --apply read a scenario the same way.

YAML 1.2 core, with positions (``saikoro.scenario.load_yaml``): ``hp: 010`` is 10 in every
command (YAML 1.1 would make it 8), ``0o12`` is 10, ``yes`` and ``1:20`` are text.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from saikoro._simulate import main as simulate_main
from saikoro.scenario import load_scenario, load_yaml, validate_main
from saikoro.tune import Change, apply_changes, tune_main

SCENARIO = """\
system: kegare
id: oni-forest
title: 鬼の棲む森
players: 2
enemies:
  - id: oni
    name: 鬼
    hp: {hp}
    attack: 1
    defence: 2
    initiative: 3
    skills:
      - {{name: 爪, kind: attack, damage: 3}}
missions:
  main:
    success: 鬼を倒す
    rounds: 4
balance:
  win: 10%-20%
"""


def _file(tmp_path: Path, hp: str) -> Path:
    folder = tmp_path / hp
    folder.mkdir()
    path = folder / "forest.yaml"
    path.write_text(SCENARIO.format(hp=hp), "utf-8")
    return path


def _json(main: Any, argv: list[str]) -> Any:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, out, err)
    assert code in (0, 1), err.getvalue()
    return json.loads(out.getvalue())


@pytest.mark.parametrize("written", ["010", "0o12", "+10"])
def test_every_command_reads_the_same_number(tmp_path: Path, written: str) -> None:
    plain, other = _file(tmp_path, "10"), _file(tmp_path, written)
    # the reader itself and validate
    root = load_yaml(other.read_bytes(), "forest.yaml")
    assert root.to_python()["enemies"][0]["hp"] == 10
    result = load_scenario(other)
    assert result.scenario is not None, result.problems
    assert result.scenario.model.enemies[0].hp == 10  # type: ignore[attr-defined]
    out = io.StringIO()
    assert validate_main([str(other), "--format", "json"], out) == 0
    # simulate: the same figures
    argv = ["--battles", "400", "--seed", "3", "--jobs", "1", "--format", "json"]
    assert _json(simulate_main, [str(other), *argv]) == _json(simulate_main, [str(plain), *argv])
    # tune: the number it moves is 10, and it measures what simulate measures
    options = ["--format", "json", "--jobs", "1", "--screen", "250"]
    options += ["--sensitivity-max", "250", "--confirm-max", "250"]
    (tuned,) = _json(tune_main, [str(other), *options])
    (hp,) = [s for s in tuned["sensitivity"] if s["path"] == "scenario.enemies[0].hp"]
    assert hp["value"] == 10 and 10 in hp["compared"]["values"]
    (same,) = _json(tune_main, [str(plain), *options])
    assert tuned["baseline"] == same["baseline"]
    assert tuned["sensitivity"] == same["sensitivity"]
    # apply: the 10 is found where the file writes it, whatever its form
    change = Change("scenario.enemies[0].hp", "鬼 の hp", 10, 12, 8, 9, ("enemies", 0, "hp"))
    apply_changes(other, (change,))
    assert other.read_text("utf-8") == SCENARIO.format(hp="12")


def test_yaml_11_words_are_text_everywhere(tmp_path: Path) -> None:
    """``yes`` is not true, ``1:20`` is not 80: both stay text, so a number field refuses
    them with the same message in every command."""
    path = _file(tmp_path, "1:20")
    result = load_scenario(path)
    assert result.scenario is None
    assert any("1:20" in p.format("en") for p in result.errors)
    err = io.StringIO()
    assert simulate_main([str(path), "--battles", "10"], io.StringIO(), err) == 1
    assert "forest.yaml:8:9" in err.getvalue()
    err = io.StringIO()
    assert tune_main([str(path)], io.StringIO(), err) == 1
    assert "forest.yaml:8:9" in err.getvalue()
