"""saikoro: exact dice odds and rules for Japanese tabletop RPGs.

``roll`` and ``odds`` accept BCDice's generic commands and, with ``system=``, the
commands of one of the five rule systems in :mod:`saikoro.systems`.

This module, :mod:`saikoro.dice` and :mod:`saikoro.systems` use only the standard
library: they are the files shipped to the browser.

Public API
----------
What users import is in this module and in the ``__init__`` of these packages; every
other module is private, named with a leading underscore (``saikoro.dice._lexer``,
``saikoro.systems._getb``): it may change in any release. ``tests/test_api_inventory.py``
checks the surface against a list kept with the code.

``saikoro``
    ``roll``, ``odds``, ``get_system``, ``Roll``, ``Odds``, the error root.
``saikoro.dice``
    The generic engine: ``roll``/``odds`` with an ``Extension``, ``Dist``, ``DiceSource``.
``saikoro.systems``
    The registry (``get``, ``SYSTEM_IDS``, ``BUILTIN``, the ``saikoro.systems`` entry
    points) and what a system is made of: ``System``, ``Ruling``, ``CommandDoc``,
    ``Flow``/``Step``/``Edge``, ``Board``.
``saikoro.scenario`` and ``saikoro.scenario.model``
    Validation (``load_scenario``, ``validate_text``, ``json_schema``), the typed model
    whose classes declare a system's keys (``model``, ``key``), and the definition
    vocabulary of its scenarios (``scenario_root``, ``Int``, ``Enum``...).
``saikoro.export``
    VTT characters and chat palettes (ココフォリア, ユドナリウム).
``saikoro.balance``
    The encounter simulator (``simulate``, ``encounter``, ``verdict``).
``saikoro.tune``
    What to change so a scenario meets its ``balance.win`` (``tune``, ``TuneResult``).
``saikoro.site``
    The MkDocs plugin (``SaikoroPlugin``, entry point ``saikoro``) and a system's page
    profile (``Profile``, ``Grid``, ``Metric``).

A system outside saikoro is a package of its own: its ``System`` subclass names its
scenario definition, model, page profile and VTT export, each built from the names
above, and one ``saikoro.systems`` entry point registers it.

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
    │   └── GivenDiceError                  dice= that is not (sides, value) pairs of integers
    ├── DistributionError [ValueError]      a Dist that no distribution is (saikoro.dice)
    ├── InternalError [AssertionError]      a bug in saikoro (a broken invariant); never caught
    ├── UnknownSystemError [ValueError]     no system has that name (saikoro.systems)
    ├── RegistryError [ValueError]          a registered system whose parts cannot be found
    ├── OptionError [ValueError]            an unknown ruling option or value
    ├── FlowError [ValueError]              a procedure with a dangling step
    ├── RulesError [ValueError]             what the rules do not have (a poison level of 6)
    ├── LoadError [ValueError]              a scenario file that cannot be read (saikoro.scenario)
    ├── ExportError [ValueError]            text a VTT's format cannot carry (saikoro.export)
    ├── BalanceError [ValueError]           an encounter the simulator cannot play (saikoro.balance)
    ├── TacticsError [ValueError]           an unknown tactic for the simulator
    ├── RollerAssetError [ValueError]       a missing or changed roller asset (saikoro.site)
    └── VendorError [RuntimeError]          the bundled MicroPython/Mermaid files are missing

A system's own errors derive from :class:`~saikoro.systems.RulesError` or
:class:`DiceError`, so the two catch them: GETB's ``BoardError`` (cells) and ``CostError``
(AP costs), akatsuki's ``CardError`` and ``CheckSpecError``, cut-action's
``CutActionError`` (a value outside its rules). Some errors never leave saikoro: the
command line reports ``BookError`` and ``BookExistsError`` (``saikoro new`` with no
system, or into a folder that holds a book), ``DocsFolderError`` (``saikoro docs --build``
into a folder it did not write) and ``PdfError`` (``saikoro pdf`` that cannot print) as
messages, the build recomputes a file that
raises ``CorruptCacheError``, an exact solver's ``OutOfBudget`` (or ``Cycle``, a step
machine whose state leads back to itself) makes the runner report a figure as simulated
only, and a file read refused as ``NotRegularFileError`` (a FIFO, a device) or
``FileTooLargeError`` is reported as a problem of that file. A balance cache
folder that cannot be used (``CacheError``) is a note from validate and a build error
naming the option; a ``SAIKORO_FAIL_ON_MISS`` that is neither true nor false
(``SettingError``) is a usage error. The site reports a malformed own-value placeholder
of a ``dice`` fence (``OwnValueError``) as a warning at its line, and an engine module
the browser's MicroPython cannot run (``LoweringError``) as a build error naming the file.

>>> issubclass(DiceError, SaikoroError)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .dice import DiceError, Odds, Roll, SaikoroError
from .dice import odds as _odds
from .dice import roll as _roll

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
        system: a system id or alias (``getb``), or a configured :class:`~saikoro.systems.System`.
        dice: ``(sides, value)`` pairs handed out in order instead of random dice.
        rng: a ``random.Random`` to draw from (ignored when ``dice`` is given).

    >>> roll("2D6>=7", dice=[(6, 3), (6, 4)]).text
    '(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功'
    """
    return _roll(command, extension=_system(system), dice=dice, rng=rng)


def odds(command: str, *, system: str | System | None = None) -> Odds | None:
    """Exact :class:`Odds` of ``command``, or ``None`` if it is not a command.

    >>> odds("2D6>=7").success
    Fraction(7, 12)
    """
    return _odds(command, extension=_system(system))
