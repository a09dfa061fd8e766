"""Property tests: any text parses, is not a command, or raises the engine's error type."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import saikoro
from saikoro.dice import DiceError, Odds, Roll

ALPHABET = "0123456789dDbBrRuUkKhHlLmMaAxXiInNcCsStTyYzZ+-*/()[]<>=!?@^, ｄ６ー［］"
commandish = st.text(alphabet=ALPHABET, max_size=16)
structured = st.builds(
    "{}{}{}{}".format,
    st.sampled_from(["", "S", "x2 "]),
    st.integers(0, 12).map(str),
    st.sampled_from(["D", "B", "R", "U", "TY", "TZ", "D66", "DKH", "DMAX"]),
    st.sampled_from(["", "6", "10", "6>=4", "4[4]", "6+1", "3/2U", "6KH2", "6>=?", "6[>=5]>3"]),
)


def _check_odds(found: Odds | None) -> None:
    if found is None:
        return
    total = sum(found.distribution.values(), Fraction(0))
    assert total + found.truncated == 1
    assert 0 <= found.truncated <= Fraction(1, 10**12)
    if found.success is not None:
        assert 0 <= found.success <= 1


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(commandish, structured))
def test_any_text_rolls_or_raises_dice_error(text: str) -> None:
    try:
        result = saikoro.roll(text, rng=random.Random(0))
    except DiceError:
        pass
    else:
        assert result is None or isinstance(result, Roll)
        if result is not None:
            again = saikoro.roll(text, dice=result.dice)
            assert again is not None and again.text == result.text
    try:
        found = saikoro.odds(text)
    except DiceError:
        return
    _check_odds(found)
