"""Tuning's suggestions kept in :class:`saikoro.balance.BalanceStore`, beside the figures.

Tuning reads and edits the scenario's file itself, so the key is the file's bytes (not
the fight, as a figure's is), with saikoro's code, the system's and tuning's own
(:func:`saikoro.balance.cache_key`).
"""

from __future__ import annotations

from pathlib import Path

from saikoro.balance import SEED, BalanceStore, cache_key
from saikoro.scenario import Scenario

from ._result import TuneResult

__all__ = ["cached_tune", "tune_key"]


def tune_key(scenario: Scenario) -> str:
    """The cache key of tuning ``scenario`` from seed :data:`~saikoro.balance.SEED` (as
    ``mkdocs serve`` tunes it)."""
    return cache_key(
        scenario.system, {"tune": scenario.digest, "seed": SEED}, code=Path(__file__).parent
    )


def cached_tune(store: BalanceStore, scenario: Scenario) -> TuneResult | None:
    """Tuning's suggestions for ``scenario`` if ``store`` holds them (kept under
    :func:`tune_key`)."""
    return store.recall(tune_key(scenario), TuneResult)
