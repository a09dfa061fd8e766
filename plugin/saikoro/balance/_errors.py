"""The simulator's own error: an encounter it cannot play."""

from __future__ import annotations

from saikoro.dice import SaikoroError

__all__ = ["BalanceError"]


class BalanceError(SaikoroError, ValueError):
    """An encounter the simulator cannot play as asked.

    A system without a simulator (an installed plugin's), a party without PCs, fewer than
    one battle, tallies of different parties merged.
    """
