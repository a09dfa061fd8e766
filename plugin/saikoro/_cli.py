"""The ``saikoro`` command: roll, odds, validate, schema, new, docs, simulate, pdf, text, room.

Exit status: 0 ok, 1 not a command / refused / invalid scenario, 2 usage,
3 internal error (`saikoro validate`: a bug in saikoro, reported on stderr), 130 stopped
by Ctrl-C.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import io
import json
import os
import random
import re
import sys
from collections.abc import Sequence
from fractions import Fraction
from typing import NoReturn

from . import __version__
from ._start import interrupted
from .dice import DiceError, Odds, SaikoroError, digit_count, fraction_text
from .systems import OptionError, OptionValue, System, UnknownSystemError
from .systems import get as get_system

__all__ = ["format_odds_table", "main", "parse_dice", "parse_rule"]

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2

DOCUMENTATION_URL = "https://saikoro-trpg.github.io/saikoro/"
"""The published documentation (the same pages as ``saikoro docs``; pyproject's URL)."""


class _UsageError(SaikoroError):
    pass


def parse_dice(text: str) -> list[tuple[int, int]]:
    """Parse ``6:5,6:3`` into ``[(6, 5), (6, 3)]``.

    >>> parse_dice("6:5, 10:10")
    [(6, 5), (10, 10)]
    """
    pairs: list[tuple[int, int]] = []
    for raw in text.replace("，", ",").split(","):
        part = raw.strip()
        if not part:
            continue
        sides, sep, value = part.partition(":")
        if not sep or not _NUMBER.fullmatch(sides.strip()) or not _NUMBER.fullmatch(value.strip()):
            raise _UsageError(
                "--dice: 面数:出目 の組を 6:5,6:3 のように指定してください（数は 5 桁まで; "
                f"指定された値: {_quoted(part)}）"
            )
        pairs.append((int(sides), int(value)))
    return pairs


_NUMBER = re.compile(r"[0-9]{1,5}")


def _seed(text: str) -> int:
    """``--seed``: an integer of at most 30 digits (none of thousands is converted)."""
    if not re.fullmatch(r"[-+]?[0-9]{1,30}", text.strip()):
        raise argparse.ArgumentTypeError(
            f"30 桁までの整数を指定してください（指定された値: {_quoted(text)}）"
        )
    return int(text)


def parse_rule(text: str) -> tuple[str, OptionValue]:
    """Parse a ruling option ``name=value`` (``true``/``false`` and integers are typed).

    >>> parse_rule("final_damage_tie=defender")
    ('final_damage_tie', 'defender')
    >>> parse_rule("die=6")
    ('die', 6)
    """
    name, sep, raw = text.partition("=")
    if not sep or not name.strip():
        raise _UsageError(
            f"--rule: 名前=値 の形で指定してください（指定された値: {_quoted(text)}）"
        )
    raw = raw.strip()
    value: OptionValue
    if raw.lower() in {"true", "yes", "on"}:
        value = True
    elif raw.lower() in {"false", "no", "off"}:
        value = False
    elif _INTEGER.fullmatch(raw):
        if len(raw.lstrip("+-").lstrip("0")) > _MAX_DIGITS:
            raise _UsageError(
                f"--rule {name.strip()}: 数値が大きすぎます（{_MAX_DIGITS} 桁まで; "
                f"指定された値: {_quoted(raw)}）"
            )
        value = int(raw)
    else:
        value = raw
    return name.strip(), value


_INTEGER = re.compile(r"[-+]?[0-9]+")
_MAX_DIGITS = 30
"""Digits of an integer option (``--seed``, a ``--rule`` value) at most."""


def _quoted(text: str) -> str:
    from .scenario import quoted_arg  # only for a mistake: roll and odds start without it

    return quoted_arg(text)


class _Parser(argparse.ArgumentParser):
    """argparse whose help and mistakes are said as every subcommand says them
    (:class:`saikoro.scenario.CommandParser`), imported only when there is one."""

    def format_usage(self) -> str:
        from .scenario import japanese_help

        japanese_help(self)
        return super().format_usage()

    def format_help(self) -> str:
        from .scenario import japanese_help

        japanese_help(self)
        return super().format_help()

    def error(self, message: str) -> NoReturn:
        from .scenario import usage_error

        usage_error(self, message)


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:8.4f}%"


LONG_FRACTION = 60
"""Exact values longer than this many characters are shown rounded in the text table."""


