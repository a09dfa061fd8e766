"""Building the typed model from validated data, guided by the scenario definitions.

The dataclasses of :mod:`saikoro.scenario.model` declare the keys the definitions
(:mod:`saikoro.scenario._defs`) are made of (:mod:`._keys`); :func:`build` walks a class
and its definition side by side. A key the data leaves out gets the definition's default
(:class:`saikoro.scenario.Field` ``default``, the class's own), or ``None`` when the
definition has none. Lists become tuples and free
mappings read-only mappings, so the whole model is immutable. A class whose ``EXTRA``
names one of its mapping fields (:class:`~saikoro.scenario.model.SideCheck`'s ``facts``)
gets there the defined keys it does not name itself (keys a system adds).

>>> from saikoro.scenario._containers import Field, Obj
>>> from saikoro.scenario._schema import Int
>>> @dataclass(frozen=True, slots=True, kw_only=True)
... class Pair(Model):
...     a: int
...     b: int | None = None
>>> p = build(Pair, Obj((Field("a", Int(0, 9)), Field("b", Int(0, 9), default=3))), {"a": 1})
>>> p, p.b, to_data(p)
(Pair(a=1, b=3), 3, {'a': 1, 'b': 3})
"""

from __future__ import annotations

import copyreg
import dataclasses
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar, Union, get_args, get_origin

from saikoro.scenario._containers import ListOf, MapOf, Obj
from saikoro.scenario._loader import join_path
from saikoro.scenario._schema import Type

__all__ = [
    "NOWHERE",
    "Model",
    "Position",
    "build",
    "hints_of",
    "to_data",
]


def read_only(items: dict[object, object]) -> Mapping[object, object]:
    """A read-only view of ``items`` (what the model's mappings are)."""
    return types.MappingProxyType(items)


def _reduce_mapping(
    m: types.MappingProxyType[object, object],
) -> tuple[object, tuple[dict[object, object]]]:
    return read_only, (dict(m),)


# Model mappings are read-only views; pickling them (the simulator sends encounters to its
# worker processes) rebuilds the view over a copy of its dict.
copyreg.pickle(types.MappingProxyType, _reduce_mapping)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Position:
    """Where a value is written: file, 1-based line and column (0, 0: not from a file)."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


NOWHERE = Position("", 0, 0)
"""The position of objects not read from a file."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Model:
    """The base of every model object: ``where`` it is written (not compared, not shown)."""

    where: Position = dataclasses.field(default=NOWHERE, compare=False, repr=False)


M = TypeVar("M", bound=Model)

Positions = Mapping[str, tuple[int, int]]


_HINTS: dict[type, dict[str, object]] = {}


def hints_of(cls: type) -> dict[str, object]:
    """``typing.get_type_hints(cls)``, computed once per class (it evaluates every
    annotation's text again on each call)."""
    found = _HINTS.get(cls)
    if found is None:
        found = _HINTS[cls] = typing.get_type_hints(cls)
    return found


