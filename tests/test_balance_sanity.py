"""Sanity relations on every system: weaker enemies, a stronger party and more time help.

Each relation is checked with 3,000 battles on each side and must be clear: the two 95 %
intervals must not overlap (the effects are large by construction).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from balance_cases import CASES, build
from saikoro.balance import simulate

Change = Callable[[dict[str, Any]], None]
N = 3000


def _halve_enemies(d: dict[str, Any]) -> None:
    for e in d.get("enemies", []):
        if "hp" in e:
            e["hp"] = max(1, e["hp"] // 2)
        if "power" in e:
            e["power"] = max(1, e["power"] // 2)


def _stronger_party(d: dict[str, Any]) -> None:
    for pc in d["party"]:
        if d["system"] == "akatsuki":
            pc["abilities"] = {k: v + 2 for k, v in pc["abilities"].items()}
        elif d["system"] == "kokuryoku":
            pc["attack"] = pc.get("attack", 0) + 3
            if "power" in pc:
                pc["power"] += 10
        elif d["system"] == "kegare":
            pc["attack"] += 2
            pc["hp"] += 8
        elif d["system"] == "getb":
            pc["power"] += 4
            pc["hp"] += 15
        elif d["system"] == "cutaction":
            pc["body"] += 2
            pc["head"] += 2
            pc["hp"] += 4


def _one_round(d: dict[str, Any]) -> None:
    d.setdefault("missions", {"main": {"success": "勝つ"}})["main"]["rounds"] = 1


def _harder_targets(d: dict[str, Any]) -> None:
    for t in d["difficulty_targets"]:
        t["difficulty"] -= 1


def _win(system: str, change: Change | None, seed: int) -> tuple[float, float, float]:
    r = simulate(build(CASES[system], change), battles=N, seed=seed, solve=False)
    return r.win, r.win_low, r.win_high


def _better(system: str, change: Change) -> None:
    base = _win(system, None, 1)
    better = _win(system, change, 2)
    assert 0.05 < base[0] < 0.95, f"{system}: base case not mid-range ({base[0]:.3f})"
    assert better[1] > base[2], f"{system}: {better} is not clearly above {base}"


def _worse(system: str, change: Change) -> None:
    base = _win(system, None, 1)
    worse = _win(system, change, 2)
    assert worse[2] < base[1], f"{system}: {worse} is not clearly below {base}"


BATTLE_SYSTEMS = ["getb", "kegare", "kokuryoku", "cutaction"]


@pytest.mark.parametrize("system", BATTLE_SYSTEMS)
def test_halving_enemies_raises_the_win_rate(system: str) -> None:
    _better(system, _halve_enemies)


@pytest.mark.parametrize("system", sorted(CASES))
def test_a_stronger_party_raises_the_win_rate(system: str) -> None:
    _better(system, _stronger_party)


@pytest.mark.parametrize("system", BATTLE_SYSTEMS)
def test_a_round_limit_of_one_lowers_the_win_rate(system: str) -> None:
    _worse(system, _one_round)


def test_akatsuki_harder_targets_lower_the_win_rate() -> None:
    """akatsuki has no enemies' HP nor rounds: its analogues are harder targets..."""
    _worse("akatsuki", _harder_targets)


def test_akatsuki_cards_help() -> None:
    """...and awakening cards, which the default tactics spend to save failed checks."""

    def no_cards(d: dict[str, Any]) -> None:
        for pc in d["party"]:
            pc["cards"] = 0

    def more_cards(d: dict[str, Any]) -> None:
        for pc in d["party"]:
            pc["cards"] = 3

    base = _win("akatsuki", no_cards, 1)
    more = _win("akatsuki", more_cards, 2)
    assert more[1] > base[2]
