"""Exceptions raised by the dice engine, and :class:`SaikoroError`, the root of all of saikoro's.

:class:`SaikoroError` lives here, at the bottom of the package, so that the engine
(:mod:`saikoro.dice`, :mod:`saikoro.systems`) can derive from it while importing only
the standard library. Each error also keeps its standard base (``ValueError`` for
the dice errors), so existing ``except ValueError`` clauses still catch it.

>>> issubclass(LimitError, DiceError) and issubclass(DiceError, ValueError)
True
>>> issubclass(DiceError, SaikoroError)
True
"""

from __future__ import annotations

__all__ = [
    "DiceError",
    "DiceExhaustedError",
    "DiceMismatchError",
    "LimitError",
    "ParseError",
    "SaikoroError",
]


class SaikoroError(Exception):
    """Root of every error saikoro raises on purpose (``except SaikoroError`` catches them all)."""


class DiceError(SaikoroError, ValueError):
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
