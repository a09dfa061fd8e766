"""``saikoro text``: the plain-text (Markdown) edition of scenarios, for text sessions.

``saikoro text scenarios/x.yaml`` prints one scenario; several files or a folder print
the book (a list of its scenarios, then each one); ``--handout ID`` prints only what that
handout's player may read. ``-o FILE`` writes the text to a file instead (to a temporary
file first, then renamed into place). Invalid scenarios are reported as ``saikoro
validate`` reports them, and nothing is written.

Exit status: 0 written, 1 invalid scenarios or an unknown handout, 2 usage error.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from saikoro.scenario import (
    CommandParser,
    LoadResult,
    Problem,
    default_lang,
    find_book,
    find_files,
    load_scenario,
    quoted_arg,
    replace_file,
)

from ._pages.scenario import book_order
from ._text import book_text, handout_text, scenario_text

__all__ = ["main"]


def _load(paths: list[str]) -> tuple[list[LoadResult], list[str]]:
    """The files of ``paths`` (folders searched), loaded; and the paths that do not exist."""
    results: list[LoadResult] = []
    missing: list[str] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            results.extend(load_scenario(f) for f in find_files(path))
        elif path.exists():
            results.append(load_scenario(path))
        else:
            missing.append(given)
    return results, missing


def main(argv: list[str] | None = None, out: TextIO | None = None) -> int:
    """Run ``saikoro text``; returns the exit status."""
    stdout = out or sys.stdout
    parser = CommandParser(
        prog="saikoro text",
        description="シナリオを文字だけ（Markdown）で出す。すべての文を読む順に並べ、表も"
        "文字で書く。テキストセッションやコピー用。",
    )
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="シナリオファイルかフォルダ。ファイル一つならそのシナリオ、複数（かフォルダ）なら"
        "ブック全体。既定: このコマンドを実行したブックのシナリオフォルダ",
    )
    parser.add_argument(
        "--handout",
        metavar="ID",
        help="このハンドアウトのプレイヤーが読んでよいものだけを出す（シナリオ一つ）",
    )
    parser.add_argument("--title", default="シナリオブック", help="ブックの題名")
    parser.add_argument("-o", "--output", metavar="FILE", help="標準出力ではなく FILE に書く")
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return 0 if e.code == 0 else 2
    lang = default_lang()
    paths = list(args.paths)
    if not paths:
        book = find_book()
        if book is None:
            sys.stderr.write(
                "saikoro text: シナリオファイルを指定してください"
                "（ここは mkdocs.yml のあるシナリオ集の中ではありません）\n"
            )
            return 2
        paths = [str(book.scenarios)]
    results, missing = _load(paths)
    for given in missing:
        sys.stderr.write(
            f"saikoro text: {quoted_arg(given)} というファイルもフォルダもありません\n"
        )
    problems: list[Problem] = [p for r in results for p in r.problems if p.severity == "error"]
    for p in problems:
        sys.stderr.write(p.format(lang) + "\n")
    if missing:
        return 2
    if problems:
        return 1
    scenarios = sorted((r.scenario for r in results if r.scenario is not None), key=book_order)
    if not scenarios:
        sys.stderr.write("saikoro text: シナリオファイルがありません\n")
        return 1
    if args.handout is not None:
        if len(scenarios) != 1:
            sys.stderr.write(
                "saikoro text: --handout にはシナリオファイルを一つだけ指定してください\n"
            )
            return 2
        scenario = scenarios[0]
        found = [h for h in scenario.model.handouts if h.id == args.handout]
        if not found:
            known = ", ".join(h.id for h in scenario.model.handouts) or "-"
            sys.stderr.write(
                f"saikoro text: --handout: {scenario.path} にハンドアウト "
                f"{quoted_arg(args.handout)} はありません（あるもの: {known}）\n"
            )
            return 1
        text = handout_text(scenario, found[0])
    elif len(scenarios) == 1 and len(paths) == 1 and not Path(paths[0]).is_dir():
        text = scenario_text(scenarios[0])
    else:
        text = book_text(args.title, scenarios)
    if args.output:
        try:
            replace_file(Path(args.output), text.encode("utf-8"))
        except OSError as e:
            shown = quoted_arg(args.output, 200)
            sys.stderr.write(f"saikoro text: {shown} に書き込めません（{e.strerror or e}）\n")
            return 1
        sys.stderr.write(f"saikoro text: {quoted_arg(args.output, 200)} を書きました\n")
    else:
        stdout.write(text)
    return 0
