"""Figures of the printed sample book (``saikoro pdf``) on each paper.

Builds the project's site (``mkdocs build``, the sample book in ``scenarios/``) or takes a
built one (``--site DIR``), serves it on 127.0.0.1 and prints the whole-book page with
headless Chromium on each paper (A4, B5 and A5 unless ``--paper`` names some), then prints
for each: its pages, each scenario's pages (its text, then its handouts to cut out, which
start a page of their own), and the emptiest page that is not the last of a part (the
cover, the contents, a scenario's text, its handouts, the colophon), with every such page
under half full. A page's fill is measured on its image (``tests/print_figures.py``: the
fraction of the rows between its margins that hold ink, gaps shorter than 6 mm between
inked rows counted as filled).

Goal (issue 29): no page under half full but the last of a part.

Needs poppler-utils (``pdftoppm``) and Debian's chromium. Run:
``.venv/bin/python bench/bench_print.py [--site DIR] [--paper A5 ...] [--keep DIR]
[--balance full]``.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from print_figures import Figures, figures  # noqa: E402
from saikoro.site._paper import PAPERS  # noqa: E402
from saikoro.site._pdf import render_pdf  # noqa: E402


@contextmanager
def _served(site: Path) -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def _build(out: Path) -> None:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(out)],
        cwd=ROOT,
        env=env,
        check=True,
    )


def report(fig: Figures) -> None:
    """Print one book's figures."""
    print(f"{fig.paper}: {fig.pages} pages")
    texts = {p.name: p for p in fig.parts}
    for part in fig.parts:
        if part.name.endswith(" handouts") or part.name in {"cover", "contents", "back"}:
            continue
        sheets = texts.get(f"{part.name} handouts")
        extra = f" + {sheets.pages} handouts" if sheets else ""
        print(f"  {part.name:<20} {part.pages:>3} pages{extra}")
    for name in ("cover", "contents", "back"):
        if name in texts:
            print(f"  {name:<20} {texts[name].pages:>3} pages")
    ends = sorted(
        fig.fills[p.last - 1].fill
        for p in fig.parts
        if p.name not in {"cover", "contents", "back"} and not p.name.endswith(" handouts")
    )
    print(
        "  last page of each scenario's text (its handouts start a page of their own): "
        f"fill {ends[0]:.2f} to {ends[-1]:.2f}"
    )
    page, fill = fig.emptiest()
    print(f"  emptiest page (not the last of a part): p. {page}, fill {fill:.2f}")
    sparse = fig.sparse()
    print(f"  pages under half full (not the last of a part): {len(sparse)} {sparse}")
    print(f"  goal (none under half full): {'met' if not sparse else 'NOT met'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build the project)")
    parser.add_argument("--paper", action="append", choices=tuple(PAPERS))
    parser.add_argument("--balance", choices=("short", "full"), default="short")
    parser.add_argument("--keep", type=Path, help="write the PDFs into this folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site
        if site is None:
            site = Path(tmp) / "site"
            started = time.perf_counter()
            _build(site)
            print(f"built the site in {time.perf_counter() - started:.1f} s")
        out = args.keep or Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        with _served(site) as url:
            for paper in args.paper or ("A4", "B5", "A5"):
                pdf = out / f"book-{paper}.pdf"
                started = time.perf_counter()
                render_pdf(f"{url}scenarios/book/", pdf, paper=paper, balance=args.balance)
                print(f"printed {pdf.name} in {time.perf_counter() - started:.1f} s")
                report(figures(pdf))
    return 0


if __name__ == "__main__":
    sys.exit(main())
