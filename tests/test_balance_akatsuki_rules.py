"""暁ノ大地 rules in the simulator: each check is the ``AK`` command's, before-roll boosts (ruling
card_points), cards earned by the checker and its supporters, cards spent after the roll,
the ends (which check failed first), the budget and the notes.

Single checks are solved by hand over the 36 rolls (Fractions); the simulator's exact
chain must agree, and the simulated figures must fall inside their 95 % intervals.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import pytest

from balance_cases import AKATSUKI, build, documented_notes
from saikoro.balance import Budget, Condition, OutOfBudget, simulate, tactics_for
from saikoro.balance._runner import run_chunk
from saikoro.balance._stats import Z95
from saikoro.systems import get as get_system
from saikoro.systems._akatsuki.commands import format_check
from saikoro.systems._akatsuki.simulator import SIMULATOR as AKATSUKI_SIM
from saikoro.systems._akatsuki.simulator import with_cards

Data = dict[str, Any]


def _one_check(level: int, difficulty: int, cards: int, points: int, **target: Any) -> Data:
    return {
        "system": "akatsuki",
        "title": "一つの難所",
        "players": 1,
        "party": [{"name": "甲", "abilities": {"体躯": level}, "cards": cards}],
        "difficulty_targets": [
            {"name": "崖", "ability": "体躯", "difficulty": difficulty, **target},
        ],
        "rulings": {"card_points": points},
    }


def _exact(data: Data, tactic: str = "focus") -> Fraction:
    enc = build(data)
    sim = AKATSUKI_SIM
    value, _ = sim.exact(sim.prepare(enc, tactics_for("akatsuki", tactic)), Budget())
    assert isinstance(value, Fraction)
    return value


def _at_most(n: int) -> Fraction:
    return Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= n), 36)


def test_before_roll_boost_lifts_an_automatic_failure() -> None:
    """Level 1 (target below 2) fails unrolled; one card before the roll makes it 2D6 <= 2."""
    data = _one_check(1, 0, 1, 1)
    assert _exact(data) == _at_most(2)
    assert _exact(data, "frugal") == 0


def test_before_roll_boost_with_heavier_cards() -> None:
    """Level 1 with two 3-point cards: both go before the roll (target 7: 2D6 <= 7)."""
    data = _one_check(1, 0, 2, 3)
    exact = _exact(data)
    assert exact == _at_most(7) == Fraction(7, 12)
    enc = build(data)
    inside = 0
    for seed in range(20):
        r = simulate(enc, battles=300, seed=seed, solve=False)
        inside += r.win_low <= float(exact) <= r.win_high
    assert inside >= 16, f"exact {float(exact):.4f} inside only {inside}/20 intervals"


def test_card_points_raise_the_sequence_win_rate() -> None:
    def points(n: int) -> Any:
        def change(d: Data) -> None:
            d["rulings"] = {"card_points": n}
            for pc in d["party"]:
                pc["cards"] = 2

        return change

    light, heavy = copy.deepcopy(AKATSUKI), copy.deepcopy(AKATSUKI)
    points(1)(light)
    points(3)(heavy)
    assert _exact(heavy) > _exact(light)


def test_cards_earned_by_checker_and_supporter() -> None:
    """A specialty check with one supporter: each doublet within the target earns a card
    for both, so E(cards gained) = 2 x P(doublet <= target)."""
    data = {
        "system": "akatsuki",
        "title": "補佐",
        "players": 2,
        "party": [
            {"name": "甲", "abilities": {"知性": 6}, "specialties": ["観察"], "cards": 0},
            {"name": "乙", "abilities": {"知性": 5}, "cards": 0},
        ],
        "difficulty_targets": [{"name": "謎", "ability": "知性", "style": "観察"}],
    }
    enc = build(data)
    sim = AKATSUKI_SIM
    prep = sim.prepare(enc, tactics_for("akatsuki"))
    assert prep.plans[0].checker == 0 and prep.plans[0].supporters == (1,)
    target = 6 + 1  # the supporter's +1
    p_alpha = Fraction(sum(1 for a in range(1, 7) if 2 * a <= target), 36)
    expected = 2 * p_alpha
    tactics = tactics_for("akatsuki")
    n = 6000
    tally = run_chunk((enc, tactics, 3, 0, n))
    mean = tally.sums["cards_gained"] / n
    # per battle the gain is 0 or 2: sd = 2 sqrt(p (1 - p))
    sd = 2 * (float(p_alpha) * (1 - float(p_alpha))) ** 0.5 / n**0.5
    assert abs(mean - float(expected)) < Z95 * 1.5 * sd, (mean, float(expected))


def test_cards_spent_after_the_roll_as_needed() -> None:
    """Level 6, two cards, no specialty: a roll of 7 or 8 spends 1 or 2 cards after it."""
    data = _one_check(6, 0, 2, 1)
    enc = build(data)
    spent = Fraction(0)
    for a in range(1, 7):
        for b in range(1, 7):
            over = a + b - 6
            spent += Fraction(over if 0 < over <= 2 else 0, 36)
    assert _exact(data) == _at_most(8)
    n = 6000
    tally = run_chunk((enc, tactics_for("akatsuki"), 5, 0, n))
    mean = tally.sums["cards_spent"] / n
    var = sum(
        (Fraction(over if 0 < over <= 2 else 0) - spent) ** 2 / 36
        for over in (a + b - 6 for a in range(1, 7) for b in range(1, 7))
    )
    assert abs(mean - float(spent)) < Z95 * 1.5 * (float(var) / n) ** 0.5


def test_notes_name_opposed_checks_and_card_points() -> None:
    sim = AKATSUKI_SIM
    prep = sim.prepare(build(_one_check(6, 0, 1, 2)), tactics_for("akatsuki"))
    text = " ".join(n.text for n in sim.notes(prep))
    assert "対抗判定" in text and "2ポイント" in text


# -- one check against the engine's command, ends, budget ---------------------------------


def _odds(command: str, **options: Any) -> Any:
    odds = get_system("akatsuki", **options).odds_command(command)
    assert odds is not None, command
    return odds


def test_one_check_is_the_ak_command() -> None:
    """A specialty check with an expert supporter and NPC help: the plan's check is
    ``AK6ZD-1P1H2+1``; the exact series of one check is the command's P(success)."""
    data = {
        "system": "akatsuki",
        "title": "一つの判定",
        "players": 2,
        "party": [
            {"name": "甲", "abilities": {"知性": 6}, "specialties": ["観察"], "cards": 0},
            {"name": "乙", "abilities": {"知性": 3}, "specialties": ["観察"], "cards": 0},
        ],
        "difficulty_targets": [
            {
                "name": "謎",
                "ability": "知性",
                "style": "観察",
                "difficulty": -1,
                "preparation": 1,
                "support": 1,
            }
        ],
    }
    enc = build(data)
    prep = AKATSUKI_SIM.prepare(enc, tactics_for("akatsuki"))
    (plan,) = prep.plans
    command = format_check(plan.spec)
    assert command == "AK6ZD-1P1H2+1" and plan.supporters == (1,)
    value, _ = AKATSUKI_SIM.exact(prep, Budget())
    assert value == _odds(command).success
    r = simulate(enc, battles=20000, seed=4, solve=False)
    assert r.win_low <= float(value) <= r.win_high


