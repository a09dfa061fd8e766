"""saikoro's dice engine: BCDice's generic commands, rolled and computed exactly.

Standard library only: these files are also shipped to the browser (Pyodide).

- :mod:`._api` -- ``roll`` and ``odds``: normalisation, the extension hook, repeats;
- :mod:`._add_dice` / :mod:`._add_nodes` -- sums ``2D6+1``, keep/drop, ``MAX``/``MIN``;
- :mod:`._barabara` ``B``, :mod:`._reroll` ``R``, :mod:`._upper` ``U``,
  :mod:`._choice`, :mod:`._simple` (``D66``, ``C(...)``, tallies ``TY``/``TZ``);
- :mod:`._lexer`, :mod:`._arith`, :mod:`._normalize` -- reading commands;
- :mod:`._poly`, :mod:`._keep`, :mod:`._chains` -- fast exact distributions;
- :mod:`._limits` -- every bound, :mod:`._roller` -- dice handed out in BCDice's order.

Command modules are imported on first use, so ``import saikoro.dice`` stays light.

>>> odds("4D6KH3").distribution[18]
Fraction(7, 432)
"""

from __future__ import annotations

from ._api import odds, roll
from ._arith import ArithZeroDivisionError
from ._dist import Dist
from ._errors import (
    DiceError,
    DiceExhaustedError,
    DiceMismatchError,
    DistributionError,
    GivenDiceError,
    InternalError,
    LimitError,
    ParseError,
    SaikoroError,
)
from ._extension import Extension
from ._result import Odds, Roll
from ._source import DiceSource

__all__ = [
    "ArithZeroDivisionError",
    "DiceError",
    "DiceExhaustedError",
    "DiceMismatchError",
    "DiceSource",
    "Dist",
    "DistributionError",
    "Extension",
    "GivenDiceError",
    "InternalError",
    "LimitError",
    "Odds",
    "ParseError",
    "Roll",
    "SaikoroError",
    "odds",
    "roll",
]
