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

import os
import sys
from pathlib import Path

__all__ = ["CHROMIUM", "render_pdf"]

CHROMIUM = os.environ.get("SAIKORO_CHROMIUM", "/usr/bin/chromium")
_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-sync"]


def render_pdf(page_url: str, out: Path, *, page: object | None = None) -> Path:
    """Print ``page_url`` (an ``http://`` or ``file://`` URL) to ``out`` as A4 PDF.

    ``page``: an open Playwright page to use (tests); otherwise Chromium is started.
    """
    if page is None:
        try:
            from playwright.sync_api import sync_playwright
        except ImportError as e:
            raise SystemExit("saikoro pdf needs Playwright: pip install playwright") from e
        if not Path(CHROMIUM).exists():
            raise SystemExit(f"saikoro pdf needs Chromium at {CHROMIUM} (or set SAIKORO_CHROMIUM)")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=_ARGS)
            try:
                return render_pdf(page_url, out, page=browser.new_page())
            finally:
                browser.close()
    pw: object = page
    pw.goto(page_url)  # type: ignore[attr-defined]
    pw.wait_for_load_state("networkidle")  # type: ignore[attr-defined]
    # flowcharts are drawn by script when they near the viewport: draw them all, and
    # wait until none is left to draw
    pw.evaluate("window.saikoroFlows && window.saikoroFlows.drawAll()")  # type: ignore[attr-defined]
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
    pw.pdf(  # type: ignore[attr-defined]
        path=str(out),
        format="A4",
        print_background=True,
        margin={"top": "15mm", "bottom": "15mm", "left": "12mm", "right": "12mm"},
    )
    return out


def main(argv: list[str] | None = None) -> int:
    """``saikoro pdf <page.html or URL> <out.pdf>``; 2 on a usage error."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or any(a in {"-h", "--help"} for a in args):
        print(
            "usage: saikoro pdf <site/scenarios/book/index.html or its URL> <out.pdf>\n"
            "Prints the whole-book page with Chromium (pip install 'saikoro[pdf]'; Debian's\n"
            "chromium at /usr/bin/chromium or SAIKORO_CHROMIUM; fonts-noto-cjk for Japanese)."
        )
        return 0 if args and args[0] in {"-h", "--help"} else 2
    source, out = args
    url = source if "://" in source else Path(source).resolve().as_uri()
    render_pdf(url, Path(out))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
