"""Every option of every ``saikoro`` subcommand, fed its boundary values: a clear message
and an exit status, never a traceback.

The subcommands and their options are found by walking the parsers (the top parser's
subcommands, then each subcommand's own parser, caught as it parses), not from a list
kept here: a new option is fed the same values the day it is added. Each run goes
through :func:`saikoro._cli.main` in a temporary folder, with arguments that keep the
command quick (a tiny scenario, one battle, ``--print`` for ``docs``).
"""

from __future__ import annotations

import argparse
import io
import re
import shutil
import unicodedata
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from saikoro._cli import _build_parser, main

ROOT = Path(__file__).resolve().parents[1]

BOUNDARY = (
    "",
    " ",
    "0",
    "-1",
    "1",
    "65536",
    "100000000",
    "99999999999999999999",
    "9" * 5000,
    "1e9",
    "0x10",
    "²",
    "١٢",
    "nan",
    "-",
    "x=²",
    "die=" + "9" * 5000,
    "die=-0",
    "=",
    "\udcff\udcfe",
    "a\u202eb",
    "\ufffe",
    "\x9b",
    "javascript:alert(1)",
    "a" * 5000,
    "../outside",
)
"""Values no option should turn into a traceback: empty, signs, huge numbers, digits
Python's ``int`` reads but a person would not write, bytes that were not UTF-8, control
and format characters, a long text and a path leading out of the folder."""

_TINY = """\
system: getb
title: 試し
"""


class _Caught(BaseException):
    """Raised in place of parsing, carrying the parser that was about to parse."""

    def __init__(self, parser: argparse.ArgumentParser) -> None:
        super().__init__(parser.prog)
        self.parser = parser


def _choices() -> dict[str, argparse.ArgumentParser]:
    """The top parser's subcommands and the parsers it holds for them."""
    parser = _build_parser()
    found = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert len(found) == 1
    return dict(found[0].choices)


def subcommands() -> list[str]:
    """The top parser's subcommands."""
    return sorted(_choices())


def parser_of(subcommand: str, monkeypatch: pytest.MonkeyPatch) -> argparse.ArgumentParser:
    """The parser ``saikoro <subcommand>`` parses its options with, caught as it parses."""

    def catch(self: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        raise _Caught(self)

    with monkeypatch.context() as patch:
        patch.setattr(argparse.ArgumentParser, "parse_known_args", catch)
        try:
            main([subcommand, "--help"])
        except _Caught as caught:
            if caught.parser.prog != "saikoro":
                return caught.parser  # the subcommand's own (saikoro validate...)
            return _choices()[subcommand]  # one the top parser parses (roll, odds)
    raise AssertionError(f"saikoro {subcommand} parsed nothing")


def takes_values(parser: argparse.ArgumentParser) -> Iterator[argparse.Action]:
    """The parser's actions that take a value (options with one, and positionals)."""
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._VersionAction):
            continue
        if action.nargs == 0:
            continue
        yield action


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder to run in, holding a tiny scenario and a book (a ``mkdocs.yml``)."""
    work = tmp_path / "work"
    work.mkdir()
    (work / "s.yaml").write_text(_TINY, encoding="utf-8")
    (work / "mkdocs.yml").write_text("site_name: x\n", encoding="utf-8")
    monkeypatch.chdir(work)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return work


def base_args(subcommand: str, folder: Path) -> list[str]:
    """Arguments that keep ``saikoro <subcommand>`` quick whatever the option tried."""
    known = {
        "roll": ["1D6", "--system", "getb"],
        "odds": ["1D6", "--system", "getb"],
        "validate": ["s.yaml"],
        "schema": [],
        "new": [str(folder / "book")],
        "docs": ["--print", "guide"],
        "pdf": ["missing.html", "out.pdf"],
        "simulate": ["s.yaml", "--battles", "1", "--jobs", "1", "--no-exact"],
        "tune": ["s.yaml", "--jobs", "1", "--screen", "1", "--confirm-max", "1"],
        "room": ["s.yaml", "--to", "udonarium", "-o", "rooms"],
        "text": ["s.yaml"],
    }
    assert subcommand in known, f"saikoro {subcommand} is new: give it quick arguments here"
    return known[subcommand]


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


def test_the_walk_finds_every_subcommand_and_their_options(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The walk is no empty loop: it finds the subcommands and the options they have."""
    names = subcommands()
    assert {"roll", "odds", "validate", "schema", "new", "docs", "pdf", "simulate", "tune"} <= set(
        names
    )
    options = {
        name: {s for a in takes_values(parser_of(name, monkeypatch)) for s in a.option_strings}
        for name in names
    }
    assert "--indent" in options["schema"] and "--port" in options["docs"]
    assert "--rule" in options["roll"] and "--battles" in options["simulate"]
    assert "--site-url" in options["new"] and "--confirm-max" in options["tune"]


