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

import argparse
import contextlib
import difflib
import functools
import http.server
import io
import os
import sys
import threading
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

from saikoro.dice import SaikoroError
from saikoro.scenario import CommandParser, replace_file
from saikoro.site._paper import DEFAULT_PAPER, PAPERS, paper_css

__all__ = ["BALANCE", "CHROMIUM", "HANDOUTS", "PdfError", "render_pdf"]

CHROMIUM = os.environ.get("SAIKORO_CHROMIUM", "/usr/bin/chromium")
_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-sync"]


class PdfError(SaikoroError, RuntimeError):
    """The PDF could not be made: the page could not be loaded, Chromium is missing..."""


BALANCE = ("short", "full")
"""How the balance section prints: its verdict, target, ends and how the figures were
made (``short``), or whole (``full``: the party, tactics, rulings, rounds, each PC...)."""

HANDOUTS = ("cut", "pages")
"""How a scenario's handouts print at its end: cards to cut out, as many as fit a page
(``cut``), or one handout a page (``pages``)."""

_PASSES = 4
"""Prints at most of a page with page references: the first finds where each target
lands, the next prints the numbers; one more if writing them moved a target."""


def render_pdf(
    page_url: str,
    out: Path,
    *,
    page: object | None = None,
    paper: str | None = None,
    balance: str = "short",
    scenario: str | None = None,
    handouts: str = "cut",
) -> Path:
    """Print ``page_url`` (an ``http://`` or ``file://`` URL) to ``out`` as a PDF.

    The PDF is written whole or not at all (:func:`saikoro.scenario.replace_file`).
    ``page``: an open Playwright page to use (tests); otherwise Chromium is started.
    ``paper``: a key of :data:`~saikoro.site._paper.PAPERS`; ``None``: the paper the page
    names (the plugin's ``pdf: paper:``), else A4. ``balance``: :data:`BALANCE`;
    ``scenario``: print only this scenario of a whole-book page (its own cover, contents
    and colophon); ``handouts``: :data:`HANDOUTS`.

    The contents' page numbers are read from a first print (where Chromium put each
    link's target: the PDF's named destinations) and written before the last.

    Raises:
        PdfError: Playwright, Chromium or pypdf is missing, the page could not be loaded
            or printed (a closed port, a missing file), or it has no scenario
            ``scenario``: the message says which.
    """
    if paper is not None and paper not in PAPERS:
        raise PdfError(f"用紙 {paper!r} はありません（{'・'.join(PAPERS)} のどれか）")
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
                    return render_pdf(
                        page_url,
                        out,
                        page=browser.new_page(),
                        paper=paper,
                        balance=balance,
                        scenario=scenario,
                        handouts=handouts,
                    )
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
    named = pw.evaluate(  # type: ignore[attr-defined]
        "(document.querySelector('[data-saikoro-paper]') || {dataset: {}}).dataset.saikoroPaper"
    )
    if paper is None and named not in PAPERS:
        paper = DEFAULT_PAPER
    missing = pw.evaluate(  # type: ignore[attr-defined]
        _PREPARE,
        {
            "paper": paper_css(paper) if paper is not None else "",
            "full": balance == "full",
            "pages": handouts == "pages",
            "scenario": scenario,
        },
    )
    if missing is not None:
        raise PdfError(_no_scenario(str(scenario), list(missing)))
    data = _print(pw)
    for _ in range(_PASSES - 1):
        targets = pw.evaluate(_TARGETS)  # type: ignore[attr-defined]
        if not targets:
            break
        numbers = _page_numbers(bytes(data), targets)
        if not pw.evaluate(_NUMBER, numbers):  # type: ignore[attr-defined]
            break  # every number was already right: this print is the book
        data = _print(pw)
    replace_file(out, bytes(data))
    return out


def _print(pw: object) -> bytes:
    """One print of the page: its own paper (``@page``), a bookmark per heading."""
    data = pw.pdf(  # type: ignore[attr-defined]
        prefer_css_page_size=True, print_background=True, outline=True, tagged=True
    )
    return bytes(data)


_PREPARE = """(o) => {
  const root = document.documentElement;
  if (o.paper) {
    const style = document.createElement('style');
    style.media = 'print';
    style.textContent = o.paper;
    document.head.append(style);
  }
  if (window.saikoroFlows && window.saikoroFlows.refit) window.saikoroFlows.refit();
  root.classList.toggle('saikoro-balance-full', o.full);
  root.classList.toggle('saikoro-handout-pages', o.pages);
  document.querySelectorAll('.saikoro-balance details').forEach(d => { d.open = true; });
  if (o.scenario !== null) {
    const parts = Array.from(document.querySelectorAll('.saikoro-book-scenario'));
    const keep = parts.find(p => p.dataset.scenario === o.scenario);
    if (!keep) return parts.map(p => p.dataset.scenario);
    parts.forEach(p => { if (p !== keep) p.remove(); });
    document.querySelectorAll('.saikoro-print-toc [data-scenario]')
      .forEach(li => { if (li.dataset.scenario !== o.scenario) li.remove(); });
    root.classList.add('saikoro-print-one');
    const cover = keep.querySelector('.saikoro-scenario-cover');
    const toc = document.querySelector('.saikoro-print-toc');
    if (cover && toc) toc.before(cover);  // the scenario's cover first, then its contents
    const end = document.querySelector('.saikoro-print-toc .saikoro-toc-end');
    const colophon = keep.querySelector('.saikoro-scenario-colophon');
    if (end && colophon) {
      colophon.id = 'saikoro-colophon-' + o.scenario;
      end.querySelector('[data-page-of]').dataset.pageOf = colophon.id;
    }
  }
  // a link to a page number links to its target in the PDF (Material's instant
  // navigation made it a whole URL, which Chromium prints as a link to the web)
  document.querySelectorAll('[data-page-of]').forEach(s => {
    const link = s.closest('a');
    if (link) link.setAttribute('href', '#' + s.dataset.pageOf);
  });
  // contents entries of parts that print nothing (a section hidden on paper)
  document.querySelectorAll('.saikoro-print-toc li').forEach(li => {
    const number = li.querySelector(':scope > a > [data-page-of]');
    const target = number && document.getElementById(number.dataset.pageOf);
    if (!target || target.getClientRects().length === 0) li.remove();
  });
  document.querySelectorAll('[data-page-of]').forEach(s => { s.textContent = '00'; });
  return null;
}"""

