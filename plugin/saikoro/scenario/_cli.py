"""``saikoro validate`` and ``saikoro schema``.

``validate`` exits 0 when every file is valid (warnings allowed unless ``--strict``),
1 on errors, 2 on usage errors and 3 on an internal error (a bug in saikoro: the
message and a traceback go to stderr; nothing is reported as valid). ``schema`` prints
the JSON Schema.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from ._args import CommandParser, bounded_int
from ._book import book_scenarios
from ._files import replace_file
from ._problems import (
    FAIL_ON_MISS_ENV,
    LANGS,
    Msg,
    Problem,
    balance_seconds_env,
    default_lang,
    fail_on_miss_env,
    render,
)
from ._schema import did_you_mean
from ._validate import LoadResult, load_scenario, scan_files, unique_ids

__all__ = ["EXIT_INTERNAL", "schema_main", "validate_main"]

MAX_INDENT = 16
"""``saikoro schema --indent`` at most."""
EXIT_INTERNAL = 3
"""``saikoro validate``'s exit status when saikoro itself failed (not the files)."""

_EPILOG = """終了ステータス:
  0 すべてのファイルが正しい（--strict でなければ警告はあってよい）
  1 問題が見つかった
  2 コマンドの使い方の誤り
  3 内部エラー（ファイルではなく saikoro の不具合。メッセージとトレースバックを\
標準エラーに出すので、報告してください）"""


def _github(p: Problem, lang: str) -> str:
    def esc(text: str, prop: bool = False) -> str:
        text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
        return text.replace(":", "%3A").replace(",", "%2C") if prop else text

    text = f"{p.path}: {p.text(lang)}"
    hint = p.hint_text(lang)
    if hint:
        text += render(Msg("hint", (hint,)), lang)
    command = "notice" if p.severity == "note" else p.severity
    return (
        f"::{command} file={esc(p.file, True)},line={p.line},col={p.column},"
        f"title={esc('saikoro ' + p.severity, True)}::{esc(text)}"
    )


def _collect(paths: list[str]) -> tuple[list[LoadResult], list[Problem]]:
    results: list[LoadResult] = []
    extra: list[Problem] = []
    for given in paths:
        path = Path(given)
        if os.path.isdir(path):  # noqa: PTH112 - os.path: a name too long is no folder, not an exception
            scan = scan_files(path)
            extra.extend(scan.problems)
            if not scan.files and not scan.problems:
                extra.append(
                    Problem(given, 1, 1, "error", "scenario", Msg("cli.no_files", (given,)))
                )
            results.extend(load_scenario(f) for f in scan.files)
        elif os.path.lexists(path):
            results.append(load_scenario(path))
        else:
            siblings = [p.name for p in path.parent.iterdir()] if path.parent.is_dir() else []
            hint = did_you_mean(path.name, siblings)
            extra.append(Problem(given, 1, 1, "error", "scenario", Msg("cli.not_found"), hint))
    return unique_ids(results), extra


def add_files_argument(parser: CommandParser) -> None:
    """A command's ``FILE...`` arguments, read with :func:`files_or_book` (``args.files``)."""
    parser.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        help="シナリオファイルかフォルダ（既定: saikoro validate と同じく、このコマンドを"
        "実行したブックのシナリオフォルダ）",
    )


def files_or_book(
    given: Sequence[str], command: str, lang: str, err: TextIO | None = None
) -> list[str] | None:
    """The files a command was ``given``, else the scenario folder of the book it runs in
    (:func:`~saikoro.scenario.book_scenarios`); ``None`` (after saying why on ``err``,
    default stderr) when none was given outside any book. ``command``: ``saikoro validate``..."""
    if given:
        return list(given)
    folder = book_scenarios()
    if folder is None:
        message = render(Msg("cli.no_book", (command,)), lang)
        (err or sys.stderr).write(f"{command}: {message}\n")
        return None
    return [folder]


def _refresh_schemas(files: list[Path], lang: str) -> None:
    """Bring the book's copy of the schema (named by the ``$schema`` lines) up to date."""
    from ._schemafile import refresh_schemas

    done = refresh_schemas(files)
    for path in done.written:
        message = render(Msg("cli.refreshed", (_shown(path),)), lang)
        sys.stderr.write(f"saikoro validate: {message}\n")
    for line in done.messages():
        sys.stderr.write(f"saikoro validate: warning: {line}\n")


def _shown(path: Path) -> str:
    try:
        return path.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)


