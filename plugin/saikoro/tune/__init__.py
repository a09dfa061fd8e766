"""Tuning: the smallest edits of a scenario's own numbers that bring its win rate into its
``balance.win`` range (``saikoro tune``).

Public API:

* :func:`tune` ``(scenario, *, seed, jobs, screen, confirm_max, sensitivity_max,
  progress)`` -> :class:`TuneResult`: the scenario's figure, each number's
  :class:`Sensitivity` (the change of the win rate per step, with its 95 % interval) and
  up to three suggestions (:class:`Suggestion`: edits of the file, each a :class:`Change`,
  with the :class:`Measure` that shows them in range, confirmed on other battles).
* :func:`apply_changes` ``(path, changes)``: a suggestion written into the file, every
  other byte kept, and the file validated again (``saikoro tune --apply``).
* :func:`tune_key` ``(scenario)`` / :func:`cached_tune` ``(store, scenario)``: the
  suggestions kept in a :class:`saikoro.balance.BalanceStore` beside the figures (the
  site shows them; ``mkdocs serve`` computes them in the background).
* :func:`tune_main` ``(argv)``: ``saikoro tune`` (imported on first use, with the
  terminal's status line).

Every figure tuning prints is ``saikoro simulate``'s for that version of the file, its
battles and seed: versions are played in :mod:`saikoro.balance`'s seeded chunks. Errors
are :class:`saikoro.balance.BalanceError`.

This package sits one layer above :mod:`saikoro.balance` and uses it through its facade
only; balance never imports it. Below it: :mod:`saikoro.scenario`, :mod:`saikoro.dice`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._apply import apply_changes
from ._cache import cached_tune, tune_key
from ._change import Change
from ._measure import Measure
from ._result import Sensitivity, Suggestion, TuneResult
from ._search import tune

if TYPE_CHECKING:
    from ._cli import main as tune_main

__all__ = [
    "Change",
    "Measure",
    "Sensitivity",
    "Suggestion",
    "TuneResult",
    "apply_changes",
    "cached_tune",
    "tune",
    "tune_key",
    "tune_main",
]


def __getattr__(name: str) -> object:
    """``tune_main``, imported on first use (the command line loads rich)."""
    if name != "tune_main":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from ._cli import main

    globals()[name] = main
    return main