def _strip_none(hint: object) -> object:
    if get_origin(hint) in (Union, types.UnionType):
        args = [a for a in get_args(hint) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return hint


def _value(hint: object, kind: Type, value: object, path: str, ctx: _Ctx) -> object:
    if value is None:
        return None
    hint = _strip_none(hint)
    origin = get_origin(hint)
    if isinstance(hint, type) and issubclass(hint, Model):
        if not isinstance(kind, Obj) or not isinstance(value, Mapping):
            raise TypeError(f"{path}: {hint.__name__} needs a mapping definition and value")
        return ctx.obj(hint, kind, value, path)
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise TypeError(f"{path}: expected a list, got {type(value).__name__}")
        item = get_args(hint)[0]
        inner = kind.item if isinstance(kind, ListOf) else kind
        return tuple(_value(item, inner, v, join_path(path, i), ctx) for i, v in enumerate(value))
    if origin in (Mapping, dict) or hint is Mapping:
        if not isinstance(value, Mapping):
            raise TypeError(f"{path}: expected a mapping, got {type(value).__name__}")
        item = get_args(hint)[1]
        inner = kind.value if isinstance(kind, MapOf) else kind
        return types.MappingProxyType(
            {str(k): _value(item, inner, v, join_path(path, str(k)), ctx) for k, v in value.items()}
        )
    if hint is object:  # a field its model class leaves untyped
        return _untyped(kind, value, path, ctx)
    return value


def _untyped(kind: Type, value: object, path: str, ctx: _Ctx) -> object:
    """``value`` shaped by its definition alone: objects derived, lists as tuples."""
    if isinstance(kind, Obj) and isinstance(value, Mapping):
        from ._derive import derived_class

        return ctx.obj(derived_class(Model, kind, "Derived"), kind, value, path)
    if isinstance(kind, ListOf) and isinstance(value, list | tuple):
        return tuple(_untyped(kind.item, v, join_path(path, i), ctx) for i, v in enumerate(value))
    if isinstance(kind, MapOf) and isinstance(value, Mapping):
        return types.MappingProxyType(
            {
                str(k): _untyped(kind.value, v, join_path(path, str(k)), ctx)
                for k, v in value.items()
            }
        )
    return value


@dataclass(frozen=True)
class _Ctx:
    file: str
    positions: Positions

    def where(self, path: str) -> Position:
        """The position of ``path``, or of its nearest enclosing key (a default filled in)."""
        while path not in self.positions and path != "scenario":
            path = path[: max(path.rfind("."), path.rfind("["))]
        found = self.positions.get(path)
        return NOWHERE if found is None else Position(self.file, *found)

    def obj(self, cls: type[M], kind: Obj, data: Mapping[str, object], path: str) -> M:
        hints = hints_of(cls)
        names = {f.name for f in kind.fields}
        fields = [f for f in dataclasses.fields(cls) if f.name != "where"]
        extra = getattr(cls, "EXTRA", "")
        missing = names - {f.name for f in fields}
        if missing and not extra:
            raise TypeError(f"{cls.__name__} lacks the defined keys {sorted(missing)}")
        values: dict[str, object] = {}
        for f in fields:
            if f.name == extra:  # the defined keys the class does not name, by key
                values[f.name] = read_only(
                    {
                        k: _untyped(kind.field(k).type, data[k], join_path(path, k), self)
                        for k in sorted(missing)
                        if k in data
                    }
                )
                continue
            if f.name not in names:  # a key other systems have (``balance.defeat``)
                if f.default is not None:
                    raise TypeError(f"{cls.__name__}.{f.name} is not a key of its definition")
                values[f.name] = None
                continue
            defined = kind.field(f.name)
            if f.name in data:
                raw = data[f.name]
            elif defined.default is not None:
                raw = defined.default() if callable(defined.default) else defined.default
            elif defined.required:
                raise TypeError(f"{path}: required key {f.name!r} is missing")
            else:
                raw = None
            values[f.name] = _value(
                hints[f.name], defined.type, raw, join_path(path, f.name), ctx=self
            )
        return cls(where=self.where(path), **values)


def build(
    cls: type[M],
    kind: Obj,
    data: Mapping[str, object],
    *,
    file: str = "",
    path: str = "scenario",
    positions: Positions | None = None,
) -> M:
    """``cls`` built from validated ``data`` described by ``kind`` (defaults filled in).

    ``positions`` (key path -> line, column, as
    :attr:`saikoro.scenario.Scenario.positions`) give every object its :class:`Position` in
    ``file``.

    Raises:
        TypeError: the class and the definition disagree (a key missing on either side),
            or a required key is missing: a bug in saikoro, not a scenario problem.
    """
    return _Ctx(file, positions or {}).obj(cls, kind, data, path)


def to_data(value: object) -> object:
    """The plain data of a model value (dicts, lists, scalars; ``None`` fields left out).

    For a model built from validated data this is the validated data again.
    """
    if isinstance(value, Model):
        extra = getattr(value, "EXTRA", "")
        out = {
            f.name: to_data(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if f.name not in {"where", extra} and getattr(value, f.name) is not None
        }
        if extra:  # the keys it holds by key are the model's own keys in the data
            out.update((str(k), to_data(v)) for k, v in getattr(value, extra).items())
        return out
    if isinstance(value, tuple):
        return [to_data(v) for v in value]
    if isinstance(value, Mapping):
        return {k: to_data(v) for k, v in value.items()}
    return value
