"""Exceptions raised by the dice engine; every one is a ``ValueError``.

>>> issubclass(LimitError, DiceError) and issubclass(DiceError, ValueError)
True
"""

from __future__ import annotations

__all__ = ["DiceError", "DiceExhaustedError", "DiceMismatchError", "LimitError", "ParseError"]


class DiceError(ValueError):
    """Base class of every error the engine raises on purpose."""


class ParseError(DiceError):
    """The text looked like a command but could not be parsed (or evaluated)."""


class LimitError(DiceError):
    """A command exceeds one of the engine's bounds (dice count, sides, repeats, work)."""

    def __init__(self, message: str, *, bound: str = "") -> None:
        super().__init__(message)
        self.bound = bound


class DiceMismatchError(DiceError):
    """A supplied die had different sides from the die the command asked for."""


class DiceExhaustedError(DiceError):
    """The list of supplied dice ran out before the command finished."""
