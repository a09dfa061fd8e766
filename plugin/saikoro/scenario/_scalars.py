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
"""Integers of this many decimal digits or more are refused (they are never sane game
numbers): the value counts, whatever its notation -- ``0x`` or ``0o`` digits, leading zeros
or an ``!!int`` tag on a quoted text -- so no integer the loader gives ever has more."""
_INT_LIMIT = 10**MAX_INT_DIGITS
_DIGITS = {10: re.compile(r"[0-9]+"), 8: re.compile(r"[0-7]+"), 16: re.compile(r"[0-9a-fA-F]+")}

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

    A value of :data:`MAX_INT_DIGITS` decimal digits or more is a problem, found before
    anything long is converted (Python refuses decimal texts of thousands of digits).

    >>> core_int("010"), core_int("0o17"), core_int("-0x1F"), core_int("+3")
    (10, 15, -31, 3)
    >>> core_int("0" * 5000 + "7"), core_int("0x" + "f" * 4000).code, core_int("1_0").code
    (7, 'load.int_big', 'load.bad_scalar')
    """
    text = value.strip()
    sign = -1 if text[:1] == "-" else 1
    digits = text[1:] if text[:1] in ("-", "+") else text
    base = {"0o": 8, "0O": 8, "0x": 16, "0X": 16}.get(digits[:2], 10)
    body = digits[2:] if base != 10 else digits
    if _DIGITS[base].fullmatch(body) is None:
        return Msg("load.bad_scalar", (show_value(value), Msg("t.int")))
    significant = body.lstrip("0") or "0"
    # a value of 10**60 or more has at least 50 hexadecimal digits: 4x that is never small
    if len(significant) > 4 * MAX_INT_DIGITS:
        return Msg("load.int_big", (MAX_INT_DIGITS,))
    number = int(significant, base)
    if number >= _INT_LIMIT:
        return Msg("load.int_big", (MAX_INT_DIGITS,))
    return sign * number


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
