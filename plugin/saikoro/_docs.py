"""``saikoro docs``: the author guide and the field reference, offline, from the install.

The pages come from the installed package (the author guide,
:func:`saikoro.site.guide_pages`, and the reference pages the plugin generates from the
engine and the scenario definitions), so they are the documentation of exactly this
version. ``saikoro docs`` builds them into a site (MkDocs with the saikoro plugin, nothing
fetched from the network) and serves it on a local port; ``--build DIR`` only writes the
site; ``--print PAGE`` prints one page's Markdown (``fields``: the field reference, in the
terminal).

The built site is kept in the user's cache folder, keyed by the version and the pages'
text, so a second ``saikoro docs`` serves at once.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import hashlib
import http.server
import logging
import os
import shutil
import socket
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from saikoro import __version__

__all__ = ["PRINTABLE", "build_docs", "main", "print_page"]

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


def _cached_site(stderr: TextIO) -> Path:
    site = _cache_root() / _key()
    if (site / "authoring" / "fields" / "index.html").is_file():
        return site
    started = time.monotonic()
    print("saikoro docs: building the documentation (once per version)...", file=stderr)
    partial = site.with_name(site.name + ".part")
    shutil.rmtree(partial, ignore_errors=True)
    for warning in build_docs(partial):
        print(f"saikoro docs: warning: {warning}", file=stderr)
    shutil.rmtree(site, ignore_errors=True)
    partial.rename(site)
    print(f"saikoro docs: built in {time.monotonic() - started:.1f} s", file=stderr)
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
    parser = argparse.ArgumentParser(
        prog="saikoro docs",
        description="The author guide and the scenario field reference of this saikoro, "
        "offline: built from the installed package and served on http://127.0.0.1:PORT/.",
    )
    parser.add_argument("--port", type=int, default=8001, help="the port (default 8001)")
    parser.add_argument("--build", type=Path, metavar="DIR", help="only write the site to DIR")
    parser.add_argument(
        "--print",
        dest="page",
        choices=PRINTABLE,
        help="print one page's Markdown (fields: the field reference) and exit",
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
            for warning in build_docs(args.build):
                print(f"saikoro docs: warning: {warning}", file=sys.stderr)
            print(f"saikoro docs: wrote the documentation to {args.build}/ (open index.html)")
            return 0
        site = _cached_site(sys.stderr)
    except (MkDocsException, OSError) as error:
        print(f"saikoro docs: cannot build the documentation: {error}", file=sys.stderr)
        return 1
    host = "127.0.0.1"
    port = _free_port(host, args.port)
    handler = functools.partial(_QuietHandler, directory=str(site))
    with http.server.ThreadingHTTPServer((host, port), handler) as server:
        print(f"saikoro docs: serving on http://{host}:{port}/ (Ctrl-C stops)", flush=True)
        print(f"  field reference: http://{host}:{port}/authoring/fields/", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            server.serve_forever()
    return 0