@pytest.mark.parametrize("subcommand", subcommands())
def test_every_option_gets_a_clear_message_never_a_traceback(
    subcommand: str, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parser = parser_of(subcommand, monkeypatch)
    base = base_args(subcommand, folder)
    tried = 0
    for action in takes_values(parser):
        for value in BOUNDARY:
            if action.option_strings:
                name = action.option_strings[-1]
                argv = [subcommand, *base, name, value]
            else:  # a positional: the value in its place, the others kept
                name = action.metavar if isinstance(action.metavar, str) else action.dest
                argv = [subcommand, *_replace_positional(base, parser, action, value)]
            where = f"saikoro {' '.join(a[:30] for a in argv[:-1])} {value[:30]!a}"
            status, out, err = run(argv)
            tried += 1
            assert status in (0, 1, 2), where
            assert "Traceback" not in err and "Traceback" not in out, where
            if status:  # validate reports a file's problems on stdout, the rest on stderr
                assert (err + out).strip(), f"{where}: exit {status} without a word"
                if action.option_strings and action.type is not Path:  # a file: as named
                    assert len(err) < 4000, f"{where}: the message repeats the value"
            if status == 2 and action.option_strings:
                assert name in err or any(s in err for s in action.option_strings), (where, err)
            _tidy(folder)
    assert tried >= len(BOUNDARY)


def _replace_positional(
    base: list[str], parser: argparse.ArgumentParser, action: argparse.Action, value: str
) -> list[str]:
    """``base`` with the positional ``action``'s argument set to ``value`` (the
    positionals are the leading arguments of ``base``, in the parser's order)."""
    positionals = [a for a in parser._actions if not a.option_strings]
    index = positionals.index(action)
    args = list(base)
    if index < len(args) and not args[index].startswith("-"):
        args[index] = value
        return args
    return [value, *args]


def _tidy(folder: Path) -> None:
    """Remove what a run made (a book, a schema file), keeping the fixture's files."""
    keep = {"s.yaml", "mkdocs.yml"}
    for path in [*folder.iterdir(), folder.parent / "outside"]:
        if path.name in keep or not (path.exists() or path.is_symlink()):
            continue
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()


_JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def _cells(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


@pytest.mark.parametrize("subcommand", ["", *subcommands()])
def test_the_help_is_japanese_and_fits_the_terminal(
    subcommand: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every option's help is written in Japanese, argparse's own words are too, and no
    line runs wider than the terminal (argparse counts characters, a terminal columns)."""
    parser = parser_of(subcommand, monkeypatch) if subcommand else _build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                assert _JAPANESE.search(choice.help or ""), (subcommand, choice.dest)
        elif not isinstance(action, argparse._HelpAction | argparse._VersionAction):
            assert _JAPANESE.search(action.help or ""), (subcommand, action.dest, action.help)
    for columns in (50, 80):
        monkeypatch.setenv("COLUMNS", str(columns))
        text = parser.format_help()
        for english in ("usage:", "options:", "positional arguments", "show this help"):
            assert english not in text, (subcommand, english)
        assert text.startswith("使い方: "), text[:40]
        for line in text.splitlines():
            if _JAPANESE.search(line):  # what saikoro wraps (argparse lays out the rest)
                assert _cells(line) <= columns, (subcommand, columns, line)
                assert line.strip()[0] not in "、。）」", (subcommand, line)
