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
    "DistributionError",
    "GivenDiceError",
    "InternalError",
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


class GivenDiceError(DiceError):
    """``dice=`` is not a list of ``(sides, value)`` pairs of integers, each value a face
    of its die (``[(6, 3, 1)]``, ``["6:3"]``, ``[(6, 10**5000)]``, ``[(6, nan)]``)."""


class DistributionError(SaikoroError, ValueError):
    """A :class:`~saikoro.dice.Dist` asked to be what no distribution is.

    Negative or excess weights, a die without sides, the mean of outcomes that are not
    numbers, conditioning on an event of probability zero.
    """


class InternalError(SaikoroError, AssertionError):
    """A broken invariant inside saikoro: a bug in saikoro, not in what it was given.

    Raised where the engine's own callers guarantee a precondition. Nothing in saikoro
    catches it (``tests/test_errors.py`` checks): it surfaces with its traceback, never as
    a message about the user's input. It is an ``AssertionError``, so ``except ValueError``
    does not hide it.
    """
