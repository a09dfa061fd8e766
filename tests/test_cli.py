"""The ``saikoro`` command line: exit codes, roll/odds output, usage errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction

import pytest

from saikoro._cli import main, parse_dice, parse_rule


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_roll_with_given_dice(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "roll", "2D6>=7", "--dice", "6:3,6:4")
    assert code == 0
    assert out.strip() == "(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功"


def test_roll_seed_is_replayable(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, "roll", "10D6", "--seed", "42")
    second = run(capsys, "roll", "10D6", "--seed", "42")
    assert first == second
    assert first[0] == 0


def test_roll_json_lists_dice(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "roll", "2D6", "--dice", "6:5,6:3", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["dice"] == [[6, 5], [6, 3]]
    assert data["text"] == "(2D6) ＞ 8[5,3] ＞ 8"


def test_not_a_command_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "roll", "こんにちは")
    assert code == 1
    assert out == ""
    assert "コマンド" in err


def test_dice_mismatch_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "roll", "1D6", "--dice", "10:3")
    assert code == 1
    assert "10面" in err


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "roll")[0] == 2
    assert run(capsys, "roll", "1D6", "--dice", "six")[0] == 2
    assert run(capsys, "roll", "1D6", "--system", "no-such-system")[0] == 2
    assert run(capsys, "frobnicate")[0] == 2
    assert run(capsys)[0] == 2


def test_odds_json_is_exact(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "2D6>=7", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["success"] == "7/12"
    assert data["distribution"]["7"] == "1/6"
    assert sum(Fraction(p) for p in data["distribution"].values()) == 1
    assert data["truncated"] == "0/1"


def test_odds_text_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "2D6")
    assert code == 0
    row = next(line for line in out.splitlines() if line.split()[:1] == ["7"])
    assert "16.6667%" in row
    assert "#" in row


def test_module_entry_point() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "saikoro", "roll", "1D6", "--dice", "6:4"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0
    assert proc.stdout.strip() == "(1D6) ＞ 4"


def test_parsers() -> None:
    assert parse_dice("6:1") == [(6, 1)]
    assert parse_rule("x=true") == ("x", True)


@pytest.mark.parametrize(
    ("argv", "text"),
    [
        (["roll", "-1D6", "--dice", "6:4"], "(-1D6) ＞ -4[4] ＞ -4"),
        (["roll", "--dice", "6:4", "-1D6"], "(-1D6) ＞ -4[4] ＞ -4"),
        (["roll", "--dice=6:4", "-1D6+1", "攻撃"], "(-1D6+1) ＞ -4[4]+1 ＞ -3"),
        (["roll", "--dice", "6:4", "--", "-1D6"], "(-1D6) ＞ -4[4] ＞ -4"),
    ],
)
def test_commands_may_start_with_a_minus(
    capsys: pytest.CaptureFixture[str], argv: list[str], text: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out.strip(), err) == (0, text, "")


def test_odds_of_a_command_starting_with_a_minus(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "-2D6+14", "--format", "json")
    assert code == 0
    assert json.loads(out)["command"] == "-2D6+14"


def test_pdf_usage() -> None:
    """``saikoro pdf`` without its two arguments prints its usage and exits 2."""
    assert main(["pdf"]) == 2
    assert main(["pdf", "--help"]) == 0


PIPED = [
    ["odds", "KGA7VS5D8", "--system", "kegare"],
    ["odds", "2D6"],
    ["odds", "2D6", "--format", "json"],
    ["roll", "x100 2D6"],
    ["roll", "2D6", "--format", "json"],
    ["validate", "scenarios"],
    ["validate", "--format", "json", "scenarios"],
    ["validate", "--format", "github", "scenarios"],
    ["schema"],
    ["simulate", "--battles", "20", "--jobs", "1", "scenarios/getb-haito.yaml"],
    ["simulate", "--battles", "20", "--jobs", "1", "--format", "json", "scenarios/getb-haito.yaml"],
    ["--help"],
    ["new", "--help"],
]


@pytest.mark.parametrize("argv", PIPED, ids=lambda a: " ".join(a[:2]))
def test_a_closed_pipe_ends_any_command_quietly(argv: list[str]) -> None:
    """``saikoro ... | head``: the reader is gone before the first write."""
    from pathlib import Path

    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "saikoro", *argv],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
            cwd=Path(__file__).resolve().parents[1],
        )
    finally:
        os.close(write)
    assert "Traceback" not in done.stderr and "Exception" not in done.stderr, done.stderr
    assert done.stderr == "", done.stderr
    assert done.returncode in (0, 141), done.returncode
