"""Balance: how hard is an encounter? Whole battles simulated, small ones solved exactly.

Public API:

* :func:`simulate` -> :class:`BalanceResult` (P(win) with a 95 % Wilson interval, how
  battles end, per-PC figures, each side mission's :class:`SideResult`, ``exact`` where
  solved), of an :class:`Encounter` read by :func:`encounter` from a validated scenario
  (the party: the scenario's, a file's via :func:`parse_party`, or :func:`reference_party`).
* Tactics: :func:`tactics_for` -> :class:`Tactics` (:data:`PRESETS`, :data:`ATOMS`).
* Verdicts: :func:`verdict`, and :func:`judge_target`, the one balance gate validate and
  the site both ask; :func:`check_balance` / :func:`balance_problems` say it in validation's
  words; :func:`tactics_rulings` gives the default tactics to the rulings page.
* :class:`BalanceStore`: the figures where an author waits (:func:`author_figures`),
  cached by content in memory and in the book's cache folder (:class:`CacheError`).
* The commands' bounds: :data:`MAX_SEED`, :data:`MAX_JOBS`, :func:`default_jobs`
  (``saikoro simulate``, which prints :func:`simulate`'s figures, and ``saikoro tune``).

For a package built on balance that plays many versions of one scenario (:mod:`saikoro.tune`,
one layer above): the seeded chunks (:func:`chunk_sizes`, :func:`run_chunk`: a figure of *n*
battles seeded *s* is the same whoever plays it), the process pool (:func:`worker_pool`),
and its own results in the store (:func:`cache_key`, :meth:`BalanceStore.keep` /
:meth:`BalanceStore.recall`).

What a system's simulator is made of (its bundle's ``simulator`` part, a :class:`Simulator`):
its rules as a step machine, :class:`Rules` (a start state, a step that ends the battle as a
:class:`Battle` or asks for a :class:`Roll`, a canonical form), which balance samples
(:func:`play`) and solves exactly (:func:`solve` within a :class:`Budget`) for every system;
:func:`memo` remembers what a rule works out again and again, per prepared encounter.

This package imports the standard library, :mod:`saikoro.dice`, :mod:`saikoro.systems` and
:mod:`saikoro.scenario` (it reads validated scenarios), never MkDocs, the site or tuning.
"""

from __future__ import annotations

from ._budget import AUTHOR_SECONDS, AUTHOR_STEPS, EXACT_STEPS, Budget, OutOfBudget
from ._cache import SEED, BalanceStore, CacheError, author_figures, cache_key, scenario_tactics
from ._check import balance_problems, check_balance
from ._errors import BalanceError
from ._machine import Cycle, Roll, Rules, play, solve
from ._model import BalanceSpec, Encounter, Party, encounter, parse_party, reference_party
from ._runner import (
    MAX_JOBS,
    MAX_SEED,
    chunk_sizes,
    default_jobs,
    run_chunk,
    simulate,
    worker_pool,
)
from ._side import Battle, Condition
from ._simulator import BATTLE_ENDS, End, Note, Simulator, memo, simulator_for
from ._stats import BalanceResult, EndFigures, PcFigures, RulingUsed, SideResult, Tally, wilson
from ._tactics import ATOMS, PRESETS, Policy, Tactics, TacticsError, tactics_for, tactics_rulings
from ._verdict import VERDICTS, TargetVerdict, judge_target, verdict

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
    "memo",
    "parse_party",
    "play",
    "reference_party",
    "run_chunk",
    "scenario_tactics",
    "simulate",
    "simulator_for",
    "solve",
    "tactics_for",
    "tactics_rulings",
    "verdict",
    "wilson",
    "worker_pool",
]
