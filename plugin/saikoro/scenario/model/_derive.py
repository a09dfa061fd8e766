"""Model classes for a system that declares none, derived from its scenario definition.

A system registered from an installed package (or a test's toy system) has a scenario
definition but no hand-written model: its classes are made here with
:func:`dataclasses.make_dataclass`, on the common bases (:class:`Enemy`, :class:`PC`,
:class:`DifficultyTarget`, :class:`ScenarioModel`), every field it adds typed ``object``
and built by its definition (nested mappings become derived objects too).
"""

from __future__ import annotations

import dataclasses
from typing import TypeVar

from saikoro.scenario.containers import ListOf, Obj

from ._build import Model
from .common import PC, DifficultyTarget, Enemy, ScenarioModel

__all__ = ["derived_class", "derived_scenario"]

M = TypeVar("M", bound=Model)
_LISTS: dict[str, type[Model]] = {
    "enemies": Enemy,
    "difficulty_targets": DifficultyTarget,
    "party": PC,
}
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


def derived_scenario(system_id: str, root: Obj) -> type[ScenarioModel]:
    """The model class of ``system_id``'s scenarios, from its definition ``root``."""
    title = system_id.title().replace("-", "").replace("_", "")
    overrides: list[tuple[str, object, object]] = []
    for key, base in _LISTS.items():
        kind = next((f.type for f in root.fields if f.name == key), None)
        if isinstance(kind, ListOf) and isinstance(kind.item, Obj):
            item = derived_class(base, kind.item, f"{title}{base.__name__}")
            default = None if key == "party" else ()
            overrides.append((key, tuple[item, ...], dataclasses.field(default=default)))  # type: ignore[valid-type]
    have = {f.name for f in dataclasses.fields(ScenarioModel)}
    overrides += [
        (f.name, object, dataclasses.field(default=None)) for f in root.fields if f.name not in have
    ]
    made: type[ScenarioModel] = dataclasses.make_dataclass(
        f"{title}Scenario", overrides, bases=(ScenarioModel,), frozen=True, slots=True, kw_only=True
    )
    return made