_TARGETS = """() => Array.from(new Set(
  Array.from(document.querySelectorAll('[data-page-of]')).map(s => s.dataset.pageOf)))"""

_NUMBER = """(numbers) => {
  let changed = false;
  document.querySelectorAll('[data-page-of]').forEach(s => {
    const n = numbers[s.dataset.pageOf];
    const text = n ? String(n) : '';
    if (s.textContent !== text) { s.textContent = text; changed = true; }
  });
  return changed;
}"""


def _page_numbers(data: bytes, targets: list[str]) -> dict[str, int]:
    """The page (from 1) where each of ``targets`` (element ids the page links to) lands
    in the PDF ``data``: Chromium writes a named destination for each link target (its
    name the id, percent-encoded). A target without one (not printed) is left out."""
    try:
        import pypdf
    except ImportError as e:
        raise PdfError(
            "saikoro pdf の目次のページ番号には pypdf が必要です: pip install 'saikoro[pdf]'"
        ) from e
    reader = pypdf.PdfReader(io.BytesIO(data))
    found: dict[str, int] = {}
    for name, destination in reader.named_destinations.items():
        page = reader.get_destination_page_number(destination)
        if page is not None and page >= 0:
            found[urllib.parse.unquote(str(name).removeprefix("/"))] = page + 1
    return {t: found[t] for t in targets if t in found}


def _no_scenario(scenario: str, ids: list[str]) -> str:
    """The message for ``--scenario`` naming no scenario of the page."""
    if not ids:
        return (
            "このページはシナリオブックのページではないので --scenario は使えません"
            "（site/scenarios/book/index.html を指定してください）"
        )
    close = difflib.get_close_matches(scenario, ids, n=1)
    hint = f"もしかして {close[0]}？ " if close else ""
    return (
        f"シナリオ {scenario!r} はこのページにありません。{hint}"
        f"このページのシナリオ: {', '.join(ids)}"
    )


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


def _paper_arg(value: str) -> str:
    """``--paper``'s value, in either case (``a5`` is ``A5``)."""
    paper = value.upper()
    if paper not in PAPERS:
        raise argparse.ArgumentTypeError(
            f"用紙 {value!r} はありません（{'・'.join(PAPERS)} のどれか）"
        )
    return paper


def main(argv: list[str] | None = None) -> int:
    """``saikoro pdf <page.html or URL> <out.pdf> [--paper A5] [--balance full]
    [--scenario ID] [--handouts pages]``; 1 when the PDF cannot be made, 2 on a usage
    error."""
    parser = CommandParser(
        prog="saikoro pdf",
        description="ブック全体のページ（またはハンドアウトのページ）を Chromium で PDF に"
        "する: 表紙、ページ番号つきの目次、新しいページから始まる各シナリオと切り取って配る"
        "ハンドアウト、奥付。必要なもの: pip install 'saikoro[pdf]'、Chromium（Debian の "
        "/usr/bin/chromium か SAIKORO_CHROMIUM）、日本語のフォント（fonts-noto-cjk）。",
    )
    parser.add_argument(
        "source", metavar="PAGE", help="site/scenarios/book/index.html か、その http(s):// の URL"
    )
    parser.add_argument("out", metavar="OUT.pdf", type=Path, help="書き出す PDF")
    parser.add_argument(
        "--paper",
        type=_paper_arg,
        metavar="{A4,B5,A5}",
        help="用紙（B5 は JIS B5、182 x 257 mm）。既定: ブックの pdf.paper、なければ A4",
    )
    parser.add_argument(
        "--balance",
        choices=BALANCE,
        default="short",
        help="バランスの節: 判定と結末だけ（short、既定）か、すべて（full）",
    )
    parser.add_argument(
        "--scenario",
        metavar="ID",
        help="ブックのこのシナリオだけを印刷する（表紙もそのシナリオのもの）",
    )
    parser.add_argument(
        "--handouts",
        choices=HANDOUTS,
        default="cut",
        help="ハンドアウトを切り取るカードとして1ページに数枚（cut、既定）か、1枚ずつ1ページ（pages）",
    )
    try:
        args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as exc:
        return 2 if exc.code not in (0, None) else 0
    options = {
        "paper": args.paper,
        "balance": args.balance,
        "scenario": args.scenario,
        "handouts": args.handouts,
    }
    try:
        url = _source_url(args.source)
        if args.out.is_dir():
            raise PdfError(
                f"{args.out} はフォルダです。書き込む PDF のファイル名を指定してください"
            )
        if url.startswith("file://"):
            with _served(Path(args.source).resolve()) as served:
                render_pdf(served, args.out, **options)
        else:
            render_pdf(url, args.out, **options)
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
