"""``saikoro validate`` and ``saikoro schema``.

``validate`` exits 0 when every file is valid (warnings allowed unless ``--strict``),
1 on errors, 2 on usage errors and 3 on an internal error (a bug in saikoro: the
message and a traceback go to stderr; nothing is reported as valid). ``schema`` prints
the JSON Schema.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
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

_EPILOG = """exit status: 0 every file is valid (warnings allowed unless --strict),
1 problems found, 2 usage error, 3 internal error (a bug in saikoro, not in your files:
the message and a traceback are printed to stderr; please report them)"""


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


def _book_folder(lang: str) -> list[str] | None:
    """The scenario folder of the book this runs in, as a path to show; ``None`` (after
    saying why on stderr) outside any book."""
    folder = book_scenarios()
    if folder is None:
        message = render(Msg("cli.no_book", ("saikoro validate",)), lang)
        sys.stderr.write(f"saikoro validate: {message}\n")
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
        description="Check scenario files (YAML) and report problems with their positions.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="files or directories (searched for *.yaml, *.yml); default: the scenario "
        "folder of the book (the folder with mkdocs.yml) this command runs in",
    )
    parser.add_argument("--format", choices=("text", "json", "github"), default="text")
    parser.add_argument(
        "--lang",
        choices=LANGS,
        default=None,
        help="message language (default: ja; en when LC_ALL/LC_MESSAGES/LANG asks for English)",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="treat warnings as errors (not the balance target's verdicts: see --fail-on-miss)",
    )
    parser.add_argument(
        "--fail-on-miss",
        action="store_true",
        help="a balance.win target clearly missed (the exact win rate, or its whole 95%% "
        "interval, outside the range) is an error (default: a warning that --strict leaves "
        f"alone, unless {FAIL_ON_MISS_ENV} is true); a figure not yet certain never fails",
    )
    parser.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="print problems only: no summary, and no notes (how a skill's effect text is "
        "simulated...)",
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
    paths = args.paths or _book_folder(lang)
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
        prog="saikoro schema", description="Print the JSON Schema of scenario files."
    )
    parser.add_argument("--system", choices=SYSTEM_IDS, default=None)
    parser.add_argument(
        "--indent",
        type=bounded_int(0, MAX_INDENT),
        default=2,
        help=f"spaces per level (default 2; 0 to {MAX_INDENT})",
    )
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="FILE",
        help="write the schema to FILE (folders created) instead of printing it; a book "
        "keeps it at schema/scenario.schema.json, named by its scenarios' $schema lines "
        "(saikoro validate and mkdocs build keep it up to date)",
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