def _exact(p: Fraction) -> str:
    """``n/d``, or for a long one its value rounded and the size of the exact fraction.

    ``saikoro odds '15R10[2]'`` has fractions of more than 4000 digits: the table shows
    them rounded with their digit counts; ``--format json`` gives every digit.

    >>> _exact(Fraction(1, 6))
    '1/6'
    >>> _exact(Fraction(1, 3**200))
    '≈3.76486e-96: 分子1桁・分母96桁; 正確な値は --format json'
    >>> _exact(1 - Fraction(1, 3**200))
    '≈1−3.76e-96: 分子96桁・分母96桁; 正確な値は --format json'
    """
    top, bottom = digit_count(p.numerator), digit_count(p.denominator)
    if top + bottom < LONG_FRACTION:
        return fraction_text(p)
    near_one = Fraction(99, 100) < p < 1
    rounded = f"1−{float(1 - p):.3g}" if near_one else f"{float(p):.6g}"
    return f"≈{rounded}: 分子{top}桁・分母{bottom}桁; 正確な値は --format json"


def format_odds_table(odds: Odds, *, width: int = 30) -> str:
    """A readable table: outcome, probability, at least, at most, and a text bar."""
    dist = list(odds.distribution.items())
    numeric = all(isinstance(k, int) for k, _ in dist)
    label = odds.label or "結果"
    lines = [f"{odds.command}"]
    head = f"{label:>8}  {'確率':>9}"
    if numeric:
        head += f"  {'以上':>9}  {'以下':>9}"
    lines.append(head)
    top = max((p for _, p in dist), default=Fraction(0))
    below = Fraction(0)
    total = sum((p for _, p in dist), Fraction(0))
    for k, p in dist:
        row = f"{k!s:>8}  {_percent(p)}"
        if numeric:
            row += f"  {_percent(total - below)}  {_percent(below + p)}"
        below += p
        bar = "#" * round(float(p / top) * width) if top else ""
        lines.append(f"{row}  {bar}")
    extra: list[str] = []
    for name, value in (
        ("成功", odds.success),
        ("失敗", odds.failure),
        ("クリティカル", odds.critical),
        ("ファンブル", odds.fumble),
    ):
        if value is not None:
            extra.append(f"{name}: {_percent(value).strip()} ({_exact(value)})")
    for name, value in odds.events.items():
        extra.append(f"{name}: {_percent(value).strip()} ({_exact(value)})")
    mean = odds.mean
    if mean is not None:
        extra.append(f"平均: {float(mean):.4f} ({_exact(mean)})")
    truncated = _exact(odds.truncated)
    if not truncated.startswith("≈"):
        truncated += f" (≈{float(odds.truncated):.3g})"
    extra.append(f"打ち切り: {truncated}")
    return "\n".join([*lines, "", *extra])


def _system_from(args: argparse.Namespace) -> System | None:
    rules = dict(parse_rule(r) for r in args.rule or [])
    if args.system is None:
        if rules:
            raise _UsageError("--rule は --system と一緒に指定してください")
        return None
    return get_system(args.system, **rules)


def _cmd_roll(args: argparse.Namespace) -> int:
    from . import roll

    system = _system_from(args)
    dice = parse_dice(args.dice) if args.dice is not None else None
    rng = random.Random(args.seed) if args.seed is not None else None
    result = roll(" ".join(args.command), system=system, dice=dice, rng=rng)
    if result is None:
        print("saikoro: コマンドとして認識できません", file=sys.stderr)
        return EXIT_FAIL
    if args.format == "json":
        print(
            json.dumps(
                {
                    "command": result.command,
                    "text": result.text,
                    "secret": result.secret,
                    "success": result.success,
                    "failure": result.failure,
                    "critical": result.critical,
                    "fumble": result.fumble,
                    "dice": [list(d) for d in result.dice],
                    "value": result.value,
                    "outcome": result.outcome,
                },
                ensure_ascii=False,
            )
        )
    else:
        print(result.text)
    return EXIT_OK


def _cmd_odds(args: argparse.Namespace) -> int:
    from . import odds

    system = _system_from(args)
    result = odds(" ".join(args.command), system=system)
    if result is None:
        print("saikoro: コマンドとして認識できません", file=sys.stderr)
        return EXIT_FAIL
    if args.format == "json":
        print(json.dumps(result.to_json(), ensure_ascii=False, indent=2))
    else:
        print(format_odds_table(result))
    return EXIT_OK


# options of ``roll`` / ``odds`` that take a value, and those that do not
_VALUE_OPTIONS = frozenset({"--system", "--rule", "--seed", "--dice", "--format"})
_FLAG_OPTIONS = frozenset({"-h", "--help"})


