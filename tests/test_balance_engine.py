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


@pytest.mark.parametrize("dice", ["1D10", "2D6"])
@pytest.mark.parametrize("order", ["closest_first", "lowest_first"])
def test_cut_action_initiative_roll_is_every_check_ranked(dice: str, order: str) -> None:
    """A cut's initiative, rolled as one acting order, has the odds of every fighter's own
    check ranked by :func:`initiative_order` (fumbles left out, PCs first on ties)."""
    from fractions import Fraction

    from balance_cases import CUTACTION, build
    from saikoro.balance import tactics_for
    from saikoro.systems._cutaction.checks import InitiativeEntry, check_results, initiative_order
    from saikoro.systems._cutaction.simulator import SIMULATOR as CUTACTION_SIM

    def options(d: dict) -> None:  # type: ignore[type-arg]
        d["rulings"] = {"check_dice": dice, "failed_initiative_order": order}
        d["party"][1]["body"] = d["enemies"][1]["body"]  # a PC and an enemy tie often

    prep = CUTACTION_SIM.prepare(build(CUTACTION, options), tactics_for("cutaction"))
    fighters = tuple(range(len(prep.chars)))
    expected: dict[tuple[int, ...], Fraction] = {}
    checks = [check_results(prep.chars[f].body, dice=dice) for f in fighters]
    for results in itertools.product(*checks):
        entries = [
            InitiativeEntry(str(f), r.achievement, r.fumble, prep.chars[f].pc)
            for f, (r, _) in zip(fighters, results, strict=True)
        ]
        ranked = tuple(int(e.name) for e in initiative_order(entries, failed_order=order))
        p = Fraction(1)
        for _, q in results:
            p *= q
        expected[ranked] = expected.get(ranked, Fraction(0)) + p
    rolls = CUTACTION_SIM.rules(prep).rolls
    assert rolls.initiative(fighters).probabilities() == expected
