"""``saikoro docs``: the author guide and the field reference, offline, from the install.

The pages come from the installed package (the author guide,
:func:`saikoro.site.guide_pages`, and the reference pages the plugin generates from the
engine and the scenario definitions), so they are the documentation of exactly this
version. ``saikoro docs`` builds them into a site (MkDocs with the saikoro plugin, nothing
fetched from the network) and serves it on a local port; ``--build DIR`` only writes the
site (:func:`write_docs`: into a new or empty folder, or one it wrote before, never over
anything else); ``--print PAGE`` prints one page's Markdown (``fields``: the field
reference, in the terminal).

The built site is kept in the user's cache folder, keyed by the version and the pages'
text, so a second ``saikoro docs`` serves at once.
"""

from __future__ import annotations

import functools
import hashlib
import http.server
import json
import logging
import os
import shutil
import socket
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path, PurePosixPath
from typing import Any, TextIO

from saikoro import __version__
from saikoro.dice import SaikoroError
from saikoro.scenario import CommandParser, bounded_int

__all__ = [
    "MARK",
    "PRINTABLE",
    "DocsFolderError",
    "build_docs",
    "main",
    "print_page",
    "write_docs",
]

PRINTABLE = ("guide", "fields", "balance", "ci", "rulings", "commands")
"""The pages ``--print`` knows."""

_CONFIG = """\
site_name: saikoro {version} ドキュメント
docs_dir: docs
use_directory_urls: true
theme:
  name: material
  language: ja
  font: false
  features:
    - navigation.sections
    - search.suggest
    - content.code.copy
plugins:
  - search:
      lang: ja
  - saikoro:
      reference: true
      balance:
        enabled: false
markdown_extensions:
  - admonition
  - attr_list
  - md_in_html
  - tables
  - toc:
      permalink: true
  - pymdownx.superfences
  - pymdownx.details
nav:
  - はじめに: index.md
  - シナリオを書く:
      - authoring/index.md
      - フィールドリファレンス: authoring/fields.md
      - バランスを確かめる: authoring/balance.md
      - VTTのルームを作る: authoring/vtt.md
      - CIとpre-commit: authoring/ci.md
  - 裁定一覧: rulings.md
  - コマンドリファレンス: commands.md
"""

_INDEX = """\
# saikoro {version} ドキュメント

インストールした saikoro に入っている、このバージョンの説明書です（ネットワークは使いません）。

- [シナリオを書く](authoring/index.md): `saikoro new` から公開まで
- [フィールドリファレンス](authoring/fields.md): シナリオ YAML に書けるすべてのキー
- [バランスを確かめる](authoring/balance.md): `party:`・`balance:` と `saikoro simulate`
- [VTTのルームを作る](authoring/vtt.md): `saikoro room` とページのボタン
- [CI と pre-commit](authoring/ci.md): `saikoro validate` と GitHub Actions
- [裁定一覧](rulings.md) と [コマンドリファレンス](commands.md)

エディタ用の JSON Schema は [schema/scenario.schema.json](schema/scenario.schema.json) です。
"""


def _cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "saikoro" / "docs"


def _key() -> str:
    from saikoro.site import guide_pages

    digest = hashlib.sha256(__version__.encode())
    for name, text in guide_pages():
        digest.update(name.encode() + b"\0" + text.encode("utf-8"))
    return f"{__version__}-{digest.hexdigest()[:12]}"


class _Warnings(logging.Handler):
    """MkDocs' warnings while the documentation builds (a broken link in the guide...)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def build_docs(site: Path) -> list[str]:
    """Build the documentation site into ``site``; MkDocs' warnings (none, normally)."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    warnings = _Warnings()
    logger = logging.getLogger("mkdocs")
    logger.addHandler(warnings)
    try:
        _build(site, build, load_config)
    finally:
        logger.removeHandler(warnings)
    return warnings.messages