def _command_words_last(argv: list[str]) -> list[str]:
    """Put the command's words after ``--`` so that one starting with ``-`` is no option.

    ``saikoro roll -1D6`` and ``saikoro odds -2D6+10 --system getb`` read ``-1D6`` and
    ``-2D6+10`` as the command: only the subcommand's own options are options.

    >>> _command_words_last(["roll", "-1D6", "--seed", "3"])
    ['roll', '--seed', '3', '--', '-1D6']
    """
    options: list[str] = []
    words: list[str] = []
    rest = iter(argv[1:])
    for arg in rest:
        if arg == "--":
            words.extend(rest)
            break
        name = arg.split("=", 1)[0]
        if name in _VALUE_OPTIONS:
            options.append(arg)
            if "=" not in arg:
                value = next(rest, None)
                if value is not None:
                    options.append(value)
        elif arg in _FLAG_OPTIONS:
            options.append(arg)
        else:
            words.append(arg)
    return [argv[0], *options, *(["--", *words] if words else [])]


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="saikoro",
        description="国産TRPGのダイスの厳密な確率、BCDice と同じ書式のロール、シナリオの検査。",
        epilog="この版の作者ガイドとシナリオ項目の一覧は、オフラインなら saikoro docs"
        "（項目の一覧だけなら saikoro docs --print fields）、オンラインなら "
        f"{DOCUMENTATION_URL}",
    )
    parser.add_argument("--version", action="version", version=f"saikoro {__version__}")
    sub = parser.add_subparsers(dest="action", metavar="コマンド", parser_class=_Parser)

    def engine_options(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "command",
            nargs="+",
            metavar="COMMAND",
            help="ダイスコマンド。例: 2D6>=7（シェルでは引用符で囲む）",
        )
        p.add_argument(
            "--system", metavar="ID", help="ゲームシステムのIDか別名（getb、kegare など）"
        )
        p.add_argument(
            "--rule",
            action="append",
            metavar="NAME=VALUE",
            help="そのシステムの裁定オプション（何度でも指定できる）",
        )

    p_roll = sub.add_parser(
        "roll", help="コマンドを振り、BCDice と同じ文で結果を出す", description="コマンドを振る。"
    )
    engine_options(p_roll)
    p_roll.add_argument("--seed", type=_seed, help="乱数の種（同じ種なら同じ出目。30 桁まで）")
    p_roll.add_argument(
        "--dice", metavar="S:V,...", help="この出目を順に使う（面数:出目。例: 6:5,6:3）"
    )
    p_roll.add_argument(
        "--format", choices=("text", "json"), default="text", help="出力の形式（既定: text）"
    )
    p_roll.set_defaults(func=_cmd_roll)

    p_odds = sub.add_parser(
        "odds", help="コマンドの厳密な確率を出す", description="コマンドの厳密な確率を出す。"
    )
    engine_options(p_odds)
    p_odds.add_argument(
        "--format", choices=("text", "json"), default="text", help="出力の形式（既定: text）"
    )
    p_odds.set_defaults(func=_cmd_odds)

    sub.add_parser(
        "validate", help="シナリオファイルを検査する（saikoro validate --help）", add_help=False
    )
    sub.add_parser(
        "schema", help="シナリオの JSON Schema を出す（saikoro schema --help）", add_help=False
    )
    sub.add_parser(
        "new", help="新しいフォルダにシナリオブックを始める（saikoro new --help）", add_help=False
    )
    sub.add_parser(
        "docs",
        help="作者ガイドと項目の一覧をオフラインで開く（saikoro docs --help）",
        add_help=False,
    )
    sub.add_parser(
        "pdf", help="ビルドしたブックのページを PDF にする（saikoro pdf --help）", add_help=False
    )
    sub.add_parser(
        "room",
        help="シナリオをユドナリウム／ココフォリアのルームにする（saikoro room --help）",
        add_help=False,
    )
    sub.add_parser(
        "text",
        help="シナリオをテキストセッション用の文字（Markdown）で出す（saikoro text --help）",
        add_help=False,
    )
    sub.add_parser(
        "simulate",
        help="シナリオの戦闘を模擬して勝率などを出す（saikoro simulate --help）",
        add_help=False,
    )
    sub.add_parser(
        "tune",
        help="勝率を balance.win の範囲に入れる修正を探す（saikoro tune --help）",
        add_help=False,
    )
    return parser


EXIT_PIPE = 141
"""The status after a reader closed the output early (``saikoro odds X | head``): 128 +
SIGPIPE, what a shell reports for a tool the pipe stopped."""


def _escape_unencodable() -> None:
    """Let the output streams show what they cannot encode as escapes.

    A folder name that is not UTF-8 reaches Python as lone surrogates; printing it to a
    strict UTF-8 stream would fail after the work was done: it is shown as ``\\udcff``.
    """
    for stream in (sys.stdout, sys.stderr):
        if getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
            with contextlib.suppress(OSError, ValueError):
                stream.reconfigure(errors="backslashreplace")


