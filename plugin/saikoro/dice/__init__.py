"""saikoro's dice engine: BCDice's generic commands, rolled and computed exactly.

Standard library only: these files are also shipped to the browser (Pyodide).
"""

from __future__ import annotations

from .dist import Dist
from .errors import DiceError, DiceExhaustedError, DiceMismatchError, LimitError, ParseError
from .extension import Extension
from .result import Odds, Roll
from .source import DiceSource

__all__ = [
    "DiceError",
    "DiceExhaustedError",
    "DiceMismatchError",
    "DiceSource",
    "Dist",
    "Extension",
    "LimitError",
    "Odds",
    "ParseError",
    "Roll",
]
