"""The simulators' fast paths agree with the systems' own functions."""

from __future__ import annotations

import itertools
import random

import pytest

from saikoro.systems._cutaction.checks import resolve_check


@pytest.mark.parametrize("dice", ["1D10", "2D6"])
def test_cut_action_check_matches_resolve_check(dice: str) -> None:
    from balance_cases import CUTACTION, build
    from saikoro.balance import tactics_for
    from saikoro.systems._cutaction.simulator import SIMULATOR as CUTACTION_SIM

    def with_dice(d: dict) -> None:  # type: ignore[type-arg]
        d["rulings"] = {"check_dice": dice}

    enc = build(CUTACTION, with_dice)
    rolls = CUTACTION_SIM.rules(CUTACTION_SIM.prepare(enc, tactics_for("cutaction"))).rolls
    for seed, value in itertools.product(range(50), range(-2, 14)):
        roll = rolls.check.draw(random.Random(seed).random())
        assert rolls.result(value, roll) == resolve_check(value, roll, dice=dice)
