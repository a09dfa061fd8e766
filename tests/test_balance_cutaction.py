"""Cut-action simulator: what it lists as not simulated, and its package's parts agree."""

from __future__ import annotations

import random
from typing import Any

import pytest

from balance_cases import CHASE, CUTACTION, Data, build
from saikoro.balance import simulate
from saikoro.balance._tactics import tactics_for
from saikoro.systems._cutaction.checks import resolve_check
from saikoro.systems._cutaction.simulator import SIMULATOR as CUTACTION_SIM
from saikoro.systems._cutaction.simulator.common import RandomDraw


def _effect(d: Data) -> None:
    d["enemies"][1]["attacks"][0]["effect"] = "当たった相手の次の移動判定-1。"


def test_notes_list_the_attack_effects_by_name() -> None:
    enc = build(CUTACTION, _effect)
    sim = CUTACTION_SIM
    notes = [n.text for n in sim.notes(sim.prepare(enc, tactics_for("cutaction")))]
    assert any("手下「棍棒」" in n and "移動判定-1" in n for n in notes), notes
    plain = [n.text for n in sim.notes(sim.prepare(build(CUTACTION), tactics_for("cutaction")))]
    assert not any("効果は扱わない" in n for n in plain)


def test_an_effect_text_does_not_change_the_figures() -> None:
    """Free text is listed, never guessed at: the same seed gives the same battles."""
    a = simulate(build(CUTACTION), battles=500, seed=4, solve=False)
    b = simulate(build(CUTACTION, _effect), battles=500, seed=4, solve=False)
    assert (a.win, a.rounds) == (b.win, b.rounds)


def test_random_draw_d10_and_checks_are_the_engines() -> None:
    enc = build(CHASE)
    prep = CUTACTION_SIM.prepare(enc, tactics_for("cutaction"))
    draw = RandomDraw(random.Random(3), prep.shape)
    faces = {draw.d10() for _ in range(2000)}
    assert faces == set(range(1, 11))
    for value in range(-2, 12):
        r = draw.check(value)
        assert r == resolve_check(value, r.roll, dice=prep.dice)


# -- chase actions ----------------------------------------------------------------------


def _runners(bodies: list[int], car: int, target: int) -> Any:
    def change(d: Data) -> None:
        d["party"] = [
            {"name": f"PC{i}", "body": b, "head": 5, "hp": 12} for i, b in enumerate(bodies)
        ]
        d["players"] = len(bodies)
        d["enemies"][0]["body"] = car
        d["difficulty_targets"][0]["target"] = target

    return change


def _nothing(_chase: object, _idle: object) -> list[str]:
    return []


def test_acceleration_helps_the_faster_side(monkeypatch: pytest.MonkeyPatch) -> None:
    from saikoro.systems._cutaction.simulator import chase

    enc = build(CHASE, _runners([8], 6, 2))
    fast = simulate(enc, battles=20000, seed=1, solve=False)
    monkeypatch.setattr(chase, "accelerators", _nothing)
    slow = simulate(enc, battles=20000, seed=1, solve=False)
    assert fast.win_low > slow.win_high, (fast.win, slow.win)


def test_who_obstructs_whom() -> None:
    from saikoro.systems._cutaction.chase import Chase
    from saikoro.systems._cutaction.simulator.chase import accelerators, obstructions

    c = Chase.start([("A", "逃走", 9), ("B", "追跡", 7), ("C", "逃走", 6), ("D", "追跡", 7)])
    # the leader A changes the route; B and D push C (the runner behind them); C has nobody
    assert obstructions(c, frozenset(), "A") == [("B", "C"), ("D", "C")]
    assert obstructions(c, frozenset({"B"}), "A") == [("D", "C")]
    # B led after the movement checks and changed the route; A, ahead after accelerating,
    # obstructs B (of the nearest runners behind it, the first in order)
    assert obstructions(c, frozenset(), "B") == [("A", "B"), ("D", "C")]
    assert accelerators(c, frozenset({"C"})) == ["A", "B", "D"]
    narrow = c.apply_event(1).chase  # 小道: nobody moves
    assert accelerators(narrow, frozenset()) == []
