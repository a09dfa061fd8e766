"""``C(...)``: BCDice's operators only, its floating-point rounding, and huge values.

BCDice 3.16.1 has no power operator: ``C(2^3)`` is not a command. Rounding up
(``/nU``, ``/nC``) and to nearest (``/nR``) divide in floating point as Ruby's
``(a.to_f / b).ceil`` / ``.round`` do, which shows beyond 2^53; plain and ``F``
division stay exact. A value too large to print (products of long literals) is a
``LimitError``, never a ``ValueError`` or ``OverflowError``. The expected texts are
Ruby BCDice's (bcdice-js also rounds the literal itself, see tests/bcdice).
"""

from __future__ import annotations

import contextlib

import pytest

import saikoro
from saikoro.dice import DiceError, LimitError

BIG = 2**53 + 1  # 9007199254740993, not a float


@pytest.mark.parametrize(
    "command", ["C(2^3)", "C(10^5000)", "C(10^309)", "C(9^9^9)", "SC(1+2^2)", "2D6^2"]
)
def test_no_power_operator(command: str) -> None:
    assert saikoro.roll(command) is None
    assert saikoro.odds(command) is None


def test_repeat_of_a_power_is_bcdices_repeat_error() -> None:
    result = saikoro.roll("x2 C(2^3)")
    assert result is not None
    assert result.text == "繰り返し対象のコマンドが実行できませんでした (C(2^3))"


@pytest.mark.parametrize(
    ("command", "value"),
    [
        (f"C({BIG}/1R)", 9007199254740992),
        (f"C({BIG}/1U)", 9007199254740992),
        (f"C({BIG}/1C)", 9007199254740992),
        (f"C(-{BIG}/1R)", -9007199254740992),
        (f"C({BIG}/1)", BIG),
        (f"C({BIG}/1F)", BIG),
        (f"C({BIG}*3/3R)", 9007199254740994),  # float(3 * BIG) / 3.0, rounded
        ("C(7/2R)", 4),
        ("C(-7/2R)", -4),
        ("C(-7/2U)", -3),
        ("C(5/2R)", 3),
        ("C(-5/2)", -3),
    ],
)
def test_rounding_goes_through_floats_like_bcdice(command: str, value: int) -> None:
    result = saikoro.roll(command)
    assert result is not None
    assert result.value == value
    shown = command[1:].replace("U)", "C)")
    assert result.text == f"c{shown} ＞ {value}"


def test_float_rounding_in_sums_and_counts() -> None:
    result = saikoro.roll(f"1D6+{BIG}/1R", dice=[(6, 2)])
    assert result is not None and result.value == 2 + 9007199254740992
    assert saikoro.roll(f"({BIG}/{BIG}U)D6", dice=[(6, 5)]).text == "(1D6) ＞ 5"  # type: ignore[union-attr]


def test_huge_products_are_a_limit_error() -> None:
    factor = "9" * 1000
    command = "C(" + "*".join([factor] * 5) + ")"
    for call in (saikoro.roll, saikoro.odds):
        with pytest.raises(LimitError) as info:
            call(command)
        assert info.value.bound == "value_bits"
    with pytest.raises(LimitError):
        saikoro.roll("1D6+" + "*".join([factor] * 5), dice=[(6, 1)])
    with pytest.raises(LimitError):
        saikoro.roll("(" + "*".join([factor] * 5) + ")D6")


def test_a_float_overflow_is_a_limit_error() -> None:
    command = "C(" + "*".join(["9" * 200] * 2) + "/1R)"  # 400 digits: no float holds it
    with pytest.raises(LimitError) as info:
        saikoro.roll(command)
    assert info.value.bound == "float_range"


def test_large_values_that_fit_still_print() -> None:
    factor = "9" * 1000
    result = saikoro.roll("C(" + "*".join([factor] * 3) + ")")
    assert result is not None
    assert result.text.endswith(str(int(factor) ** 3))


@pytest.mark.parametrize(
    "command",
    [
        "C(10^5000)",
        "C(10^309)",
        "C(" + "*".join(["9" * 1000] * 9) + ")",
        "C(" + "9" * 400 + "/1U)",
        "C(1/" + "9" * 400 + "R)",
        "1D" + "9" * 1000,
        "(" + "9" * 999 + ")U6[6]",
        "2R" + "9" * 999 + "[3]",
        "1D6*" + "9" * 999 + "*" + "9" * 999,
    ],
)
def test_only_dice_errors_escape(command: str) -> None:
    for call in (saikoro.roll, saikoro.odds):
        with contextlib.suppress(DiceError):  # any other exception fails the test
            call(command)
