"""A small declarative schema language: one definition gives validation, JSON Schema
and the field reference.

Each type checks a :class:`~saikoro.scenario._loader.Node` (recording problems in a
:class:`Ctx`, with positions) and returns the plain value, or :data:`INVALID`.

Containers (lists, mappings) are in :mod:`saikoro.scenario._containers`.

>>> from saikoro.scenario._loader import load_yaml
>>> ctx = Ctx("s.yaml")
>>> Int(1, 999).check(load_yaml(b"hp: forty\\n", "s.yaml").get("hp"), "scenario.hp", ctx)
<invalid>
>>> print(ctx.problems[0].format())
s.yaml:1:5: error: scenario.hp: expected an integer between 1 and 999, got 'forty'
>>> Int(1, 999).json_schema()
{'type': 'integer', 'minimum': 1, 'maximum': 999}
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._loader import Node
from ._problems import Msg, Problem, show_value

__all__ = [
    "INVALID",
    "Bool",
    "Check",
    "Choice",
    "Ctx",
    "Enum",
    "Int",
    "IntOrRange",
    "Str",
    "Tolerant",
    "Type",
    "bool_hint",
    "did_you_mean",
]


class _Invalid:
    def __repr__(self) -> str:
        return "<invalid>"

    def __bool__(self) -> bool:
        return False


INVALID: Any = _Invalid()
"""Returned by :meth:`Type.check` for a value with problems."""


def did_you_mean(word: str, choices: list[str] | tuple[str, ...]) -> Msg | None:
    """A did-you-mean hint when ``word`` is close to one of ``choices``.

    >>> did_you_mean("hpp", ["hp", "ap"])
    Msg(code='hint.did_you_mean', args=("'hp'",))
    """
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return Msg("hint.did_you_mean", (show_value(close[0]),)) if close else None


@dataclass
class Ctx:
    """Validation state: the file, the problems found, nodes by path and extra context."""

    file: str
    problems: list[Problem] = field(default_factory=list)
    nodes: dict[str, Node] = field(default_factory=dict)
    system: Any = None
    options: dict[str, Any] = field(default_factory=dict)
    partial: dict[str, Any] = field(default_factory=dict)
    """Path -> what is valid of an invalid container (see :class:`Tolerant`)."""
    folder: Path | None = None
    """The folder of the scenario file, when it is a file on disk: what it names (images)
    is looked for there. ``None``: text validated without a file, nothing is read."""

    def error(self, node: Node, path: str, msg: Msg, hint: Msg | None = None) -> None:
        """Record an error at ``node``."""
        self.problems.append(Problem(self.file, node.line, node.column, "error", path, msg, hint))

    def warning(self, node: Node, path: str, msg: Msg, hint: Msg | None = None) -> None:
        """Record a warning at ``node``."""
        self.problems.append(Problem(self.file, node.line, node.column, "warning", path, msg, hint))

    def wrong(self, node: Node, path: str, expected: Msg, hint: Msg | None = None) -> Any:
        """Record "expected X, got Y" and return :data:`INVALID`."""
        got = show_value(node.value) if node.kind == "scalar" else Msg(f"v.{node.kind}")
        self.error(node, path, Msg("type", (expected, got)), hint)
        return INVALID


Check = Callable[[Any, Node, str, "Ctx"], None]
"""A semantic check run on a validated value: (value, node, path, ctx)."""


@dataclass(frozen=True)
class Tolerant:
    """A check that also runs on the valid part of a value with errors elsewhere.

    A container's checks run once all of it is valid, which would report a file's
    problems in rounds (an unknown id in a side mission only after a typo in an enemy
    is fixed). A tolerant check runs on the partial value too: a mapping's valid fields
    and a list's items, where an invalid item is its own partial value (a mapping's
    valid fields) or :data:`INVALID`. It must then skip what it cannot be sure of.
    """

    check: Check

    def __call__(self, value: Any, node: Node, path: str, ctx: Ctx) -> None:
        self.check(value, node, path, ctx)


class Type:
    """Base of the schema types."""

    def expected(self) -> Msg:
        """What a value of this type is, for messages."""
        raise NotImplementedError

    def check(self, node: Node, path: str, ctx: Ctx) -> Any:
        """Validate ``node``; the plain value or :data:`INVALID`."""
        raise NotImplementedError

    def json_schema(self) -> dict[str, Any]:
        """The JSON Schema (draft 2020-12) of this type."""
        raise NotImplementedError

    def doc(self) -> dict[str, Any]:
        """A structured description for the field reference."""
        return {"type": self.json_schema().get("type", "any"), "expected": self.expected()}


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ufffe\uffff]")
"""Characters refused in one-line text: every control character (a tab and a line break
too: they belong to multi-line fields), the line and paragraph separators, and
U+FFFE/U+FFFF, which XML 1.0 cannot carry (the ユドナリウム export is XML)."""
_CONTROL_MULTI = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ufffe\uffff]")
"""Characters refused in multi-line (Markdown) text: the control characters but tab and
newline, and U+FFFE/U+FFFF."""
_LINE_BREAKS = {"\t": "tab", "\n": "newline", "\u2028": "line_separator", "\u2029": "paragraph"}
"""The characters of multi-line text that a one-line field refuses, by message key."""


def _bad_char(char: str, at: int, *, multi: bool) -> tuple[Msg, Msg | None]:
    """The message (and hint) for a character ``Str`` refuses, at character ``at``."""
    code = f"U+{ord(char):04X}"
    if char in "\ufffe\uffff":
        return Msg("noncharacter", (code, at)), None
    if not multi and char in _LINE_BREAKS:
        return Msg("one_line_char", (Msg(f"char.{_LINE_BREAKS[char]}"), code, at)), Msg(
            "hint.one_line"
        )
    return Msg("control_char", (code, at)), None


@dataclass(frozen=True)
class Str(Type):
    """A string, optionally matching ``pattern`` (described by ``pattern_msg``)."""

    max_length: int = 2000
    pattern: str | None = None
    pattern_msg: Msg | None = None
    markdown: bool = False
    suggest: tuple[str, ...] = ()

    def expected(self) -> Msg:
        return self.pattern_msg or Msg("t.str")

    def check(self, node: Node, path: str, ctx: Ctx) -> Any:
        if node.kind != "scalar" or not isinstance(node.value, str):
            return ctx.wrong(node, path, self.expected())
        value: str = node.value
        text = value if self.markdown else value.rstrip("\n")  # a block scalar's last newline
        bad = (_CONTROL_MULTI if self.markdown else _CONTROL).search(text)
        if bad is not None:
            msg, hint = _bad_char(bad.group(), bad.start() + 1, multi=self.markdown)
            ctx.error(node, path, msg, hint)
            return INVALID
        if not value.strip():
            ctx.error(node, path, Msg("empty_str"))
            return INVALID
        if len(value) > self.max_length:
            ctx.error(node, path, Msg("too_long", (self.max_length, len(value))))
            return INVALID
        if self.pattern and not re.fullmatch(self.pattern, value):
            return ctx.wrong(node, path, self.expected(), did_you_mean(value, self.suggest))
        return value

    def json_schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": self.max_length}
        if self.pattern:
            out["pattern"] = f"^(?:{self.pattern})$"
        else:
            out["pattern"] = r"\S"
        return out

    def doc(self) -> dict[str, Any]:
        return {"type": "markdown" if self.markdown else "string", "expected": self.expected()}


@dataclass(frozen=True)
class Int(Type):
    """An integer between ``low`` and ``high`` (inclusive)."""

    low: int
    high: int

    def expected(self) -> Msg:
        return Msg("t.int_range", (self.low, self.high))

    def check(self, node: Node, path: str, ctx: Ctx) -> Any:
        value = node.value
        if node.kind != "scalar" or isinstance(value, bool) or not isinstance(value, int):
            return ctx.wrong(node, path, self.expected())
        if not self.low <= value <= self.high:
            return ctx.wrong(node, path, self.expected())
        return value

    def json_schema(self) -> dict[str, Any]:
        return {"type": "integer", "minimum": self.low, "maximum": self.high}


_YAML11_BOOLS = {
    **dict.fromkeys(("yes", "y", "on"), "true"),
    **dict.fromkeys(("no", "n", "off"), "false"),
}


def bool_hint(value: object) -> Msg | None:
    """The fix for a YAML 1.1 boolean word (``yes``, ``on``...): text in YAML 1.2.

    >>> bool_hint("Yes"), bool_hint("maybe")
    (Msg(code='hint.yaml12_bool', args=("'Yes'", 'true')), None)
    """
    if not isinstance(value, str):
        return None
    meant = _YAML11_BOOLS.get(value.lower())
    return None if meant is None else Msg("hint.yaml12_bool", (show_value(value), meant))


@dataclass(frozen=True)
class Bool(Type):
    """``true`` or ``false``."""

    def expected(self) -> Msg:
        return Msg("t.bool")

    def check(self, node: Node, path: str, ctx: Ctx) -> Any:
        if node.kind != "scalar" or not isinstance(node.value, bool):
            hint = bool_hint(node.value) if node.kind == "scalar" else None
            return ctx.wrong(node, path, self.expected(), hint)
        return node.value

    def json_schema(self) -> dict[str, Any]:
        return {"type": "boolean"}


@dataclass(frozen=True)
class Choice:
    """One allowed value of an :class:`Enum`, with its meaning in both languages."""

    value: str
    ja: str
    en: str


@dataclass(frozen=True)
class Enum(Type):
    """One of a fixed set of strings."""

    choices: tuple[Choice, ...]

    @property
    def values(self) -> tuple[str, ...]:
        """The allowed values."""
        return tuple(c.value for c in self.choices)

    def expected(self) -> Msg:
        return Msg("t.enum", (" | ".join(self.values),))

    def check(self, node: Node, path: str, ctx: Ctx) -> Any:
        if (
            node.kind != "scalar"
            or node.value not in self.values
            or not isinstance(node.value, str)
        ):
            hint = did_you_mean(str(node.value), self.values) if node.kind == "scalar" else None
            return ctx.wrong(node, path, self.expected(), hint)
        return node.value

    def json_schema(self) -> dict[str, Any]:
        return {"type": "string", "enum": list(self.values)}

    def doc(self) -> dict[str, Any]:
        return {
            "type": "enum",
            "expected": self.expected(),
            "choices": [{"value": c.value, "ja": c.ja, "en": c.en} for c in self.choices],
        }


RANGE_SEPARATORS = "-~〜～"
"""What may stand between a range's ends: ``2-3``, ``2~3``, ``2〜3`` (wave dash) and ``2～3``
(full-width tilde, what Windows' IME types for 〜) mean the same."""
_RANGE_TEXT = rf"-?\d{{1,6}}\s*[{RANGE_SEPARATORS}]\s*-?\d{{1,6}}"
_RANGE = re.compile(rf"(-?\d{{1,6}})\s*[{RANGE_SEPARATORS}]\s*(-?\d{{1,6}})")


@dataclass(frozen=True)
class IntOrRange(Type):
    """An integer or a range ``"A-B"`` (A <= B), both within ``low``..``high``.

    The value is the integer, or the range as ``"A-B"`` whichever separator it was
    written with (``3〜5`` is ``"3-5"``); :meth:`bounds` reads it.
    """

    low: int
    high: int

    def expected(self) -> Msg:
        return Msg("t.int_or_range", (self.low, self.high))

    @staticmethod
    def bounds(value: int | str) -> tuple[int, int]:
        """``(A, B)`` of an int or an ``"A-B"`` text.

        >>> IntOrRange.bounds("0-1"), IntOrRange.bounds(3), IntOrRange.bounds("2〜3")
        ((0, 1), (3, 3), (2, 3))
        """
        if isinstance(value, int):
            return value, value
        if re.fullmatch(r"-?\d{1,6}", value.strip()):
            return int(value), int(value)
        m = _RANGE.fullmatch(value.strip())
        if m is None:
            raise ValueError(value)
        return int(m.group(1)), int(m.group(2))

    def check(self, node: Node, path: str, ctx: Ctx) -> Any:
        value = node.value
        if node.kind != "scalar" or isinstance(value, bool) or not isinstance(value, int | str):
            return ctx.wrong(node, path, self.expected())
        try:
            low, high = self.bounds(value)
        except ValueError:
            return ctx.wrong(node, path, self.expected())
        if low > high:
            ctx.error(
                node, path, Msg("range_order", (low, high)), Msg("hint.range_order", (high, low))
            )
            return INVALID
        if low < self.low or high > self.high:
            return ctx.wrong(node, path, self.expected())
        if isinstance(value, str) and _RANGE.fullmatch(value.strip()):
            return f"{low}-{high}"
        return value

    def json_schema(self) -> dict[str, Any]:
        return {
            "oneOf": [
                {"type": "integer", "minimum": self.low, "maximum": self.high},
                {"type": "string", "pattern": f"^(?:-?\\d{{1,6}}|{_RANGE_TEXT})$"},
            ]
        }

    def doc(self) -> dict[str, Any]:
        return {"type": "int-or-range", "expected": self.expected()}
