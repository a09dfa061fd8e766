"""``saikoro room``: scenarios as rooms for ユドナリウム and ココフォリア.

``saikoro room FILE|FOLDER... --to udonarium|ccfolia [--book] [-o DIR] [--players]``
writes ``<scenario id>.udonarium.zip`` / ``<scenario id>.ccfolia.zip`` into ``DIR`` (the
current folder by default), or with ``--book`` one ``book.<vtt>.zip`` holding every
scenario. Invalid scenarios are reported (file, line, column) and nothing is written.
Exit status: 0 written, 1 invalid scenarios or a file that could not be written, 2 usage,
3 internal error (a bug in saikoro: the message and a traceback go to stderr).
"""

from __future__ import annotations

import os
import re
import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from saikoro.scenario import (
    CommandParser,
    LoadResult,
    Problem,
    Scenario,
    default_lang,
    find_book,
    load_scenario,
    quoted_arg,
    replace_file,
    scan_files,
)

from ._model import ExportError
from ._room import Room, book_room, scenario_room
from ._room_ccfolia import ccfolia_room
from ._room_udonarium import udonarium_room

__all__ = ["output_name", "room_main"]

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
BOOK = "book"
"""The stem of a whole book's room (never a scenario id: ``book`` is reserved)."""
_WINDOWS_RESERVED = re.compile(r"(con|prn|aux|nul|com[0-9]|lpt[0-9])", re.IGNORECASE)
_UNSAFE = re.compile(r'[\x00-\x1f\x7f<>:"/\\|?*]')


def output_name(stem: str, vtt: str, *, players: bool = False) -> str:
    """The file name of a room: ``<stem>.<vtt>.zip`` made safe on every file system.

    >>> output_name("getb-haito", "udonarium"), output_name("con", "ccfolia")
    ('getb-haito.udonarium.zip', 'con_.ccfolia.zip')
    >>> output_name("../a\\x01b", "udonarium", players=True)
    '.._a_b.udonarium-players.zip'
    """
    safe = _UNSAFE.sub("_", stem).rstrip(" .").lstrip(" ") or "room"
    if _WINDOWS_RESERVED.fullmatch(safe.split(".")[0]):
        safe += "_"
    suffix = f"{vtt}-players" if players else vtt
    return f"{safe}.{suffix}.zip"


def _collect(paths: Sequence[str]) -> tuple[list[LoadResult], list[Problem], list[str]]:
    """The scenarios of ``paths`` (files, folders), the problems of their folders (a link
    leading out of the book, a folder that cannot be read), and the paths that are neither
    a file nor a folder."""
    results: list[LoadResult] = []
    problems: list[Problem] = []
    missing: list[str] = []
    for given in paths:
        path = Path(given)
        if os.path.isdir(path):  # noqa: PTH112 - a name too long is no folder, not an error
            scan = scan_files(path)
            problems.extend(scan.problems)
            if not scan.files and not scan.problems:
                missing.append(f"{quoted_arg(given)}: シナリオのファイル（*.yaml）がありません")
            results.extend(load_scenario(f) for f in scan.files)
        elif os.path.lexists(path):
            results.append(load_scenario(path))
        else:
            missing.append(f"{quoted_arg(given)}: ファイルもフォルダもありません")
    return results, problems, missing


