"""Exploding dice with no sides (or more than ``MAX_SIDES``) draw nothing and show 0.

BCDice prints every such die as 0 without drawing a random number, so they do not
count towards the dice bound (only a bound on printed values, far above it).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

import saikoro
from saikoro.dice import LimitError


def test_ten_thousand_and_one_blank_dice_print_zeros() -> None:
    result = saikoro.roll("10001U0[10]", dice=[])
    assert result is not None
    assert result.text == f"(10001U0[10]) ＞ {','.join(['0'] * 10001)} ＞ 0/0(最大/合計)"
    assert result.dice == ()


def test_blank_dice_beside_real_ones() -> None:
    result = saikoro.roll("1U6+2U0[6]", dice=[(6, 6), (6, 2)])
    assert result is not None
    assert result.text == "(1U6+2U0[6]) ＞ 8[6,2],0,0 ＞ 8/8(最大/合計)"
    over = saikoro.roll("3U10001[10]>=0", dice=[])
    assert over is not None and over.text == "(3U10001[10]>=0) ＞ 0,0,0 ＞ 成功数3"


def test_odds_of_blank_dice() -> None:
    assert saikoro.odds("10001U0[10]").distribution == {0: Fraction(1)}  # type: ignore[union-attr]
    assert saikoro.odds("500U0[10]+3>=3").distribution == {500: Fraction(1)}  # type: ignore[union-attr]
    counted = saikoro.odds("1U6+4U0[7]>=4")
    assert counted is not None
    assert counted.distribution == {0: Fraction(1, 2), 1: Fraction(1, 2)}


def test_printed_values_are_still_bounded() -> None:
    with pytest.raises(LimitError) as info:
        saikoro.roll("100001U0[10]", dice=[])
    assert info.value.bound == "listed_values"
