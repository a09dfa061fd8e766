"""``saikoro validate``'s balance check: simulate, and warn when off the ``balance:`` target.

Runs only for scenarios that give ``balance.win``; plays ``balance.battles`` battles
(400 by default, a few tenths of a second) from seed 0 in this process, and solves the
encounter exactly where it is small (bounded by the one counted budget), so that
validation and the site's バランス section judge the same figure: the exact value where
there is one, else the estimate. Files with the same content are simulated once per
process. The warning sits on the
``balance.win`` line and gives the figure, its 95 % interval, the battles and the seed.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from saikoro.scenario import LoadResult, Msg, Problem, Scenario

from ._model import Encounter, encounter
from ._runner import simulate
from ._stats import BalanceResult
from ._tactics import Tactics, tactics_for

__all__ = ["SEED", "check_balance", "figures", "scenario_tactics"]

SEED = 0
"""The seed validation simulates from."""

CACHE_SIZE = 256
"""Results kept per process, keyed by the file's content (copies are simulated once)."""

_CACHE: dict[str, BalanceResult] = {}


def _percent(x: float) -> str:
    return f"{x * 100:.1f}%"


def scenario_tactics(enc: Encounter) -> Tactics:
    """The tactics the scenario's ``balance:`` names (each system's default otherwise)."""
    spec = enc.balance
    return tactics_for(
        enc.system, spec.tactics if spec else None, spec.enemy_tactics if spec else None
    )


def figures(scenario: Scenario) -> BalanceResult:
    """The scenario's balance figures as validation computes them (cached by content).

    ``balance.battles`` battles (400 when not given) from seed 0 with the scenario's
    tactics, in this process, with the exact solution where small: what a site's
    バランス section shows.
    """
    r = _CACHE.get(scenario.digest)
    if r is None:
        enc = encounter(scenario)
        battles = enc.balance.battles if enc.balance else 400
        r = simulate(enc, battles=battles, seed=SEED, tactics=scenario_tactics(enc))
        if len(_CACHE) >= CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[scenario.digest] = r
    return r


def check_balance(result: LoadResult) -> LoadResult:
    """``result`` with a warning added when the simulated win rate misses the target."""
    sc = result.scenario
    if sc is None or sc.model.balance is None or not sc.model.balance.win:
        return result
    enc = encounter(sc)
    spec = enc.balance
    if spec is None or spec.win is None:
        return result
    r = figures(sc)
    low, high = spec.win
    judged = r.exact if r.exact is not None else Fraction(r.win)
    if low <= judged <= high:
        return result
    line, column = sc.positions.get("scenario.balance.win", (1, 1))
    if r.exact is not None:
        msg = Msg(
            "balance.outside_exact",
            (
                _percent(float(r.exact)),
                str(r.exact),
                _percent(r.win),
                r.battles,
                SEED,
                spec.win_text,
            ),
        )
    else:
        msg = Msg(
            "balance.outside",
            (
                _percent(r.win),
                _percent(r.win_low),
                _percent(r.win_high),
                r.battles,
                SEED,
                spec.win_text,
            ),
        )
    problem = Problem(result.file, line, column, "warning", "scenario.balance.win", msg)
    return replace(result, problems=sorted([*result.problems, problem], key=Problem.sort_key))
