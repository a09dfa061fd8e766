"""The error this system raises for values its rules do not allow.

It is a :class:`saikoro.dice.DiceError` (so a command that reaches one is refused with
its message, like any other bad command) and therefore also a :class:`ValueError`.

>>> issubclass(CutActionError, DiceError), issubclass(CutActionError, ValueError)
(True, True)
"""

from __future__ import annotations

from saikoro.dice import DiceError

__all__ = ["CutActionError"]


class CutActionError(DiceError):
    """A value outside the cut-action rules: an unknown row, rule choice, die result or side."""
