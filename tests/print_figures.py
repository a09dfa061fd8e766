"""Figures of a printed book (``saikoro pdf``): its pages, where each scenario starts and ends,
and how full each page is, measured on the page as a reader sees it.

Used by ``bench/bench_print.py`` (prints the figures) and ``tests/browser/test_print_edition.py``
(asserts the structure). A page's fill is measured on its image: ``pdftoppm`` (poppler-utils)
renders it in grey at 50 dpi; a row of pixels holds ink when one of its pixels is darker than
:data:`INK`; the fill is the fraction of the rows between the page's top and bottom margins (the
page number sits in the bottom one) that hold ink, once a gap shorter than :data:`GAP_MM`
between inked rows is counted as filled (the space between lines and paragraphs is part of
the text; a page of text from top to bottom measures about 1, a page whose text ends half way
about 0.5). ``ink`` is the bare fraction of inked rows, before the gaps are closed; ``reach``
how far down the page its last ink is (a page of cards spaced apart reaches further than it
fills).
"""

from __future__ import annotations

import dataclasses
import io
import itertools
import shutil
import subprocess
import tempfile
import urllib.parse
from pathlib import Path

DPI = 50
INK = 224
"""A pixel darker than this (of 255) is ink: text, rules, and the light grey lines that
draw a card's or a table's edge (a page of cards is as full as a page of text)."""
GAP_MM = 6.0
"""The widest blank band counted as part of the text around it (a blank line and a half
at A4's type size): a page's fill is not lowered by the space between its paragraphs."""

MARGINS_MM = {"A4": (15.0, 17.0), "B5": (13.0, 15.0), "A5": (12.0, 14.0)}
"""The top and bottom margins of each paper (``saikoro.site._paper.PAPERS``)."""

SIZES_PT = {"A4": (595.0, 842.0), "B5": (516.0, 729.0), "A5": (420.0, 595.0)}
"""Each paper's width and height in points (to within a point: Chromium rounds)."""


@dataclasses.dataclass(frozen=True)
class PageFill:
    """One page's fill (see the module's docstring) and its bare fraction of inked rows."""

    fill: float
    ink: float
    reach: float


@dataclasses.dataclass(frozen=True)
class Part:
    """A part of the book: a scenario (its id) or the book's own front or back matter, and
    its pages (from 1, inclusive)."""

    name: str
    first: int
    last: int

    @property
    def pages(self) -> int:
        return self.last - self.first + 1


def paper_of(reader: object) -> str | None:
    """The paper of a PDF (a ``pypdf.PdfReader``) from its first page's size, or ``None``."""
    box = reader.pages[0].mediabox  # type: ignore[attr-defined]
    size = (float(box.width), float(box.height))
    for name, (w, h) in SIZES_PT.items():
        if abs(size[0] - w) < 2 and abs(size[1] - h) < 2:
            return name
    return None


def destinations(reader: object) -> dict[str, int]:
    """Each named destination of a PDF (Chromium writes one per link target: an element's
    id) and its page, from 1."""
    out: dict[str, int] = {}
    for name, destination in reader.named_destinations.items():  # type: ignore[attr-defined]
        page = reader.get_destination_page_number(destination)  # type: ignore[attr-defined]
        if page is not None and page >= 0:
            out[urllib.parse.unquote(str(name).removeprefix("/"))] = page + 1
    return out


def parts(reader: object) -> list[Part]:
    """The book's parts in order: ``cover`` (its first page), ``contents`` (to the first
    scenario), each scenario's text
    (from its ``book-<id>`` destination, where the contents link to), its handouts to cut
    out (``<id> handouts``, from ``<id>--handouts-sheets``: they start a page of their own)
    and ``back`` (the colophon to the end)."""
    where = destinations(reader)
    total = len(reader.pages)  # type: ignore[attr-defined]
    starts = []
    for name, page in where.items():
        if name.startswith("book-"):
            starts.append((name.removeprefix("book-"), page))
        elif name.endswith("--handouts-sheets"):
            starts.append((f"{name.removesuffix('--handouts-sheets')} handouts", page))
        elif name.startswith(("奥付", "saikoro-colophon-")):
            starts.append(("back", page))
    assert any(n != "back" for n, _ in starts), "no scenario in the PDF (its contents link to none)"
    starts.sort(key=lambda item: (item[1], item[0].endswith("handouts"), item[0] == "back"))
    out = [Part("cover", 1, 1)]
    if starts[0][1] > 2:
        out.append(Part("contents", 2, starts[0][1] - 1))
    for i, (name, first) in enumerate(starts):
        end = starts[i + 1][1] - 1 if i + 1 < len(starts) else total
        out.append(Part(name, first, end))
    return out


