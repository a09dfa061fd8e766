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
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ._loader import Node
from ._patterns import int_range, ordered
from ._problems import Msg, Problem, render, show_value
from ._ranges import parse_win_range

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
    "WinRange",
    "bool_hint",
    "did_you_mean",
    "fullwidth_hint",
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
    notes: list[Problem] = field(default_factory=list)
    """How values were read (``note`` severity), apart from the problems."""
    folder: Path | None = None
    """The folder of the scenario file, when it is a file on disk: what it names (images)
    is looked for there. ``None``: text validated without a file, nothing is read."""

    def error(self, node: Node, path: str, msg: Msg, hint: Msg | None = None) -> None:
        """Record an error at ``node``."""
        self.problems.append(Problem(self.file, node.line, node.column, "error", path, msg, hint))

    def warning(self, node: Node, path: str, msg: Msg, hint: Msg | None = None) -> None:
        """Record a warning at ``node``."""
        self.problems.append(Problem(self.file, node.line, node.column, "warning", path, msg, hint))

    def note(self, node: Node, path: str, msg: Msg) -> None:
        """Record how the value at ``node`` was read (a note, not a problem)."""
        self.notes.append(Problem(self.file, node.line, node.column, "note", path, msg))

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
            hint = fullwidth_hint(value, self._fits) if node.kind == "scalar" else None
            return ctx.wrong(node, path, self.expected(), hint)
        if not self.low <= value <= self.high:
            return ctx.wrong(node, path, self.expected())
        return value

    def _fits(self, text: str) -> bool:
        return bool(re.fullmatch(r"[-+]?[0-9]{1,60}", text)) and self.low <= int(text) <= self.high

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


_ALIAS_MAX = 12
"""The longest Japanese label accepted in place of its value (longer labels are
descriptions, not names)."""


@dataclass(frozen=True)
class Enum(Type):
    """One of a fixed set of strings.

    The Japanese label a choice documents is accepted in its place and read as its value
    (``kind: 攻撃`` is ``attack``; a label with an explanation in brackets, by the words
    before them: ``遠距離(攻撃判定に互いに-4)`` is ``遠距離``), when it names one choice only.

    >>> far = Choice("far", "遠距離(攻撃判定に互いに-4)", "far")
    >>> Enum((Choice("attack", "攻撃", "attack"), far)).aliases
    {'攻撃': 'attack', '遠距離': 'far'}
    """

    choices: tuple[Choice, ...]

    @property
    def values(self) -> tuple[str, ...]:
        """The allowed values."""
        return tuple(c.value for c in self.choices)

    @cached_property
    def aliases(self) -> dict[str, str]:
        """Japanese label -> the value it stands for (unambiguous labels only)."""
        found: dict[str, list[str]] = {}
        for c in self.choices:
            head = re.split(r"[(（]", c.ja, maxsplit=1)[0].strip()
            for label in dict.fromkeys((c.ja.strip(), head)):
                if label and len(label) <= _ALIAS_MAX and label != c.value:
                    found.setdefault(label, []).append(c.value)
        values = set(self.values)
        return {
            label: owners[0]
            for label, owners in found.items()
            if len(set(owners)) == 1 and label not in values
        }

    def expected(self) -> Msg:
        return Msg("t.enum", (" | ".join(self.values),))

    def check(self, node: Node, path: str, ctx: Ctx) -> Any:
        value = node.value
        if node.kind == "scalar" and isinstance(value, str):
            if value in self.values:
                return value
            meant = self.aliases.get(value.strip())
            if meant is not None:
                return meant
        hint = None
        if node.kind == "scalar":
            words = (*self.values, *self.aliases)
            close = difflib.get_close_matches(str(value), words, n=1, cutoff=0.6)
            if close:
                meant = self.aliases.get(close[0], close[0])
                hint = Msg("hint.did_you_mean", (show_value(meant),))
        return ctx.wrong(node, path, self.expected(), hint)

    def json_schema(self) -> dict[str, Any]:
        return {"type": "string", "enum": [*self.values, *self.aliases]}

    def doc(self) -> dict[str, Any]:
        return {
            "type": "enum",
            "expected": self.expected(),
            "choices": [
                {
                    "value": c.value,
                    "ja": c.ja,
                    "en": c.en,
                    "aliases": [a for a, v in self.aliases.items() if v == c.value],
                }
                for c in self.choices
            ],
        }


RANGE_SEPARATORS = "-~〜～"
"""What may stand between a range's ends: ``2-3``, ``2~3``, ``2〜3`` (wave dash) and ``2～3``
(full-width tilde, what Windows' IME types for 〜) mean the same."""
_SEP = rf"\s*[{RANGE_SEPARATORS}]\s*"
_RANGE = re.compile(rf"(-?[0-9]{{1,6}}){_SEP}(-?[0-9]{{1,6}})")
_UNSIGNED_RANGE = re.compile(rf"([0-9]{{1,6}}){_SEP}([0-9]{{1,6}})")
_NUMBER = re.compile(r"-?[0-9]{1,6}")
_UNSIGNED = re.compile(r"[0-9]{1,6}")


