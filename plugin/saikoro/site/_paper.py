"""Paper sizes of the printed book: the page's size, margins and type size for each.

One place for both ways a book is printed: the whole-book page carries the author's
paper (``pdf: paper:`` in the plugin's options) as an inline style, so the browser's own
print uses it; ``saikoro pdf --paper`` puts the chosen paper's style on the page before
printing (a later ``@page`` rule wins).

>>> print(paper_css("A5"))
@page { size: A5; margin: 12mm 11mm 14mm; }
:root { --saikoro-print-size: 8.8pt; --saikoro-print-image: 60mm; --saikoro-print-chart: 60mm; }
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_PAPER", "PAPERS", "Paper", "paper_css"]


@dataclass(frozen=True)
class Paper:
    """A paper: its CSS ``size``, its margins (top, sides, bottom: the page number sits in
    the bottom one), the body's type size in print, the tallest a picture prints and the
    tallest a flowchart prints (a scenario's chart fits under its overview and trailer
    instead of taking a page of its own)."""

    name: str
    size: str
    margin: str
    type_size: str
    image: str
    chart: str


PAPERS = {
    "A4": Paper("A4", "A4", "15mm 14mm 17mm", "10pt", "90mm", "100mm"),
    "B5": Paper("B5", "182mm 257mm", "13mm 12mm 15mm", "9.5pt", "75mm", "80mm"),
    "A5": Paper("A5", "A5", "12mm 11mm 14mm", "8.8pt", "60mm", "60mm"),
}
"""The papers ``saikoro pdf --paper`` and ``pdf: paper:`` take. B5 is JIS B5 (182 x 257
mm, the size Japanese books and printers call B5), not ISO's 176 x 250 mm that CSS's
``B5`` names."""

DEFAULT_PAPER = "A4"
"""The paper when neither the command nor the book names one (what home printers hold)."""


def paper_css(name: str) -> str:
    """The CSS that sets the printed page to paper ``name`` (a key of :data:`PAPERS`)."""
    paper = PAPERS[name]
    return (
        f"@page {{ size: {paper.size}; margin: {paper.margin}; }}\n"
        f":root {{ --saikoro-print-size: {paper.type_size}; "
        f"--saikoro-print-image: {paper.image}; --saikoro-print-chart: {paper.chart}; }}"
    )