class _WholeWrites(io.RawIOBase):
    """The standard output's raw writer: every byte is written, or an error is raised.

    CPython's own writer takes a short write as the end of the matter: under a file-size
    limit, ``saikoro schema > file`` stopped at 4,096 bytes and exited 0. Here the rest is
    written in a loop, and what the system refuses (``EFBIG``, ``ENOSPC``) is an
    ``OSError`` naming the standard output, which :func:`main` reports with exit 1.
    """

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def write(self, data: object) -> int:
        view = memoryview(data).cast("B")  # type: ignore[arg-type]
        done = 0
        while done < len(view):
            try:
                written = os.write(self._fd, view[done:])
            except BrokenPipeError:
                raise
            except OSError as error:
                raise OSError(error.errno, error.strerror, "標準出力") from None
            if written == 0:
                raise OSError(errno.EIO, os.strerror(errno.EIO), "標準出力")
            done += written
        return done


def _whole_stdout() -> None:
    """Put :class:`_WholeWrites` under the process's own standard output (a test's captured
    stream is left alone)."""
    stream = sys.stdout
    if stream is not sys.__stdout__ or not isinstance(stream, io.TextIOWrapper):
        return
    try:
        fd = stream.fileno()
        stream.flush()
    except (OSError, ValueError):  # no descriptor, or already closed: nothing to guard
        return
    sys.stdout = io.TextIOWrapper(
        io.BufferedWriter(_WholeWrites(fd)),
        encoding=stream.encoding,
        errors=stream.errors,
        line_buffering=stream.line_buffering,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    Ctrl-C stops any command with status 130 (:data:`saikoro._start.EXIT_INTERRUPTED`) and a line on
    stderr; ``saikoro simulate`` first prints the battles it finished, marked interrupted.

    A reader that closes the pipe early (``| head``) ends the command quietly, as it
    ends ``cat``: the output still buffered is dropped, and no traceback is printed.
    """
    _escape_unencodable()
    _whole_stdout()
    try:
        status = _main(argv)
        sys.stdout.flush()  # inside the guard: a closed pipe shows here, not at exit
    except KeyboardInterrupt:  # Ctrl-C: said as it is said at any moment (saikoro._start)
        return interrupted()
    except BrokenPipeError:
        # Python flushes both streams again at exit and would print "Exception ignored
        # ...": point them at /dev/null (nothing more is said) so that has nowhere to fail.
        devnull = os.open(os.devnull, os.O_WRONLY)
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):  # closed or not a descriptor
                os.dup2(devnull, stream.fileno())
        os.close(devnull)
        return EXIT_PIPE
    except OSError as error:
        # What the system refused and no command reported itself (a folder that cannot
        # be read, a disk that is full): said as the system says it, never a traceback.
        where = f"{error.filename}: " if error.filename else ""
        print(f"saikoro: {where}{error.strerror or error}", file=sys.stderr)
        return EXIT_FAIL
    return status


def _main(argv: Sequence[str] | None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] == "simulate":
        from ._simulate import main as simulate_main

        return int(simulate_main(args_list[1:]))
    if args_list and args_list[0] == "tune":
        from .tune import tune_main

        return int(tune_main(args_list[1:]))
    if args_list and args_list[0] in {"validate", "schema"}:
        from .scenario import schema_main, validate_main

        if args_list[0] == "schema":
            return int(schema_main(args_list[1:]))
        from .balance import check_balance  # simulates scenarios giving balance.win

        return int(validate_main(args_list[1:], checks=(check_balance,)))
    if args_list and args_list[0] == "pdf":
        from .site import pdf_main

        return pdf_main(args_list[1:])
    if args_list and args_list[0] == "text":
        from .site import text_main

        return text_main(args_list[1:])
    if args_list and args_list[0] == "new":
        from ._new import main as new_main

        return new_main(args_list[1:])
    if args_list and args_list[0] == "room":
        from .export import room_main

        return room_main(args_list[1:])
    if args_list and args_list[0] == "docs":
        from ._docs import main as docs_main

        return docs_main(args_list[1:])
    parser = _build_parser()
    if args_list and args_list[0] in {"roll", "odds"}:
        args_list = _command_words_last(args_list)
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:
        return EXIT_USAGE if exc.code not in (0, None) else EXIT_OK
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return int(args.func(args))
    except _UsageError as exc:
        print(f"saikoro: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except UnknownSystemError as exc:
        print(f"saikoro: --system: {exc.ja}", file=sys.stderr)
        return EXIT_USAGE
    except OptionError as exc:
        print(f"saikoro: --rule: {exc.ja}", file=sys.stderr)
        return EXIT_USAGE
    except DiceError as exc:
        print(f"saikoro: {exc}", file=sys.stderr)
        return EXIT_FAIL


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
