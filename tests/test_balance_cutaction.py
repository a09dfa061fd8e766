"""Cut-action simulator: what it lists as not simulated, and its package's parts agree."""

from __future__ import annotations

import random

from balance_cases import CHASE, CUTACTION, Data, build
from saikoro.balance import simulate
from saikoro.balance.runner import simulator
from saikoro.balance.sim_cutaction.common import RandomDraw
from saikoro.balance.tactics import tactics_for
from saikoro.systems.cutaction.checks import resolve_check


def _effect(d: Data) -> None:
    d["enemies"][1]["attacks"][0]["effect"] = "当たった相手の次の移動判定-1。"


def test_notes_list_the_attack_effects_by_name() -> None:
    enc = build(CUTACTION, _effect)
    sim = simulator("cutaction")
    notes = sim.notes(sim.prepare(enc, tactics_for("cutaction")))
    assert any("手下「棍棒」" in n and "移動判定-1" in n for n in notes), notes
    plain = sim.notes(sim.prepare(build(CUTACTION), tactics_for("cutaction")))
    assert not any("効果は扱わない" in n for n in plain)


def test_an_effect_text_does_not_change_the_figures() -> None:
    """Free text is listed, never guessed at: the same seed gives the same battles."""
    a = simulate(build(CUTACTION), battles=500, seed=4, solve=False)
    b = simulate(build(CUTACTION, _effect), battles=500, seed=4, solve=False)
    assert (a.win, a.rounds) == (b.win, b.rounds)


def test_random_draw_d10_and_checks_are_the_engines() -> None:
    enc = build(CHASE)
    prep = simulator("cutaction").prepare(enc, tactics_for("cutaction"))
    draw = RandomDraw(random.Random(3), prep.shape)
    faces = {draw.d10() for _ in range(2000)}
    assert faces == set(range(1, 11))
    for value in range(-2, 12):
        r = draw.check(value)
        assert r == resolve_check(value, r.roll, dice=prep.dice)
