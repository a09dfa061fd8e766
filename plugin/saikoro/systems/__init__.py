"""The rule systems, registered by id and alias.

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

from saikoro.dice.errors import SaikoroError

from .base import Board, CommandDoc, OptionError, OptionValue, Ruling, System
from .flow import Edge, Flow, FlowError, Step, StepKind

__all__ = [
    "SYSTEM_IDS",
    "Board",
    "CommandDoc",
    "Edge",
    "Flow",
    "FlowError",
    "OptionError",
    "OptionValue",
    "Ruling",
    "Step",
    "StepKind",
    "System",
    "UnknownSystemError",
    "all_systems",
    "get",
]

SYSTEM_IDS = ("akatsuki", "cutaction", "getb", "kegare", "kokuryoku")
"""Every registered system id; each lives in the module of the same name."""


class UnknownSystemError(SaikoroError, ValueError):
    """No system has that id or alias."""


_classes: dict[str, type[System]] = {}


def _load(system_id: str) -> type[System]:
    cls = _classes.get(system_id)
    if cls is None:
        module = importlib.import_module(f"{__name__}.{system_id}")
        cls = module.SYSTEM
        _classes[system_id] = cls
    return cls


def _key(name: str) -> str:
    return unicodedata.normalize("NFKC", name).strip().casefold().replace(" ", "")


def all_systems() -> list[type[System]]:
    """Every system class, in id order."""
    return [_load(i) for i in SYSTEM_IDS]


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
    system_id = key if key in SYSTEM_IDS else _index().get(key)
    if system_id is None:
        import difflib

        index = _index()
        close = difflib.get_close_matches(key, list(index), n=1)
        known = ", ".join(SYSTEM_IDS)
        hint = f"; did you mean {index[close[0]]!r}?" if close else f"; known: {known}"
        raise UnknownSystemError(f"unknown system {name!r}{hint}")
    return _load(system_id)(**options)
