"""saikoro: exact dice odds and rules for Japanese tabletop RPGs.

``roll`` and ``odds`` accept BCDice's generic commands and, with ``system=``, the
commands of one of the five rule systems in :mod:`saikoro.systems`.

This module, :mod:`saikoro.dice` and :mod:`saikoro.systems` use only the standard
library: they are the files shipped to the browser.

Errors
------
Every error saikoro raises on purpose is a :class:`SaikoroError`; each also keeps a
standard base (shown in brackets), so ``except ValueError`` still works::

    SaikoroError
    ├── DiceError [ValueError]              a command that cannot be rolled (saikoro.dice)
    │   ├── ParseError                      malformed command
    │   │   └── ArithZeroDivisionError      division by zero in the arithmetic
    │   ├── LimitError                      beyond a bound (dice, sides, work)
    │   ├── DiceMismatchError               a supplied die with other sides
    │   ├── DiceExhaustedError              the supplied dice ran out
    │   └── CutActionError                  cut-action value outside its rules
    ├── UnknownSystemError [ValueError]     no system has that name (saikoro.systems)
    ├── RegistryError [ValueError]          a registered system whose parts cannot be found
    ├── OptionError [ValueError]            an unknown ruling option or value
    ├── FlowError [ValueError]              a procedure with a dangling step
    ├── BoardError, CostError [ValueError]  GETB board cells, AP costs
    ├── CardError, CheckSpecError [ValueError]  Akatsuki cards and check parameters
    ├── LoadError [ValueError]              a scenario file that cannot be read (saikoro.scenario)
    ├── TacticsError [ValueError]           an unknown tactic for the simulator (saikoro.balance)
    ├── RollerAssetError [ValueError]       a missing or changed roller asset (saikoro.site)
    ├── CorruptCacheError [ValueError]      a balance cache file to recompute (caught inside)
    ├── VendorError [RuntimeError]          the bundled Pyodide/Mermaid files are missing
    └── BookExistsError [FileExistsError]   ``saikoro new`` into a folder that has a book

>>> issubclass(DiceError, SaikoroError)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .dice import DiceError, Odds, Roll, SaikoroError
from .dice import api as _api

if TYPE_CHECKING:
    import random

    from .systems import OptionValue, System

__all__ = [
    "DiceError",
    "Odds",
    "Roll",
    "SaikoroError",
    "__version__",
    "get_system",
    "odds",
    "roll",
]

__version__ = "0.2.0"
"""The package's version (the only place it is written; pyproject.toml reads it)."""


def get_system(name: str | System, **options: OptionValue) -> System:
    """The system named ``name`` with ``options`` (see :func:`saikoro.systems.get`).

    Systems are imported on first use so that ``import saikoro`` stays light.
    """
    from .systems import get

    return get(name, **options)


def _system(system: str | System | None) -> System | None:
    if system is None:
        return None
    from .systems import System

    if isinstance(system, System):
        return system
    return get_system(system)


def roll(
    command: str,
    *,
    system: str | System | None = None,
    dice: Iterable[tuple[int, int]] | None = None,
    rng: random.Random | None = None,
) -> Roll | None:
    """Roll ``command`` and return the :class:`Roll`, or ``None`` if it is not a command.

    Args:
        command: a BCDice-style command (``2D6>=7``), optionally followed by a comment.
        system: a system id or alias (``getb``), or a configured :class:`System`.
        dice: ``(sides, value)`` pairs handed out in order instead of random dice.
        rng: a ``random.Random`` to draw from (ignored when ``dice`` is given).

    >>> roll("2D6>=7", dice=[(6, 3), (6, 4)]).text
    '(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功'
    """
    return _api.roll(command, extension=_system(system), dice=dice, rng=rng)


def odds(command: str, *, system: str | System | None = None) -> Odds | None:
    """Exact :class:`Odds` of ``command``, or ``None`` if it is not a command.

    >>> odds("2D6>=7").success
    Fraction(7, 12)
    """
    return _api.odds(command, extension=_system(system))
