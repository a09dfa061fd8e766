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

This package is engine-side: it imports the standard library, :mod:`saikoro.dice` and
:mod:`saikoro.systems` (and reads validated scenarios), never MkDocs or the site.
"""

from __future__ import annotations

from ._errors import BalanceError
from ._model import Encounter, Party, encounter, parse_party
from ._parties import reference_party
from ._runner import simulate
from ._stats import BalanceResult, PcFigures, SideResult, wilson
from ._tactics import ATOMS, PRESETS, Policy, Tactics, TacticsError, tactics_for
from ._verdict import VERDICTS, verdict

__all__ = [
    "ATOMS",
    "PRESETS",
    "VERDICTS",
    "BalanceError",
    "BalanceResult",
    "Encounter",
    "Party",
    "PcFigures",
    "Policy",
    "SideResult",
    "Tactics",
    "TacticsError",
    "encounter",
    "parse_party",
    "reference_party",
    "simulate",
    "tactics_for",
    "verdict",
    "wilson",
]
