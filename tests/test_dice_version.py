"""``BCDiceVersion`` prints the BCDice version saikoro follows, as BCDice prints its own."""

from __future__ import annotations

import pytest

import saikoro


@pytest.mark.parametrize(
    "command", ["BCDiceVersion", "bcdiceversion", "BCDICEVERSION コメント", " BCDiceVersion"]
)
def test_version_in_any_case(command: str) -> None:
    result = saikoro.roll(command)
    assert result is not None
    assert result.text == "BCDice 3.16.1"
    assert not result.secret
    assert not result.dice


@pytest.mark.parametrize("command", ["SBCDiceVersion", "BCDiceVersion2", "BCDiceVersio"])
def test_not_the_version_command(command: str) -> None:
    assert saikoro.roll(command) is None


def test_inside_repeats() -> None:
    result = saikoro.roll("rep3 BCDiceVersion")
    assert result is not None
    assert result.text == "\n\n".join(f"#{i}\nBCDice 3.16.1" for i in (1, 2, 3))
    assert saikoro.roll("x2 SBCDiceVersion").text == (  # type: ignore[union-attr]
        "繰り返し対象のコマンドが実行できませんでした (SBCDiceVersion)"
    )


def test_the_version_is_the_one_checked_by_the_differential_test() -> None:
    from saikoro.dice._api import BCDICE_VERSION

    assert BCDICE_VERSION == "3.16.1"
    assert saikoro.odds("BCDiceVersion") is None  # nothing random to compute
