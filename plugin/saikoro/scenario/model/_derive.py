"""Model classes for nested mappings a model class does not type, from their definition.

A field of a model typed ``object`` whose definition is a mapping (an :class:`Obj`) is
built as an object of a class made here with :func:`dataclasses.make_dataclass`, every
key typed ``object`` and built by its definition.
"""

from __future__ import annotations

import dataclasses
from typing import TypeVar

from saikoro.scenario._containers import Obj

from ._build import Model

__all__ = ["derived_class"]

M = TypeVar("M", bound=Model)
_MADE: dict[int, tuple[Obj, type[Model]]] = {}


def derived_class(base: type[M], kind: Obj, name: str) -> type[M]:
    """A frozen slotted subclass of ``base`` with ``kind``'s other keys (cached per ``kind``)."""
    found = _MADE.get(id(kind))
    if found is not None and found[0] is kind and issubclass(found[1], base):
        return found[1]
    have = {f.name for f in dataclasses.fields(base)}
    extra = [
        (f.name, object, dataclasses.field(default=None)) for f in kind.fields if f.name not in have
    ]
    made: type[M] = dataclasses.make_dataclass(
        name, extra, bases=(base,), frozen=True, slots=True, kw_only=True
    )
    _MADE[id(kind)] = (kind, made)
    return made
