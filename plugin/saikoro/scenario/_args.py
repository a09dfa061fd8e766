"""The command line's options: one parser class, bounded values, messages in Japanese.

Every ``saikoro`` subcommand parses its options with :class:`CommandParser`: argparse's
own mistakes (a missing value, an unknown choice, an option it does not know) are said
in Japanese, naming the option, with the usage line and where ``--help`` is; a value of
the wrong kind never reaches the command. Numbers go through :func:`bounded_int`, which
reads the digits before Python converts them (a number of thousands of digits, ``²``
or ``1e9`` is refused, never a ``ValueError`` or an ``OverflowError`` later).

>>> bounded_int(1, 20)("4")
4
>>> bounded_int(1, 20)("100000")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: 1 から 20 までの整数を指定してください（指定された値: 100000）
>>> translate("argument --format: invalid choice: 'x' (choose from 'text', 'json')")
"--format: 'x' は選べません（選べるもの: 'text', 'json'）"
"""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from collections.abc import Callable
from typing import Any, NoReturn

__all__ = [
    "MAX_DIGITS",
    "CommandParser",
    "bounded_int",
    "japanese_help",
    "quoted_arg",
    "translate",
    "usage_error",
]

MAX_DIGITS = 30
"""Digits an integer option may have (more are refused before they are converted)."""

_INTEGER = re.compile(r"[-+]?[0-9]+")


def quoted_arg(text: str, limit: int = 40) -> str:
    """``text`` as a message quotes it: at most ``limit`` characters, control characters,
    lone surrogates (bytes that were not UTF-8) and the like escaped.

    >>> quoted_arg("a\\udcffb"), quoted_arg("x" * 50, 10)
    ("'a\\\\udcffb'", "'xxxxxxx...'")
    """
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return ascii(text) if not text.isprintable() or _has_surrogate(text) else repr(text)


def _has_surrogate(text: str) -> bool:
    return any("\ud800" <= c <= "\udfff" for c in text)


def bounded_int(low: int, high: int) -> Callable[[str], int]:
    """An ``argparse`` type: an integer from ``low`` to ``high``, its digits read first."""

    def parse(text: str) -> int:
        value = text.strip()
        digits = value.lstrip("+-")
        if not _INTEGER.fullmatch(value) or len(digits.lstrip("0")) > MAX_DIGITS:
            given = quoted_arg(text)
            raise argparse.ArgumentTypeError(
                f"{low} から {high} までの整数を指定してください（指定された値: {given}）"
            )
        number = int(value)
        if not low <= number <= high:
            raise argparse.ArgumentTypeError(
                f"{low} から {high} までの整数を指定してください（指定された値: {number}）"
            )
        return number

    parse.__name__ = "integer"
    return parse


_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.DOTALL), replacement)
    for pattern, replacement in (
        (r"the following arguments are required: (.*)", r"次の引数が必要です: \1"),
        (r"unrecognized arguments: (.*)", r"知らない引数です: \1"),
        (r"ambiguous option: (\S+) could match (.*)", r"\1 はどれのことか決まりません（候補: \2）"),
        (r"one of the arguments (.*) is required", r"\1 のどれかが必要です"),
        (r"invalid choice: (.*) \(choose from (.*)\)", r"\1 は選べません（選べるもの: \2）"),
        (r"invalid (\S+) value: (.*)", r"値 \2 を読めません"),
        (r"expected one argument", "値が必要です"),
        (r"expected at most one argument", "値は一つまでです"),
        (r"expected at least one argument", "値が一つ以上必要です"),
        (r"expected (\d+) arguments?", r"値が \1 個必要です"),
        (r"not allowed with argument (.*)", r"\1 とは一緒に使えません"),
        (r"ignored explicit argument (.*)", r"値 \1 はとりません"),
    )
)


_LONG_QUOTED = re.compile(r"'([^']{60,})'")


def translate(message: str) -> str:
    """argparse's English message in Japanese (``argument --x:`` becomes ``--x:``); a long
    value it quotes is cut short."""
    name, sep, rest = message.partition(": ") if message.startswith("argument ") else ("", "", "")
    prefix = name.removeprefix("argument ") + ": " if sep else ""
    body = _LONG_QUOTED.sub(lambda m: quoted_arg(m.group(1)), rest if sep else message)
    for pattern, replacement in _PATTERNS:
        m = pattern.fullmatch(body)
        if m is not None:
            return prefix + m.expand(replacement)
    return prefix + body


