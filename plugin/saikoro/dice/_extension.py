"""The hook through which a rule system adds its own commands to the engine.

A rule system (see :mod:`saikoro.systems`) implements this protocol. The engine
normalises the text first (full-width to half-width, comment removed, secret prefix
``S`` and repeat prefixes handled), then offers the command to the extension before
trying the generic BCDice commands, as BCDice does for a selected game system.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ._result import Odds, Roll
from ._source import DiceSource

__all__ = ["Extension"]


@runtime_checkable
class Extension(Protocol):
    """A source of system-specific commands."""

    def roll_command(self, command: str, source: DiceSource) -> Roll | None:
        """Roll ``command`` (normalised, upper-case) or return ``None`` if it is not ours.

        The returned :class:`Roll` need not set ``secret`` or ``dice``: the engine fills them.
        """
        ...

    def odds_command(self, command: str) -> Odds | None:
        """Exact odds of ``command`` or ``None`` if it is not ours."""
        ...