def _build(site: Path, build: Any, load_config: Any) -> None:
    with tempfile.TemporaryDirectory(prefix="saikoro-docs-") as tmp:
        root = Path(tmp)
        (root / "docs").mkdir()
        (root / "docs" / "index.md").write_text(
            _INDEX.format(version=__version__), encoding="utf-8"
        )
        config_file = root / "mkdocs.yml"
        config_file.write_text(_CONFIG.format(version=__version__), encoding="utf-8")
        config = load_config(str(config_file), site_dir=str(site))
        config.plugins.on_startup(command="build", dirty=False)
        try:
            build(config)
        finally:
            config.plugins.on_shutdown()


MARK = ".saikoro-docs.json"
"""The file ``--build`` leaves in the folder it wrote: saikoro's version and every file
it wrote, so that a later ``--build`` into the same folder knows it may replace them."""


class DocsFolderError(SaikoroError, FileExistsError):
    """``--build DIR``: DIR holds what an earlier ``saikoro docs --build`` did not write."""


def _files_below(folder: Path, *, folders: bool = False) -> list[str]:
    """Every file and link below ``folder`` (relative, ``/``-separated), sorted; with
    ``folders``, every folder too (an empty one is something the user made)."""
    found: list[str] = []
    for parent, dirs, files in os.walk(folder, onerror=_raise):
        base = Path(parent).relative_to(folder)
        found += [(base / name).as_posix() for name in files]
        for name in dirs:
            if folders or (Path(parent) / name).is_symlink():
                found.append((base / name).as_posix())
    return sorted(found)


def _raise(error: OSError) -> None:
    raise error


def _written_before(folder: Path) -> set[str] | None:
    """The files an earlier ``--build`` wrote into ``folder`` (its :data:`MARK`), or
    ``None`` when it has no readable mark."""
    try:
        data = json.loads((folder / MARK).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        return None
    folders = {p.as_posix() for f in files for p in PurePosixPath(f).parents if p.parts}
    return {*files, *folders, MARK}


def _check_target(target: Path) -> None:
    """Refuse a ``--build`` folder holding anything an earlier ``--build`` did not write."""
    if not target.exists() and not target.is_symlink():
        return
    if target.is_symlink() or not target.is_dir():
        raise DocsFolderError(
            f"{target} はフォルダではありません。新しいフォルダを指定してください"
        )
    have = _files_below(target, folders=True)
    if not have:
        return
    written = _written_before(target)
    others = [f for f in have if written is None or f not in written]
    if others:
        listed = ", ".join(others[:5]) + (" ..." if len(others) > 5 else "")
        raise DocsFolderError(
            f"{target} は空ではなく、saikoro docs --build が書いたフォルダでもありません"
            f"（{listed}）。新しいフォルダか空のフォルダを指定してください"
        )


def write_docs(target: Path) -> list[str]:
    """Build the documentation into the folder ``target``; MkDocs' warnings.

    ``target`` is taken relative to the current folder. It may be missing, empty, or a
    folder an earlier call wrote (its files are then replaced); anything else is refused
    before a file is written (:class:`DocsFolderError`). The site is built beside it in a
    temporary folder and moved into place: an error or Ctrl-C leaves ``target`` as it was.

    Raises:
        DocsFolderError: ``target`` holds files an earlier build did not write.
        OSError: a folder cannot be created or written.
    """
    target = target.absolute()
    _check_target(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    done = False
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent))
    try:
        warnings = build_docs(staging)
        mark = {"version": __version__, "files": _files_below(staging)}
        (staging / MARK).write_text(json.dumps(mark, indent=1) + "\n", encoding="utf-8")
        _check_target(target)  # again: nothing may have been added while it built
        if target.is_dir() and not _files_below(target, folders=True):
            target.rmdir()  # an empty folder: the site takes its place
        if target.exists():  # an earlier build: swapped out whole, then removed
            old = Path(
                tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".old", dir=target.parent)
            )
            target.rename(old / "site")
            staging.rename(target)
            shutil.rmtree(old)
        else:
            staging.rename(target)
        done = True
    finally:  # a failure, Ctrl-C included: the half-built site goes, DIR stays as it was
        if not done:
            shutil.rmtree(staging, ignore_errors=True)
    return warnings


