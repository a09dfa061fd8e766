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

What a system's simulator is made of (its bundle's ``simulator`` part, see
:class:`Simulator`): :class:`Encounter` (the scenario model's PCs, enemies and targets),
:class:`Tactics` / :class:`Policy`, :class:`Tally` (``record`` one battle, ending as one
of :attr:`Simulator.ends`: :class:`End`, :data:`BATTLE_ENDS`), :class:`Note`,
:class:`Budget` / :class:`OutOfBudget` (the one counted budget of exact solvers),
:class:`Condition` / :class:`Battle` (side missions), and integer-weight helpers
(:func:`common_denominator`, :func:`reduce`, :func:`scaled`).

This package imports the standard library, :mod:`saikoro.dice`, :mod:`saikoro.systems` and
:mod:`saikoro.scenario` (it reads validated scenarios), never MkDocs or the site.
"""

from __future__ import annotations

from ._budget import EXACT_STEPS, Budget, OutOfBudget
from ._errors import BalanceError
from ._model import BalanceSpec, Encounter, Party, encounter, parse_party
from ._parties import reference_party
from ._runner import simulate
from ._side import Battle, Condition
from ._simulator import BATTLE_ENDS, End, Note, Simulator, simulator_for
from ._stats import BalanceResult, EndFigures, PcFigures, RulingUsed, SideResult, Tally, wilson
from ._tactics import ATOMS, PRESETS, Policy, Tactics, TacticsError, tactics_for
from ._verdict import VERDICTS, verdict
from ._weights import common_denominator, reduce, scaled

__all__ = [
    "ATOMS",
    "BATTLE_ENDS",
    "EXACT_STEPS",
    "PRESETS",
    "VERDICTS",
    "BalanceError",
    "BalanceResult",
    "BalanceSpec",
    "Battle",
    "Budget",
    "Condition",
    "Encounter",
    "End",
    "EndFigures",
    "Note",
    "OutOfBudget",
    "Party",
    "PcFigures",
    "Policy",
    "RulingUsed",
    "SideResult",
    "Simulator",
    "Tactics",
    "TacticsError",
    "Tally",
    "common_denominator",
    "encounter",
    "parse_party",
    "reduce",
    "reference_party",
    "scaled",
    "simulate",
    "simulator_for",
    "tactics_for",
    "verdict",
    "wilson",
]
