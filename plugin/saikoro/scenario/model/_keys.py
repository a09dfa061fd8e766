"""A scenario's keys, declared once: the model's typed fields, with what validation needs.

A model class (:func:`model`) declares each key of the scenario as a field with
:func:`key`: its name and Python type (the annotation), its default (the field's) and the
rest of its definition (the type's bounds, choices or pattern as a ``kind``, the list's
sizes, its words). :func:`fields_of` turns the class into the definition's
:class:`~saikoro.scenario.Field` s: the name, required or not and the default come from the
dataclass field; the type from the annotation (``tuple[X, ...]`` a list, ``Mapping[str, X]``
a mapping, a model class its own keys, ``X | None`` an optional key) with ``kind`` for
its values; a ``bool`` needs no ``kind``.

>>> from saikoro.scenario import NAME, Int
>>> from saikoro.scenario.model import Model
>>> @model
... class Pc(Model):
...     name: str = key(kind=NAME, ja="名前", en="name")
...     hp: int = key(kind=Int(1, 99), default=10, ja="HP", en="hit points")
...     ranged: bool = key(default=False, ja="遠距離", en="ranged")
>>> [(f.name, f.required, f.default, type(f.type).__name__) for f in fields_of(Pc)]
[('name', True, None, 'Str'), ('hp', False, 10, 'Int'), ('ranged', False, False, 'Bool')]

A subclass narrows a key by declaring it again: the words, ``kind`` and sizes it leaves
out are its base's (a plain ``= ()`` keeps them all, with the narrower type).
"""

from __future__ import annotations

import dataclasses
import functools
import operator
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass
from typing import Any, TypedDict, TypeVar, Union, Unpack, dataclass_transform, overload

from saikoro.scenario._common import Scalar
from saikoro.scenario._containers import Field, ListOf, MapOf, Obj
from saikoro.scenario._schema import Bool, Check, Choice, Enum, Int, IntOrRange, Str, Type, WinRange

__all__ = ["KeyOptions", "choices_of", "fields_of", "key", "model", "obj_of"]

_KEY = "saikoro.key"
"""The metadata entry of a dataclass field that holds its :class:`KeyOptions`."""


class KeyOptions(TypedDict, total=False):
    """What :func:`key` takes besides the default: each one given is the key's own, each
    one left out its base class's (when a subclass declares the key again)."""

    kind: Type
    """The type of the value (``Int(1, 99)``, ``NAME``, ``Enum(...)``), of a list's items or a
    mapping's values; none for a ``bool`` or a model class."""
    ja: str
    """What the key is, in Japanese (the field reference, the JSON Schema's description)."""
    en: str
    """What the key is, in English."""
    keys: Type
    """A mapping's keys (``Str(max_length=20)``)."""
    min_items: int
    """A list's fewest items."""
    max_items: int
    """A list's or a mapping's most items."""
    checks: tuple[Check, ...]
    """Checks run on the whole list or mapping."""
    required: bool
    """Whether the file must give the key, where that is not "the field has no default": a
    key the loader fills in (the scenario's ``id``, from the file name)."""
    file_default: Any
    """What the loader fills in for an absent key, where that is not the field's default (a
    key some systems lack: the field's default is theirs)."""
    last: bool
    """Listed after the keys a subclass adds (an enemy's ``notes``)."""


T = TypeVar("T")
C = TypeVar("C", bound=type)


@overload
def key(*, default: T, **options: Unpack[KeyOptions]) -> T: ...
@overload
def key(*, default_factory: Callable[[], T], **options: Unpack[KeyOptions]) -> T: ...
@overload
def key(**options: Unpack[KeyOptions]) -> Any: ...
def key(*, default: Any = MISSING, default_factory: Any = MISSING, **options: Any) -> Any:
    """A key of the scenario: a field of a :func:`model` class (no default: required)."""
    unknown = set(options) - set(KeyOptions.__annotations__)
    if unknown:
        raise TypeError(f"key() got unknown options {sorted(unknown)}")
    return dataclasses.field(
        default=default, default_factory=default_factory, metadata={_KEY: options}
    )


@dataclass_transform(
    kw_only_default=True, frozen_default=True, field_specifiers=(dataclasses.field, key)
)
def model(cls: C) -> C:
    """A model class: a frozen, slotted dataclass of keyword-only fields (type checkers read
    :func:`key` as a field: a key without a default is a required argument)."""
    return typing.cast("C", dataclass(frozen=True, slots=True, kw_only=True)(cls))


def _options(cls: type, name: str) -> KeyOptions | None:
    """The :class:`KeyOptions` of ``cls``'s field ``name``, merged down its bases (``None``:
    not a key)."""
    merged: dict[str, Any] | None = None
    for base in reversed(cls.__mro__):
        own = vars(base).get("__dataclass_fields__", {}).get(name)
        if own is None or name not in vars(base).get("__annotations__", {}):
            continue
        given = own.metadata.get(_KEY)
        if given is not None:
            merged = {**(merged or {}), **given}
    return typing.cast("KeyOptions | None", merged)


_PYTHON: tuple[tuple[object, tuple[type[Type], ...]], ...] = (
    (bool, (Bool,)),
    (int, (Int,)),
    (str, (Str, Enum, WinRange)),
    (int | str, (IntOrRange,)),
    (bool | int | str, (Scalar,)),
)
"""The Python type of the values of each of saikoro's scalar types."""