def validate_main(
    argv: list[str],
    out: TextIO | None = None,
    *,
    checks: Sequence[Callable[[LoadResult], LoadResult]] = (),
) -> int:
    """Run ``saikoro validate``; returns the exit status."""
    stdout = out or sys.stdout
    parser = CommandParser(
        prog="saikoro validate",
        description="シナリオファイル（YAML）を検査し、問題をその位置とともに報告する。",
        epilog=_EPILOG,
    )
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="ファイルかフォルダ（フォルダでは *.yaml と *.yml を探す）。既定: このコマンドを"
        "実行したブック（mkdocs.yml のあるフォルダ）のシナリオフォルダ",
    )
    parser.add_argument(
        "--format",
        choices=("text", "json", "github"),
        default="text",
        help="出力の形式（github: GitHub Actions の注釈。既定: text）",
    )
    parser.add_argument(
        "--lang",
        choices=LANGS,
        default=None,
        help="メッセージの言語（既定: ja。LC_ALL/LC_MESSAGES/LANG が英語なら en）",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="警告もエラーとして扱う（balance.win の判定は別: --fail-on-miss を参照）",
    )
    parser.add_argument(
        "--fail-on-miss",
        action="store_true",
        help="balance.win の目標を明らかに外れたら（厳密な勝率、または 95%% 区間の全体が範囲の"
        f"外）エラーにする（既定: 警告で、--strict でもエラーにならない。{FAIL_ON_MISS_ENV} "
        "が true ならエラー）。まだ確かでない値でエラーになることはない",
    )
    parser.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="問題だけを出す（まとめと、スキルの効果文をどう模擬したかなどの注記は出さない）",
    )
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return 0 if e.code == 0 else 2
    lang = args.lang or default_lang()
    try:
        fail_on_miss = args.fail_on_miss or fail_on_miss_env()
        balance_seconds_env()  # checked here: the balance check reads it
    except ValueError as e:
        sys.stderr.write(f"saikoro validate: {e}\n")
        return 2
    paths = files_or_book(args.paths, "saikoro validate", lang)
    if paths is None:
        return 2
    try:
        results, extra = _collect(paths)
        for check in checks:  # layers above add theirs (saikoro validate: the balance targets)
            results = [check(r) for r in results]
    except Exception as e:  # a bug: say so loudly and distinctly, never "valid"
        sys.stderr.write(
            f"saikoro validate: internal error: {type(e).__name__}: {e}\n"
            f"{render(Msg('cli.internal'), lang)}\n"
        )
        import traceback  # only for a bug

        traceback.print_exc(file=sys.stderr)
        return EXIT_INTERNAL
    _refresh_schemas([Path(r.file) for r in results], lang)
    problems = sorted(extra + [p for r in results for p in r.problems], key=Problem.sort_key)
    notes = sorted((n for r in results for n in r.notes), key=Problem.sort_key)
    if fail_on_miss:
        problems = [replace(p, severity="error") if p.gate == "miss" else p for p in problems]
    errors = sum(p.severity == "error" for p in problems)
    warnings = len(problems) - errors
    if args.format == "json":
        payload = {
            "files": len(results),
            "errors": errors,
            "warnings": warnings,
            "problems": [p.to_json(lang) for p in problems],
            "notes": [n.to_json(lang) for n in notes],
        }
        stdout.write(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")
    else:
        # how values were read (notes) beside the problems, in file order; -q and the
        # GitHub annotations: problems only
        quiet = args.quiet or args.format == "github"
        shown = problems if quiet else sorted([*problems, *notes], key=Problem.sort_key)
        for p in shown:
            stdout.write((_github(p, lang) if args.format == "github" else p.format(lang)) + "\n")
        if not args.quiet and args.format == "text":
            stdout.write(render(Msg("cli.summary", (len(results), errors, warnings)), lang) + "\n")
    if errors or (args.strict and any(p.severity == "warning" and not p.gate for p in problems)):
        return 1
    return 0


def schema_main(argv: list[str], out: TextIO | None = None) -> int:
    """Run ``saikoro schema``: print the JSON Schema (of one system with ``--system``)."""
    from saikoro.systems import SYSTEM_IDS

    from ._export import json_schema

    stdout = out or sys.stdout
    parser = CommandParser(
        prog="saikoro schema", description="シナリオファイルの JSON Schema を出す。"
    )
    parser.add_argument(
        "--system",
        choices=SYSTEM_IDS,
        default=None,
        help="一つのシステムのシナリオだけの Schema を出す（既定: すべてのシステム）",
    )
    parser.add_argument(
        "--indent",
        type=bounded_int(0, MAX_INDENT),
        default=2,
        help=f"字下げの空白の数（既定 2。0 から {MAX_INDENT}）",
    )
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="FILE",
        help="Schema を表示せず FILE に書く（フォルダがなければ作る）。ブックでは "
        "schema/scenario.schema.json に置き、シナリオの $schema 行がそれを指す"
        "（saikoro validate と mkdocs build が最新に保つ）",
    )
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return 0 if e.code == 0 else 2
    schema = json_schema(args.system)
    text = json.dumps(schema, ensure_ascii=False, indent=args.indent) + "\n"
    if args.output is None:
        stdout.write(text)
        return 0
    if os.path.isdir(args.output):  # noqa: PTH112 - a name too long: False, not OSError
        sys.stderr.write(
            f"saikoro schema: {args.output} はフォルダです。書き込むファイルの名前を指定して"
            "ください（例: -o schema/scenario.schema.json）\n"
        )
        return 2
    try:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        replace_file(args.output, text.encode("utf-8"))
    except OSError as e:
        sys.stderr.write(
            f"saikoro schema: {args.output} に書き込めません: {e.strerror or e}"
            "（元のファイルはそのままです）\n"
        )
        return 1
    return 0
