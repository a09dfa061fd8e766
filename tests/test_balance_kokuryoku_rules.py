"""国力ゲーム in the simulator: the middle-phase checks (P(target reached), expected national
power) solved by brute force, spare defenders supporting the defence checks, the notes.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from fractions import Fraction
from typing import Any

from balance_cases import build
from saikoro.balance import simulate
from saikoro.balance._budget import Budget
from saikoro.balance._runner import run_chunk
from saikoro.balance._stats import Z95
from saikoro.balance._tactics import tactics_for
from saikoro.systems._kokuryoku.simulator import SIMULATOR as KOKURYOKU_SIM

Data = dict[str, Any]

MIDDLE: Data = {
    "system": "kokuryoku",
    "title": "中間フェーズ",
    "players": 2,
    "party": [
        {"name": "我が国", "kind": "nation", "power": 20, "attack": 1, "defence": 1},
        {"name": "将", "abilities": {"force": 3, "luck": 1}, "attack": 3, "defence": 2, "love": 9},
        {"name": "相", "abilities": {"charisma": 2}, "attack": 1, "defence": 3, "love": 8},
    ],
    "difficulty_targets": [
        {"name": "城壁", "target": 12, "gain": 9, "ability": "force"},
        {"name": "同盟", "target": 9, "gain": 5},
    ],
    "enemies": [{"id": "rival", "name": "隣国", "kind": "nation", "power": 30, "attack": 2}],
    "missions": {"main": {"success": "隣国の国力を0にする", "rounds": 3}},
    "rulings": {"die": 6},
}


def _reached(abilities: list[int], target: int, die: int = 6) -> Fraction:
    """P(the running total of ability + 1D(die) checks reaches ``target``): every roll."""
    wins = 0
    for faces in itertools.product(range(1, die + 1), repeat=len(abilities)):
        total = 0
        for ab, f in zip(abilities, faces, strict=True):
            total += ab + f
            if total >= target:
                wins += 1
                break
    return Fraction(wins, die ** len(abilities))


def test_middle_phase_checks_by_brute_force() -> None:
    enc = build(MIDDLE)
    sim = KOKURYOKU_SIM
    prep = sim.prepare(enc, tactics_for("kokuryoku"))
    _, figures = sim.exact(prep, Budget())
    # 城壁 (force): 将 starts with force 3, 相 supports with its best (2)
    p1 = _reached([3, 2], 12)
    # 同盟 (free): 将's best is 3, 相's 2
    p2 = _reached([3, 2], 9)
    assert figures["P(城壁)"] == p1
    assert figures["P(同盟)"] == p2
    gains = {(a, b): 20 + (9 if a else 4) + (5 if b else 2) for a in (0, 1) for b in (0, 1)}
    probs = {(a, b): (p1 if a else 1 - p1) * (p2 if b else 1 - p2) for a, b in gains}
    mean = sum(gains[k] * probs[k] for k in gains)
    assert figures["E(国力)"] == mean
    var = sum((gains[k] - mean) ** 2 * probs[k] for k in gains)
    n = 5000
    tally = run_chunk((enc, tactics_for("kokuryoku"), 9, 0, n))
    simulated = tally.sums["national_power"] / n
    assert abs(simulated - float(mean)) < Z95 * 1.5 * (float(var) / n) ** 0.5
    reached = tally.sums["middle_reached"] / n
    assert abs(reached - float(p1 + p2)) < 0.05


SUPPORT: Data = {
    "system": "kokuryoku",
    "title": "守りの厚い隣国",
    "players": 1,
    "party": [
        {"name": "我が国", "kind": "nation", "power": 40, "attack": 2, "defence": 0},
        {"name": "将", "abilities": {"force": 6}, "attack": 3, "defence": 1, "love": 9},
    ],
    "enemies": [
        {"id": "rival", "name": "隣国", "kind": "nation", "power": 12, "attack": 0, "defence": 0},
        *(
            {"id": f"c{i}", "name": f"将{i}", "abilities": {"force": 1}, "attack": 1, "love": 5}
            for i in range(4)
        ),
    ],
    "missions": {"main": {"success": "隣国の国力を0にする", "rounds": 3}},
    "rulings": {"die": 6},
}


def test_spare_defenders_support_the_defence() -> None:
    """The rival keeps two defenders; our one attack meets one, the other supports it."""
    enc = build(SUPPORT)
    sim = KOKURYOKU_SIM
    prep = sim.prepare(enc, tactics_for("kokuryoku"))
    assert len(prep.pc_attacks) == 1
    (_, reaction), *_ = prep.pc_attacks
    assert reaction is not None and reaction[0] == (1, 1)
    with_support, _ = sim.exact(prep, Budget())
    alone = replace(prep, pc_attacks=((prep.pc_attacks[0][0], ((1,), reaction[1])),))
    without, _ = sim.exact(alone, Budget())
    assert isinstance(with_support, Fraction) and isinstance(without, Fraction)
    assert with_support < without
    assert Fraction(1, 20) < with_support < Fraction(19, 20)
    inside = 0
    for seed in range(20):
        r = simulate(enc, battles=300, seed=seed, solve=False)
        inside += r.win_low <= float(with_support) <= r.win_high
    assert inside >= 16, f"exact {float(with_support):.4f} inside only {inside}/20 intervals"


def test_skills_are_named_as_not_modelled() -> None:
    def skills(d: Data) -> None:
        d["enemies"][1]["skills"] = [{"name": "一斉砲撃", "timing": "メジャー", "effect": "+6"}]

    enc = build(SUPPORT, skills)
    sim = KOKURYOKU_SIM
    text = " ".join(n.text for n in sim.notes(sim.prepare(enc, tactics_for("kokuryoku"))))
    assert "一斉砲撃（将0）" in text
