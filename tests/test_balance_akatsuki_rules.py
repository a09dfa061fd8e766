"""暁ノ大地 rules in the simulator: before-roll boosts (ruling card_points), cards earned by the
checker and its supporters, cards spent after the roll, and the notes.

Single checks are solved by hand over the 36 rolls (Fractions); the simulator's exact
chain must agree, and the simulated figures must fall inside their 95 % intervals.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

from balance_cases import AKATSUKI, build
from saikoro.balance import simulate
from saikoro.balance._budget import Budget
from saikoro.balance._runner import run_chunk
from saikoro.balance._stats import Z95
from saikoro.balance._tactics import tactics_for
from saikoro.systems._akatsuki.simulator import SIMULATOR as AKATSUKI_SIM

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