def test_cards_spent_play_the_ak_command_with_boosts() -> None:
    """Level 6, two cards: the check played is ``AK6U2`` (up to two cards after the roll)."""
    data = _one_check(6, 0, 2, 1)
    prep = AKATSUKI_SIM.prepare(build(data), tactics_for("akatsuki"))
    spec, before = with_cards(prep.plans[0].spec, 2, 1, prep.rules)
    assert (format_check(spec), before) == ("AK6U2", 0)
    assert _exact(data) == _odds("AK6U2").success


def test_ends_name_the_first_failed_check() -> None:
    enc = build(AKATSUKI)
    prep = AKATSUKI_SIM.prepare(enc, tactics_for("akatsuki"))
    ends = AKATSUKI_SIM.ends_for(prep)
    assert list(ends) == ["win", "failed:0", "failed:1", "failed:2"]
    assert "「謎」で失敗" in ends["failed:1"].label
    value, figures = AKATSUKI_SIM.exact(prep, Budget())
    exact = AKATSUKI_SIM.exact_ends(prep, Budget())
    assert list(exact) == list(ends) and exact["win"] == value and sum(exact.values()) == 1
    fails = {k: p for k, p in exact.items() if k != "win"}
    reached = Fraction(1)
    for i, plan in enumerate(prep.plans):  # the conditional figures follow from the ends
        assert (
            figures[f"P({plan.name} | 前の判定がすべて成功)"] == 1 - fails[f"failed:{i}"] / reached
        )
        reached -= fails[f"failed:{i}"]
    tally = run_chunk((enc, tactics_for("akatsuki"), 2, 0, 6000))
    assert set(tally.ends) <= set(ends) and sum(tally.ends.values()) == 6000
    for key, p in fails.items():
        assert Fraction(1, 50) < p, key
        assert abs(tally.ends[key] / 6000 - float(p)) < 4 * (float(p * (1 - p)) / 6000) ** 0.5
    r = simulate(enc, battles=300, seed=1)
    assert [e.key for e in r.ends] == list(ends)


def test_exact_and_side_exact_charge_the_budget() -> None:
    enc = build(AKATSUKI)
    prep = AKATSUKI_SIM.prepare(enc, tactics_for("akatsuki"))
    budget = Budget()
    AKATSUKI_SIM.exact(prep, budget)
    assert budget.used > 0
    with pytest.raises(OutOfBudget):
        AKATSUKI_SIM.exact(prep, Budget(budget.used - 1))
    with pytest.raises(OutOfBudget):
        AKATSUKI_SIM.side_exact(prep, Condition(targets_at_least=2), Budget(budget.used - 1))


def test_the_round_limit_is_not_used_and_says_so() -> None:
    data = copy.deepcopy(AKATSUKI)
    data["missions"] = {"main": {"success": "越える", "rounds": 8}}
    enc = build(data)
    assert AKATSUKI_SIM.round_limit(enc) == (None, False)
    prep = AKATSUKI_SIM.prepare(enc, tactics_for("akatsuki"))
    assert any(n.key == "rounds" and "8" in n.text for n in AKATSUKI_SIM.notes(prep))
    data["enemies"] = [{"id": "g", "name": "門番", "abilities": {"体躯": 6}}]
    prep = AKATSUKI_SIM.prepare(build(data), tactics_for("akatsuki"))
    assert any(n.key == "opposed" and "門番" in n.text for n in AKATSUKI_SIM.notes(prep))


def test_the_docs_list_exactly_the_notes() -> None:
    assert documented_notes("akatsuki") == dict(AKATSUKI_SIM.NOTES)
