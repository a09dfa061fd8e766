"""Negative dice counts: a clear ``DiceError`` where BCDice fails, BCDice's text elsewhere.

BCDice 3.16.1 raises (Ruby's "negative array size") for a negative number of
exploding dice or of D66 values; saikoro refuses those with a message naming the
count. Where BCDice answers (``B``, ``R``, plain sums), saikoro prints the same.
"""

from __future__ import annotations

import pytest

import saikoro
from saikoro.dice import DiceError, ParseError


@pytest.mark.parametrize(
    "command", ["(0-1)U6[6]", "2U6+(0-1)U6[6]", "(0-3)U10[10]>=5", "(0-1)D66", "(1-3)D66+3"]
)
def test_refused_with_a_clear_message(command: str) -> None:
    for call in (saikoro.roll, saikoro.odds):
        with pytest.raises(ParseError) as info:
            call(command)
        assert "ダイスの個数が負です" in str(info.value)


def test_the_repeat_is_refused_too() -> None:
    with pytest.raises(DiceError):
        saikoro.roll("x2 (0-1)U6[6]", dice=[])


@pytest.mark.parametrize(
    ("command", "text"),
    [
        ("(0-1)U6[1]", "(-1U6[1]) ＞ 無限ロールの条件がまちがっています"),
        ("(0-1)B6", "(-1B6) ＞ "),
        ("(0-1)R6>=3", "(-1R6[3]>=3) ＞  ＞ 成功数0"),
        ("(0-1)D6", "(-1D6) ＞ 0"),
    ],
)
def test_bcdice_answers_these(command: str, text: str) -> None:
    result = saikoro.roll(command, dice=[])
    assert result is not None
    assert result.text == text


def test_a_negative_tally_is_no_command() -> None:
    assert saikoro.roll("(0-1)TY6") is None
