"""The rule systems, registered by id and alias: the one registry of every system.

A system is registered once, by id: the built-in ones in :data:`BUILTIN`, those of
installed packages through the :data:`ENTRY_POINT_GROUP` entry points. Its class
(:class:`System`) is the engine; its package (the one the class is defined in) is what
the browser's roller runs, and holds beside it the parts above the engine, found by name
with :meth:`System.part` (:data:`System.PARTS`): ``scenario`` (its scenario definition),
``model``, ``page`` (its page profile), ``vtt`` (its VTT export) and ``simulator``, which
:mod:`saikoro.scenario`, :mod:`saikoro.site`, :mod:`saikoro.export` and
:mod:`saikoro.balance` find through it (this package imports none of them: it is shipped
to the browser with :mod:`saikoro.dice` alone, and so is an installed system's package,
its parts left out).

Every system package has the same layout (checked by ``tests/test_system_layout.py``),
so a reader who knows one system knows where everything is in the others:

``__init__.py``
    The :class:`System` subclass and ``SYSTEM = ThatClass``; its ``settings`` property is
    ``Settings.from_options(self.options)`` and its ``roll_command`` / ``odds_command``
    hand the command to ``commands`` with those settings.
``rulings.py``
    ``RULINGS`` (every :class:`Ruling`, options included) and ``Settings``: a frozen
    dataclass of what the commands read, whose defaults are the rulings' defaults;
    ``Settings.from_options(options)`` builds it for the options in force.
``reference.py``
    ``COMMANDS``: the documented commands (:class:`CommandDoc`) the site lists.
``commands.py`` (or a ``commands/`` package)
    Command text to results: ``roll_command(command, source, settings) -> Roll | None``
    and ``odds_command(command, settings) -> Odds | None`` (``None``: not this system's
    command). When one module would pass about 400 lines, ``commands/`` holds topic
    modules named like the rules modules (``checks``, ``damage``, ``chase``, ``attack``,
    ``status``; ``common`` for what they share) and its ``__init__`` dispatches.
``checks.py``
    The pure rules maths of checks (outcomes and exact distributions), no command text.
``flows.py`` (or a ``flows/`` package)
    ``FLOWS`` (or ``flows()``): the procedures drawn as flowcharts; a ``flows/`` package
    has topic modules (``battle``, ``attack``, ``checks``) and ``common`` like ``commands/``.
topic modules
    Optional, named by the rules they implement: ``board``, ``damage``, ``chase``,
    ``cards``, ``status``, ``states``…
the parts above the engine (:data:`System.PARTS`)
    ``scenario.py``, ``model.py``, ``page.py``, ``vtt.py`` and ``simulator`` (a module or a
    package), which may import the rest of saikoro; the engine never imports them.

>>> get("getb").id
'getb'
>>> get("ゴッドイーター").id
'getb'
>>> get("nope")
Traceback (most recent call last):
...
saikoro.systems.UnknownSystemError: unknown system 'nope'; known: ...
"""

from __future__ import annotations

import importlib
import unicodedata
from collections.abc import Mapping
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING

from saikoro.dice import SaikoroError

from ._base import (
    FAN_WORK,
    Board,
    CommandDoc,
    OptionError,
    OptionValue,
    RegistryError,
    RightsNotice,
    RulesError,
    Ruling,
    System,
)
from ._flow import Edge, Flow, FlowError, Step, StepKind

__all__ = [
    "BUILTIN",
    "ENTRY_POINT_GROUP",
    "FAN_WORK",
    "SYSTEM_IDS",
    "Board",
    "CommandDoc",
    "Edge",
    "Flow",
    "FlowError",
    "OptionError",
    "OptionValue",
    "RegistryError",
    "RightsNotice",
    "RulesError",
    "Ruling",
    "Step",
    "StepKind",
    "System",
    "UnknownSystemError",
    "all_systems",
    "get",
    "registered",
    "registry",
    "system_class",
]

BUILTIN: Mapping[str, str] = MappingProxyType(
    {
        "akatsuki": "saikoro.systems._akatsuki",
        "cutaction": "saikoro.systems._cutaction",
        "getb": "saikoro.systems._getb",
        "kegare": "saikoro.systems._kegare",
        "kokuryoku": "saikoro.systems._kokuryoku",
    }
)
"""The systems saikoro ships: id -> the module whose ``SYSTEM`` is the system's class.

A system in this package is one line here. Its package holds the rest of the system
(:meth:`System.part`).
"""

