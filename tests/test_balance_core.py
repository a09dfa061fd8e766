"""The balance framework: intervals, tallies, tactics, parties, determinism, layering."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from typing import Any

import pytest

from balance_cases import CASES, build, text
from saikoro.balance import (
    PRESETS,
    Battle,
    TacticsError,
    Tally,
    reference_party,
    simulate,
    tactics_for,
    tactics_rulings,
    verdict,
    wilson,
)
from saikoro.balance import simulator_for as simulator
from saikoro.balance._runner import CHUNK
from saikoro.scenario import parse_policy, parse_win_range, party_size, validate_text
from saikoro.systems import SYSTEM_IDS
from saikoro.systems import get as get_system


def test_wilson_matches_reference_values() -> None:
    # Reference values of the Wilson score interval (z = 1.96).
    low, high = wilson(81, 263)
    assert abs(low - 0.2553) < 5e-4
    assert abs(high - 0.3662) < 5e-4
    assert wilson(0, 20)[0] == 0.0
    assert wilson(20, 20)[1] == 1.0
    _, hi = wilson(0, 20)
    assert 0.15 < hi < 0.17


def test_wilson_covers_at_about_95_percent() -> None:
    """Over every outcome of 40 trials at p = 0.3 the interval covers p about 95 % of the time."""
    from math import comb

    p, n = 0.3, 40
    cover = sum(
        comb(n, k) * p**k * (1 - p) ** (n - k)
        for k in range(n + 1)
        if wilson(k, n)[0] <= p <= wilson(k, n)[1]
    )
    assert 0.92 < cover < 0.98


def test_tallies_add_up() -> None:
    a, b = Tally(pcs=2), Tally(pcs=2)
    a.add(Battle(win=True, rounds=2, downed=(True, False), dealt=5, taken=3))
    b.add(Battle(win=False, rounds=3, downed=(True, True), dealt=1, taken=7))
    b.actions["x"] += 4
    s = a + b
    assert (s.battles, s.wins, s.downed, s.dealt, s.taken) == (2, 1, [2, 1], 6, 10)
    assert s.rounds == Counter({2: 1, 3: 1})
    assert s.actions == Counter({"x": 4})
    with pytest.raises(ValueError, match="different parties"):
        _ = a + Tally(pcs=3)


def test_win_ranges() -> None:
    assert parse_win_range("60%-90%") is not None
    assert parse_win_range("60-90%") is not None
    assert parse_win_range("90%-60%") is None
    assert parse_win_range("60%") is None
    assert parse_win_range("50%-120%") is None


def test_tactics_presets_and_atoms() -> None:
    assert parse_policy("hunt").target == "most_dangerous"
    p = parse_policy("focus,keep_range,no_guard")
    assert (p.target, p.close_in, p.guard) == ("lowest_hp", False, False)
    assert parse_policy("random,keep_cards").spend_cards is False
    with pytest.raises(TacticsError, match="unknown tactic 'foo'"):
        parse_policy("hunt,foo")
    for system in SYSTEM_IDS:
        t = tactics_for(system)
        assert t.pc.name in PRESETS and t.enemy.name in PRESETS
        (ruling,) = tactics_rulings(system)
        assert ruling.key.startswith(system + ".") and t.pc.name in ruling.decision


def test_verdict_thresholds() -> None:
    assert verdict(0.9) == "易しい"
    assert verdict(0.8999) == "標準"
    assert verdict(0.65) == "標準"
    assert verdict(0.35) == "厳しい"
    assert verdict(0.0) == "非常に厳しい"


@pytest.mark.parametrize("system", SYSTEM_IDS)
@pytest.mark.parametrize("size", [1, 3, 4, 6])
def test_reference_parties_validate(system: str, size: int) -> None:
    data: dict[str, Any] = {"system": system, "title": "t", "party": reference_party(system, size)}
    result = validate_text(text(data), "p.yaml")
    assert result.ok, [p.format() for p in result.problems]
    names = [m["name"] for m in data["party"]]
    assert len(set(names)) == len(names)


def test_party_size_from_players() -> None:
    assert party_size("3-5") == 3
    sc = validate_text("system: getb\ntitle: t\nplayers: 2-4\n", "t.yaml").scenario
    assert sc is not None
    from saikoro.balance import encounter

    assert encounter(sc).party.label == "reference-2"
    assert len(encounter(sc, players=4).party.members) == 4


def test_every_system_has_a_simulator_following_its_flows() -> None:
    for system in SYSTEM_IDS:
        flows = get_system(system).flows()
        assert simulator(system).system == system
        for flow_id in simulator(system).flows:
            assert flow_id in flows, f"{system}: no flow {flow_id}"


@pytest.mark.parametrize("system", sorted(CASES))
def test_same_seed_same_result_whatever_jobs(system: str) -> None:
    enc = build(CASES[system])
    n = CHUNK * 3 + 17
    one = simulate(enc, battles=n, seed=7, jobs=1, solve=False).to_json()
    two = simulate(enc, battles=n, seed=7, jobs=2, solve=False).to_json()
    assert one == two
    assert one["battles"] == n
    other = simulate(enc, battles=n, seed=8, jobs=1, solve=False).to_json()
    assert other != one


@pytest.mark.parametrize("system", sorted(CASES))
def test_result_json_shape(system: str) -> None:
    r = simulate(build(CASES[system]), battles=300, seed=1).to_json()
    for key in ("win", "win_low", "win_high", "battles", "rounds", "pcs", "seed"):
        assert key in r
    assert r["win_low"] <= r["win"] <= r["win_high"]
    assert sum(r["rounds"].values()) == 300
    assert [p["name"] for p in r["pcs"]] == [m["name"] for m in CASES[system]["party"]]
    for p in r["pcs"]:
        assert 0 <= p["downed_low"] <= p["downed"] <= p["downed_high"] <= 1


def test_interrupt_reports_what_was_finished() -> None:
    enc = build(CASES["kegare"])
    calls = []

    def progress(done: int, total: int) -> None:
        calls.append(done)
        if done >= 2 * CHUNK:
            raise KeyboardInterrupt

    r = simulate(enc, battles=10 * CHUNK, seed=3, progress=progress, keep_partial=True)
    assert r.interrupted and r.battles == 2 * CHUNK
    assert r.to_json()["interrupted"] is True
    full = simulate(enc, battles=2 * CHUNK, seed=3)
    assert full.win == r.win  # the finished chunks are the first chunks of the same run


def test_engine_layering() -> None:
    """saikoro.balance imports neither MkDocs nor the site."""
    code = (
        "import sys, saikoro.balance, saikoro._simulate\n"
        "from saikoro.balance._simulator import simulator_for\n"
        "from saikoro.systems import SYSTEM_IDS\n"
        "for s in SYSTEM_IDS: simulator_for(s)\n"
        "bad = [m for m in sys.modules if m.startswith(('mkdocs', 'material', 'saikoro.site'))]\n"
        "print(bad)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
