"""国力ゲーム in the simulator: each exchange is the engine command's (KKA, KKM, KKI), the
middle phase by brute force, spare defenders supporting the defence checks, the nation's
values (ruling ``nation_values``), the ends, the side missions solved exactly, the notes.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from balance_cases import build, documented_notes
from balance_oracle import kokuryoku as oracle
from saikoro.balance import Budget, Condition, OutOfBudget, Tally, simulate, tactics_for, wilson
from saikoro.balance._runner import run_chunk
from saikoro.balance._stats import Z95
from saikoro.dice import Dist
from saikoro.systems import get as get_system
from saikoro.systems._kokuryoku import checks
from saikoro.systems._kokuryoku.simulator import SIMULATOR as KOKURYOKU_SIM
from saikoro.systems._kokuryoku.simulator import Prepared

Data = dict[str, Any]

SIM = KOKURYOKU_SIM
TACTICS = tactics_for("kokuryoku")


def _prep(data: Data) -> Prepared:
    return SIM.prepare(build(data), TACTICS)


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
    prep = SIM.prepare(enc, TACTICS)
    _, figures = SIM.exact(prep, Budget())
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
    tally = run_chunk((enc, TACTICS, 9, 0, n))
    simulated = tally.sums["national_power"] / n
    assert abs(simulated - float(mean)) < Z95 * 1.5 * (float(var) / n) ** 0.5
    reached = tally.sums["middle_reached"] / n
    assert abs(reached - float(p1 + p2)) < 0.05


# -- one exchange against the engine's commands -----------------------------------------

DUEL: Data = {
    "system": "kokuryoku",
    "title": "一撃",
    "players": 1,
    "party": [
        {"name": "我が国", "kind": "nation", "power": 90, "attack": 4, "defence": 4},
        {"name": "将", "abilities": {"force": 3, "luck": 1}, "attack": 5, "defence": 1, "love": 9},
    ],
    "enemies": [
        {"id": "rival", "name": "隣国", "kind": "nation", "power": 9, "attack": 3, "defence": 3},
        {"id": "w", "name": "壁", "abilities": {"luck": 2}, "attack": 1, "defence": 3, "love": 5},
        {"id": "s", "name": "槍", "abilities": {"force": 1}, "attack": 2, "defence": 0, "love": 5},
    ],
    "missions": {"main": {"success": "隣国の国力を0にする", "rounds": 1}},
}
"""One PC attack (ability 3, power 5) met by the rival's defender (ability 2, power 3): the
rival keeps one of its two characters back; the PCs' nation is larger, so it goes first."""

KKA = "KKA[3]/5VS[2]/3"
"""The same attack as the engine's command (the nation's values are not added)."""


def _odds(command: str) -> Any:
    odds = get_system("kokuryoku").odds_command(command)
    assert odds is not None, command
    return odds


def test_one_attack_is_the_kka_command() -> None:
    prep = _prep(DUEL)
    (x,) = prep.pc_attacks
    assert (x.attack, x.attack_power, x.defence, x.defence_power) == ((3,), 5, (2,), 3)
    assert x.damage.probabilities() == _odds(KKA).distribution
    # the exact chain: one round, the PCs first, one attack: P(damage >= 9)
    value, _ = SIM.exact(prep, Budget())
    assert value == _odds(f"{KKA}>=9").success


def test_drawn_damage_follows_the_command_odds() -> None:
    """20,000 draws of the exchange: every P(damage >= k) inside its 95 % interval."""
    (x,) = _prep(DUEL).pc_attacks
    rng = random.Random(7)
    n = 20000
    draws = [x.damage.draw(rng.random()) for _ in range(n)]
    odds = _odds(KKA)
    for k in range(13):
        p = sum((q for v, q in odds.distribution.items() if int(v) >= k), Fraction(0))
        low, high = wilson(sum(1 for d in draws if d >= k), n)
        assert low <= float(p) <= high, (k, float(p), low, high)


def test_declined_reaction_is_the_kka_dash_command() -> None:
    """The rival's attacker meets no PC defender (one PC keeps none back): KKA[...]VS-."""
    prep = _prep(DUEL)
    (x,) = prep.npc_attacks
    assert x.defence is None
    assert x.damage.probabilities() == _odds("KKA[1]/2VS-").distribution