def fullwidth_hint(value: object, valid: Callable[[str], bool]) -> Msg | None:
    """The fix for a value written with full-width digits or signs (``４０``, ``３〜５``):
    its half-width form, when that is ``valid``.

    >>> fullwidth_hint("４０", str.isascii)
    Msg(code='hint.fullwidth', args=('40',))
    >>> fullwidth_hint("forty", str.isascii) is None
    True
    """
    if not isinstance(value, str):
        return None
    fixed = unicodedata.normalize("NFKC", value).strip()
    if fixed == value.strip() or not valid(fixed):
        return None
    return Msg("hint.fullwidth", (fixed,))


@dataclass(frozen=True)
class IntOrRange(Type):
    """An integer or a range ``"A-B"`` (A <= B), both within ``low``..``high``.

    The value is the integer, or the range as ``"A-B"`` whichever separator it was
    written with (``3〜5`` is ``"3-5"``); :meth:`bounds` reads it. Digits are ASCII (a
    full-width ``３〜５`` gets the half-width form as a hint); a minus sign only where
    ``low`` is negative.
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
        if _NUMBER.fullmatch(value.strip()):
            return int(value), int(value)
        m = _RANGE.fullmatch(value.strip())
        if m is None:
            raise ValueError(value)
        return int(m.group(1)), int(m.group(2))

    def _written(self, text: str) -> bool:
        """Whether ``text`` is written as this type's text forms are (ASCII digits, a
        sign only where negative values are allowed)."""
        if self.low < 0:
            return bool(_NUMBER.fullmatch(text.strip()) or _RANGE.fullmatch(text.strip()))
        return bool(_UNSIGNED.fullmatch(text.strip()) or _UNSIGNED_RANGE.fullmatch(text.strip()))

    def _fits(self, text: str) -> bool:
        if not self._written(text):
            return False
        low, high = self.bounds(text)
        return self.low <= low <= high <= self.high

    def check(self, node: Node, path: str, ctx: Ctx) -> Any:
        value = node.value
        if node.kind != "scalar" or isinstance(value, bool) or not isinstance(value, int | str):
            return ctx.wrong(node, path, self.expected())
        if isinstance(value, str) and not self._written(value):
            return ctx.wrong(node, path, self.expected(), fullwidth_hint(value, self._fits))
        low, high = self.bounds(value)
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
        """One schema for both forms: ``minimum`` and ``maximum`` hold for an integer,
        the patterns (the shape, each end within the bounds, the low end first) for a text,
        so an editor names what is wrong with either."""
        if self.low < 0:  # no such field: the text forms' shape only
            shape = rf"^\s*(?:-?[0-9]{{1,6}}|-?[0-9]{{1,6}}{_SEP}-?[0-9]{{1,6}})\s*$"
            return {
                "type": ["integer", "string"],
                "minimum": self.low,
                "maximum": self.high,
                "pattern": shape,
            }
        number = int_range(self.low, self.high)
        digits = len(str(self.high))
        message = render(self.expected(), "ja") + "。範囲は小さい方を先に"
        patterns = (
            rf"^\s*(?:[0-9]{{1,6}}|[0-9]{{1,6}}{_SEP}[0-9]{{1,6}})\s*$",
            rf"^\s*(?:{number}|{number}{_SEP}{number})\s*$",
            rf"^\s*(?:[0-9]+|{ordered(_SEP, digits=digits)})\s*$",
        )
        return {
            "type": ["integer", "string"],
            "minimum": self.low,
            "maximum": self.high,
            "allOf": [{"pattern": p, "patternErrorMessage": message} for p in patterns],
        }

    def doc(self) -> dict[str, Any]:
        return {"type": "int-or-range", "expected": self.expected()}


_WIN_NUMBER = r"[0-9]{1,3}(?:\.[0-9]+)?"
_WIN_HIGH = r"(?:(?:[0-9]{1,2}|0[0-9]{2})(?:\.[0-9]+)?|100(?:\.0+)?)"
_WIN_SEP = rf"\s*%?{_SEP}"


@dataclass(frozen=True)
class WinRange(Type):
    """A win-rate range, ``60%-90%``: low first, at most 100 % (ASCII digits; a full-width
    ``６０％〜９０％`` gets the half-width form as a hint). :func:`parse_win_range` reads it."""

    max_length: int = 40

    def expected(self) -> Msg:
        return Msg("t.win_range")

    def check(self, node: Node, path: str, ctx: Ctx) -> Any:
        value = node.value
        if node.kind != "scalar" or not isinstance(value, str) or len(value) > self.max_length:
            return ctx.wrong(node, path, self.expected())
        if parse_win_range(value) is None:
            hint = fullwidth_hint(value, lambda text: parse_win_range(text) is not None)
            ctx.error(node, path, Msg("balance.win_range", (show_value(value),)), hint)
            return INVALID
        return value

    def json_schema(self) -> dict[str, Any]:
        message = render(Msg("balance.win_range", ("…",)), "ja").removesuffix("。値: …")
        ordered_text = ordered(_WIN_SEP, digits=3, b_tail=r"\s*%", decimals=True)
        return {
            "type": "string",
            "maxLength": self.max_length,
            "allOf": [
                {
                    "pattern": rf"^\s*{_WIN_NUMBER}{_WIN_SEP}{_WIN_HIGH}\s*%\s*$",
                    "patternErrorMessage": message,
                },
                {"pattern": rf"^\s*{ordered_text}\s*$", "patternErrorMessage": message},
            ],
        }

    def doc(self) -> dict[str, Any]:
        return {"type": "string", "expected": self.expected()}