ENTRY_POINT_GROUP = "saikoro.systems"
"""The entry-point group through which an installed package adds systems.

One line in that package's ``pyproject.toml`` registers one system; the value is a
module (whose ``SYSTEM`` is the class) or ``module:Class``::

    [project.entry-points."saikoro.systems"]
    toy = "saikoro_toy"
"""

SYSTEM_IDS: tuple[str, ...]
"""Every registered system id, sorted (computed on first use: see :func:`registry`)."""


class UnknownSystemError(SaikoroError, ValueError):
    """No system has that id or alias.

    ``str(error)`` is the English message; ``error.ja`` the same in Japanese."""

    def __init__(self, message: str, *, ja: str = "") -> None:
        super().__init__(message)
        self.ja = ja or message


@cache
def registry() -> Mapping[str, str]:
    """Every registered system: id -> where its class is (``module`` or ``module:Class``).

    The built-in systems (:data:`BUILTIN`) and those of installed packages
    (:data:`ENTRY_POINT_GROUP`); read once per process, on first use, so that rolling
    with a built-in system never scans the installed packages.

    Raises:
        RegistryError: two different registrations claim one id.
    """
    from importlib.metadata import entry_points

    found = dict(BUILTIN)
    for point in entry_points(group=ENTRY_POINT_GROUP):
        known = found.get(point.name)
        if known is not None and known != point.value:
            raise RegistryError(
                f"system id {point.name!r} is registered twice: {known!r} and "
                f"{point.value!r} (entry point {ENTRY_POINT_GROUP!r})"
            )
        found[point.name] = point.value
    return MappingProxyType(dict(sorted(found.items())))


def registered(system_id: object) -> bool:
    """Whether ``system_id`` is a registered system's id: a built-in id without reading the
    installed packages' entry points (:func:`registry`), which only another id needs."""
    return system_id in BUILTIN or system_id in registry()


if not TYPE_CHECKING:

    def __getattr__(name: str) -> object:
        if name == "SYSTEM_IDS":
            return tuple(registry())
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_classes: dict[str, type[System]] = {}


def _load(system_id: str) -> type[System]:
    cls = _classes.get(system_id)
    if cls is None:
        where = BUILTIN.get(system_id) or registry()[system_id]
        module_name, _, attribute = where.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise  # the module is there but imports something missing: a bug in it
            raise RegistryError(f"system {system_id!r}: no module {module_name!r}") from error
        found = getattr(module, attribute or "SYSTEM", None)
        if not (isinstance(found, type) and issubclass(found, System)):
            raise RegistryError(f"system {system_id!r}: {where} is not a System subclass")
        if found.id != system_id:
            raise RegistryError(
                f"system {system_id!r}: {where} is the class of {found.id!r}, not {system_id!r}"
            )
        cls = found
        _classes[system_id] = cls
    return cls


def system_class(system_id: str) -> type[System]:
    """The class of the system registered as ``system_id`` (an id, not an alias).

    Raises:
        UnknownSystemError: no system is registered under ``system_id``.
        RegistryError: the registration does not lead to that system's class.
    """
    if not registered(system_id):
        raise UnknownSystemError(
            f"unknown system id {system_id!r}", ja=f"システム {system_id!r} はありません"
        )
    return _load(system_id)


def _key(name: str) -> str:
    return unicodedata.normalize("NFKC", name).strip().casefold().replace(" ", "")


def all_systems() -> list[type[System]]:
    """Every system class, in id order."""
    return [_load(i) for i in registry()]


def _index() -> dict[str, str]:
    index: dict[str, str] = {}
    for cls in all_systems():
        for name in (cls.id, cls.name, *cls.aliases):
            index[_key(name)] = cls.id
    return index


def get(name: str | System, **options: OptionValue) -> System:
    """The system named ``name`` (id, name or alias), with ``options`` applied."""
    if isinstance(name, System):
        return name.with_options(**options) if options else name
    key = _key(name)
    system_id = key if registered(key) else _index().get(key)
    if system_id is None:
        import difflib

        index = _index()
        close = difflib.get_close_matches(key, list(index), n=1)
        known = ", ".join(registry())
        hint = f"; did you mean {index[close[0]]!r}?" if close else f"; known: {known}"
        hint_ja = f"（{index[close[0]]!r} のことですか?）" if close else f"（使えるもの: {known}）"
        shown = name if len(name) <= 40 else name[:37] + "..."
        raise UnknownSystemError(
            f"unknown system {shown!r}{hint}", ja=f"システム {shown!r} はありません{hint_ja}"
        )
    return _load(system_id)(**options)