def _pgm(data: bytes) -> tuple[int, int, bytes]:
    """Width, height and pixels of a binary PGM (``P5``, 8 bits) as pdftoppm writes it."""
    stream = io.BytesIO(data)
    fields: list[bytes] = []
    while len(fields) < 4:
        line = stream.readline()
        if line.startswith(b"#"):
            continue
        fields.extend(line.split())
    assert fields[0] == b"P5" and fields[3] == b"255", fields
    width, height = int(fields[1]), int(fields[2])
    return width, height, stream.read(width * height)


def _fill(width: int, height: int, pixels: bytes, paper: str) -> PageFill:
    top_mm, bottom_mm = MARGINS_MM[paper]
    per_mm = DPI / 25.4
    top, bottom = round(top_mm * per_mm), height - round(bottom_mm * per_mm)
    inked = []
    for y in range(top, bottom):
        row = pixels[y * width : (y + 1) * width]
        inked.append(min(row) < INK)
    rows = len(inked)
    ink = sum(inked) / rows
    gap = round(GAP_MM * per_mm)
    filled = list(inked)
    marks = [i for i, v in enumerate(inked) if v]
    for a, b in itertools.pairwise(marks):
        if 1 < b - a <= gap:
            for i in range(a + 1, b):
                filled[i] = True
    reach = (marks[-1] + 1) / rows if marks else 0.0
    return PageFill(round(sum(filled) / rows, 3), round(ink, 3), round(reach, 3))


def page_fills(pdf: Path, paper: str) -> list[PageFill]:
    """Each page's fill, rendered by ``pdftoppm`` (poppler-utils)."""
    tool = shutil.which("pdftoppm")
    if tool is None:
        raise RuntimeError("pdftoppm is missing: apt-get install poppler-utils")
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [tool, "-r", str(DPI), "-gray", str(pdf), f"{tmp}/p"], check=True, timeout=600
        )
        files = sorted(Path(tmp).glob("p-*.pgm"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
        return [_fill(*_pgm(f.read_bytes()), paper) for f in files]


@dataclasses.dataclass(frozen=True)
class Figures:
    """A printed book's figures: its paper, pages, parts and each page's fill."""

    paper: str
    pages: int
    parts: list[Part]
    fills: list[PageFill]

    def judged(self) -> list[int]:
        """The pages (from 1) held to be at least half full: every page but the last of
        each part (a scenario's last page, the cover and contents' last, the book's last)."""
        ends = {part.last for part in self.parts}
        return [p for p in range(1, self.pages + 1) if p not in ends]

    def emptiest(self) -> tuple[int, float]:
        """The judged page with the least fill, and its fill."""
        page = min(self.judged(), key=lambda p: self.fills[p - 1].fill)
        return page, self.fills[page - 1].fill

    def sparse(self, under: float = 0.5) -> list[tuple[int, float]]:
        """Judged pages under ``under`` full."""
        return [
            (p, self.fills[p - 1].fill) for p in self.judged() if self.fills[p - 1].fill < under
        ]


def figures(pdf: Path) -> Figures:
    """The figures of the printed book ``pdf``."""
    import pypdf

    reader = pypdf.PdfReader(str(pdf))
    paper = paper_of(reader)
    assert paper is not None, reader.pages[0].mediabox
    return Figures(paper, len(reader.pages), parts(reader), page_fills(pdf, paper))
