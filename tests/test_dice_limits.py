"""Bounds: over-large commands raise LimitError at once, in ``roll`` and in ``odds``."""

from __future__ import annotations

import pytest

import saikoro
from saikoro.dice import LimitError

ROLLS = [
    "10001D6",
    "5001D66",
    "1" * 1200 + "D6",
    "C(" + "*".join(["9" * 1000] * 5) + ")",
    "x100 X100 X100 C(1)",
    "10001B6",
    "10001U6[6]",
    "2R1[=1]",
    "100D6+100D6+100D6" + "+100D6" * 100,
]
ODDS = [
    "10001D6",
    "201D66",
    "200D10000",
    "150D1000KH75",
    "1U100[2]",
    "1R100[>=2]>=100",
    "2U10[2]",
    "200TY20",
    "choice5[1-90]",
    "1D10000*1D10000",
    "1D6*1000000",
]


@pytest.mark.parametrize("command", ROLLS)
def test_roll_limits(command: str) -> None:
    with pytest.raises(LimitError) as info:
        saikoro.roll(command)
    assert info.value.bound


@pytest.mark.parametrize("command", ODDS)
def test_odds_limits(command: str) -> None:
    with pytest.raises(LimitError) as info:
        saikoro.odds(command)
    assert info.value.bound


def test_bounds_leave_room_for_play() -> None:
    for command in ["200D6", "50D20", "20D10KH10", "10U10[10]", "20R10>=8", "choice3[1-20]"]:
        assert saikoro.odds(command) is not None
        assert saikoro.roll(command) is not None
