"""GETB simulator: weak elements, bullets, link aid and the effects it does not simulate."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from balance_cases import GETB, GETB_EXCHANGE, Data, build
from saikoro.balance import simulate
from saikoro.balance._budget import Budget
from saikoro.balance._tactics import tactics_for
from saikoro.systems._getb.simulator import SIMULATOR as GETB_SIM
from saikoro.systems._getb.simulator import play
from saikoro.systems._getb.simulator.play import refill
from saikoro.systems._getb.states import Combatant, Cost


def _exact(enc: Any) -> Fraction:
    sim = GETB_SIM
    value, _ = sim.exact(sim.prepare(enc, tactics_for("getb")), Budget())
    assert isinstance(value, Fraction)
    return value


def _weak(*elements: str) -> Any:
    def change(d: Data) -> None:
        d["enemies"][0]["weak"] = list(elements)

    return change


def _rules(**rulings: object) -> Any:
    def change(d: Data) -> None:
        d["rulings"] = dict(rulings)

    return change


def test_refill_is_round_start() -> None:
    for ap in range(9):
        for max_ap in range(9):
            c = Combatant("x", max_ap, max_ap, ap=min(ap, max_ap), st=min(ap, max_ap))
            r = c.round_start()
            assert (refill(c.ap, max_ap), refill(c.st, max_ap)) == (r.ap, r.st)


# -- weak elements (ruling weak_element) ------------------------------------------------


def test_weak_element_adds_a_die_in_the_exact_exchange() -> None:
    plain = _exact(build(GETB_EXCHANGE))
    weak = _exact(build(GETB_EXCHANGE, _weak("physical")))
    other = _exact(build(GETB_EXCHANGE, _weak("fire")))
    assert weak > plain == other

    def weak_off(d: Data) -> None:
        _weak("physical")(d)
        _rules(weak_element="none")(d)

    assert _exact(build(GETB_EXCHANGE, weak_off)) == plain


def test_weak_element_exact_inside_the_simulated_intervals() -> None:
    enc = build(GETB_EXCHANGE, _weak("physical"))
    exact = float(_exact(enc))
    inside = sum(
        r.win_low <= exact <= r.win_high
        for r in (simulate(enc, battles=300, seed=s, solve=False) for s in range(20))
    )
    assert inside >= 16


def _fire_bullet(d: Data) -> None:
    d["party"][1]["bullets"] = [{"name": "火炎弾", "element": "fire", "dice": 1}]
    d["enemies"][0]["weak"] = ["fire"]
    d["missions"]["main"]["rounds"] = 4


def test_weak_element_raises_the_win_rate() -> None:
    on = simulate(build(GETB, _fire_bullet), battles=3000, seed=3, solve=False)

    def off(d: Data) -> None:
        _fire_bullet(d)
        d["rulings"] = {"weak_element": "none"}

    base = simulate(build(GETB, off), battles=3000, seed=3, solve=False)
    assert on.win_low > base.win_high, (on.win, base.win)
    assert any("weak_element: none" in n for n in (m.text for m in base.notes))


# -- bullets ----------------------------------------------------------------------------


def test_bullets_become_shooting_moves() -> None:
    prep = GETB_SIM.prepare(build(GETB, _fire_bullet), tactics_for("getb"))
    pc = prep.units[1]
    gun = [m for m in pc.moves if not m.melee]
    assert [(m.name, m.dice, m.element, m.reach) for m in gun] == [("火炎弾", 2, "fire", (1, 3))]
    assert gun[0].cost == Cost(ap=1, op=1)
    assert gun[0].modifier == 3 + 3  # gun_power + intellect


def test_more_bullet_dice_raise_the_win_rate() -> None:
    def gunners(dice: int) -> Any:
        def change(d: Data) -> None:
            for pc in d["party"]:
                pc["gun_power"] = 3
                pc["op"] = 6
                pc["bullets"] = [{"name": "弾", "dice": dice, "range": "0-3"}]
                pc["power"] = 0
            d["missions"]["main"]["rounds"] = 4

        return change

    weak = simulate(build(GETB, gunners(0)), battles=2000, seed=5, solve=False)
    strong = simulate(build(GETB, gunners(2)), battles=2000, seed=5, solve=False)
    assert strong.win_low > weak.win_high, (weak.win, strong.win)


# -- link aid (ruling link_aid) ---------------------------------------------------------


def _fragile(d: Data) -> None:
    """Two PCs side by side who go down often but rarely together."""
    d["missions"]["main"]["rounds"] = 5
    d["enemies"][0]["hp"] = 90
    for pc in d["party"]:
        pc["hp"] = 22


def test_link_aid_raises_the_win_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    enc = build(GETB, _fragile)
    aided = simulate(enc, battles=3000, seed=11, solve=False)
    assert aided.means.get("link_aid", 0) > 0.2
    monkeypatch.setattr(play, "LINK_AID_COST", Cost(st=99, ap=99))  # nobody can pay: no aid
    alone = simulate(enc, battles=3000, seed=11, solve=False)
    assert "link_aid" not in alone.means
    assert aided.win_low > alone.win_high, (aided.win, alone.win)


def test_link_aid_half_beats_one() -> None:
    def half(d: Data) -> None:
        _fragile(d)
        d["rulings"] = {"link_aid": "half"}

    one = simulate(build(GETB, _fragile), battles=3000, seed=2, solve=False)
    more = simulate(build(GETB, half), battles=3000, seed=2, solve=False)
    assert more.win > one.win


def test_reckless_pcs_give_no_link_aid() -> None:
    from saikoro.balance._tactics import Tactics, parse_policy

    enc = build(GETB, _fragile)
    tactics = Tactics(parse_policy("reckless"), parse_policy("random"))
    r = simulate(enc, battles=500, seed=1, tactics=tactics, solve=False)
    assert "link_aid" not in r.means


# -- what is not simulated --------------------------------------------------------------


def test_notes_list_the_attack_effects() -> None:
    from pathlib import Path

    from saikoro.balance import encounter
    from saikoro.scenario import load_scenario

    sc = load_scenario(Path(__file__).parent.parent / "scenarios" / "getb-kaigan.yaml").scenario
    assert sc is not None
    enc = encounter(sc)
    sim = GETB_SIM
    notes = [n.text for n in sim.notes(sim.prepare(enc, tactics_for("getb")))]
    assert any("灼熱の咆哮" in n and "ガード判定" in n for n in notes), notes