def _name(hint: object) -> str:
    return hint.__name__ if isinstance(hint, type) else str(hint)


def _scalar(hint: object, options: KeyOptions, where: str) -> Type:
    kind = options.get("kind")
    if kind is None:
        if hint is bool:
            return Bool()
        raise TypeError(f"{where}: a key of {_name(hint)} needs a kind (bounds, choices, pattern)")
    for python, kinds in _PYTHON:
        if isinstance(kind, kinds) and hint != python:
            raise TypeError(
                f"{where}: annotated {_name(hint)}, but its kind {type(kind).__name__} holds "
                f"{_name(python)}"
            )
    return kind


def _without_none(hint: object) -> tuple[object, bool]:
    """``hint`` without ``None``, and whether it allowed ``None``."""
    if typing.get_origin(hint) not in (Union, types.UnionType):
        return hint, False
    args = tuple(a for a in typing.get_args(hint) if a is not type(None))
    if len(args) == len(typing.get_args(hint)):
        return hint, False
    return functools.reduce(operator.or_, args), True


class _Derive:
    """What :func:`obj_of` is told once and uses at every depth."""

    def __init__(
        self,
        checks: Mapping[type, tuple[Check, ...]],
        using: Mapping[type, Type],
        reached: set[type],
    ):
        self.checks = checks
        self.using = using
        self.reached = reached

    def value(self, hint: object, options: KeyOptions, where: str) -> Type:
        origin = typing.get_origin(hint)
        sizes: dict[str, Any] = {}
        if "max_items" in options:
            sizes["max_items"] = options["max_items"]
        if "checks" in options:
            sizes["checks"] = options["checks"]
        if origin is tuple:
            item = self.value(typing.get_args(hint)[0], options, where)
            if "min_items" in options:
                sizes["min_items"] = options["min_items"]
            return ListOf(item, **sizes)
        if origin is Mapping:
            if "keys" not in options:
                raise TypeError(f"{where}: a mapping key needs the type of its keys")
            value = self.value(typing.get_args(hint)[1], options, where)
            return MapOf(options["keys"], value, **sizes)
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            return self.obj(hint)
        return _scalar(hint, options, where)

    def obj(self, cls: type) -> Type:
        found = self.using.get(cls)
        if found is not None:
            return found
        return Obj(self.fields(cls), checks=self.checks.get(cls, ()))

    def fields(self, cls: type, without: tuple[str, ...] = ()) -> tuple[Field, ...]:
        self.reached.add(cls)
        hints = typing.get_type_hints(cls)
        first: list[Field] = []
        last: list[Field] = []
        for f in dataclasses.fields(cls):
            options = _options(cls, f.name)
            if options is None or f.name in without:
                continue
            where = f"{cls.__name__}.{f.name}"
            hint, optional = _without_none(hints[f.name])
            kind = self.value(hint, options, where)
            has_default = f.default is not MISSING or f.default_factory is not MISSING
            required = options.get("required", not has_default)
            if required and optional:
                raise TypeError(f"{where}: a required key cannot be None")
            default = options.get("file_default", _file_default(f) if has_default else None)
            field = Field(
                f.name,
                kind,
                required=required,
                default=default,
                ja=options.get("ja", ""),
                en=options.get("en", ""),
            )
            (last if options.get("last") else first).append(field)
        return (*first, *last)


def _file_default(f: dataclasses.Field[Any]) -> object:
    """The definition's default of a field with one: ``list`` for an empty tuple, ``dict``
    for an empty mapping or a model object (its keys' defaults), the value otherwise."""
    value = f.default if f.default_factory is MISSING else f.default_factory()
    if value == ():
        return list
    if isinstance(value, Mapping) and not value:
        return dict
    if dataclasses.is_dataclass(value):
        return dict
    return value


def fields_of(
    cls: type,
    *,
    checks: Mapping[type, tuple[Check, ...]] | None = None,
    using: Mapping[type, Type] | None = None,
    without: tuple[str, ...] = (),
    reached: set[type] | None = None,
) -> tuple[Field, ...]:
    """The definition's fields of the model class ``cls``: one per field declared with
    :func:`key`, in the class's order (the ``last`` ones after the rest), those named in
    ``without`` left out.

    A model class inside a key (an item, a value, a nested mapping) is defined by its own
    keys with ``checks[cls]``, or is ``using[cls]`` when given. ``reached`` gets every class
    defined by its keys (``cls`` too).

    Raises:
        TypeError: a key's annotation and its ``kind`` disagree, a scalar key has no
            ``kind``, a mapping no ``keys`` (a mistake in the model, at import).
    """
    return _Derive(checks or {}, using or {}, set() if reached is None else reached).fields(
        cls, without
    )


def obj_of(
    cls: type,
    *,
    checks: Mapping[type, tuple[Check, ...]] | None = None,
    using: Mapping[type, Type] | None = None,
    without: tuple[str, ...] = (),
) -> Obj:
    """The definition of the model class ``cls`` (see :func:`fields_of`), with the checks
    ``checks[cls]``."""
    found = checks or {}
    return Obj(
        fields_of(cls, checks=found, using=using, without=without), checks=found.get(cls, ())
    )


def choices_of(cls: type) -> tuple[Choice, ...]:
    """The keys of ``cls`` as an :class:`~saikoro.scenario.Enum`'s choices (its words): a
    check that names one of an object's keys (``check: strength``)."""
    return tuple(Choice(f.name, f.ja, f.en) for f in fields_of(cls))
