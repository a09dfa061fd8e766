"""Balance: how hard is an encounter? Whole battles simulated, small ones solved exactly.

Public API:

* :func:`simulate` ``(encounter, *, battles, seed, tactics, jobs, progress)`` ->
  :class:`BalanceResult` (P(win) with a 95 % Wilson interval, rounds, per-PC figures,
  damage per round, the most dangerous enemy action, each side mission's
  :class:`SideResult`, ``exact`` where solved).
* :func:`encounter` ``(scenario, *, party=None, players=None)`` -> :class:`Encounter`,
  read from a validated :class:`saikoro.scenario.Scenario`.
* :func:`reference_party` ``(system, size)`` -> the built-in party in ``party:`` format.
* :func:`tactics_for` ``(system, pc=None, enemy=None)`` -> :class:`Tactics`;
  :data:`PRESETS` / :data:`ATOMS` name and describe the policies.
* :func:`verdict` ``(win)`` -> 易しい / 標準 / 厳しい / 非常に厳しい.
* :func:`judge_target` ``(target, win=, low=, high=, battles=, exact=)`` ->
  :class:`TargetVerdict`: the one balance gate (範囲内 / まだ確かでない / 範囲外, and the
  battles that would decide), asked by validate and the site alike.
* :func:`check_balance` ``(result)``: validation's verdict on a scenario's
  ``balance.win`` (:func:`balance_problems` ``(scenario, result, file)``: the same words
  for the build's log) (:data:`SEED`, the tactics it names: :func:`scenario_tactics`);
  :func:`tactics_rulings` ``(system)``: the default tactics for the rulings page.
* :class:`BalanceStore`: the figures where an author waits (:func:`author_figures`: the
  exact solution within :data:`AUTHOR_STEPS`, the battles within
  :data:`AUTHOR_SECONDS`), cached by content in memory and in the book's cache folder,
  shared by validate, pre-commit, ``mkdocs build`` and ``serve`` (:class:`CacheError`: a
  cache folder that cannot be used).
* :func:`simulate_main` ``(argv)``: ``saikoro simulate`` (imported on first use, with the
  terminal's progress bars), with its bounds :data:`MAX_SEED` / :data:`MAX_JOBS` and
  :func:`default_jobs`, which ``saikoro tune`` shares.

For a package built on balance that plays many versions of one scenario (tuning,
:mod:`saikoro.tune`, one layer above): ``simulate``'s seeded chunks of battles
(:func:`chunk_sizes`, :func:`run_chunk`: a figure of *n* battles seeded *s* is the same
whoever plays it), its process pool (:func:`worker_pool`), and its own results in the
store (:func:`cache_key`, :meth:`BalanceStore.keep` / :meth:`BalanceStore.recall`).

What a system's simulator is made of (its bundle's ``simulator`` part, see
:class:`Simulator`): its rules as a step machine, :class:`Rules` (a start state, a step
that ends the battle as a :class:`Battle` or asks for a :class:`Roll` of dice and the
state after each outcome, a canonical form), which balance samples (:func:`play`) and
solves exactly (:func:`solve`, :class:`Cycle`) for every system;
:class:`Encounter` (the scenario model's PCs, enemies and targets),
:class:`Tactics` / :class:`Policy`, :class:`Tally` (``record`` one battle, ending as one
of :attr:`Simulator.ends`: :class:`End`, :data:`BATTLE_ENDS`), :class:`Note`,
:class:`Budget` / :class:`OutOfBudget` (the one counted budget of exact solvers),
:class:`Condition` / :class:`Battle` (side missions).

This package imports the standard library, :mod:`saikoro.dice`, :mod:`saikoro.systems` and
:mod:`saikoro.scenario` (it reads validated scenarios), never MkDocs, the site or tuning.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._budget import AUTHOR_SECONDS, AUTHOR_STEPS, EXACT_STEPS, Budget, OutOfBudget
from ._cache import SEED, BalanceStore, CacheError, author_figures, cache_key, scenario_tactics
from ._check import balance_problems, check_balance
from ._errors import BalanceError
from ._machine import Cycle, Roll, Rules, play, solve
from ._model import BalanceSpec, Encounter, Party, encounter, parse_party
from ._parties import reference_party
from ._runner import chunk_sizes, run_chunk, simulate, worker_pool
from ._side import Battle, Condition
from ._simulator import BATTLE_ENDS, End, Note, Simulator, simulator_for
from ._stats import BalanceResult, EndFigures, PcFigures, RulingUsed, SideResult, Tally, wilson
from ._tactics import ATOMS, PRESETS, Policy, Tactics, TacticsError, tactics_for, tactics_rulings
from ._verdict import VERDICTS, TargetVerdict, judge_target, verdict

if TYPE_CHECKING:
    from ._cli import MAX_JOBS, MAX_SEED, default_jobs
    from ._cli import main as simulate_main

__all__ = [
    "ATOMS",
    "AUTHOR_SECONDS",
    "AUTHOR_STEPS",
    "BATTLE_ENDS",
    "EXACT_STEPS",
    "MAX_JOBS",
    "MAX_SEED",
    "PRESETS",
    "SEED",
    "VERDICTS",
    "BalanceError",
    "BalanceResult",
    "BalanceSpec",
    "BalanceStore",
    "Battle",
    "Budget",
    "CacheError",
    "Condition",
    "Cycle",
    "Encounter",
    "End",
    "EndFigures",
    "Note",
    "OutOfBudget",
    "Party",
    "PcFigures",
    "Policy",
    "Roll",
    "Rules",
    "RulingUsed",
    "SideResult",
    "Simulator",
    "Tactics",
    "TacticsError",
    "Tally",
    "TargetVerdict",
    "author_figures",
    "balance_problems",
    "cache_key",
    "check_balance",
    "chunk_sizes",
    "default_jobs",
    "encounter",
    "judge_target",
    "parse_party",
    "play",
    "reference_party",
    "run_chunk",
    "scenario_tactics",
    "simulate",
    "simulate_main",
    "simulator_for",
    "solve",
    "tactics_for",
    "tactics_rulings",
    "verdict",
    "wilson",
    "worker_pool",
]


_LAZY = {
    "simulate_main": ("._cli", "main"),
    "MAX_JOBS": ("._cli", "MAX_JOBS"),
    "MAX_SEED": ("._cli", "MAX_SEED"),
    "default_jobs": ("._cli", "default_jobs"),
}
"""Names imported on first use: the command line (rich)."""


def __getattr__(name: str) -> object:
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(where[0], __name__), where[1])
    globals()[name] = value
    return value
