"""The YAML 1.2 core schema: which plain scalars are typed, and how a scalar is read.

PyYAML resolves plain scalars by YAML 1.1; :class:`CoreLoader` types only the 1.2 core
forms and :func:`scalar_value` reads a composed scalar node into its Python value (or
the problem with it), within :data:`MAX_SCALAR` characters.

>>> core_int("010"), core_float("-.inf")
(10, -inf)
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

import yaml

from ._problems import Msg, show_value

__all__ = [
    "CORE",
    "MAP",
    "MAX_INT_DIGITS",
    "MAX_SCALAR",
    "MERGE",
    "SCALAR_TAGS",
    "SEQ",
    "STR",
    "CoreLoader",
    "core_float",
    "core_int",
    "scalar_value",
]

MAX_SCALAR = 100_000
"""Maximum characters of one scalar."""
MAX_INT_DIGITS = 60
"""Integers with more digits than this are refused (they are never sane game numbers)."""

CORE = "tag:yaml.org,2002:"
SCALAR_TAGS = {f"{CORE}{t}" for t in ("str", "int", "float", "bool", "null", "timestamp", "value")}
STR, SEQ, MAP, MERGE = (f"{CORE}{t}" for t in ("str", "seq", "map", "merge"))
_BaseLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class CoreLoader(_BaseLoader):  # type: ignore[misc]
    """PyYAML's safe loader with the YAML 1.2 core schema's implicit types.

    PyYAML resolves plain scalars by YAML 1.1: ``1:20`` is 80 (base 60), ``010`` is 8
    (octal), ``on``/``yes`` are true and dates become timestamps. A scenario means what
    it shows, so only the 1.2 core forms are typed here (``null``/``~``, ``true``/``false``,
    decimal, ``0o`` and ``0x`` integers, floats); everything else is text.
    """

    yaml_implicit_resolvers: ClassVar[dict[str, list[tuple[str, re.Pattern[str]]]]] = {}


def _core(tag: str, pattern: str, first: str, *, empty: bool = False) -> None:
    regexp = re.compile(pattern, re.X)
    for ch in [*first, ""] if empty else first:
        CoreLoader.yaml_implicit_resolvers.setdefault(ch, []).append((f"{CORE}{tag}", regexp))


_core("null", r"^(?:~|null|Null|NULL|)$", "~nN", empty=True)
_core("bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF")
_core("int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789")
_core(
    "float",
    r"""^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?
    |[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$""",
    "-+.0123456789",
)
_core("merge", r"^(?:<<)$", "<")


def scalar_value(ynode: Any) -> Any:
    """The Python value of a composed scalar node, or a problem Msg."""
    value: str = ynode.value
    tag: str = ynode.tag
    if tag == STR:
        if len(value) <= MAX_SCALAR:
            return value
        return Msg("load.scalar_big", (len(value), MAX_SCALAR))
    if tag not in SCALAR_TAGS:
        return Msg("load.tag", (tag,))
    if len(value) > MAX_SCALAR:
        return Msg("load.scalar_big", (len(value), MAX_SCALAR))
    if tag == f"{CORE}int":
        if sum(c.isdigit() for c in value) > MAX_INT_DIGITS:
            return Msg("load.int_big", (MAX_INT_DIGITS,))
        return core_int(value)
    if tag == f"{CORE}float":
        return core_float(value)
    if tag == f"{CORE}bool":
        low = value.lower()
        if low in ("true", "false"):
            return low == "true"
        return Msg("load.bad_scalar", (show_value(value), Msg("t.bool")))
    if tag == f"{CORE}null":
        return None
    return value  # timestamps and '=' are kept as text


def core_int(value: str) -> int | Msg:
    """An integer as YAML 1.2 reads it: decimal (leading zeros are decimal), ``0o``, ``0x``.

    >>> core_int("010"), core_int("0o17"), core_int("-0x1F"), core_int("+3")
    (10, 15, -31, 3)
    """
    text = value.strip()
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-")
    try:
        if digits[:2] in ("0o", "0O"):
            return sign * int(digits[2:], 8)
        if digits[:2] in ("0x", "0X"):
            return sign * int(digits[2:], 16)
        return sign * int(digits, 10)
    except ValueError:
        return Msg("load.bad_scalar", (show_value(value), Msg("t.int")))


def core_float(value: str) -> float | Msg:
    """A float as YAML 1.2 reads it (``.inf``, ``-.inf``, ``.nan`` included)."""
    low = value.lower()
    if low.lstrip("+-") == ".inf":
        return float("-inf") if low.startswith("-") else float("inf")
    if low == ".nan":
        return float("nan")
    try:
        return float(value)
    except ValueError:
        return Msg("load.bad_scalar", (show_value(value), Msg("t.float")))