def _shown(path: Path) -> str:
    """A path as a message shows it (bytes that were not UTF-8 escaped)."""
    text = str(path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return ascii(text)
    return text


def _default_paths(err: TextIO) -> list[str] | None:
    here = Path.cwd()
    if (here / "scenarios").is_dir():
        return ["scenarios"]
    book = find_book(here)
    if book is None:
        err.write(
            "saikoro room: シナリオのファイルかフォルダを指定してください"
            "（本のフォルダ — mkdocs.yml のあるフォルダ — の中なら省略できます）\n"
        )
        return None
    return [str(book.scenarios)]


def _writers(players: bool) -> dict[str, Callable[[Room], bytes]]:
    return {
        "udonarium": lambda room: udonarium_room(room, gm=not players),
        "ccfolia": ccfolia_room,
    }


def room_main(argv: Sequence[str], out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run ``saikoro room``; returns the exit status."""
    stdout = out or sys.stdout
    stderr = err or sys.stderr
    parser = CommandParser(
        prog="saikoro room",
        description="シナリオを VTT のルームにする: すべてのエネミー（番号つきの複製）、PC、"
        "チャットパレット、表、メモ、マップを一つのファイルにまとめ、ユドナリウムにはそのまま"
        "ドロップ、ココフォリアにはインポートできるようにする。",
    )
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="FILE|FOLDER",
        help="シナリオファイルかフォルダ（既定: このコマンドを実行したブックのシナリオフォルダ）",
    )
    parser.add_argument(
        "--to",
        required=True,
        action="append",
        choices=("udonarium", "ccfolia"),
        help="書き出す VTT（両方なら2回指定する）",
    )
    parser.add_argument(
        "--book",
        action="store_true",
        help="すべてのシナリオを一つのルームにまとめる（book.<vtt>.zip）",
    )
    parser.add_argument(
        "-o", "--output", metavar="DIR", default=".", help="書き出すフォルダ（既定: .）"
    )
    parser.add_argument(
        "--players",
        action="store_true",
        help="ユドナリウム用: GM専用のメモを入れない"
        "（ユドナリウムでは参加者全員がすべてのメモを見られるため）",
    )
    try:
        args = parser.parse_args(list(argv))
    except SystemExit as exc:
        return EXIT_OK if exc.code in (0, None) else EXIT_USAGE
    paths = args.paths or _default_paths(stderr)
    if paths is None:
        return EXIT_USAGE
    folder = Path(args.output)
    if os.path.lexists(folder) and not os.path.isdir(folder):  # noqa: PTH112
        stderr.write(f"saikoro room: -o {quoted_arg(args.output)}: フォルダではありません\n")
        return EXIT_USAGE
    results, scanned, missing = _collect(paths)
    lang = default_lang()
    problems = sorted([*scanned, *(p for r in results for p in r.errors)], key=Problem.sort_key)
    scenarios: list[Scenario] = [r.scenario for r in results if r.scenario is not None]
    seen: dict[str, str] = {}
    duplicate: list[str] = []
    for r in results:
        if r.scenario is None:
            continue
        if r.scenario.id in seen:
            duplicate.append(
                f"{_shown(Path(r.file))}: シナリオの id {r.scenario.id!r} は "
                f"{seen[r.scenario.id]} でも使われています（ルームのファイル名が重なります）"
            )
        seen.setdefault(r.scenario.id, _shown(Path(r.file)))
    for line in missing + duplicate:
        stderr.write(f"saikoro room: {line}\n")
    for problem in problems:
        stderr.write(problem.format(lang) + "\n")
    if problems or missing or duplicate:
        stderr.write("saikoro room: 誤りがあるため、ルームを書き出しませんでした\n")
        return EXIT_FAIL
    if not scenarios:
        stderr.write("saikoro room: シナリオがありません\n")
        return EXIT_FAIL
    try:
        outputs = _outputs(scenarios, folder, args.to, book=args.book, players=args.players)
    except ExportError as exc:
        stderr.write(f"saikoro room: {exc}\n")
        return EXIT_FAIL
    except Exception as exc:  # a bug: said loudly and distinctly, never "written"
        stderr.write(
            f"saikoro room: internal error: {type(exc).__name__}: {exc}\n"
            "This is a bug in saikoro, not in your files; please report it with the "
            "traceback below.\n"
        )
        traceback.print_exc(file=stderr)
        return EXIT_INTERNAL
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for path, data, summary in outputs:
            replace_file(path, data)
            stdout.write(f"{_shown(path)}: {summary}\n")
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the folder's name
        stderr.write(f"saikoro room: 書き込めません: {quoted_arg(str(exc), 300)}\n")
        return EXIT_FAIL
    return EXIT_OK


def _outputs(
    scenarios: Sequence[Scenario],
    folder: Path,
    vtts: Sequence[str],
    *,
    book: bool,
    players: bool,
) -> list[tuple[Path, bytes, str]]:
    """(path, bytes, what it holds) of every room file, all built before any is written."""
    rooms: list[tuple[str, Room]]
    if book:
        rooms = [(BOOK, book_room(sorted(scenarios, key=lambda s: s.id), "シナリオ集"))]
    else:
        rooms = [(s.id, scenario_room(s)) for s in scenarios]
    writers = _writers(players)
    out: list[tuple[Path, bytes, str]] = []
    for vtt in dict.fromkeys(vtts):
        for stem, room in rooms:
            path = folder / output_name(stem, vtt, players=players and vtt == "udonarium")
            enemies = sum(p.kind == "enemy" for p in room.pieces)
            summary = f"{room.title}（エネミー{enemies}体・メモ{len(room.notes)}件）"
            out.append((path, writers[vtt](room), summary))
    return out
