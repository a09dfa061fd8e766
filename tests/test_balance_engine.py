"""The simulators' fast paths agree with the systems' own functions."""

from __future__ import annotations

import itertools
import random

import pytest

from saikoro.dice import DiceSource
from saikoro.systems._cutaction.checks import resolve_check
from saikoro.systems._getb import GodEaterTableBurst
from saikoro.systems._getb.chain import roll_chain
from saikoro.systems._getb.simulator import _TIE_KEYS, fast_chain
from saikoro.systems._getb.states import Combatant


class _Faces:
    """``random()`` values that give chosen d10 faces (``int(r * 10) + 1``)."""

    def __init__(self, faces: list[int]) -> None:
        self.values = iter((f - 1 + 0.5) / 10 for f in faces)

    def __call__(self) -> float:
        return next(self.values)


def test_fast_chain_matches_roll_chain() -> None:
    rng = random.Random(5)
    for _ in range(3000):
        dice = rng.randint(1, 5)
        faces = [rng.choice([1, 1, 2, 5, 9, 10, 10]) for _ in range(60)]
        modifier = rng.randint(-5, 12)
        mine = fast_chain(_Faces(faces), dice, modifier)
        r = roll_chain(DiceSource(dice=[(10, f) for f in faces[:60]]), dice, modifier)
        assert mine == (r.total, r.critical, r.fumble), (faces, dice, modifier)


@pytest.mark.parametrize("tie", ["max_ap", "pc_first", "enemy_first"])
def test_ap_order_matches_the_system(tie: str) -> None:
    rules = GodEaterTableBurst(ap_tie=tie)
    rng = random.Random(tie)
    for _ in range(300):
        cs = [
            Combatant(f"c{i}", rng.randint(5, 9), 3, ap=rng.randint(0, 4), pc=rng.random() < 0.5)
            for i in range(5)
        ]
        expected = [c.name for c in rules.initiative(cs)]
        ready = [k for k, c in enumerate(cs) if c.ap > 0]
        key = _TIE_KEYS[tie]
        ours = sorted(ready, key=lambda k: (-cs[k].ap, *key(cs[k].max_ap, cs[k].pc), k))
        assert [cs[k].name for k in ours] == expected


@pytest.mark.parametrize("dice", ["1D10", "2D6"])
def test_cut_action_check_matches_resolve_check(dice: str) -> None:
    from balance_cases import CUTACTION, build
    from saikoro.balance._tactics import tactics_for
    from saikoro.systems._cutaction.checks import CheckResult
    from saikoro.systems._cutaction.simulator import SIMULATOR as CUTACTION_SIM
    from saikoro.systems._cutaction.simulator.play import Play

    def with_dice(d: dict) -> None:  # type: ignore[type-arg]
        d["rulings"] = {"check_dice": dice}

    enc = build(CUTACTION, with_dice)
    play = Play(CUTACTION_SIM.prepare(enc, tactics_for("cutaction")))
    for seed, value in itertools.product(range(50), range(-2, 14)):
        mine = play.check(value).sample(random.Random(seed).random)
        assert isinstance(mine, CheckResult)
        assert mine == resolve_check(value, mine.roll, dice=dice)
