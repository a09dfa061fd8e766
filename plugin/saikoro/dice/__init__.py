"""saikoro's dice engine: BCDice's generic commands, rolled and computed exactly.

Standard library only: these files are also shipped to the browser (Pyodide).

- :mod:`.api` -- ``roll`` and ``odds``: normalisation, the extension hook, repeats;
- :mod:`.add_dice` / :mod:`.add_nodes` -- sums ``2D6+1``, keep/drop, ``MAX``/``MIN``;
- :mod:`.barabara` ``B``, :mod:`.reroll` ``R``, :mod:`.upper` ``U``,
  :mod:`.choice`, :mod:`.simple` (``D66``, ``C(...)``, tallies ``TY``/``TZ``);
- :mod:`.lexer`, :mod:`.arith`, :mod:`.normalize` -- reading commands;
- :mod:`.poly`, :mod:`.keep`, :mod:`.chains` -- fast exact distributions;
- :mod:`.limits` -- every bound, :mod:`.roller` -- dice handed out in BCDice's order.

Command modules are imported on first use, so ``import saikoro.dice`` stays light.

>>> odds("4D6KH3").distribution[18]
Fraction(7, 432)
"""

from __future__ import annotations

from ._api import odds, roll
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
