"""saikoro's dice engine: BCDice's generic commands, rolled and computed exactly.

Standard library only: these files are also shipped to the browser (lowered for
MicroPython at build time, see ``saikoro.site._lowering``).

- :mod:`._api` -- ``roll`` and ``odds``: normalisation, the extension hook, repeats;
- :mod:`._add_dice` / :mod:`._add_nodes` -- sums ``2D6+1``, keep/drop, ``MAX``/``MIN``;
- :mod:`._barabara` ``B``, :mod:`._reroll` ``R``, :mod:`._upper` ``U``,
  :mod:`._choice`, :mod:`._simple` (``D66``, ``C(...)``, tallies ``TY``/``TZ``);
- :mod:`._lexer`, :mod:`._arith`, :mod:`._normalize` -- reading commands;
- :mod:`._poly`, :mod:`._keep`, :mod:`._chains` -- fast exact distributions;
- :mod:`._limits` -- every bound, :mod:`._roller` -- dice handed out in BCDice's order.

Command modules are imported on first use, so ``import saikoro.dice`` stays light.

What a system's engine builds on besides ``roll``/``odds``: :class:`Poly` (fast exact
integer distributions; products of pieces within :data:`ODDS_MAX_BITS`), exploding chains
(:func:`chain_power`, :func:`depth_for`, :func:`faces_poly`), BCDice's integer arithmetic
(:func:`parse_expression`) and exact numbers as text (:func:`fraction_text`,
:func:`digit_count`), beyond Python's limit on the digits of an ``int``.

>>> odds("4D6KH3").distribution[18]
Fraction(7, 432)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._api import odds, roll
from ._arith import ArithZeroDivisionError, parse_expression
from ._digits import digit_count, fraction_text
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
from ._limits import ODDS_MAX_BITS
from ._result import Odds, Roll
from ._source import DiceSource

if TYPE_CHECKING:
    from ._chains import chain_power, depth_for, faces_poly
    from ._poly import Poly

__all__ = [
    "ODDS_MAX_BITS",
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
    "Poly",
    "Roll",
    "SaikoroError",
    "chain_power",
    "depth_for",
    "digit_count",
    "faces_poly",
    "fraction_text",
    "odds",
    "parse_expression",
    "roll",
]

_LAZY = {
    "Poly": "._poly",
    "chain_power": "._chains",
    "depth_for": "._chains",
    "faces_poly": "._chains",
}
"""Names imported on first use, as the command modules that use them are."""


def __getattr__(name: str) -> object:
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(where, __name__), name)