def test_middle_phase_odds_are_the_kkm_command() -> None:
    (m1, m2) = _prep(MIDDLE).middle
    assert m1.abilities == (3, 2) and m2.abilities == (3, 2)
    settings = get_system("kokuryoku", die=6)
    for m in (m1, m2):
        odds = settings.odds_command(f"KKM[{','.join(map(str, m.abilities))}]>={m.target}")
        assert odds is not None and m.success == odds.success


def test_first_player_odds_are_the_kki_command() -> None:
    rules = get_system("kokuryoku", equal_power="dice")
    for pc, npc in ((90, 100), (80, 80), (100, 90)):
        odds = rules.odds_command(f"KKI{pc}VS{npc}")
        assert odds is not None
        p = checks.first_odds(pc, npc, "dice")
        assert odds.distribution.get("PC先攻", Fraction(0)) == p


# -- the nation's values, spare defenders ----------------------------------------------


def test_the_nation_adds_nothing_by_default() -> None:
    """Ruling nation_values: alone (the seed: the attacker's power) unless ``add``."""
    base = _prep(DUEL)
    added = _prep({**DUEL, "rulings": {"nation_values": "add"}})
    assert base.pc_attacks[0].attack_power == 5 and base.pc_attacks[0].defence_power == 3
    assert added.pc_attacks[0].attack_power == 9 and added.pc_attacks[0].defence_power == 6
    assert added.pc_attacks[0].damage.probabilities() == _odds("KKA[3]/9VS[2]/6").distribution


def test_a_nation_alone_fights_with_its_own_values() -> None:
    alone = {**DUEL, "enemies": [DUEL["enemies"][0]]}
    prep = _prep(alone)
    assert prep.npcs.alone and not prep.npcs.defenders
    (x,) = prep.npc_attacks
    assert (x.attack, x.attack_power, x.defence) == ((0,), 3, None)
    (mine,) = prep.pc_attacks
    assert mine.defence is None and mine.damage.probabilities() == _odds("KKA[3]/5VS-").distribution
    text = " ".join(n.text for n in SIM.notes(prep))
    assert "国（隣国）が1人の人物として戦う" in text


