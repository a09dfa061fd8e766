"""Repeats are read only at the very start of the input, as BCDice reads them."""

from __future__ import annotations

import pytest

import saikoro


@pytest.mark.parametrize("command", [" x2 1D6", "\tx2 1D6", "  rep2 1D6", " repeat2 2D6>=7"])
def test_a_repeat_after_whitespace_is_not_a_command(command: str) -> None:
    assert saikoro.roll(command, dice=[]) is None
    assert saikoro.odds(command) is None


def test_whitespace_after_the_count_is_any_run() -> None:
    result = saikoro.roll("x2 \t 1D6", dice=[(6, 1), (6, 6)])
    assert result is not None
    assert result.text == "#1\n(1D6) ＞ 1\n\n#2\n(1D6) ＞ 6"


def test_full_width_repeat_at_the_start_still_runs() -> None:
    result = saikoro.roll("ｘ２　１Ｄ６", dice=[(6, 1), (6, 6)])
    assert result is not None
    assert result.text == "#1\n(1D6) ＞ 1\n\n#2\n(1D6) ＞ 6"


def test_repeated_version() -> None:
    result = saikoro.roll("x2 bcdiceversion")
    assert result is not None
    assert result.text == "#1\nBCDice 3.16.1\n\n#2\nBCDice 3.16.1"
