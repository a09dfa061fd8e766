"""What a YAML syntax error most likely is, read from the text around libyaml's mark.

libyaml names the grammar rule that failed, which is rarely the author's mistake:

* a key indented one space too deep continues the text of the line above, so libyaml
  sees a ``: `` inside a value (``mapping values are not allowed here``);
* a key indented one space too shallow fits no block (``did not find expected key`` or
  ``'-' indicator``);
* an unquoted ``: `` inside ``{…}`` ends the flow mapping early (``did not find expected
  ',' or '}'``).

Each reader here looks at the lines and returns the message (and the fix) naming what
is wrong on that line, or ``None`` when the text does not look like its case (the
generic translation of libyaml's words is used then).

>>> text = "a:\\n  b: 1\\n   c: 2\\n"
>>> over_indented(text, 3).msg
Msg(code='yaml.over_indent', args=("'c'", 3, "'b'", 2))
>>> flow_colon("x: {title: a, effect: 効果: 大}\\n", 1, 25).hint
Msg(code='hint.yaml.quote_value', args=('effect: "効果: 大"',))
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ._problems import Msg, show_value

__all__ = [
    "Finding",
    "flow_colon",
    "key_colon",
    "misaligned",
    "over_indented",
    "pulled_out",
    "value_colon",
    "wide_space",
]

_KEY = re.compile(
    r"(?P<lead>[ ]*(?:-[ ]+)*)(?P<key>[^\s#:'\"{}\[\],&*!|>%@`-][^:#]*?)[ ]*:(?:[ ]|$)"
)
"""A block key at the start of a line (after any ``- `` list indicators)."""
_KEY_WORD = re.compile(r"[a-z_][a-z0-9_]*")
"""What a scenario's keys look like (``agility``, ``side``)."""


@dataclass(frozen=True)
class Finding:
    """A syntax mistake: where it is (1-based), the message and the fix."""

    line: int
    column: int
    msg: Msg
    hint: Msg | None = None


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _key_at(line: str) -> tuple[int, str] | None:
    """(column of the key, the key) of a ``key:`` line (``- `` indicators skipped)."""
    m = _KEY.match(line)
    if m is None:
        return None
    return len(m.group("lead")), m.group("key").strip()