SUPPORT: Data = {
    "system": "kokuryoku",
    "title": "守りの厚い隣国",
    "players": 1,
    "party": [
        {"name": "我が国", "kind": "nation", "power": 40, "attack": 2, "defence": 0},
        {"name": "将", "abilities": {"force": 6}, "attack": 5, "defence": 1, "love": 9},
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
    prep = SIM.prepare(enc, TACTICS)
    (x,) = prep.pc_attacks
    assert x.defence == (1, 1)
    settings = get_system("kokuryoku", die=6)
    odds = settings.odds_command("KKA[6]/5VS[1,1]/0")
    assert odds is not None and x.damage.probabilities() == odds.distribution
    with_support, _ = SIM.exact(prep, Budget())
    lone = settings.odds_command("KKA[6]/5VS[1]/0")
    assert lone is not None
    single = replace(x, defence=(1,), damage=Dist.from_fractions(lone.distribution))  # type: ignore[arg-type]
    without, _ = SIM.exact(replace(prep, pc_attacks=(single,)), Budget())
    assert isinstance(with_support, Fraction) and isinstance(without, Fraction)
    assert with_support < without
    assert with_support == oracle.win(SUPPORT)
    assert Fraction(1, 20) < with_support < Fraction(19, 20)
    inside = 0
    for seed in range(20):
        r = simulate(enc, battles=300, seed=seed, solve=False)
        inside += r.win_low <= float(with_support) <= r.win_high
    assert inside >= 16, f"exact {float(with_support):.4f} inside only {inside}/20 intervals"


def test_a_party_without_a_nation_gets_the_reference_nation() -> None:
    data = {**DUEL, "party": [DUEL["party"][1]]}
    prep = _prep(data)
    assert prep.pcs.nation == "我が国" and prep.pcs.power == 50 and prep.joined
    assert any(n.key == "nation_joined" for n in SIM.notes(prep))
    value, _ = SIM.exact(prep, Budget())
    assert value == oracle.win(data)


def test_enemies_without_a_nation_are_not_played() -> None:
    """No enemy gauge: the site does not simulate; the CLI counts a win and says why."""
    data = {**DUEL, "enemies": DUEL["enemies"][1:]}
    assert "国" in SIM.nothing_to_play(build(data))
    assert SIM.nothing_to_play(build(DUEL)) == ""
    prep = _prep(data)
    assert [n.key for n in SIM.notes(prep)] == ["no_gauge"]
    assert SIM.exact(prep, Budget())[0] == 1
    r = simulate(build(data), battles=50, seed=1)
    assert r.win == 1 and [e.count for e in r.ends if e.key == "win"] == [50]


# -- ends ---------------------------------------------------------------------------------

RAID: Data = {
    "system": "kokuryoku",
    "title": "攻め込まれる",
    "players": 1,
    "party": [
        {"name": "我が国", "kind": "nation", "power": 16},
        {"name": "将", "abilities": {"force": 3}, "attack": 4, "defence": 2, "love": 9},
    ],
    "enemies": [
        {"id": "rival", "name": "隣国", "kind": "nation", "power": 16},
        {"id": "a", "name": "猛将", "abilities": {"force": 4}, "attack": 4, "love": 9},
    ],
    "missions": {"main": {"success": "隣国の国力を0にする", "rounds": 2}},
    "rulings": {"die": 6},
}
"""Every end is likely: each side's one attack a round goes unopposed (equal power: the
PCs first)."""


def test_every_end_against_the_oracle() -> None:
    prep = _prep(RAID)
    value, _ = SIM.exact(prep, Budget())
    want = oracle.ends(RAID)
    assert value == want["win"]
    assert SIM.exact_ends(prep, Budget()) == want
    assert all(Fraction(1, 20) < p < Fraction(19, 20) for p in want.values()), want
    r = simulate(build(RAID), battles=6000, seed=3, solve=False)
    for e in r.ends:
        assert e.low <= float(want[e.key]) <= e.high, (e, float(want[e.key]))


@pytest.mark.parametrize("data", [RAID, DUEL, SUPPORT, MIDDLE], ids=lambda d: d["title"])
def test_battles_end_only_in_declared_ends(data: Data) -> None:
    enc = build(data)
    tally: Tally = run_chunk((enc, TACTICS, 1, 0, 500))
    assert set(tally.ends) <= set(SIM.ends) and "lost" not in tally.ends
    assert sum(tally.ends.values()) == 500
    assert tally.ends["win"] == tally.wins


def test_the_default_round_limit_is_three() -> None:
    data = {**RAID, "missions": {"main": {"success": "隣国の国力を0にする"}}}
    assert SIM.round_limit(build(data)) == (3, False)
    assert _prep(data).rounds == 3
    assert SIM.exact(_prep(data), Budget())[0] == oracle.win(data)


# -- side missions, budget ------------------------------------------------------------------


def test_side_missions_exact_inside_the_intervals() -> None:
    data = {
        **RAID,
        "difficulty_targets": [{"name": "砦", "target": 8, "gain": 6}],
        "missions": {
            "main": RAID["missions"]["main"],
            "side": [
                {"success": "a", "check": {"power_at_least": 10}},
                {"success": "b", "check": {"taken_at_most": 6}},
                {"success": "c", "check": {"win": True, "taken_at_most": 8}},
                {"success": "d", "check": {"targets": ["砦"], "win": False}},
            ],
        },
    }
    n = 4000
    r = simulate(build(data), battles=n, seed=5)
    assert r.exact is not None
    for s in r.side:  # four figures: each within 4 standard deviations (not one 95 % miss)
        assert s.exact is not None and s.rate is not None
        assert Fraction(1, 50) < s.exact < Fraction(49, 50), s
        p = float(s.exact)
        assert abs(s.rate - p) < 4 * (p * (1 - p) / n) ** 0.5, s


def test_the_exact_solution_is_charged_to_the_budget() -> None:
    prep = _prep(RAID)
    budget = Budget()
    SIM.exact(prep, budget)
    assert budget.used > 0
    with pytest.raises(OutOfBudget):
        SIM.exact(prep, Budget(budget.used - 1))
    with pytest.raises(OutOfBudget):
        SIM.side_exact(prep, Condition(win=True, taken_at_most=3), Budget(10))


def test_notes_name_skills_support_and_persons() -> None:
    def skills(d: Data) -> None:
        d["enemies"][1]["skills"] = [{"name": "一斉砲撃", "timing": "メジャー", "effect": "+6"}]

    prep = SIM.prepare(build(SUPPORT, skills), TACTICS)
    notes = SIM.notes(prep)
    keys = {n.key for n in notes}
    assert {"skills", "attack_support", "persons", "heal_buff"} <= keys
    text = " ".join(n.text for n in notes)
    assert "一斉砲撃（将0）" in text
    assert "unopposed" in keys  # the PCs' one character keeps no defender


def test_the_docs_list_exactly_the_notes() -> None:
    assert documented_notes("kokuryoku") == dict(SIM.NOTES)