def _cached_site(stderr: TextIO) -> Path:
    site = _cache_root() / _key()
    if (site / "authoring" / "fields" / "index.html").is_file():
        return site
    started = time.monotonic()
    print("saikoro docs: ドキュメントを作っています（バージョンごとに一度だけ）...", file=stderr)
    site.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f"{site.name}.", suffix=".part", dir=site.parent))
    done = False
    try:
        for warning in build_docs(partial):
            print(f"saikoro docs: 警告: {warning}", file=stderr)
        shutil.rmtree(site, ignore_errors=True)  # a half-made copy of the cache's own
        partial.rename(site)
        done = True
    finally:
        if not done:
            shutil.rmtree(partial, ignore_errors=True)
    print(f"saikoro docs: {time.monotonic() - started:.1f} 秒で作りました", file=stderr)
    return site


def print_page(page: str) -> str:
    """The Markdown of one page (see :data:`PRINTABLE`)."""
    from saikoro.site import commands_page, fields_page, guide_pages, rulings_page

    if page == "fields":
        return fields_page("schema/scenario.schema.json")
    if page == "rulings":
        return rulings_page()
    if page == "commands":
        return commands_page()
    name = "index.md" if page == "guide" else f"{page}.md"
    return dict(guide_pages())[name]


def _free_port(host: str, wanted: int) -> int:
    """``wanted`` if it is free on ``host``, else any free port."""
    for port in (wanted, 0):
        with socket.socket() as probe:
            try:
                probe.bind((host, port))
            except OSError:
                continue
            return int(probe.getsockname()[1])
    raise OSError(f"no free port on {host}")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """``saikoro docs [--port N] [--build DIR] [--print PAGE]``; the exit status."""
    parser = CommandParser(
        prog="saikoro docs",
        description="この saikoro の作者ガイドとシナリオ項目の一覧をオフラインで開く。"
        "入っているパッケージからサイトを作り、http://127.0.0.1:PORT/ で見せる。",
    )
    parser.add_argument(
        "--port",
        type=bounded_int(0, 65535),
        default=8001,
        help="ポート番号（既定 8001。使われていれば空いている別の番号。"
        "0 なら空いている任意の番号）",
    )
    parser.add_argument(
        "--build",
        type=Path,
        metavar="DIR",
        help="サイトを DIR に書き出すだけにする（ここからの相対パス。新しいか空のフォルダ、"
        "または以前に saikoro docs --build が書いたフォルダ）",
    )
    parser.add_argument(
        "--print",
        dest="page",
        choices=PRINTABLE,
        help="一つのページの Markdown を出して終わる（fields: 項目の一覧）",
    )
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 2 if exc.code not in (0, None) else 0
    if args.page:
        sys.stdout.write(print_page(args.page))
        return 0
    from mkdocs.exceptions import MkDocsException

    try:
        if args.build is not None:
            for warning in write_docs(args.build):
                print(f"saikoro docs: 警告: {warning}", file=sys.stderr)
            shown = args.build.absolute()
            print(
                f"saikoro docs: ドキュメントを {shown}/ に書きました（index.html を開いてください）"
            )
            return 0
        site = _cached_site(sys.stderr)
    except DocsFolderError as error:
        print(f"saikoro docs: {error}。何も書いていません", file=sys.stderr)
        return 1
    except (MkDocsException, OSError) as error:
        print(f"saikoro docs: ドキュメントを作れません: {error}", file=sys.stderr)
        return 1
    host = "127.0.0.1"
    try:
        port = _free_port(host, args.port)
    except OSError as error:
        print(f"saikoro docs: {host} に空いているポートがありません: {error}", file=sys.stderr)
        return 1
    handler = functools.partial(_QuietHandler, directory=str(site))
    with http.server.ThreadingHTTPServer((host, port), handler) as server:
        print(f"saikoro docs: http://{host}:{port}/ で公開中（Ctrl-C で止まります）", flush=True)
        print(f"  フィールドリファレンス: http://{host}:{port}/authoring/fields/", flush=True)
        server.serve_forever()  # Ctrl-C ends it: the command line says so and exits 130
    return 0