def _content(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


def _above(lines: list[str], row: int | None) -> int | None:
    """The index of the nearest line above ``row`` (0-based) that holds something."""
    for i in range((row or 0) - 1, -1, -1):
        if _content(lines[i]):
            return i
    return None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _indent_hint(key: str, column: int) -> Msg:
    if column == 0:
        return Msg("hint.yaml.unindent", (show_value(key),))
    return Msg("hint.yaml.indent_to", (show_value(key), column))


def over_indented(text: str, line: int) -> Finding | None:
    """A key on ``line`` indented deeper than the key above it, whose value is plain text.

    YAML reads such a line as more words of the value above (``check: agility target``)
    and then stumbles on its ``:``.
    """
    lines = _lines(text)
    if not 1 <= line <= len(lines):
        return None
    here = lines[line - 1]
    found = _key_at(here)
    above_row = _above(lines, line - 1)
    if found is None or above_row is None or here.lstrip().startswith("- "):
        return None
    column, key = found
    above = _key_at(lines[above_row])
    if above is None:
        return None
    above_column, above_key = above
    rest = lines[above_row].split(":", 1)[1].strip() if ":" in lines[above_row] else ""
    if column <= above_column or not rest or rest[0] in "|>":
        return None  # a new block after `key:`, or a block text: not this case
    return Finding(
        line,
        column + 1,
        Msg("yaml.over_indent", (show_value(key), column, show_value(above_key), above_column)),
        _indent_hint(key, above_column),
    )


def pulled_out(text: str, line: int) -> Finding | None:
    """A key shallower than the lines around it, whose value is plain text: the lines
    after it (``line`` among them) read as more of its value (``notes:`` moved to the
    start of the line inside an enemy). The mistake is the key's line, not ``line``.

    >>> text = "a:\\n  - id: x\\n    hp: 1\\nnotes: 夜\\n    ap: 2\\n"
    >>> found = pulled_out(text, 5)
    >>> found.line, found.msg
    (4, Msg(code='yaml.pulled_out', args=("'notes'", 0, 4)))
    """
    lines = _lines(text)
    if not 1 <= line <= len(lines) or not _content(lines[line - 1]):
        return None
    key_row = _above(lines, line - 1)
    if key_row is None:
        return None
    found = _key_at(lines[key_row])
    before = _above(lines, key_row)
    if found is None or before is None or _key_at(lines[before]) is None:
        return None
    column, key = found
    rest = lines[key_row].split(":", 1)[1].strip()
    if not rest or rest[0] in "|>\"'{[&*!" or _indent(lines[line - 1]) <= column:
        return None  # a block, quoted or flow value, or not a continuation: not this case
    beside = _indent(lines[before])
    if beside <= column or _KEY_WORD.fullmatch(key) is None:
        return None  # the key sits where the lines above it are: the next line is wrong
    block = set()  # the indents of the block the key interrupts
    row: int | None = key_row
    while (row := _above(lines, row)) is not None and _indent(lines[row]) > column:
        block.add(_indent(lines[row]))
    if _indent(lines[line - 1]) not in block:
        return None  # the next line does not go on with that block: it is the wrong one
    return Finding(
        key_row + 1,
        column + 1,
        Msg("yaml.pulled_out", (show_value(key), column, beside)),
        _indent_hint(key, beside),
    )


def misaligned(text: str, line: int) -> Finding | None:
    """A key on ``line`` indented less than the key above it but deeper than any block
    that key belongs to (3 spaces among keys at 4)."""
    lines = _lines(text)
    if not 1 <= line <= len(lines):
        return None
    here = lines[line - 1]
    found = _key_at(here)
    if found is None or not _content(here):
        return None
    column = _indent(here)
    key = found[1]
    levels: list[tuple[int, str]] = []  # the keys open above: the nearest, then outwards
    row: int | None = line - 1
    while (row := _above(lines, row)) is not None:
        above = _key_at(lines[row])
        if above is not None and (not levels or above[0] < levels[-1][0]):
            levels.append(above)
            if above[0] == 0:
                break
    if not levels or any(c == column for c, _ in levels):
        return None
    deeper = [lv for lv in levels if lv[0] > column]
    if not deeper:
        return None
    sibling_column, sibling = min(deeper)
    return Finding(
        line,
        column + 1,
        Msg("yaml.misaligned", (show_value(key), column, show_value(sibling), sibling_column)),
        _indent_hint(key, sibling_column),
    )


def _quoted(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def flow_colon(text: str, line: int, column: int) -> Finding | None:
    """An unquoted ``: `` inside a value of a ``{…}`` mapping (``{effect: 効果: 大}``)."""
    lines = _lines(text)
    if not 1 <= line <= len(lines):
        return None
    here = lines[line - 1]
    at = column - 1
    if here[at : at + 1] != ":" or "{" not in here[:at]:
        return None
    start = max(here.rfind(",", 0, at), here.rfind("{", 0, at)) + 1
    end_candidates = [i for i in (here.find(",", at), here.find("}", at)) if i >= 0]
    end = min(end_candidates) if end_candidates else len(here)
    pair = here[start:end].strip()
    key, sep, value = pair.partition(": ")
    if not sep or not key or ":" not in value:
        return None
    before, _, after = value.partition(":")
    words = before.rsplit(" ", 1)
    if len(words) == 2 and _KEY_WORD.fullmatch(words[1]):  # `{a: 3 b: 1}`: a missing comma
        at_word = here.index(words[1], here.index(value, start))
        return Finding(
            line,
            at_word + 1,
            Msg("yaml.flow_comma", (show_value(words[1]),)),
            Msg("hint.yaml.add_comma", (f"{key}: {words[0]}, {words[1]}:{after}",)),
        )
    return Finding(
        line,
        here.index(value, start) + 1 if value in here[start:] else column,
        Msg("yaml.flow_colon", (show_value(value),)),
        Msg("hint.yaml.quote_value", (f"{key}: {_quoted(value)}",)),
    )


def value_colon(text: str, line: int, column: int) -> Finding | None:
    """A ``: `` inside a plain value of a block key (``title: 霧: 序章``)."""
    lines = _lines(text)
    if not 1 <= line <= len(lines):
        return None
    here = lines[line - 1]
    found = _key_at(here)
    if found is None:
        return None
    key_end = here.find(":", found[0])
    if column - 1 <= key_end:
        return None
    value = here[key_end + 1 :].strip()
    if not value or value[0] in "'\"{[":
        return None
    comment = value.find(" #")
    value = value[:comment].rstrip() if comment >= 0 else value
    return Finding(
        line,
        key_end + 3 if here[key_end + 1 : key_end + 2] == " " else key_end + 2,
        Msg("yaml.value_colon", (show_value(value),)),
        Msg("hint.yaml.quote_value", (f"{found[1]}: {_quoted(value)}",)),
    )


_GLUED = re.compile(
    r"^(?P<lead>[ ]*(?:-[ ]+)*)(?P<key>[A-Za-z_][A-Za-z0-9_]*)"
    r"(?P<sep>:(?=\S)|[ ]*：[ ]*)(?P<value>.*)$"
)
"""``players:3`` (no space after the colon) or ``players：3`` (a full-width colon)."""


def key_colon(text: str, line: int) -> Finding | None:
    """A key whose ``:`` has no space after it, or is the full-width ``：``, on ``line`` or
    the line above it (libyaml notices only at the next line)."""
    lines = _lines(text)
    for row in (line - 1, line - 2):
        if not 0 <= row < len(lines):
            continue
        m = _GLUED.match(lines[row])
        if m is None:
            continue
        key, value = m.group("key"), m.group("value").strip()
        fixed = f"{key}: {value}"
        code = "yaml.wide_colon" if "：" in m.group("sep") else "yaml.glued_colon"
        return Finding(
            row + 1,
            len(m.group("lead")) + len(key) + 1,
            Msg(code, (show_value(key),)),
            Msg("hint.yaml.write", (fixed,)),
        )
    return None


def wide_space(text: str, line: int) -> Finding | None:
    """Full-width spaces (U+3000, what a Japanese IME types) indenting ``line`` or the line
    above: YAML sees text there, not indentation."""
    lines = _lines(text)
    for row in (line - 1, line - 2):
        if 0 <= row < len(lines):
            lead = lines[row][: len(lines[row]) - len(lines[row].lstrip(" \u3000"))]
            if "\u3000" in lead:
                return Finding(
                    row + 1,
                    lead.index("\u3000") + 1,
                    Msg("yaml.wide_indent"),
                    Msg("hint.yaml.wide_space"),
                )
    return None
