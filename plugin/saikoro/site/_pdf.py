"""The book as a PDF: Chromium prints the whole-book page (``<prefix>/book/``).

A build step, after ``mkdocs build``::

    saikoro pdf site/scenarios/book/index.html book.pdf

(``python -m saikoro.site._pdf`` does the same).

It needs Playwright and a Chromium (Debian's ``chromium``; ``SAIKORO_CHROMIUM`` names
another). Japanese text needs a Japanese font on the machine (``fonts-noto-cjk``). The
print stylesheet in ``saikoro.css`` drops buttons, navigation and the roller, keeps
tables and charts whole and starts each scenario on a new page.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import sys
import threading
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

from saikoro.dice import SaikoroError
from saikoro.scenario import CommandParser, replace_file

__all__ = ["CHROMIUM", "PdfError", "render_pdf"]

CHROMIUM = os.environ.get("SAIKORO_CHROMIUM", "/usr/bin/chromium")
_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-sync"]


class PdfError(SaikoroError, RuntimeError):
    """The PDF could not be made: the page could not be loaded, Chromium is missing..."""


def render_pdf(page_url: str, out: Path, *, page: object | None = None) -> Path:
    """Print ``page_url`` (an ``http://`` or ``file://`` URL) to ``out`` as A4 PDF.

    The PDF is written whole or not at all (:func:`saikoro.scenario.replace_file`).
    ``page``: an open Playwright page to use (tests); otherwise Chromium is started.

    Raises:
        PdfError: Playwright or Chromium is missing, or the page could not be loaded or
            printed (a closed port, a missing file): the message says which.
    """
    if page is None:
        try:
            from playwright.sync_api import Error, sync_playwright
        except ImportError as e:
            raise PdfError(
                "saikoro pdf には Playwright が必要です: pip install 'saikoro[pdf]'"
            ) from e
        if not Path(CHROMIUM).exists():
            raise PdfError(
                f"saikoro pdf には Chromium が必要です: {CHROMIUM} にありません"
                "（Debian なら apt install chromium、別の場所なら SAIKORO_CHROMIUM で指定）"
            )
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=_ARGS)
                try:
                    return render_pdf(page_url, out, page=browser.new_page())
                finally:
                    browser.close()
        except Error as e:
            raise PdfError(f"{page_url} を PDF にできません: {_reason(e)}") from e
    pw: object = page
    response = pw.goto(page_url)  # type: ignore[attr-defined]
    if response is not None and not response.ok:
        raise PdfError(f"{page_url} を読み込めません（HTTP {response.status}）")
    pw.wait_for_load_state("networkidle")  # type: ignore[attr-defined]
    # flowcharts are drawn by script when they near the viewport: draw them all, and
    # wait until none is left to draw
    # (bounded: a page whose charts cannot be drawn fails below instead of waiting forever)
    pw.evaluate(  # type: ignore[attr-defined]
        "window.saikoroFlows && Promise.race([window.saikoroFlows.drawAll(),"
        " new Promise(r => setTimeout(r, 60000))])"
    )
    pw.wait_for_function(  # type: ignore[attr-defined]
        "document.querySelectorAll('.saikoro-flow pre.mermaid').length === 0", timeout=60_000
    )
    # images load as they near the viewport (loading="lazy"): load them all, and wait
    pw.evaluate(  # type: ignore[attr-defined]
        "document.querySelectorAll('img[loading=lazy]').forEach(i => { i.loading = 'eager'; })"
    )
    pw.wait_for_function(  # type: ignore[attr-defined]
        "Array.from(document.images).every(i => i.complete)", timeout=60_000
    )
    pw.emulate_media(media="print")  # type: ignore[attr-defined]
    data = pw.pdf(  # type: ignore[attr-defined]
        format="A4",
        print_background=True,
        margin={"top": "15mm", "bottom": "15mm", "left": "12mm", "right": "12mm"},
    )
    replace_file(out, bytes(data))
    return out


def _reason(error: Exception) -> str:
    """Playwright's first line, and what Chromium said when it would not start (a
    ``FATAL`` line of its log: "Socket path too long", a missing library...)."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    first = lines[0] if lines else type(error).__name__
    fatal = next((line for line in lines if ":FATAL:" in line), None)
    if fatal is None:
        return first
    return f"{first}（Chromium: {fatal.rsplit('] ', 1)[-1]}）"


def _site_root(page: Path) -> Path:
    """The built site a page belongs to: the nearest folder above it holding MkDocs'
    ``sitemap.xml`` or ``404.html`` (else the page's own folder)."""
    for folder in page.parents:
        if (folder / "sitemap.xml").is_file() or (folder / "404.html").is_file():
            return folder
    return page.parent


@contextlib.contextmanager
def _served(page: Path) -> Iterator[str]:
    """The URL of a local page served over HTTP on 127.0.0.1 while the block runs.

    Chromium does not run a site's scripts from ``file://`` as from a server (module
    loads and fetches are refused), so the flowcharts would never be drawn: the site
    folder is served for the time of the print, to this machine only.
    """
    root = _site_root(page)
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        rel = page.relative_to(root).as_posix()
        yield f"http://127.0.0.1:{server.server_address[1]}/{urllib.parse.quote(rel)}"
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # the base class's names
        pass


def _source_url(source: str) -> str:
    """The URL to print: ``source`` as it is when it is one, else the local file's.

    Raises:
        PdfError: a URL that is not http(s) or file, or a local file that is missing or
            no file.
    """
    if "://" in source:
        scheme = source.split("://", 1)[0].lower()
        if scheme not in ("http", "https", "file"):
            raise PdfError(f"{source!r} は http://、https://、file:// のアドレスではありません")
        return source
    path = Path(source)
    if not path.is_file():
        what = "フォルダです" if path.is_dir() else "ありません"
        raise PdfError(
            f"{source} が{what}。mkdocs build で作ったページ"
            "（site/scenarios/book/index.html）を指定してください"
        )
    return path.resolve().as_uri()


def main(argv: list[str] | None = None) -> int:
    """``saikoro pdf <page.html or URL> <out.pdf>``; 1 when the PDF cannot be made, 2 on a
    usage error."""
    parser = CommandParser(
        prog="saikoro pdf",
        description="Print the whole-book page with Chromium (pip install 'saikoro[pdf]'; "
        "Debian's chromium at /usr/bin/chromium or SAIKORO_CHROMIUM; fonts-noto-cjk for "
        "Japanese).",
    )
    parser.add_argument(
        "source", metavar="PAGE", help="site/scenarios/book/index.html or its http(s):// URL"
    )
    parser.add_argument("out", metavar="OUT.pdf", type=Path, help="the PDF to write")
    try:
        args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as exc:
        return 2 if exc.code not in (0, None) else 0
    try:
        url = _source_url(args.source)
        if args.out.is_dir():
            raise PdfError(
                f"{args.out} はフォルダです。書き込む PDF のファイル名を指定してください"
            )
        if url.startswith("file://"):
            with _served(Path(args.source).resolve()) as served:
                render_pdf(served, args.out)
        else:
            render_pdf(url, args.out)
    except PdfError as e:
        print(f"saikoro pdf: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"saikoro pdf: {args.out} に書き込めません（{e.strerror or e}）", file=sys.stderr)
        return 1
    print(f"saikoro pdf: {args.out} を書きました")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