def usage_error(parser: argparse.ArgumentParser, message: str) -> NoReturn:
    """What :class:`CommandParser` does with argparse's ``message``: the usage line, the
    mistake in Japanese, where the options are listed; exit status 2."""
    parser.print_usage(sys.stderr)
    parser.exit(
        2,
        f"{parser.prog}: エラー: {translate(message)}\n"
        f"（オプションの一覧: {parser.prog} --help）\n",
    )


_TOKENS = re.compile(r"\s+|[\x21-\x7e]+|.", re.DOTALL)
_NO_LINE_START = frozenset("、。，．）」』】〕・ー：；！？)")
_NO_LINE_END = frozenset("（「『【〔(")


def _cells(text: str) -> int:
    """Terminal columns of ``text``: two for a wide (Japanese) character."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def wrap_cells(text: str, width: int) -> list[str]:
    """``text`` broken into lines of at most ``width`` terminal columns: between words, or
    between any two Japanese characters (never before 、 。 ）and the like: the character
    before goes down with it).

    >>> wrap_cells("セーブデータを書き出す folder name", 16)
    ['セーブデータを書', 'き出す folder', 'name']
    >>> wrap_cells("一二三四五六七（八）。", 16)
    ['一二三四五六七', '（八）。']
    """
    lines: list[list[str]] = [[]]
    for piece in _TOKENS.findall(" ".join(text.split())):
        line = lines[-1]
        if piece == " ":
            if line:
                line.append(piece)
            continue
        if not line or _cells("".join(line)) + _cells(piece) <= width:
            line.append(piece)
            continue
        carried: list[str] = []  # what goes down with it: never start a line with 、 。 ）
        while (
            len(line) > 1
            and line[-1] != " "
            and (line[-1] in _NO_LINE_END or (carried or [piece])[0] in _NO_LINE_START)
        ):
            carried.insert(0, line.pop())
        lines.append([*carried, piece])
    return ["".join(line).rstrip() for line in lines if "".join(line).strip()]


class _JapaneseFormatter(argparse.HelpFormatter):
    """argparse's help layout with its usage line headed in Japanese and its texts wrapped
    by terminal columns (argparse counts characters: a Japanese line would run twice as
    wide as the terminal)."""

    def _format_usage(self, usage: Any, actions: Any, groups: Any, prefix: str | None) -> str:
        if prefix is not None:
            return super()._format_usage(usage, actions, groups, prefix)
        # argparse indents the usage's next lines by the head's length in characters:
        # an 8-character head, then the 8-column Japanese one in its place
        text = super()._format_usage(usage, actions, groups, "usage:  ")
        return "使い方: " + text.removeprefix("usage:  ")

    def _split_lines(self, text: str, width: int) -> list[str]:
        return wrap_cells(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        # each line the text was written with is a paragraph of its own; an indented one
        # (an item of the exit-status list) keeps its indentation, its next lines hanging
        # two columns further
        lines: list[str] = []
        for paragraph in text.splitlines():
            own = len(paragraph) - len(paragraph.lstrip())
            lead, hang = indent + " " * own, "  " if own else ""
            wrapped = wrap_cells(paragraph, width - len(lead) - len(hang)) or [""]
            lines.append(lead + wrapped[0])
            lines.extend(lead + hang + line for line in wrapped[1:])
        return "\n".join(lines)


def japanese_help(parser: argparse.ArgumentParser) -> None:
    """Put argparse's own words in ``parser``'s help in Japanese: the usage line's head,
    the section headings, ``-h`` and ``--version`` (each option's own help is written in
    Japanese where the option is declared)."""
    parser.formatter_class = _JapaneseFormatter
    parser._positionals.title = "引数"
    parser._optionals.title = "オプション"
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            action.help = "この説明を表示して終わる"
        elif isinstance(action, argparse._VersionAction):
            action.help = "バージョンを表示して終わる"


class CommandParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose help and usage errors are in Japanese; an error names
    the option."""

    def format_usage(self) -> str:
        japanese_help(self)
        return super().format_usage()

    def format_help(self) -> str:
        japanese_help(self)
        return super().format_help()

    def error(self, message: str) -> NoReturn:
        usage_error(self, message)
